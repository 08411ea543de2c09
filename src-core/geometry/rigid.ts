/**
 * Rigid placements p ↦ R·p + t (R a rotation), in one layout for the engine, the check, the host
 * and the renderer: a row-major 3×4 matrix in a Float64Array of 12,
 *
 *   [ r00 r01 r02 t0   r10 r11 r12 t1   r20 r21 r22 t2 ],
 *
 * the first three rows of the row-major 4×4 that saved assemblies and the host API carry (whose
 * last row is 0 0 0 1). Numbers from outside are read and checked once, by parseRigid, into a
 * `Rigid`; the queries and the operations below take and give `Rigid`s, so a placement is not
 * read again on its way through. The apply functions also take a 4×4 as it is (they read its
 * first 12 numbers only).
 *
 * Every function evaluates left to right in double precision, as written: r00·x + r01·y + r02·z
 * + t0 and so on (the engine's exactness contract is stated for exactly that rounding). `out`
 * arguments must not be one of the inputs.
 */

declare const RIGID: unique symbol;

/** A checked rigid placement in the layout above (made by parseRigid or by the operations below). */
export type Rigid = Float64Array & { readonly [RIGID]: true };

/** Largest deviation of RᵀR from the identity (and of det R from 1) accepted as a rotation. */
export const RIGID_TOLERANCE = 1e-6;

/**
 * max |RᵀR − I| and |det R − 1| of the rotation of m, a 3×4 or a 4×4 in the layout above
 * (entries 0 1 2, 4 5 6, 8 9 10).
 */
export function rigidError(m: ArrayLike<number>): number {
  // Straight-line code (RᵀR is symmetric: six entries): cheap even before V8 has optimised it,
  // as it is checked once per query.
  const r00 = m[0], r01 = m[1], r02 = m[2], r10 = m[4], r11 = m[5], r12 = m[6], r20 = m[8], r21 = m[9], r22 = m[10];
  const e00 = Math.abs(r00 * r00 + r10 * r10 + r20 * r20 - 1);
  const e11 = Math.abs(r01 * r01 + r11 * r11 + r21 * r21 - 1);
  const e22 = Math.abs(r02 * r02 + r12 * r12 + r22 * r22 - 1);
  const e01 = Math.abs(r00 * r01 + r10 * r11 + r20 * r21);
  const e02 = Math.abs(r00 * r02 + r10 * r12 + r20 * r22);
  const e12 = Math.abs(r01 * r02 + r11 * r12 + r21 * r22);
  const det = r00 * (r11 * r22 - r12 * r21) - r01 * (r10 * r22 - r12 * r20) + r02 * (r10 * r21 - r11 * r20);
  const ed = Math.abs(det - 1);
  // NaN-propagating maximum (Math.max's semantics): a NaN entry gives NaN.
  return Math.max(e00, e11, e22, e01, e02, e12, ed);
}

/**
 * Reads a rigid placement given as 16 numbers (row-major 4×4, last row 0 0 0 1) or 12 (its first
 * three rows) into `out`. Throws RangeError for anything that is not a finite rotation plus a
 * translation (scale, shear, reflection, NaN, another length, another last row).
 */
export function parseRigid(m: ArrayLike<number>, out: Float64Array = new Float64Array(12)): Rigid {
  if (m.length !== 12 && m.length !== 16) {
    throw new RangeError(`a rigid transform has 12 or 16 numbers, got ${m.length}`);
  }
  // Doubles (the queries' case): one product per entry, whose sum is 0 unless an entry is NaN or
  // infinite. Anything else (numbers from JSON, say) is checked entry by entry.
  let check = !(m instanceof Float64Array);
  if (!check) {
    let zero = 0;
    for (let i = 0; i < m.length; i++) zero += m[i] * 0;
    check = zero !== 0;
  }
  if (check) {
    for (let i = 0; i < m.length; i++) {
      if (!Number.isFinite(m[i])) throw new RangeError(`transform entry ${i} is not a finite number (${m[i]})`);
    }
  }
  if (m.length === 16 && (m[12] !== 0 || m[13] !== 0 || m[14] !== 0 || m[15] !== 1)) {
    throw new RangeError('the last row of a rigid transform must be 0 0 0 1');
  }
  const err = rigidError(m);
  if (!(err <= RIGID_TOLERANCE)) {
    throw new RangeError(`transform is not a rotation plus a translation (orthonormality error ${err.toExponential(2)})`);
  }
  for (let i = 0; i < 12; i++) out[i] = m[i];
  return out as Rigid;
}

/** The identity placement. */
export function identityRigid(): Rigid {
  return Float64Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0) as Rigid;
}

/** The placement as the 16 numbers of a row-major 4×4 (last row 0 0 0 1), e.g. for JSON. */
export function rigidToMatrix4(m: Rigid): number[] {
  return [...m, 0, 0, 0, 1];
}

/** a ∘ b, the placement x ↦ a(b(x)): rotation Ra·Rb, translation Ra·tb + ta. */
export function compose(a: Rigid, b: Rigid, out: Float64Array = new Float64Array(12)): Rigid {
  for (let i = 0; i < 3; i++) {
    const a0 = a[4 * i], a1 = a[4 * i + 1], a2 = a[4 * i + 2];
    for (let j = 0; j < 3; j++) out[4 * i + j] = a0 * b[j] + a1 * b[4 + j] + a2 * b[8 + j];
    out[4 * i + 3] = a0 * b[3] + a1 * b[7] + a2 * b[11] + a[4 * i + 3];
  }
  return out as Rigid;
}

/** The inverse placement: rotation Rᵀ, translation −(Rᵀ·t). */
export function invert(m: Rigid, out: Float64Array = new Float64Array(12)): Rigid {
  for (let i = 0; i < 3; i++) {
    const r0 = m[i], r1 = m[4 + i], r2 = m[8 + i]; // column i of R = row i of Rᵀ
    out[4 * i] = r0;
    out[4 * i + 1] = r1;
    out[4 * i + 2] = r2;
    out[4 * i + 3] = -(r0 * m[3] + r1 * m[7] + r2 * m[11]);
  }
  return out as Rigid;
}

/**
 * b in a's frame, a⁻¹ ∘ b, computed as rotation Raᵀ·Rb and translation Raᵀ·(tb − ta) (the
 * difference of the translations first, which keeps far-from-origin placements accurate).
 */
export function relative(a: Rigid, b: Rigid, out: Float64Array = new Float64Array(12)): Rigid {
  const tx = b[3] - a[3], ty = b[7] - a[7], tz = b[11] - a[11];
  for (let i = 0; i < 3; i++) {
    const r0 = a[i], r1 = a[4 + i], r2 = a[8 + i];
    out[4 * i] = r0 * b[0] + r1 * b[4] + r2 * b[8];
    out[4 * i + 1] = r0 * b[1] + r1 * b[5] + r2 * b[9];
    out[4 * i + 2] = r0 * b[2] + r1 * b[6] + r2 * b[10];
    out[4 * i + 3] = r0 * tx + r1 * ty + r2 * tz;
  }
  return out as Rigid;
}

/** m applied to the point (x, y, z): R·p + t. */
export function applyPoint(m: ArrayLike<number>, x: number, y: number, z: number): [number, number, number] {
  return [
    m[0] * x + m[1] * y + m[2] * z + m[3],
    m[4] * x + m[5] * y + m[6] * z + m[7],
    m[8] * x + m[9] * y + m[10] * z + m[11],
  ];
}

/** m applied to the point (x, y, z), written to out[at..at+2] (no allocation). */
export function applyPointTo(m: ArrayLike<number>, x: number, y: number, z: number, out: Float64Array, at = 0): void {
  out[at] = m[0] * x + m[1] * y + m[2] * z + m[3];
  out[at + 1] = m[4] * x + m[5] * y + m[6] * z + m[7];
  out[at + 2] = m[8] * x + m[9] * y + m[10] * z + m[11];
}

/** m's rotation applied to the vector (x, y, z): R·v. */
export function applyVector(m: ArrayLike<number>, x: number, y: number, z: number): [number, number, number] {
  return [
    m[0] * x + m[1] * y + m[2] * z,
    m[4] * x + m[5] * y + m[6] * z,
    m[8] * x + m[9] * y + m[10] * z,
  ];
}

/** m's rotation applied to the vector (x, y, z), written to out[at..at+2] (no allocation). */
export function applyVectorTo(m: ArrayLike<number>, x: number, y: number, z: number, out: Float64Array, at = 0): void {
  out[at] = m[0] * x + m[1] * y + m[2] * z;
  out[at + 1] = m[4] * x + m[5] * y + m[6] * z;
  out[at + 2] = m[8] * x + m[9] * y + m[10] * z;
}
