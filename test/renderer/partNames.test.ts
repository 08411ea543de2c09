import { describe, expect, it } from 'vitest';
import { displayNames, fallbackName, fileNameOf, labelPaths, partMatches } from '../../src-renderer/state/partNames';
import { part } from '../support/fakeHost';

function names(list: { id: string; name: string; body?: number; sourcePath?: string }[]): string[] {
  const parts = list.map((p, i) => part(p.id, { name: p.name, path: [p.name], body: p.body ?? i, sourcePath: p.sourcePath ?? 'models/as1-oc-214.stp' }));
  const map = displayNames(parts);
  return parts.map((p) => map.get(p.id) ?? '?');
}

describe('displayNames', () => {
  it('keeps names used once', () => {
    expect(names([{ id: 'p', name: 'plate' }, { id: 'r', name: 'rod' }])).toEqual(['plate', 'rod']);
  });
  it('numbers names shared by some parts like CAD instances', () => {
    expect(names([{ id: 'n0', name: 'nut' }, { id: 'r', name: 'rod' }, { id: 'n1', name: 'nut' }])).toEqual(['nut<1>', 'rod', 'nut<2>']);
  });
  it('falls back to file and body for empty, placeholder or all-alike names', () => {
    expect(names([{ id: 'a', name: '' }, { id: 'b', name: 'plate' }, { id: 'c', name: 'SOLID' }])).toEqual([
      'Part 1 (as1-oc-214.stp body 1)',
      'plate',
      'Part 3 (as1-oc-214.stp body 3)',
    ]);
    expect(names([{ id: 'a', name: 'Bracket' }, { id: 'b', name: 'Bracket' }])).toEqual([
      'Part 1 (as1-oc-214.stp body 1)',
      'Part 2 (as1-oc-214.stp body 2)',
    ]);
  });
  it('shows the sub-assemblies above a part, as every report does', () => {
    const parts = [
      part('n0', { name: 'nut', path: ['as1', 'rod-assembly', 'nut'] }),
      part('n1', { name: 'nut', path: ['as1', 'rod-assembly', 'nut'] }),
      part('p', { name: 'plate', path: ['as1', 'plate'] }),
    ];
    expect([...displayNames(parts).values()]).toEqual(['as1 / rod-assembly / nut<1>', 'as1 / rod-assembly / nut<2>', 'as1 / plate']);
    expect(labelPaths(parts).get('n1')).toEqual(['as1', 'rod-assembly', 'nut<2>']);
  });
  it('keeps the name of a lone part', () => {
    expect(names([{ id: 'a', name: 'housing' }])).toEqual(['housing']);
  });
  it('gives every part a distinct label', () => {
    const list = Array.from({ length: 30 }, (_, i) => ({ id: `p${i}`, name: i % 3 === 0 ? '' : i % 3 === 1 ? 'bolt' : `washer ${i}` }));
    const shown = names(list);
    expect(new Set(shown).size).toBe(shown.length);
  });
});

describe('helpers', () => {
  it('takes the file name from either separator', () => {
    expect(fileNameOf('a/b/c.stp')).toBe('c.stp');
    expect(fileNameOf('C:\\models\\d.step')).toBe('d.step');
    expect(fileNameOf('e.stl')).toBe('e.stl');
  });
  it('numbers parts and bodies from 1', () => {
    expect(fallbackName(part('x', { body: 2, sourcePath: 'as1-oc-214.stp' }), 2)).toBe('Part 3 (as1-oc-214.stp body 3)');
  });
  it('matches the search text in the label, id, name or file, ignoring case', () => {
    const p = part('bolt-3', { name: 'bolt', sourcePath: 'dir/as1.stp' });
    expect(partMatches(p, 'bolt<2>', 'BOLT')).toBe(true);
    expect(partMatches(p, 'bolt<2>', 'bolt-3')).toBe(true);
    expect(partMatches(p, 'bolt<2>', 'as1')).toBe(true);
    expect(partMatches(p, 'bolt<2>', 'nut')).toBe(false);
    expect(partMatches(p, 'bolt<2>', '  ')).toBe(true);
  });
});
