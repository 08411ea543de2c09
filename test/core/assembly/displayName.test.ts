import { describe, it, expect } from 'vitest';
import { displayNames, labelPaths, type NamedPart } from '../../../src-core/assembly/displayName.js';

const part = (id: string, name: string, path: string[] = [name], body = 0, sourcePath = 'as1-oc-214.stp'): NamedPart => ({ id, name, path, sourcePath, body });

describe('displayNames (one name for a part everywhere)', () => {
  it('shows the sub-assemblies above a part, then its name', () => {
    const names = displayNames([
      part('rod', 'rod', ['as1', 'rod-assembly', 'rod']),
      part('plate', 'plate', ['as1', 'plate']),
    ]);
    expect(names.get('rod')).toBe('as1 / rod-assembly / rod');
    expect(names.get('plate')).toBe('as1 / plate');
  });

  it('numbers same-named siblings from 1 in document order, separately under each sub-assembly', () => {
    const parts = [
      part('n0', 'nut', ['as1', 'rod-assembly', 'nut']),
      part('n1', 'nut', ['as1', 'rod-assembly', 'nut']),
      part('b1', 'bolt', ['as1', 'l-bracket-assembly<1>', 'bolt']),
      part('n2', 'nut', ['as1', 'l-bracket-assembly<1>', 'nut']),
      part('b2', 'bolt', ['as1', 'l-bracket-assembly<1>', 'bolt']),
      part('n3', 'nut', ['as1', 'l-bracket-assembly<2>', 'nut']),
    ];
    const names = displayNames(parts);
    expect([...names.values()]).toEqual([
      'as1 / rod-assembly / nut<1>',
      'as1 / rod-assembly / nut<2>',
      'as1 / l-bracket-assembly<1> / bolt<1>',
      'as1 / l-bracket-assembly<1> / nut',
      'as1 / l-bracket-assembly<1> / bolt<2>',
      'as1 / l-bracket-assembly<2> / nut',
    ]);
    expect(labelPaths(parts).get('b2')).toEqual(['as1', 'l-bracket-assembly<1>', 'bolt<2>']);
    // Unique within the document.
    expect(new Set(names.values()).size).toBe(parts.length);
  });

  it("uses a renamed part's own name, and the path's last name when its own is a placeholder", () => {
    const names = displayNames([
      part('a', 'left bracket', ['as1', 'l-bracket-assembly<1>', 'l-bracket']),
      part('b', 'SOLID', ['as1', 'l-bracket-assembly<2>', 'l-bracket']),
      part('c', '', ['motor']),
    ]);
    expect(names.get('a')).toBe('as1 / l-bracket-assembly<1> / left bracket');
    expect(names.get('b')).toBe('as1 / l-bracket-assembly<2> / l-bracket');
    expect(names.get('c')).toBe('motor');
  });

  it('falls back to the place in the document when no name says anything', () => {
    const names = displayNames([
      part('p0', '', [''], 0, 'dir/as1_pe_203.brep'),
      part('p1', 'Body 2', ['Solid1'], 1, 'dir/as1_pe_203.brep'),
      part('p2', 'same', ['same'], 2, 'x.stp'),
    ]);
    expect(names.get('p0')).toBe('Part 1 (as1_pe_203.brep body 1)');
    expect(names.get('p1')).toBe('Part 2 (as1_pe_203.brep body 2)');
    expect(names.get('p2')).toBe('same');
    // Every part with one name (exporters that call every solid alike): their places.
    const alike = displayNames([part('x', 'Part', ['Part']), part('y', 'Part', ['Part'], 1)]);
    expect([...alike.values()]).toEqual(['Part 1 (as1-oc-214.stp body 1)', 'Part 2 (as1-oc-214.stp body 2)']);
    const mesh = displayNames([part('x', 'gear', ['gear']), part('y', 'gear', ['gear'], 1)]);
    expect([...mesh.values()]).toEqual(['Part 1 (as1-oc-214.stp body 1)', 'Part 2 (as1-oc-214.stp body 2)']);
  });

  it('keeps a name as written, and takes names differing in blanks at the ends for one', () => {
    const names = displayNames([part('a', '\tTAB', ['\tTAB']), part('b', 'TAB ', ['TAB ']), part('c', 'other', ['other'])]);
    expect(names.get('a')).toBe('\tTAB<1>');
    expect(names.get('b')).toBe('TAB <2>');
  });

  it('places a part with no path known at the top', () => {
    expect(displayNames([part('a', 'a', []), part('b', 'b', [])])).toEqual(new Map([['a', 'a'], ['b', 'b']]));
  });
});
