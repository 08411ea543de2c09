import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import {
  orient2d,
  orient3d,
  orient2dExact as orient2dFallback,
  orient3dExact as orient3dFallback,
} from '../../../src-core/geometry/predicates.js';
import { orient2dExact, orient3dExact, hexFloat, decimalFloat } from '../../support/exact.js';
import {
  orient2dRandomArb,
  orient2dNearCollinearArb,
  orient2dDiagonalArb,
  orient2dExactCollinearArb,
  orient2dInputArb,
  orient3dRandomArb,
  orient3dNearCoplanarArb,
  orient3dDiagonalArb,
  orient3dExactCoplanarArb,
  orient3dInputArb,
} from '../../support/arbitraries.js';
import type { Orient2dInput, Orient3dInput } from '../../support/arbitraries.js';

const NUM_RUNS = 3000;
/** The near-degenerate families are where a filter bound that is too tight shows; run them longer. */
const NUM_RUNS_NEAR = 20000;

function describeArgs(args: readonly number[]): string {
  return `[${args.map(decimalFloat).join(', ')}]\n  hex [${args.map(hexFloat).join(', ')}]`;
}

function check2d(f: (...a: Orient2dInput) => number, args: Orient2dInput): void {
  const got = Math.sign(f(...args));
  const expected = orient2dExact(...args);
  if (got !== expected) throw new Error(`orient2d sign ${got}, exact ${expected} for\n  ${describeArgs(args)}`);
}

function check3d(f: (...a: Orient3dInput) => number, args: Orient3dInput): void {
  const got = Math.sign(f(...args));
  const expected = orient3dExact(...args);
  if (got !== expected) throw new Error(`orient3d sign ${got}, exact ${expected} for\n  ${describeArgs(args)}`);
}

/** Any finite double, from subnormals to the largest. */
const anyFinite = fc.double({ noNaN: true, noDefaultInfinity: true });
/** Points at arbitrary magnitudes: a unit-range coordinate times a power of two from 2^-1074 to 2^1000. */
const wideCoord: Arbitrary<number> = fc
  .tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.integer({ min: -1074, max: 1000 }))
  .map(([x, k]) => x * 2 ** k);

describe('orient2d matches the exact oracle', () => {
  const cases: [string, Arbitrary<Orient2dInput>, number, number][] = [
    ['random points from 1e-30 to 1e30', orient2dRandomArb, 20261201, NUM_RUNS],
    ['nearly collinear points nudged by ulps', orient2dNearCollinearArb, 20261202, NUM_RUNS_NEAR],
    ['points ulps off the diagonal (naive evaluation fails)', orient2dDiagonalArb, 20261203, NUM_RUNS_NEAR],
    ['exactly collinear large integers', orient2dExactCollinearArb, 20261204, NUM_RUNS_NEAR],
  ];
  for (const [name, arb, seed, numRuns] of cases) {
    it(`on ${name} (seed ${seed})`, () => {
      fc.assert(
        fc.property(arb, (args) => check2d(orient2d, args)),
        { seed, numRuns },
      );
    });
  }

  it('on the documented plain cases', () => {
    expect(Math.sign(orient2d(0, 0, 1, 0, 0, 1))).toBe(1);
    expect(Math.sign(orient2d(0, 0, 0, 1, 1, 0))).toBe(-1);
    expect(Math.sign(orient2d(0, 0, 1, 1, 2, 2))).toBe(0);
    expect(Math.sign(orient2d(0.5, 0.5 + 2 ** -53, 12, 12, 24, 24))).toBe(1);
    expect(Math.sign(orient2d(0.5 + 2 ** -53, 0.5, 12, 12, 24, 24))).toBe(-1);
  });

  it('on all finite doubles, subnormals and huge values included (seed 20261205)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(anyFinite, wideCoord), { minLength: 6, maxLength: 6 }),
        (a) => check2d(orient2d, a as unknown as Orient2dInput),
      ),
      { seed: 20261205, numRuns: NUM_RUNS },
    );
  });

  it('exact fallback agrees too (seed 20261206)', () => {
    fc.assert(
      fc.property(orient2dInputArb, (args) => check2d(orient2dFallback, args)),
      { seed: 20261206, numRuns: NUM_RUNS },
    );
  });
});

describe('orient3d matches the exact oracle', () => {
  const cases: [string, Arbitrary<Orient3dInput>, number, number][] = [
    ['random points from 1e-30 to 1e30', orient3dRandomArb, 20261211, NUM_RUNS],
    ['nearly coplanar points nudged by ulps', orient3dNearCoplanarArb, 20261212, NUM_RUNS_NEAR],
    ['points ulps off the plane y = x (naive evaluation fails)', orient3dDiagonalArb, 20261213, NUM_RUNS_NEAR],
    ['exactly coplanar large integers', orient3dExactCoplanarArb, 20261214, NUM_RUNS_NEAR],
  ];
  for (const [name, arb, seed, numRuns] of cases) {
    it(`on ${name} (seed ${seed})`, () => {
      fc.assert(
        fc.property(arb, (args) => check3d(orient3d, args)),
        { seed, numRuns },
      );
    });
  }

  it('on the documented plain cases', () => {
    expect(Math.sign(orient3d(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1))).toBe(1);
    expect(Math.sign(orient3d(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, -1))).toBe(-1);
    expect(Math.sign(orient3d(0, 0, 0, 1, 0, 0, 0, 1, 0, 3, 5, 0))).toBe(0);
    expect(Math.sign(orient3d(0, 0, 0, 1, 0, 0, 0, 1, 0, 3, 5, Number.MIN_VALUE))).toBe(1);
  });

  it('on a huge coordinate against a 2×2 minor that underflows', () => {
    // d = b, so the exact determinant is 0; the product z·x of the minor underflows to 0 in
    // floating point while Y·z·x does not.
    for (const [Y, z, x] of [
      [2 ** 112, 2 ** -382, 2 ** -693],
      [2 ** 200, 2 ** -500, 2 ** -600],
    ] as const) {
      check3d(orient3d, [0, 0, 0, 0, Y, z, -x, 0, 0, 0, Y, z]);
    }
  });

  it('on all finite doubles, subnormals and huge values included (seed 20261215)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(anyFinite, wideCoord), { minLength: 12, maxLength: 12 }),
        (a) => check3d(orient3d, a as unknown as Orient3dInput),
      ),
      { seed: 20261215, numRuns: NUM_RUNS },
    );
  });

  it('exact fallback agrees too (seed 20261216)', () => {
    fc.assert(
      fc.property(orient3dInputArb, (args) => check3d(orient3dFallback, args)),
      { seed: 20261216, numRuns: NUM_RUNS },
    );
  });
});
