/**
 * Top-down construction of bounding-volume trees over a triangle mesh (Gottschalk et al. 1996,
 * section 4): fit a box to the group, split the group by the plane through the mean of the
 * triangle centres orthogonal to the box's longest axis (then the other axes if one side would
 * be empty), recurse until a group holds at most `leafSize` triangles.
 *
 * Build-time code may use plain loops and small helpers; everything it produces is flat typed
 * arrays (./layout.ts). Boxes are inflated by a few units in the last place of the coordinates so
 * that every vertex lies inside its boxes despite rounding (checked by validateTree).
 */
import type { TriangleMesh } from '../geometry/mesh.js';
import {
  MOMENT_STRIDE, triangleMoments, frameFromMoments, frameFromPoints, frameFromHull, triangleFrame,
} from '../geometry/obbFit.js';
import {
  OBB_STRIDE, AABB_STRIDE, SPHERE_STRIDE,
  type ObbTree, type AabbTree, type HybridTree,
} from './layout.js';

export type ObbFit = 'surface' | 'hull';

export interface ObbBuildOptions {
  /** Most triangles per leaf, 1–64 (default DEFAULT_LEAF_SIZE). */
  readonly leafSize?: number;
  /** Which triangles the box axes are fitted to (default 'surface'; see geometry/obbFit.ts). */
  readonly fit?: ObbFit;
}

export interface HybridBuildOptions extends ObbBuildOptions {
  /** Levels from the root tested as spheres (default 4). */
  readonly sphereLevels?: number;
}

export const DEFAULT_LEAF_SIZE = 4;
const MAX_LEAF_SIZE = 64;

/** Relative inflation of box half extents, in units of the group's coordinate magnitude. */
const INFLATE = 2 ** -47;

function checkLeafSize(leafSize: number): number {
  if (!Number.isInteger(leafSize) || leafSize < 1 || leafSize > MAX_LEAF_SIZE) {
    throw new RangeError(`leafSize must be an integer from 1 to ${MAX_LEAF_SIZE}, got ${leafSize}`);
  }
  return leafSize;
}

/** Growable node storage shared by the builders. */
class NodeStore {
  count = 0;
  boxes: Float64Array;
  nodes: Int32Array;
  /** Triangle slot range [first, end) per node, kept for derived data (spheres). */
  ranges: Int32Array;
  constructor(readonly stride: number, capacity: number) {
    this.boxes = new Float64Array(capacity * stride);
    this.nodes = new Int32Array(capacity * 2);
    this.ranges = new Int32Array(capacity * 2);
  }
  add(first: number, end: number): number {
    const i = this.count++;
    if (i * 2 >= this.nodes.length) {
      const cap = Math.ceil((this.nodes.length / 2) * 1.5) + 16;
      const b = new Float64Array(cap * this.stride); b.set(this.boxes); this.boxes = b;
      const n = new Int32Array(cap * 2); n.set(this.nodes); this.nodes = n;
      const r = new Int32Array(cap * 2); r.set(this.ranges); this.ranges = r;
    }
    this.ranges[2 * i] = first;
    this.ranges[2 * i + 1] = end;
    return i;
  }
  trimmedBoxes(): Float64Array { return this.boxes.slice(0, this.count * this.stride); }
  trimmedNodes(): Int32Array { return this.nodes.slice(0, this.count * 2); }
}

/** Work stack of pending groups: (first, end, parent whose right child this is, or −1). */
class RangeStack {
  data = new Int32Array(3 * 64);
  size = 0;
  push(first: number, end: number, parent: number): void {
    if (this.size + 3 > this.data.length) {
      const d = new Int32Array(this.data.length * 2); d.set(this.data); this.data = d;
    }
    this.data[this.size++] = first;
    this.data[this.size++] = end;
    this.data[this.size++] = parent;
  }
}

interface Prepared {
  n: number;
  perm: Uint32Array;
  /** Triangle centroids, 3 per triangle (original order). */
  cen: Float64Array;
  maxAbs: number;
  refX: number; refY: number; refZ: number;
}

function prepare(mesh: TriangleMesh): Prepared {
  const P = mesh.positions, I = mesh.indices, n = mesh.triangleCount;
  if (n === 0) throw new RangeError('cannot build a tree over a mesh with no triangles');
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let i = 0; i < 3 * n; i++) {
    const v = 3 * I[i];
    const x = P[v], y = P[v + 1], z = P[v + 2];
    if (x < minX) minX = x; if (x > maxX) maxX = x;
    if (y < minY) minY = y; if (y > maxY) maxY = y;
    if (z < minZ) minZ = z; if (z > maxZ) maxZ = z;
  }
  const cen = new Float64Array(3 * n);
  const perm = new Uint32Array(n);
  for (let t = 0; t < n; t++) {
    const a = 3 * I[3 * t], b = 3 * I[3 * t + 1], c = 3 * I[3 * t + 2];
    cen[3 * t] = (P[a] + P[b] + P[c]) / 3;
    cen[3 * t + 1] = (P[a + 1] + P[b + 1] + P[c + 1]) / 3;
    cen[3 * t + 2] = (P[a + 2] + P[b + 2] + P[c + 2]) / 3;
    perm[t] = t;
  }
  return {
    n, perm, cen,
    maxAbs: Math.max(-minX, maxX, -minY, maxY, -minZ, maxZ),
    refX: 0.5 * (minX + maxX), refY: 0.5 * (minY + maxY), refZ: 0.5 * (minZ + maxZ),
  };
}

/** Triangle slots in tree order: vertex indices and original indices. */
function slotArrays(mesh: TriangleMesh, perm: Uint32Array): { triVerts: Uint32Array; triOrder: Uint32Array } {
  const I = mesh.indices;
  const triVerts = new Uint32Array(3 * perm.length);
  for (let s = 0; s < perm.length; s++) {
    const t = perm[s];
    triVerts[3 * s] = I[3 * t]; triVerts[3 * s + 1] = I[3 * t + 1]; triVerts[3 * s + 2] = I[3 * t + 2];
  }
  return { triVerts, triOrder: perm.slice() };
}

// ------------------------------------------------------------------------------------------------
// OBB tree

const FRAME = new Float64Array(9);
const SUM = new Float64Array(2 * MOMENT_STRIDE);

/** Builds the OBBTree of a mesh. */
export function buildObbTree(mesh: TriangleMesh, options: ObbBuildOptions = {}): ObbTree {
  const built = buildObbNodes(mesh, options);
  return {
    kind: 'obb',
    nodeCount: built.store.count,
    boxes: built.store.trimmedBoxes(),
    nodes: built.store.trimmedNodes(),
    leafSize: built.leafSize,
    positions: mesh.positions,
    vertexCount: mesh.vertexCount,
    triangleCount: mesh.triangleCount,
    maxAbsCoordinate: built.prep.maxAbs,
    ...slotArrays(mesh, built.prep.perm),
  };
}

/** Working copy of the triangles in slot order (9 coordinates each), reused across builds. */
let slotVerts = new Float64Array(0);

function buildObbNodes(mesh: TriangleMesh, options: ObbBuildOptions): { store: NodeStore; prep: Prepared; leafSize: number } {
  const leafSize = checkLeafSize(options.leafSize ?? DEFAULT_LEAF_SIZE);
  const useHull = (options.fit ?? 'surface') === 'hull';
  const P = mesh.positions, I = mesh.indices;
  const prep = prepare(mesh);
  const { n, perm, refX, refY, refZ } = prep;

  // The triangles' vertices in slot order, partitioned together with `perm` so that every pass
  // over a group reads memory sequentially.
  if (slotVerts.length < 9 * n) slotVerts = new Float64Array(9 * n);
  const tv = slotVerts;
  for (let t = 0; t < n; t++) {
    const a = 3 * I[3 * t], b = 3 * I[3 * t + 1], c = 3 * I[3 * t + 2], o = 9 * t;
    tv[o] = P[a]; tv[o + 1] = P[a + 1]; tv[o + 2] = P[a + 2];
    tv[o + 3] = P[b]; tv[o + 4] = P[b + 1]; tv[o + 5] = P[b + 2];
    tv[o + 6] = P[c]; tv[o + 7] = P[c + 1]; tv[o + 8] = P[c + 2];
  }

  const store = new NodeStore(OBB_STRIDE, Math.ceil((3 * n) / leafSize) + 16);
  const stack = new RangeStack();
  // Moment sums of pending groups (MOMENT_STRIDE per stack entry), filled by the parent's partition.
  let sums = new Float64Array(MOMENT_STRIDE * 64);
  // Scratch for point-based fits: vertices of a group, and a stamp to list each vertex once.
  let pts = new Float64Array(0);
  const stamp = useHull ? new Int32Array(mesh.vertexCount).fill(-1) : new Int32Array(0);

  sumMoments(tv, 0, n, refX, refY, refZ, sums, 0);
  stack.push(0, n, -1);
  while (stack.size > 0) {
    const entry = stack.size / 3 - 1;
    const parent = stack.data[--stack.size];
    const end = stack.data[--stack.size];
    const first = stack.data[--stack.size];
    const node = store.add(first, end);
    if (parent >= 0) store.nodes[2 * parent] = node;
    const count = end - first;

    // 1. Orientation.
    let fitted = false;
    if (count === 1) {
      const o = 9 * first;
      triangleFrame(tv[o], tv[o + 1], tv[o + 2], tv[o + 3], tv[o + 4], tv[o + 5], tv[o + 6], tv[o + 7], tv[o + 8], FRAME, 0);
      fitted = true;
    } else if (useHull) {
      if (pts.length < 9 * count) pts = new Float64Array(Math.max(9 * count, 2 * pts.length));
      let m = 0;
      for (let k = first; k < end; k++) {
        const t = perm[k];
        for (let j = 0; j < 3; j++) {
          const v = I[3 * t + j];
          if (stamp[v] === node) continue;
          stamp[v] = node;
          pts[3 * m] = P[3 * v]; pts[3 * m + 1] = P[3 * v + 1]; pts[3 * m + 2] = P[3 * v + 2];
          m++;
        }
      }
      fitted = frameFromHull(pts, m, FRAME, 0, SUM);
    }
    if (!fitted) {
      for (let k = 0; k < MOMENT_STRIDE; k++) SUM[k] = sums[MOMENT_STRIDE * entry + k];
      if (!frameFromMoments(SUM, FRAME, 0)) {
        // Zero total area: the covariance of the vertices.
        if (pts.length < 9 * count) pts = new Float64Array(Math.max(9 * count, 2 * pts.length));
        for (let k = 0; k < 3 * count; k++) {
          const o = 9 * first + 3 * k;
          pts[3 * k] = tv[o] - refX; pts[3 * k + 1] = tv[o + 1] - refY; pts[3 * k + 2] = tv[o + 2] - refZ;
        }
        frameFromPoints(pts, 3 * count, FRAME, 0);
      }
    }

    // 2. Extents: project the group's vertices on the axes; sum the vertices on the way.
    const a0x = FRAME[0], a0y = FRAME[1], a0z = FRAME[2];
    const a1x = FRAME[3], a1y = FRAME[4], a1z = FRAME[5];
    const a2x = FRAME[6], a2y = FRAME[7], a2z = FRAME[8];
    let lo0 = Infinity, hi0 = -Infinity, lo1 = Infinity, hi1 = -Infinity, lo2 = Infinity, hi2 = -Infinity;
    let sx = 0, sy = 0, sz = 0;
    for (let v = 9 * first, e = 9 * end; v < e; v += 3) {
      const x = tv[v], y = tv[v + 1], z = tv[v + 2];
      sx += x; sy += y; sz += z;
      const d0 = a0x * x + a0y * y + a0z * z;
      const d1 = a1x * x + a1y * y + a1z * z;
      const d2 = a2x * x + a2y * y + a2z * z;
      lo0 = d0 < lo0 ? d0 : lo0; hi0 = d0 > hi0 ? d0 : hi0;
      lo1 = d1 < lo1 ? d1 : lo1; hi1 = d1 > hi1 ? d1 : hi1;
      lo2 = d2 < lo2 ? d2 : lo2; hi2 = d2 > hi2 ? d2 : hi2;
    }
    writeObb(store.boxes, node * OBB_STRIDE, a0x, a0y, a0z, a1x, a1y, a1z, a2x, a2y, a2z, lo0, hi0, lo1, hi1, lo2, hi2);

    // 3. Leaf, or split through the mean of the triangle centres, longest axis first.
    if (count <= leafSize) {
      store.nodes[2 * node] = first;
      store.nodes[2 * node + 1] = count;
      continue;
    }
    // The mean of the centres is (sum of all vertices) / (3 · count); partitionSlots compares
    // vertex sums (three times each centre) with sum / count.
    const mx = sx / count, my = sy / count, mz = sz / count;
    const B = store.boxes, ob = node * OBB_STRIDE + 6; // sorted axes, longest first
    let mid = -1;
    for (let axis = 0; axis < 3 && mid < 0; axis++) {
      const ax = B[ob + 3 * axis], ay = B[ob + 3 * axis + 1], az = B[ob + 3 * axis + 2];
      const split = partitionSlots(perm, tv, first, end, ax, ay, az, ax * mx + ay * my + az * mz, refX, refY, refZ);
      if (split > first && split < end) mid = split;
    }
    store.nodes[2 * node + 1] = 0;
    // The two children go on the stack at entries `entry` (right) and `entry + 1` (left).
    if (MOMENT_STRIDE * (entry + 2) > sums.length) {
      const grown = new Float64Array(sums.length * 2); grown.set(sums); sums = grown;
    }
    if (mid < 0) {
      // Every centre projects to the same side on every axis (coincident centres): any split
      // keeps the tree correct, so halve the group.
      mid = first + (count >> 1);
      sumMoments(tv, mid, end, refX, refY, refZ, sums, MOMENT_STRIDE * entry);
      sumMoments(tv, first, mid, refX, refY, refZ, sums, MOMENT_STRIDE * (entry + 1));
    } else {
      for (let k = 0; k < MOMENT_STRIDE; k++) {
        sums[MOMENT_STRIDE * entry + k] = SIDE[MOMENT_STRIDE + k];
        sums[MOMENT_STRIDE * (entry + 1) + k] = SIDE[k];
      }
    }
    stack.push(mid, end, node);
    stack.push(first, mid, -1);
  }
  return { store, prep, leafSize };
}

/** Moment sums of the left (0..9) and right (10..19) side of the last partition. */
const SIDE = new Float64Array(2 * MOMENT_STRIDE);
const TRI = new Float64Array(MOMENT_STRIDE);

/** Sums the moments (relative to the reference point) of slots [first, end) into out[o..o+9]. */
function sumMoments(tv: Float64Array, first: number, end: number, rx: number, ry: number, rz: number, out: Float64Array, o: number): void {
  out.fill(0, o, o + MOMENT_STRIDE);
  for (let i = first; i < end; i++) {
    const v = 9 * i;
    triangleMoments(
      tv[v] - rx, tv[v + 1] - ry, tv[v + 2] - rz, tv[v + 3] - rx, tv[v + 4] - ry, tv[v + 5] - rz,
      tv[v + 6] - rx, tv[v + 7] - ry, tv[v + 8] - rz, TRI, 0,
    );
    for (let k = 0; k < MOMENT_STRIDE; k++) out[o + k] += TRI[k];
  }
}

const THIRD = 1 / 3;
const TWELFTH = 1 / 12;

/**
 * Partitions slots [first, end) so that triangles whose vertex sum (three times the centre)
 * projects below `threshold` on (ax, ay, az) come first, moving `perm` and the vertex copies
 * together; sums each side's moments (geometry/obbFit.ts, relative to r) into SIDE on the way;
 * returns the split position.
 */
function partitionSlots(
  perm: Uint32Array, tv: Float64Array, first: number, end: number,
  ax: number, ay: number, az: number, threshold: number, rx: number, ry: number, rz: number,
): number {
  let l0 = 0, l1 = 0, l2 = 0, l3 = 0, l4 = 0, l5 = 0, l6 = 0, l7 = 0, l8 = 0, l9 = 0;
  let r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0, r8 = 0, r9 = 0;
  let i = first, j = end;
  while (i < j) {
    const o = 9 * i;
    const px = tv[o] - rx, py = tv[o + 1] - ry, pz = tv[o + 2] - rz;
    const qx = tv[o + 3] - rx, qy = tv[o + 4] - ry, qz = tv[o + 5] - rz;
    const wx = tv[o + 6] - rx, wy = tv[o + 7] - ry, wz = tv[o + 8] - rz;
    // Moments of the triangle (p, q, w): area m, m·s/3, (m/12)(s sᵀ + p pᵀ + q qᵀ + w wᵀ).
    const ux = qx - px, uy = qy - py, uz = qz - pz, vx = wx - px, vy = wy - py, vz = wz - pz;
    const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
    const m = 0.5 * Math.sqrt(cx * cx + cy * cy + cz * cz);
    const sx = px + qx + wx, sy = py + qy + wy, sz = pz + qz + wz;
    const m3 = m * THIRD, k = m * TWELFTH;
    const xx = k * (sx * sx + px * px + qx * qx + wx * wx);
    const xy = k * (sx * sy + px * py + qx * qy + wx * wy);
    const xz = k * (sx * sz + px * pz + qx * qz + wx * wz);
    const yy = k * (sy * sy + py * py + qy * qy + wy * wy);
    const yz = k * (sy * sz + py * pz + qy * qz + wy * wz);
    const zz = k * (sz * sz + pz * pz + qz * qz + wz * wz);
    // The split uses absolute coordinates (the threshold is absolute).
    if ((tv[o] + tv[o + 3] + tv[o + 6]) * ax + (tv[o + 1] + tv[o + 4] + tv[o + 7]) * ay + (tv[o + 2] + tv[o + 5] + tv[o + 8]) * az < threshold) {
      l0 += m; l1 += m3 * sx; l2 += m3 * sy; l3 += m3 * sz;
      l4 += xx; l5 += xy; l6 += xz; l7 += yy; l8 += yz; l9 += zz;
      i++;
      continue;
    }
    r0 += m; r1 += m3 * sx; r2 += m3 * sy; r3 += m3 * sz;
    r4 += xx; r5 += xy; r6 += xz; r7 += yy; r8 += yz; r9 += zz;
    j--;
    const t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    const p = 9 * j;
    for (let c = 0; c < 9; c++) { const x = tv[o + c]; tv[o + c] = tv[p + c]; tv[p + c] = x; }
  }
  SIDE[0] = l0; SIDE[1] = l1; SIDE[2] = l2; SIDE[3] = l3; SIDE[4] = l4;
  SIDE[5] = l5; SIDE[6] = l6; SIDE[7] = l7; SIDE[8] = l8; SIDE[9] = l9;
  SIDE[10] = r0; SIDE[11] = r1; SIDE[12] = r2; SIDE[13] = r3; SIDE[14] = r4;
  SIDE[15] = r5; SIDE[16] = r6; SIDE[17] = r7; SIDE[18] = r8; SIDE[19] = r9;
  return i;
}

/**
 * Writes an OBB from a frame and the vertex projections' ranges on its axes: axes sorted by
 * decreasing extent (kept right-handed), half extents inflated against rounding.
 */
function writeObb(
  B: Float64Array, o: number,
  a0x: number, a0y: number, a0z: number, a1x: number, a1y: number, a1z: number, a2x: number, a2y: number, a2z: number,
  lo0: number, hi0: number, lo1: number, hi1: number, lo2: number, hi2: number,
): void {
  const scale = Math.max(Math.abs(lo0), Math.abs(hi0), Math.abs(lo1), Math.abs(hi1), Math.abs(lo2), Math.abs(hi2));
  const pad = INFLATE * scale + 1e-300;
  const h0 = 0.5 * (hi0 - lo0) + pad, h1 = 0.5 * (hi1 - lo1) + pad, h2 = 0.5 * (hi2 - lo2) + pad;
  const m0 = 0.5 * (lo0 + hi0), m1 = 0.5 * (lo1 + hi1), m2 = 0.5 * (lo2 + hi2);
  B[o] = m0 * a0x + m1 * a1x + m2 * a2x;
  B[o + 1] = m0 * a0y + m1 * a1y + m2 * a2y;
  B[o + 2] = m0 * a0z + m1 * a1z + m2 * a2z;
  // Order the axes by extent with a sorting network on (h, axis) and track the permutation parity.
  let i0 = 0, i1 = 1, i2 = 2, t: number, odd = false;
  const H = HS; H[0] = h0; H[1] = h1; H[2] = h2;
  if (H[i0] < H[i1]) { t = i0; i0 = i1; i1 = t; odd = !odd; }
  if (H[i1] < H[i2]) { t = i1; i1 = i2; i2 = t; odd = !odd; }
  if (H[i0] < H[i1]) { t = i0; i0 = i1; i1 = t; odd = !odd; }
  const A = AS;
  A[0] = a0x; A[1] = a0y; A[2] = a0z; A[3] = a1x; A[4] = a1y; A[5] = a1z; A[6] = a2x; A[7] = a2y; A[8] = a2z;
  B[o + 3] = H[i0]; B[o + 4] = H[i1]; B[o + 5] = H[i2];
  B[o + 6] = A[3 * i0]; B[o + 7] = A[3 * i0 + 1]; B[o + 8] = A[3 * i0 + 2];
  B[o + 9] = A[3 * i1]; B[o + 10] = A[3 * i1 + 1]; B[o + 11] = A[3 * i1 + 2];
  const s = odd ? -1 : 1;
  B[o + 12] = s * A[3 * i2]; B[o + 13] = s * A[3 * i2 + 1]; B[o + 14] = s * A[3 * i2 + 2];
}
const HS = new Float64Array(3);
const AS = new Float64Array(9);

// ------------------------------------------------------------------------------------------------
// Sphere-over-OBB hybrid

/**
 * The OBB tree with bounding spheres in its top `sphereLevels` levels (Wen, Fan and Bai 2011):
 * centre = centre of the group's axis-aligned bounds, radius = distance to the farthest vertex.
 */
export function buildHybridTree(mesh: TriangleMesh, options: HybridBuildOptions = {}): HybridTree {
  const sphereLevels = options.sphereLevels ?? 4;
  if (!Number.isInteger(sphereLevels) || sphereLevels < 0 || sphereLevels > 64) {
    throw new RangeError(`sphereLevels must be an integer from 0 to 64, got ${sphereLevels}`);
  }
  const built = buildObbNodes(mesh, options);
  const { store, prep } = built;
  const nodes = store.trimmedNodes();
  const P = mesh.positions, I = mesh.indices, perm = prep.perm;
  const sphereOf = new Int32Array(store.count).fill(-1);
  const sphereList: number[] = [];
  // Depth-first walk carrying depths.
  const stack: number[] = [0, 0];
  while (stack.length > 0) {
    const depth = stack.pop() as number;
    const node = stack.pop() as number;
    if (depth >= sphereLevels) continue;
    const first = store.ranges[2 * node], end = store.ranges[2 * node + 1];
    let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
    for (let k = first; k < end; k++) {
      for (let j = 0; j < 3; j++) {
        const v = 3 * I[3 * perm[k] + j];
        const x = P[v], y = P[v + 1], z = P[v + 2];
        if (x < minX) minX = x; if (x > maxX) maxX = x;
        if (y < minY) minY = y; if (y > maxY) maxY = y;
        if (z < minZ) minZ = z; if (z > maxZ) maxZ = z;
      }
    }
    const cx = 0.5 * (minX + maxX), cy = 0.5 * (minY + maxY), cz = 0.5 * (minZ + maxZ);
    let r2 = 0;
    for (let k = first; k < end; k++) {
      for (let j = 0; j < 3; j++) {
        const v = 3 * I[3 * perm[k] + j];
        const dx = P[v] - cx, dy = P[v + 1] - cy, dz = P[v + 2] - cz;
        const d = dx * dx + dy * dy + dz * dz;
        if (d > r2) r2 = d;
      }
    }
    const scale = Math.max(Math.abs(minX), Math.abs(maxX), Math.abs(minY), Math.abs(maxY), Math.abs(minZ), Math.abs(maxZ));
    sphereOf[node] = sphereList.length / SPHERE_STRIDE;
    sphereList.push(cx, cy, cz, Math.sqrt(r2) * (1 + 2 ** -50) + INFLATE * scale + 1e-300);
    if (nodes[2 * node + 1] === 0) {
      stack.push(node + 1, depth + 1, nodes[2 * node], depth + 1);
    }
  }
  return {
    kind: 'hybrid',
    nodeCount: store.count,
    boxes: store.trimmedBoxes(),
    nodes,
    leafSize: built.leafSize,
    sphereLevels,
    sphereOf,
    spheres: Float64Array.from(sphereList),
    positions: mesh.positions,
    vertexCount: mesh.vertexCount,
    triangleCount: mesh.triangleCount,
    maxAbsCoordinate: prep.maxAbs,
    ...slotArrays(mesh, perm),
  };
}

// ------------------------------------------------------------------------------------------------
// AABB tree

export interface AabbBuildOptions {
  /** Most triangles per leaf, 1–64 (default DEFAULT_LEAF_SIZE). */
  readonly leafSize?: number;
}

/**
 * Axis-aligned box tree in the mesh's frame: split at the median centroid on the axis of largest
 * centroid spread.
 */
export function buildAabbTree(mesh: TriangleMesh, options: AabbBuildOptions = {}): AabbTree {
  const leafSize = checkLeafSize(options.leafSize ?? DEFAULT_LEAF_SIZE);
  const P = mesh.positions, I = mesh.indices;
  const prep = prepare(mesh);
  const { n, perm, cen } = prep;
  const store = new NodeStore(AABB_STRIDE, Math.min(2 * n, Math.ceil((4 * n) / leafSize) + 16));
  const stack = new RangeStack();
  stack.push(0, n, -1);
  while (stack.size > 0) {
    const parent = stack.data[--stack.size];
    const end = stack.data[--stack.size];
    const first = stack.data[--stack.size];
    const node = store.add(first, end);
    if (parent >= 0) store.nodes[2 * parent] = node;
    const count = end - first;
    let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
    let cminX = Infinity, cminY = Infinity, cminZ = Infinity, cmaxX = -Infinity, cmaxY = -Infinity, cmaxZ = -Infinity;
    for (let k = first; k < end; k++) {
      const t = perm[k];
      for (let j = 0; j < 3; j++) {
        const v = 3 * I[3 * t + j];
        const x = P[v], y = P[v + 1], z = P[v + 2];
        if (x < minX) minX = x; if (x > maxX) maxX = x;
        if (y < minY) minY = y; if (y > maxY) maxY = y;
        if (z < minZ) minZ = z; if (z > maxZ) maxZ = z;
      }
      const x = cen[3 * t], y = cen[3 * t + 1], z = cen[3 * t + 2];
      if (x < cminX) cminX = x; if (x > cmaxX) cmaxX = x;
      if (y < cminY) cminY = y; if (y > cmaxY) cmaxY = y;
      if (z < cminZ) cminZ = z; if (z > cmaxZ) cmaxZ = z;
    }
    const scale = Math.max(Math.abs(minX), Math.abs(maxX), Math.abs(minY), Math.abs(maxY), Math.abs(minZ), Math.abs(maxZ));
    const pad = INFLATE * scale + 1e-300;
    const B = store.boxes, o = node * AABB_STRIDE;
    B[o] = 0.5 * (minX + maxX); B[o + 1] = 0.5 * (minY + maxY); B[o + 2] = 0.5 * (minZ + maxZ);
    B[o + 3] = 0.5 * (maxX - minX) + pad; B[o + 4] = 0.5 * (maxY - minY) + pad; B[o + 5] = 0.5 * (maxZ - minZ) + pad;
    if (count <= leafSize) {
      store.nodes[2 * node] = first;
      store.nodes[2 * node + 1] = count;
      continue;
    }
    const sx = cmaxX - cminX, sy = cmaxY - cminY, sz = cmaxZ - cminZ;
    const axis = sx >= sy && sx >= sz ? 0 : sy >= sz ? 1 : 2;
    const mid = first + (count >> 1);
    selectNth(perm, cen, axis, first, end, mid);
    store.nodes[2 * node + 1] = 0;
    stack.push(mid, end, node);
    stack.push(first, mid, -1);
  }
  return {
    kind: 'aabb',
    nodeCount: store.count,
    boxes: store.trimmedBoxes(),
    nodes: store.trimmedNodes(),
    leafSize,
    positions: mesh.positions,
    vertexCount: mesh.vertexCount,
    triangleCount: mesh.triangleCount,
    maxAbsCoordinate: prep.maxAbs,
    ...slotArrays(mesh, perm),
  };
}

/**
 * Reorders perm[first..end) so that the element at `nth` has the centroid coordinate it would have
 * in sorted order, smaller ones before it, larger after (Hoare's selection, median of three).
 */
function selectNth(perm: Uint32Array, cen: Float64Array, axis: number, first: number, end: number, nth: number): void {
  let lo = first, hi = end - 1;
  while (hi > lo) {
    const midIdx = (lo + hi) >> 1;
    const a = cen[3 * perm[lo] + axis], b = cen[3 * perm[midIdx] + axis], c = cen[3 * perm[hi] + axis];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo, j = hi;
    while (i <= j) {
      while (cen[3 * perm[i] + axis] < pivot) i++;
      while (cen[3 * perm[j] + axis] > pivot) j--;
      if (i <= j) {
        const t = perm[i]; perm[i] = perm[j]; perm[j] = t;
        i++; j--;
      }
    }
    if (nth <= j) hi = j;
    else if (nth >= i) lo = i;
    else return;
  }
}
