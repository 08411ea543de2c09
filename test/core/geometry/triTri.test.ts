import { describe, it } from 'vitest';
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { triTriIntersect } from '../../../src-core/geometry/triTri.js';
import { triTriIntersectExact, formatTriangle } from '../../support/exact.js';
import { TRI_PAIR_ARBS, VERTEX_ORDERS, extremeScaledPairArb, reorder, triPairArb } from '../../support/arbitraries.js';
import type { TriPair } from '../../support/arbitraries.js';

/** Runs the engine's test on two triangles stored contiguously at offsets 0, 3, 6. */
function fast(a: Float64Array, b: Float64Array): boolean {
  return triTriIntersect(a, 0, 3, 6, b, 0, 3, 6);
}

function report(what: string, a: Float64Array, b: Float64Array, expected: boolean, got: boolean): Error {
  return new Error(`${what}: triTriIntersect = ${got}, exact = ${expected}\n  A = ${formatTriangle(a)}\n  B = ${formatTriangle(b)}`);
}

/**
 * Where the vertices sit in memory: each vertex gets its own slot among ten, the rest is NaN, and
 * both triangles share one array or use two.
 */
interface Layout {
  shared: boolean;
  slots: number[];
}
const layoutArb: Arbitrary<Layout> = fc.record({
  shared: fc.boolean(),
  slots: fc.uniqueArray(fc.nat(9), { minLength: 6, maxLength: 6 }),
});

function fastInLayout(a: Float64Array, b: Float64Array, { shared, slots }: Layout): boolean {
  const pa = new Float64Array(30).fill(NaN);
  const pb = shared ? pa : new Float64Array(30).fill(NaN);
  const o = slots.map((s) => 3 * s);
  for (let k = 0; k < 3; k++) {
    pa.set(a.subarray(3 * k, 3 * k + 3), o[k]);
    pb.set(b.subarray(3 * k, 3 * k + 3), o[3 + k]);
  }
  return triTriIntersect(pa, o[0]!, o[1]!, o[2]!, pb, o[3]!, o[4]!, o[5]!);
}

const FAMILY_SEEDS: Record<string, number> = {
  general: 20261129,
  grid: 20261130,
  pooledGrid: 20261131,
  degenerate: 20261132,
  touching: 20261133,
  nearMiss: 20261134,
  coplanar: 20261135,
  sliver: 20261136,
  pow2Scaled: 20261137,
  far: 20261138,
};

describe('triTriIntersect matches the exact oracle', () => {
  for (const [name, arb] of Object.entries(TRI_PAIR_ARBS)) {
    const seed = FAMILY_SEEDS[name] ?? 20261139;
    it(`on ${name} pairs (seed ${seed})`, () => {
      fc.assert(
        fc.property(arb, layoutArb, ([a, b]: TriPair, layout) => {
          const expected = triTriIntersectExact(a, b);
          const got = fast(a, b);
          if (got !== expected) throw report(name, a, b, expected, got);
          const placed = fastInLayout(a, b, layout);
          if (placed !== expected) throw report(`${name}, vertices at slots ${layout.slots.join(',')}`, a, b, expected, placed);
        }),
        { seed, numRuns: 2000 },
      );
    });
  }

  it('on pairs scaled per axis by powers of two from 2^-1000 to 2^1000 (seed 20261142)', () => {
    fc.assert(
      fc.property(extremeScaledPairArb, ([a, b]: TriPair) => {
        const expected = triTriIntersectExact(a, b);
        const got = fast(a, b);
        if (got !== expected) throw report('extreme scales', a, b, expected, got);
      }),
      { seed: 20261142, numRuns: 2000 },
    );
  });

  it('on a point at a vertex of a triangle with huge and tiny coordinates', () => {
    // B's third vertex is the point A; a 2×2 minor of B's normal underflows in floating point.
    const a = Float64Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const b = Float64Array.from([0, 2 ** 112, 2 ** -382, -(2 ** -693), 0, 0, 0, 0, 0]);
    const got = fast(a, b);
    if (got !== true) throw report('point on a vertex', a, b, true, got);
  });

  it('on mixed pairs under every vertex order and both argument orders (seed 20261140)', () => {
    fc.assert(
      fc.property(triPairArb, ([a, b]: TriPair) => {
        const expected = triTriIntersectExact(a, b);
        for (const oa of VERTEX_ORDERS) {
          for (const ob of VERTEX_ORDERS) {
            const a2 = reorder(a, oa);
            const b2 = reorder(b, ob);
            const got = fast(a2, b2);
            if (got !== expected) throw report(`orders ${oa.join('')}/${ob.join('')}`, a2, b2, expected, got);
            const swapped = fast(b2, a2);
            if (swapped !== expected) throw report(`swapped, orders ${ob.join('')}/${oa.join('')}`, b2, a2, expected, swapped);
          }
        }
      }),
      { seed: 20261140, numRuns: 3000 },
    );
  });
});

describe('triTriIntersect is symmetric', () => {
  it('under swapping the triangles, rotating and reversing their vertices (seed 20261141)', () => {
    fc.assert(
      fc.property(
        triPairArb,
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 5 }),
        ([a, b]: TriPair, i, j) => {
          const base = fast(a, b);
          const a2 = reorder(a, VERTEX_ORDERS[i]!);
          const b2 = reorder(b, VERTEX_ORDERS[j]!);
          if (fast(b, a) !== base) throw new Error(`swap changes the answer (${base})\n  A = ${formatTriangle(a)}\n  B = ${formatTriangle(b)}`);
          if (fast(a2, b2) !== base || fast(b2, a2) !== base) {
            throw new Error(`vertex orders ${i}/${j} change the answer (${base})\n  A = ${formatTriangle(a)}\n  B = ${formatTriangle(b)}`);
          }
        },
      ),
      { seed: 20261141, numRuns: 5000 },
    );
  });
});
