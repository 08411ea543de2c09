/**
 * The tree builders' per-triangle slot: what both builders (./build.ts, and the kernel's
 * kernel/as/build.ts with its host kernel/kernel.ts) keep for each triangle besides its vertices,
 * computed once per build and summed per group.
 *
 * A slot is 64 bytes:
 * - bytes 0–39, ten 32-bit floats: the triangle's area, first moment (3) and second moment (6),
 *   relative to the mesh's reference point and scaled by `momentScale` (area by s², first moment
 *   by s³, second moment by s⁴);
 * - bytes 40–63, three doubles: its vertex sum, in the mesh's coordinates.
 *
 * The moments only orient the boxes (their eigenvectors are the box axes), so single precision
 * is enough for them; the boxes themselves are measured on the double vertices, and the vertex
 * sums, which place the split planes, stay double. Half the bytes of thirteen doubles means half
 * the memory moved when slots are exchanged and summed, and half the memory first touched by a
 * build. The scale keeps every moment far from a float's range limits whatever the mesh's units:
 * coordinates relative to the reference point are at most 2 once scaled, so a second moment is at
 * most about 200; only a triangle some 10¹⁹ times smaller than the mesh loses its area (to zero,
 * which the fits handle as they handle a zero-area triangle). Groups are summed in doubles.
 */

/** Bytes per slot. */
export const SLOT_BYTES = 64;
/** Floats per slot, of which the first MOMENT_FLOATS are the moments. */
export const SLOT_FLOATS = SLOT_BYTES / 4;
/** Doubles per slot; the vertex sum is at SLOT_VERTEX_SUM..SLOT_VERTEX_SUM + 2. */
export const SLOT_DOUBLES = SLOT_BYTES / 8;
export const MOMENT_FLOATS = 10;
export const SLOT_VERTEX_SUM = 5;

const MIN_SCALE = 2 ** -1000;
const MAX_SCALE = 2 ** 1000;

/**
 * The power of two s that brings `halfExtent` (the largest distance of a mesh's bounds from its
 * reference point along an axis) into [1, 2); 1 when it is zero or not finite. Powers of two
 * scale exactly, so both builders scale the same coordinates to the same numbers.
 */
export function momentScale(halfExtent: number): number {
  if (!(halfExtent > 0) || !Number.isFinite(halfExtent)) return 1;
  let s = 2 ** -Math.floor(Math.log2(halfExtent));
  s = Math.min(MAX_SCALE, Math.max(MIN_SCALE, s));
  while (halfExtent * s >= 2 && s > MIN_SCALE) s *= 0.5;
  while (halfExtent * s < 1 && s < MAX_SCALE) s *= 2;
  return s;
}
