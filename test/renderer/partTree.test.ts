import { describe, expect, it } from 'vitest';
import { treeRows, type TreeRow } from '../../src-renderer/state/partTree';

const levels = new Map<string, string[]>([
  ['n0', ['as1', 'rod-assembly', 'nut<1>']],
  ['rod', ['as1', 'rod-assembly', 'rod']],
  ['b1', ['as1', 'l-bracket-assembly<1>', 'bolt']],
  ['plate', ['as1', 'plate']],
  ['n1', ['as1', 'rod-assembly', 'nut<2>']],
  ['loose', ['loose']],
]);
const ids = [...levels.keys()];

function text(rows: TreeRow[]): string[] {
  return rows.map((r) => `${'  '.repeat(r.depth)}${r.kind === 'group' ? `[${r.name}${r.collapsed ? ' +' : ''}]` : r.name}`);
}

describe('treeRows (the part list as the assembly tree)', () => {
  it('groups parts under their sub-assemblies in the order the document first lists them', () => {
    const rows = treeRows({ ids, levels, collapsed: new Set(), separator: ' / ' });
    expect(text(rows)).toEqual([
      '[as1]',
      '  [rod-assembly]',
      '    nut<1>',
      '    rod',
      '    nut<2>',
      '  [l-bracket-assembly<1>]',
      '    bolt',
      '  plate',
      'loose',
    ]);
    const rod = rows.find((r) => r.kind === 'group' && r.name === 'rod-assembly');
    expect(rod?.kind === 'group' && rod.partIds).toEqual(['n0', 'rod', 'n1']);
    const as1 = rows[0];
    expect(as1.kind === 'group' && as1.partIds).toEqual(['n0', 'rod', 'b1', 'plate', 'n1']);
    const n1 = rows.find((r) => r.kind === 'part' && r.id === 'n1');
    expect(n1).toMatchObject({ label: 'as1 / rod-assembly / nut<2>', prefix: 'as1 / rod-assembly / ', index: 4 });
  });

  it('hides what a collapsed sub-assembly holds', () => {
    const rows = treeRows({ ids, levels, collapsed: new Set(['as1\u0000rod-assembly']), separator: ' / ' });
    expect(text(rows).slice(0, 3)).toEqual(['[as1]', '  [rod-assembly +]', '  [l-bracket-assembly<1>]']);
  });

  it('lists only the parts shown, with the sub-assemblies above them expanded', () => {
    const rows = treeRows({ ids, levels, collapsed: new Set(['as1']), shown: new Set(['rod', 'loose']), separator: ' / ' });
    expect(text(rows)).toEqual(['[as1]', '  [rod-assembly]', '    rod', 'loose']);
  });

  it('is a flat list for parts without sub-assemblies', () => {
    const flat = treeRows({ ids: ['a', 'b'], levels: new Map([['a', ['a']], ['b', ['b']]]), collapsed: new Set(), separator: ' / ' });
    expect(text(flat)).toEqual(['a', 'b']);
  });
});
