/**
 * Top-down construction of bounding-volume trees over a triangle mesh (Gottschalk et al. 1996,
 * section 4): fit a box to the group, split the group by the plane through the mean of the
 * triangle centres, recurse until a group holds at most `leafSize` triangles.
 *
 * The split plane is orthogonal to the box axis of largest variance (the first eigenvector of the
 * group's covariance), then the others if one side would be empty, then the group is halved. The
 * paper names the box's longest axis; for nearly every group the two coincide, and choosing the
 * axis before the box is measured lets one pass over the group's triangles both measure the box
 * and partition the group (and collect each child's moment sums for its own fit) — the build's
 * cost is dominated by these passes, one per tree level.
 *
 * Build-time code works on a slot-ordered copy of the triangles so every pass reads memory
 * sequentially; everything it produces is flat typed arrays (./layout.ts). Boxes are inflated by a
 * few units in the last place of the coordinates so that every vertex lies inside its boxes
 * despite rounding (checked by validateTree).
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
  private constructor(readonly stride: number, capacity: number) {
    this.boxes = new Float64Array(capacity * stride);
    this.nodes = new Int32Array(capacity * 2);
    this.ranges = new Int32Array(capacity * 2);
  }
  private static pool = new Map<number, NodeStore>();
  /**
   * An empty store for boxes of `stride` doubles. Builds are synchronous, so one store per stride is
   * reused from build to build (only the trimmed results are allocated each time).
   */
  static acquire(stride: number, capacity: number): NodeStore {
    let store = NodeStore.pool.get(stride);
    if (!store || store.nodes.length < 2 * capacity) {
      store = new NodeStore(stride, capacity);
      NodeStore.pool.set(stride, store);
    }
    store.count = 0;
    return store;
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
    minX = Math.min(minX, x); maxX = Math.max(maxX, x);
    minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    minZ = Math.min(minZ, z); maxZ = Math.max(maxZ, z);
  }
  const perm = new Uint32Array(n);
  for (let t = 0; t < n; t++) perm[t] = t;
  return {
    n, perm,
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

/** Working copies in slot order, reused across builds: 9 coordinates and the area per triangle. */
let slotVerts = new Float64Array(0);
let slotAreas = new Float64Array(0);

/**
 * Per pending group, what its parent's pass measured: the moment sums (MOMENT_STRIDE, relative to
 * the mesh's reference point) and the sum of its vertices (3), i.e. GROUP_STRIDE doubles.
 */
const GROUP_STRIDE = MOMENT_STRIDE + 3;

/** Extents from the last pass: lo0 hi0 lo1 hi1 lo2 hi2; then each side's GROUP_STRIDE sums. */
const EXT = new Float64Array(6);
const SIDES = new Float64Array(2 * GROUP_STRIDE);

function buildObbNodes(mesh: TriangleMesh, options: ObbBuildOptions): { store: NodeStore; prep: Prepared; leafSize: number } {
  const leafSize = checkLeafSize(options.leafSize ?? DEFAULT_LEAF_SIZE);
  const useHull = (options.fit ?? 'surface') === 'hull';
  const P = mesh.positions, I = mesh.indices;
  const prep = prepare(mesh);
  const { n, perm, refX, refY, refZ } = prep;

  // The triangles' vertices in slot order, partitioned together with `perm` so that every pass
  // over a group reads memory sequentially.
  if (slotVerts.length < 9 * n) {
    slotVerts = new Float64Array(9 * n);
    slotAreas = new Float64Array(n);
  }
  const tv = slotVerts, ta = slotAreas;
  for (let t = 0; t < n; t++) {
    const a = 3 * I[3 * t], b = 3 * I[3 * t + 1], c = 3 * I[3 * t + 2], o = 9 * t;
    const px = P[a], py = P[a + 1], pz = P[a + 2], qx = P[b], qy = P[b + 1], qz = P[b + 2], wx = P[c], wy = P[c + 1], wz = P[c + 2];
    tv[o] = px; tv[o + 1] = py; tv[o + 2] = pz;
    tv[o + 3] = qx; tv[o + 4] = qy; tv[o + 5] = qz;
    tv[o + 6] = wx; tv[o + 7] = wy; tv[o + 8] = wz;
    const ux = qx - px, uy = qy - py, uz = qz - pz, vx = wx - px, vy = wy - py, vz = wz - pz;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    ta[t] = 0.5 * Math.sqrt(nx * nx + ny * ny + nz * nz);
  }

  const store = NodeStore.acquire(OBB_STRIDE, Math.ceil((3 * n) / leafSize) + 16);
  const stack = new RangeStack();
  let sums = new Float64Array(GROUP_STRIDE * 64);
  // Scratch for point-based fits: vertices of a group, and a stamp to list each vertex once.
  let pts = new Float64Array(0);
  const stamp = useHull ? new Int32Array(mesh.vertexCount).fill(-1) : new Int32Array(0);

  groupSums(tv, 0, n, refX, refY, refZ, sums, 0);
  stack.push(0, n, -1);
  while (stack.size > 0) {
    // The group's sums sit at the same stack entry index.
    const entry = stack.size / 3 - 1;
    const parent = stack.data[--stack.size];
    const end = stack.data[--stack.size];
    const first = stack.data[--stack.size];
    const node = store.add(first, end);
    if (parent >= 0) store.nodes[2 * parent] = node;
    const count = end - first;
    const so = GROUP_STRIDE * entry;

    // 1. Orientation: axes in order of decreasing variance.
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
      for (let k = 0; k < MOMENT_STRIDE; k++) SUM[k] = sums[so + k];
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

    // 2. Leaf: measure the box.
    if (count <= leafSize) {
      extentsPass(tv, first, end);
      writeObb(store.boxes, node * OBB_STRIDE, FRAME, EXT);
      store.nodes[2 * node] = first;
      store.nodes[2 * node + 1] = count;
      continue;
    }

    // 3. Internal node: one pass measures the box and splits the group through the mean of the
    // triangle centres, orthogonal to the axis of largest variance (the box's long axis); if every
    // centre falls on one side, the other axes are tried, and then the group is halved.
    // Mean triangle centre = vertex sum / (3 · count).
    const inv = 1 / (3 * count);
    const cx = sums[so + MOMENT_STRIDE] * inv, cy = sums[so + MOMENT_STRIDE + 1] * inv, cz = sums[so + MOMENT_STRIDE + 2] * inv;
    let mid = splitPass(perm, tv, ta, first, end, FRAME, cx, cy, cz, refX, refY, refZ);
    writeObb(store.boxes, node * OBB_STRIDE, FRAME, EXT);
    for (let axis = 1; axis < 3 && !(mid > first && mid < end); axis++) {
      const ax = FRAME[3 * axis], ay = FRAME[3 * axis + 1], az = FRAME[3 * axis + 2];
      mid = partitionPass(perm, tv, ta, first, end, ax, ay, az, ax * cx + ay * cy + az * cz, refX, refY, refZ);
    }
    if (GROUP_STRIDE * (entry + 2) > sums.length) {
      const grown = new Float64Array(sums.length * 2); grown.set(sums); sums = grown;
    }
    if (!(mid > first && mid < end)) {
      // Coincident centres: any split keeps the tree correct, so halve the group.
      mid = first + (count >> 1);
      groupSums(tv, first, mid, refX, refY, refZ, SIDES, 0);
      groupSums(tv, mid, end, refX, refY, refZ, SIDES, GROUP_STRIDE);
    }
    store.nodes[2 * node + 1] = 0;
    // Children: right at stack entry `entry`, left at `entry + 1` (popped next: node + 1).
    for (let k = 0; k < GROUP_STRIDE; k++) {
      sums[so + k] = SIDES[GROUP_STRIDE + k];
      sums[so + GROUP_STRIDE + k] = SIDES[k];
    }
    stack.push(mid, end, node);
    stack.push(first, mid, -1);
  }
  return { store, prep, leafSize };
}

/** Projections of the vertices of slots [first, end) on the axes in FRAME: their ranges into EXT. */
function extentsPass(tv: Float64Array, first: number, end: number): void {
  const a0x = FRAME[0], a0y = FRAME[1], a0z = FRAME[2];
  const a1x = FRAME[3], a1y = FRAME[4], a1z = FRAME[5];
  const a2x = FRAME[6], a2y = FRAME[7], a2z = FRAME[8];
  let lo0 = Infinity, hi0 = -Infinity, lo1 = Infinity, hi1 = -Infinity, lo2 = Infinity, hi2 = -Infinity;
  for (let v = 9 * first, e = 9 * end; v < e; v += 3) {
    const x = tv[v], y = tv[v + 1], z = tv[v + 2];
    const d0 = a0x * x + a0y * y + a0z * z;
    const d1 = a1x * x + a1y * y + a1z * z;
    const d2 = a2x * x + a2y * y + a2z * z;
    lo0 = Math.min(lo0, d0); hi0 = Math.max(hi0, d0);
    lo1 = Math.min(lo1, d1); hi1 = Math.max(hi1, d1);
    lo2 = Math.min(lo2, d2); hi2 = Math.max(hi2, d2);
  }
  EXT[0] = lo0; EXT[1] = hi0; EXT[2] = lo1; EXT[3] = hi1; EXT[4] = lo2; EXT[5] = hi2;
}

const THIRD = 1 / 3;
const TWELFTH = 1 / 12;

/**
 * The internal-node pass over slots [first, end): vertex projections on the three axes of FRAME
 * (ranges into EXT), and a partition by centre along axis 0 through the mean centre c (triangles
 * whose vertices' projections sum below 3 c·a0 first), moving `perm` and the vertex copies
 * together, with each side's moment and vertex sums into SIDES. Returns the split position.
 */
function splitPass(
  perm: Uint32Array, tv: Float64Array, ta: Float64Array, first: number, end: number, F: Float64Array,
  cx: number, cy: number, cz: number, rx: number, ry: number, rz: number,
): number {
  const a0x = F[0], a0y = F[1], a0z = F[2];
  const a1x = F[3], a1y = F[4], a1z = F[5];
  const a2x = F[6], a2y = F[7], a2z = F[8];
  const threshold = 3 * (a0x * cx + a0y * cy + a0z * cz);
  let lo0 = Infinity, hi0 = -Infinity, lo1 = Infinity, hi1 = -Infinity, lo2 = Infinity, hi2 = -Infinity;
  let l0 = 0, l1 = 0, l2 = 0, l3 = 0, l4 = 0, l5 = 0, l6 = 0, l7 = 0, l8 = 0, l9 = 0, lx = 0, ly = 0, lz = 0;
  let r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0, r8 = 0, r9 = 0, rxs = 0, rys = 0, rzs = 0;
  let i = first, j = end;
  while (i < j) {
    const o = 9 * i;
    const Px = tv[o], Py = tv[o + 1], Pz = tv[o + 2];
    const Qx = tv[o + 3], Qy = tv[o + 4], Qz = tv[o + 5];
    const Wx = tv[o + 6], Wy = tv[o + 7], Wz = tv[o + 8];
    // Box extents.
    const p0 = a0x * Px + a0y * Py + a0z * Pz, q0 = a0x * Qx + a0y * Qy + a0z * Qz, w0 = a0x * Wx + a0y * Wy + a0z * Wz;
    const p1 = a1x * Px + a1y * Py + a1z * Pz, q1 = a1x * Qx + a1y * Qy + a1z * Qz, w1 = a1x * Wx + a1y * Wy + a1z * Wz;
    const p2 = a2x * Px + a2y * Py + a2z * Pz, q2 = a2x * Qx + a2y * Qy + a2z * Qz, w2 = a2x * Wx + a2y * Wy + a2z * Wz;
    lo0 = Math.min(lo0, p0); hi0 = Math.max(hi0, p0);
    lo0 = Math.min(lo0, q0); hi0 = Math.max(hi0, q0);
    lo0 = Math.min(lo0, w0); hi0 = Math.max(hi0, w0);
    lo1 = Math.min(lo1, p1); hi1 = Math.max(hi1, p1);
    lo1 = Math.min(lo1, q1); hi1 = Math.max(hi1, q1);
    lo1 = Math.min(lo1, w1); hi1 = Math.max(hi1, w1);
    lo2 = Math.min(lo2, p2); hi2 = Math.max(hi2, p2);
    lo2 = Math.min(lo2, q2); hi2 = Math.max(hi2, q2);
    lo2 = Math.min(lo2, w2); hi2 = Math.max(hi2, w2);
    // Moments relative to the reference point: area m, m·s/3, (m/12)(s sᵀ + p pᵀ + q qᵀ + w wᵀ).
    const px = Px - rx, py = Py - ry, pz = Pz - rz;
    const qx = Qx - rx, qy = Qy - ry, qz = Qz - rz;
    const wx = Wx - rx, wy = Wy - ry, wz = Wz - rz;
    const m = ta[i];
    const sx = px + qx + wx, sy = py + qy + wy, sz = pz + qz + wz;
    const m3 = m * THIRD, k = m * TWELFTH;
    const xx = k * (sx * sx + px * px + qx * qx + wx * wx);
    const xy = k * (sx * sy + px * py + qx * qy + wx * wy);
    const xz = k * (sx * sz + px * pz + qx * qz + wx * wz);
    const yy = k * (sy * sy + py * py + qy * qy + wy * wy);
    const yz = k * (sy * sz + py * pz + qy * qz + wy * wz);
    const zz = k * (sz * sz + pz * pz + qz * qz + wz * wz);
    const vsx = Px + Qx + Wx, vsy = Py + Qy + Wy, vsz = Pz + Qz + Wz;
    if (p0 + q0 + w0 < threshold) {
      l0 += m; l1 += m3 * sx; l2 += m3 * sy; l3 += m3 * sz;
      l4 += xx; l5 += xy; l6 += xz; l7 += yy; l8 += yz; l9 += zz;
      lx += vsx; ly += vsy; lz += vsz;
      i++;
      continue;
    }
    r0 += m; r1 += m3 * sx; r2 += m3 * sy; r3 += m3 * sz;
    r4 += xx; r5 += xy; r6 += xz; r7 += yy; r8 += yz; r9 += zz;
    rxs += vsx; rys += vsy; rzs += vsz;
    j--;
    swapSlots(perm, tv, ta, i, j);
  }
  EXT[0] = lo0; EXT[1] = hi0; EXT[2] = lo1; EXT[3] = hi1; EXT[4] = lo2; EXT[5] = hi2;
  const S = SIDES;
  S[0] = l0; S[1] = l1; S[2] = l2; S[3] = l3; S[4] = l4; S[5] = l5; S[6] = l6; S[7] = l7; S[8] = l8; S[9] = l9;
  S[10] = lx; S[11] = ly; S[12] = lz;
  S[13] = r0; S[14] = r1; S[15] = r2; S[16] = r3; S[17] = r4; S[18] = r5; S[19] = r6; S[20] = r7; S[21] = r8; S[22] = r9;
  S[23] = rxs; S[24] = rys; S[25] = rzs;
  return i;
}

/** Partition only (fallback axes): as splitPass without the extents, along (ax, ay, az). */
function partitionPass(
  perm: Uint32Array, tv: Float64Array, ta: Float64Array, first: number, end: number,
  ax: number, ay: number, az: number, centreProj: number, rx: number, ry: number, rz: number,
): number {
  const threshold = 3 * centreProj;
  let i = first, j = end;
  while (i < j) {
    const o = 9 * i;
    const proj = (tv[o] + tv[o + 3] + tv[o + 6]) * ax + (tv[o + 1] + tv[o + 4] + tv[o + 7]) * ay + (tv[o + 2] + tv[o + 5] + tv[o + 8]) * az;
    if (proj < threshold) { i++; continue; }
    j--;
    swapSlots(perm, tv, ta, i, j);
  }
  if (i > first && i < end) {
    groupSums(tv, first, i, rx, ry, rz, SIDES, 0);
    groupSums(tv, i, end, rx, ry, rz, SIDES, GROUP_STRIDE);
  }
  return i;
}

/** Exchanges slots i and j: permutation entry, vertex copies and area. */
function swapSlots(perm: Uint32Array, tv: Float64Array, ta: Float64Array, i: number, j: number): void {
  const t = perm[i]; perm[i] = perm[j]; perm[j] = t;
  const a = ta[i]; ta[i] = ta[j]; ta[j] = a;
  const o = 9 * i, q = 9 * j;
  let x = tv[o]; tv[o] = tv[q]; tv[q] = x;
  x = tv[o + 1]; tv[o + 1] = tv[q + 1]; tv[q + 1] = x;
  x = tv[o + 2]; tv[o + 2] = tv[q + 2]; tv[q + 2] = x;
  x = tv[o + 3]; tv[o + 3] = tv[q + 3]; tv[q + 3] = x;
  x = tv[o + 4]; tv[o + 4] = tv[q + 4]; tv[q + 4] = x;
  x = tv[o + 5]; tv[o + 5] = tv[q + 5]; tv[q + 5] = x;
  x = tv[o + 6]; tv[o + 6] = tv[q + 6]; tv[q + 6] = x;
  x = tv[o + 7]; tv[o + 7] = tv[q + 7]; tv[q + 7] = x;
  x = tv[o + 8]; tv[o + 8] = tv[q + 8]; tv[q + 8] = x;
}

const TRI = new Float64Array(MOMENT_STRIDE);

/** Moment sums and vertex sum of slots [first, end) into out[o..o+GROUP_STRIDE-1]. */
function groupSums(tv: Float64Array, first: number, end: number, rx: number, ry: number, rz: number, out: Float64Array, o: number): void {
  out.fill(0, o, o + GROUP_STRIDE);
  for (let i = first; i < end; i++) {
    const v = 9 * i;
    triangleMoments(
      tv[v] - rx, tv[v + 1] - ry, tv[v + 2] - rz, tv[v + 3] - rx, tv[v + 4] - ry, tv[v + 5] - rz,
      tv[v + 6] - rx, tv[v + 7] - ry, tv[v + 8] - rz, TRI, 0,
    );
    for (let k = 0; k < MOMENT_STRIDE; k++) out[o + k] += TRI[k];
    out[o + MOMENT_STRIDE] += tv[v] + tv[v + 3] + tv[v + 6];
    out[o + MOMENT_STRIDE + 1] += tv[v + 1] + tv[v + 4] + tv[v + 7];
    out[o + MOMENT_STRIDE + 2] += tv[v + 2] + tv[v + 5] + tv[v + 8];
  }
}

/**
 * Writes an OBB from a frame F (three axes) and the vertex projections' ranges E on them: axes
 * sorted by decreasing extent (kept right-handed), half extents inflated against rounding.
 */
function writeObb(B: Float64Array, o: number, F: Float64Array, E: Float64Array): void {
  const lo0 = E[0], hi0 = E[1], lo1 = E[2], hi1 = E[3], lo2 = E[4], hi2 = E[5];
  const scale = Math.max(Math.abs(lo0), Math.abs(hi0), Math.abs(lo1), Math.abs(hi1), Math.abs(lo2), Math.abs(hi2));
  const pad = INFLATE * scale + 1e-300;
  const H = HS;
  H[0] = 0.5 * (hi0 - lo0) + pad; H[1] = 0.5 * (hi1 - lo1) + pad; H[2] = 0.5 * (hi2 - lo2) + pad;
  const m0 = 0.5 * (lo0 + hi0), m1 = 0.5 * (lo1 + hi1), m2 = 0.5 * (lo2 + hi2);
  B[o] = m0 * F[0] + m1 * F[3] + m2 * F[6];
  B[o + 1] = m0 * F[1] + m1 * F[4] + m2 * F[7];
  B[o + 2] = m0 * F[2] + m1 * F[5] + m2 * F[8];
  // Order the axes by extent with a sorting network and track the permutation's parity.
  let i0 = 0, i1 = 1, i2 = 2, t: number, odd = false;
  if (H[i0] < H[i1]) { t = i0; i0 = i1; i1 = t; odd = !odd; }
  if (H[i1] < H[i2]) { t = i1; i1 = i2; i2 = t; odd = !odd; }
  if (H[i0] < H[i1]) { t = i0; i0 = i1; i1 = t; odd = !odd; }
  B[o + 3] = H[i0]; B[o + 4] = H[i1]; B[o + 5] = H[i2];
  B[o + 6] = F[3 * i0]; B[o + 7] = F[3 * i0 + 1]; B[o + 8] = F[3 * i0 + 2];
  B[o + 9] = F[3 * i1]; B[o + 10] = F[3 * i1 + 1]; B[o + 11] = F[3 * i1 + 2];
  const s = odd ? -1 : 1;
  B[o + 12] = s * F[3 * i2]; B[o + 13] = s * F[3 * i2 + 1]; B[o + 14] = s * F[3 * i2 + 2];
}
const HS = new Float64Array(3);

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
        minX = Math.min(minX, x); maxX = Math.max(maxX, x);
        minY = Math.min(minY, y); maxY = Math.max(maxY, y);
        minZ = Math.min(minZ, z); maxZ = Math.max(maxZ, z);
      }
    }
    const cx = 0.5 * (minX + maxX), cy = 0.5 * (minY + maxY), cz = 0.5 * (minZ + maxZ);
    let r2 = 0;
    for (let k = first; k < end; k++) {
      for (let j = 0; j < 3; j++) {
        const v = 3 * I[3 * perm[k] + j];
        const dx = P[v] - cx, dy = P[v + 1] - cy, dz = P[v + 2] - cz;
        const d = dx * dx + dy * dy + dz * dz;
        r2 = Math.max(r2, d);
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
  const { n, perm } = prep;
  // Triangle centroids in original order.
  const cen = new Float64Array(3 * n);
  for (let t = 0; t < n; t++) {
    const a = 3 * I[3 * t], b = 3 * I[3 * t + 1], c = 3 * I[3 * t + 2];
    cen[3 * t] = (P[a] + P[b] + P[c]) / 3;
    cen[3 * t + 1] = (P[a + 1] + P[b + 1] + P[c + 1]) / 3;
    cen[3 * t + 2] = (P[a + 2] + P[b + 2] + P[c + 2]) / 3;
  }
  const store = NodeStore.acquire(AABB_STRIDE, Math.ceil((3 * n) / leafSize) + 16);
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
        minX = Math.min(minX, x); maxX = Math.max(maxX, x);
        minY = Math.min(minY, y); maxY = Math.max(maxY, y);
        minZ = Math.min(minZ, z); maxZ = Math.max(maxZ, z);
      }
      const x = cen[3 * t], y = cen[3 * t + 1], z = cen[3 * t + 2];
      cminX = Math.min(cminX, x); cmaxX = Math.max(cmaxX, x);
      cminY = Math.min(cminY, y); cmaxY = Math.max(cmaxY, y);
      cminZ = Math.min(cminZ, z); cmaxZ = Math.max(cmaxZ, z);
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
