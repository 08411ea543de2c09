/**
 * Orientation of a bounding box fitted to a group of triangles (Gottschalk, Lin and Manocha 1996).
 *
 * The box axes are the eigenvectors of a covariance matrix of the group treated as a continuum:
 * for a triangle with vertices p, q, r, area m, s = p + q + r,
 *   first moment   m · s / 3
 *   second moment  (m / 12) · (s sᵀ + p pᵀ + q qᵀ + r rᵀ)
 * and C = Σ second / M − μ μᵀ with M = Σ m, μ = Σ first / M. Area weighting makes the result
 * independent of how finely a surface is tessellated.
 *
 * Two sources of triangles are supported:
 *   - 'hull':    the triangles of the convex hull of the group's vertices (quickhull3d), as in the
 *                paper: interior detail and concavities cannot bias the axes;
 *   - 'surface': the group's own triangles, summed from per-triangle moments in O(1) per triangle
 *                (what RAPID does in practice).
 * Fallbacks make every group fit: one triangle gets its own frame (longest edge, normal); a group
 * of zero total area gets the covariance of its vertices; flat or collinear vertex sets skip the
 * hull (it does not exist in 3D) and use the surface moments; a single point gets any frame.
 */
import quickhull from 'quickhull3d';
import { symmetricEigen3, orthonormalFrame } from './eigen.js';

/** Moments stored per triangle: area, first moment (3), second moment (6: xx xy xz yy yz zz). */
export const MOMENT_STRIDE = 10;

/**
 * Writes the moments of triangle (p, q, r) (coordinates relative to a reference point) at
 * out[o..o+9].
 */
export function triangleMoments(
  px: number, py: number, pz: number,
  qx: number, qy: number, qz: number,
  rx: number, ry: number, rz: number,
  out: Float64Array, o: number,
): void {
  const ux = qx - px, uy = qy - py, uz = qz - pz;
  const vx = rx - px, vy = ry - py, vz = rz - pz;
  const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  const m = 0.5 * Math.sqrt(cx * cx + cy * cy + cz * cz);
  const sx = px + qx + rx, sy = py + qy + ry, sz = pz + qz + rz;
  const k = m / 12;
  out[o] = m;
  out[o + 1] = (m * sx) / 3;
  out[o + 2] = (m * sy) / 3;
  out[o + 3] = (m * sz) / 3;
  out[o + 4] = k * (sx * sx + px * px + qx * qx + rx * rx);
  out[o + 5] = k * (sx * sy + px * py + qx * qy + rx * ry);
  out[o + 6] = k * (sx * sz + px * pz + qx * qz + rx * rz);
  out[o + 7] = k * (sy * sy + py * py + qy * qy + ry * ry);
  out[o + 8] = k * (sy * sz + py * pz + qy * qz + ry * rz);
  out[o + 9] = k * (sz * sz + pz * pz + qz * qz + rz * rz);
}

const EIG = new Float64Array(12);

/**
 * Axes from summed moments (see MOMENT_STRIDE). Writes a right-handed orthonormal frame at
 * out[o..o+8] (axis 0, 1, 2; decreasing variance) and returns false when the total area is zero
 * (the caller must then use another fallback).
 */
export function frameFromMoments(sum: Float64Array, out: Float64Array, o: number): boolean {
  const M = sum[0];
  if (!(M > 0)) return false;
  const mx = sum[1] / M, my = sum[2] / M, mz = sum[3] / M;
  symmetricEigen3(
    sum[4] / M - mx * mx, sum[5] / M - mx * my, sum[6] / M - mx * mz,
    sum[7] / M - my * my, sum[8] / M - my * mz, sum[9] / M - mz * mz,
    EIG,
  );
  for (let i = 0; i < 9; i++) out[o + i] = EIG[3 + i];
  return true;
}

/**
 * Axes from the covariance of a point set given as coordinates at `pts[3i..3i+2]`, i < count
 * (used for groups of zero area, and as a flatness probe). Writes the frame at out[o..o+8] and
 * returns the eigenvalues' ratio smallest/largest (0 for flat or collinear sets).
 */
export function frameFromPoints(pts: Float64Array, count: number, out: Float64Array, o: number): number {
  if (count === 0) {
    out.fill(0, o, o + 9);
    out[o] = 1; out[o + 4] = 1; out[o + 8] = 1;
    return 0;
  }
  let mx = 0, my = 0, mz = 0;
  for (let i = 0; i < count; i++) { mx += pts[3 * i]; my += pts[3 * i + 1]; mz += pts[3 * i + 2]; }
  mx /= count; my /= count; mz /= count;
  let xx = 0, xy = 0, xz = 0, yy = 0, yz = 0, zz = 0;
  for (let i = 0; i < count; i++) {
    const x = pts[3 * i] - mx, y = pts[3 * i + 1] - my, z = pts[3 * i + 2] - mz;
    xx += x * x; xy += x * y; xz += x * z; yy += y * y; yz += y * z; zz += z * z;
  }
  symmetricEigen3(xx, xy, xz, yy, yz, zz, EIG);
  for (let i = 0; i < 9; i++) out[o + i] = EIG[3 + i];
  return EIG[0] > 0 ? Math.max(0, EIG[2]) / EIG[0] : 0;
}

/**
 * The frame of a single triangle: axis 0 along its longest edge, axis 2 along its normal. A
 * zero-area triangle gets its longest edge and arbitrary perpendiculars; a point, any frame.
 */
export function triangleFrame(
  px: number, py: number, pz: number,
  qx: number, qy: number, qz: number,
  rx: number, ry: number, rz: number,
  out: Float64Array, o: number,
): void {
  const ex0 = qx - px, ey0 = qy - py, ez0 = qz - pz;
  const ex1 = rx - qx, ey1 = ry - qy, ez1 = rz - qz;
  const ex2 = px - rx, ey2 = py - ry, ez2 = pz - rz;
  const l0 = ex0 * ex0 + ey0 * ey0 + ez0 * ez0;
  const l1 = ex1 * ex1 + ey1 * ey1 + ez1 * ez1;
  const l2 = ex2 * ex2 + ey2 * ey2 + ez2 * ez2;
  let ax: number, ay: number, az: number, bx: number, by: number, bz: number;
  if (l0 >= l1 && l0 >= l2) { ax = ex0; ay = ey0; az = ez0; bx = ex1; by = ey1; bz = ez1; }
  else if (l1 >= l2) { ax = ex1; ay = ey1; az = ez1; bx = ex2; by = ey2; bz = ez2; }
  else { ax = ex2; ay = ey2; az = ez2; bx = ex0; by = ey0; bz = ez0; }
  // Second axis: the other edge made orthogonal to the first (in the triangle's plane).
  out[o] = ax; out[o + 1] = ay; out[o + 2] = az;
  out[o + 3] = bx; out[o + 4] = by; out[o + 5] = bz;
  orthonormalFrame(out, o);
}

type Point3 = [number, number, number];
let hullPoints: Point3[] = [];

/**
 * Frame from the area-weighted covariance of the convex hull surface of the points at
 * `pts[3i..3i+2]`, i < count. Returns false when the hull does not exist (fewer than four points,
 * or all coplanar) so that the caller falls back to the surface moments.
 */
export function frameFromHull(pts: Float64Array, count: number, out: Float64Array, o: number, momentScratch: Float64Array): boolean {
  if (count < 4) return false;
  // Flat or collinear sets have no 3D hull: probe with the point covariance first.
  if (frameFromPoints(pts, count, out, o) < 1e-18) return false;
  if (hullPoints.length < count) {
    const grown: Point3[] = new Array<Point3>(count);
    for (let i = 0; i < count; i++) grown[i] = hullPoints[i] ?? [0, 0, 0];
    hullPoints = grown;
  }
  // Centre the points for a well-conditioned covariance.
  let cx = 0, cy = 0, cz = 0;
  for (let i = 0; i < count; i++) { cx += pts[3 * i]; cy += pts[3 * i + 1]; cz += pts[3 * i + 2]; }
  cx /= count; cy /= count; cz /= count;
  const input = hullPoints.length === count ? hullPoints : hullPoints.slice(0, count);
  for (let i = 0; i < count; i++) {
    const p = input[i];
    p[0] = pts[3 * i] - cx; p[1] = pts[3 * i + 1] - cy; p[2] = pts[3 * i + 2] - cz;
  }
  let faces: number[][];
  try {
    faces = quickhull(input);
  } catch {
    return false;
  }
  const sum = momentScratch;
  sum.fill(0, 0, MOMENT_STRIDE);
  for (const f of faces) {
    // Faces come triangulated; fan any polygon just in case.
    for (let k = 1; k + 1 < f.length; k++) {
      const a = input[f[0]], b = input[f[k]], c = input[f[k + 1]];
      triangleMoments(a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2], sum, MOMENT_STRIDE);
      for (let j = 0; j < MOMENT_STRIDE; j++) sum[j] += sum[MOMENT_STRIDE + j];
    }
  }
  return frameFromMoments(sum, out, o);
}
