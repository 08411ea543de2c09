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

/** The largest resolution the pair can have anywhere (for the reach of its distance query). */
export function pairResolutionBound(a: CheckPart, b: CheckPart): number {
  return maxChordError(a) + maxChordError(b);
}
