/**
 * Exact orientation predicates on double-precision coordinates.
 *
 * Each predicate returns a number whose SIGN is exactly the sign of the determinant evaluated on
 * the given doubles as if in infinite precision (its magnitude is only an approximation).
 *
 * The approach is Shewchuk's ("Adaptive Precision Floating-Point Arithmetic and Fast Robust
 * Geometric Predicates", 1997): evaluate in floating point and accept the sign when the value
 * exceeds a proven forward error bound (the static filter, which settles almost every call);
 * otherwise evaluate exactly with floating-point expansions (sums of non-overlapping doubles built
 * from error-free TwoSum / TwoProduct transformations). Expansions need products that neither
 * overflow nor underflow, so inputs with magnitudes outside [1e-80, 1e80] take a BigInt path that
 * is exact for every finite double.
 *
 * Conventions:
 *   orient2d(a, b, c)    = (b − a) × (c − a)             > 0 when a, b, c turn counter-clockwise
 *   orient3d(a, b, c, d) = ((b − a) × (c − a)) · (d − a) > 0 when d lies on the side of the plane
 *                          (a, b, c) that its normal (b − a) × (c − a) points to
 */

const EPS = 1.1102230246251565e-16; // 2^-53, half an ulp of 1
const SPLITTER = 134217729; // 2^27 + 1
/** Static filter bounds (Shewchuk's ccwerrboundA and o3derrboundA). */
export const CCW_ERR_A = (3 + 16 * EPS) * EPS;
export const O3D_ERR_A = (7 + 56 * EPS) * EPS;
/**
 * Absolute slack added to every filter bound: covers the absolute error (at most 2^-1075 each) of
 * products that fall into the subnormal range, so that a tiny determinant is never certified.
 */
export const FILTER_TINY = 1e-290;
/**
 * In orient3d a 2×2 minor may underflow and then be multiplied by a large coordinate difference
 * w; its absolute error 2^-1075 grows to |w| · 2^-1075, covered by (|wx| + |wy| + |wz|) ·
 * FILTER_UNDERFLOW.
 */
export const FILTER_UNDERFLOW = 1e-300;
/**
 * Expansion arithmetic is exact as long as no product or product error leaves the normal range:
 * with every nonzero input magnitude in [1e-60, 1e60], triple products of differences stay above
 * 1e-227 and their error terms above 1e-260. Other inputs take the BigInt path.
 */
const SAFE_MAX = 1e60;
const SAFE_MIN = 1e-60;

// ---------------------------------------------------------------------------------------------
// Expansion arithmetic. An expansion is a Float64Array prefix of non-overlapping components in
// increasing order of magnitude (zeros removed); its value is the exact sum of its components.

const EXP_CAP = 256;
let expA = new Float64Array(EXP_CAP);
let expB = new Float64Array(EXP_CAP);
let expLen = 0;

/** Adds the double b to the running expansion exactly (Shewchuk's Grow-Expansion, zero-eliminated). */
function grow(b: number): void {
  if (b === 0) return;
  if (expLen + 1 > expA.length) {
    const bigger = new Float64Array(expA.length * 2);
    bigger.set(expA.subarray(0, expLen));
    expA = bigger;
    expB = new Float64Array(bigger.length);
  }
  let q = b;
  let n = 0;
  for (let i = 0; i < expLen; i++) {
    const e = expA[i];
    const x = q + e;
    const bv = x - q;
    const av = x - bv;
    const lo = (q - av) + (e - bv);
    q = x;
    if (lo !== 0) expB[n++] = lo;
  }
  if (q !== 0) expB[n++] = q;
  const t = expA;
  expA = expB;
  expB = t;
  expLen = n;
}

/** Adds s·x·y·z exactly to the running expansion (s = ±1), as the four doubles of two TwoProducts. */
function growTripleProduct(s: number, x: number, y: number, z: number): void {
  // p1 + p0 = x·y exactly
  const p1 = x * y;
  let c = SPLITTER * x;
  const xhi = c - (c - x);
  const xlo = x - xhi;
  c = SPLITTER * y;
  const yhi = c - (c - y);
  const ylo = y - yhi;
  const p0 = xlo * ylo - (((p1 - xhi * yhi) - xlo * yhi) - xhi * ylo);
  // z·p1 and z·p0 exactly
  c = SPLITTER * z;
  const zhi = c - (c - z);
  const zlo = z - zhi;
  const q1 = z * p1;
  c = SPLITTER * p1;
  let hi = c - (c - p1);
  let lo = p1 - hi;
  const q0 = zlo * lo - (((q1 - zhi * hi) - zlo * hi) - zhi * lo);
  const r1 = z * p0;
  c = SPLITTER * p0;
  hi = c - (c - p0);
  lo = p0 - hi;
  const r0 = zlo * lo - (((r1 - zhi * hi) - zlo * hi) - zhi * lo);
  grow(s * q0);
  grow(s * r0);
  grow(s * q1);
  grow(s * r1);
}

/** Adds s·x·y exactly to the running expansion. */
function growProduct(s: number, x: number, y: number): void {
  const p1 = x * y;
  let c = SPLITTER * x;
  const xhi = c - (c - x);
  const xlo = x - xhi;
  c = SPLITTER * y;
  const yhi = c - (c - y);
  const ylo = y - yhi;
  const p0 = xlo * ylo - (((p1 - xhi * yhi) - xlo * yhi) - xhi * ylo);
  grow(s * p0);
  grow(s * p1);
}

/** Sign of the running expansion: the sign of its largest component. */
function expansionSign(): number {
  return expLen === 0 ? 0 : expA[expLen - 1] > 0 ? 1 : -1;
}

/** Error of the subtraction a − b (TwoDiff tail): zero exactly when a − b is representable. */
function diffTail(a: number, b: number, x: number): number {
  const bv = a - x;
  const av = x + bv;
  return (a - av) + (bv - b);
}

function inSafeRange(v: number): boolean {
  const m = Math.abs(v);
  return m === 0 || (m <= SAFE_MAX && m >= SAFE_MIN);
}

// ---------------------------------------------------------------------------------------------
// BigInt path for magnitudes outside the expansion-safe range.

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);

/** Writes v = mant · 2^exp (mant an integer) into the out-parameters. */
let decMant = 0n;
let decExp = 0;
function decompose(v: number): void {
  F64[0] = v;
  const lo = U32[0];
  const hi = U32[1];
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp: number;
  if (biased === 0) exp = -1074;
  else {
    mant |= 1n << 52n;
    exp = biased - 1075;
  }
  decMant = hi >>> 31 ? -mant : mant;
  decExp = exp;
}

/** Converts doubles to BigInts sharing one power-of-two scale. */
function toScaledBigInts(values: ArrayLike<number>): bigint[] {
  let minExp = Infinity;
  const mants: bigint[] = [];
  const exps: number[] = [];
  for (let i = 0; i < values.length; i++) {
    decompose(values[i]);
    mants.push(decMant);
    exps.push(decExp);
    if (decMant !== 0n && decExp < minExp) minExp = decExp;
  }
  if (minExp === Infinity) minExp = 0;
  return mants.map((m, i) => (m === 0n ? 0n : m << BigInt(exps[i] - minExp)));
}

function orient3dBig(v: number[]): number {
  const [ax, ay, az, bx, by, bz, cx, cy, cz, dx, dy, dz] = toScaledBigInts(v);
  const ux = bx - ax, uy = by - ay, uz = bz - az;
  const vx = cx - ax, vy = cy - ay, vz = cz - az;
  const wx = dx - ax, wy = dy - ay, wz = dz - az;
  const det = wx * (uy * vz - uz * vy) + wy * (uz * vx - ux * vz) + wz * (ux * vy - uy * vx);
  return det > 0n ? 1 : det < 0n ? -1 : 0;
}

function orient2dBig(v: number[]): number {
  const [ax, ay, bx, by, cx, cy] = toScaledBigInts(v);
  const det = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  return det > 0n ? 1 : det < 0n ? -1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Exact evaluations (called when the filter cannot decide).

/** Exact sign of orient2d. */
export function orient2dExact(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  // Points on one coordinate line: exactly collinear (common for CAD edges and faces).
  if ((ax === bx && bx === cx) || (ay === by && by === cy)) return 0;
  if (!(inSafeRange(ax) && inSafeRange(ay) && inSafeRange(bx) && inSafeRange(by) && inSafeRange(cx) && inSafeRange(cy))) {
    return orient2dBig([ax, ay, bx, by, cx, cy]);
  }
  const ux = bx - ax, uy = by - ay, vx = cx - ax, vy = cy - ay;
  expLen = 0;
  if (diffTail(bx, ax, ux) === 0 && diffTail(by, ay, uy) === 0 && diffTail(cx, ax, vx) === 0 && diffTail(cy, ay, vy) === 0) {
    // The differences are exact: the determinant is ux·vy − uy·vx.
    growProduct(1, ux, vy);
    growProduct(-1, uy, vx);
  } else {
    // det = (ax·by − bx·ay) + (bx·cy − cx·by) + (cx·ay − ax·cy)
    growProduct(1, ax, by);
    growProduct(-1, bx, ay);
    growProduct(1, bx, cy);
    growProduct(-1, cx, by);
    growProduct(1, cx, ay);
    growProduct(-1, ax, cy);
  }
  return expansionSign();
}

/** Exact sign of orient3d. */
export function orient3dExact(
  ax: number, ay: number, az: number,
  bx: number, by: number, bz: number,
  cx: number, cy: number, cz: number,
  dx: number, dy: number, dz: number,
): number {
  // Points on one coordinate plane: exactly coplanar (the faces of most CAD parts).
  if ((az === bz && bz === cz && cz === dz) || (ax === bx && bx === cx && cx === dx) || (ay === by && by === cy && cy === dy)) return 0;
  if (
    !(inSafeRange(ax) && inSafeRange(ay) && inSafeRange(az) && inSafeRange(bx) && inSafeRange(by) && inSafeRange(bz) &&
      inSafeRange(cx) && inSafeRange(cy) && inSafeRange(cz) && inSafeRange(dx) && inSafeRange(dy) && inSafeRange(dz))
  ) {
    return orient3dBig([ax, ay, az, bx, by, bz, cx, cy, cz, dx, dy, dz]);
  }
  const ux = bx - ax, uy = by - ay, uz = bz - az;
  const vx = cx - ax, vy = cy - ay, vz = cz - az;
  const wx = dx - ax, wy = dy - ay, wz = dz - az;
  expLen = 0;
  if (
    diffTail(bx, ax, ux) === 0 && diffTail(by, ay, uy) === 0 && diffTail(bz, az, uz) === 0 &&
    diffTail(cx, ax, vx) === 0 && diffTail(cy, ay, vy) === 0 && diffTail(cz, az, vz) === 0 &&
    diffTail(dx, ax, wx) === 0 && diffTail(dy, ay, wy) === 0 && diffTail(dz, az, wz) === 0
  ) {
    // Exact differences: det = w · (u × v), six triple products.
    growTripleProduct(1, wx, uy, vz);
    growTripleProduct(-1, wx, uz, vy);
    growTripleProduct(1, wy, uz, vx);
    growTripleProduct(-1, wy, ux, vz);
    growTripleProduct(1, wz, ux, vy);
    growTripleProduct(-1, wz, uy, vx);
    return expansionSign();
  }
  // General case from the raw coordinates. With the 2×2 xy-minors pq = px·qy − qx·py, the 4×4
  // determinant |x y z 1| of the rows a, b, c, d is
  //   D = az(bc − bd + cd) − bz(ac − ad + cd) + cz(ab − ad + bd) − dz(ab − ac + bc)
  // and orient3d = −D, so each minor term enters with the opposite sign.
  growTripleProduct(-1, az, bx, cy);
  growTripleProduct(1, az, cx, by);
  growTripleProduct(1, az, bx, dy);
  growTripleProduct(-1, az, dx, by);
  growTripleProduct(-1, az, cx, dy);
  growTripleProduct(1, az, dx, cy);
  growTripleProduct(1, bz, ax, cy);
  growTripleProduct(-1, bz, cx, ay);
  growTripleProduct(-1, bz, ax, dy);
  growTripleProduct(1, bz, dx, ay);
  growTripleProduct(1, bz, cx, dy);
  growTripleProduct(-1, bz, dx, cy);
  growTripleProduct(-1, cz, ax, by);
  growTripleProduct(1, cz, bx, ay);
  growTripleProduct(1, cz, ax, dy);
  growTripleProduct(-1, cz, dx, ay);
  growTripleProduct(-1, cz, bx, dy);
  growTripleProduct(1, cz, dx, by);
  growTripleProduct(1, dz, ax, by);
  growTripleProduct(-1, dz, bx, ay);
  growTripleProduct(-1, dz, ax, cy);
  growTripleProduct(1, dz, cx, ay);
  growTripleProduct(1, dz, bx, cy);
  growTripleProduct(-1, dz, cx, by);
  return expansionSign();
}

// ---------------------------------------------------------------------------------------------
// Filtered predicates.

/** orient2d with an exact sign (see the file comment). */
export function orient2d(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const l = (bx - ax) * (cy - ay);
  const r = (by - ay) * (cx - ax);
  const det = l - r;
  const bound = CCW_ERR_A * (Math.abs(l) + Math.abs(r)) + FILTER_TINY;
  if (det > bound || -det > bound) return det;
  return orient2dExact(ax, ay, bx, by, cx, cy);
}

/**
 * Whether orient2d's floating-point filter alone certifies a non-zero sign (no exact evaluation):
 * a cheap first look where most points are known to be off the line.
 */
export function orient2dCertainlyNonzero(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean {
  const l = (bx - ax) * (cy - ay);
  const r = (by - ay) * (cx - ax);
  const det = l - r;
  return Math.abs(det) > CCW_ERR_A * (Math.abs(l) + Math.abs(r)) + FILTER_TINY;
}

/** orient3d with an exact sign (see the file comment). */
export function orient3d(
  ax: number, ay: number, az: number,
  bx: number, by: number, bz: number,
  cx: number, cy: number, cz: number,
  dx: number, dy: number, dz: number,
): number {
  const ux = bx - ax, uy = by - ay, uz = bz - az;
  const vx = cx - ax, vy = cy - ay, vz = cz - az;
  const wx = dx - ax, wy = dy - ay, wz = dz - az;
  const m0a = uy * vz, m0b = uz * vy;
  const m1a = uz * vx, m1b = ux * vz;
  const m2a = ux * vy, m2b = uy * vx;
  const det = wx * (m0a - m0b) + wy * (m1a - m1b) + wz * (m2a - m2b);
  const awx = Math.abs(wx), awy = Math.abs(wy), awz = Math.abs(wz);
  const perm = awx * (Math.abs(m0a) + Math.abs(m0b)) + awy * (Math.abs(m1a) + Math.abs(m1b)) + awz * (Math.abs(m2a) + Math.abs(m2b));
  const bound = O3D_ERR_A * perm + (awx + awy + awz) * FILTER_UNDERFLOW + FILTER_TINY;
  if (det > bound || -det > bound) return det;
  return orient3dExact(ax, ay, az, bx, by, bz, cx, cy, cz, dx, dy, dz);
}
