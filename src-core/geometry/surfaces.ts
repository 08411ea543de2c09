/**
 * The exact surface of a B-rep face, recovered from its tessellation.
 *
 * OpenCascade places every vertex of a face's triangles on the exact surface (to the precision of
 * a double). For the surfaces that make up most mechanical fits — planes, cylinders (pins, bores,
 * shafts) and spheres (balls) — those points determine the surface:
 *
 *   plane     every vertex at one offset along the triangles' common normal
 *   cylinder  the axis direction first guessed as the direction the triangles' normals least
 *             point along, then refined so that the vertices, seen along it, lie on one circle
 *             (the circle fitted algebraically for each direction tried)
 *   sphere    the algebraic fit |x|² + D·x + G = 0, exact for exact points, for faces with a
 *             vertex off their boundary (rims alone lie on spheres whatever the surface)
 *
 * The radius r is signed by the triangles' outward normals: positive when they point away from
 * the axis or centre (a pin, a ball: the face is convex), negative when towards it (a bore, a
 * socket). A face is given a surface only when every one of its vertices lies within
 * FIT_TOLERANCE_MM (+ FIT_RELATIVE_TOLERANCE × the coordinates' size) of it; any other face
 * (cones, tori, splines, faces too small to tell) has none, and the check decides it on its
 * triangles alone. (occt's vertex normals are averages of the triangles', not the surface's, so
 * they are not used.)
 *
 * Surfaces are stored flat, SURFACE_STRIDE numbers per face, in the order of the body's face
 * ranges:
 *
 *   [SURFACE_NONE, …]
 *   [SURFACE_PLANE,    nx, ny, nz, d, 0, 0, 0, 0, 0]   points x with n·x = d; n the outward normal
 *   [SURFACE_CYLINDER, px, py, pz, dx, dy, dz, r, t0, t1]
 *                      axis through p along unit d, signed radius r; the face's vertices lie
 *                      between p + t0·d and p + t1·d along it
 *   [SURFACE_SPHERE,   cx, cy, cz, 0, 0, 0, r, 0, 0]   centre c, signed radius r
 */
import { symmetricEigen3 } from './eigen.js';

export const SURFACE_STRIDE = 10;
export const SURFACE_NONE = 0;
export const SURFACE_PLANE = 1;
export const SURFACE_CYLINDER = 2;
export const SURFACE_SPHERE = 3;

/** How far a vertex may lie from the fitted surface (mm), absolute part. */
export const FIT_TOLERANCE_MM = 2e-5;
/** …and relative to the coordinates' size. */
export const FIT_RELATIVE_TOLERANCE = 4e-7;
/** Triangle normals within this of each other (as |Δn|) make a face a plane candidate. */
const PLANE_NORMAL_SPREAD = 1e-6;
/** The least turn of the triangles' normals over a face for a curved fit (as |Δn|). */
const MIN_NORMAL_SPREAD = 0.02;
/** The fewest distinct vertices a curved face must have to be fitted. */
const MIN_CURVED_VERTICES = 6;

/** Every face's surface, and the residual bound that held when it was fitted. */
export interface FaceSurfaces {
  /** SURFACE_STRIDE numbers per face. */
  readonly records: Float64Array;
  /** Per face, the largest distance of a vertex from its surface (mm; 0 for SURFACE_NONE). */
  readonly residualMm: Float64Array;
}

/**
 * Fits a surface to every face: faceRanges are inclusive [first, last] triangle pairs tiling the
 * triangles; triangles wound counter-clockwise seen from outside the solid.
 */
export function fitFaceSurfaces(positions: ArrayLike<number>, indices: ArrayLike<number>, faceRanges: ArrayLike<number>): FaceSurfaces {
  const faceCount = faceRanges.length / 2;
  const records = new Float64Array(faceCount * SURFACE_STRIDE);
  const residualMm = new Float64Array(faceCount);
  const seen = new Map<number, number>();
  for (let f = 0; f < faceCount; f++) {
    seen.clear();
    const first = faceRanges[2 * f], last = faceRanges[2 * f + 1];
    for (let t = first; t <= last; t++) {
      for (let k = 0; k < 3; k++) {
        const v = indices[3 * t + k];
        if (!seen.has(v)) seen.set(v, seen.size);
      }
    }
    const pts = new Float64Array(3 * seen.size);
    for (const [v, j] of seen) {
      pts[3 * j] = positions[3 * v]; pts[3 * j + 1] = positions[3 * v + 1]; pts[3 * j + 2] = positions[3 * v + 2];
    }
    residualMm[f] = fitFace(pts, positions, indices, first, last, records, f * SURFACE_STRIDE);
  }
  return { records, residualMm };
}

/** Fits one face (its distinct vertices `pts`); writes its record at `o`, returns the residual. */
function fitFace(
  pts: Float64Array, P: ArrayLike<number>, I: ArrayLike<number>, first: number, last: number,
  rec: Float64Array, o: number,
): number {
  rec[o] = SURFACE_NONE;
  const n = pts.length / 3;
  if (n < 3) return 0;
  let scale = 1;
  for (let i = 0; i < pts.length; i++) scale = Math.max(scale, Math.abs(pts[i]));
  const tol = FIT_TOLERANCE_MM + FIT_RELATIVE_TOLERANCE * scale;

  // The triangles' normals (area-weighted sum, and the scatter of the unit normals).
  let sx = 0, sy = 0, sz = 0;
  let m00 = 0, m01 = 0, m02 = 0, m11 = 0, m12 = 0, m22 = 0;
  let u0x = 0, u0y = 0, u0z = 0, spread = 0, have = false;
  for (let t = first; t <= last; t++) {
    const a = 3 * I[3 * t], b = 3 * I[3 * t + 1], c = 3 * I[3 * t + 2];
    const ex = P[b] - P[a], ey = P[b + 1] - P[a + 1], ez = P[b + 2] - P[a + 2];
    const fx = P[c] - P[a], fy = P[c + 1] - P[a + 1], fz = P[c + 2] - P[a + 2];
    const cx = ey * fz - ez * fy, cy = ez * fx - ex * fz, cz = ex * fy - ey * fx;
    const l = Math.hypot(cx, cy, cz);
    if (!(l > 0)) continue;
    sx += cx; sy += cy; sz += cz;
    const ux = cx / l, uy = cy / l, uz = cz / l;
    if (!have) { u0x = ux; u0y = uy; u0z = uz; have = true; }
    spread = Math.max(spread, Math.hypot(ux - u0x, uy - u0y, uz - u0z));
    m00 += l * ux * ux; m01 += l * ux * uy; m02 += l * ux * uz; m11 += l * uy * uy; m12 += l * uy * uz; m22 += l * uz * uz;
  }
  if (!have) return 0;
  let cx = 0, cy = 0, cz = 0;
  for (let i = 0; i < n; i++) { cx += pts[3 * i]; cy += pts[3 * i + 1]; cz += pts[3 * i + 2]; }
  cx /= n; cy /= n; cz /= n;

  if (spread <= PLANE_NORMAL_SPREAD) {
    const l = Math.hypot(sx, sy, sz);
    const nx = sx / l, ny = sy / l, nz = sz / l;
    const d = nx * cx + ny * cy + nz * cz;
    let res = 0;
    for (let i = 0; i < n; i++) {
      res = Math.max(res, Math.abs(nx * pts[3 * i] + ny * pts[3 * i + 1] + nz * pts[3 * i + 2] - d));
      if (res > tol) return 0;
    }
    rec[o] = SURFACE_PLANE; rec[o + 1] = nx; rec[o + 2] = ny; rec[o + 3] = nz; rec[o + 4] = d;
    return res;
  }
  if (spread < MIN_NORMAL_SPREAD || n < MIN_CURVED_VERTICES) return 0;

  // Cylinder first: the vertices of a cylinder meshed in strips along its generators lie on its
  // two rims only, and so on a sphere too. The axis is the direction the normals least point
  // along, refined.
  const eig = new Float64Array(12);
  symmetricEigen3(m00, m01, m02, m11, m12, m22, eig);
  const cyl = fitCylinder(pts, cx, cy, cz, eig[9], eig[10], eig[11]);
  if (cyl && cyl.residual <= tol) {
    const r = cyl.r * convexity(P, I, first, last, cyl.px, cyl.py, cyl.pz, cyl.dx, cyl.dy, cyl.dz);
    if (r === 0) return 0;
    rec[o] = SURFACE_CYLINDER;
    rec[o + 1] = cyl.px; rec[o + 2] = cyl.py; rec[o + 3] = cyl.pz;
    rec[o + 4] = cyl.dx; rec[o + 5] = cyl.dy; rec[o + 6] = cyl.dz;
    rec[o + 7] = r;
    let t0 = Infinity, t1 = -Infinity;
    for (let i = 0; i < n; i++) {
      const t = (pts[3 * i] - cyl.px) * cyl.dx + (pts[3 * i + 1] - cyl.py) * cyl.dy + (pts[3 * i + 2] - cyl.pz) * cyl.dz;
      t0 = Math.min(t0, t); t1 = Math.max(t1, t);
    }
    rec[o + 8] = t0; rec[o + 9] = t1;
    return cyl.residual;
  }
  // Sphere, when the face has a vertex inside it: the two rims of a cone (a chamfer) or of any
  // surface of revolution meshed in strips lie on a sphere too, so rims alone say nothing.
  const sphere = hasInnerVertex(I, first, last) ? fitSphere(pts, cx, cy, cz) : null;
  if (sphere && sphere.residual <= tol) {
    const r = sphere.r * convexity(P, I, first, last, sphere.x, sphere.y, sphere.z, 0, 0, 0);
    if (r === 0) return 0;
    rec[o] = SURFACE_SPHERE; rec[o + 1] = sphere.x; rec[o + 2] = sphere.y; rec[o + 3] = sphere.z; rec[o + 7] = r;
    return sphere.residual;
  }

  return 0;
}

/** Whether some vertex of triangles first…last lies on no edge that only one of them uses. */
function hasInnerVertex(I: ArrayLike<number>, first: number, last: number): boolean {
  const edges = new Map<string, number>();
  for (let t = first; t <= last; t++) {
    for (let k = 0; k < 3; k++) {
      const u = I[3 * t + k], v = I[3 * t + (k + 1) % 3];
      const key = u < v ? `${u},${v}` : `${v},${u}`;
      edges.set(key, (edges.get(key) ?? 0) + 1);
    }
  }
  const rim = new Set<number>();
  for (const [key, n] of edges) {
    if (n !== 1) continue;
    const c = key.indexOf(',');
    rim.add(+key.slice(0, c)); rim.add(+key.slice(c + 1));
  }
  for (let t = first; t <= last; t++) for (let k = 0; k < 3; k++) if (!rim.has(I[3 * t + k])) return true;
  return false;
}

/**
 * +1 when the face's triangles face away from the centre (or the axis through it along d; d = 0
 * for a point), −1 when towards it, 0 when they disagree.
 */
function convexity(P: ArrayLike<number>, I: ArrayLike<number>, first: number, last: number,
  px: number, py: number, pz: number, dx: number, dy: number, dz: number): number {
  let out = 0, inward = 0;
  for (let t = first; t <= last; t++) {
    const a = 3 * I[3 * t], b = 3 * I[3 * t + 1], c = 3 * I[3 * t + 2];
    const ex = P[b] - P[a], ey = P[b + 1] - P[a + 1], ez = P[b + 2] - P[a + 2];
    const fx = P[c] - P[a], fy = P[c + 1] - P[a + 1], fz = P[c + 2] - P[a + 2];
    const nx = ey * fz - ez * fy, ny = ez * fx - ex * fz, nz = ex * fy - ey * fx;
    let wx = (P[a] + P[b] + P[c]) / 3 - px, wy = (P[a + 1] + P[b + 1] + P[c + 1]) / 3 - py, wz = (P[a + 2] + P[b + 2] + P[c + 2]) / 3 - pz;
    const along = wx * dx + wy * dy + wz * dz;
    wx -= along * dx; wy -= along * dy; wz -= along * dz;
    const s = nx * wx + ny * wy + nz * wz;
    if (s > 0) out++;
    else if (s < 0) inward++;
  }
  return out > 0 && inward === 0 ? 1 : inward > 0 && out === 0 ? -1 : 0;
}

/** |x − c|² = r² by linear least squares (relative to the centroid); null when degenerate. */
function fitSphere(pts: Float64Array, ox: number, oy: number, oz: number): { x: number; y: number; z: number; r: number; residual: number } | null {
  // x² + y² + z² + D x + E y + F z + G = 0.
  const A = new Float64Array(16), rhs = new Float64Array(4), row = new Float64Array(4);
  const n = pts.length / 3;
  for (let i = 0; i < n; i++) {
    const x = pts[3 * i] - ox, y = pts[3 * i + 1] - oy, z = pts[3 * i + 2] - oz;
    row[0] = x; row[1] = y; row[2] = z; row[3] = 1;
    const b = -(x * x + y * y + z * z);
    for (let j = 0; j < 4; j++) {
      rhs[j] += row[j] * b;
      for (let k = 0; k < 4; k++) A[4 * j + k] += row[j] * row[k];
    }
  }
  const sol = solve(A, rhs, 4);
  if (!sol) return null;
  const x = -sol[0] / 2, y = -sol[1] / 2, z = -sol[2] / 2;
  const r2 = x * x + y * y + z * z - sol[3];
  if (!(r2 > 0)) return null;
  const r = Math.sqrt(r2);
  let residual = 0;
  for (let i = 0; i < n; i++) {
    residual = Math.max(residual, Math.abs(Math.hypot(pts[3 * i] - ox - x, pts[3 * i + 1] - oy - y, pts[3 * i + 2] - oz - z) - r));
  }
  return { x: x + ox, y: y + oy, z: z + oz, r, residual };
}

interface Cylinder { px: number; py: number; pz: number; dx: number; dy: number; dz: number; r: number; residual: number }

/**
 * The cylinder through the points: for a trial axis direction, the circle fitted to the points
 * seen along it (fitCircle); the direction refined by Gauss–Newton over two tilt angles, the
 * residuals' derivatives by central differences.
 */
function fitCylinder(pts: Float64Array, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): Cylinder | null {
  const n = pts.length / 3;
  const f0 = new Float64Array(n), fa = new Float64Array(n), fb = new Float64Array(n);
  let best = fitCircle(pts, ox, oy, oz, dx, dy, dz, f0);
  if (!best) return null;
  for (let iter = 0; iter < 40 && best.residual > 1e-12 * (1 + Math.abs(best.r)); iter++) {
    // Two directions perpendicular to the axis.
    const u = perpendicular(best.dx, best.dy, best.dz);
    const vx = best.dy * u[2] - best.dz * u[1], vy = best.dz * u[0] - best.dx * u[2], vz = best.dx * u[1] - best.dy * u[0];
    const h = 1e-7;
    const ca = fitCircle(pts, ox, oy, oz, best.dx + h * u[0], best.dy + h * u[1], best.dz + h * u[2], fa);
    const cb = fitCircle(pts, ox, oy, oz, best.dx + h * vx, best.dy + h * vy, best.dz + h * vz, fb);
    if (!ca || !cb) break;
    fitCircle(pts, ox, oy, oz, best.dx, best.dy, best.dz, f0);
    let jaa = 0, jab = 0, jbb = 0, ga = 0, gb = 0;
    for (let i = 0; i < n; i++) {
      const ja = (fa[i] - f0[i]) / h, jb = (fb[i] - f0[i]) / h;
      jaa += ja * ja; jab += ja * jb; jbb += jb * jb; ga += ja * f0[i]; gb += jb * f0[i];
    }
    const det = jaa * jbb - jab * jab;
    if (!(Math.abs(det) > 1e-300)) break;
    const sa = -(jbb * ga - jab * gb) / det, sb = -(jaa * gb - jab * ga) / det;
    let step = 1, improved = false;
    for (let k = 0; k < 6 && !improved; k++, step /= 4) {
      const trial = fitCircle(pts, ox, oy, oz,
        best.dx + step * (sa * u[0] + sb * vx), best.dy + step * (sa * u[1] + sb * vy), best.dz + step * (sa * u[2] + sb * vz), f0);
      if (trial && trial.residual < best.residual) { best = trial; improved = true; }
    }
    if (!improved) break;
  }
  return best;
}

function perpendicular(x: number, y: number, z: number): [number, number, number] {
  const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
  let px: number, py: number, pz: number;
  if (ax <= ay && ax <= az) { px = 0; py = -z; pz = y; } else if (ay <= az) { px = -z; py = 0; pz = x; } else { px = -y; py = x; pz = 0; }
  const l = Math.hypot(px, py, pz);
  return [px / l, py / l, pz / l];
}

/**
 * For axis direction d (normalised here), the circle fitted algebraically to the points projected
 * along it; writes each point's distance from the axis minus the radius into `res`.
 */
function fitCircle(pts: Float64Array, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, res: Float64Array): Cylinder | null {
  const l = Math.hypot(dx, dy, dz);
  if (!(l > 0)) return null;
  dx /= l; dy /= l; dz /= l;
  const [ux, uy, uz] = perpendicular(dx, dy, dz);
  const vx = dy * uz - dz * uy, vy = dz * ux - dx * uz, vz = dx * uy - dy * ux;
  const n = pts.length / 3;
  // x² + y² + D x + E y + F = 0 in the (u, v) plane.
  let s00 = 0, s01 = 0, s02 = 0, s11 = 0, s12 = 0, s22 = 0, r0 = 0, r1 = 0, r2 = 0;
  for (let i = 0; i < n; i++) {
    const wx = pts[3 * i] - ox, wy = pts[3 * i + 1] - oy, wz = pts[3 * i + 2] - oz;
    const x = wx * ux + wy * uy + wz * uz, y = wx * vx + wy * vy + wz * vz;
    const b = -(x * x + y * y);
    s00 += x * x; s01 += x * y; s02 += x; s11 += y * y; s12 += y; s22 += 1;
    r0 += x * b; r1 += y * b; r2 += b;
  }
  const A = new Float64Array([s00, s01, s02, s01, s11, s12, s02, s12, s22]);
  const sol = solve(A, new Float64Array([r0, r1, r2]), 3);
  if (!sol) return null;
  const a = -sol[0] / 2, b = -sol[1] / 2;
  const rr = a * a + b * b - sol[2];
  if (!(rr > 0)) return null;
  const r = Math.sqrt(rr);
  let residual = 0;
  for (let i = 0; i < n; i++) {
    const wx = pts[3 * i] - ox, wy = pts[3 * i + 1] - oy, wz = pts[3 * i + 2] - oz;
    const x = wx * ux + wy * uy + wz * uz, y = wx * vx + wy * vy + wz * vz;
    const e = Math.hypot(x - a, y - b) - r;
    res[i] = e;
    residual = Math.max(residual, Math.abs(e));
  }
  return { px: ox + a * ux + b * vx, py: oy + a * uy + b * vy, pz: oz + a * uz + b * vz, dx, dy, dz, r, residual };
}

/** Solves the k×k system A x = b (row-major) by Gaussian elimination with partial pivoting. */
function solve(A: Float64Array, b: Float64Array, k: number): Float64Array | null {
  let scale = 0;
  for (let i = 0; i < k * k; i++) scale = Math.max(scale, Math.abs(A[i]));
  if (!(scale > 0)) return null;
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(A[r * k + c]) > Math.abs(A[p * k + c])) p = r;
    if (!(Math.abs(A[p * k + c]) > 1e-13 * scale)) return null;
    if (p !== c) {
      for (let j = 0; j < k; j++) { const t = A[c * k + j]; A[c * k + j] = A[p * k + j]; A[p * k + j] = t; }
      const t = b[c]; b[c] = b[p]; b[p] = t;
    }
    for (let r = c + 1; r < k; r++) {
      const f = A[r * k + c] / A[c * k + c];
      for (let j = c; j < k; j++) A[r * k + j] -= f * A[c * k + j];
      b[r] -= f * b[c];
    }
  }
  const x = new Float64Array(k);
  for (let r = k - 1; r >= 0; r--) {
    let s = b[r];
    for (let j = r + 1; j < k; j++) s -= A[r * k + j] * x[j];
    x[r] = s / A[r * k + r];
  }
  return x;
}
