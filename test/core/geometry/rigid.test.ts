import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  applyPoint, applyPointTo, applyVector, applyVectorTo, compose, identityRigid, invert, parseRigid, relative, rigidError,
  rigidToMatrix4, RIGID_TOLERANCE, type Rigid,
} from '../../../src-core/geometry/rigid.js';
import { quaternionToMatrix, makePose, rotationArb, SIGNED_PERMUTATIONS, unitCoordArb } from '../../support/meshArbitraries.js';
import type { Mat3, Vec3 } from '../../support/meshArbitraries.js';

const read = (m: ArrayLike<number>): Float64Array => parseRigid(m);

/** The 12-number layout parseRigid writes: the first three rows of the 4×4. */
const expected = (r: Mat3, t: Vec3): number[] => [r[0], r[1], r[2], t[0], r[3], r[4], r[5], t[1], r[6], r[7], r[8], t[2]];

/** rigidError of a bare rotation (row-major 3×3), through its 4×4. */
const rotationError = (r: Mat3): number => rigidError(makePose(r, [0, 0, 0]));

const ROT_Z_90: Mat3 = [0, -1, 0, 1, 0, 0, 0, 0, 1];
const T: Vec3 = [1.5, -2, 1e6];

describe('parseRigid accepts rigid transforms', () => {
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
        expect(rotationError(r)).toBeLessThan(1e-14);
        const tt: Vec3 = [t[0] * 1e6, t[1], t[2] * 1e-6];
        expect(Array.from(read(makePose(r, tt)))).toEqual(expected(r, tt));
        expect(Array.from(read(makePose(r, tt).subarray(0, 12)))).toEqual(expected(r, tt));
      }),
      { seed: 20261144, numRuns: 300 },
    );
  });

  it('a rotation off by less than the tolerance', () => {
    const r: Mat3 = [1, 1e-8, 0, -1e-8, 1, 0, 0, 0, 1];
    expect(rotationError(r)).toBeLessThanOrEqual(RIGID_TOLERANCE);
    expect(() => read(makePose(r, T))).not.toThrow();
  });
});

describe('parseRigid rejects anything else with RangeError', () => {
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

  it('names the entry that is not a finite number, in doubles and in plain arrays (null and text too)', () => {
    const pose = makePose(ROT_Z_90, T);
    for (const k of [0, 5, 7, 11]) {
      for (const v of [NaN, Infinity, -Infinity]) {
        const f = Float64Array.from(pose);
        f[k] = v;
        expect(() => read(f)).toThrow(`transform entry ${k} is not a finite number`);
        const a = Array.from(pose);
        a[k] = v;
        expect(() => read(a)).toThrow(`transform entry ${k} is not a finite number`);
      }
      for (const v of [null, '1', undefined]) {
        const a: unknown[] = Array.from(pose);
        a[k] = v;
        expect(() => read(a as number[])).toThrow(`transform entry ${k} is not a finite number`);
      }
    }
  });

  it('rigidError is the largest entry of |RᵀR − I| and |det R − 1| (seed 20261146)', () => {
    const reference = (m: ArrayLike<number>): number => {
      let err = 0;
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) err = Math.max(err, Math.abs(m[i]! * m[j]! + m[4 + i]! * m[4 + j]! + m[8 + i]! * m[8 + j]! - (i === j ? 1 : 0)));
      }
      const det = m[0]! * (m[5]! * m[10]! - m[6]! * m[9]!) - m[1]! * (m[4]! * m[10]! - m[6]! * m[8]!) + m[2]! * (m[4]! * m[9]! - m[5]! * m[8]!);
      return Math.max(err, Math.abs(det - 1));
    };
    fc.assert(
      fc.property(fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: 12, maxLength: 12 }), (m) => {
        expect(rigidError(m)).toBe(reference(m));
      }),
      { seed: 20261146, numRuns: 500 },
    );
    expect(rigidError([1, 0, 0, 0, 0, NaN, 0, 0, 0, 0, 1, 0])).toBeNaN();
  });

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

// ---------------------------------------------------------------------------------------------
// The operations against a plain 4×4 oracle

type M4 = number[];

/** a·b for row-major 4×4 matrices. */
function mul4(a: M4, b: M4): M4 {
  const out = new Array<number>(16).fill(0);
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) for (let k = 0; k < 4; k++) out[4 * i + j] += a[4 * i + k] * b[4 * k + j];
  return out;
}

/** The inverse of a row-major 4×4 by Gauss–Jordan elimination with partial pivoting. */
function inv4(m: M4): M4 {
  const a = [0, 1, 2, 3].map((i) => [...m.slice(4 * i, 4 * i + 4), ...[0, 1, 2, 3].map((j) => (i === j ? 1 : 0))]);
  for (let c = 0; c < 4; c++) {
    let p = c;
    for (let r = c + 1; r < 4; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    [a[c], a[p]] = [a[p], a[c]];
    const d = a[c][c];
    for (let j = 0; j < 8; j++) a[c][j] /= d;
    for (let r = 0; r < 4; r++) {
      if (r === c) continue;
      const f = a[r][c];
      for (let j = 0; j < 8; j++) a[r][j] -= f * a[c][j];
    }
  }
  return a.flatMap((row) => row.slice(4));
}

/** m·(x, y, z, w) for a row-major 4×4: the first three components. */
function mulVec4(m: M4, x: number, y: number, z: number, w: number): number[] {
  return [0, 1, 2].map((i) => m[4 * i] * x + m[4 * i + 1] * y + m[4 * i + 2] * z + m[4 * i + 3] * w);
}

function expectNear(got: ArrayLike<number>, want: ArrayLike<number>, what: string): void {
  expect(got.length, what).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    const tol = 1e-9 * (1 + Math.abs(want[i]));
    if (!(Math.abs(got[i] - want[i]) <= tol)) {
      throw new Error(`${what}: entry ${i} is ${got[i]}, the 4×4 oracle gives ${want[i]}\n  got  ${Array.from(got).join(' ')}\n  want ${Array.from(want).join(' ')}`);
    }
  }
}

const translationArb = fc.tuple(
  fc.double({ min: -1e3, max: 1e3, noNaN: true }),
  fc.double({ min: -1e3, max: 1e3, noNaN: true }),
  fc.double({ min: -1e3, max: 1e3, noNaN: true }),
);
/** A rigid placement as its 4×4 (the oracle's input) and parsed. */
const placementArb = fc.tuple(rotationArb, translationArb).map(([r, t]) => {
  const m4 = Array.from(makePose(r, t));
  return { m4, m: parseRigid(m4) };
});
const pointArb = translationArb;

describe('the rigid operations agree with 4×4 matrix arithmetic', () => {
  it('compose(a, b) is A·B, and rigid (seed 20261201)', () => {
    fc.assert(fc.property(placementArb, placementArb, (a, b) => {
      const c = compose(a.m, b.m);
      expectNear(rigidToMatrix4(c), mul4(a.m4, b.m4), 'compose');
      expect(rigidError(c)).toBeLessThan(1e-12);
    }), { seed: 20261201, numRuns: 300 });
  });

  it('invert(a) is A⁻¹, and a ∘ a⁻¹ is the identity (seed 20261202)', () => {
    fc.assert(fc.property(placementArb, (a) => {
      const inv = invert(a.m);
      expectNear(rigidToMatrix4(inv), inv4(a.m4), 'invert');
      expectNear(rigidToMatrix4(compose(a.m, inv)), rigidToMatrix4(identityRigid()), 'a ∘ a⁻¹');
      expectNear(rigidToMatrix4(compose(inv, a.m)), rigidToMatrix4(identityRigid()), 'a⁻¹ ∘ a');
    }), { seed: 20261202, numRuns: 300 });
  });

  it('relative(a, b) is A⁻¹·B, b in a\'s frame (seed 20261203)', () => {
    fc.assert(fc.property(placementArb, placementArb, (a, b) => {
      const rel = relative(a.m, b.m);
      expectNear(rigidToMatrix4(rel), mul4(inv4(a.m4), b.m4), 'relative');
      expectNear(rel, compose(invert(a.m), b.m), 'relative vs compose(invert)');
      // Placing by b is placing by a after placing by rel.
      expectNear(rigidToMatrix4(compose(a.m, rel)), b.m4, 'a ∘ relative(a, b)');
    }), { seed: 20261203, numRuns: 300 });
  });

  it('applyPoint and applyVector are A·(p, 1) and A·(v, 0), allocating or into an array (seed 20261204)', () => {
    fc.assert(fc.property(placementArb, pointArb, (a, p) => {
      const [x, y, z] = p;
      expectNear(applyPoint(a.m, x, y, z), mulVec4(a.m4, x, y, z, 1), 'applyPoint');
      expectNear(applyVector(a.m, x, y, z), mulVec4(a.m4, x, y, z, 0), 'applyVector');
      // A 4×4 is read as it is (its first 12 numbers are the layout).
      expect(applyPoint(a.m4, x, y, z)).toEqual(applyPoint(a.m, x, y, z));
      const out = new Float64Array(7);
      applyPointTo(a.m, x, y, z, out, 1);
      applyVectorTo(a.m, x, y, z, out, 4);
      expect(Array.from(out)).toEqual([0, ...applyPoint(a.m, x, y, z), ...applyVector(a.m, x, y, z)]);
    }), { seed: 20261204, numRuns: 300 });
  });

  it('exact rotations and integer translations give exactly the oracle\'s numbers', () => {
    const t: Vec3 = [3, -7, 1024];
    for (const ra of SIGNED_PERMUTATIONS) {
      const a4 = Array.from(makePose(ra, t));
      const b4 = Array.from(makePose(SIGNED_PERMUTATIONS[5], [-2, 9, 0]));
      const a = parseRigid(a4), b = parseRigid(b4);
      expect(rigidToMatrix4(compose(a, b))).toEqual(mul4(a4, b4));
      expect(rigidToMatrix4(invert(a)).map((x) => x + 0)).toEqual(inv4(a4).map((x) => x + 0));
      expect(rigidToMatrix4(relative(a, b)).map((x) => x + 0)).toEqual(mul4(inv4(a4), b4).map((x) => x + 0));
    }
  });

  it('the results are placements parseRigid takes back unchanged, 12 or 16 numbers', () => {
    fc.assert(fc.property(placementArb, placementArb, (a, b) => {
      for (const m of [compose(a.m, b.m), invert(a.m), relative(a.m, b.m)]) {
        expect(Array.from(parseRigid(m))).toEqual(Array.from(m));
        expect(Array.from(parseRigid(rigidToMatrix4(m)))).toEqual(Array.from(m));
      }
    }), { seed: 20261205, numRuns: 100 });
  });

  it('writes into a given array and returns it', () => {
    const a = parseRigid(makePose(SIGNED_PERMUTATIONS[3], [1, 2, 3])), b = parseRigid(makePose(SIGNED_PERMUTATIONS[7], [4, 5, 6]));
    const out = new Float64Array(12);
    const results: Rigid[] = [compose(a, b, out), invert(a, out), relative(a, b, out), parseRigid(makePose(SIGNED_PERMUTATIONS[1], [0, 0, 0]), out)];
    for (const r of results) expect(r).toBe(out);
  });
});

describe('non-rigid input is refused before any operation', () => {
  it('a scaled, sheared or mirrored 4×4 from the oracle\'s arithmetic (seed 20261206)', () => {
    fc.assert(fc.property(placementArb, fc.oneof(fc.constant('scale'), fc.constant('shear'), fc.constant('mirror')), (a, kind) => {
      const s4 = kind === 'scale' ? [1.01, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        : kind === 'shear' ? [1, 0.01, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
          : [1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
      const bad = mul4(a.m4, s4);
      expect(rigidError(bad)).toBeGreaterThan(RIGID_TOLERANCE);
      expect(() => parseRigid(bad)).toThrow(RangeError);
      expect(() => parseRigid(bad.slice(0, 12))).toThrow(RangeError);
    }), { seed: 20261206, numRuns: 200 });
  });
});
