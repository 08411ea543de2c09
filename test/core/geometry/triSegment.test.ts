import { describe, expect, it } from 'vitest';
import { triTriIntersect } from '../../../src-core/geometry/triTri.js';
import { coplanarOverlap, TRI_COPLANAR, TRI_NONE, TRI_SEGMENT, triTriSegment } from '../../../src-core/geometry/triSegment.js';

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomTriangle(r: () => number, scale: number): Float64Array {
  const t = new Float64Array(9);
  for (let i = 0; i < 9; i++) t[i] = (r() * 2 - 1) * scale;
  return t;
}

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const corner = (t: ArrayLike<number>, i: number): V => [t[3 * i], t[3 * i + 1], t[3 * i + 2]];

/**
 * A reference built another way: the planes' common line (point and direction solved directly),
 * clipped to each triangle by its three edges' half-planes (Cyrus–Beck), the two intervals
 * intersected. Returns the endpoints, or null.
 */
function reference(a: Float64Array, b: Float64Array): [V, V] | null {
  const n1 = cross(sub(corner(a, 1), corner(a, 0)), sub(corner(a, 2), corner(a, 0)));
  const n2 = cross(sub(corner(b, 1), corner(b, 0)), sub(corner(b, 2), corner(b, 0)));
  const d = cross(n1, n2);
  const dd = dot(d, d);
  const h1 = dot(n1, corner(a, 0));
  const h2 = dot(n2, corner(b, 0));
  // The point of the line closest to the origin: ((h1 n2 − h2 n1) × d) / |d|² … written out.
  const p0 = cross(
    [h1 * n2[0] - h2 * n1[0], h1 * n2[1] - h2 * n1[1], h1 * n2[2] - h2 * n1[2]],
    d,
  ).map((x) => x / dd) as V;
  let lo = -Infinity;
  let hi = Infinity;
  for (const [t, n] of [
    [a, n1],
    [b, n2],
  ] as const) {
    for (let e = 0; e < 3; e++) {
      const c0 = corner(t, e);
      const c1 = corner(t, (e + 1) % 3);
      const inward = cross(n, sub(c1, c0));
      // Inside: dot(inward, p0 + s d − c0) ≥ 0.
      const base = dot(inward, sub(p0, c0));
      const rate = dot(inward, d);
      if (rate === 0) {
        if (base < 0) return null;
        continue;
      }
      const s = -base / rate;
      if (rate > 0) lo = Math.max(lo, s);
      else hi = Math.min(hi, s);
    }
  }
  if (lo > hi) return null;
  const at = (s: number): V => [p0[0] + s * d[0], p0[1] + s * d[1], p0[2] + s * d[2]];
  return [at(lo), at(hi)];
}

const dist = (p: V, q: V) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);

describe('triTriSegment', () => {
  it('finds the segment of random crossing pairs, as the clipped common line does', () => {
    const r = rng(20240611);
    let crossing = 0;
    let apart = 0;
    const out = new Float64Array(6);
    for (let i = 0; i < 20_000 && crossing < 2000; i++) {
      const scale = 10 ** Math.floor(r() * 4 - 1);
      const a = randomTriangle(r, scale);
      const b = randomTriangle(r, scale);
      const meet = triTriIntersect(a, 0, 3, 6, b, 0, 3, 6);
      const kind = triTriSegment(a, b, out);
      if (!meet) {
        expect(kind).toBe(TRI_NONE);
        apart++;
        continue;
      }
      expect(kind).toBe(TRI_SEGMENT);
      crossing++;
      const ref = reference(a, b);
      expect(ref).not.toBeNull();
      if (!ref) continue;
      const p: V = [out[0], out[1], out[2]];
      const q: V = [out[3], out[4], out[5]];
      const tol = 1e-9 * scale * 10;
      const same = Math.max(dist(p, ref[0]), dist(q, ref[1]));
      const swapped = Math.max(dist(p, ref[1]), dist(q, ref[0]));
      expect(Math.min(same, swapped)).toBeLessThan(tol);
    }
    expect(crossing).toBeGreaterThan(1000);
    expect(apart).toBeGreaterThan(1000);
  });

  it('gives a single point where a corner touches the other face, and nothing for parallel planes', () => {
    const out = new Float64Array(6);
    const a = Float64Array.from([0, 0, 0, 4, 0, 0, 0, 4, 0]);
    const touching = Float64Array.from([1, 1, 0, 1, 1, 3, 2, 1, 3]);
    expect(triTriSegment(a, touching, out)).toBe(TRI_SEGMENT);
    expect([...out]).toEqual([1, 1, 0, 1, 1, 0]);
    const above = Float64Array.from([0, 0, 1, 4, 0, 1, 0, 4, 1]);
    expect(triTriSegment(a, above, out)).toBe(TRI_NONE);
    expect(triTriSegment(a, Float64Array.from([1, 1, 0, 5, 1, 0, 1, 5, 0]), out)).toBe(TRI_COPLANAR);
  });

  it('cuts a triangle through another across its whole width', () => {
    const out = new Float64Array(6);
    // a in z = 0; b in the plane x = 1, reaching through a from z −1 to 1.
    const a = Float64Array.from([0, 0, 0, 4, 0, 0, 0, 4, 0]);
    const b = Float64Array.from([1, -1, -1, 1, 5, -1, 1, 2, 1]);
    expect(triTriSegment(a, b, out)).toBe(TRI_SEGMENT);
    const ends = [[out[0], out[1], out[2]], [out[3], out[4], out[5]]].sort((u, v) => u[1] - v[1]);
    // a spans y 0 … 3 at x = 1; b's section at z = 0 spans y 0.5 … 3.5.
    expect(ends[0][0]).toBeCloseTo(1, 12);
    expect(ends[0][1]).toBeCloseTo(0.5, 12);
    expect(ends[1][1]).toBeCloseTo(3, 12);
    expect(ends[0][2]).toBe(0);
  });
});

describe('coplanarOverlap', () => {
  it('clips two overlapping triangles of one plane to their common polygon', () => {
    const out = new Float64Array(18);
    const a = Float64Array.from([0, 0, 0, 4, 0, 0, 0, 4, 0]);
    const b = Float64Array.from([0, 0, 0, 2, 0, 0, 0, 2, 0]);
    expect(coplanarOverlap(a, b, out)).toBe(3);
    // b inside a: the overlap is b, of area 2.
    let area = 0;
    const n = coplanarOverlap(b, a, out);
    for (let i = 1; i + 1 < n; i++) {
      const u = sub(corner(out, i), corner(out, 0));
      const v = sub(corner(out, i + 1), corner(out, 0));
      area += Math.hypot(...cross(u, v)) / 2;
    }
    expect(area).toBeCloseTo(2, 12);
    // A hexagon: a triangle and its point reflection through the centroid.
    const c = Float64Array.from([0, 0, 0, 3, 0, 0, 0, 3, 0]);
    const d = Float64Array.from([2, 2, 0, -1, 2, 0, 2, -1, 0]);
    expect(coplanarOverlap(c, d, out)).toBe(6);
    expect(coplanarOverlap(c, Float64Array.from([5, 5, 0, 6, 5, 0, 5, 6, 0]), out)).toBe(0);
  });
});
