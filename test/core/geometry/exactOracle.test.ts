import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  decomposeDouble,
  toScaledIntegers,
  orient2dExact,
  orient3dExact,
  triTriIntersectExact,
  segTriIntersectExact,
  pointTriIntersectExact,
  hexFloat,
  signOf,
} from '../../support/exact.js';
import {
  VERTEX_ORDERS,
  reorder,
  transformTri,
  nextUp,
  nextDown,
  triPairArb,
  TRI_PAIR_ARBS,
  orient2dDiagonalArb,
  orient3dDiagonalArb,
  orient2dInputArb,
  orient3dInputArb,
} from '../../support/arbitraries.js';
import type { TriPair } from '../../support/arbitraries.js';

// ---------------------------------------------------------------------------------------------
// A second, independent exact test used only to check the oracle: linear-programming feasibility.
// The triangles meet iff there are weights α, β ≥ 0 with Σα = Σβ = 1 and Σ αᵢ pᵢ = Σ βⱼ qⱼ. A
// feasible system {x ≥ 0, A x = b} always has a basic feasible solution, one whose non-zero
// entries sit on linearly independent columns of A, so trying every column subset, solving
// exactly, and checking signs decides feasibility.

function lpIntersect(t1: ArrayLike<number>, t2: ArrayLike<number>): boolean {
  const all = [...Array.from(t1), ...Array.from(t2)];
  const v = toScaledIntegers(all).ints;
  const columns: bigint[][] = [];
  for (let i = 0; i < 3; i++) columns.push([v[3 * i]!, v[3 * i + 1]!, v[3 * i + 2]!, 1n, 0n]);
  for (let j = 0; j < 3; j++) columns.push([-v[9 + 3 * j]!, -v[9 + 3 * j + 1]!, -v[9 + 3 * j + 2]!, 0n, 1n]);
  const rhs = [0n, 0n, 0n, 1n, 1n];
  for (let mask = 1; mask < 64; mask++) {
    const cols = [0, 1, 2, 3, 4, 5].filter((k) => (mask >> k) & 1);
    // Augmented 5 × (|S| + 1) matrix, eliminated fraction-free (Gauss–Jordan with cross-multiplication).
    const m = rhs.map((b, r) => [...cols.map((c) => columns[c]![r]!), b]);
    const n = cols.length;
    let rank = 0;
    let independent = true;
    for (let c = 0; c < n; c++) {
      let pr = -1;
      for (let r = rank; r < 5; r++) if (m[r]![c] !== 0n) pr = pr < 0 ? r : pr;
      if (pr < 0) {
        independent = false;
        break;
      }
      [m[rank], m[pr]] = [m[pr]!, m[rank]!];
      const piv = m[rank]!;
      for (let r = 0; r < 5; r++) {
        if (r === rank || m[r]![c] === 0n) continue;
        const f = m[r]![c]!;
        m[r] = m[r]!.map((x, k) => x * piv[c]! - f * piv[k]!);
      }
      rank++;
    }
    if (!independent) continue;
    if (m.slice(rank).some((row) => row[n] !== 0n)) continue; // inconsistent
    // Row k now reads m[k][k] · x_k = m[k][n].
    if (m.slice(0, n).every((row, k) => signOf(row[k]!) * signOf(row[n]!) >= 0)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------

const T = (...xs: number[]): Float64Array => Float64Array.from(xs);

/** Asserts `expected` for the pair under every vertex order of each triangle and both argument orders. */
function expectAllOrders(a: Float64Array, b: Float64Array, expected: boolean): void {
  for (const oa of VERTEX_ORDERS) {
    for (const ob of VERTEX_ORDERS) {
      const a2 = reorder(a, oa);
      const b2 = reorder(b, ob);
      expect(triTriIntersectExact(a2, b2)).toBe(expected);
      expect(triTriIntersectExact(b2, a2)).toBe(expected);
    }
  }
  expect(lpIntersect(a, b)).toBe(expected);
}

describe('exact dyadic decomposition', () => {
  const samples = [
    0, -0, 1, -1, 0.1, 1 / 3, 3, 1e-300, 1e300, -1e300, Number.MIN_VALUE, -Number.MIN_VALUE,
    2.2250738585072014e-308, 2.225073858507201e-308, Number.MAX_VALUE, Number.EPSILON, 2 ** 53 + 2,
    123456.789e-200,
  ];
  it('round-trips every sample exactly, with an odd significand', () => {
    for (const x of samples) {
      const { m, e } = decomposeDouble(x);
      if (x === 0) {
        expect(m).toBe(0n);
        continue;
      }
      expect(m & 1n).not.toBe(0n);
      expect(Number(m) * 2 ** e).toBe(x);
    }
  });
  it('knows the extreme exponents', () => {
    expect(decomposeDouble(Number.MIN_VALUE)).toEqual({ m: 1n, e: -1074 });
    expect(decomposeDouble(Number.MAX_VALUE)).toEqual({ m: 2n ** 53n - 1n, e: 971 });
    expect(decomposeDouble(-0.75)).toEqual({ m: -3n, e: -2 });
    expect(() => decomposeDouble(NaN)).toThrow();
    expect(() => decomposeDouble(Infinity)).toThrow();
  });
  it('scales a mixed list to integers with one common exponent', () => {
    const { ints, exp } = toScaledIntegers([1e-300, 1e300, Number.MIN_VALUE, 0, -3]);
    expect(exp).toBe(-1074);
    expect(ints[2]).toBe(1n);
    expect(ints[3]).toBe(0n);
    expect(ints[4]).toBe(-3n << 1074n);
    const d = decomposeDouble(1e300);
    expect(ints[1]).toBe(d.m << BigInt(d.e + 1074));
  });
  it('round-trips random doubles of every magnitude (seed 20261101)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const { m, e } = decomposeDouble(x);
        return x === 0 ? m === 0n : Number(m) * 2 ** e === x;
      }),
      { seed: 20261101, numRuns: 3000 },
    );
  });
  it('formats hexadecimal floats', () => {
    expect(hexFloat(3)).toBe('0x1.8p+1');
    expect(hexFloat(1)).toBe('0x1p+0');
    expect(hexFloat(-0.1)).toBe('-0x1.999999999999ap-4');
    expect(hexFloat(Number.MIN_VALUE)).toBe('0x0.0000000000001p-1022');
    expect(hexFloat(-0)).toBe('-0x0p+0');
  });
});

describe('orient2dExact and orient3dExact', () => {
  it('gives the documented signs on plain cases', () => {
    expect(orient2dExact(0, 0, 1, 0, 0, 1)).toBe(1);
    expect(orient2dExact(0, 0, 0, 1, 1, 0)).toBe(-1);
    expect(orient2dExact(0, 0, 1, 1, 2, 2)).toBe(0);
    expect(orient2dExact(1e-300, 1e-300, 1e300, 1e300, 5e-324, 5e-324)).toBe(0);
    expect(orient3dExact(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1)).toBe(1);
    expect(orient3dExact(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, -1)).toBe(-1);
    expect(orient3dExact(0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 7, 0)).toBe(0);
    expect(orient3dExact(0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 7, Number.MIN_VALUE)).toBe(1);
    expect(orient3dExact(0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 7, -Number.MIN_VALUE)).toBe(-1);
  });

  it('sees a point one ulp off the line y = x (the classic naive-evaluation failure)', () => {
    const u = 2 ** -53;
    let naiveWrong = 0;
    for (let i = 0; i < 64; i++) {
      for (let j = 0; j < 64; j++) {
        const ax = 0.5 + i * u;
        const ay = 0.5 + j * u;
        // The determinant is exactly 12·(ay − ax).
        const exact = orient2dExact(ax, ay, 12, 12, 24, 24);
        expect(exact).toBe(Math.sign(j - i));
        const naive = Math.sign((12 - ax) * (24 - ay) - (12 - ay) * (24 - ax));
        if (naive !== exact) naiveWrong++;
      }
    }
    expect(naiveWrong).toBeGreaterThan(100);
  });

  it('sees a point a few ulps off the plane y = x', () => {
    const u = 2 ** -53;
    for (let i = 0; i < 32; i++) {
      for (let j = 0; j < 32; j++) {
        // b, c, d lie on the plane y = x, whose normal (b − a) × (c − a) points to −x here.
        expect(orient3dExact(0.5 + i * u, 0.5 + j * u, 0.3, 12, 12, 1.3, 24, 24, 0.7, 17.3, 17.3, 9.1)).toBe(
          Math.sign(j - i),
        );
      }
    }
  });

  it('the diagonal generators defeat naive evaluation (seed 20261102)', () => {
    let wrong2 = 0;
    for (const [ax, ay, bx, by, cx, cy] of fc.sample(orient2dDiagonalArb, { seed: 20261102, numRuns: 2000 })) {
      const naive = Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
      if (naive !== orient2dExact(ax, ay, bx, by, cx, cy)) wrong2++;
    }
    let wrong3 = 0;
    for (const p of fc.sample(orient3dDiagonalArb, { seed: 20261102, numRuns: 2000 })) {
      const [a0, a1, a2, b0, b1, b2, c0, c1, c2, d0, d1, d2] = p;
      const [bx, by, bz, cx, cy, cz, dx, dy, dz] = [b0 - a0, b1 - a1, b2 - a2, c0 - a0, c1 - a1, c2 - a2, d0 - a0, d1 - a1, d2 - a2];
      const naive = Math.sign((by * cz - bz * cy) * dx + (bz * cx - bx * cz) * dy + (bx * cy - by * cx) * dz);
      if (naive !== orient3dExact(...p)) wrong3++;
    }
    expect(wrong2).toBeGreaterThan(50);
    expect(wrong3).toBeGreaterThan(50);
  });

  it('is antisymmetric under swapping two points and invariant under power-of-two scaling (seed 20261103)', () => {
    fc.assert(
      fc.property(orient2dInputArb, fc.integer({ min: -60, max: 60 }), ([ax, ay, bx, by, cx, cy], k) => {
        const s = orient2dExact(ax, ay, bx, by, cx, cy);
        const f = 2 ** k;
        return (
          orient2dExact(bx, by, ax, ay, cx, cy) === -s &&
          orient2dExact(bx, by, cx, cy, ax, ay) === s &&
          orient2dExact(ax * f, ay * f, bx * f, by * f, cx * f, cy * f) === s
        );
      }),
      { seed: 20261103, numRuns: 1000 },
    );
    fc.assert(
      fc.property(orient3dInputArb, fc.integer({ min: -60, max: 60 }), (p, k) => {
        const [ax, ay, az, bx, by, bz, cx, cy, cz, dx, dy, dz] = p;
        const s = orient3dExact(...p);
        const f = 2 ** k;
        return (
          orient3dExact(bx, by, bz, ax, ay, az, cx, cy, cz, dx, dy, dz) === -s &&
          orient3dExact(bx, by, bz, cx, cy, cz, ax, ay, az, dx, dy, dz) === s &&
          orient3dExact(ax, ay, az, bx, by, bz, dx, dy, dz, cx, cy, cz) === -s &&
          orient3dExact(...(p.map((x) => x * f) as unknown as typeof p)) === s
        );
      }),
      { seed: 20261103, numRuns: 1000 },
    );
  });

  it('agrees with plain double arithmetic where that is exact: small integers (seed 20261104)', () => {
    const c = fc.integer({ min: -1000, max: 1000 });
    fc.assert(
      fc.property(fc.array(c, { minLength: 12, maxLength: 12 }), (p) => {
        const [a0, a1, a2, b0, b1, b2, c0, c1, c2, d0, d1, d2] = p as number[] as [number, number, number, number, number, number, number, number, number, number, number, number];
        const [bx, by, bz, cx, cy, cz, dx, dy, dz] = [b0 - a0, b1 - a1, b2 - a2, c0 - a0, c1 - a1, c2 - a2, d0 - a0, d1 - a1, d2 - a2];
        const d3 = (by * cz - bz * cy) * dx + (bz * cx - bx * cz) * dy + (bx * cy - by * cx) * dz;
        const d2d = bx * cy - by * cx;
        return (
          orient3dExact(a0, a1, a2, b0, b1, b2, c0, c1, c2, d0, d1, d2) === Math.sign(d3) &&
          orient2dExact(a0, a1, b0, b1, c0, c1) === Math.sign(d2d)
        );
      }),
      { seed: 20261104, numRuns: 2000 },
    );
  });
});

describe('triTriIntersectExact on hand-made cases', () => {
  const base = T(0, 0, 0, 1, 0, 0, 0, 1, 0); // right triangle in z = 0
  const eps = 2 ** -60;

  it('disjoint: parallel planes, and a triangle beside another', () => {
    expectAllOrders(base, T(0, 0, 1, 1, 0, 1, 0, 1, 1), false);
    expectAllOrders(base, T(2, 2, -1, 3, 2, 1, 2, 3, 0), false);
    expectAllOrders(base, T(0, 0, eps, 1, 0, eps, 0, 1, eps), false);
  });

  it('crossing through the interior', () => {
    expectAllOrders(base, T(0.25, 0.25, -1, 0.25, 0.25, 1, -1, -1, 0), true);
    expectAllOrders(base, T(0.2, -1, -1, 0.2, 2, -1, 0.2, 0.5, 1), true);
  });

  it('touching at a single shared vertex, and missing by one ulp', () => {
    expectAllOrders(base, T(1, 0, 0, 2, 0, 1, 2, 1, 1), true);
    expectAllOrders(base, T(nextUp(1), 0, 0, 2, 0, 1, 2, 1, 1), false);
  });

  it('a vertex on the face, and lifted off it by the smallest amounts', () => {
    expectAllOrders(base, T(0.25, 0.25, 0, 0, 0, 1, 1, 1, 1), true);
    expectAllOrders(base, T(0.25, 0.25, eps, 0, 0, 1, 1, 1, 1), false);
    expectAllOrders(base, T(0.25, 0.25, Number.MIN_VALUE, 0, 0, 1, 1, 1, 1), false);
    expectAllOrders(base, T(0.25, 0.25, -Number.MIN_VALUE, 0, 0, 1, 1, 1, 1), true);
  });

  it('a vertex on an edge, and just outside it', () => {
    expectAllOrders(base, T(0.5, 0.5, 0, 1, 1, 1, 1, 1, -1), true);
    expectAllOrders(base, T(0.5, nextUp(0.5), 0, 1, 1, 1, 1, 1, -1), false);
    expectAllOrders(base, T(0.5, nextDown(0.5), 0, 1, 1, 1, 1, 1, -1), true);
  });

  it('touching along a shared edge, and edge crossing edge at a point', () => {
    expectAllOrders(base, T(0, 0, 0, 1, 0, 0, 0.5, 0, 1), true);
    expectAllOrders(base, T(0, 0, 0, 1, 0, 0, 0.5, -1, 1), true);
    expectAllOrders(base, T(0.5, 0, -1, 0.5, 0, 1, 0.5, -1, 0), true);
    expectAllOrders(base, T(0.5, -eps, -1, 0.5, -eps, 1, 0.5, -1, 0), false);
  });

  it('skew edges: crossing exactly vs passing by one ulp', () => {
    const a = T(0, 0, 0, 2, 0, 0, 2, 0, 0); // segment as a degenerate triangle
    expectAllOrders(a, T(1, -1, 0, 1, 1, 0, 1, 1, 0), true);
    expectAllOrders(a, T(1, -1, eps, 1, 1, eps, 1, 1, eps), false);
    expectAllOrders(a, T(1, -1, -1, 1, 1, 1, 1, 1, 1), true);
  });

  it('coplanar: overlapping, containing, touching at a point and along an edge, disjoint', () => {
    expectAllOrders(base, T(0.5, 0.5, 0, -1, 0.25, 0, 0.25, -1, 0), true);
    expectAllOrders(base, T(0.1, 0.1, 0, 0.2, 0.1, 0, 0.1, 0.2, 0), true); // inside
    expectAllOrders(base, T(-1, -1, 0, 3, -1, 0, -1, 3, 0), true); // contains
    expectAllOrders(base, T(0.5, 0.5, 0, 1, 1, 0, 2, 0.5, 0), true); // vertex on hypotenuse
    expectAllOrders(base, T(0.5, nextUp(0.5), 0, 1, 1, 0, 2, 0.5, 0), false);
    expectAllOrders(base, T(0, 0, 0, 0, 1, 0, -1, 0.5, 0), true); // shared edge, other side
    expectAllOrders(base, T(1, 1, 0, 2, 1, 0, 1, 2, 0), false);
    // A tilted plane z = x + 2y with dyadic coordinates: coplanarity is exact.
    const tilt = (x: number, y: number): number[] => [x, y, x + 2 * y];
    const A = T(...tilt(0, 0), ...tilt(1, 0), ...tilt(0, 1));
    expectAllOrders(A, T(...tilt(0.5, 0.5), ...tilt(1, 1), ...tilt(2, 0.5)), true);
    expectAllOrders(A, T(...tilt(0.5, 0.5 + 2 ** -20), ...tilt(1, 1), ...tilt(2, 0.5)), false);
    expectAllOrders(A, T(...tilt(0.25, 0.25), ...tilt(0.5, 0.25), ...tilt(0.25, 0.5)), true);
  });

  it('points: inside, on an edge, at a vertex, off by one ulp', () => {
    const pt = (x: number, y: number, z: number): Float64Array => T(x, y, z, x, y, z, x, y, z);
    expectAllOrders(base, pt(0.25, 0.25, 0), true);
    expectAllOrders(base, pt(0.5, 0.5, 0), true);
    expectAllOrders(base, pt(1, 0, 0), true);
    expectAllOrders(base, pt(0.5, nextUp(0.5), 0), false);
    expectAllOrders(base, pt(0.25, 0.25, 1e-300), false);
    expectAllOrders(base, pt(nextUp(1), 0, 0), false);
    expect(pointTriIntersectExact([0.25, 0.25, 0], base)).toBe(true);
    expect(pointTriIntersectExact([0.25, 0.25, 5e-324], base)).toBe(false);
  });

  it('two points: equal, and one ulp apart', () => {
    const p = T(0.1, 0.2, 0.3, 0.1, 0.2, 0.3, 0.1, 0.2, 0.3);
    expectAllOrders(p, Float64Array.from(p), true);
    expectAllOrders(p, T(0.1, 0.2, nextUp(0.3), 0.1, 0.2, nextUp(0.3), 0.1, 0.2, nextUp(0.3)), false);
  });

  it('segments against the triangle', () => {
    expect(segTriIntersectExact([0.25, 0.25, -1, 0.25, 0.25, 1], base)).toBe(true);
    expect(segTriIntersectExact([2, 2, -1, 2, 2, 1], base)).toBe(false);
    expect(segTriIntersectExact([-1, 0.5, 0, 2, 0.5, 0], base)).toBe(true); // in the plane, across
    expect(segTriIntersectExact([-1, 2, 0, 2, 2, 0], base)).toBe(false); // in the plane, outside
    expect(segTriIntersectExact([0.25, 0.25, 0, 0.25, 0.25, 1], base)).toBe(true); // ends on the face
    expect(segTriIntersectExact([0.25, 0.25, 5e-324, 0.25, 0.25, 1], base)).toBe(false); // ends just above
    expect(segTriIntersectExact([0.5, 0.5, -1, 0.5, 0.5, 1], base)).toBe(true); // through the edge
    expect(segTriIntersectExact([-1, 0, 0, -0.5, 0, 0], base)).toBe(false); // on the line of an edge
    expect(segTriIntersectExact([-1, 0, 0, 0, 0, 0], base)).toBe(true); // reaches the vertex
  });

  it('identical triangles, also degenerate ones', () => {
    expectAllOrders(base, Float64Array.from(base), true);
    const seg = T(0, 0, 0, 1, 1, 1, 2, 2, 2);
    expectAllOrders(seg, Float64Array.from(seg), true);
    expectAllOrders(seg, T(3, 3, 3, 4, 4, 4, 5, 5, 5), false); // same line, apart
    expectAllOrders(seg, T(2, 2, 2, 4, 4, 4, 5, 5, 5), true); // same line, touching
  });

  it('stays exact at extreme magnitudes (power-of-two scalings of the cases above)', () => {
    const cases: [Float64Array, boolean][] = [
      [T(0.25, 0.25, 0, 0, 0, 1, 1, 1, 1), true],
      [T(0.25, 0.25, eps, 0, 0, 1, 1, 1, 1), false],
      [T(0.5, nextUp(0.5), 0, 1, 1, 0, 2, 0.5, 0), false],
      [T(0.5, 0.5, 0, 1, 1, 0, 2, 0.5, 0), true],
    ];
    for (const s of [2 ** -1000, 2 ** -20, 2 ** 20, 2 ** 900]) {
      for (const shift of [0, 1e6 * s]) {
        const sh: [number, number, number] = [shift, -shift, shift];
        for (const [t, expected] of cases) {
          const a = transformTri(base, s, sh);
          const b = transformTri(t, s, sh);
          // A far shift rounds away the ulp-sized gaps; the touching cases have short dyadic
          // coordinates and survive it exactly.
          if (shift === 0 || expected) expect(triTriIntersectExact(a, b), `scale ${s}, shift ${shift}`).toBe(expected);
        }
      }
    }
  });

  it('rejects wrong lengths', () => {
    expect(() => triTriIntersectExact([0, 0, 0], base)).toThrow();
  });
});

describe('triTriIntersectExact against the independent LP test', () => {
  const pair = (p: TriPair): boolean => triTriIntersectExact(p[0], p[1]) === lpIntersect(p[0], p[1]);
  for (const [name, arb] of Object.entries(TRI_PAIR_ARBS)) {
    it(`agrees on ${name} pairs (seed 20261105)`, () => {
      fc.assert(fc.property(arb, pair), { seed: 20261105, numRuns: 300 });
    });
  }
  it('agrees on mixed pairs and is symmetric (seed 20261106)', () => {
    fc.assert(
      fc.property(triPairArb, fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), ([a, b], i, j) => {
        const expected = lpIntersect(a, b);
        const a2 = reorder(a, VERTEX_ORDERS[i]!);
        const b2 = reorder(b, VERTEX_ORDERS[j]!);
        return triTriIntersectExact(a, b) === expected && triTriIntersectExact(b2, a2) === expected;
      }),
      { seed: 20261106, numRuns: 1000 },
    );
  });
});
