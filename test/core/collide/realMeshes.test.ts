import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { createMesh } from '../../../src-core/geometry/mesh.js';
import type { TriangleMesh } from '../../../src-core/geometry/mesh.js';
import { buildAabbTree, buildHybridTree, buildObbTree } from '../../../src-core/obbtree/build.js';
import type { BvTree } from '../../../src-core/obbtree/layout.js';
import { collide } from '../../../src-core/collide/collide.js';
import { collideBruteForce } from '../../../src-core/collide/bruteForce.js';
import { STRATEGIES } from '../../../src-core/collide/strategies.js';
import { triTriIntersect } from '../../../src-core/geometry/triTri.js';
import { makePose, mapPositions, quaternionToMatrix } from '../../support/meshArbitraries.js';
import { loadPeers, loadScenarios, readStlFile } from '../../../bench/scenarios';
import type { PeerScenario, Scenario } from '../../../bench/scenarios';

const BENCH_DIR = path.resolve(process.cwd(), '../shared/bench');
const scenarioFile = loadScenarios(path.join(BENCH_DIR, 'scenarios.json'));
const peers = loadPeers(scenarioFile);

function scenario(name: string): Scenario {
  const s = scenarioFile.scenarios.find((x) => x.name === name);
  if (!s) throw new Error(`scenario ${name} is missing from scenarios.json`);
  return s;
}

function peerScenario(name: string): PeerScenario {
  const s = peers?.scenarios.find((x) => x.name === name);
  if (!s) throw new Error(`scenario ${name} is missing from peers.json`);
  return s;
}

/** The mesh of an STL file, welded; a fresh copy per call (A and B never share arrays). */
function loadMesh(relative: string): TriangleMesh {
  const m = readStlFile(path.resolve(BENCH_DIR, relative));
  return createMesh(m.positions, m.indices);
}

interface Config {
  readonly name: string;
  readonly build: (mesh: TriangleMesh) => BvTree;
}

const STRATEGY_CONFIGS: readonly Config[] = STRATEGIES.map((s) => ({ name: s.name, build: s.build }));

/** The strategies plus extreme options (one triangle per leaf, all-sphere hybrid, big leaves). */
const EXTRA_CONFIGS: readonly Config[] = [
  { name: 'obb leaf 1', build: (m) => buildObbTree(m, { leafSize: 1 }) },
  { name: 'aabb leaf 1', build: (m) => buildAabbTree(m, { leafSize: 1 }) },
  { name: 'hybrid spheres 20', build: (m) => buildHybridTree(m, { sphereLevels: 20 }) },
  { name: 'obb-hull leaf 8', build: (m) => buildObbTree(m, { leafSize: 8, fit: 'hull' }) },
];

function sortedPairs(pairs: Uint32Array): string[] {
  const out: string[] = [];
  for (let k = 0; k < pairs.length; k += 2) out.push(`${pairs[k]} ${pairs[k + 1]}`);
  return out.sort();
}

/**
 * Brute force through a uniform grid over B's triangles' axis-aligned bounds: a pair whose bounds
 * are apart on some axis cannot meet (closed triangles), every other pair runs the exact triangle
 * test on B's vertices mapped as the engine maps them. Cell indices come from one monotone
 * function per axis, so bounds that overlap always share a cell. The same answer as
 * collideBruteForce (checked below) at a fraction of its quadratic cost.
 */
function gridBruteForce(a: TriangleMesh, b: TriangleMesh, pose: ArrayLike<number>): Uint32Array {
  const X = mapPositions(b.positions, pose);
  const boundsOf = (P: Float64Array, I: Uint32Array, n: number): Float64Array => {
    const out = new Float64Array(6 * n);
    for (let t = 0; t < n; t++) {
      for (let k = 0; k < 3; k++) {
        const v0 = P[3 * I[3 * t]! + k]!, v1 = P[3 * I[3 * t + 1]! + k]!, v2 = P[3 * I[3 * t + 2]! + k]!;
        out[6 * t + k] = Math.min(v0, v1, v2);
        out[6 * t + 3 + k] = Math.max(v0, v1, v2);
      }
    }
    return out;
  };
  const BA = boundsOf(a.positions, a.indices, a.triangleCount), BB = boundsOf(X, b.indices, b.triangleCount);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  let extent = 0;
  for (let j = 0; j < b.triangleCount; j++) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k]!, BB[6 * j + k]!);
      hi[k] = Math.max(hi[k]!, BB[6 * j + 3 + k]!);
      extent += BB[6 * j + 3 + k]! - BB[6 * j + k]!;
    }
  }
  const range = Math.max(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!);
  const cell = Math.max(extent / (3 * b.triangleCount), range / 256, 1e-300);
  const dims = [0, 1, 2].map((k) => Math.floor((hi[k]! - lo[k]!) / cell) + 1);
  const index = (x: number, k: number): number => Math.min(dims[k]! - 1, Math.max(0, Math.floor((x - lo[k]!) / cell)));
  const grid = new Map<number, number[]>();
  for (let j = 0; j < b.triangleCount; j++) {
    for (let x = index(BB[6 * j]!, 0); x <= index(BB[6 * j + 3]!, 0); x++) {
      for (let y = index(BB[6 * j + 1]!, 1); y <= index(BB[6 * j + 4]!, 1); y++) {
        for (let z = index(BB[6 * j + 2]!, 2); z <= index(BB[6 * j + 5]!, 2); z++) {
          const key = (x * dims[1]! + y) * dims[2]! + z;
          const list = grid.get(key);
          if (list) list.push(j);
          else grid.set(key, [j]);
        }
      }
    }
  }
  const IA = a.indices, IB = b.indices;
  const stamp = new Int32Array(b.triangleCount).fill(-1);
  const out: number[] = [];
  for (let i = 0; i < a.triangleCount; i++) {
    const o = 6 * i;
    if (BA[o]! > hi[0]! || BA[o + 1]! > hi[1]! || BA[o + 2]! > hi[2]! || BA[o + 3]! < lo[0]! || BA[o + 4]! < lo[1]! || BA[o + 5]! < lo[2]!) continue;
    const found: number[] = [];
    for (let x = index(BA[o]!, 0); x <= index(BA[o + 3]!, 0); x++) {
      for (let y = index(BA[o + 1]!, 1); y <= index(BA[o + 4]!, 1); y++) {
        for (let z = index(BA[o + 2]!, 2); z <= index(BA[o + 5]!, 2); z++) {
          for (const j of grid.get((x * dims[1]! + y) * dims[2]! + z) ?? []) {
            if (stamp[j] === i) continue;
            stamp[j] = i;
            const p = 6 * j;
            if (BB[p]! > BA[o + 3]! || BB[p + 1]! > BA[o + 4]! || BB[p + 2]! > BA[o + 5]!) continue;
            if (BB[p + 3]! < BA[o]! || BB[p + 4]! < BA[o + 1]! || BB[p + 5]! < BA[o + 2]!) continue;
            if (triTriIntersect(a.positions, 3 * IA[3 * i]!, 3 * IA[3 * i + 1]!, 3 * IA[3 * i + 2]!, X, 3 * IB[3 * j]!, 3 * IB[3 * j + 1]!, 3 * IB[3 * j + 2]!)) {
              found.push(j);
            }
          }
        }
      }
    }
    found.sort((p, q) => p - q);
    for (const j of found) out.push(i, j);
  }
  return Uint32Array.from(out);
}

/**
 * For the given poses: every configuration's 'all' result equals brute force as a sorted set,
 * 'any' agrees, and brute force's counts equal the exact reference counts in peers.json.
 */
function checkAgainstBruteForce(
  name: string, poseIndices: readonly number[], configs: readonly Config[],
  oracleOf: (a: TriangleMesh, b: TriangleMesh, pose: Float64Array) => Uint32Array,
): void {
  const s = scenario(name);
  const expected = peerScenario(name).perPose;
  const A = loadMesh(s.meshA), B = loadMesh(s.meshB);
  const trees = configs.map((c) => ({ name: c.name, a: c.build(A), b: c.build(B) }));
  for (const k of poseIndices) {
    const pose = s.poses[k]!;
    const oracle = sortedPairs(oracleOf(A, B, pose));
    expect(oracle.length, `${name} pose ${k}: brute force vs the exact reference count`).toBe(expected[k]);
    const oracleSet = new Set(oracle);
    for (const t of trees) {
      const all = collide(t.a, t.b, pose, 'all');
      expect(sortedPairs(all.pairs), `${name} pose ${k}, ${t.name}, 'all'`).toEqual(oracle);
      const any = collide(t.a, t.b, pose, 'any');
      expect(any.hit, `${name} pose ${k}, ${t.name}, 'any'`).toBe(oracle.length > 0);
      if (any.hit) expect(oracleSet.has(sortedPairs(any.pairs)[0]!), `${name} pose ${k}, ${t.name}, 'any' pair`).toBe(true);
    }
  }
}

describe('real meshes: trees equal brute force and the exact reference counts', () => {
  it('the grid brute force equals collideBruteForce on bunny-random pose 7 and boxes-touching', () => {
    const bunny = scenario('bunny-random');
    const A = loadMesh(bunny.meshA), B = loadMesh(bunny.meshB);
    expect(sortedPairs(gridBruteForce(A, B, bunny.poses[7]!))).toEqual(sortedPairs(collideBruteForce(A, B, bunny.poses[7]!)));
    const boxes = scenario('boxes-touching');
    const C = loadMesh(boxes.meshA), D = loadMesh(boxes.meshB);
    for (const pose of boxes.poses) expect(sortedPairs(gridBruteForce(C, D, pose))).toEqual(sortedPairs(collideBruteForce(C, D, pose)));
  });

  it('bunny-random, poses 0-9 and every 10th, every strategy and extreme options', () => {
    const poses = scenario('bunny-random').poses.map((_, k) => k).filter((k) => k < 10 || k % 10 === 0);
    checkAgainstBruteForce('bunny-random', poses, [...STRATEGY_CONFIGS, ...EXTRA_CONFIGS], gridBruteForce);
  });

  it('boxes-touching, all 13 poses (exact face, edge and vertex contact), every strategy and extreme options', () => {
    const s = scenario('boxes-touching');
    expect(s.poses.length).toBe(13);
    checkAgainstBruteForce('boxes-touching', s.poses.map((_, k) => k), [...STRATEGY_CONFIGS, ...EXTRA_CONFIGS], (a, b, pose) => collideBruteForce(a, b, pose));
  });

  it("boxes-touching per-pose counts equal peers.json's exact perPose for every strategy", () => {
    const s = scenario('boxes-touching');
    const expected = peerScenario('boxes-touching').perPose;
    const A = loadMesh(s.meshA), B = loadMesh(s.meshB);
    for (const c of STRATEGY_CONFIGS) {
      const ta = c.build(A), tb = c.build(B);
      const counts = s.poses.map((pose) => collide(ta, tb, pose, 'all').pairCount);
      expect(counts, c.name).toEqual(expected);
    }
  });

  // The hull fit is left out at 20k triangles: building it costs seconds per tree under the test
  // runner; it is covered on the bunny above.
  it("spheres-20k-sweep, every 10th pose and the first contact: counts equal peers.json's perPose, pairs equal brute force", () => {
    const s = scenario('spheres-20k-sweep');
    const expected = peerScenario('spheres-20k-sweep').perPose;
    const A = loadMesh(s.meshA), B = loadMesh(s.meshB);
    const sample = s.poses.map((_, k) => k).filter((k) => k % 10 === 0 || k === 16 || k === 17);
    const oracle = sample.map((k) => sortedPairs(gridBruteForce(A, B, s.poses[k]!)));
    expect(oracle.map((x) => x.length), 'brute force').toEqual(sample.map((k) => expected[k]));
    for (const c of STRATEGY_CONFIGS.filter((x) => x.name !== 'obb-hull')) {
      const ta = c.build(A), tb = c.build(B);
      const results = sample.map((k) => collide(ta, tb, s.poses[k]!, 'all'));
      expect(results.map((r) => r.pairCount), c.name).toEqual(sample.map((k) => expected[k]));
      expect(results.map((r) => sortedPairs(r.pairs)), c.name).toEqual(oracle);
    }
  });

  it('torus-20k against itself (crossed at right angles, a tumbled copy, a near-coincident copy): strategies equal brute force', () => {
    const file = 'meshes/torus-20k.stl';
    const A = loadMesh(file), B = loadMesh(file);
    const poses = [
      makePose(quaternionToMatrix(Math.SQRT1_2, Math.SQRT1_2, 0, 0), [15, 0, 0]),
      makePose(quaternionToMatrix(0.3, -0.5, 0.7, 0.2), [12.5, -7.25, 3]),
      makePose(quaternionToMatrix(1, 1e-9, -2e-9, 0), [1e-7, 0, 0]),
    ];
    const trees = STRATEGY_CONFIGS.filter((c) => c.name !== 'obb-hull').map((c) => ({ name: c.name, a: c.build(A), b: c.build(B) }));
    for (const [k, pose] of poses.entries()) {
      const oracle = sortedPairs(gridBruteForce(A, B, pose));
      expect(oracle.length, `pose ${k} should intersect`).toBeGreaterThan(0);
      for (const t of trees) expect(sortedPairs(collide(t.a, t.b, pose, 'all').pairs), `pose ${k}, ${t.name}`).toEqual(oracle);
    }
  });
});
