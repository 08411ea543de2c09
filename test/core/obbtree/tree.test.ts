import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { createMesh } from '../../../src-core/geometry/mesh.js';
import type { TriangleMesh } from '../../../src-core/geometry/mesh.js';
import { buildAabbTree, buildHybridTree, buildObbTree } from '../../../src-core/obbtree/build.js';
import { OBB_STRIDE, AABB_STRIDE, SPHERE_STRIDE } from '../../../src-core/obbtree/layout.js';
import type { BvTree, HybridTree } from '../../../src-core/obbtree/layout.js';
import { validateTree } from '../../../src-core/obbtree/validate.js';
import { serializeTree, deserializeTree } from '../../../src-core/obbtree/serialize.js';
import type { SerializedTree } from '../../../src-core/obbtree/serialize.js';
import { collide } from '../../../src-core/collide/collide.js';
import { collideBruteForce } from '../../../src-core/collide/bruteForce.js';
import { STRATEGIES } from '../../../src-core/collide/strategies.js';
import { generatedMesh } from '../../../bench/generate';
import {
  MESH_PAIR_ARBS, meshArb, boxMesh, uvSphereMesh, gridMesh, cylinderMesh, scaleShiftMesh, makePose,
  quaternionToMatrix, IDENTITY, SIGNED_PERMUTATIONS, rotate, MeshBuilder,
} from '../../support/meshArbitraries.js';
import type { MeshData, Vec3 } from '../../support/meshArbitraries.js';

interface Config {
  readonly name: string;
  readonly build: (mesh: TriangleMesh) => BvTree;
}

const CONFIGS: readonly Config[] = [
  ...STRATEGIES.map((s): Config => ({ name: `strategy ${s.name}`, build: s.build })),
  ...[1, 2, 8, 64].map((leafSize): Config => ({ name: `obb leaf ${leafSize}`, build: (m) => buildObbTree(m, { leafSize }) })),
  { name: 'obb-hull leaf 1', build: (m) => buildObbTree(m, { leafSize: 1, fit: 'hull' }) },
  ...[1, 2, 8, 64].map((leafSize): Config => ({ name: `aabb leaf ${leafSize}`, build: (m) => buildAabbTree(m, { leafSize }) })),
  ...[0, 1, 3, 20].map((sphereLevels): Config => ({ name: `hybrid spheres ${sphereLevels}`, build: (m) => buildHybridTree(m, { sphereLevels }) })),
  { name: 'hybrid leaf 1 spheres 64', build: (m) => buildHybridTree(m, { leafSize: 1, sphereLevels: 64 }) },
];

const meshOf = (d: MeshData): TriangleMesh => createMesh(d.positions, d.indices);

/** Leaves reached from the root: [node, first slot, count]. */
function leavesOf(tree: BvTree): [number, number, number][] {
  const out: [number, number, number][] = [];
  const stack = [0];
  while (stack.length > 0) {
    const i = stack.pop()!;
    const count = tree.nodes[2 * i + 1]!;
    if (count > 0) out.push([i, tree.nodes[2 * i]!, count]);
    else stack.push(tree.nodes[2 * i]!, i + 1);
  }
  return out;
}

/** The structural facts every tree must satisfy, reported with the configuration's name. */
function checkTree(name: string, tree: BvTree, mesh: TriangleMesh): void {
  const v = validateTree(tree);
  expect(v.errors, name).toEqual([]);
  expect(v.ok, name).toBe(true);
  expect(v.worstExcess, `${name}: worst excess`).toBeLessThanOrEqual(0);
  expect(v.nodesChecked, name).toBe(tree.nodeCount);
  expect(tree.triangleCount, name).toBe(mesh.triangleCount);
  const leaves = leavesOf(tree);
  expect(leaves.filter(([, , count]) => count > tree.leafSize), `${name}: leaves over the leaf size`).toEqual([]);
  expect(leaves.reduce((sum, [, , count]) => sum + count, 0), name).toBe(mesh.triangleCount);
  // Slots map back to the mesh's own triangles.
  const wrongSlots: number[] = [];
  for (let s = 0; s < tree.triangleCount; s++) {
    const t = tree.triOrder[s]!;
    for (let k = 0; k < 3; k++) if (tree.triVerts[3 * s + k] !== mesh.indices[3 * t + k]) wrongSlots.push(s);
  }
  expect(wrongSlots, `${name}: slots whose vertices are not their triangle's`).toEqual([]);
}

/** A generated benchmark mesh (bench/generate.ts), made in memory and read as the bench reads its STL. */
function loadStl(file: string): TriangleMesh {
  const m = generatedMesh(file.replace(/\.stl$/, ''));
  return createMesh(m.positions, m.indices);
}

// ---------------------------------------------------------------------------------------------
// Degenerate inputs.

function soup(coords: readonly Vec3[][]): MeshData {
  const mb = new MeshBuilder();
  for (const [p, q, r] of coords) mb.triangleAt(p!, q!, r!);
  return mb.build();
}

const DEGENERATE: Readonly<Record<string, MeshData>> = {
  'a single triangle': soup([[[0, 0, 0], [1, 0, 0], [0, 1, 0]]]),
  'a single point': soup([[[1, 2, 3], [1, 2, 3], [1, 2, 3]]]),
  'two identical triangles': { positions: Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: Uint32Array.from([0, 1, 2, 0, 1, 2]) },
  '100 copies of one triangle': {
    positions: Float64Array.from([0.1, 0.2, 0.3, 1.7, -0.4, 0.9, -0.3, 1.1, 2.5]),
    indices: Uint32Array.from({ length: 300 }, (_, i) => i % 3),
  },
  'all zero-area (repeated vertices and collinear)': soup(
    Array.from({ length: 60 }, (_, k): Vec3[] => (k % 2 === 0
      ? [[k, 0, 1], [k, 0, 1], [k + 1, 2, 0]]
      : [[0, k, 0], [1, k + 1, 2], [2, k + 2, 4]])),
  ),
  'collinear points only': soup(Array.from({ length: 40 }, (_, k): Vec3[] => [[k, 2 * k, 3 * k], [k + 1, 2 * k + 2, 3 * k + 3], [k + 5, 2 * k + 10, 3 * k + 15]])),
  'all centroids coincide': soup(SIGNED_PERMUTATIONS.map((r): Vec3[] => [rotate(r, [3, 0, 0]), rotate(r, [-1, 2, 1]), rotate(r, [-2, -2, -1])])),
  'a flat grid': gridMesh(12, 9, 0.5, -3, -2, 1),
  'a sphere at 1e-6': scaleShiftMesh(uvSphereMesh(1, 12, 8), 1e-6, [0, 0, 0]),
  'a sphere at 1e6': scaleShiftMesh(uvSphereMesh(1, 12, 8), 1e6, [0, 0, 0]),
  'a unit sphere 1e6 from the origin': scaleShiftMesh(uvSphereMesh(1, 12, 8), 1, [1e6, -1e6, 1e6]),
  'a 1e-6 cylinder 1e6 from the origin': scaleShiftMesh(cylinderMesh(1, 2, 10, 2), 1e-6, [1e6, 1e6, 0]),
  'a box at 2^-40': scaleShiftMesh(boxMesh([0, 0, 0], [1, 2, 3], 2), 2 ** -40, [0, 0, 0]),
};

describe('validateTree accepts every tree the builders make', () => {
  it('on generated meshes of every family, for every strategy, leaf size and sphere depth (seed 20261140)', () => {
    fc.assert(
      fc.property(meshArb, (d) => {
        const mesh = meshOf(d);
        for (const c of CONFIGS) checkTree(c.name, c.build(mesh), mesh);
      }),
      { seed: 20261140, numRuns: 150 },
    );
  });

  for (const [name, d] of Object.entries(DEGENERATE)) {
    it(`on ${name}, and its queries equal brute force`, () => {
      const mesh = meshOf(d);
      const poses = [
        makePose(IDENTITY, [0, 0, 0]),
        makePose(SIGNED_PERMUTATIONS[5]!, [0, 0, 0]),
        makePose(quaternionToMatrix(0.9, 0.1, -0.3, 0.2), [0, 0, 0]),
      ];
      const oracles = poses.map((p) => collideBruteForce(mesh, mesh, p).length / 2);
      for (const [n, c] of CONFIGS.entries()) {
        const tree = c.build(mesh);
        checkTree(c.name, tree, mesh);
        // Queries with the named strategies and one triangle per leaf.
        if (n >= STRATEGIES.length && !/leaf 1\b/.test(c.name)) continue;
        for (const [k, p] of poses.entries()) expect(collide(tree, tree, p, 'all').pairCount, `${c.name}, pose ${k}`).toBe(oracles[k]);
      }
    });
  }

  it('on the benchmark meshes (box-48, lumpy-3674, torus-20k: every strategy; sphere-20k: all but the hull fit)', () => {
    for (const file of ['box-48.stl', 'lumpy-3674.stl']) {
      const mesh = loadStl(file);
      for (const s of STRATEGIES) checkTree(`${file} ${s.name}`, s.build(mesh), mesh);
      checkTree(`${file} obb leaf 1`, buildObbTree(mesh, { leafSize: 1 }), mesh);
      checkTree(`${file} hybrid spheres 20`, buildHybridTree(mesh, { sphereLevels: 20 }), mesh);
    }
    // Building the hull fit over 20k triangles takes seconds per tree under the test runner: once.
    for (const file of ['sphere-20k.stl', 'torus-20k.stl']) {
      const mesh = loadStl(file);
      for (const s of STRATEGIES.filter((x) => x.name !== 'obb-hull')) checkTree(`${file} ${s.name}`, s.build(mesh), mesh);
      checkTree(`${file} aabb leaf 1`, buildAabbTree(mesh, { leafSize: 1 }), mesh);
      checkTree(`${file} hybrid leaf 1 spheres 64`, buildHybridTree(mesh, { leafSize: 1, sphereLevels: 64 }), mesh);
    }
    const torus = loadStl('torus-20k.stl');
    checkTree('torus-20k obb-hull', buildObbTree(torus, { fit: 'hull' }), torus);
  });
});

// ---------------------------------------------------------------------------------------------
// Corruption.

/** A deep copy of a tree (typed arrays copied), so that mutations leave the original alone. */
function copyTree<T extends BvTree>(tree: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(tree)) out[k] = ArrayBuffer.isView(v) ? (v as Float64Array).slice() : v;
  return out as T;
}

function expectRejected(what: string, tree: BvTree, message: RegExp): void {
  const v = validateTree(tree);
  expect(v.ok, what).toBe(false);
  expect(v.errors.length, what).toBeGreaterThan(0);
  expect(v.errors.some((e) => message.test(e)), `${what}: ${JSON.stringify(v.errors)}`).toBe(true);
}

describe('validateTree detects corruption', () => {
  const mesh = meshOf(uvSphereMesh(3, 10, 7));
  const trees: BvTree[] = [buildObbTree(mesh), buildObbTree(mesh, { fit: 'hull', leafSize: 1 }), buildAabbTree(mesh, { leafSize: 2 }), buildHybridTree(mesh, { sphereLevels: 2 })];

  for (const original of trees) {
    const kind = `${original.kind} (leaf ${original.leafSize})`;

    it(`${kind}: a shrunken half extent`, () => {
      const t = copyTree(original);
      const stride = t.kind === 'aabb' ? AABB_STRIDE : OBB_STRIDE;
      // Node 0 (the root) holds every vertex; its largest half extent spans the mesh.
      let axis = 3;
      for (let k = 4; k < 6; k++) if (t.boxes[k]! > t.boxes[axis]!) axis = k;
      t.boxes[axis] = t.boxes[axis]! * 0.5;
      expect(stride).toBeGreaterThan(5);
      expectRejected(kind, t, /outside the box of node 0/);
      // A leaf's box, shrunk in its smallest non-zero direction.
      const u = copyTree(original);
      const [leaf] = leavesOf(u);
      const o = leaf![0] * stride;
      let k = o + 3;
      for (let j = o + 4; j < o + 6; j++) if (u.boxes[j]! > u.boxes[k]!) k = j;
      u.boxes[k] = u.boxes[k]! * 0.9;
      expectRejected(kind, u, new RegExp(`outside the box of node ${leaf![0]}\\b`));
    });

    it(`${kind}: a vertex moved out`, () => {
      const t = copyTree(original);
      (t.positions as Float64Array)[3 * t.triVerts[0]!] = 1000;
      expectRejected(kind, t, /outside the (box|sphere) of node/);
      expect(validateTree(original).ok).toBe(true);
    });

    it(`${kind}: a broken child link`, () => {
      const t = copyTree(original);
      const internal = Array.from({ length: t.nodeCount }, (_, i) => i).find((i) => t.nodes[2 * i + 1] === 0)!;
      t.nodes[2 * internal] = internal;
      expectRejected(kind, t, /right child/);
      const u = copyTree(original);
      u.nodes[2 * internal] = u.nodeCount + 3;
      expectRejected(kind, u, /right child|out of range/);
      const w = copyTree(original);
      w.nodes[2 * internal + 1] = -1;
      expectRejected(kind, w, /negative triangle count/);
    });

    it(`${kind}: a duplicated slot, a repeated triangle number, an oversized leaf`, () => {
      const t = copyTree(original);
      const leaves = leavesOf(t);
      const [a, b] = [leaves[0]!, leaves[1]!];
      t.nodes[2 * b[0]] = a[1];
      expectRejected(kind, t, /in two leaves|in no leaf|contiguous/);
      const u = copyTree(original);
      u.triOrder[1] = u.triOrder[0]!;
      expectRejected(kind, u, /not a permutation/);
      const big = leaves.find(([, , c]) => c > 1);
      if (big) {
        const w = { ...copyTree(original), leafSize: big[2] - 1 } as BvTree;
        expectRejected(kind, w, /more than the leaf size/);
      }
    });

    if (original.kind === 'hybrid') {
      // Known bug, reported: validateTree does not check that sphere indices are in range; an
      // index past the spheres reads NaN and passes. Remove `.fails` once fixed.
      it(`${kind}: a sphere index out of range`, () => {
        const t = copyTree(original as HybridTree);
        t.sphereOf[0] = t.spheres.length / SPHERE_STRIDE + 5;
        expectRejected(kind, t, /sphere/);
      });

      it(`${kind}: a shrunken sphere`, () => {
        const t = copyTree(original as HybridTree);
        const so = t.sphereOf[0]! * SPHERE_STRIDE;
        t.spheres[so + 3] = t.spheres[so + 3]! * 0.5;
        expectRejected(kind, t, /outside the sphere of node 0/);
      });
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Serialisation.

function sameResults(a1: BvTree, b1: BvTree, a2: BvTree, b2: BvTree, pose: Float64Array): void {
  for (const mode of ['all', 'any'] as const) {
    const r1 = collide(a1, b1, pose, mode), r2 = collide(a2, b2, pose, mode);
    expect(Array.from(r2.pairs)).toEqual(Array.from(r1.pairs));
    expect([r2.hit, r2.pairCount, r2.boxTests, r2.triTests]).toEqual([r1.hit, r1.pairCount, r1.boxTests, r1.triTests]);
  }
}

describe('serializeTree and deserializeTree', () => {
  it('round trip (directly and through structuredClone) gives identical query results (seed 20261141)', () => {
    fc.assert(
      fc.property(fc.oneof(MESH_PAIR_ARBS.closedOverlap!, MESH_PAIR_ARBS.surfaceContact!), fc.boolean(), (p, clone) => {
        const A = meshOf(p.a), B = meshOf(p.b);
        for (const c of CONFIGS) {
          const ta = c.build(A), tb = c.build(B);
          const sa = serializeTree(ta), sb = serializeTree(tb);
          const [da, db] = clone
            ? [deserializeTree(structuredClone(sa)), deserializeTree(structuredClone(sb))]
            : [deserializeTree(sa), deserializeTree(sb)];
          expect(da.kind).toBe(ta.kind);
          expect([da.nodeCount, da.leafSize, da.triangleCount, da.vertexCount, da.maxAbsCoordinate]).toEqual([ta.nodeCount, ta.leafSize, ta.triangleCount, ta.vertexCount, ta.maxAbsCoordinate]);
          if (da.kind === 'hybrid' && ta.kind === 'hybrid') expect(da.sphereLevels).toBe(ta.sphereLevels);
          expect(validateTree(da).ok).toBe(true);
          sameResults(ta, tb, da, db, p.pose);
        }
      }),
      { seed: 20261141, numRuns: 25 },
    );
  });

  it('a tree read back from a JSON header and copied buffers (a disk cache) still answers the same', () => {
    const mesh = loadStl('lumpy-3674.stl');
    const pose = makePose(quaternionToMatrix(0.2, 0.4, -0.1, 0.8), [10, 5, -3]);
    for (const s of STRATEGIES.filter((x) => x.name !== 'obb-hull')) {
      const t = s.build(mesh);
      const data = serializeTree(t);
      const header = JSON.parse(JSON.stringify({ ...data, buffers: [] })) as SerializedTree;
      const back = deserializeTree({ ...header, buffers: data.buffers.map((b) => b.slice(0)) });
      sameResults(t, t, back, back, pose);
    }
  });

  // Known bug, reported: the spheres buffer is only checked to be a multiple of one sphere, so a
  // buffer with spheres missing (down to none) is accepted, and validateTree then passes the tree
  // (a missing sphere reads as NaN, which no comparison flags). Remove `.fails` once fixed.
  it('rejects a hybrid spheres buffer with whole spheres missing or extra', () => {
    const mesh = meshOf(boxMesh([0, 0, 0], [1, 2, 3], 2));
    const data = serializeTree(buildHybridTree(mesh, { sphereLevels: 2 }));
    const bytes = data.buffers[6]!.byteLength;
    for (const size of [bytes - 8 * SPHERE_STRIDE, 0, bytes + 8 * SPHERE_STRIDE]) {
      const buffers = data.buffers.slice();
      buffers[6] = new ArrayBuffer(size);
      expect(() => deserializeTree({ ...data, buffers }), `spheres buffer of ${size} bytes`).toThrow(RangeError);
    }
  });

  it('rejects wrong buffer sizes, buffer counts, versions and counts with RangeError', () => {
    const mesh = meshOf(boxMesh([0, 0, 0], [1, 2, 3], 2));
    for (const tree of [buildObbTree(mesh), buildAabbTree(mesh), buildHybridTree(mesh, { sphereLevels: 2 })]) {
      const data = serializeTree(tree);
      const cloned = (): SerializedTree => structuredClone(data);
      for (let i = 0; i < data.buffers.length; i++) {
        for (const delta of [-8, 8, -4, -32, 32]) {
          if (tree.kind === 'hybrid' && i === 6 && delta % 32 === 0) continue; // whole spheres: see the next test
          const d = cloned();
          const bufs = d.buffers.slice();
          bufs[i] = new ArrayBuffer(Math.max(0, bufs[i]!.byteLength + delta));
          expect(() => deserializeTree({ ...d, buffers: bufs }), `${tree.kind} buffer ${i} ${delta}`).toThrow(RangeError);
        }
      }
      expect(() => deserializeTree({ ...cloned(), buffers: cloned().buffers.slice(0, -1) })).toThrow(RangeError);
      expect(() => deserializeTree({ ...cloned(), buffers: [...cloned().buffers, new ArrayBuffer(8)] })).toThrow(RangeError);
      expect(() => deserializeTree({ ...cloned(), version: 1 } as unknown as SerializedTree)).toThrow(RangeError);
      expect(() => deserializeTree({ ...cloned(), format: 'other' } as unknown as SerializedTree)).toThrow(RangeError);
      expect(() => deserializeTree({ ...cloned(), nodeCount: -1 })).toThrow(RangeError);
      expect(() => deserializeTree({ ...cloned(), triangleCount: 1.5 })).toThrow(RangeError);
      expect(() => deserializeTree({ ...cloned(), nodeCount: data.nodeCount + 1 })).toThrow(RangeError);
      expect(() => deserializeTree(cloned())).not.toThrow();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Options.

describe('build options', () => {
  const mesh = meshOf(uvSphereMesh(1, 8, 6));

  it('leaf size must be an integer from 1 to 64 (0, 65, 1.5, -1, NaN → RangeError)', () => {
    for (const leafSize of [0, 65, 1.5, -1, NaN, Infinity]) {
      expect(() => buildObbTree(mesh, { leafSize }), `obb ${leafSize}`).toThrow(RangeError);
      expect(() => buildObbTree(mesh, { leafSize, fit: 'hull' }), `obb-hull ${leafSize}`).toThrow(RangeError);
      expect(() => buildAabbTree(mesh, { leafSize }), `aabb ${leafSize}`).toThrow(RangeError);
      expect(() => buildHybridTree(mesh, { leafSize }), `hybrid ${leafSize}`).toThrow(RangeError);
    }
    for (const leafSize of [1, 64]) {
      for (const tree of [buildObbTree(mesh, { leafSize }), buildAabbTree(mesh, { leafSize }), buildHybridTree(mesh, { leafSize })]) {
        expect(tree.leafSize).toBe(leafSize);
        checkTree(`${tree.kind} leaf ${leafSize}`, tree, mesh);
      }
    }
  });

  it('sphere levels must be an integer from 0 to 64', () => {
    for (const sphereLevels of [-1, 65, 1.5, NaN]) expect(() => buildHybridTree(mesh, { sphereLevels }), `${sphereLevels}`).toThrow(RangeError);
    const none = buildHybridTree(mesh, { sphereLevels: 0 });
    expect(Array.from(none.sphereOf).every((s) => s === -1)).toBe(true);
    const all = buildHybridTree(mesh, { sphereLevels: 64 });
    expect(Array.from(all.sphereOf).every((s) => s >= 0)).toBe(true);
    const one = buildHybridTree(mesh, { sphereLevels: 1 });
    expect(Array.from(one.sphereOf).filter((s) => s >= 0)).toEqual([0]);
    expect(one.sphereOf[0]).toBe(0);
  });

  it('every leaf holds at most leafSize triangles (seed 20261142)', () => {
    fc.assert(
      fc.property(meshArb, fc.integer({ min: 1, max: 64 }), (d, leafSize) => {
        const m = meshOf(d);
        for (const tree of [buildObbTree(m, { leafSize }), buildAabbTree(m, { leafSize }), buildHybridTree(m, { leafSize, sphereLevels: 3 })]) {
          const leaves = leavesOf(tree);
          expect(leaves.every(([, , c]) => c >= 1 && c <= leafSize)).toBe(true);
          expect(leaves.reduce((s, [, , c]) => s + c, 0)).toBe(m.triangleCount);
        }
      }),
      { seed: 20261142, numRuns: 60 },
    );
  });

  it('a mesh with no triangles cannot be built on', () => {
    const empty: TriangleMesh = { positions: new Float64Array(3), indices: new Uint32Array(0), vertexCount: 1, triangleCount: 0 };
    expect(() => buildObbTree(empty)).toThrow(RangeError);
    expect(() => buildAabbTree(empty)).toThrow(RangeError);
    expect(() => buildHybridTree(empty)).toThrow(RangeError);
  });
});
