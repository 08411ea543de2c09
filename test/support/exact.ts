/**
 * Exact, slow reference implementations of the geometric predicates used by the engine.
 *
 * Every finite double is a dyadic rational m·2^e with an integer m. A set of coordinates is turned
 * into BigInt integers sharing one power-of-two scale (the smallest exponent in the set), and every
 * predicate below is then evaluated in integer arithmetic, with no rounding at any step. Signs of
 * polynomials that are homogeneous in the coordinates do not change under a positive common scale,
 * so the answers are exact for the original doubles, including subnormals and values like 1e300.
 *
 * These functions are an oracle for tests: they favour obvious correctness over speed.
 */

const view = new DataView(new ArrayBuffer(8));

/** A dyadic rational `m · 2^e`; `m` is odd, or zero (then `e` is 0). */
export interface Dyadic {
  readonly m: bigint;
  readonly e: number;
}

/** Exact decomposition of a finite double into `m · 2^e` with `m` odd (or zero). */
export function decomposeDouble(x: number): Dyadic {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite double: ${x}`);
  if (x === 0) return { m: 0n, e: 0 };
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const negative = hi >>> 31 === 1;
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (biased === 0) {
    e = -1074; // subnormal: no hidden bit
  } else {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  while ((m & 1n) === 0n) {
    m >>= 1n;
    e++;
  }
  return { m: negative ? -m : m, e };
}

/**
 * Exact integer images of a list of doubles: `xs[i] === ints[i] · 2^exp` for every i, where `exp`
 * is the smallest exponent among the non-zero inputs (0 when all are zero).
 */
export function toScaledIntegers(xs: ArrayLike<number>): { ints: bigint[]; exp: number } {
  const parts: Dyadic[] = [];
  let exp = Infinity;
  for (let i = 0; i < xs.length; i++) {
    const d = decomposeDouble(xs[i] as number);
    parts.push(d);
    if (d.m !== 0n && d.e < exp) exp = d.e;
  }
  if (exp === Infinity) exp = 0;
  const ints = parts.map((d) => (d.m === 0n ? 0n : d.m << BigInt(d.e - exp)));
  return { ints, exp };
}

/** Sign of a BigInt as -1, 0 or 1. */
export function signOf(x: bigint): -1 | 0 | 1 {
  return x > 0n ? 1 : x < 0n ? -1 : 0;
}

/** Sign of the z component of (b − a) × (c − a): positive when a, b, c turn counter-clockwise. */
export function orient2dExact(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): -1 | 0 | 1 {
  const [Ax, Ay, Bx, By, Cx, Cy] = toScaledIntegers([ax, ay, bx, by, cx, cy]).ints as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  return signOf((Bx - Ax) * (Cy - Ay) - (By - Ay) * (Cx - Ax));
}

/** Sign of ((b − a) × (c − a)) · (d − a): positive when d lies on the side the normal of a, b, c points to. */
export function orient3dExact(
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  cx: number,
  cy: number,
  cz: number,
  dx: number,
  dy: number,
  dz: number,
): -1 | 0 | 1 {
  const v = toScaledIntegers([ax, ay, az, bx, by, bz, cx, cy, cz, dx, dy, dz]).ints;
  const a = pointAt(v, 0);
  const n = cross(sub(pointAt(v, 3), a), sub(pointAt(v, 6), a));
  return signOf(dot(n, sub(pointAt(v, 9), a)));
}

// ---------------------------------------------------------------------------------------------
// Integer vector helpers.

type V3 = readonly [bigint, bigint, bigint];

function pointAt(v: readonly bigint[], i: number): V3 {
  return [v[i] as bigint, v[i + 1] as bigint, v[i + 2] as bigint];
}

function sub(a: V3, b: V3): V3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

function cross(a: V3, b: V3): V3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function dot(a: V3, b: V3): bigint {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function isZero(a: V3): boolean {
  return a[0] === 0n && a[1] === 0n && a[2] === 0n;
}

/** True when the direction `d` strictly separates the point sets `P` and `Q`. */
function separates(d: V3, P: readonly V3[], Q: readonly V3[]): boolean {
  let minP = dot(d, P[0] as V3);
  let maxP = minP;
  for (let i = 1; i < P.length; i++) {
    const s = dot(d, P[i] as V3);
    if (s < minP) minP = s;
    if (s > maxP) maxP = s;
  }
  let minQ = dot(d, Q[0] as V3);
  let maxQ = minQ;
  for (let i = 1; i < Q.length; i++) {
    const s = dot(d, Q[i] as V3);
    if (s < minQ) minQ = s;
    if (s > maxQ) maxQ = s;
  }
  return maxP < minQ || maxQ < minP;
}

const EDGES: readonly (readonly [number, number])[] = [
  [0, 1],
  [1, 2],
  [2, 0],
];

/**
 * Do the convex hulls of two point sets of at most three points each share a point?
 *
 * Completeness of the candidate directions. Two compact convex sets A and B are disjoint iff the
 * vector d = b − a between a closest pair (a ∈ A, b ∈ B) is non-zero, and then d strictly separates
 * them: max over A of d·x = d·a < d·b = min over B of d·x. Let F be the face of A (vertex, edge, or
 * the triangle itself) holding a in its relative interior, and G likewise for b. Since a is the
 * closest point of F to b and lies inside F relative to aff(F), d is orthogonal to every direction
 * of F; likewise d is orthogonal to every direction of G. Hence, up to a non-zero factor:
 *   - F, G vertices:               d = q_j − p_i;
 *   - a vertex v against an edge e = b − a (either way round): d is the part of v − a orthogonal to
 *     e, which is e × ((v − a) × e) / |e|²;
 *   - two edges e, f: if e × f ≠ 0, d ∥ e × f; if they are parallel, d is the part of (any vertex of
 *     f) − a orthogonal to e, the vertex–edge candidate again;
 *   - anything against a non-degenerate triangle's interior: d ∥ that triangle's normal.
 * A degenerate triangle (collinear or repeated vertices) is a segment or a point; its faces are
 * among its vertices and the segments between pairs of its vertices, which the three "edges"
 * (including zero-length ones, which yield zero candidates and whose interiors are vertices)
 * already cover, and its zero normal is then not needed. So if A and B are disjoint, some candidate
 * separates them strictly; and any strictly separating direction proves disjointness. The
 * coordinate axes are added first only as a cheap early exit; extra directions cannot make the
 * test wrong.
 */
function hullsIntersect(P: readonly V3[], Q: readonly V3[]): boolean {
  const candidates: V3[] = [
    [1n, 0n, 0n],
    [0n, 1n, 0n],
    [0n, 0n, 1n],
  ];
  const edgesOf = (T: readonly V3[]): { a: V3; e: V3 }[] =>
    EDGES.map(([i, j]) => ({ a: T[i] as V3, e: sub(T[j] as V3, T[i] as V3) }));
  const eP = edgesOf(P);
  const eQ = edgesOf(Q);
  // Face normals (vertex–face, edge–face, face–face).
  for (const E of [eP, eQ]) candidates.push(cross((E[0] as { e: V3 }).e, (E[1] as { e: V3 }).e));
  // Edge–edge, non-parallel.
  for (const f of eP) for (const g of eQ) candidates.push(cross(f.e, g.e));
  // Vertex–edge (and parallel edge–edge).
  for (const [E, other] of [
    [eP, Q],
    [eQ, P],
  ] as const) {
    for (const { a, e } of E) for (const v of other) candidates.push(cross(e, cross(sub(v, a), e)));
  }
  // Vertex–vertex.
  for (const p of P) for (const q of Q) candidates.push(sub(q, p));

  for (const d of candidates) {
    if (isZero(d)) continue;
    if (separates(d, P, Q)) return false;
  }
  return true;
}

function pointsOf(ints: readonly bigint[], start: number, count: number): V3[] {
  const out: V3[] = [];
  for (let k = 0; k < count; k++) out.push(pointAt(ints, start + 3 * k));
  return out;
}

function checkLength(xs: ArrayLike<number>, n: number, what: string): void {
  if (xs.length !== n) throw new RangeError(`${what}: expected ${n} numbers, got ${xs.length}`);
}

/**
 * Do the two closed triangles `t1` = (p, q, r) and `t2` share at least one point? Each argument
 * holds 9 numbers (x, y, z of three vertices). Degenerate triangles (segments, points) are allowed;
 * touching in a single point counts as intersecting.
 */
export function triTriIntersectExact(t1: ArrayLike<number>, t2: ArrayLike<number>): boolean {
  checkLength(t1, 9, 'triTriIntersectExact t1');
  checkLength(t2, 9, 'triTriIntersectExact t2');
  const all: number[] = [];
  for (let i = 0; i < 9; i++) all.push(t1[i] as number);
  for (let i = 0; i < 9; i++) all.push(t2[i] as number);
  const { ints } = toScaledIntegers(all);
  return hullsIntersect(pointsOf(ints, 0, 3), pointsOf(ints, 9, 3));
}

/** Does the closed segment `s` (6 numbers: two endpoints) meet the closed triangle `t` (9 numbers)? */
export function segTriIntersectExact(s: ArrayLike<number>, t: ArrayLike<number>): boolean {
  checkLength(s, 6, 'segTriIntersectExact s');
  checkLength(t, 9, 'segTriIntersectExact t');
  return triTriIntersectExact([s[0], s[1], s[2], s[3], s[4], s[5], s[3], s[4], s[5]] as number[], t);
}

/** Does the point `p` (3 numbers) lie on the closed triangle `t` (9 numbers)? */
export function pointTriIntersectExact(p: ArrayLike<number>, t: ArrayLike<number>): boolean {
  checkLength(p, 3, 'pointTriIntersectExact p');
  const [x, y, z] = [p[0], p[1], p[2]] as number[];
  return triTriIntersectExact([x, y, z, x, y, z, x, y, z] as number[], t);
}

// ---------------------------------------------------------------------------------------------
// Formatting helpers for precise failure reports.

/** C99-style hexadecimal form of a double, e.g. `0x1.8p+1` for 3; round-trips exactly. */
export function hexFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const sign = hi >>> 31 === 1 ? '-' : '';
  const biased = (hi >>> 20) & 0x7ff;
  const frac = ((BigInt(hi & 0xfffff) << 32n) | BigInt(lo)).toString(16).padStart(13, '0').replace(/0+$/, '');
  if (biased === 0 && frac === '') return `${sign}0x0p+0`;
  const lead = biased === 0 ? '0' : '1';
  const exp = biased === 0 ? -1022 : biased - 1023;
  return `${sign}0x${lead}${frac === '' ? '' : `.${frac}`}p${exp >= 0 ? '+' : ''}${exp}`;
}

/** Shortest round-trip decimal of a double, keeping the sign of zero. */
export function decimalFloat(x: number): string {
  return Object.is(x, -0) ? '-0' : String(x);
}

/** A triangle as `[x, y, z, …]` in shortest decimal and in hex, for failure messages. */
export function formatTriangle(t: ArrayLike<number>): string {
  const xs = Array.from({ length: t.length }, (_, i) => t[i] as number);
  return `[${xs.map(decimalFloat).join(', ')}] (hex [${xs.map(hexFloat).join(', ')}])`;
}
