/**
 * Placements of parts as plain numbers (no three): row-major 4×4 rigid transforms as the host
 * sends them (`PartInfo.transform`, body → world, millimetres), and the fields the placement
 * panel shows for them.
 *
 * The panel's convention:
 *  - **Offset X/Y/Z (mm)**: how far the part's centre (the centre of its body's bounds) has moved
 *    from where its file puts it, along the world axes. A file's own placement shows 0 0 0.
 *  - **Rotation X/Y/Z (°)**: the part's orientation relative to its file, as Euler angles about
 *    the fixed world axes, applied in the order X, then Y, then Z (R = Rz·Ry·Rx), about the part's
 *    centre — so editing an angle turns the part where it stands instead of swinging it around
 *    the world origin.
 * With pivot c (body frame), offset d and rotation R the transform is x ↦ R·(x − c) + c + d.
 *
 * Points are placed with src-core/geometry/rigid.ts, whose row-major 3×4 layout is the first 12
 * numbers of these 4×4s.
 */
import { applyPoint } from '../../src-core/geometry/rigid';


/** Row-major 4×4 rigid transform (last row 0 0 0 1). */
export type Transform = readonly number[];
export type Vec3 = readonly [number, number, number];

/** An axis-aligned box, millimetres. */
export interface Aabb {
  readonly min: Vec3;
  readonly max: Vec3;
}

export const IDENTITY_TRANSFORM: Transform = Object.freeze([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

const DEG = Math.PI / 180;

/** Whether two transforms agree to within `eps` in every entry. */
export function sameTransform(a: Transform, b: Transform, eps = 1e-9): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!(Math.abs(a[i] - b[i]) <= eps)) return false;
  return true;
}

// ------------------------------------------------------------------------------------------------
// Euler angles

/** Row-major 3×3 rotation R = Rz(z)·Ry(y)·Rx(x), angles in degrees (about the fixed world axes, X first). */
export function rotationFromEulerDeg(angles: Vec3): number[] {
  const [a, b, c] = [angles[0] * DEG, angles[1] * DEG, angles[2] * DEG];
  const ca = Math.cos(a), sa = Math.sin(a), cb = Math.cos(b), sb = Math.sin(b), cc = Math.cos(c), sc = Math.sin(c);
  return [
    cc * cb, cc * sb * sa - sc * ca, cc * sb * ca + sc * sa,
    sc * cb, sc * sb * sa + cc * ca, sc * sb * ca - cc * sa,
    -sb, cb * sa, cb * ca,
  ];
}

/**
 * The Euler angles (degrees, see rotationFromEulerDeg) of a row-major 3×3 rotation. Y is in
 * [−90°, 90°]; at ±90° (gimbal lock) only X ∓ Z is defined and Z is taken as 0.
 */
export function eulerDegFromRotation(r: readonly number[]): [number, number, number] {
  const sb = Math.max(-1, Math.min(1, -r[6]));
  const b = Math.asin(sb);
  let a: number, c: number;
  if (Math.abs(sb) < 1 - 1e-12) {
    a = Math.atan2(r[7], r[8]);
    c = Math.atan2(r[3], r[0]);
  } else {
    // cos(y) = 0: r[1] = sin(x)·sin(y)·cos(z) − sin(z)·cos(x), r[4] = sin(z)·sin(y)·sin(x) + cos(z)·cos(x); with z = 0.
    c = 0;
    a = Math.atan2(sb * r[1], r[4]);
  }
  return [clean(a / DEG), clean(b / DEG), clean(c / DEG)];
}

/** Removes −0 and float dust far below what the fields show. */
function clean(x: number): number {
  const r = Math.round(x * 1e9) / 1e9;
  return r === 0 ? 0 : r;
}

function rotationOf(m: Transform): number[] {
  return [m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]];
}

function rotate(r: readonly number[], p: Vec3): [number, number, number] {
  return [r[0] * p[0] + r[1] * p[1] + r[2] * p[2], r[3] * p[0] + r[4] * p[1] + r[5] * p[2], r[6] * p[0] + r[7] * p[1] + r[8] * p[2]];
}

// ------------------------------------------------------------------------------------------------
// The placement panel's fields

export interface PlacementFields {
  /** Offset of the part's centre from its place in the file, mm. */
  readonly offset: Vec3;
  /** Euler angles about the world axes, X then Y then Z, about the part's centre, degrees. */
  readonly rotationDeg: Vec3;
}

/** The fields of a transform, for a part whose centre is `pivot` in its body's frame. */
export function placementFields(m: Transform, pivot: Vec3): PlacementFields {
  const r = rotationOf(m);
  const rc = rotate(r, pivot);
  return {
    offset: [clean(rc[0] + m[3] - pivot[0]), clean(rc[1] + m[7] - pivot[1]), clean(rc[2] + m[11] - pivot[2])],
    rotationDeg: eulerDegFromRotation(r),
  };
}

/** The transform of fields (the inverse of placementFields). */
export function transformFromFields(fields: PlacementFields, pivot: Vec3): number[] {
  const r = rotationFromEulerDeg(fields.rotationDeg);
  const rc = rotate(r, pivot);
  const t = [pivot[0] + fields.offset[0] - rc[0], pivot[1] + fields.offset[1] - rc[1], pivot[2] + fields.offset[2] - rc[2]];
  return [r[0], r[1], r[2], t[0], r[3], r[4], r[5], t[1], r[6], r[7], r[8], t[2], 0, 0, 0, 1];
}

export type PlacementAxis = 0 | 1 | 2;

/** A transform with one field changed: an offset (mm) or an angle (degrees) along/about axis. */
export function withPlacementField(m: Transform, pivot: Vec3, field: 'offset' | 'rotation', axis: PlacementAxis, value: number): number[] {
  const f = placementFields(m, pivot);
  const offset: [number, number, number] = [f.offset[0], f.offset[1], f.offset[2]];
  const rotationDeg: [number, number, number] = [f.rotationDeg[0], f.rotationDeg[1], f.rotationDeg[2]];
  if (field === 'offset') offset[axis] = value;
  else rotationDeg[axis] = value;
  const next = transformFromFields({ offset, rotationDeg }, pivot);
  // Fields the user did not touch keep their exact values (the round trip is exact to ~1e-12).
  if (field === 'offset') {
    const r = rotationOf(m);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) next[4 * i + j] = r[3 * i + j];
    const rc = rotate(r, pivot);
    next[3] = pivot[0] + offset[0] - rc[0];
    next[7] = pivot[1] + offset[1] - rc[1];
    next[11] = pivot[2] + offset[2] - rc[2];
  }
  return next;
}

// ------------------------------------------------------------------------------------------------
// Boxes

export function aabbCenter(box: Aabb): [number, number, number] {
  return [(box.min[0] + box.max[0]) / 2, (box.min[1] + box.max[1]) / 2, (box.min[2] + box.max[2]) / 2];
}

/** The 8 corners of a box. */
export function aabbCorners(box: Aabb): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let i = 0; i < 8; i++) out.push([i & 1 ? box.max[0] : box.min[0], i & 2 ? box.max[1] : box.min[1], i & 4 ? box.max[2] : box.min[2]]);
  return out;
}

/** The world box around a body box placed by m. */
export function transformAabb(box: Aabb, m: Transform): Aabb {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const c of aabbCorners(box)) {
    const p = applyPoint(m, c[0], c[1], c[2]);
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], p[k]);
      max[k] = Math.max(max[k], p[k]);
    }
  }
  return { min: [min[0], min[1], min[2]], max: [max[0], max[1], max[2]] };
}

/** The gap between two boxes (0 when they overlap or touch). */
export function aabbGap(a: Aabb, b: Aabb): number {
  let s = 0;
  for (let k = 0; k < 3; k++) {
    const d = Math.max(0, a.min[k] - b.max[k], b.min[k] - a.max[k]);
    s += d * d;
  }
  return Math.sqrt(s);
}

/** The length of a box's diagonal. */
export function aabbDiagonal(box: Aabb): number {
  return Math.hypot(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]);
}

// ------------------------------------------------------------------------------------------------
// Motion between placements

/**
 * How each corner of a body box moves from placement `from` to placement `to`: 24 numbers (the
 * world displacement of the 8 corners). A motion's direction and size, translations and rotations
 * alike, in millimetres.
 */
export function cornerMotion(from: Transform, to: Transform, box: Aabb): number[] {
  const out: number[] = [];
  for (const c of aabbCorners(box)) {
    const p = applyPoint(from, c[0], c[1], c[2]);
    const q = applyPoint(to, c[0], c[1], c[2]);
    out.push(q[0] - p[0], q[1] - p[1], q[2] - p[2]);
  }
  return out;
}

/** The largest distance a corner of the box moves between two placements, mm. */
export function largestMotion(from: Transform, to: Transform, box: Aabb): number {
  const d = cornerMotion(from, to, box);
  let m = 0;
  for (let i = 0; i < d.length; i += 3) m = Math.max(m, Math.hypot(d[i], d[i + 1], d[i + 2]));
  return m;
}

export function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

type Quat = [number, number, number, number];

/** Unit quaternion (x, y, z, w) of a row-major 3×3 rotation. */
function quatFromRotation(r: readonly number[]): Quat {
  const trace = r[0] + r[4] + r[8];
  let q: Quat;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    q = [(r[7] - r[5]) * s, (r[2] - r[6]) * s, (r[3] - r[1]) * s, 0.25 / s];
  } else if (r[0] > r[4] && r[0] > r[8]) {
    const s = 2 * Math.sqrt(1 + r[0] - r[4] - r[8]);
    q = [0.25 * s, (r[1] + r[3]) / s, (r[2] + r[6]) / s, (r[7] - r[5]) / s];
  } else if (r[4] > r[8]) {
    const s = 2 * Math.sqrt(1 + r[4] - r[0] - r[8]);
    q = [(r[1] + r[3]) / s, 0.25 * s, (r[5] + r[7]) / s, (r[2] - r[6]) / s];
  } else {
    const s = 2 * Math.sqrt(1 + r[8] - r[0] - r[4]);
    q = [(r[2] + r[6]) / s, (r[5] + r[7]) / s, 0.25 * s, (r[3] - r[1]) / s];
  }
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

function rotationFromQuat(q: Quat): number[] {
  const [x, y, z, w] = q;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
    2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
    2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y),
  ];
}

function slerp(a: Quat, b: Quat, f: number): Quat {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const bb: Quat = d < 0 ? [-b[0], -b[1], -b[2], -b[3]] : [b[0], b[1], b[2], b[3]];
  d = Math.abs(d);
  if (d > 0.9995) {
    const q: Quat = [a[0] + f * (bb[0] - a[0]), a[1] + f * (bb[1] - a[1]), a[2] + f * (bb[2] - a[2]), a[3] + f * (bb[3] - a[3])];
    const n = Math.hypot(q[0], q[1], q[2], q[3]);
    return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
  }
  const theta = Math.acos(d);
  const s = Math.sin(theta);
  const wa = Math.sin((1 - f) * theta) / s, wb = Math.sin(f * theta) / s;
  return [wa * a[0] + wb * bb[0], wa * a[1] + wb * bb[1], wa * a[2] + wb * bb[2], wa * a[3] + wb * bb[3]];
}

/**
 * The placement a fraction `f` of the way from `a` to `b`, the part turning about `pivot` (its
 * centre, body frame): the centre moves in a straight line, the orientation turns at an even rate.
 */
export function interpolatePlacement(a: Transform, b: Transform, f: number, pivot: Vec3): number[] {
  const ca = applyPoint(a, pivot[0], pivot[1], pivot[2]), cb = applyPoint(b, pivot[0], pivot[1], pivot[2]);
  const r = rotationFromQuat(slerp(quatFromRotation(rotationOf(a)), quatFromRotation(rotationOf(b)), f));
  const c = [ca[0] + f * (cb[0] - ca[0]), ca[1] + f * (cb[1] - ca[1]), ca[2] + f * (cb[2] - ca[2])];
  const rp = rotate(r, pivot);
  return [r[0], r[1], r[2], c[0] - rp[0], r[3], r[4], r[5], c[1] - rp[1], r[6], r[7], r[8], c[2] - rp[2], 0, 0, 0, 1];
}
