import { describe, it, expect } from 'vitest';
import { parseAssembly } from '../../../../src-core/assembly/format/validate.js';
import { serializeAssembly } from '../../../../src-core/assembly/format/serialize.js';
import { assemblyFromBodies, assignPartIds, slugify } from '../../../../src-core/assembly/format/fromBodies.js';
import { DEFAULT_SETTINGS } from '../../../../src-core/assembly/model.js';

// ---------------------------------------------------------------------------------------------
// Bare files

describe('assemblyFromBodies and the assigned ids', () => {
  it('slugs names like the truth files do', () => {
    expect(slugify('nut')).toBe('nut');
    expect(slugify('L-Bracket (Rev 2)')).toBe('l-bracket-rev-2');
    expect(slugify('  __Hex guide__ ')).toBe('hex-guide');
    expect(slugify('Wälzlager №5')).toBe('wälzlager-5');
    expect(slugify('***')).toBe('');
  });

  it('every body a part at identity: <slug>-<index>, body-<index> for no name', () => {
    const names = ['nut', 'nut', 'rod', 'bolt', '', 'l-bracket', '#'];
    const doc = assemblyFromBodies('/data/cax-if-as1/as1-oc-214.stp', names.map((name) => ({ name })));
    expect(doc.parts?.map((p) => p.id)).toEqual(['nut-0', 'nut-1', 'rod-2', 'bolt-3', 'body-4', 'l-bracket-5', 'body-6']);
    expect(doc.parts?.map((p) => p.body)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(doc.parts?.every((p) => p.transform === undefined && p.source === 'as1-oc-214')).toBe(true);
    expect(doc.parts?.[0].name).toBe('nut');
    expect(doc.parts?.[4].name).toBeUndefined();
    expect(doc.sources).toEqual([{ id: 'as1-oc-214', path: 'as1-oc-214.stp' }]);
    expect(doc.name).toBe('as1-oc-214.stp');
    expect(doc.settings).toEqual(DEFAULT_SETTINGS);
    expect(doc.ignore).toEqual([]);
    expect(parseAssembly(serializeAssembly(doc), 'x')).toStrictEqual(doc);
  });

  it('takes a source id and units when given', () => {
    const doc = assemblyFromBodies('C:\\models\\Base Link.STL', [{ name: '' }], { units: 'm' });
    expect(doc.sources).toEqual([{ id: 'base-link', path: 'Base Link.STL', units: 'm' }]);
    expect(assemblyFromBodies('x.stl', [{ name: 'a' }], { sourceId: 'src' }).parts?.[0]).toEqual({ id: 'a-0', name: 'a', source: 'src', body: 0 });
    expect(assemblyFromBodies('.stl', [{ name: 'a' }]).sources[0].id).toBe('stl');
    expect(assemblyFromBodies('###.stl', [{ name: 'a' }]).sources[0].id).toBe('model');
  });

  it('assignPartIds: prefixes and collisions', () => {
    expect(assignPartIds(['gear', ''], 'g')).toEqual(['g-gear-0', 'g-body-1']);
    const taken = new Set<string>();
    expect(assignPartIds(['b-c'], 'a', taken)).toEqual(['a-b-c-0']);
    expect(assignPartIds(['c'], 'a-b', taken)).toEqual(['a-b-c-0_2']);
  });
});
