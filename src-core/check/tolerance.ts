/**
 * The touch tolerance when the assembly does not set one.
 *
 * Mated curved faces are tessellated independently (a bolt in its hole), so the chords of one
 * surface cross the chords of the other: the meshes overlap even though the exact solids only
 * touch. Two chord polygons of one circle overlap by at most the larger of their sagittas, so the
 * automatic tolerance of a pair is the larger chordal error of the triangles where the two parts
 * meet — the triangles in intersecting pairs, or the closest triangles when none intersect — and
 * at least DEFAULT_TOUCH_TOLERANCE_MM, which is all that meshes with no known chordal error (STL:
 * the mesh is the geometry) get. Taking it where the parts meet, not over the whole part, keeps a
 * coarse fillet elsewhere from hiding a real shallow interference or a small design gap between
 * flat faces.
 */
import type { CheckPart } from './types.js';

export const DEFAULT_TOUCH_TOLERANCE_MM = 0.01;

/** Largest chordal error over the whole part (0 when unknown). */
export function maxChordError(part: CheckPart): number {
  const c = part.chordErrorMm;
  if (!c) return 0;
  let m = 0;
  for (let i = 0; i < c.length; i++) m = Math.max(m, c[i]);
  return m;
}

/** Largest chordal error of the part's triangles at even (side 0) or odd (side 1) positions. */
function localChord(part: CheckPart, pairs: ArrayLike<number>, side: 0 | 1): number {
  const c = part.chordErrorMm;
  if (!c) return 0;
  let m = 0;
  for (let k = side; k < pairs.length; k += 2) m = Math.max(m, c[pairs[k]]);
  return m;
}

/**
 * Automatic touch tolerance for parts a and b meeting at triangle pairs [ia, ib, …] (the
 * intersecting pairs, or the closest pair).
 */
export function pairTolerance(a: CheckPart, b: CheckPart, pairs: ArrayLike<number>): number {
  return Math.max(DEFAULT_TOUCH_TOLERANCE_MM, localChord(a, pairs, 0), localChord(b, pairs, 1));
}

/** The largest automatic tolerance the pair can have (for the reach of its distance query). */
export function pairToleranceBound(a: CheckPart, b: CheckPart): number {
  return Math.max(DEFAULT_TOUCH_TOLERANCE_MM, maxChordError(a), maxChordError(b));
}
