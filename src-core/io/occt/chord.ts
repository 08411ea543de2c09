/**
 * How far the exact surface lies from each triangle, and on which side, estimated from occt's
 * vertex normals (see estimateChordErrors); the refinement of a check (src-core/check/refine.ts)
 * and the fit resolution (src-core/check/resolution.ts) rest on these.
 */
import type { ImportedBody } from '../types.js';

/** Safety factor applied to the largest edge sagitta of a triangle (see estimateChordErrors). */
export const CHORD_SAFETY_FACTOR = 1.5;

/**
 * Per-triangle estimate (mm) of how far the exact surface lies from the triangle, from occt's
 * per-face vertex normals (unwelded positions, one normal per vertex).
 *
 * For an edge p→q of length L, unit direction u and unit normals n_p, n_q: if the surface between
 * p and q were a circular arc turning by θ, the chord would leave the tangent plane at each end at
 * θ/2, and the arc's distance from the chord (sagitta) is s = (L/2)·tan(θ/4). θ/2 is taken as the
 * largest of
 *   asin|n_p·u|, asin|n_q·u|        the chord's angle to the tangent plane at each end,
 *   asin(|(n_q − n_p)·u| / 2)       half the normals' turn measured along the edge,
 * which all equal θ/2 on an exact arc. Two things make these forms necessary rather than the plain
 * angle between n_p and n_q:
 *   - only the turn of the normal ALONG the edge bends its chord: a long edge running along a
 *     cylinder from one facet column to the next sees the normals turn by the whole angular step,
 *     yet its midpoint is barely off the surface (the AS1 rod: 5.6 mm estimated that way, 0.035 mm
 *     measured);
 *   - occt-import-js's normals are not the exact surface normals: it calls
 *     Poly_Triangulation::ComputeNormals, which averages the normals of the triangles around each
 *     node within its face. Inside a face that is close to exact; on the face's boundary (seams,
 *     fillet edges) the average is one-sided and lags by about half a facet's turn (measured on
 *     the AS1 rod: up to 5.7° off the radial direction with a 12.9° step). Taking the largest term
 *     lets the better end decide.
 * The triangle's estimate is the largest edge sagitta times CHORD_SAFETY_FACTOR = 1.5: on a doubly
 * curved patch (sphere, torus, B-spline) the surface bulges further from a triangle's centre than
 * from any edge midpoint; for a quadratic patch the centre's deviation is 4/9 of the sum of the
 * three edge sagittas, at most 4/3 of the largest (equilateral triangle on a sphere). 1.5 covers
 * that with some margin for the averaged normals; on single-curved faces (cylinders, cones) it
 * overestimates by 1.5. Planar faces give 0. Zero-length edges and vertices without a usable
 * normal contribute nothing.
 */
export function estimateChordErrors(positions: Float64Array, normals: Float64Array, indices: Uint32Array): Float32Array {
  const vertexCount = positions.length / 3;
  // Unit normals; NaN marks a vertex whose normal is unusable (zero or non-finite).
  const unit = new Float64Array(3 * vertexCount);
  for (let v = 0; v < vertexCount; v++) {
    const x = normals[3 * v], y = normals[3 * v + 1], z = normals[3 * v + 2];
    const len = Math.sqrt(x * x + y * y + z * z);
    if (len > 1e-6 && Number.isFinite(len)) {
      unit[3 * v] = x / len;
      unit[3 * v + 1] = y / len;
      unit[3 * v + 2] = z / len;
    } else {
      unit[3 * v] = unit[3 * v + 1] = unit[3 * v + 2] = NaN;
    }
  }
  const P = positions;
  const N = unit;
  const triangleCount = indices.length / 3;
  const out = new Float32Array(triangleCount);
  for (let t = 0; t < triangleCount; t++) {
    let worst = 0;
    for (let k = 0; k < 3; k++) {
      const p = 3 * indices[3 * t + k];
      const q = 3 * indices[3 * t + (k === 2 ? 0 : k + 1)];
      const ux = P[q] - P[p], uy = P[q + 1] - P[p + 1], uz = P[q + 2] - P[p + 2];
      const len = Math.sqrt(ux * ux + uy * uy + uz * uz);
      if (!(len > 0)) continue;
      const dp = (N[p] * ux + N[p + 1] * uy + N[p + 2] * uz) / len;
      const dq = (N[q] * ux + N[q + 1] * uy + N[q + 2] * uz) / len;
      // sin(θ/2): NaN terms (unusable normals) fail every comparison and drop out.
      let sinHalf = 0;
      const ap = Math.abs(dp), aq = Math.abs(dq), turn = Math.abs(dq - dp) / 2;
      if (ap > sinHalf) sinHalf = ap;
      if (aq > sinHalf) sinHalf = aq;
      if (turn > sinHalf) sinHalf = turn;
      if (sinHalf > 1) sinHalf = 1;
      // (L/2)·tan(θ/4) with tan(α/2) = sin α / (1 + cos α), α = θ/2.
      const s = (len / 2) * (sinHalf / (1 + Math.sqrt(1 - sinHalf * sinHalf)));
      if (s > worst) worst = s;
    }
    out[t] = CHORD_SAFETY_FACTOR * worst;
  }
  return out;
}

/**
 * On which side of each triangle its exact face lies, from occt's (outward) vertex normals: +1
 * where the face is convex over the triangle (normals spread apart along every edge: the exact face
 * bulges outward, so the solid is larger than its mesh there — a pin, a ball, a boss), −1 where it
 * is concave (normals close in: a hole, a seat; the solid is smaller than its mesh), 0 where it is
 * both or unknown (a saddle, a triangle without usable normals) or flat.
 */
export function estimateChordSides(positions: Float64Array, normals: Float64Array, indices: Uint32Array): Int8Array {
  const triangleCount = indices.length / 3;
  const out = new Int8Array(triangleCount);
  const P = positions, N = normals;
  for (let t = 0; t < triangleCount; t++) {
    let convex = false, concave = false, unknown = false;
    for (let k = 0; k < 3; k++) {
      const p = 3 * indices[3 * t + k];
      const q = 3 * indices[3 * t + (k === 2 ? 0 : k + 1)];
      const ux = P[q] - P[p], uy = P[q + 1] - P[p + 1], uz = P[q + 2] - P[p + 2];
      const lp = Math.hypot(N[p], N[p + 1], N[p + 2]), lq = Math.hypot(N[q], N[q + 1], N[q + 2]);
      if (!(lp > 1e-6 && lq > 1e-6 && Number.isFinite(lp + lq))) { unknown = true; continue; }
      const len = Math.hypot(ux, uy, uz);
      if (!(len > 0)) continue;
      // How the unit normal turns along the edge, against the edge's direction.
      const turn = ((N[q] / lq - N[p] / lp) * ux + (N[q + 1] / lq - N[p + 1] / lp) * uy + (N[q + 2] / lq - N[p + 2] / lp) * uz) / len;
      if (turn > 1e-9) convex = true;
      else if (turn < -1e-9) concave = true;
    }
    out[t] = unknown || convex === concave ? 0 : convex ? 1 : -1;
  }
  return out;
}

/** The largest chordal-error estimate of a body (mm), or null when it has none. */
export function maxChordErrorMm(body: ImportedBody): number | null {
  const e = body.chordErrorMm;
  if (e === undefined || e === null) return null;
  let max = 0;
  for (let i = 0; i < e.length; i++) if (e[i] > max) max = e[i];
  return max;
}
