// The WebAssembly query kernel (its filtered test and its exact path, a port of the TypeScript
// predicates) against the TypeScript traversal and the brute-force oracle: the
// same pairs, in the same order, with the same box and triangle test counts, on every mesh family
// of the property tests (random soups, closed overlaps, exact vertex/edge/face contact, coplanar
// surface contact, coincident meshes, symmetric placements, degenerate triangles), for trees
// built in the kernel's memory, read back from their serialised form (as the check process gets
// them: copied in on their first query) and in ordinary buffers, in relative and placed queries.
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createMesh } from '../../../src-core/geometry/mesh.js';
import { buildObbTree } from '../../../src-core/obbtree/build.js';
import { deserializeTree, serializeTree } from '../../../src-core/obbtree/serialize.js';
import type { ObbTree } from '../../../src-core/obbtree/layout.js';
import { activeQueryKernel, collide, collidePlaced, setQueryKernel } from '../../../src-core/collide/collide.js';
import { collideBruteForce } from '../../../src-core/collide/bruteForce.js';
import type { CollideMode, CollideResult } from '../../../src-core/collide/types.js';
import { compose, parseRigid } from '../../../src-core/geometry/rigid.js';
import { limitKernelMemory, queryKernel, releaseTree } from '../../../src-core/kernel/kernel.js';
import { MESH_PAIR_ARBS, boxMesh, gridMesh, makePose, IDENTITY, quaternionToMatrix } from '../../support/meshArbitraries.js';
import type { MeshData } from '../../support/meshArbitraries.js';
import { triTriIntersectExact } from '../../support/exact.js';
import { copiedTree } from '../../support/trees.js';

const tree = (d: MeshData, leafSize?: number): ObbTree => buildObbTree(createMesh(d.positions, d.indices), leafSize ? { leafSize } : {});
/** The tree as the check process gets it from a tree worker: serialised and read back (copied in). */
const received = (t: ObbTree): ObbTree => {
  const s = serializeTree(t);
  return deserializeTree({ ...s, buffers: s.buffers.map((b) => b.slice(0)) }) as ObbTree;
};
const copied = copiedTree;

function run(kernel: 'wasm' | 'ts', f: () => CollideResult): CollideResult {
  setQueryKernel(kernel);
  try {
    return f();
  } finally {
    setQueryKernel('wasm');
  }
}

function expectSame(w: CollideResult, t: CollideResult): void {
  expect(Array.from(w.pairs)).toEqual(Array.from(t.pairs));
  expect(w.pairCount).toBe(t.pairCount);
  expect(w.hit).toBe(t.hit);
  expect(w.boxTests).toBe(t.boxTests);
  expect(w.triTests).toBe(t.triTests);
}

const sortedKeys = (pairs: Uint32Array): number[] => {
  const keys: number[] = [];
  for (let k = 0; k < pairs.length; k += 2) keys.push(pairs[k]! * 2 ** 32 + pairs[k + 1]!);
  return keys.sort((x, y) => x - y);
};

afterEach(() => setQueryKernel('wasm'));

describe('WebAssembly query kernel', () => {
  it('is available here, and is the default for OBB queries', () => {
    expect(queryKernel()).not.toBeNull();
    expect(activeQueryKernel()).toBe('wasm');
  });

  for (const [family, arb] of Object.entries(MESH_PAIR_ARBS)) {
    it(`equals the TypeScript traversal and brute force on ${family} pairs (any and all)`, () => {
      fc.assert(
        fc.property(arb, fc.constantFrom(1, 4), fc.constantFrom('built', 'received', 'copied'), (p, leafSize, how) => {
          let a = tree(p.a, leafSize), b = tree(p.b, leafSize);
          if (how === 'received') {
            a = received(a);
            b = received(b);
          } else if (how === 'copied') {
            a = copied(a);
            b = copied(b);
          }
          for (const mode of ['all', 'any'] as CollideMode[]) {
            const w = run('wasm', () => collide(a, b, p.pose, mode));
            const t = run('ts', () => collide(a, b, p.pose, mode));
            expectSame(w, t);
          }
          const all = run('wasm', () => collide(a, b, p.pose, 'all'));
          const brute = collideBruteForce(createMesh(p.a.positions, p.a.indices), createMesh(p.b.positions, p.b.indices), p.pose, 'all');
          expect(sortedKeys(all.pairs)).toEqual(sortedKeys(brute));
        }),
        { numRuns: 60 },
      );
    });
  }

  it('decides single triangle pairs on a coarse grid as the exact rational oracle does (coplanar, collinear, shared edges, zero area)', () => {
    // Coordinates from a few integers (and one tiny offset) make every degenerate configuration
    // common: each pair is one triangle per mesh, queried through the kernel.
    const coord = fc.constantFrom(0, 1, 2, 3, 0.5, 1 + 2 ** -40);
    const tri = fc.array(coord, { minLength: 9, maxLength: 9 });
    fc.assert(
      fc.property(tri, tri, (t1, t2) => {
        const a = buildObbTree(createMesh(Float64Array.from(t1), Uint32Array.of(0, 1, 2)));
        const b = buildObbTree(createMesh(Float64Array.from(t2), Uint32Array.of(0, 1, 2)));
        const r = collide(a, b, makePose(IDENTITY, [0, 0, 0]), 'all');
        expect(r.pairCount === 1).toBe(triTriIntersectExact(t1, t2));
      }),
      { numRuns: 3000 },
    );
  });

  it('equals the TypeScript traversal on placed queries (each part in the world)', () => {
    fc.assert(
      fc.property(MESH_PAIR_ARBS.closedOverlap!, fc.double({ min: -50, max: 50, noNaN: true }), (p, shift) => {
        const a = tree(p.a), b = tree(p.b);
        const placeA = parseRigid(makePose(quaternionToMatrix(0.9, 0.1, -0.3, 0.2), [shift, 1.5, -2]));
        // B's placement in the world puts it where `pose` puts it in A's frame.
        const placeB = compose(placeA, parseRigid(p.pose));
        for (const mode of ['all', 'any'] as CollideMode[]) {
          expectSame(run('wasm', () => collidePlaced(a, placeA, b, placeB, mode)), run('ts', () => collidePlaced(a, placeA, b, placeB, mode)));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('reads the pose itself and refuses exactly what parseRigid refuses, with its message', () => {
    const a = tree(boxMesh([0, 0, 0], [1, 1, 1])), b = tree(boxMesh([0, 0, 0], [1, 1, 1]));
    const good = Array.from(makePose(quaternionToMatrix(0.8, 0.2, 0.4, -0.4), [0.5, 0.25, 0]));
    const bad: Array<[string, number[]]> = [
      ['NaN entry', good.map((v, i) => (i === 3 ? NaN : v))],
      ['infinite entry', good.map((v, i) => (i === 5 ? Infinity : v))],
      ['scaled', good.map((v, i) => (i % 4 === 3 ? v : v * 1.001))],
      ['reflected', good.map((v, i) => (i < 4 && i !== 3 ? -v : v))],
      ['bad last row', [...good.slice(0, 12), 0, 0, 1, 1]],
      ['wrong length', good.slice(0, 11)],
    ];
    for (const [what, m] of bad) {
      for (const pose of [m, Float64Array.from(m)]) {
        const message = (() => {
          try {
            parseRigid(pose);
          } catch (e) {
            return (e as Error).message;
          }
          return `parseRigid accepted the ${what} pose`;
        })();
        expect(() => run('wasm', () => collide(a, b, pose, 'all')), what).toThrow(message);
        expect(() => run('ts', () => collide(a, b, pose, 'all')), what).toThrow(message);
      }
    }
    // Poses just inside and just outside the orthonormality tolerance: the two kernels agree.
    fc.assert(
      fc.property(fc.double({ min: 0.999997, max: 1.000003, noNaN: true }), fc.integer({ min: 0, max: 10 }), (scale, entry) => {
        const i = entry + Math.floor(entry / 3); // a rotation entry (skip the translations)
        const m = Float64Array.from(good.map((v, k) => (k === i ? v * scale : v)));
        const outcome = (kernel: 'wasm' | 'ts'): string => {
          try {
            return JSON.stringify(Array.from(run(kernel, () => collide(a, b, m, 'all')).pairs));
          } catch (e) {
            return (e as Error).message;
          }
        };
        expect(outcome('wasm')).toBe(outcome('ts'));
      }),
      { numRuns: 300 },
    );
  });

  it('answers a repeated pair with a new pose, and the pairs in turn, as the TypeScript traversal does', () => {
    fc.assert(
      fc.property(MESH_PAIR_ARBS.closedOverlap!, MESH_PAIR_ARBS.soup!, fc.double({ min: -1, max: 1, noNaN: true }), (p, q, shift) => {
        const a = tree(p.a), b = tree(p.b), c = tree(q.a), d = tree(q.b);
        const moved = makePose(IDENTITY, [shift, 0, 0]);
        const placeA = parseRigid(moved), placeB = compose(placeA, parseRigid(p.pose));
        const queries: Array<() => CollideResult> = [
          () => collide(a, b, p.pose, 'all'),
          () => collide(a, b, moved, 'all'),
          () => collide(a, b, p.pose, 'any'),
          () => collidePlaced(a, placeA, b, placeB, 'all'),
          () => collide(a, b, p.pose, 'all'),
          () => collide(c, d, q.pose, 'all'),
          () => collide(b, a, moved, 'all'),
          () => collide(c, d, q.pose, 'any'),
        ];
        const w = queries.map((f) => run('wasm', f));
        const t = queries.map((f) => run('ts', f));
        for (let i = 0; i < queries.length; i++) expectSame(w[i]!, t[i]!);
      }),
      { numRuns: 60 },
    );
  });

  it('grows its pair list past its first block (coplanar grids: every cell touches many)', () => {
    const g = gridMesh(60, 60, 1);
    const a = tree(g), b = tree(g);
    const pose = makePose(IDENTITY, [0.5, 0.25, 0]);
    const w = run('wasm', () => collide(a, b, pose, 'all'));
    const t = run('ts', () => collide(a, b, pose, 'all'));
    expect(w.pairCount).toBeGreaterThan(4 * 1024);
    expectSame(w, t);
  });

  it('decides touching pairs exactly itself, and hands coordinates beyond its exact range to the TypeScript test', () => {
    const k = queryKernel()!;
    for (const [scale, expectFallbacks] of [[1, false], [1e65, true]] as const) {
      const box = boxMesh([0, 0, 0], [10 * scale, 10 * scale, 10 * scale], 2);
      const a = tree(box), b = tree(box);
      // Face to face, B on top of A: every pair across the faces is within rounding of touching.
      const pose = makePose(IDENTITY, [0, 0, 10 * scale]);
      const count = k.query(a, b, parseRigid(pose), null, null, false);
      const fallbacks = k.exactFallbacks;
      const t = run('ts', () => collide(a, b, pose, 'all'));
      expect(count).toBeGreaterThan(0);
      expect(sortedKeys(k.pairs(count))).toEqual(sortedKeys(t.pairs));
      expect(fallbacks > 0).toBe(expectFallbacks);
    }
  });

  it('answers again after a copied tree is released, and after the trees are rebuilt', () => {
    const d = boxMesh([0, 0, 0], [10, 10, 10], 3);
    const pose = makePose(quaternionToMatrix(0.8, 0.2, 0.5, -0.1), [4, 3, 2]);
    const a = copied(tree(d)), b = copied(tree(d));
    const first = collide(a, b, pose, 'all');
    releaseTree(a);
    releaseTree(b);
    expectSame(collide(a, b, pose, 'all'), first);
    for (let k = 0; k < 5; k++) {
      const a2 = tree(d), b2 = tree(d);
      expectSame(collide(a2, b2, pose, 'all'), first);
    }
    expectSame(run('ts', () => collide(a, b, pose, 'all')), first);
  });

  it('lays out a larger scratch over memory that held trees, and answers as the TypeScript traversal does', () => {
    // Only the scratch's stamps are zeroed when it is laid out again: every other word it holds
    // (here: released trees' boxes and vertices) must be written before it is read.
    const k = queryKernel()! as unknown as { arena: { lastFresh: boolean }; scratchAt: number };
    const pose = makePose(quaternionToMatrix(0.8, 0.2, 0.5, -0.1), [3, 2, 1]);
    let reused = 0;
    // Growing meshes until the scratch has been laid out again over used memory a few times (a
    // scratch left large by earlier queries is first outgrown).
    for (let n = 2; n <= 80 && reused < 4; n++) {
      // Trees built and released first leave their memory behind, free and dirty.
      const junk = [tree(boxMesh([0, 0, 0], [12, 12, 12], n + 1)), tree(boxMesh([1, 1, 1], [9, 9, 9], n + 1))];
      for (const t of junk) releaseTree(t);
      const a = tree(boxMesh([0, 0, 0], [10, 10, 10], n)), b = tree(boxMesh([0, 0, 0], [10, 10, 10], n));
      const before = k.scratchAt;
      for (const mode of ['all', 'any'] as const) {
        const w = collide(a, b, pose, mode);
        if (k.scratchAt !== before && !k.arena.lastFresh) reused++;
        expectSame(w, run('ts', () => collide(a, b, pose, mode)));
      }
      releaseTree(a);
      releaseTree(b);
    }
    expect(reused).toBeGreaterThan(0);
  });

  it('falls back to ordinary arrays and the TypeScript traversal when its memory is full', () => {
    const d = gridMesh(90, 90, 1);
    const pose = makePose(quaternionToMatrix(0.9, 0.3, -0.2, 0.1), [20, 30, 0.5]);
    const expected = run('ts', () => collide(copied(tree(d)), copied(tree(d)), pose, 'all'));
    limitKernelMemory(0);
    try {
      // Enough new trees to fill what is left of the memory at its present size.
      const trees = Array.from({ length: 12 }, () => tree(d));
      const ordinary = trees.filter((t) => !(t.boxes.buffer instanceof SharedArrayBuffer));
      expect(ordinary.length).toBeGreaterThan(0);
      const a = ordinary[ordinary.length - 1]!, b = copied(a);
      expectSame(collide(a, b, pose, 'all'), expected);
    } finally {
      limitKernelMemory(null);
    }
    expectSame(collide(tree(d), tree(d), pose, 'all'), expected);
  });

  it('builds trees in its own memory, where growing it never detaches them', () => {
    const d = boxMesh([0, 0, 0], [10, 10, 10], 4);
    const t = tree(d);
    expect(t.boxes.buffer).toBeInstanceOf(SharedArrayBuffer);
    const before = Array.from(t.boxes.subarray(0, 15));
    // Enough storage to make the memory grow several times over.
    const many = Array.from({ length: 40 }, () => tree(gridMesh(80, 80, 1)));
    expect(many.length).toBe(40);
    expect(Array.from(t.boxes.subarray(0, 15))).toEqual(before);
    expect(t.positions.length).toBe(d.positions.length);
  });
});
