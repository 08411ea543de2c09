import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { orthonormalFrame, symmetricEigen3 } from '../../../src-core/geometry/eigen.js';

type Sym = [number, number, number, number, number, number];

/** Reference eigenvalues by cyclic Jacobi rotations (slow, simple). */
function jacobiEigenvalues(m: Sym): number[] {
  const scale = Math.max(...m.map(Math.abs)) || 1;
  const [a00, a01, a02, a11, a12, a22] = m.map((v) => v / scale);
  const A = [[a00, a01, a02], [a01, a11, a12], [a02, a12, a22]];
  for (let sweep = 0; sweep < 100; sweep++) {
    const off = A[0][1] ** 2 + A[0][2] ** 2 + A[1][2] ** 2;
    if (off === 0) break;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]]) {
      if (A[p][q] === 0) continue;
      const theta = (A[q][q] - A[p][p]) / (2 * A[p][q]);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = A[k][p], akq = A[k][q];
        A[k][p] = c * akp - s * akq;
        A[k][q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = A[p][k], aqk = A[q][k];
        A[p][k] = c * apk - s * aqk;
        A[q][k] = s * apk + c * aqk;
      }
    }
  }
  return [A[0][0], A[1][1], A[2][2]].map((v) => v * scale).sort((x, y) => y - x);
}

/** A symmetric matrix from eigenvalues and a rotation (unit quaternion). */
function fromSpectrum(l: [number, number, number], q: [number, number, number, number]): Sym {
  const n = Math.hypot(...q) || 1;
  const [w, x, y, z] = q.map((v) => v / n);
  const R = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
  const e = (i: number, j: number): number => l[0] * R[i][0] * R[j][0] + l[1] * R[i][1] * R[j][1] + l[2] * R[i][2] * R[j][2];
  return [e(0, 0), e(0, 1), e(0, 2), e(1, 1), e(1, 2), e(2, 2)];
}

const finite = fc.double({ min: -1e3, max: 1e3, noNaN: true });
const unitQuat = fc.tuple(finite, finite, finite, finite);
/** Random entries; spectra with repeated and zero eigenvalues (flat and collinear groups). */
const matrices: fc.Arbitrary<Sym> = fc.oneof(
  fc.tuple(finite, finite, finite, finite, finite, finite),
  fc.tuple(finite, finite, unitQuat).map(([a, b, q]) => fromSpectrum([a, a, b], q)),
  fc.tuple(finite, unitQuat).map(([a, q]) => fromSpectrum([a, 0, 0], q)),
  fc.tuple(finite, unitQuat).map(([a, q]) => fromSpectrum([a, a, 0], q)),
  fc.tuple(finite, unitQuat).map(([a, q]) => fromSpectrum([a, a, a], q)),
  fc.tuple(finite, finite, finite, fc.integer({ min: -200, max: 200 })).map(([a, b, c, k]): Sym => [a * 2 ** k, 0, 0, b * 2 ** k, 0, c * 2 ** k]),
);

function check(m: Sym): void {
  const out = new Float64Array(12);
  symmetricEigen3(...m, out);
  const [a00, a01, a02, a11, a12, a22] = m;
  const scale = Math.max(...m.map(Math.abs));
  const tol = 1e-9 * scale;
  // Eigenvalues in decreasing order, matching a reference.
  expect(out[0]).toBeGreaterThanOrEqual(out[1]);
  expect(out[1]).toBeGreaterThanOrEqual(out[2]);
  const ref = jacobiEigenvalues(m);
  for (let i = 0; i < 3; i++) expect(Math.abs(out[i] - ref[i])).toBeLessThanOrEqual(tol + 1e-300);
  // A right-handed orthonormal frame whose axes are eigenvectors: ‖A v − λ v‖ small.
  const v = [0, 1, 2].map((i) => [out[3 + 3 * i], out[4 + 3 * i], out[5 + 3 * i]]);
  const dot = (p: number[], q: number[]): number => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
  for (let i = 0; i < 3; i++) {
    expect(Math.abs(dot(v[i], v[i]) - 1)).toBeLessThan(1e-10);
    for (let j = i + 1; j < 3; j++) expect(Math.abs(dot(v[i], v[j]))).toBeLessThan(1e-10);
  }
  const cross = [v[0][1] * v[1][2] - v[0][2] * v[1][1], v[0][2] * v[1][0] - v[0][0] * v[1][2], v[0][0] * v[1][1] - v[0][1] * v[1][0]];
  expect(dot(cross, v[2])).toBeGreaterThan(1 - 1e-10);
  if (!(scale > 0)) return;
  for (let i = 0; i < 3; i++) {
    const [x, y, z] = v[i];
    const r = [a00 * x + a01 * y + a02 * z, a01 * x + a11 * y + a12 * z, a02 * x + a12 * y + a22 * z];
    const res = Math.hypot(r[0] - out[i] * x, r[1] - out[i] * y, r[2] - out[i] * z);
    // Eigenvectors of nearly repeated eigenvalues are ill-conditioned; the residual stays small.
    expect(res).toBeLessThanOrEqual(1e-7 * scale + 1e-300);
  }
}

describe('symmetricEigen3', () => {
  it('gives sorted eigenvalues and a right-handed orthonormal eigenbasis (random and repeated spectra)', () => {
    fc.assert(fc.property(matrices, (m) => check(m)), { numRuns: 3000 });
  });

  it('handles the zero matrix, diagonal and one-entry matrices', () => {
    for (const m of [
      [0, 0, 0, 0, 0, 0], [1, 0, 0, 1, 0, 1], [3, 0, 0, 2, 0, 1], [1, 0, 0, 2, 0, 3], [0, 1, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 1e-300], [1e300, 0, 0, 1e300, 0, -1e300], [2, -1, 0, 2, -1, 2],
    ] as Sym[]) check(m);
  });

  it('returns the identity frame for non-finite input', () => {
    const out = new Float64Array(12);
    symmetricEigen3(NaN, 0, 0, 1, 0, 1, out);
    expect(Array.from(out.subarray(3))).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });
});

describe('orthonormalFrame', () => {
  const component = fc.oneof(fc.double({ min: 1e-3, max: 1e3, noNaN: true }), fc.double({ min: -1e3, max: -1e-3, noNaN: true }), fc.constant(0));
  const vec = fc.tuple(component, component, component);
  it('gives the same frame, to the bit, for vectors scaled by powers of two whose squares would underflow or overflow', () => {
    fc.assert(
      fc.property(vec, vec, fc.constantFrom(-1000, -900, -700, -520, 520, 700, 900, 1000), (a, b, e) => {
        const plain = new Float64Array([...a, ...b, 0, 0, 0]);
        orthonormalFrame(plain, 0);
        const k = 2 ** e;
        const scaled = new Float64Array([a[0] * k, a[1] * k, a[2] * k, b[0] * k, b[1] * k, b[2] * k, 0, 0, 0]);
        orthonormalFrame(scaled, 0);
        expect(Array.from(scaled).map((x) => x + 0)).toEqual(Array.from(plain).map((x) => x + 0));
        // A unit, right-handed frame either way.
        for (let i = 0; i < 3; i++) {
          const n = Math.hypot(scaled[3 * i]!, scaled[3 * i + 1]!, scaled[3 * i + 2]!);
          expect(Math.abs(n - 1)).toBeLessThan(1e-14);
        }
      }),
      { numRuns: 500, seed: 20261206 },
    );
  });

  it('completes a frame from a subnormal vector', () => {
    const f = new Float64Array([0, 0, -5e-324, 0, 0, 0, 0, 0, 0]);
    orthonormalFrame(f, 0);
    expect(f[2]).toBe(-1);
    for (let i = 0; i < 3; i++) expect(Math.hypot(f[3 * i]!, f[3 * i + 1]!, f[3 * i + 2]!)).toBeCloseTo(1, 14);
  });
});
