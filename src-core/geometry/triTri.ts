/**
 * Exact intersection test of two closed triangles in 3D.
 *
 * Algorithm: Guigue and Devillers, "Fast and Robust Triangle-Triangle Overlap Test Using
 * Orientation Predicates" (Journal of Graphics Tools 8(1), 2003). Every decision is the sign of an
 * orientation determinant, so with exact predicates (./predicates.ts: a floating-point filter
 * with an exact fallback) the answer is exact for the doubles given — no epsilon anywhere.
 *
 * Closed-set semantics: triangles that touch at a vertex, along an edge, with a vertex on the other's
 * face, or overlap while coplanar, intersect.
 *
 * Robustness beyond the paper: its 3D core assumes two non-degenerate triangles in distinct planes.
 * Everything else goes through `triTriGeneral`, which is exact for every input:
 *   - coplanar, non-degenerate: a 2D separating-axis test over the six edge lines (18 exact orient2d)
 *     in a coordinate projection proven injective on the common plane;
 *   - a zero-area triangle (collinear or repeated vertices) is the union of its edges, so the test
 *     becomes segment–triangle tests (exact orient3d), and segment–segment tests when both are
 *     degenerate (exact orient2d in a projection, or a 1D interval test for collinear points).
 */
import { O3D_ERR_A, FILTER_TINY, FILTER_UNDERFLOW, orient2d, orient3d, orient3dExact } from './predicates.js';

/** Scratch for the current pair: T1 = p1 q1 r1 at 0, 3, 6 and T2 = p2 q2 r2 at 9, 12, 15. */
const G = new Float64Array(18);

/**
 * Do the closed triangles (pa[a0..a0+2], pa[a1..], pa[a2..]) and (pb[b0..], pb[b1..], pb[b2..])
 * intersect? `a0`, `a1`, `a2`, `b0`, `b1`, `b2` are offsets of x coordinates (vertex index × 3).
 */
export function triTriIntersect(
  pa: Float64Array, a0: number, a1: number, a2: number,
  pb: Float64Array, b0: number, b1: number, b2: number,
): boolean {
  const p1x = pa[a0], p1y = pa[a0 + 1], p1z = pa[a0 + 2];
  const q1x = pa[a1], q1y = pa[a1 + 1], q1z = pa[a1 + 2];
  const r1x = pa[a2], r1y = pa[a2 + 1], r1z = pa[a2 + 2];
  const p2x = pb[b0], p2y = pb[b0 + 1], p2z = pb[b0 + 2];
  const q2x = pb[b1], q2y = pb[b1 + 1], q2z = pb[b1 + 2];
  const r2x = pb[b2], r2y = pb[b2 + 1], r2z = pb[b2 + 2];

  // Signs of T1's vertices against T2's plane: orient3d(p2, q2, r2, ·), with the plane's minors
  // shared between the three evaluations (same arithmetic and error bound as orient3d's filter).
  let ux = q2x - p2x, uy = q2y - p2y, uz = q2z - p2z;
  let vx = r2x - p2x, vy = r2y - p2y, vz = r2z - p2z;
  let ma = uy * vz, mb = uz * vy;
  let nx = ma - mb, sx = Math.abs(ma) + Math.abs(mb);
  ma = uz * vx; mb = ux * vz;
  let ny = ma - mb, sy = Math.abs(ma) + Math.abs(mb);
  ma = ux * vy; mb = uy * vx;
  let nz = ma - mb, sz = Math.abs(ma) + Math.abs(mb);

  let wx = p1x - p2x, wy = p1y - p2y, wz = p1z - p2z;
  let dp1 = wx * nx + wy * ny + wz * nz;
  let aw = Math.abs(wx) + Math.abs(wy) + Math.abs(wz);
  let bound = O3D_ERR_A * (Math.abs(wx) * sx + Math.abs(wy) * sy + Math.abs(wz) * sz) + aw * FILTER_UNDERFLOW + FILTER_TINY;
  if (!(dp1 > bound || -dp1 > bound)) dp1 = orient3dExact(p2x, p2y, p2z, q2x, q2y, q2z, r2x, r2y, r2z, p1x, p1y, p1z);
  wx = q1x - p2x; wy = q1y - p2y; wz = q1z - p2z;
  let dq1 = wx * nx + wy * ny + wz * nz;
  aw = Math.abs(wx) + Math.abs(wy) + Math.abs(wz);
  bound = O3D_ERR_A * (Math.abs(wx) * sx + Math.abs(wy) * sy + Math.abs(wz) * sz) + aw * FILTER_UNDERFLOW + FILTER_TINY;
  if (!(dq1 > bound || -dq1 > bound)) dq1 = orient3dExact(p2x, p2y, p2z, q2x, q2y, q2z, r2x, r2y, r2z, q1x, q1y, q1z);
  wx = r1x - p2x; wy = r1y - p2y; wz = r1z - p2z;
  let dr1 = wx * nx + wy * ny + wz * nz;
  aw = Math.abs(wx) + Math.abs(wy) + Math.abs(wz);
  bound = O3D_ERR_A * (Math.abs(wx) * sx + Math.abs(wy) * sy + Math.abs(wz) * sz) + aw * FILTER_UNDERFLOW + FILTER_TINY;
  if (!(dr1 > bound || -dr1 > bound)) dr1 = orient3dExact(p2x, p2y, p2z, q2x, q2y, q2z, r2x, r2y, r2z, r1x, r1y, r1z);
  if ((dp1 > 0 && dq1 > 0 && dr1 > 0) || (dp1 < 0 && dq1 < 0 && dr1 < 0)) return false;

  // Signs of T2's vertices against T1's plane: orient3d(p1, q1, r1, ·).
  ux = q1x - p1x; uy = q1y - p1y; uz = q1z - p1z;
  vx = r1x - p1x; vy = r1y - p1y; vz = r1z - p1z;
  ma = uy * vz; mb = uz * vy;
  nx = ma - mb; sx = Math.abs(ma) + Math.abs(mb);
  ma = uz * vx; mb = ux * vz;
  ny = ma - mb; sy = Math.abs(ma) + Math.abs(mb);
  ma = ux * vy; mb = uy * vx;
  nz = ma - mb; sz = Math.abs(ma) + Math.abs(mb);

  wx = p2x - p1x; wy = p2y - p1y; wz = p2z - p1z;
  let dp2 = wx * nx + wy * ny + wz * nz;
  aw = Math.abs(wx) + Math.abs(wy) + Math.abs(wz);
  bound = O3D_ERR_A * (Math.abs(wx) * sx + Math.abs(wy) * sy + Math.abs(wz) * sz) + aw * FILTER_UNDERFLOW + FILTER_TINY;
  if (!(dp2 > bound || -dp2 > bound)) dp2 = orient3dExact(p1x, p1y, p1z, q1x, q1y, q1z, r1x, r1y, r1z, p2x, p2y, p2z);
  wx = q2x - p1x; wy = q2y - p1y; wz = q2z - p1z;
  let dq2 = wx * nx + wy * ny + wz * nz;
  aw = Math.abs(wx) + Math.abs(wy) + Math.abs(wz);
  bound = O3D_ERR_A * (Math.abs(wx) * sx + Math.abs(wy) * sy + Math.abs(wz) * sz) + aw * FILTER_UNDERFLOW + FILTER_TINY;
  if (!(dq2 > bound || -dq2 > bound)) dq2 = orient3dExact(p1x, p1y, p1z, q1x, q1y, q1z, r1x, r1y, r1z, q2x, q2y, q2z);
  wx = r2x - p1x; wy = r2y - p1y; wz = r2z - p1z;
  let dr2 = wx * nx + wy * ny + wz * nz;
  aw = Math.abs(wx) + Math.abs(wy) + Math.abs(wz);
  bound = O3D_ERR_A * (Math.abs(wx) * sx + Math.abs(wy) * sy + Math.abs(wz) * sz) + aw * FILTER_UNDERFLOW + FILTER_TINY;
  if (!(dr2 > bound || -dr2 > bound)) dr2 = orient3dExact(p1x, p1y, p1z, q1x, q1y, q1z, r1x, r1y, r1z, r2x, r2y, r2z);
  if ((dp2 > 0 && dq2 > 0 && dr2 > 0) || (dp2 < 0 && dq2 < 0 && dr2 < 0)) return false;

  G[0] = p1x; G[1] = p1y; G[2] = p1z; G[3] = q1x; G[4] = q1y; G[5] = q1z; G[6] = r1x; G[7] = r1y; G[8] = r1z;
  G[9] = p2x; G[10] = p2y; G[11] = p2z; G[12] = q2x; G[13] = q2y; G[14] = q2z; G[15] = r2x; G[16] = r2y; G[17] = r2z;

  // All of T1 on T2's plane: T2 is degenerate or the triangles are coplanar. All of T2 on T1's
  // plane while T1 is not on T2's: T1 is degenerate (a non-degenerate T1 would make them coplanar).
  if ((dp1 === 0 && dq1 === 0 && dr1 === 0) || (dp2 === 0 && dq2 === 0 && dr2 === 0)) return triTriGeneral();

  // Both triangles are non-degenerate and in distinct planes: the paper's permutations bring the
  // vertex of T1 alone on its side of T2's plane to p1 (and likewise for T2), then two
  // orientation tests decide whether the intervals on the planes' common line overlap.
  if (dp1 > 0) {
    if (dq1 > 0) return triTri3d(6, 0, 3, 9, 15, 12, dp2, dr2, dq2);
    if (dr1 > 0) return triTri3d(3, 6, 0, 9, 15, 12, dp2, dr2, dq2);
    return triTri3d(0, 3, 6, 9, 12, 15, dp2, dq2, dr2);
  }
  if (dp1 < 0) {
    if (dq1 < 0) return triTri3d(6, 0, 3, 9, 12, 15, dp2, dq2, dr2);
    if (dr1 < 0) return triTri3d(3, 6, 0, 9, 12, 15, dp2, dq2, dr2);
    return triTri3d(0, 3, 6, 9, 15, 12, dp2, dr2, dq2);
  }
  if (dq1 < 0) {
    if (dr1 >= 0) return triTri3d(3, 6, 0, 9, 15, 12, dp2, dr2, dq2);
    return triTri3d(0, 3, 6, 9, 12, 15, dp2, dq2, dr2);
  }
  if (dq1 > 0) {
    if (dr1 > 0) return triTri3d(0, 3, 6, 9, 15, 12, dp2, dr2, dq2);
    return triTri3d(3, 6, 0, 9, 12, 15, dp2, dq2, dr2);
  }
  if (dr1 > 0) return triTri3d(6, 0, 3, 9, 12, 15, dp2, dq2, dr2);
  return triTri3d(6, 0, 3, 9, 15, 12, dp2, dr2, dq2);
}

/** Second permutation step of the paper (offsets into G), then the interval check. */
function triTri3d(p1: number, q1: number, r1: number, p2: number, q2: number, r2: number, dp2: number, dq2: number, dr2: number): boolean {
  if (dp2 > 0) {
    if (dq2 > 0) return checkMinMax(p1, r1, q1, r2, p2, q2);
    if (dr2 > 0) return checkMinMax(p1, r1, q1, q2, r2, p2);
    return checkMinMax(p1, q1, r1, p2, q2, r2);
  }
  if (dp2 < 0) {
    if (dq2 < 0) return checkMinMax(p1, q1, r1, r2, p2, q2);
    if (dr2 < 0) return checkMinMax(p1, q1, r1, q2, r2, p2);
    return checkMinMax(p1, r1, q1, p2, q2, r2);
  }
  if (dq2 < 0) {
    if (dr2 >= 0) return checkMinMax(p1, r1, q1, q2, r2, p2);
    return checkMinMax(p1, q1, r1, p2, q2, r2);
  }
  if (dq2 > 0) {
    if (dr2 > 0) return checkMinMax(p1, r1, q1, p2, q2, r2);
    return checkMinMax(p1, q1, r1, q2, r2, p2);
  }
  if (dr2 > 0) return checkMinMax(p1, q1, r1, r2, p2, q2);
  if (dr2 < 0) return checkMinMax(p1, r1, q1, r2, p2, q2);
  return triTriGeneral();
}

/** The paper's CHECK_MIN_MAX: the two segments on the common line overlap. */
function checkMinMax(p1: number, q1: number, r1: number, p2: number, q2: number, r2: number): boolean {
  if (orient3d(G[q1], G[q1 + 1], G[q1 + 2], G[p2], G[p2 + 1], G[p2 + 2], G[p1], G[p1 + 1], G[p1 + 2], G[q2], G[q2 + 1], G[q2 + 2]) > 0) return false;
  if (orient3d(G[p1], G[p1 + 1], G[p1 + 2], G[p2], G[p2 + 1], G[p2 + 2], G[r1], G[r1 + 1], G[r1 + 2], G[r2], G[r2 + 1], G[r2 + 2]) > 0) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// The general (slow, rare) path: coplanar and degenerate configurations. Reads the pair from G.

/** Exactly zero area? Collinear vertices: the normal's three components vanish. */
function isDegenerate(p: number, q: number, r: number): boolean {
  return (
    orient2d(G[p], G[p + 1], G[q], G[q + 1], G[r], G[r + 1]) === 0 &&
    orient2d(G[p + 1], G[p + 2], G[q + 1], G[q + 2], G[r + 1], G[r + 2]) === 0 &&
    orient2d(G[p + 2], G[p], G[q + 2], G[q], G[r + 2], G[r]) === 0
  );
}

/** 2D orientation of three points of G in the coordinate plane that drops axis `k`. */
function orientProj(k: number, a: number, b: number, c: number): number {
  const i = k === 0 ? 1 : 0;
  const j = k === 2 ? 1 : 2;
  return orient2d(G[a + i], G[a + j], G[b + i], G[b + j], G[c + i], G[c + j]);
}

/**
 * An axis whose coordinate plane projects the (non-degenerate) triangle p q r, and hence its
 * plane, injectively; the largest normal component is tried first.
 */
function projectionAxis(p: number, q: number, r: number): number {
  const ux = G[q] - G[p], uy = G[q + 1] - G[p + 1], uz = G[q + 2] - G[p + 2];
  const vx = G[r] - G[p], vy = G[r + 1] - G[p + 1], vz = G[r + 2] - G[p + 2];
  const nx = Math.abs(uy * vz - uz * vy), ny = Math.abs(uz * vx - ux * vz), nz = Math.abs(ux * vy - uy * vx);
  const first = nx >= ny && nx >= nz ? 0 : ny >= nz ? 1 : 2;
  if (orientProj(first, p, q, r) !== 0) return first;
  for (let k = 0; k < 3; k++) if (k !== first && orientProj(k, p, q, r) !== 0) return k;
  return first; // unreachable for a non-degenerate triangle
}

/** Closed point-in-triangle in projection k; the triangle is non-degenerate there. */
function pointInTriangle2d(k: number, x: number, p: number, q: number, r: number): boolean {
  const s = orientProj(k, p, q, r) > 0 ? 1 : -1;
  return s * orientProj(k, p, q, x) >= 0 && s * orientProj(k, q, r, x) >= 0 && s * orientProj(k, r, p, x) >= 0;
}

/** Closed segment–segment test for coplanar segments in projection k (injective on their plane). */
function segSeg2d(k: number, a: number, b: number, c: number, d: number): boolean {
  const o1 = orientProj(k, a, b, c), o2 = orientProj(k, a, b, d);
  const o3 = orientProj(k, c, d, a), o4 = orientProj(k, c, d, b);
  if (o1 !== 0 || o2 !== 0 || o3 !== 0 || o4 !== 0) {
    return !((o1 > 0 && o2 > 0) || (o1 < 0 && o2 < 0) || (o3 > 0 && o4 > 0) || (o3 < 0 && o4 < 0));
  }
  return collinearOverlap(a, b, c, d);
}

/** Four collinear points: do [a, b] and [c, d] overlap? Compared on an axis the line is not orthogonal to. */
function collinearOverlap(a: number, b: number, c: number, d: number): boolean {
  for (let k = 0; k < 3; k++) {
    const va = G[a + k], vb = G[b + k], vc = G[c + k], vd = G[d + k];
    const lo1 = va < vb ? va : vb, hi1 = va < vb ? vb : va;
    const lo2 = vc < vd ? vc : vd, hi2 = vc < vd ? vd : vc;
    const lo = lo1 < lo2 ? lo1 : lo2, hi = hi1 > hi2 ? hi1 : hi2;
    if (lo !== hi) return lo1 <= hi2 && lo2 <= hi1;
  }
  return true; // all four points coincide
}

/** Closed segment–segment test in 3D. */
function segSeg3d(a: number, b: number, c: number, d: number): boolean {
  if (orient3d(G[a], G[a + 1], G[a + 2], G[b], G[b + 1], G[b + 2], G[c], G[c + 1], G[c + 2], G[d], G[d + 1], G[d + 2]) !== 0) return false;
  // Coplanar: find a projection that is injective on their common plane, if they span one.
  for (let k = 0; k < 3; k++) {
    if (orientProj(k, a, b, c) !== 0 || orientProj(k, a, b, d) !== 0 || orientProj(k, c, d, a) !== 0 || orientProj(k, c, d, b) !== 0) {
      return segSeg2d(k, a, b, c, d);
    }
  }
  return collinearOverlap(a, b, c, d);
}

/** Closed segment [a, b] against the non-degenerate triangle p q r. */
function segTri(a: number, b: number, p: number, q: number, r: number): boolean {
  const oa = orient3d(G[p], G[p + 1], G[p + 2], G[q], G[q + 1], G[q + 2], G[r], G[r + 1], G[r + 2], G[a], G[a + 1], G[a + 2]);
  const ob = orient3d(G[p], G[p + 1], G[p + 2], G[q], G[q + 1], G[q + 2], G[r], G[r + 1], G[r + 2], G[b], G[b + 1], G[b + 2]);
  if ((oa > 0 && ob > 0) || (oa < 0 && ob < 0)) return false;
  if (oa === 0 && ob === 0) {
    const k = projectionAxis(p, q, r);
    return (
      pointInTriangle2d(k, a, p, q, r) ||
      pointInTriangle2d(k, b, p, q, r) ||
      segSeg2d(k, a, b, p, q) ||
      segSeg2d(k, a, b, q, r) ||
      segSeg2d(k, a, b, r, p)
    );
  }
  // The line a b crosses the plane at one point of the segment; it lies in the closed triangle iff
  // it is on the same side of (or on) the three edge planes through a b.
  const s1 = orient3d(G[a], G[a + 1], G[a + 2], G[b], G[b + 1], G[b + 2], G[p], G[p + 1], G[p + 2], G[q], G[q + 1], G[q + 2]);
  const s2 = orient3d(G[a], G[a + 1], G[a + 2], G[b], G[b + 1], G[b + 2], G[q], G[q + 1], G[q + 2], G[r], G[r + 1], G[r + 2]);
  const s3 = orient3d(G[a], G[a + 1], G[a + 2], G[b], G[b + 1], G[b + 2], G[r], G[r + 1], G[r + 2], G[p], G[p + 1], G[p + 2]);
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
}

/** Closed segment [a, b] against the triangle p q r, degenerate or not (flag given). */
function segAnyTri(a: number, b: number, p: number, q: number, r: number, degenerate: boolean): boolean {
  if (!degenerate) return segTri(a, b, p, q, r);
  return segSeg3d(a, b, p, q) || segSeg3d(a, b, q, r) || segSeg3d(a, b, r, p);
}

/** Exact test for every configuration; used for coplanar and degenerate pairs. */
function triTriGeneral(): boolean {
  const deg1 = isDegenerate(0, 3, 6);
  const deg2 = isDegenerate(9, 12, 15);
  if (deg1) {
    // A zero-area triangle is the union of its edges.
    return segAnyTri(0, 3, 9, 12, 15, deg2) || segAnyTri(3, 6, 9, 12, 15, deg2) || segAnyTri(6, 0, 9, 12, 15, deg2);
  }
  if (deg2) {
    return segTri(9, 12, 0, 3, 6) || segTri(12, 15, 0, 3, 6) || segTri(15, 9, 0, 3, 6);
  }
  // Coplanar and non-degenerate: convex polygons in a plane are disjoint iff one of their edge
  // lines has the other polygon strictly outside.
  const k = projectionAxis(0, 3, 6);
  const s1 = orientProj(k, 0, 3, 6) > 0 ? 1 : -1;
  const s2 = orientProj(k, 9, 12, 15) > 0 ? 1 : -1;
  return !(
    separatesProj(k, s1, 0, 3, 9) || separatesProj(k, s1, 3, 6, 9) || separatesProj(k, s1, 6, 0, 9) ||
    separatesProj(k, s2, 9, 12, 0) || separatesProj(k, s2, 12, 15, 0) || separatesProj(k, s2, 15, 9, 0)
  );
}

/** Is the triangle at offset t strictly outside the edge line (a, b) of a triangle of orientation s? */
function separatesProj(k: number, s: number, a: number, b: number, t: number): boolean {
  return s * orientProj(k, a, b, t) < 0 && s * orientProj(k, a, b, t + 3) < 0 && s * orientProj(k, a, b, t + 6) < 0;
}
