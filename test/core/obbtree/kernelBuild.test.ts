import { afterEach, describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { createMesh, type TriangleMesh } from '../../../src-core/geometry/mesh.js';
import { buildObbTree, setBuildKernel } from '../../../src-core/obbtree/build.js';
import type { ObbTree } from '../../../src-core/obbtree/layout.js';
import { validateTree } from '../../../src-core/obbtree/validate.js';
import { collide } from '../../../src-core/collide/collide.js';
import { minDistance } from '../../../src-core/collide/proximity.js';
import { limitBuildCapacity, limitKernelMemory, queryKernel, releaseTree } from '../../../src-core/kernel/kernel.js';
import { generatedMesh } from '../../../bench/generate';
import {
  MESH_PAIR_ARBS, boxMesh, gridMesh, makePose, quaternionToMatrix, withExtraTriangles, MeshBuilder, type MeshData,
} from '../../support/meshArbitraries.js';
import { parseRigid } from '../../../src-core/geometry/rigid.js';

const meshOf = (d: MeshData): TriangleMesh => createMesh(d.positions, d.indices);

function built(mesh: TriangleMesh, where: 'wasm' | 'ts', leafSize: number): ObbTree {
  setBuildKernel(where);
  try {
    return buildObbTree(mesh, { leafSize });
  } finally {
    setBuildKernel('wasm');
  }
}

const sameBits = (x: ArrayLike<number>, y: ArrayLike<number>): boolean =>
  x.length === y.length && Array.from(x).every((v, i) => Object.is(v, y[i]));

/** The kernel's tree equals the TypeScript builder's bit for bit, and lives in the kernel's memory. */
function expectSameTree(mesh: TriangleMesh, leafSize: number): void {
  const t = built(mesh, 'ts', leafSize);
  const k = built(mesh, 'wasm', leafSize);
  expect(k.boxes.buffer).toBeInstanceOf(SharedArrayBuffer);
  expect(k.nodeCount).toBe(t.nodeCount);
  expect(k.leafSize).toBe(t.leafSize);
  expect(k.maxAbsCoordinate).toBe(t.maxAbsCoordinate);
  expect(sameBits(k.boxes, t.boxes)).toBe(true);
  expect(sameBits(k.nodes, t.nodes)).toBe(true);
  expect(sameBits(k.triVerts, t.triVerts)).toBe(true);
  expect(sameBits(k.triOrder, t.triOrder)).toBe(true);
  expect(sameBits(k.positions, mesh.positions)).toBe(true);
  expect(validateTree(k).errors).toEqual([]);
}

afterEach(() => {
  setBuildKernel('wasm');
  limitBuildCapacity(null, null);
  limitKernelMemory(null);
});

describe('the WebAssembly tree builder', () => {
  it('is available here', () => {
    expect(queryKernel()).not.toBeNull();
  });

  for (const [family, arb] of Object.entries(MESH_PAIR_ARBS)) {
    it(`builds the TypeScript builder's tree bit for bit: ${family}`, () => {
      fc.assert(
        fc.property(arb, fc.constantFrom(1, 2, 4, 7, 64), (pair, leafSize) => {
          expectSameTree(meshOf(pair.a), leafSize);
          expectSameTree(meshOf(pair.b), leafSize);
        }),
        { numRuns: 40 },
      );
    });
  }

  it('builds the same trees over the benchmark meshes and degenerate ones', () => {
    for (const key of ['sphere-20k', 'torus-20k', 'lumpy-3674']) {
      for (const leafSize of [1, 4]) expectSameTree(createMesh(generatedMesh(key).positions, generatedMesh(key).indices), leafSize);
    }
    const box = boxMesh([0, 0, 0], [10, 10, 10], 4);
    for (const extra of ['repeated-vertex', 'all-same', 'same-coordinates', 'collinear', 'duplicate', 'needle'] as const) {
      expectSameTree(meshOf(withExtraTriangles(box, [[extra, 12, 3]], 7)), 2);
    }
    // Every triangle at one point (zero area, coincident centres: the group is halved).
    const b = new MeshBuilder();
    for (let i = 0; i < 50; i++) b.triangleAt([1, 2, 3], [1, 2, 3], [1, 2, 3]);
    expectSameTree(meshOf(b.build()), 4);
    expectSameTree(meshOf(gridMesh(40, 40, 1e-150)), 4);
    expectSameTree(meshOf(gridMesh(40, 40, 1e150)), 4);
  });

  it('grows its node store and stack when they are too small, to the same tree', () => {
    const mesh = meshOf(gridMesh(30, 30, 1));
    const expected = built(mesh, 'ts', 1);
    for (const [nodes, stack] of [[5, null], [null, 3], [1, 1]] as const) {
      limitBuildCapacity(nodes, stack);
      const k = built(mesh, 'wasm', 1);
      expect(k.boxes.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(sameBits(k.boxes, expected.boxes)).toBe(true);
      expect(sameBits(k.nodes, expected.nodes)).toBe(true);
    }
  });

  it('falls back to the TypeScript builder when the memory is full', () => {
    const d = gridMesh(120, 120, 1);
    const expected = built(meshOf(d), 'ts', 4);
    limitKernelMemory(0);
    const trees: ObbTree[] = [];
    let fellBack: ObbTree | null = null;
    for (let i = 0; i < 40 && !fellBack; i++) {
      const t = buildObbTree(meshOf(d));
      trees.push(t);
      if (!(t.boxes.buffer instanceof SharedArrayBuffer)) fellBack = t;
    }
    expect(fellBack).not.toBeNull();
    expect(sameBits(fellBack!.boxes, expected.boxes)).toBe(true);
    expect(sameBits(fellBack!.nodes, expected.nodes)).toBe(true);
    for (const t of trees) releaseTree(t);
  });

  it('releases a built tree: its memory goes to the next trees, and queries on it throw', () => {
    const d = boxMesh([0, 0, 0], [10, 10, 10], 3);
    const pose = makePose(quaternionToMatrix(0.8, 0.2, 0.5, -0.1), [4, 3, 2]);
    const a = buildObbTree(meshOf(d)), b = buildObbTree(meshOf(d));
    const first = collide(a, b, pose, 'all');
    expect(first.pairCount).toBeGreaterThan(0);
    releaseTree(a);
    expect(() => collide(a, b, pose, 'all')).toThrow(/released/);
    expect(() => minDistance(a, b, parseRigid(pose))).toThrow(/released/);
    // Built, queried and released again and again: the memory in use stops growing at once. (A tree's
    // block is had for as many nodes as the builder may make and its unused end given back, so a
    // rebuilt tree need not land where the released one was.)
    const arena = (queryKernel() as unknown as { arena: { top: number } }).arena;
    const tops: number[] = [];
    for (let i = 0; i < 20; i++) {
      const again = buildObbTree(meshOf(d));
      const r = collide(again, b, pose, 'all');
      expect(r.pairCount).toBe(first.pairCount);
      expect(Array.from(r.pairs)).toEqual(Array.from(first.pairs));
      releaseTree(again);
      tops.push(arena.top);
    }
    expect(new Set(tops.slice(1)).size).toBe(1);
    releaseTree(b);
  });
});
