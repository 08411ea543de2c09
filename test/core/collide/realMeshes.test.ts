import { describe, it, expect } from 'vitest';
import { createMesh } from '../../../src-core/geometry/mesh.js';
import type { TriangleMesh } from '../../../src-core/geometry/mesh.js';
import { buildAabbTree, buildHybridTree, buildObbTree } from '../../../src-core/obbtree/build.js';
import type { BvTree } from '../../../src-core/obbtree/layout.js';
import { collide } from '../../../src-core/collide/collide.js';
import { collideBruteForce } from '../../../src-core/collide/bruteForce.js';
import { STRATEGIES } from '../../../src-core/collide/strategies.js';
import { makePose, quaternionToMatrix } from '../../support/meshArbitraries.js';
import { gridBruteForce } from '../../../bench/bruteForce';
import { generatedMesh, generatedScenarios } from '../../../bench/generate';
import { loadReference, posesSha256 } from '../../../bench/reference';
import type { ReferenceScenario } from '../../../bench/reference';
import type { Scenario } from '../../../bench/scenarios';

// The generated benchmark scenarios (bench/generate.ts), made in memory, and their exact counts
// (bench/reference.json).
const scenarios = generatedScenarios();
const reference = loadReference();

function scenario(name: string): Scenario {
  const s = scenarios.find((x) => x.name === name);
  if (!s) throw new Error(`scenario ${name} is not generated`);
  return s;
}

function referenceScenario(name: string): ReferenceScenario {
  const s = reference?.scenarios.find((x) => x.name === name);
  if (!s) throw new Error(`scenario ${name} is missing from bench/reference.json`);
  // The counts belong to these very poses.
  expect(s.posesSha256, `${name}: reference.json was computed on other poses`).toBe(posesSha256(scenario(name).poses));
  return s;
}

/** A generated mesh ('meshes/<key>.stl' as scenarios name it), welded; a fresh copy per call. */
function loadMesh(relative: string): TriangleMesh {
  const m = generatedMesh(relative.replace(/^meshes\/|\.stl$/g, ''));
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
 * For the given poses: every configuration's 'all' result equals brute force as a sorted set,
 * 'any' agrees, and brute force's counts equal the exact reference counts in bench/reference.json.
 */
function checkAgainstBruteForce(
  name: string, poseIndices: readonly number[], configs: readonly Config[],
  oracleOf: (a: TriangleMesh, b: TriangleMesh, pose: Float64Array) => Uint32Array,
): void {
  const s = scenario(name);
  const expected = referenceScenario(name).perPose;
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
  it('the grid brute force equals collideBruteForce on lumpy-random pose 7 and boxes-touching', () => {
    const lumpy = scenario('lumpy-random');
    const A = loadMesh(lumpy.meshA), B = loadMesh(lumpy.meshB);
    const grid = sortedPairs(gridBruteForce(A, B, lumpy.poses[7]!));
    expect(grid.length, 'pose 7 intersects').toBeGreaterThan(0);
    expect(grid).toEqual(sortedPairs(collideBruteForce(A, B, lumpy.poses[7]!)));
    const boxes = scenario('boxes-touching');
    const C = loadMesh(boxes.meshA), D = loadMesh(boxes.meshB);
    for (const pose of boxes.poses) expect(sortedPairs(gridBruteForce(C, D, pose))).toEqual(sortedPairs(collideBruteForce(C, D, pose)));
  });

  it('lumpy-random, poses 0-9 and every 10th, every strategy and extreme options', () => {
    const poses = scenario('lumpy-random').poses.map((_, k) => k).filter((k) => k < 10 || k % 10 === 0);
    checkAgainstBruteForce('lumpy-random', poses, [...STRATEGY_CONFIGS, ...EXTRA_CONFIGS], gridBruteForce);
  });

  it('boxes-touching, all 13 poses (exact face, edge and vertex contact), every strategy and extreme options', () => {
    const s = scenario('boxes-touching');
    expect(s.poses.length).toBe(13);
    checkAgainstBruteForce('boxes-touching', s.poses.map((_, k) => k), [...STRATEGY_CONFIGS, ...EXTRA_CONFIGS], (a, b, pose) => collideBruteForce(a, b, pose));
  });

  it("boxes-touching per-pose counts equal reference.json's exact perPose for every strategy", () => {
    const s = scenario('boxes-touching');
    const expected = referenceScenario('boxes-touching').perPose;
    const A = loadMesh(s.meshA), B = loadMesh(s.meshB);
    for (const c of STRATEGY_CONFIGS) {
      const ta = c.build(A), tb = c.build(B);
      const counts = s.poses.map((pose) => collide(ta, tb, pose, 'all').pairCount);
      expect(counts, c.name).toEqual(expected);
    }
  });

  // The hull fit is left out at 20k triangles: building it costs seconds per tree under the test
  // runner; it is covered on the lumpy mesh above.
  it("spheres-20k-sweep, every 10th pose and the first contact: counts equal reference.json's perPose, pairs equal brute force", () => {
    const s = scenario('spheres-20k-sweep');
    const expected = referenceScenario('spheres-20k-sweep').perPose;
    const A = loadMesh(s.meshA), B = loadMesh(s.meshB);
    const firstContact = expected.findIndex((c) => c > 0);
    expect(firstContact).toBeGreaterThan(0);
    const sample = s.poses.map((_, k) => k).filter((k) => k % 10 === 0 || k === firstContact - 1 || k === firstContact);
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
    const file = 'meshes/torus-20k.stl'; // generated: the wrinkled torus R=30 r=10
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
