import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { readRigidTransform, rigidError, RIGID_TOLERANCE } from '../../../src-core/collide/transform.js';
import { quaternionToMatrix, makePose, SIGNED_PERMUTATIONS, unitCoordArb } from '../../support/meshArbitraries.js';
import type { Mat3, Vec3 } from '../../support/meshArbitraries.js';

const read = (m: ArrayLike<number>): Float64Array => {
  const out = new Float64Array(12);
  readRigidTransform(m, out);
  return out;
};

/** The 12-number layout readRigidTransform writes: rotation rows, then the translation. */
const expected = (r: Mat3, t: Vec3): number[] => [...r, ...t];

const ROT_Z_90: Mat3 = [0, -1, 0, 1, 0, 0, 0, 0, 1];
const T: Vec3 = [1.5, -2, 1e6];

describe('readRigidTransform accepts rigid transforms', () => {
  it('16 numbers (4×4, last row 0 0 0 1) and 12 numbers (3×4) read the same', () => {
    const m16 = makePose(ROT_Z_90, T);
    expect(Array.from(read(m16))).toEqual(expected(ROT_Z_90, T));
    expect(Array.from(read(m16.subarray(0, 12)))).toEqual(expected(ROT_Z_90, T));
    expect(Array.from(read(Array.from(m16)))).toEqual(expected(ROT_Z_90, T));
  });

  it('the identity, pure translations and the 24 axis permutations with signs', () => {
    expect(Array.from(read([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]))).toEqual(expected([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0]));
    expect(Array.from(read(makePose([1, 0, 0, 0, 1, 0, 0, 0, 1], [-1e300, 5, 2 ** -1074])))).toEqual(expected([1, 0, 0, 0, 1, 0, 0, 0, 1], [-1e300, 5, 2 ** -1074]));
    expect(SIGNED_PERMUTATIONS.length).toBe(24);
    for (const r of SIGNED_PERMUTATIONS) expect(Array.from(read(makePose(r, T)))).toEqual(expected(r, T));
  });

  it('rotations built from random unit quaternions (seed 20261144)', () => {
    fc.assert(
      fc.property(fc.tuple(unitCoordArb, unitCoordArb, unitCoordArb, unitCoordArb).filter((q) => Math.hypot(...q) > 1e-3), fc.tuple(unitCoordArb, unitCoordArb, unitCoordArb), (q, t) => {
        const r = quaternionToMatrix(...q);
        expect(rigidError(r)).toBeLessThan(1e-14);
        const tt: Vec3 = [t[0] * 1e6, t[1], t[2] * 1e-6];
        expect(Array.from(read(makePose(r, tt)))).toEqual(expected(r, tt));
        expect(Array.from(read(makePose(r, tt).subarray(0, 12)))).toEqual(expected(r, tt));
      }),
      { seed: 20261144, numRuns: 300 },
    );
  });

  it('a rotation off by less than the tolerance', () => {
    const r: Mat3 = [1, 1e-8, 0, -1e-8, 1, 0, 0, 0, 1];
    expect(rigidError(r)).toBeLessThanOrEqual(RIGID_TOLERANCE);
    expect(() => read(makePose(r, T))).not.toThrow();
  });
});

describe('readRigidTransform rejects anything else with RangeError', () => {
  const bad: readonly [string, ArrayLike<number>][] = [
    ['uniform scale 2', makePose([2, 0, 0, 0, 2, 0, 0, 0, 2], T)],
    ['scale 1 + 1e-3 on one axis', makePose([1 + 1e-3, 0, 0, 0, 1, 0, 0, 0, 1], T)],
    ['scale 0', makePose([0, 0, 0, 0, 0, 0, 0, 0, 0], T)],
    ['shear', makePose([1, 0.5, 0, 0, 1, 0, 0, 0, 1], T)],
    ['reflection (mirror x, det −1)', makePose([-1, 0, 0, 0, 1, 0, 0, 0, 1], T)],
    ['point reflection (det −1)', makePose([-1, 0, 0, 0, -1, 0, 0, 0, -1], T)],
    ['axis swap without sign (det −1)', makePose([0, 1, 0, 1, 0, 0, 0, 0, 1], T)],
    ['a reflected quaternion rotation', makePose(quaternionToMatrix(0.3, 0.1, -0.7, 0.2).map((x, i) => (i < 3 ? -x : x)) as unknown as Mat3, T)],
    ['NaN in the rotation', makePose([1, 0, 0, 0, NaN, 0, 0, 0, 1], T)],
    ['NaN in the translation', makePose([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, NaN, 0])],
    ['Infinity in the translation', makePose([1, 0, 0, 0, 1, 0, 0, 0, 1], [Infinity, 0, 0])],
    ['NaN in the last row', [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, NaN]],
    ['last row 0 0 0 2', [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2]],
    ['last row 1 0 0 1 (projective)', [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1]],
    ['last row 0 0 0 0', [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]],
    ['no numbers', []],
    ['9 numbers (a bare 3×3)', [1, 0, 0, 0, 1, 0, 0, 0, 1]],
    ['11 numbers', [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]],
    ['13 numbers', [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0]],
    ['15 numbers', [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0]],
    ['17 numbers', [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]],
  ];
  for (const [name, m] of bad) {
    it(name, () => {
      expect(() => read(m)).toThrow(RangeError);
    });
  }

  it('scaled quaternion rotations (scale 1 ± 1e-3 .. 2) and mirrored ones (seed 20261145)', () => {
    fc.assert(
      fc.property(
        fc.tuple(unitCoordArb, unitCoordArb, unitCoordArb, unitCoordArb).filter((q) => Math.hypot(...q) > 1e-3),
        fc.oneof(fc.double({ min: 1.001, max: 2, noNaN: true }), fc.double({ min: 0.5, max: 0.999, noNaN: true }), fc.constant(-1)),
        fc.integer({ min: 0, max: 2 }),
        (q, s, row) => {
          const r = quaternionToMatrix(...q).map((x, i) => (Math.floor(i / 3) === row ? x * s : x)) as unknown as Mat3;
          expect(() => read(makePose(r, T))).toThrow(RangeError);
        },
      ),
      { seed: 20261145, numRuns: 200 },
    );
  });
});
