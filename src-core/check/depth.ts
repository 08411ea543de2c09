/**
 * How far two crossing surfaces reach into each other, for pairs without an overlap solid (a mesh
 * that is not a closed 2-manifold, so no boolean is possible).
 *
 * Two kinds of probe, all in A's frame (B mapped by the pair's relative placement):
 *  1. every vertex of a triangle in an intersecting pair that lies inside the other mesh, at its
 *     distance from that mesh's surface (the deepest vertex inside);
 *  2. a walk from each crossing: from the midpoint of the segment where triangle tA crosses
 *     triangle tB, along tA's plane perpendicular to that segment and into B (against B's outward
 *     normal), to where the ray leaves B; the walk's midpoint, if still on tA, is a point of A's
 *     surface inside B, measured the same way (and symmetrically for tB into A). This catches thin
 *     through-going overlaps where no vertex is inside: a wall passing through a 0.2 mm layer.
 * For crossing chords of two tessellated circles the walks stay within the thin lens between the
 * chords, so the depth stays at the tessellation's scale.
 *  3. for two closed parts whose surfaces only touch (faces in each other's planes, edges lying in
 *     faces — boxes overlapping with flush sides, a duplicated part), where no vertex is inside and
 *     no crossing is transversal: a point just under each touching triangle (its centre, moved
 *     into its own part by twice the floor). A point deeper than the floor in both parts proves
 *     that they share a volume; it reports its depth in the other part.
 */
import type { TriangleMesh } from '../geometry/mesh.js';
import { volumeProps } from '../geometry/meshProps.js';
import { castRay, pointInMesh, pointMeshDistance, RAY } from '../collide/proximity.js';
import { applyPointTo as apply, invert, type Rigid } from '../geometry/rigid.js';
import type { CheckPart } from './types.js';

/** At most this many crossing pairs are walked per part pair (evenly spaced). */
const MAX_WALKS = 4000;

const orientation = new WeakMap<TriangleMesh, number>();

/** +1 when the mesh's triangles face outward (positive signed volume), else −1. */
export function outwardSign(mesh: TriangleMesh): number {
  let s = orientation.get(mesh);
  if (s === undefined) {
    s = volumeProps(mesh).volume >= 0 ? 1 : -1;
    orientation.set(mesh, s);
  }
  return s;
}

const TA = new Float64Array(9);
const TB = new Float64Array(9);
const SEG = new Float64Array(6);
const TMP = new Float64Array(3);
/** Scratch of crossingSegment: a's normal, and where each triangle's edges cut the other's plane. */
const NA = new Float64Array(3);
const CUT_A = new Float64Array(6);
const CUT_B = new Float64Array(6);

/**
 * A set of vertex or triangle indices for one depth query: open addressing in one typed array
 * sized for `capacity` members (multiplicative hashing), so that adding costs no allocation.
 */
class IndexSet {
  private readonly slots: Int32Array;
  private readonly shift: number;
  private readonly mask: number;

  constructor(capacity: number) {
    let bits = 4;
    while (1 << bits < 2 * capacity) bits++;
    this.slots = new Int32Array(1 << bits).fill(-1);
    this.shift = 32 - bits;
    this.mask = (1 << bits) - 1;
  }

  has(i: number): boolean {
    const S = this.slots;
    let slot = Math.imul(i, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const w = S[slot];
      if (w === i) return true;
      if (w < 0) return false;
      slot = (slot + 1) & this.mask;
    }
  }

  /** Adds i (0 ≤ i < 2³¹); false when it was a member already. */
  add(i: number): boolean {
    const S = this.slots;
    let slot = Math.imul(i, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const w = S[slot];
      if (w === i) return false;
      if (w < 0) {
        S[slot] = i;
        return true;
      }
      slot = (slot + 1) & this.mask;
    }
  }
}

/**
 * Depth of the crossing of parts a and b, given B's placement in A's frame and their
 * intersecting triangle pairs [ia, ib, …]. Depths up to `floor` (the touch tolerance) only matter
 * as "not deeper than the floor", so the result is exact when it exceeds the floor and otherwise a
 * value at most the floor. `closed`: both parts are closed
 * solids, so that points under their surfaces can be probed (3.).
 */
export function crossingDepth(a: CheckPart, b: CheckPart, rel: Rigid, pairs: Uint32Array, floor: number, closed = false): number {
  const inv = invert(rel); // A → B
  let depth = 0;

  // 1. Vertices of crossing triangles inside the other mesh.
  const count = pairs.length / 2;
  const seenA = new IndexSet(3 * count), seenB = new IndexSet(3 * count);
  const PA = a.mesh.positions, IA = a.mesh.indices, PB = b.mesh.positions, IB = b.mesh.indices;
  for (let k = 0; k < pairs.length; k += 2) {
    for (let c = 0; c < 3; c++) {
      const va = IA[3 * pairs[k] + c];
      if (seenA.add(va)) {
        apply(inv, PA[3 * va], PA[3 * va + 1], PA[3 * va + 2], TMP, 0);
        depth = deeper(b, TMP[0], TMP[1], TMP[2], depth, floor);
      }
      const vb = IB[3 * pairs[k + 1] + c];
      if (seenB.add(vb)) {
        apply(rel, PB[3 * vb], PB[3 * vb + 1], PB[3 * vb + 2], TMP, 0);
        depth = deeper(a, TMP[0], TMP[1], TMP[2], depth, floor);
      }
    }
  }

  // 2. Walks from the crossings: one per triangle (from its first transversal crossing), which is
  // what a through-going overlap needs — every triangle of the layer's faces that a wall crosses.
  const signA = outwardSign(a.mesh), signB = outwardSign(b.mesh);
  const step = Math.max(1, Math.ceil(count / MAX_WALKS));
  const walks = Math.ceil(count / step);
  const walkedA = new IndexSet(walks), walkedB = new IndexSet(walks);
  // Pairs that touch without crossing (for probe 3).
  const touching: number[] = [];
  // Walks only look for overlaps the vertices missed: once the depth exceeds the floor, the pair
  // interferes and its depth is that of its deepest vertex.
  for (let k = 0; k < count && !(depth > floor); k += step) {
    const ia = pairs[2 * k], ib = pairs[2 * k + 1];
    const doA = !walkedA.has(ia), doB = !walkedB.has(ib);
    if (!doA && !doB) continue;
    for (let c = 0; c < 3; c++) {
      const va = 3 * IA[3 * ia + c];
      TA[3 * c] = PA[va]; TA[3 * c + 1] = PA[va + 1]; TA[3 * c + 2] = PA[va + 2];
      const vb = 3 * IB[3 * ib + c];
      apply(rel, PB[vb], PB[vb + 1], PB[vb + 2], TB, 3 * c);
    }
    if (!crossingSegment(TA, TB)) {
      touching.push(k);
      continue;
    }
    // A's triangle walking into B (measured in B's frame), then B's into A.
    if (doA) {
      walkedA.add(ia);
      depth = walk(TA, TB, signB, b, inv, ib, depth, floor);
    }
    if (doB) {
      walkedB.add(ib);
      depth = walk(TB, TA, signA, a, null, ia, depth, floor);
    }
  }

  // 3. Under the triangles of touching (not crossing) pairs of closed parts, when nothing above
  // found an overlap. Every such triangle is probed, so that the depth is the overlap's, not the
  // first probe's. (A triangle that crosses the other surface somewhere was walked above.)
  if (closed && !(depth > floor)) {
    const probedA = new IndexSet(touching.length), probedB = new IndexSet(touching.length);
    for (const k of touching) {
      const ia = pairs[2 * k], ib = pairs[2 * k + 1];
      if (probedA.add(ia)) {
        depth = underSurface(a, ia, signA, null, b, inv, depth, floor);
      }
      if (probedB.add(ib)) {
        depth = underSurface(b, ib, signB, rel, a, null, depth, floor);
      }
    }
  }
  return depth;
}

/**
 * Probe 3: the centre of triangle `tri` of `own`, moved into `own` by twice the floor (or a
 * millionth of the triangle when the floor is 0); when that point lies deeper than the floor in
 * `own` and in `other`, the larger of `depth`, its depth in `other` and the centre's own depth in
 * `other` (a face lying inside the other part). `toA` maps own's frame to A's (null: own is A);
 * `toOther` maps A's frame to other's (null: other is A).
 */
function underSurface(
  own: CheckPart, tri: number, ownSign: number, toA: Rigid | null,
  other: CheckPart, toOther: Rigid | null, depth: number, floor: number,
): number {
  const P = own.mesh.positions, I = own.mesh.indices;
  for (let c = 0; c < 3; c++) {
    const v = 3 * I[3 * tri + c];
    TA[3 * c] = P[v]; TA[3 * c + 1] = P[v + 1]; TA[3 * c + 2] = P[v + 2];
  }
  const n = normal(TA);
  if (n[0] === 0 && n[1] === 0 && n[2] === 0) return depth;
  const size = Math.max(
    Math.hypot(TA[3] - TA[0], TA[4] - TA[1], TA[5] - TA[2]),
    Math.hypot(TA[6] - TA[0], TA[7] - TA[1], TA[8] - TA[2]),
  );
  const inset = floor > 0 ? 2 * floor : 1e-6 * size;
  // Inward: against the outward normal.
  const s = -ownSign * inset;
  const qx = (TA[0] + TA[3] + TA[6]) / 3 + s * n[0];
  const qy = (TA[1] + TA[4] + TA[7]) / 3 + s * n[1];
  const qz = (TA[2] + TA[5] + TA[8]) / 3 + s * n[2];
  // Deeper than the floor in the other part (rarely: mating surfaces put it outside, or near the
  // other's surface, which the bounded distance query settles cheaply), then in its own.
  inOther(qx, qy, qz, toA, toOther);
  const under = deeper(other, TMP[0], TMP[1], TMP[2], 0, floor);
  if (!(under > floor)) return depth;
  if (pointMeshDistance(own.tree, qx, qy, qz, floor) <= floor || !pointInMesh(own.tree, qx, qy, qz)) return depth;
  inOther(qx - s * n[0], qy - s * n[1], qz - s * n[2], toA, toOther);
  const centre = deeper(other, TMP[0], TMP[1], TMP[2], 0, floor);
  return Math.max(depth, under, centre);
}

/** A point of own's frame in the other part's frame (see underSurface), into TMP. */
function inOther(x: number, y: number, z: number, toA: Rigid | null, toOther: Rigid | null): void {
  if (toA) {
    apply(toA, x, y, z, TMP, 0);
    x = TMP[0]; y = TMP[1]; z = TMP[2];
  }
  if (toOther) {
    apply(toOther, x, y, z, TMP, 0);
    x = TMP[0]; y = TMP[1]; z = TMP[2];
  }
  TMP[0] = x; TMP[1] = y; TMP[2] = z;
}

/**
 * The larger of `depth` and the depth of point p (the part's own frame) inside the part: its
 * distance to the surface if it is inside. Only depths above `floor` are measured: a probe whose
 * surface lies within the floor is settled by a distance query bounded by it, which is cheap; the
 * inside test (three rays) and the full distance run only for points farther than that.
 */
function deeper(part: CheckPart, px: number, py: number, pz: number, depth: number, floor: number): number {
  const bound = Math.max(depth, floor);
  if (pointMeshDistance(part.tree, px, py, pz, bound) <= bound) return depth;
  if (!pointInMesh(part.tree, px, py, pz)) return depth;
  return Math.max(depth, pointMeshDistance(part.tree, px, py, pz));
}

/**
 * Walks from the middle of SEG along triangle `t`'s plane, away from the segment and against the
 * other triangle's outward normal, to where the ray leaves `other`; returns the larger of `depth`
 * and the depth of the walk's midpoint inside `other` (if it is still on `t`). `toOther` maps A's
 * frame to the other part's frame (null: the other part is A).
 */
function walk(t: Float64Array, o: Float64Array, otherSign: number, other: CheckPart, toOther: Rigid | null, skip: number, depth: number, floor: number): number {
  const mx = 0.5 * (SEG[0] + SEG[3]), my = 0.5 * (SEG[1] + SEG[4]), mz = 0.5 * (SEG[2] + SEG[5]);
  let sx = SEG[3] - SEG[0], sy = SEG[4] - SEG[1], sz = SEG[5] - SEG[2];
  const sl = Math.hypot(sx, sy, sz);
  if (!(sl > 0)) return depth;
  sx /= sl; sy /= sl; sz /= sl;
  const n = normal(t), no = normal(o);
  // Direction in t's plane, perpendicular to the segment.
  let dx = n[1] * sz - n[2] * sy, dy = n[2] * sx - n[0] * sz, dz = n[0] * sy - n[1] * sx;
  const dl = Math.hypot(dx, dy, dz);
  if (!(dl > 0)) return depth;
  dx /= dl; dy /= dl; dz /= dl;
  // Into the other solid: against its outward normal.
  if ((dx * no[0] + dy * no[1] + dz * no[2]) * otherSign > 0) { dx = -dx; dy = -dy; dz = -dz; }
  // Cast in the other part's frame.
  let ox = mx, oy = my, oz = mz, rx = dx, ry = dy, rz = dz;
  if (toOther) {
    apply(toOther, mx, my, mz, TMP, 0);
    ox = TMP[0]; oy = TMP[1]; oz = TMP[2];
    rx = toOther[0] * dx + toOther[1] * dy + toOther[2] * dz;
    ry = toOther[4] * dx + toOther[5] * dy + toOther[6] * dz;
    rz = toOther[8] * dx + toOther[9] * dy + toOther[10] * dz;
  }
  const extent = Math.max(
    Math.hypot(t[3] - t[0], t[4] - t[1], t[5] - t[2]),
    Math.hypot(t[6] - t[0], t[7] - t[1], t[8] - t[2]),
    Math.hypot(t[6] - t[3], t[7] - t[4], t[8] - t[5]),
  );
  // The walk's midpoint is at most h from the crossing, so it cannot be deeper than h: a short
  // cast settles walks that leave the solid within twice the depth that matters.
  const bound = Math.max(depth, floor);
  castRay(other.tree, ox, oy, oz, rx, ry, rz, 1e-9 * extent, 2 * bound, skip);
  if (RAY.crossings > 0) return depth;
  castRay(other.tree, ox, oy, oz, rx, ry, rz, 1e-9 * extent, 2 * extent, skip);
  if (!Number.isFinite(RAY.t) || !(0.5 * RAY.t > bound)) return depth;
  const h = 0.5 * RAY.t;
  const qx = mx + h * dx, qy = my + h * dy, qz = mz + h * dz;
  if (!inTriangle(t, n, qx, qy, qz)) return depth;
  if (toOther) {
    apply(toOther, qx, qy, qz, TMP, 0);
    return deeper(other, TMP[0], TMP[1], TMP[2], depth, floor);
  }
  return deeper(other, qx, qy, qz, depth, floor);
}

const N1 = new Float64Array(3);
const N2 = new Float64Array(3);
let flip = false;

/** Unit normal of triangle t (alternating scratch so two can be held at once). */
function normal(t: Float64Array): Float64Array {
  flip = !flip;
  const out = flip ? N1 : N2;
  const ux = t[3] - t[0], uy = t[4] - t[1], uz = t[5] - t[2];
  const vx = t[6] - t[0], vy = t[7] - t[1], vz = t[8] - t[2];
  let x = uy * vz - uz * vy, y = uz * vx - ux * vz, z = ux * vy - uy * vx;
  const l = Math.hypot(x, y, z);
  if (l > 0) { x /= l; y /= l; z /= l; }
  out[0] = x; out[1] = y; out[2] = z;
  return out;
}

/** Is q (in t's plane) inside triangle t? */
function inTriangle(t: Float64Array, n: Float64Array, qx: number, qy: number, qz: number): boolean {
  for (let e = 0; e < 3; e++) {
    const p = 3 * e, r = 3 * ((e + 1) % 3);
    const ex = t[r] - t[p], ey = t[r + 1] - t[p + 1], ez = t[r + 2] - t[p + 2];
    const wx = qx - t[p], wy = qy - t[p + 1], wz = qz - t[p + 2];
    const cx = ey * wz - ez * wy, cy = ez * wx - ex * wz, cz = ex * wy - ey * wx;
    if (cx * n[0] + cy * n[1] + cz * n[2] < 0) return false;
  }
  return true;
}

/**
 * The segment where triangles a and b (9 coordinates each) cross, into SEG; false when they do not
 * cross transversally (touching, coplanar, or degenerate).
 */
function crossingSegment(a: Float64Array, b: Float64Array): boolean {
  const na = NA;
  na.set(normal(a));
  const nb = normal(b);
  // Points where a's edges cross b's plane and where b's edges cross a's plane.
  const pa = CUT_A, pb = CUT_B;
  if (planeCut(a, nb, b, pa) !== 2 || planeCut(b, na, a, pb) !== 2) return false;
  let dx = na[1] * nb[2] - na[2] * nb[1], dy = na[2] * nb[0] - na[0] * nb[2], dz = na[0] * nb[1] - na[1] * nb[0];
  const dl = Math.hypot(dx, dy, dz);
  if (!(dl > 1e-12)) return false;
  dx /= dl; dy /= dl; dz /= dl;
  const ta0 = pa[0] * dx + pa[1] * dy + pa[2] * dz, ta1 = pa[3] * dx + pa[4] * dy + pa[5] * dz;
  const tb0 = pb[0] * dx + pb[1] * dy + pb[2] * dz, tb1 = pb[3] * dx + pb[4] * dy + pb[5] * dz;
  const aLo = Math.min(ta0, ta1), aHi = Math.max(ta0, ta1), bLo = Math.min(tb0, tb1), bHi = Math.max(tb0, tb1);
  const lo = Math.max(aLo, bLo), hi = Math.min(aHi, bHi);
  if (!(hi > lo)) return false;
  // Endpoints along a's cut segment.
  const span = ta1 - ta0;
  if (span === 0) return false;
  for (let e = 0; e < 2; e++) {
    const f = ((e === 0 ? lo : hi) - ta0) / span;
    SEG[3 * e] = pa[0] + f * (pa[3] - pa[0]);
    SEG[3 * e + 1] = pa[1] + f * (pa[4] - pa[1]);
    SEG[3 * e + 2] = pa[2] + f * (pa[5] - pa[2]);
  }
  return true;
}

/** Where triangle t's edges cross the plane (n, through q's first vertex): up to 2 points into out. */
function planeCut(t: Float64Array, n: Float64Array, q: Float64Array, out: Float64Array): number {
  const d0 = (t[0] - q[0]) * n[0] + (t[1] - q[1]) * n[1] + (t[2] - q[2]) * n[2];
  const d1 = (t[3] - q[0]) * n[0] + (t[4] - q[1]) * n[1] + (t[5] - q[2]) * n[2];
  const d2 = (t[6] - q[0]) * n[0] + (t[7] - q[1]) * n[1] + (t[8] - q[2]) * n[2];
  let k = 0;
  for (let e = 0; e < 3 && k < 2; e++) {
    const i = e, j = (e + 1) % 3;
    const di = i === 0 ? d0 : i === 1 ? d1 : d2, dj = j === 0 ? d0 : j === 1 ? d1 : d2;
    if ((di < 0 && dj > 0) || (di > 0 && dj < 0)) {
      const f = di / (di - dj);
      out[3 * k] = t[3 * i] + f * (t[3 * j] - t[3 * i]);
      out[3 * k + 1] = t[3 * i + 1] + f * (t[3 * j + 1] - t[3 * i + 1]);
      out[3 * k + 2] = t[3 * i + 2] + f * (t[3 * j + 2] - t[3 * i + 2]);
      k++;
    }
  }
  return k;
}
