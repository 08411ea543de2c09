/**
 * The touch tolerance when the assembly does not set one.
 *
 * Mated curved faces are tessellated independently (a bolt in its hole), so the chords of one
 * surface cross the chords of the other: the meshes overlap by up to the chordal error of the
 * tessellations even though the exact solids only touch. The automatic tolerance of a pair is
 * therefore the sum of the two parts' chordal errors where their triangles meet (the largest
 * estimate among the triangles in intersecting pairs, else over the part), and at least
 * DEFAULT_TOUCH_TOLERANCE_MM — which is all that meshes with no known chordal error (STL: the
 * mesh is the geometry) get.
 */
import type { CheckPart } from './types.js';

export const DEFAULT_TOUCH_TOLERANCE_MM = 0.01;

/** Largest chordal error of part triangles listed at even (side 0) or odd (side 1) positions. */
function localChord(part: CheckPart, pairs: Uint32Array, side: 0 | 1): number {
  const c = part.chordErrorMm;
  if (!c) return 0;
  let m = 0;
  if (pairs.length === 0) {
    for (let i = 0; i < c.length; i++) m = Math.max(m, c[i]);
    return m;
  }
  for (let k = side; k < pairs.length; k += 2) m = Math.max(m, c[pairs[k]]);
  return m;
}

/** Automatic touch tolerance for parts a and b with intersecting pairs [ia, ib, …] (may be empty). */
export function pairTolerance(a: CheckPart, b: CheckPart, pairs: Uint32Array): number {
  return Math.max(DEFAULT_TOUCH_TOLERANCE_MM, localChord(a, pairs, 0) + localChord(b, pairs, 1));
}
