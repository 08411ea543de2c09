/**
 * The touch tolerance when the assembly sets none, and the resolution of a pair's triangles.
 *
 * The touch tolerance decides gaps: surfaces closer than it are in contact. It is one fixed value,
 * never stretched to the tessellation: where CAD triangles are too coarse to tell a gap or an
 * overlap from their chords, the bodies are re-tessellated (./resolution.ts, ./refine.ts).
 *
 * A pair's resolution is taken where the parts meet — the triangles in intersecting pairs, or the
 * closest triangles when none intersect — so that a coarse fillet elsewhere does not blur a fit
 * between two finely tessellated faces.
 */
import type { CheckPart } from './types.js';

/** The touch tolerance when the assembly and the command line set none (mm). */
export const DEFAULT_TOUCH_TOLERANCE_MM = 0.01;

/** Chordal error of one triangle of a part (mm), within its deflection when it has one. */
function chordOf(part: CheckPart, c: Float32Array, t: number): number {
  const d = part.deflectionMm;
  return d === null || d === undefined ? c[t] : Math.min(c[t], d);
}

/** Largest chordal error over the whole part (0 when unknown: a mesh that is the geometry). */
export function maxChordError(part: CheckPart): number {
  const c = part.chordErrorMm;
  if (!c) return 0;
  let m = 0;
  for (let i = 0; i < c.length; i++) m = Math.max(m, c[i]);
  const d = part.deflectionMm;
  return d === null || d === undefined ? m : Math.min(m, d);
}

/** Largest chordal error of the part's triangles at even (side 0) or odd (side 1) positions. */
export function localChord(part: CheckPart, pairs: ArrayLike<number>, side: 0 | 1): number {
  const c = part.chordErrorMm;
  if (!c) return 0;
  let m = 0;
  for (let k = side; k < pairs.length; k += 2) m = Math.max(m, chordOf(part, c, pairs[k]));
  return m;
}

/** Whether a part's triangles only approximate exact surfaces (a CAD body), so that a pair has a resolution. */
export function hasChordError(part: CheckPart): boolean {
  return part.chordErrorMm !== null;
}

/** Where two parts meet: how much closer (grow) or farther apart (shrink) their exact solids may be than their meshes (mm). */
export interface PairBounds {
  /** The most the exact solids may reach beyond the meshes towards each other at any of the pairs. */
  readonly grow: number;
  /** The least and the most they may fall back from the meshes at one of the pairs. */
  readonly shrinkMin: number;
  readonly shrinkMax: number;
}

/**
 * How far the exact solids of parts a and b may lie from their meshes where they meet at triangle
 * pairs [ia, ib, …] (the intersecting pairs, or the closest pair); null when neither part has a
 * chordal error (meshes that are the geometry). A triangle over a convex face grows its solid by
 * up to its chordal error, one over a concave face shrinks it, one of unknown side may do either.
 */
export function pairBounds(a: CheckPart, b: CheckPart, pairs: ArrayLike<number>): PairBounds | null {
  if (!hasChordError(a) && !hasChordError(b)) return null;
  const ca = a.chordErrorMm, cb = b.chordErrorMm;
  const sa = a.chordSide ?? null, sb = b.chordSide ?? null;
  let grow = 0, shrinkMin = Infinity, shrinkMax = 0;
  for (let k = 0; k < pairs.length; k += 2) {
    const ia = pairs[k], ib = pairs[k + 1];
    const ea = ca ? chordOf(a, ca, ia) : 0, eb = cb ? chordOf(b, cb, ib) : 0;
    const da = sa ? sa[ia] : 0, db = sb ? sb[ib] : 0;
    const g = (da >= 0 ? ea : 0) + (db >= 0 ? eb : 0);
    const sh = (da <= 0 ? ea : 0) + (db <= 0 ? eb : 0);
    if (g > grow) grow = g;
    if (sh < shrinkMin) shrinkMin = sh;
    if (sh > shrinkMax) shrinkMax = sh;
  }
  if (!Number.isFinite(shrinkMin)) shrinkMin = 0;
  return { grow, shrinkMin, shrinkMax };
}

const NA = new Float64Array(3);
const NB = new Float64Array(3);

/** Unit normal of triangle t of a mesh into out (zero for a degenerate triangle); B's rotated by rel. */
function unitNormal(part: CheckPart, t: number, rel: ArrayLike<number> | null, out: Float64Array): void {
  const P = part.mesh.positions, I = part.mesh.indices;
  const i0 = 3 * I[3 * t], i1 = 3 * I[3 * t + 1], i2 = 3 * I[3 * t + 2];
  const ux = P[i1] - P[i0], uy = P[i1 + 1] - P[i0 + 1], uz = P[i1 + 2] - P[i0 + 2];
  const vx = P[i2] - P[i0], vy = P[i2 + 1] - P[i0 + 1], vz = P[i2 + 2] - P[i0 + 2];
  let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  if (rel) {
    const x = nx, y = ny, z = nz;
    nx = rel[0] * x + rel[1] * y + rel[2] * z;
    ny = rel[4] * x + rel[5] * y + rel[6] * z;
    nz = rel[8] * x + rel[9] * y + rel[10] * z;
  }
  const l = Math.hypot(nx, ny, nz);
  if (l > 0) { out[0] = nx / l; out[1] = ny / l; out[2] = nz / l; } else { out[0] = 0; out[1] = 0; out[2] = 0; }
}

/**
 * The resolution of parts a and b where they meet at triangle pairs [ia, ib, …] (the intersecting
 * pairs, or the closest pair), in mm; null when neither part has a chordal error (meshes that are
 * the geometry). Over a triangle, the exact face is a graph over the triangle's plane, at most its
 * chordal error away along the triangle's normal; what that moves the pair's depth or gap by is
 * its component along the other triangle's normal. So each pair contributes the sum of its two
 * chordal errors times |n_a · n_b| — the full sum where faces meet face to face (chords of one
 * circle crossing), nothing where a curved wall's edge stands on a face (a hole's rim under a
 * nut). `rel` places B in A's frame (row-major 3×4 rows); without it, the plain sum.
 */
export function pairResolution(a: CheckPart, b: CheckPart, pairs: ArrayLike<number>, rel?: ArrayLike<number>): number | null {
  if (!hasChordError(a) && !hasChordError(b)) return null;
  if (!rel) return localChord(a, pairs, 0) + localChord(b, pairs, 1);
  const ca = a.chordErrorMm, cb = b.chordErrorMm;
  let res = 0;
  for (let k = 0; k < pairs.length; k += 2) {
    const ea = ca ? chordOf(a, ca, pairs[k]) : 0;
    const eb = cb ? chordOf(b, cb, pairs[k + 1]) : 0;
    const e = ea + eb;
    if (!(e > res)) continue;
    unitNormal(a, pairs[k], null, NA);
    unitNormal(b, pairs[k + 1], rel, NB);
    const c = Math.abs(NA[0] * NB[0] + NA[1] * NB[1] + NA[2] * NB[2]);
    // A degenerate triangle has no normal: count it whole.
    const f = NA[0] === 0 && NA[1] === 0 && NA[2] === 0 ? 1 : NB[0] === 0 && NB[1] === 0 && NB[2] === 0 ? 1 : c;
    res = Math.max(res, e * f);
  }
  return res;
}

/** The largest resolution the pair can have anywhere (for the reach of its distance query). */
export function pairResolutionBound(a: CheckPart, b: CheckPart): number {
  return maxChordError(a) + maxChordError(b);
}
