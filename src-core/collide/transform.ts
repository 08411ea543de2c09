/** Reading and checking rigid transforms (row-major 3×4 or 4×4). */
import type { RigidTransform } from './types.js';

/** Largest deviation of RᵀR from the identity (and of det R from 1) accepted as a rotation. */
export const RIGID_TOLERANCE = 1e-6;

/**
 * Copies the rotation (row-major, 9) and translation (3) of a rigid transform into out[0..11]
 * as r00 r01 r02 r10 r11 r12 r20 r21 r22 t0 t1 t2. Throws RangeError for anything that is not a
 * finite rotation plus translation (scale, shear, reflection, NaN).
 */
export function readRigidTransform(m: RigidTransform, out: Float64Array): void {
  if (m.length !== 12 && m.length !== 16) {
    throw new RangeError(`a rigid transform has 12 or 16 numbers, got ${m.length}`);
  }
  for (let i = 0; i < m.length; i++) {
    if (!Number.isFinite(m[i])) throw new RangeError(`transform entry ${i} is not a finite number (${m[i]})`);
  }
  if (m.length === 16 && (m[12] !== 0 || m[13] !== 0 || m[14] !== 0 || m[15] !== 1)) {
    throw new RangeError('the last row of a rigid transform must be 0 0 0 1');
  }
  out[0] = m[0]; out[1] = m[1]; out[2] = m[2]; out[9] = m[3];
  out[3] = m[4]; out[4] = m[5]; out[5] = m[6]; out[10] = m[7];
  out[6] = m[8]; out[7] = m[9]; out[8] = m[10]; out[11] = m[11];
  const err = rigidError(out);
  if (!(err <= RIGID_TOLERANCE)) {
    throw new RangeError(`transform is not a rotation plus a translation (orthonormality error ${err.toExponential(2)})`);
  }
}

/** max |RᵀR − I| and |det R − 1| of the rotation at r[0..8] (row-major). */
export function rigidError(r: ArrayLike<number>): number {
  let err = 0;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const d = r[i] * r[j] + r[3 + i] * r[3 + j] + r[6 + i] * r[6 + j] - (i === j ? 1 : 0);
      err = Math.max(err, Math.abs(d));
    }
  }
  const det =
    r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6]) + r[2] * (r[3] * r[7] - r[4] * r[6]);
  return Math.max(err, Math.abs(det - 1));
}
