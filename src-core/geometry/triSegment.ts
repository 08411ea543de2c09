/**
 * Where two triangles cut each other: the segment along which two crossing triangles meet (the
 * pieces of the intersection curve of two surfaces), or the polygon two coplanar triangles share
 * (the patch where two faces lie on each other).
 *
 * Triangles are 9 numbers each (x y z of three corners). Which side of the other's plane each
 * corner lies on is decided by the exact orientation predicate (./predicates.ts), so the topology
 * of the answer (no intersection, a segment, coplanar) is exact for the doubles given; the
 * segment's endpoints are then constructed in floating point, each on an edge of one triangle at
 * the other's plane (they are the points where an edge pierces the other plane, or a corner that
 * lies on it), and the two triangles' pieces of the common line are intersected along that line.
 */
import { orient3d } from './predicates.js';

/** triTriSegment's answers. */
export const TRI_NONE = 0;
export const TRI_SEGMENT = 1;
export const TRI_COPLANAR = 2;

const S1 = new Float64Array(6);
const S2 = new Float64Array(6);
const SIGN = new Float64Array(3);
const DIST = new Float64Array(3);

/**
 * The piece of triangle `t` on the plane of triangle `u`: writes its two endpoints (equal for a
 * single point) to `out` and returns TRI_SEGMENT, TRI_NONE when `t` lies on one side, or
 * TRI_COPLANAR when every corner of `t` is on the plane.
 */
function pieceOnPlane(t: ArrayLike<number>, u: ArrayLike<number>, out: Float64Array): number {
  const ux = u[3] - u[0], uy = u[4] - u[1], uz = u[5] - u[2];
  const vx = u[6] - u[0], vy = u[7] - u[1], vz = u[8] - u[2];
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  let pos = 0;
  let neg = 0;
  for (let i = 0; i < 3; i++) {
    const x = t[3 * i], y = t[3 * i + 1], z = t[3 * i + 2];
    const s = Math.sign(orient3d(u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], x, y, z));
    SIGN[i] = s;
    DIST[i] = s === 0 ? 0 : (x - u[0]) * nx + (y - u[1]) * ny + (z - u[2]) * nz;
    if (s > 0) pos++;
    else if (s < 0) neg++;
  }
  if (pos === 0 && neg === 0) return TRI_COPLANAR;
  if (pos === 3 || neg === 3) return TRI_NONE;
  let n = 0;
  const put = (x: number, y: number, z: number) => {
    if (n < 2) {
      out[3 * n] = x;
      out[3 * n + 1] = y;
      out[3 * n + 2] = z;
    }
    n++;
  };
  for (let i = 0; i < 3; i++) {
    if (SIGN[i] === 0) put(t[3 * i], t[3 * i + 1], t[3 * i + 2]);
    const j = (i + 1) % 3;
    if (SIGN[i] * SIGN[j] < 0) {
      // The edge i→j pierces the plane; the exact signs say so, the distances say where.
      const di = DIST[i], dj = DIST[j];
      let f = di / (di - dj);
      if (!(f >= 0)) f = 0;
      else if (f > 1) f = 1;
      put(t[3 * i] + (t[3 * j] - t[3 * i]) * f, t[3 * i + 1] + (t[3 * j + 1] - t[3 * i + 1]) * f, t[3 * i + 2] + (t[3 * j + 2] - t[3 * i + 2]) * f);
    }
  }
  if (n === 1) {
    out[3] = out[0];
    out[4] = out[1];
    out[5] = out[2];
  }
  return TRI_SEGMENT;
}

/**
 * The segment where triangles `a` and `b` (9 numbers each) meet. Writes its endpoints (x y z, x y
 * z; equal where they only touch at a point) to `out` from `o` and returns TRI_SEGMENT; returns
 * TRI_NONE when they do not meet, TRI_COPLANAR when they lie in one plane (see coplanarOverlap).
 */
export function triTriSegment(a: ArrayLike<number>, b: ArrayLike<number>, out: Float64Array, o = 0): number {
  const ka = pieceOnPlane(a, b, S1);
  if (ka !== TRI_SEGMENT) return ka;
  const kb = pieceOnPlane(b, a, S2);
  if (kb !== TRI_SEGMENT) return kb;
  // Both pieces lie on the planes' common line: intersect them along its direction.
  const n1x = (a[4] - a[1]) * (a[8] - a[2]) - (a[5] - a[2]) * (a[7] - a[1]);
  const n1y = (a[5] - a[2]) * (a[6] - a[0]) - (a[3] - a[0]) * (a[8] - a[2]);
  const n1z = (a[3] - a[0]) * (a[7] - a[1]) - (a[4] - a[1]) * (a[6] - a[0]);
  const n2x = (b[4] - b[1]) * (b[8] - b[2]) - (b[5] - b[2]) * (b[7] - b[1]);
  const n2y = (b[5] - b[2]) * (b[6] - b[0]) - (b[3] - b[0]) * (b[8] - b[2]);
  const n2z = (b[3] - b[0]) * (b[7] - b[1]) - (b[4] - b[1]) * (b[6] - b[0]);
  const dx = n1y * n2z - n1z * n2y, dy = n1z * n2x - n1x * n2z, dz = n1x * n2y - n1y * n2x;
  const along = (s: Float64Array, i: number) => s[3 * i] * dx + s[3 * i + 1] * dy + s[3 * i + 2] * dz;
  const a0 = along(S1, 0), a1 = along(S1, 1), b0 = along(S2, 0), b1 = along(S2, 1);
  const aLo = a0 <= a1 ? 0 : 1, bLo = b0 <= b1 ? 0 : 1;
  const aMin = Math.min(a0, a1), aMax = Math.max(a0, a1), bMin = Math.min(b0, b1), bMax = Math.max(b0, b1);
  if (Math.max(aMin, bMin) > Math.min(aMax, bMax)) return TRI_NONE;
  const [loS, loI] = aMin >= bMin ? [S1, aLo] : [S2, bLo];
  const [hiS, hiI] = aMax <= bMax ? [S1, 1 - aLo] : [S2, 1 - bLo];
  for (let k = 0; k < 3; k++) {
    out[o + k] = loS[3 * loI + k];
    out[o + 3 + k] = hiS[3 * hiI + k];
  }
  return TRI_SEGMENT;
}

const POLY_A = new Float64Array(27);
const POLY_B = new Float64Array(27);

/**
 * The polygon two coplanar triangles share: `a` clipped to the inside of each edge of `b`
 * (Sutherland–Hodgman in their plane). Writes its corners (x y z each, at most 6, in order) to
 * `out` (room for 18 numbers) and returns how many; 0 when they share no area.
 */
export function coplanarOverlap(a: ArrayLike<number>, b: ArrayLike<number>, out: Float64Array): number {
  const ux = b[3] - b[0], uy = b[4] - b[1], uz = b[5] - b[2];
  const vx = b[6] - b[0], vy = b[7] - b[1], vz = b[8] - b[2];
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  let src = POLY_A;
  let dst = POLY_B;
  for (let k = 0; k < 9; k++) src[k] = a[k];
  let n = 3;
  for (let e = 0; e < 3 && n > 0; e++) {
    const f = (e + 1) % 3;
    const ex = b[3 * f] - b[3 * e], ey = b[3 * f + 1] - b[3 * e + 1], ez = b[3 * f + 2] - b[3 * e + 2];
    // Inward normal of the edge in the plane: n × e (b's corners run counter-clockwise about n).
    const ix = ny * ez - nz * ey, iy = nz * ex - nx * ez, iz = nx * ey - ny * ex;
    const side = (p: Float64Array, i: number) => (p[3 * i] - b[3 * e]) * ix + (p[3 * i + 1] - b[3 * e + 1]) * iy + (p[3 * i + 2] - b[3 * e + 2]) * iz;
    let m = 0;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const si = side(src, i), sj = side(src, j);
      if (si >= 0) {
        dst[3 * m] = src[3 * i];
        dst[3 * m + 1] = src[3 * i + 1];
        dst[3 * m + 2] = src[3 * i + 2];
        m++;
      }
      if ((si >= 0) !== (sj >= 0)) {
        const t = si / (si - sj);
        for (let k = 0; k < 3; k++) dst[3 * m + k] = src[3 * i + k] + (src[3 * j + k] - src[3 * i + k]) * t;
        m++;
      }
    }
    [src, dst] = [dst, src];
    n = m;
  }
  const count = Math.min(n, 6);
  for (let k = 0; k < 3 * count; k++) out[k] = src[k];
  return n >= 3 ? count : 0;
}
