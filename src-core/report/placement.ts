/**
 * A part's placement in words for the human renderings: the translation (the transform's last
 * column, mm) and the rotation as angles about the fixed X, Y and Z axes through the file's
 * origin, applied X first (R = Rz·Ry·Rx), in degrees. The JSON keeps the whole matrix.
 */

const DEG = Math.PI / 180;

/** Removes −0 and float dust far below what is shown. */
function clean(x: number): number {
  const r = Math.round(x * 1e9) / 1e9;
  return r === 0 ? 0 : r;
}

/** The translation of a row-major 4×4 transform (mm). */
export function translationOf(m: readonly number[]): [number, number, number] {
  return [clean(m[3]!), clean(m[7]!), clean(m[11]!)];
}

/**
 * The rotation of a row-major 4×4 rigid transform as X, Y, Z angles in degrees (R = Rz·Ry·Rx). Y
 * is in [−90°, 90°]; at ±90° (gimbal lock) only X ∓ Z is defined and Z is taken as 0.
 */
export function rotationAnglesOf(m: readonly number[]): [number, number, number] {
  const r00 = m[0]!, r01 = m[1]!, r10 = m[4]!, r11 = m[5]!, r20 = m[8]!, r21 = m[9]!, r22 = m[10]!;
  const sb = Math.max(-1, Math.min(1, -r20));
  const b = Math.asin(sb);
  let a: number, c: number;
  if (Math.abs(sb) < 1 - 1e-12) {
    a = Math.atan2(r21, r22);
    c = Math.atan2(r10, r00);
  } else {
    c = 0;
    a = Math.atan2(sb * r01, r11);
  }
  return [clean(a / DEG), clean(b / DEG), clean(c / DEG)];
}

/** Whether a transform is the identity (the part sits where its file places it). */
export function isIdentityTransform(m: readonly number[]): boolean {
  for (let i = 0; i < 16; i++) if (m[i] !== (i % 5 === 0 ? 1 : 0)) return false;
  return true;
}
