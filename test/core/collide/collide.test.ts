import { describe, it, expect, vi } from 'vitest';
import fc from 'fast-check';
import { createMesh } from '../../../src-core/geometry/mesh.js';
import type { TriangleMesh } from '../../../src-core/geometry/mesh.js';
import { buildAabbTree, buildHybridTree, buildObbTree } from '../../../src-core/obbtree/build.js';
import type { BvTree } from '../../../src-core/obbtree/layout.js';
import { collide } from '../../../src-core/collide/collide.js';
import { collideBruteForce } from '../../../src-core/collide/bruteForce.js';
import { STRATEGIES } from '../../../src-core/collide/strategies.js';
import type { CollideResult } from '../../../src-core/collide/types.js';
import { triTriIntersectExact, formatTriangle, hexFloat } from '../../support/exact.js';
import {
  MESH_PAIR_ARBS, boxMesh, makePose, mapPositions, smallMeshPairArb, tetraMesh, triangleCoords, IDENTITY,
  poseRotation, poseTranslation, unitCoordArb,
} from '../../support/meshArbitraries.js';
import type { MeshData, MeshPair } from '../../support/meshArbitraries.js';

// ---------------------------------------------------------------------------------------------
// Configurations under test: every named strategy, plus leaf sizes and sphere levels set through
// the build functions' options.

interface Config {
  readonly name: string;
  readonly build: (mesh: TriangleMesh) => BvTree;
}

// Leaf size 4 is the default, which the strategies use. The hull fit is the costliest to build
// under the test runner, so it runs at the default leaf size and at one triangle per leaf.
const CONFIGS: readonly Config[] = [
  ...STRATEGIES.map((s): Config => ({ name: `strategy ${s.name}`, build: s.build })),
  ...[1, 2, 8].map((leafSize): Config => ({ name: `obb leaf ${leafSize}`, build: (m) => buildObbTree(m, { leafSize }) })),
  { name: 'obb-hull leaf 1', build: (m) => buildObbTree(m, { leafSize: 1, fit: 'hull' }) },
  ...[1, 2, 8].map((leafSize): Config => ({ name: `aabb leaf ${leafSize}`, build: (m) => buildAabbTree(m, { leafSize }) })),
  ...[0, 1, 3, 20].map((sphereLevels): Config => ({ name: `hybrid spheres ${sphereLevels}`, build: (m) => buildHybridTree(m, { sphereLevels }) })),
  { name: 'hybrid leaf 1 spheres 20', build: (m) => buildHybridTree(m, { leafSize: 1, sphereLevels: 20 }) },
  { name: 'hybrid leaf 8 spheres 3', build: (m) => buildHybridTree(m, { leafSize: 8, sphereLevels: 3 }) },
];

// ---------------------------------------------------------------------------------------------
// Helpers.

function meshOf(d: MeshData): TriangleMesh {
  return createMesh(d.positions, d.indices);
}

/** Pairs as numbers iA · 2^32 + iB (exact in a double), sorted. */
function pairKeys(pairs: Uint32Array): number[] {
  const keys: number[] = [];
  for (let k = 0; k < pairs.length; k += 2) keys.push(pairs[k]! * 2 ** 32 + pairs[k + 1]!);
  return keys.sort((x, y) => x - y);
}

const keyA = (k: number): number => Math.floor(k / 2 ** 32);
const keyB = (k: number): number => k % 2 ** 32;

function poseText(pose: ArrayLike<number>): string {
  return `[${Array.from({ length: 12 }, (_, i) => hexFloat(pose[i]!)).join(', ')}, 0, 0, 0, 1]`;
}

/** A readable account of one triangle pair: both triangles, B's also mapped into A's frame. */
function describePair(p: MeshPair, key: number): string {
  const ia = keyA(key), ib = keyB(key);
  const mapped = mapPositions(p.b.positions, p.pose);
  return (
    `  pair (${ia}, ${ib})\n` +
    `    A[${ia}] = ${formatTriangle(triangleCoords(p.a.positions, p.a.indices, ia))}\n` +
    `    B[${ib}] = ${formatTriangle(triangleCoords(p.b.positions, p.b.indices, ib))}\n` +
    `    B[${ib}] in A's frame = ${formatTriangle(triangleCoords(mapped, p.b.indices, ib))}`
  );
}

function mismatch(p: MeshPair, config: string, what: string, detail: string): Error {
  return new Error(
    `${config}: ${what}\n  family: ${p.family}\n  triangles: ${p.a.indices.length / 3} / ${p.b.indices.length / 3}\n  pose: ${poseText(p.pose)}\n${detail}`,
  );
}

function checkStats(p: MeshPair, config: string, mode: string, r: CollideResult): void {
  for (const [name, v] of [['boxTests', r.boxTests], ['triTests', r.triTests], ['pairCount', r.pairCount]] as const) {
    if (!(Number.isInteger(v) && v >= 0)) throw mismatch(p, config, `${mode}: ${name} = ${v} is not a non-negative integer`, '');
  }
  if (r.pairs.length !== 2 * r.pairCount) throw mismatch(p, config, `${mode}: pairs has ${r.pairs.length} entries for ${r.pairCount} pairs`, '');
  if (r.hit !== r.pairCount > 0) throw mismatch(p, config, `${mode}: hit = ${r.hit} with ${r.pairCount} pairs`, '');
  if (r.triTests < r.pairCount) throw mismatch(p, config, `${mode}: ${r.triTests} triangle tests found ${r.pairCount} pairs`, '');
}

/** Runs every configuration on one pair against the brute-force oracle; throws a detailed Error on the first difference. */
function checkPair(p: MeshPair, configs: readonly Config[] = CONFIGS): void {
  const A = meshOf(p.a), B = meshOf(p.b);
  const oracle = pairKeys(collideBruteForce(A, B, p.pose, 'all'));
  const oracleSet = new Set(oracle);
  for (const c of configs) {
    const ta = c.build(A), tb = c.build(B);
    const all = collide(ta, tb, p.pose, 'all');
    checkStats(p, c.name, "'all'", all);
    const got = pairKeys(all.pairs);
    if (got.length !== oracle.length || got.some((k, i) => k !== oracle[i])) {
      const gotSet = new Set(got);
      const missing = oracle.filter((k) => !gotSet.has(k));
      const extra = got.filter((k) => !oracleSet.has(k));
      const dup = got.filter((k, i) => i > 0 && got[i - 1] === k);
      throw mismatch(
        p, c.name,
        `'all' found ${got.length} pairs, brute force ${oracle.length} (missing ${missing.length}, extra ${extra.length}, repeated ${dup.length})`,
        [...missing.slice(0, 3).map((k) => `missing:\n${describePair(p, k)}`), ...extra.slice(0, 3).map((k) => `extra:\n${describePair(p, k)}`)].join('\n'),
      );
    }
    const any = collide(ta, tb, p.pose, 'any');
    checkStats(p, c.name, "'any'", any);
    if (any.hit !== oracle.length > 0) {
      throw mismatch(p, c.name, `'any' hit = ${any.hit}, brute force found ${oracle.length} pairs`, oracle.length > 0 ? describePair(p, oracle[0]!) : '');
    }
    if (any.pairCount > 1) throw mismatch(p, c.name, `'any' returned ${any.pairCount} pairs`, '');
    if (any.hit && !oracleSet.has(pairKeys(any.pairs)[0]!)) {
      throw mismatch(p, c.name, "'any' returned a pair brute force does not have", describePair(p, pairKeys(any.pairs)[0]!));
    }
  }
}

// ---------------------------------------------------------------------------------------------

/** A failing property stops shrinking after a minute and reports the smallest case found so far. */
const LIMITS = { interruptAfterTimeLimit: 60_000, markInterruptAsFailure: true } as const;

const FAMILY_RUNS: Readonly<Record<string, { seed: number; numRuns: number }>> = {
  soup: { seed: 20261129, numRuns: 40 },
  closedOverlap: { seed: 20261130, numRuns: 60 },
  exactContact: { seed: 20261131, numRuns: 80 },
  surfaceContact: { seed: 20261132, numRuns: 70 },
  coincident: { seed: 20261133, numRuns: 25 },
  symmetry: { seed: 20261138, numRuns: 25 },
};

describe('collide equals the brute-force oracle for every strategy, leaf size and sphere depth', () => {
  for (const [family, arb] of Object.entries(MESH_PAIR_ARBS)) {
    const { seed, numRuns } = FAMILY_RUNS[family] ?? { seed: 20261139, numRuns: 20 };
    it(`on ${family} pairs (seed ${seed})`, () => {
      fc.assert(fc.property(arb, (p) => { checkPair(p); }), { seed, numRuns, ...LIMITS });
    });
  }

  it('on hand-made exact contacts: resting box, shared face, edge, vertex, far and tiny (seed 20261134)', () => {
    const cube = boxMesh([0, 0, 0], [2, 2, 2], 2);
    const cases: MeshPair[] = [
      { family: 'box resting on box', a: cube, b: boxMesh([0, 0, 0], [1, 1, 1], 1), pose: makePose(IDENTITY, [0.5, 0.5, 2]) },
      { family: 'shared face', a: cube, b: cube, pose: makePose(IDENTITY, [2, 0, 0]) },
      { family: 'shared edge', a: cube, b: cube, pose: makePose(IDENTITY, [2, 2, 0]) },
      { family: 'shared vertex', a: cube, b: cube, pose: makePose(IDENTITY, [2, 2, 2]) },
      { family: 'gap 2^-52', a: cube, b: cube, pose: makePose(IDENTITY, [2 + 2 ** -51, 0, 0]) },
      { family: 'overlap 2^-51', a: cube, b: cube, pose: makePose(IDENTITY, [2 - 2 ** -51, 0, 0]) },
      { family: 'tetra apex on face', a: cube, b: tetraMesh([1, 1, 2], [0, 0, 3], [2, 0, 3], [1, 2, 3]), pose: makePose(IDENTITY, [0, 0, 0]) },
      { family: 'tetra edge on face', a: cube, b: tetraMesh([0, 1, 2], [2, 1, 2], [1, 0, 3], [1, 2, 3]), pose: makePose(IDENTITY, [0, 0, 0]) },
      {
        family: 'far shared face',
        a: boxMesh([1e6, 1e6, 1e6], [1e6 + 2, 1e6 + 2, 1e6 + 2], 2),
        b: boxMesh([1e6, 1e6, 1e6], [1e6 + 2, 1e6 + 2, 1e6 + 2], 2),
        pose: makePose(IDENTITY, [0, 0, 2]),
      },
      {
        family: 'tiny vertex contact',
        a: boxMesh([0, 0, 0], [2 ** -20, 2 ** -20, 2 ** -20], 1),
        b: boxMesh([0, 0, 0], [2 ** -20, 2 ** -20, 2 ** -20], 1),
        pose: makePose([0, -1, 0, 1, 0, 0, 0, 0, 1], [2 * 2 ** -20, 2 ** -20, 2 ** -20]),
      },
    ];
    fc.assert(fc.property(fc.constantFrom(...cases), (p) => { checkPair(p); }), { seed: 20261134, numRuns: 40 });
    // The expected answers where they are obvious.
    const count = (p: MeshPair): number => collideBruteForce(meshOf(p.a), meshOf(p.b), p.pose).length / 2;
    expect(count(cases[0]!)).toBeGreaterThan(0);
    expect(count(cases[3]!)).toBeGreaterThan(0);
    expect(count(cases[4]!)).toBe(0);
    expect(count(cases[5]!)).toBeGreaterThan(0);
    expect(count(cases[9]!)).toBeGreaterThan(0);
  });

  it('accepts the 12-number pose form and a tree queried against itself (seed 20261135)', () => {
    fc.assert(
      fc.property(MESH_PAIR_ARBS.closedOverlap!, (p) => {
        const A = meshOf(p.a);
        const oracle = pairKeys(collideBruteForce(A, A, p.pose));
        for (const s of STRATEGIES) {
          const t = s.build(A);
          expect(pairKeys(collide(t, t, p.pose.subarray(0, 12), 'all').pairs)).toEqual(oracle);
          expect(pairKeys(collide(t, t, Array.from(p.pose), 'all').pairs)).toEqual(oracle);
        }
      }),
      { seed: 20261135, numRuns: 15 },
    );
  });

  it('with the query scratch reused: a fresh engine per run, then a random sequence of trees, sizes and poses (seed 20261137)', async () => {
    // The engine keeps per-query caches between queries and grows them for larger trees. Each run
    // loads a fresh copy of the query module, so that every run starts from empty caches and the
    // sequence decides when they grow (a larger B tree with no more vertices, the same B tree under
    // another pose, a smaller tree after a larger one, 'any' then 'all').
    const stepArb = fc.record({
      pair: fc.integer({ min: 0, max: 2 }),
      config: fc.integer({ min: 0, max: CONFIGS.length - 1 }),
      shift: fc.option(fc.tuple(unitCoordArb, unitCoordArb, unitCoordArb), { freq: 2 }),
      mode: fc.constantFrom<'all' | 'any'>('all', 'all', 'any'),
    });
    const pairsArb = fc.tuple(MESH_PAIR_ARBS.closedOverlap!, MESH_PAIR_ARBS.surfaceContact!, MESH_PAIR_ARBS.soup!);
    await fc.assert(
      fc.asyncProperty(pairsArb, fc.array(stepArb, { minLength: 2, maxLength: 6 }), async (pairs, steps) => {
        vi.resetModules();
        const fresh = await import('../../../src-core/collide/collide.js');
        const trees = new Map<string, readonly [BvTree, BvTree]>();
        for (const [n, step] of steps.entries()) {
          const base = pairs[step.pair]!;
          const t = poseTranslation(base.pose);
          const d = step.shift ?? [0, 0, 0];
          const p: MeshPair = { ...base, family: `${base.family} (step ${n})`, pose: makePose(poseRotation(base.pose), [t[0] + d[0] / 4, t[1] + d[1] / 4, t[2] + d[2] / 4]) };
          const key = `${step.pair}/${step.config}`;
          let tt = trees.get(key);
          if (!tt) {
            const c = CONFIGS[step.config]!;
            tt = [c.build(meshOf(p.a)), c.build(meshOf(p.b))] as const;
            trees.set(key, tt);
          }
          const oracle = pairKeys(collideBruteForce(meshOf(p.a), meshOf(p.b), p.pose, 'all'));
          const r = fresh.collide(tt[0], tt[1], p.pose, step.mode);
          const got = pairKeys(r.pairs);
          const name = `${CONFIGS[step.config]!.name}, step ${n} of ${steps.length}, '${step.mode}'`;
          if (step.mode === 'all' ? got.join() !== oracle.join() : r.hit !== oracle.length > 0 || (r.hit && !oracle.includes(got[0]!))) {
            const history = steps.slice(0, n).map((s, i) => `    step ${i}: pair ${s.pair}, ${CONFIGS[s.config]!.name}, shift ${s.shift ? 'yes' : 'no'}, '${s.mode}'`).join('\n');
            throw mismatch(p, name, `found ${got.length} pairs, brute force ${oracle.length}`, `  after:\n${history}`);
          }
        }
      }),
      { seed: 20261137, numRuns: 40, ...LIMITS },
    );
  });

  it('rejects trees of different kinds and non-rigid poses', () => {
    const m = meshOf(boxMesh([0, 0, 0], [1, 1, 1]));
    const obb = buildObbTree(m), aabb = buildAabbTree(m), hybrid = buildHybridTree(m);
    expect(() => collide(obb, aabb, makePose(IDENTITY, [0, 0, 0]), 'all')).toThrow(TypeError);
    expect(() => collide(hybrid, obb, makePose(IDENTITY, [0, 0, 0]), 'any')).toThrow(TypeError);
    expect(() => collide(obb, obb, makePose([2, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0]), 'all')).toThrow(RangeError);
    expect(() => collideBruteForce(m, m, [1, 0, 0], 'all')).toThrow(RangeError);
    // A rejected query leaves the engine usable.
    expect(collide(obb, obb, makePose(IDENTITY, [0, 0, 0]), 'all').hit).toBe(true);
  });
});

describe('the brute-force oracle agrees with the exact BigInt oracle', () => {
  it('on small meshes of every family (seed 20261136)', () => {
    fc.assert(
      fc.property(smallMeshPairArb(24), (p) => {
        const got = pairKeys(collideBruteForce(meshOf(p.a), meshOf(p.b), p.pose, 'all'));
        const mapped = mapPositions(p.b.positions, p.pose);
        const expected: number[] = [];
        for (let i = 0; i < p.a.indices.length / 3; i++) {
          const ta = triangleCoords(p.a.positions, p.a.indices, i);
          for (let j = 0; j < p.b.indices.length / 3; j++) {
            if (triTriIntersectExact(ta, triangleCoords(mapped, p.b.indices, j))) expected.push(i * 2 ** 32 + j);
          }
        }
        if (got.length !== expected.length || got.some((k, i) => k !== expected[i])) {
          const gs = new Set(got), es = new Set(expected);
          const diff = [...expected.filter((k) => !gs.has(k)), ...got.filter((k) => !es.has(k))];
          throw mismatch(p, 'collideBruteForce', `found ${got.length} pairs, exact oracle ${expected.length}`, diff.slice(0, 3).map((k) => describePair(p, k)).join('\n'));
        }
        const any = collideBruteForce(meshOf(p.a), meshOf(p.b), p.pose, 'any');
        expect(any.length).toBe(expected.length > 0 ? 2 : 0);
        if (any.length > 0) expect(expected).toContain(any[0]! * 2 ** 32 + any[1]!);
      }),
      { seed: 20261136, numRuns: 60 },
    );
  });
});
