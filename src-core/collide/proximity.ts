/**
 * Metric queries on OBB trees: minimum distance between two placed meshes, distance from a point
 * to a mesh, the first hit of a ray, and whether a point is inside a closed mesh.
 *
 * Distances are floating-point figures (clearances, penetration depths), not topological
 * decisions; whether triangles intersect is decided exactly by collide.ts. The traversals prune
 * with lower bounds (box gaps along the boxes' face axes, which never exceed the true distance)
 * against the best distance found so far, nearer children first.
 */
import { CLOSEST, pointTriangleDistance2, triangleDistance2 } from '../geometry/triDistance.js';
import { triTriIntersect } from '../geometry/triTri.js';
import { OBB_STRIDE, obbAxes, type ObbTree } from '../obbtree/layout.js';
import type { Rigid } from '../geometry/rigid.js';
import { assertLiveTree, KernelMemoryError, queryKernel } from '../kernel/kernel.js';
import { activeQueryKernel } from './collide.js';

/**
 * The kernel that runs the point and ray probes (as/probe.ts: the same arithmetic in the same
 * order, so the same answers), or null for the TypeScript ones below: where there is no kernel,
 * when the TypeScript kernel is chosen (setQueryKernel), or when the kernel's memory is full.
 */
function probeKernel(): ReturnType<typeof queryKernel> {
  return activeQueryKernel() === 'wasm' ? queryKernel() : null;
}

/** B → A, in the layout of geometry/rigid.ts (row-major 3×4). */
const M = new Float64Array(12);
let stack = new Int32Array(256);
const TA = new Float64Array(9);
const TB = new Float64Array(9);
/** A box's three axes (obbAxes), for the box tests below. */
const AX = new Float64Array(9);
const BX = new Float64Array(9);

function growStack(): void {
  const s = new Int32Array(stack.length * 2);
  s.set(stack);
  stack = s;
}

export interface DistanceResult {
  /** Minimum distance between the two meshes (≥ 0). */
  readonly distance: number;
  /** Closest point on A and on B, in A's frame. */
  readonly pointA: [number, number, number];
  readonly pointB: [number, number, number];
  /** The triangles (original indices) the closest points lie on. */
  readonly triangleA: number;
  readonly triangleB: number;
}

/**
 * Lower bound of the distance between A's box i and B's box j (B mapped by M): the largest gap
 * along the six face axes (0 when they overlap on every one).
 */
function boxGap(AB: Float64Array, BB: Float64Array, i: number, j: number): number {
  const o = i * OBB_STRIDE, ob = j * OBB_STRIDE;
  // B's centre and axes in A's frame.
  const x = BB[ob], y = BB[ob + 1], z = BB[ob + 2];
  const cx = M[0] * x + M[1] * y + M[2] * z + M[3];
  const cy = M[4] * x + M[5] * y + M[6] * z + M[7];
  const cz = M[8] * x + M[9] * y + M[10] * z + M[11];
  const dx = cx - AB[o], dy = cy - AB[o + 1], dz = cz - AB[o + 2];
  const a0 = AB[o + 3], a1 = AB[o + 4], a2 = AB[o + 5];
  const b0 = BB[ob + 3], b1 = BB[ob + 4], b2 = BB[ob + 5];
  let gap = 0;
  // R[i][k] = A axis i · (M_R · B axis k)
  const A = AX, E = TB;
  obbAxes(AB, o, A);
  obbAxes(BB, ob, BX);
  for (let k = 0; k < 3; k++) {
    const ex = BX[3 * k], ey = BX[3 * k + 1], ez = BX[3 * k + 2];
    E[3 * k] = M[0] * ex + M[1] * ey + M[2] * ez;
    E[3 * k + 1] = M[4] * ex + M[5] * ey + M[6] * ez;
    E[3 * k + 2] = M[8] * ex + M[9] * ey + M[10] * ez;
  }
  const R = TA;
  const T0 = A[0] * dx + A[1] * dy + A[2] * dz;
  const T1 = A[3] * dx + A[4] * dy + A[5] * dz;
  const T2 = A[6] * dx + A[7] * dy + A[8] * dz;
  for (let r = 0; r < 3; r++) {
    const ux = A[3 * r], uy = A[3 * r + 1], uz = A[3 * r + 2];
    for (let k = 0; k < 3; k++) R[3 * r + k] = Math.abs(ux * E[3 * k] + uy * E[3 * k + 1] + uz * E[3 * k + 2]);
  }
  gap = Math.max(gap, Math.abs(T0) - a0 - b0 * R[0] - b1 * R[1] - b2 * R[2]);
  gap = Math.max(gap, Math.abs(T1) - a1 - b0 * R[3] - b1 * R[4] - b2 * R[5]);
  gap = Math.max(gap, Math.abs(T2) - a2 - b0 * R[6] - b1 * R[7] - b2 * R[8]);
  for (let k = 0; k < 3; k++) {
    const t = Math.abs(T0 * (A[0] * E[3 * k] + A[1] * E[3 * k + 1] + A[2] * E[3 * k + 2]) +
      T1 * (A[3] * E[3 * k] + A[4] * E[3 * k + 1] + A[5] * E[3 * k + 2]) +
      T2 * (A[6] * E[3 * k] + A[7] * E[3 * k + 1] + A[8] * E[3 * k + 2]));
    const rb = k === 0 ? b0 : k === 1 ? b1 : b2;
    gap = Math.max(gap, t - a0 * R[k] - a1 * R[3 + k] - a2 * R[6 + k] - rb);
  }
  return gap;
}

/**
 * Minimum distance between mesh A and mesh B placed in A's frame by `transform`, or null when it
 * exceeds `maxDistance` (default: unbounded). Meshes that intersect have distance 0.
 */
export function minDistance(a: ObbTree, b: ObbTree, transform: Rigid, maxDistance = Infinity): DistanceResult | null {
  assertLiveTree(a);
  assertLiveTree(b);
  M.set(transform);
  const AB = a.boxes, BB = b.boxes, NA = a.nodes, NB = b.nodes;
  const PA = a.positions, PB = b.positions, TVA = a.triVerts, TVB = b.triVerts;
  let best = maxDistance;
  let best2 = maxDistance * maxDistance;
  let found = false;
  let triA = -1, triB = -1;
  const P = new Float64Array(6);
  let sp = 0;
  stack[sp++] = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const j = stack[--sp];
    const i = stack[--sp];
    if (boxGap(AB, BB, i, j) > best) continue;
    const aCount = NA[2 * i + 1], bCount = NB[2 * j + 1];
    if (aCount > 0 && bCount > 0) {
      const aFirst = NA[2 * i], bFirst = NB[2 * j];
      for (let s = aFirst; s < aFirst + aCount; s++) {
        for (let k = 0; k < 3; k++) {
          const v = 3 * TVA[3 * s + k];
          TA[3 * k] = PA[v]; TA[3 * k + 1] = PA[v + 1]; TA[3 * k + 2] = PA[v + 2];
        }
        for (let t = bFirst; t < bFirst + bCount; t++) {
          for (let k = 0; k < 3; k++) {
            const v = 3 * TVB[3 * t + k];
            const x = PB[v], y = PB[v + 1], z = PB[v + 2];
            TB[3 * k] = M[0] * x + M[1] * y + M[2] * z + M[3];
            TB[3 * k + 1] = M[4] * x + M[5] * y + M[6] * z + M[7];
            TB[3 * k + 2] = M[8] * x + M[9] * y + M[10] * z + M[11];
          }
          let d2 = triangleDistance2(TA, 0, TB, 0);
          if (d2 <= best2 && triTriIntersect(TA, 0, 3, 6, TB, 0, 3, 6)) {
            // Crossing triangles: distance 0 at a point of both (the closest points found are
            // within rounding of it).
            d2 = 0;
            CLOSEST[3] = CLOSEST[0]; CLOSEST[4] = CLOSEST[1]; CLOSEST[5] = CLOSEST[2];
          }
          if (d2 <= best2) {
            best2 = d2;
            best = Math.sqrt(d2);
            P.set(CLOSEST);
            triA = a.triOrder[s];
            triB = b.triOrder[t];
            found = true;
          }
        }
      }
      continue;
    }
    if (sp + 4 > stack.length) growStack();
    if (aCount > 0 || (bCount === 0 && BB[j * OBB_STRIDE + 3] > AB[i * OBB_STRIDE + 3])) {
      stack[sp++] = i; stack[sp++] = NB[2 * j];
      stack[sp++] = i; stack[sp++] = j + 1;
    } else {
      stack[sp++] = NA[2 * i]; stack[sp++] = j;
      stack[sp++] = i + 1; stack[sp++] = j;
    }
  }
  if (!found) return null;
  return { distance: best, pointA: [P[0], P[1], P[2]], pointB: [P[3], P[4], P[5]], triangleA: triA, triangleB: triB };
}

/** Distance from a point (in the mesh's frame) to the box of node i: 0 inside. */
function pointBoxDistance(B: Float64Array, i: number, px: number, py: number, pz: number): number {
  const o = i * OBB_STRIDE;
  const dx = px - B[o], dy = py - B[o + 1], dz = pz - B[o + 2];
  let d2 = 0;
  obbAxes(B, o, AX);
  for (let k = 0; k < 3; k++) {
    const s = Math.abs(dx * AX[3 * k] + dy * AX[3 * k + 1] + dz * AX[3 * k + 2]) - B[o + 3 + k];
    if (s > 0) d2 += s * s;
  }
  return Math.sqrt(d2);
}

/**
 * Distance from point p (in the mesh's own frame) to the mesh's surface, with the closest point
 * into `closest` (3 numbers) when given. Returns Infinity beyond `maxDistance`.
 */
export function pointMeshDistance(tree: ObbTree, px: number, py: number, pz: number, maxDistance = Infinity, closest?: Float64Array): number {
  assertLiveTree(tree);
  const k = probeKernel();
  if (k) {
    try {
      return k.pointMeshDistance(tree, px, py, pz, maxDistance, closest);
    } catch (e) {
      if (!(e instanceof KernelMemoryError)) throw e;
    }
  }
  const B = tree.boxes, N = tree.nodes, P = tree.positions, TV = tree.triVerts;
  let best = maxDistance, best2 = maxDistance * maxDistance;
  let found = false;
  let sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const i = stack[--sp];
    if (pointBoxDistance(B, i, px, py, pz) > best) continue;
    const count = N[2 * i + 1];
    if (count > 0) {
      for (let s = N[2 * i]; s < N[2 * i] + count; s++) {
        const a = 3 * TV[3 * s], b = 3 * TV[3 * s + 1], c = 3 * TV[3 * s + 2];
        const d2 = pointTriangleDistance2(px, py, pz, P[a], P[a + 1], P[a + 2], P[b], P[b + 1], P[b + 2], P[c], P[c + 1], P[c + 2]);
        if (d2 <= best2) {
          best2 = d2;
          best = Math.sqrt(d2);
          found = true;
          if (closest) { closest[0] = CLOSEST[3]; closest[1] = CLOSEST[4]; closest[2] = CLOSEST[5]; }
        }
      }
      continue;
    }
    if (sp + 2 > stack.length) growStack();
    // Nearer child last (popped first).
    const l = i + 1, r = N[2 * i];
    if (pointBoxDistance(B, l, px, py, pz) < pointBoxDistance(B, r, px, py, pz)) { stack[sp++] = r; stack[sp++] = l; }
    else { stack[sp++] = l; stack[sp++] = r; }
  }
  return found ? best : Infinity;
}

/** Does the ray o + t·d, 0 < t < tMax, meet the box of node i (slab test, with a margin)? */
function rayHitsBox(B: Float64Array, i: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tMax: number): boolean {
  const o = i * OBB_STRIDE;
  const rx = ox - B[o], ry = oy - B[o + 1], rz = oz - B[o + 2];
  let t0 = 0, t1 = tMax;
  obbAxes(B, o, AX);
  for (let k = 0; k < 3; k++) {
    const ax = AX[3 * k], ay = AX[3 * k + 1], az = AX[3 * k + 2];
    const h = B[o + 3 + k] * (1 + 1e-9) + 1e-12;
    const s = rx * ax + ry * ay + rz * az;
    const v = dx * ax + dy * ay + dz * az;
    if (v === 0) {
      if (s > h || s < -h) return false;
      continue;
    }
    let ta = (-h - s) / v, tb = (h - s) / v;
    if (ta > tb) { const t = ta; ta = tb; tb = t; }
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (t0 > t1) return false;
  }
  return true;
}

/** Result of castRay: hit distance along the ray, or Infinity; `degenerate` when a hit was grazing. */
export const RAY = { t: Infinity, triangle: -1, crossings: 0, degenerate: false };

/**
 * Casts the ray o + t·d (d need not be unit; t in (tMin, tMax)) against the mesh (its own frame):
 * RAY.t is the first hit, RAY.crossings the number of triangles crossed, RAY.degenerate is set
 * when the ray passes within rounding of a triangle's edge or plane (then parity is unreliable:
 * cast another ray).
 */
export function castRay(tree: ObbTree, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tMin = 0, tMax = Infinity, skipTriangle = -1): void {
  assertLiveTree(tree);
  const k = probeKernel();
  if (k) {
    try {
      k.castRay(tree, ox, oy, oz, dx, dy, dz, tMin, tMax, skipTriangle, RAY);
      return;
    } catch (e) {
      if (!(e instanceof KernelMemoryError)) throw e;
    }
  }
  const B = tree.boxes, N = tree.nodes, P = tree.positions, TV = tree.triVerts;
  RAY.t = Infinity;
  RAY.triangle = -1;
  RAY.crossings = 0;
  RAY.degenerate = false;
  const span = Number.isFinite(tMax) ? tMax : 1e300;
  let sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const i = stack[--sp];
    if (!rayHitsBox(B, i, ox, oy, oz, dx, dy, dz, span)) continue;
    const count = N[2 * i + 1];
    if (count > 0) {
      for (let s = N[2 * i]; s < N[2 * i] + count; s++) {
        if (tree.triOrder[s] === skipTriangle) continue;
        const a = 3 * TV[3 * s], b = 3 * TV[3 * s + 1], c = 3 * TV[3 * s + 2];
        // Möller–Trumbore.
        const e1x = P[b] - P[a], e1y = P[b + 1] - P[a + 1], e1z = P[b + 2] - P[a + 2];
        const e2x = P[c] - P[a], e2y = P[c + 1] - P[a + 1], e2z = P[c + 2] - P[a + 2];
        const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
        const det = e1x * px + e1y * py + e1z * pz;
        const scale = Math.sqrt((e1x * e1x + e1y * e1y + e1z * e1z) * (e2x * e2x + e2y * e2y + e2z * e2z) * (dx * dx + dy * dy + dz * dz));
        if (Math.abs(det) <= 1e-12 * scale) {
          // Ray parallel to the triangle's plane: harmless unless it lies in it.
          const tx = ox - P[a], ty = oy - P[a + 1], tz = oz - P[a + 2];
          const nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
          const nn = Math.sqrt(nx * nx + ny * ny + nz * nz);
          if (nn > 0 && Math.abs(tx * nx + ty * ny + tz * nz) <= 1e-9 * nn * (Math.abs(tx) + Math.abs(ty) + Math.abs(tz) + 1e-300)) RAY.degenerate = true;
          continue;
        }
        const inv = 1 / det;
        const tx = ox - P[a], ty = oy - P[a + 1], tz = oz - P[a + 2];
        const u = (tx * px + ty * py + tz * pz) * inv;
        if (u < -1e-9 || u > 1 + 1e-9) continue;
        const qx = ty * e1z - tz * e1y, qy = tz * e1x - tx * e1z, qz = tx * e1y - ty * e1x;
        const v = (dx * qx + dy * qy + dz * qz) * inv;
        if (v < -1e-9 || u + v > 1 + 1e-9) continue;
        const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
        if (t <= tMin || t >= tMax) continue;
        if (u < 1e-9 || v < 1e-9 || u + v > 1 - 1e-9) RAY.degenerate = true;
        RAY.crossings++;
        if (t < RAY.t) { RAY.t = t; RAY.triangle = tree.triOrder[s]; }
      }
      continue;
    }
    if (sp + 2 > stack.length) growStack();
    stack[sp++] = N[2 * i];
    stack[sp++] = i + 1;
  }
}

/** Fixed, irrational-ish directions for inside tests (no axis alignment with CAD geometry). */
const DIRECTIONS = [
  0.5773502691896258, 0.5773502691896258, 0.5773502691896258,
  -0.2672612419124244, 0.5345224838248488, 0.8017837257372732,
  0.8164965809277261, -0.4082482904638631, 0.4082482904638631,
  -0.6246950475544243, -0.7808688094430304, 0.0,
  0.3015113445777636, -0.3015113445777636, -0.9045340337332909,
  -0.8703882797784892, 0.0, -0.4923659639173309,
  0.1601281538050871, 0.9607689228305228, -0.2264780787186006,
];

/**
 * Is the point (mesh frame) inside the closed mesh? Majority vote of the crossing parity of
 * three non-degenerate rays (rays that graze an edge or lie in a plane are replaced), which also
 * tolerates a few small holes in a nearly closed mesh. Two rays that agree decide the vote: the
 * third is cast only when they differ (most points need two rays, not three).
 */
export function pointInMesh(tree: ObbTree, px: number, py: number, pz: number): boolean {
  assertLiveTree(tree);
  const k = probeKernel();
  if (k) {
    try {
      return k.pointInMesh(tree, px, py, pz);
    } catch (e) {
      if (!(e instanceof KernelMemoryError)) throw e;
    }
  }
  let votes = 0, cast = 0;
  for (let k = 0; k < DIRECTIONS.length / 3 && cast < 3; k++) {
    castRay(tree, px, py, pz, DIRECTIONS[3 * k], DIRECTIONS[3 * k + 1], DIRECTIONS[3 * k + 2]);
    if (RAY.degenerate) continue;
    cast++;
    if (RAY.crossings % 2 === 1) votes++;
    // Two agreeing votes are the majority of three whatever the third ray gives (and with no
    // third ray left, two agreeing votes give the same answer below).
    if (cast === 2 && votes !== 1) break;
  }
  return votes >= 2 || (cast < 3 && votes >= 1 && votes * 2 >= cast);
}
