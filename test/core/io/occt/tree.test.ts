import { describe, it, expect } from 'vitest';
import { bodyPaths } from '../../../../src-core/io/occt/tree.js';
import { MAX_BODY_PATH_DEPTH } from '../../../../src-core/io/types.js';
import { read, registry } from './helpers.js';

const node = (name: string, meshes: number[], children: unknown[] = []) => ({ name, meshes, children });

describe('bodyPaths (the product tree as one path per body)', () => {
  it('ends with the node of a part, and with the mesh inside a sub-assembly', () => {
    const root = node('', [], [
      node('as1', [], [
        node('rod-assembly', [0, 1, 2]),
        node('plate', [3]),
      ]),
    ]);
    expect(bodyPaths(root, ['nut', 'nut', 'rod', 'plate'], 'as1.stp')).toEqual([
      ['as1', 'rod-assembly', 'nut'],
      ['as1', 'rod-assembly', 'nut'],
      ['as1', 'rod-assembly', 'rod'],
      ['as1', 'plate'],
    ]);
  });

  it('numbers sibling sub-assemblies of the same name from 1, in file order', () => {
    const root = node('', [], [node('top', [], [node('bracket', [0, 1]), node('plate', [2]), node('bracket', [3, 4])])]);
    expect(bodyPaths(root, ['bolt', 'nut', 'plate', 'bolt', 'nut'], 'a.stp')).toEqual([
      ['top', 'bracket<1>', 'bolt'],
      ['top', 'bracket<1>', 'nut'],
      ['top', 'plate'],
      ['top', 'bracket<2>', 'bolt'],
      ['top', 'bracket<2>', 'nut'],
    ]);
  });

  it('falls back to the mesh name, or the file stem for one unnamed body, without a usable tree', () => {
    expect(bodyPaths(undefined, ['a', 'b'], 'x.brep')).toEqual([['a'], ['b']]);
    expect(bodyPaths(node('', [0, 1]), ['', ''], 'dir/x.brep')).toEqual([[''], ['']]);
    expect(bodyPaths(node('', [0]), [''], 'dir/motor.brep')).toEqual([['motor']]);
    expect(bodyPaths({ name: 7, meshes: 'no', children: [null, 3] }, ['solo'], 'm.stp')).toEqual([['solo']]);
    // A mesh the tree does not list keeps its name; one it lists twice keeps its first place; bad indices are ignored.
    expect(bodyPaths(node('', [], [node('A', [0, 9, -1]), node('B', [0])]), ['A', 'q'], 'm.stp')).toEqual([['A'], ['q']]);
    expect(bodyPaths(node('', [], [node('A', [0, 9, -1]), node('B', [0])]), ['p', 'q'], 'm.stp')).toEqual([['A', 'p'], ['q']]);
  });

  it('stops at the deepest level it follows', () => {
    let deep: ReturnType<typeof node> = node('leaf', [0]);
    for (let i = 0; i < MAX_BODY_PATH_DEPTH + 10; i++) deep = node(`n${i}`, [], [deep]);
    expect(bodyPaths(node('', [], [deep]), ['leaf'], 'deep.stp')).toEqual([['leaf']]);
  });
});

describe('the importers give every body its path', () => {
  it('AS1: the assembly, its sub-assemblies numbered, then the part', async () => {
    const r = await registry.import(read('cax-if-as1/as1-oc-214.stp'), 'as1-oc-214.stp');
    const paths = r.bodies.map((b) => b.path);
    expect(paths[0]).toEqual(['as1', 'rod-assembly', 'nut']);
    expect(paths[2]).toEqual(['as1', 'rod-assembly', 'rod']);
    expect(paths[3]).toEqual(['as1', 'l-bracket-assembly<1>', 'bolt']);
    expect(paths[9]).toEqual(['as1', 'l-bracket-assembly<1>', 'l-bracket']);
    expect(paths[10]).toEqual(['as1', 'plate']);
    expect(paths[17]).toEqual(['as1', 'l-bracket-assembly<2>', 'l-bracket']);
  });

  it('a STEP file with several roots, and the trackball', async () => {
    const multi = await registry.import(read('pythonocc-multi-root/stp_multiple_shp_at_root.stp'), 'stp_multiple_shp_at_root.stp');
    expect(multi.bodies.map((b) => b.path)).toEqual([['Part 3'], ['Part 2'], ['Part 1']]);
    const sla = await registry.import(read('endgame-trackball/SLA.step'), 'SLA.step');
    expect(sla.bodies.map((b) => b.path)).toEqual([['Hex guide'], ['Wheel (hex shaft)']]);
  });

  it('a BREP without names, and an STL: the file stem for a single body', async () => {
    const brep = await registry.import(read('cax-if-as1/as1_pe_203.brep'), 'as1_pe_203.brep');
    expect(brep.bodies.every((b) => b.path !== undefined && b.path.length === 1 && b.path[0] === '')).toBe(true);
    const tri = 'solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n';
    const one = await registry.import(new Uint8Array(Buffer.from(tri)), 'models/tri.stl');
    expect(one.bodies[0]!.path).toEqual(['tri']);
  });
});
