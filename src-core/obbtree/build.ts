/**
 * Top-down construction of bounding-volume trees over a triangle mesh (Gottschalk et al. 1996,
 * section 4): fit a box to the group, split the group by the plane through the mean of the
 * triangle centres, recurse until a group holds at most `leafSize` triangles.
 *
 * The split plane is orthogonal to the box axis of largest variance (the first eigenvector of the
 * group's covariance), then the others if one side would be empty, then the group is halved. The
 * paper names the box's longest axis; for nearly every group the two coincide (splitting the
 * longest extent instead measured 1–4 % more box tests on the benchmark meshes). Each triangle's
 * moments (area, first and second moments, vertex sum: ./slots.ts) are computed once per build,
 * so a group's covariance is a sum; per level, one loop measures the box and keeps each
 * triangle's projection on the split axis, one partitions in place, one sums the smaller child
 * (the larger is the parent minus it) — the build's cost is dominated by these loops.
 *
 * Build-time code works on a slot-ordered copy of the triangles so every pass reads memory
 * sequentially; everything it produces is flat typed arrays (./layout.ts). Boxes are inflated by a
 * few units in the last place of the coordinates so that every vertex lies inside its boxes
 * despite rounding (checked by validateTree).
 */
import type { TriangleMesh } from '../geometry/mesh.js';
import {
  MOMENT_STRIDE, frameFromMoments, frameFromPoints, frameFromHull, triangleFrame,
} from '../geometry/obbFit.js';
import {
  OBB_STRIDE, AABB_STRIDE, SPHERE_STRIDE,
  type ObbTree, type AabbTree, type HybridTree,
} from './layout.js';
import { buildObbInKernel, treeStorage } from '../kernel/kernel.js';
import { MOMENT_FLOATS, SLOT_DOUBLES, SLOT_FLOATS, SLOT_VERTEX_SUM, momentScale } from './slots.js';

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
  /** The moments' scale (./slots.ts). */
  scale: number;
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
  const refX = 0.5 * (minX + maxX), refY = 0.5 * (minY + maxY), refZ = 0.5 * (minZ + maxZ);
  return {
    n, perm,
    maxAbs: Math.max(-minX, maxX, -minY, maxY, -minZ, maxZ),
    refX, refY, refZ,
    scale: momentScale(Math.max(maxX - refX, maxY - refY, maxZ - refZ)),
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

/** Where OBB trees with surface fits are built: in the WebAssembly kernel, or here. */
export type BuildKernel = 'wasm' | 'ts';
let buildKernel: BuildKernel = 'wasm';

/**
 * Chooses where `buildObbTree` builds surface-fitted trees: 'wasm' (the default) in the
 * WebAssembly kernel (kernel/as/build.ts, the same tree bit for bit, built straight into the
 * kernel's memory), 'ts' here; without a kernel, or when its memory is full, here anyway. For
 * tests and the benchmark.
 */
export function setBuildKernel(choice: BuildKernel): void {
  buildKernel = choice;
}

/** Builds the OBBTree of a mesh. */
export function buildObbTree(mesh: TriangleMesh, options: ObbBuildOptions = {}): ObbTree {
  if (buildKernel === 'wasm' && (options.fit ?? 'surface') === 'surface') {
    const leafSize = checkLeafSize(options.leafSize ?? DEFAULT_LEAF_SIZE);
    if (mesh.triangleCount === 0) throw new RangeError('cannot build a tree over a mesh with no triangles');
    const built = buildObbInKernel(mesh.positions, mesh.indices, leafSize);
    if (built) {
      const k = built.storage;
      const tree: ObbTree = {
        kind: 'obb',
        nodeCount: built.nodeCount,
        boxes: k.boxes,
        nodes: k.nodes,
        leafSize,
        positions: k.positions,
        vertexCount: mesh.vertexCount,
        triangleCount: mesh.triangleCount,
        maxAbsCoordinate: built.maxAbsCoordinate,
        triVerts: k.triVerts,
        triOrder: k.triOrder,
      };
      k.adopt(tree);
      return tree;
    }
  }
  const built = buildObbNodes(mesh, options);
  const store = built.store, count = store.count, perm = built.prep.perm, I = mesh.indices;
  // Straight into the query kernel's memory when there is one: its queries then copy nothing.
  const k = treeStorage(count, OBB_STRIDE, perm.length, mesh.positions.length);
  if (k) {
    k.boxes.set(store.boxes.subarray(0, count * OBB_STRIDE));
    k.nodes.set(store.nodes.subarray(0, 2 * count));
    k.positions.set(mesh.positions);
    const TV = k.triVerts, TO = k.triOrder;
    for (let s = 0; s < perm.length; s++) {
      const t = perm[s];
      TV[3 * s] = I[3 * t]; TV[3 * s + 1] = I[3 * t + 1]; TV[3 * s + 2] = I[3 * t + 2];
      TO[s] = t;
    }
    const tree: ObbTree = {
      kind: 'obb',
      nodeCount: count,
      boxes: k.boxes,
      nodes: k.nodes,
      leafSize: built.leafSize,
      positions: k.positions,
      vertexCount: mesh.vertexCount,
      triangleCount: mesh.triangleCount,
      maxAbsCoordinate: built.prep.maxAbs,
      triVerts: TV,
      triOrder: TO,
    };
    k.adopt(tree);
    return tree;
  }
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

/**
 * Build scratch in slot order, reused across builds (see the file comment): per triangle its nine
 * vertex coordinates (`slotVerts`) and its slot (./slots.ts), computed once per build: the moments
 * of geometry/obbFit.ts relative to the mesh's reference point (area, first moment, second
 * moment), scaled, as floats (`slotMoments`), and its vertex sum (`slotSums`, the same memory). A
 * group's sums are the sums of its triangles', so a level only adds them; `perm` and both are
 * partitioned together, in place.
 */
let slotVerts = new Float64Array(0);
let slotMoments = new Float32Array(0);
let slotSums = new Float64Array(0);

/** Per pending group, what its parent's pass measured: its moments' and vertex sums, in doubles. */
const GROUP_STRIDE = MOMENT_STRIDE + 3;

/** Extents from the last pass: lo0 hi0 lo1 hi1 lo2 hi2; then each side's GROUP_STRIDE sums. */
const EXT = new Float64Array(6);
const SIDES = new Float64Array(2 * GROUP_STRIDE);

const THIRD = 1 / 3;
const TWELFTH = 1 / 12;

/**
 * Fills the slot-order scratch for triangles in mesh order: vertex copies, and per triangle area m,
 * first moment m·s/3 and second moment (m/12)(s sᵀ + p pᵀ + q qᵀ + w wᵀ) of its vertices relative
 * to (rx, ry, rz) and scaled by `scale` (s = p + q + w), rounded to floats, then the vertex sum in
 * mesh coordinates.
 */
function fillSlots(
  P: Float64Array, I: Uint32Array, n: number, rx: number, ry: number, rz: number, scale: number,
  tv: Float64Array, tf: Float32Array, ts: Float64Array,
): void {
  for (let t = 0; t < n; t++) {
    const a = 3 * I[3 * t], b = 3 * I[3 * t + 1], c = 3 * I[3 * t + 2], o = 9 * t, f = SLOT_FLOATS * t, u = SLOT_DOUBLES * t + SLOT_VERTEX_SUM;
    const Px = P[a], Py = P[a + 1], Pz = P[a + 2], Qx = P[b], Qy = P[b + 1], Qz = P[b + 2], Wx = P[c], Wy = P[c + 1], Wz = P[c + 2];
    tv[o] = Px; tv[o + 1] = Py; tv[o + 2] = Pz;
    tv[o + 3] = Qx; tv[o + 4] = Qy; tv[o + 5] = Qz;
    tv[o + 6] = Wx; tv[o + 7] = Wy; tv[o + 8] = Wz;
    const ux = (Qx - Px) * scale, uy = (Qy - Py) * scale, uz = (Qz - Pz) * scale;
    const vx = (Wx - Px) * scale, vy = (Wy - Py) * scale, vz = (Wz - Pz) * scale;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const m = 0.5 * Math.sqrt(nx * nx + ny * ny + nz * nz);
    const px = (Px - rx) * scale, py = (Py - ry) * scale, pz = (Pz - rz) * scale;
    const qx = (Qx - rx) * scale, qy = (Qy - ry) * scale, qz = (Qz - rz) * scale;
    const wx = (Wx - rx) * scale, wy = (Wy - ry) * scale, wz = (Wz - rz) * scale;
    const sx = px + qx + wx, sy = py + qy + wy, sz = pz + qz + wz;
    const m3 = m * THIRD, k = m * TWELFTH;
    tf[f] = m; tf[f + 1] = m3 * sx; tf[f + 2] = m3 * sy; tf[f + 3] = m3 * sz;
    tf[f + 4] = k * (sx * sx + px * px + qx * qx + wx * wx);
    tf[f + 5] = k * (sx * sy + px * py + qx * qy + wx * wy);
    tf[f + 6] = k * (sx * sz + px * pz + qx * qz + wx * wz);
    tf[f + 7] = k * (sy * sy + py * py + qy * qy + wy * wy);
    tf[f + 8] = k * (sy * sz + py * pz + qy * qz + wy * wz);
    tf[f + 9] = k * (sz * sz + pz * pz + qz * qz + wz * wz);
    ts[u] = Px + Qx + Wx; ts[u + 1] = Py + Qy + Wy; ts[u + 2] = Pz + Qz + Wz;
  }
}

/**
 * Type feedback for the build's passes before the first real build. V8 compiles a long loop while
 * it runs (on-stack replacement); in the first build the root pass over every triangle is such a
 * loop, and whatever follows the loop (its results' stores) has not run yet, so the compiled loop
 * deoptimises at its exit, and keeps doing so on every later call that enters the same cached
 * loop code: hundreds of deoptimisations per build, long after the code is warm. A build over a
 * small mesh first (PRIMER_SECTORS × PRIMER_STACKS quads on a sphere, a few hundred microseconds,
 * too short for a loop to be compiled during it) runs every statement of the passes once, so the
 * code V8 compiles later has seen all of them.
 */
const PRIMER_SECTORS = 12;
const PRIMER_STACKS = 6;
let primed = false;

function primeObbBuild(): void {
  if (primed) return;
  primed = true;
  const positions = new Float64Array(3 * PRIMER_SECTORS * (PRIMER_STACKS + 1));
  const indices = new Uint32Array(6 * PRIMER_SECTORS * PRIMER_STACKS);
  for (let j = 0; j <= PRIMER_STACKS; j++) {
    const phi = (Math.PI * j) / PRIMER_STACKS;
    for (let i = 0; i < PRIMER_SECTORS; i++) {
      const theta = (2 * Math.PI * i) / PRIMER_SECTORS, v = 3 * (j * PRIMER_SECTORS + i);
      positions[v] = Math.sin(phi) * Math.cos(theta);
      positions[v + 1] = Math.sin(phi) * Math.sin(theta);
      positions[v + 2] = Math.cos(phi);
    }
  }
  let k = 0;
  for (let j = 0; j < PRIMER_STACKS; j++) {
    for (let i = 0; i < PRIMER_SECTORS; i++) {
      const a = j * PRIMER_SECTORS + i, b = j * PRIMER_SECTORS + ((i + 1) % PRIMER_SECTORS);
      indices[k++] = a; indices[k++] = b; indices[k++] = a + PRIMER_SECTORS;
      indices[k++] = b; indices[k++] = b + PRIMER_SECTORS; indices[k++] = a + PRIMER_SECTORS;
    }
  }
  buildObbNodes({ positions, indices, vertexCount: positions.length / 3, triangleCount: indices.length / 3 }, {});
}

function buildObbNodes(mesh: TriangleMesh, options: ObbBuildOptions): { store: NodeStore; prep: Prepared; leafSize: number } {
  const leafSize = checkLeafSize(options.leafSize ?? DEFAULT_LEAF_SIZE);
  const useHull = (options.fit ?? 'surface') === 'hull';
  primeObbBuild();
  const prep = prepare(mesh);
  const n = prep.n;
  if (slotVerts.length < 9 * n) {
    slotVerts = new Float64Array(9 * n);
    const slots = new ArrayBuffer(SLOT_DOUBLES * 8 * n);
    slotMoments = new Float32Array(slots);
    slotSums = new Float64Array(slots);
  }
  fillSlots(mesh.positions, mesh.indices, n, prep.refX, prep.refY, prep.refZ, prep.scale, slotVerts, slotMoments, slotSums);
  const store = NodeStore.acquire(OBB_STRIDE, Math.ceil((3 * n) / leafSize) + 16);
  const stamp = useHull ? new Int32Array(mesh.vertexCount).fill(-1) : new Int32Array(0);
  obbNodes(mesh, prep, leafSize, useHull, store, stamp);
  return { store, prep, leafSize };
}

/** Scratch for point-based fits: the vertices of a group. */
let fitPoints = new Float64Array(0);

/** The top-down loop over pending groups (slots filled by fillSlots). */
function obbNodes(mesh: TriangleMesh, prep: Prepared, leafSize: number, useHull: boolean, store: NodeStore, stamp: Int32Array): void {
  const P = mesh.positions, I = mesh.indices, perm = prep.perm, n = prep.n;
  const refX = prep.refX, refY = prep.refY, refZ = prep.refZ;
  const tv = slotVerts, tf = slotMoments, ts = slotSums;
  const stack = new RangeStack();
  let sums = new Float64Array(GROUP_STRIDE * 64);
  sumSlots(tf, ts, 0, n, sums, 0);
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
      fitted = hullFrame(P, I, perm, first, end, node, stamp);
    }
    if (!fitted) {
      for (let k = 0; k < MOMENT_STRIDE; k++) SUM[k] = sums[so + k];
      if (!frameFromMoments(SUM, FRAME, 0)) pointFrame(tv, first, count, refX, refY, refZ);
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
    let mid = splitPass(perm, tv, tf, ts, first, end, cx, cy, cz, sums, so);
    writeObb(store.boxes, node * OBB_STRIDE, FRAME, EXT);
    for (let axis = 1; axis < 3 && !(mid > first && mid < end); axis++) {
      const ax = FRAME[3 * axis], ay = FRAME[3 * axis + 1], az = FRAME[3 * axis + 2];
      mid = partitionPass(perm, tv, tf, ts, first, end, ax, ay, az, ax * cx + ay * cy + az * cz, sums, so);
    }
    if (!(mid > first && mid < end)) {
      // Coincident centres: any split keeps the tree correct, so halve the group.
      mid = first + (count >> 1);
      childSums(tf, ts, first, mid, end, sums, so);
    }
    if (GROUP_STRIDE * (entry + 2) > sums.length) {
      const grown = new Float64Array(sums.length * 2); grown.set(sums); sums = grown;
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
}

/** The paper's fit: the frame of the convex hull of the group's vertices (false: no 3D hull). */
function hullFrame(P: Float64Array, I: Uint32Array, perm: Uint32Array, first: number, end: number, node: number, stamp: Int32Array): boolean {
  if (fitPoints.length < 9 * (end - first)) fitPoints = new Float64Array(Math.max(9 * (end - first), 2 * fitPoints.length));
  const pts = fitPoints;
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
  return frameFromHull(pts, m, FRAME, 0, SUM);
}

/** Zero total area: the frame of the covariance of the group's vertices, into FRAME. */
function pointFrame(tv: Float64Array, first: number, count: number, rx: number, ry: number, rz: number): void {
  if (fitPoints.length < 9 * count) fitPoints = new Float64Array(Math.max(9 * count, 2 * fitPoints.length));
  const pts = fitPoints;
  for (let k = 0; k < 3 * count; k++) {
    const o = 9 * first + 3 * k;
    pts[3 * k] = tv[o] - rx; pts[3 * k + 1] = tv[o + 1] - ry; pts[3 * k + 2] = tv[o + 2] - rz;
  }
  frameFromPoints(pts, 3 * count, FRAME, 0);
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
    if (d0 < lo0) lo0 = d0; if (d0 > hi0) hi0 = d0;
    if (d1 < lo1) lo1 = d1; if (d1 > hi1) hi1 = d1;
    if (d2 < lo2) lo2 = d2; if (d2 > hi2) hi2 = d2;
  }
  EXT[0] = lo0; EXT[1] = hi0; EXT[2] = lo1; EXT[3] = hi1; EXT[4] = lo2; EXT[5] = hi2;
}

/** Per slot of the group being split: the sum of its vertices' projections on axis 0. */
let slotProj = new Float64Array(0);

/**
 * The internal-node passes over slots [first, end): vertex projections on the three axes of FRAME
 * (ranges into EXT), then a partition by centre along axis 0 through the mean centre c (triangles
 * whose vertices' projections sum below 3 c·a0 first), moving `perm` and the slot scratch
 * together, then each side's sums into SIDES. Three short loops rather than one: each keeps its
 * values in registers. Returns the split position.
 */
function splitPass(
  perm: Uint32Array, tv: Float64Array, tf: Float32Array, ts: Float64Array, first: number, end: number, cx: number, cy: number, cz: number,
  parentSums: Float64Array, parentOffset: number,
): number {
  if (slotProj.length < end) slotProj = new Float64Array(Math.max(end, 2 * slotProj.length));
  extentsAndProjections(tv, first, end, slotProj);
  const threshold = 3 * (FRAME[0] * cx + FRAME[1] * cy + FRAME[2] * cz);
  const mid = partitionByProjection(perm, tv, tf, ts, slotProj, first, end, threshold);
  if (mid > first && mid < end) childSums(tf, ts, first, mid, end, parentSums, parentOffset);
  return mid;
}

/** extentsPass, and the sum of each triangle's vertex projections on axis 0 into proj[slot]. */
function extentsAndProjections(tv: Float64Array, first: number, end: number, proj: Float64Array): void {
  const a0x = FRAME[0], a0y = FRAME[1], a0z = FRAME[2];
  const a1x = FRAME[3], a1y = FRAME[4], a1z = FRAME[5];
  const a2x = FRAME[6], a2y = FRAME[7], a2z = FRAME[8];
  let lo0 = Infinity, hi0 = -Infinity, lo1 = Infinity, hi1 = -Infinity, lo2 = Infinity, hi2 = -Infinity;
  for (let i = first; i < end; i++) {
    const o = 9 * i;
    const Px = tv[o], Py = tv[o + 1], Pz = tv[o + 2];
    const Qx = tv[o + 3], Qy = tv[o + 4], Qz = tv[o + 5];
    const Wx = tv[o + 6], Wy = tv[o + 7], Wz = tv[o + 8];
    const p0 = a0x * Px + a0y * Py + a0z * Pz, q0 = a0x * Qx + a0y * Qy + a0z * Qz, w0 = a0x * Wx + a0y * Wy + a0z * Wz;
    const p1 = a1x * Px + a1y * Py + a1z * Pz, q1 = a1x * Qx + a1y * Qy + a1z * Qz, w1 = a1x * Wx + a1y * Wy + a1z * Wz;
    const p2 = a2x * Px + a2y * Py + a2z * Pz, q2 = a2x * Qx + a2y * Qy + a2z * Qz, w2 = a2x * Wx + a2y * Wy + a2z * Wz;
    // Comparisons, not Math.min/max: the values are finite, and a compare-and-branch that rarely
    // updates is cheaper than the NaN- and −0-aware min.
    if (p0 < lo0) lo0 = p0; if (p0 > hi0) hi0 = p0;
    if (q0 < lo0) lo0 = q0; if (q0 > hi0) hi0 = q0;
    if (w0 < lo0) lo0 = w0; if (w0 > hi0) hi0 = w0;
    if (p1 < lo1) lo1 = p1; if (p1 > hi1) hi1 = p1;
    if (q1 < lo1) lo1 = q1; if (q1 > hi1) hi1 = q1;
    if (w1 < lo1) lo1 = w1; if (w1 > hi1) hi1 = w1;
    if (p2 < lo2) lo2 = p2; if (p2 > hi2) hi2 = p2;
    if (q2 < lo2) lo2 = q2; if (q2 > hi2) hi2 = q2;
    if (w2 < lo2) lo2 = w2; if (w2 > hi2) hi2 = w2;
    proj[i] = p0 + q0 + w0;
  }
  EXT[0] = lo0; EXT[1] = hi0; EXT[2] = lo1; EXT[3] = hi1; EXT[4] = lo2; EXT[5] = hi2;
}

/**
 * Partition of slots [first, end) by proj[slot] < threshold (Hoare's: scan from both ends and
 * exchange only misplaced pairs); returns the split position.
 */
function partitionByProjection(
  perm: Uint32Array, tv: Float64Array, tf: Float32Array, ts: Float64Array, proj: Float64Array, first: number, end: number, threshold: number,
): number {
  let i = first, j = end - 1;
  for (;;) {
    while (i <= j && proj[i] < threshold) i++;
    while (i < j && !(proj[j] < threshold)) j--;
    if (i >= j) return i;
    swapSlots(perm, tv, tf, ts, i, j);
    i++;
    j--;
  }
}

/** Partition only (fallback axes): as splitPass without the extents, along (ax, ay, az). */
function partitionPass(
  perm: Uint32Array, tv: Float64Array, tf: Float32Array, ts: Float64Array, first: number, end: number,
  ax: number, ay: number, az: number, centreProj: number, parentSums: Float64Array, parentOffset: number,
): number {
  const threshold = 3 * centreProj;
  let i = first, j = end;
  while (i < j) {
    const o = 9 * i;
    const proj = (tv[o] + tv[o + 3] + tv[o + 6]) * ax + (tv[o + 1] + tv[o + 4] + tv[o + 7]) * ay + (tv[o + 2] + tv[o + 5] + tv[o + 8]) * az;
    if (proj < threshold) { i++; continue; }
    j--;
    swapSlots(perm, tv, tf, ts, i, j);
  }
  if (i > first && i < end) childSums(tf, ts, first, i, end, parentSums, parentOffset);
  return i;
}

/** Exchanges slots i and j: permutation entry, vertex copies, moments and vertex sums. */
function swapSlots(perm: Uint32Array, tv: Float64Array, tf: Float32Array, ts: Float64Array, i: number, j: number): void {
  const t = perm[i]; perm[i] = perm[j]; perm[j] = t;
  let o = 9 * i, q = 9 * j, x: number;
  x = tv[o]; tv[o] = tv[q]; tv[q] = x;
  x = tv[o + 1]; tv[o + 1] = tv[q + 1]; tv[q + 1] = x;
  x = tv[o + 2]; tv[o + 2] = tv[q + 2]; tv[q + 2] = x;
  x = tv[o + 3]; tv[o + 3] = tv[q + 3]; tv[q + 3] = x;
  x = tv[o + 4]; tv[o + 4] = tv[q + 4]; tv[q + 4] = x;
  x = tv[o + 5]; tv[o + 5] = tv[q + 5]; tv[q + 5] = x;
  x = tv[o + 6]; tv[o + 6] = tv[q + 6]; tv[q + 6] = x;
  x = tv[o + 7]; tv[o + 7] = tv[q + 7]; tv[q + 7] = x;
  x = tv[o + 8]; tv[o + 8] = tv[q + 8]; tv[q + 8] = x;
  // Floats through numbers and back are exact (they are finite).
  o = SLOT_FLOATS * i; q = SLOT_FLOATS * j;
  for (let k = 0; k < MOMENT_FLOATS; k++) {
    x = tf[o + k]; tf[o + k] = tf[q + k]; tf[q + k] = x;
  }
  o = SLOT_DOUBLES * i + SLOT_VERTEX_SUM; q = SLOT_DOUBLES * j + SLOT_VERTEX_SUM;
  x = ts[o]; ts[o] = ts[q]; ts[q] = x;
  x = ts[o + 1]; ts[o + 1] = ts[q + 1]; ts[q + 1] = x;
  x = ts[o + 2]; ts[o + 2] = ts[q + 2]; ts[q + 2] = x;
}

/**
 * The sums of the children [first, mid) and [mid, end) into SIDES (left at 0, right at
 * GROUP_STRIDE): the smaller child's added up, the larger's the parent's minus it.
 */
function childSums(tf: Float32Array, ts: Float64Array, first: number, mid: number, end: number, parent: Float64Array, po: number): void {
  const leftSmaller = mid - first <= end - mid;
  const small = leftSmaller ? 0 : GROUP_STRIDE, large = leftSmaller ? GROUP_STRIDE : 0;
  if (leftSmaller) sumSlots(tf, ts, first, mid, SIDES, 0);
  else sumSlots(tf, ts, mid, end, SIDES, GROUP_STRIDE);
  for (let k = 0; k < GROUP_STRIDE; k++) SIDES[large + k] = parent[po + k] - SIDES[small + k];
  // A larger child of (almost) no area: its own sums, so that its fit sees its zero area exactly.
  if (!(SIDES[large] > 1e-9 * parent[po])) {
    if (leftSmaller) sumSlots(tf, ts, mid, end, SIDES, GROUP_STRIDE);
    else sumSlots(tf, ts, first, mid, SIDES, 0);
  }
}

/** The sums of slots [first, end) into out[o..o+GROUP_STRIDE-1], in doubles. */
function sumSlots(tf: Float32Array, ts: Float64Array, first: number, end: number, out: Float64Array, o: number): void {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0, s8 = 0, s9 = 0, sx = 0, sy = 0, sz = 0;
  for (let f = SLOT_FLOATS * first, u = SLOT_DOUBLES * first + SLOT_VERTEX_SUM, e = SLOT_FLOATS * end; f < e; f += SLOT_FLOATS, u += SLOT_DOUBLES) {
    s0 += tf[f]; s1 += tf[f + 1]; s2 += tf[f + 2]; s3 += tf[f + 3]; s4 += tf[f + 4];
    s5 += tf[f + 5]; s6 += tf[f + 6]; s7 += tf[f + 7]; s8 += tf[f + 8]; s9 += tf[f + 9];
    sx += ts[u]; sy += ts[u + 1]; sz += ts[u + 2];
  }
  out[o] = s0; out[o + 1] = s1; out[o + 2] = s2; out[o + 3] = s3; out[o + 4] = s4;
  out[o + 5] = s5; out[o + 6] = s6; out[o + 7] = s7; out[o + 8] = s8; out[o + 9] = s9;
  out[o + 10] = sx; out[o + 11] = sy; out[o + 12] = sz;
}

/**
 * Writes an OBB from a frame F (three axes) and the vertex projections' ranges E on them: axes
 * sorted by decreasing extent (kept right-handed), half extents inflated against rounding.
 *
 * Only the first two axes are stored; readers form the third as their cross product
 * (layout.ts's obbAxes). That is F's own third axis, signed, to the bit whenever the sort keeps it
 * last (the eigen-decomposition and orthonormalFrame form it with the same expressions); when the
 * sort moves it, the cross product differs from the measured axis by a few units in the last
 * place, and the third half extent grows to cover the difference: a vertex p of the node is
 * within 2√3 · scale of the centre (its projections and the centre's on the near-orthonormal F
 * are at most `scale`), so |(p − c)·(n − e)| ≤ 3.5 · scale · Σ|n − e| for the stored axis n and
 * the measured one e. The factor 8 covers that and the rounding of the bound itself.
 * (Exported for its tests.)
 */
export function writeObb(B: Float64Array, o: number, F: Float64Array, E: Float64Array): void {
  const lo0 = E[0], hi0 = E[1], lo1 = E[2], hi1 = E[3], lo2 = E[4], hi2 = E[5];
  const scale = Math.max(Math.abs(lo0), Math.abs(hi0), Math.abs(lo1), Math.abs(hi1), Math.abs(lo2), Math.abs(hi2));
  const pad = INFLATE * scale + 1e-300;
  const H = HS;
  H[0] = 0.5 * (hi0 - lo0) + pad; H[1] = 0.5 * (hi1 - lo1) + pad; H[2] = 0.5 * (hi2 - lo2) + pad;
  // + 0: a zero range's centre is +0, whichever zero the passes met first (the kernel's build
  // meets a node's slots in another order: kernel/as/build.ts).
  const m0 = 0.5 * (lo0 + hi0) + 0, m1 = 0.5 * (lo1 + hi1) + 0, m2 = 0.5 * (lo2 + hi2) + 0;
  B[o] = m0 * F[0] + m1 * F[3] + m2 * F[6];
  B[o + 1] = m0 * F[1] + m1 * F[4] + m2 * F[7];
  B[o + 2] = m0 * F[2] + m1 * F[5] + m2 * F[8];
  // Order the axes by extent with a sorting network and track the permutation's parity.
  let i0 = 0, i1 = 1, i2 = 2, t: number, odd = false;
  if (H[i0] < H[i1]) { t = i0; i0 = i1; i1 = t; odd = !odd; }
  if (H[i1] < H[i2]) { t = i1; i1 = i2; i2 = t; odd = !odd; }
  if (H[i0] < H[i1]) { t = i0; i0 = i1; i1 = t; odd = !odd; }
  const ax = F[3 * i0], ay = F[3 * i0 + 1], az = F[3 * i0 + 2];
  const bx = F[3 * i1], by = F[3 * i1 + 1], bz = F[3 * i1 + 2];
  const s = odd ? -1 : 1;
  const nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
  const drift = Math.abs(nx - s * F[3 * i2]) + Math.abs(ny - s * F[3 * i2 + 1]) + Math.abs(nz - s * F[3 * i2 + 2]);
  B[o + 3] = H[i0]; B[o + 4] = H[i1]; B[o + 5] = H[i2] + 8 * scale * drift;
  B[o + 6] = ax; B[o + 7] = ay; B[o + 8] = az;
  B[o + 9] = bx; B[o + 10] = by; B[o + 11] = bz;
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
