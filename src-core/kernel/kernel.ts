/**
 * The WebAssembly query kernel's host: loads the module compiled from `as/kernel.ts` (by
 * scripts/buildKernel.mjs, into `kernelBinary.ts`), keeps the trees it queries resident in its
 * memory, lays out the scratch, and runs OBB queries there.
 *
 * Why: a command line run or the app's first check is a process's first query, and JavaScript
 * runs interpreted until V8 has optimised it; WebAssembly is compiled before the first call, so
 * the first query is about as fast as the hundredth (docs/engine.md, "Cold start").
 *
 * Exactness is the TypeScript engine's: the kernel evaluates the same expressions in the same
 * order in IEEE double precision, and every triangle pair its floating-point filter cannot
 * certify goes to `triTriIntersect` (geometry/triTri.ts) through the `exactPair` import.
 *
 * Residency: a tree is copied into the kernel's memory the first time it is queried (trees are
 * immutable once built) and stays there until `releaseTree`, until the tree object is collected,
 * or, past a budget, until it is the least recently used. The memory holds the parameter block
 * and the triangle scratch (page 1), then blocks (`Arena`): the resident trees, the query scratch
 * (B's mapped boxes and vertices with their query stamps, A's mapped vertices for placed queries,
 * the traversal stack) and the pair list.
 */
import { triTriIntersect } from '../geometry/triTri.js';
import { OBB_STRIDE, type ObbTree, type HybridTree } from '../obbtree/layout.js';
import { SLOT_BYTES, momentScale } from '../obbtree/slots.js';
import { KERNEL_WASM_BASE64 } from './kernelBinary.js';
import { decodeBase64, precompiledKernel } from './precompiled.js';

/** The subset of the WebAssembly JavaScript API used here (src-core has no DOM or Node types). */
interface WasmMemory {
  readonly buffer: SharedArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum: number; shared: boolean }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
}

const PAGE = 65536;
/** The memory's maximum: 65,536 pages less one, so that every address fits a u32 with room. */
const MAX_BYTES = 65535 * PAGE;
const PARAMS = 65536;
const P_VB = 96;
const P_MA = 192;
const P_POSE = 304;
const P_MAX_A = 432;
const P_MAX_B = 440;
const P_INT = 512;
/** Bytes of a node record in the query's scratch (the kernel's NC_STRIDE): its stamp first. */
const NODE_RECORD_BYTES = 128;
/** Where the tree builder leaves the mesh's bounds (its SIDES block; as/build.ts). */
const BUILD_SIDES = 16384;
/**
 * The tree builder's scratch past its slots (as/build.ts): the projections of a group of at most
 * PAIRED_SLOTS slots, 16 bytes of slack and two lists of slots to exchange (4 bytes each).
 */
const PAIRED_SLOTS = 4096;
const BUILD_PROJ_BYTES = 8 * PAIRED_SLOTS + 16 + 2 * 4 * PAIRED_SLOTS;
/** Bytes per pending group of the tree builder (its ENTRY_BYTES): 13 sums, a frame of 9, a flag. */
const BUILD_ENTRY_BYTES = 8 * (13 + 9 + 1);
/** The probes' results (as/probe.ts's PROBE block): ray t, closest point, ray triangle, crossings, grazing. */
const PROBE = PARAMS + 12288;
const I = {
  aBoxes: 0, aNodes: 1, aTriVerts: 2, aPos: 3, aOrder: 4,
  bBoxes: 5, bNodes: 6, bTriVerts: 7, bPos: 8, bOrder: 9,
  nodeCache: 10, vertCacheB: 11, vertStampB: 12, vertCacheA: 13, vertStampA: 14,
  stack: 15, pairs: 17, pairCap: 18, epoch: 19, any: 20, placed: 21,
  outPairs: 22, outBox: 23, outTri: 24, outExact: 25,
} as const;
/** First byte after page 1 (the parameter block, the triangle scratch, the expansion buffers). */
const TREES_BASE = PARAMS + PAGE;
/**
 * Resident trees, least recently used first, are dropped past this many bytes (a dropped tree is
 * copied again on its next query).
 */
const RESIDENT_BUDGET = 1024 * 1024 * 1024;

/** A ray's result (proximity.ts's RAY): first hit t, its triangle, crossings, whether a hit grazed. */
export interface RayHit {
  t: number;
  triangle: number;
  crossings: number;
  degenerate: boolean;
}

/** The kernel's memory cannot hold a block: its callers fall back to ordinary arrays and TypeScript. */
export class KernelMemoryError extends RangeError {
  constructor(bytes: number) {
    super(`the query kernel's memory cannot hold another ${bytes} bytes`);
    this.name = 'KernelMemoryError';
  }
}

/** `bytes` rounded up to a multiple of 16: every part of a block starts 16-byte aligned. */
const aligned = (bytes: number): number => (bytes + 15) & ~15;

/** The bytes a block of parts of these sizes takes, laid one after another. */
const blockBytes = (sizes: readonly number[]): number => sizes.reduce((sum, b) => sum + aligned(b), 0);

/** The addresses of parts of these sizes laid one after another from `at`. */
function partsAt(at: number, sizes: readonly number[]): number[] {
  const addresses: number[] = [];
  for (const b of sizes) {
    addresses.push(at);
    at += aligned(b);
  }
  return addresses;
}

function tryGrow(memory: WasmMemory, pages: number): boolean {
  try {
    return memory.grow(pages) >= 0;
  } catch {
    return false; // RangeError: past the maximum, or the system refused the memory
  }
}

/**
 * Blocks of the kernel's memory: first fit over a free list kept in address order (neighbours
 * merged), else from the top, growing the memory. Addresses and sizes are multiples of 16.
 */
class Arena {
  /** Free blocks as [address, size] pairs in address order. */
  private readonly free: number[] = [];
  private top: number;
  /** Bytes from here up were never handed out: the memory there is still all zeros. */
  private highWater: number;
  /** Was the block the last `alloc` returned never handed out before (so still all zeros)? */
  lastFresh = false;
  /** Bumped whenever the memory grows (views over it must then be made again). */
  growths = 0;
  /** The most the memory may grow to (MAX_BYTES; lower in the fallback tests). */
  limit = MAX_BYTES;

  constructor(private readonly memory: WasmMemory, base: number) {
    this.top = base;
    this.highWater = base;
  }

  alloc(bytes: number): number {
    const size = (bytes + 15) & ~15 || 16;
    const f = this.free;
    let at = -1;
    for (let k = 0; k < f.length; k += 2) {
      if (f[k + 1] >= size) {
        at = f[k];
        if (f[k + 1] === size) f.splice(k, 2);
        else {
          f[k] += size;
          f[k + 1] -= size;
        }
        break;
      }
    }
    if (at < 0) {
      at = this.top;
      const end = at + size, have = this.memory.buffer.byteLength;
      if (end > have) {
        // Grow by at least half again, so that a run of allocations grows the memory a few times.
        const want = Math.max(end, Math.min(have * 1.5, this.limit));
        if (want > this.limit || !tryGrow(this.memory, Math.ceil((want - have) / PAGE))) throw new KernelMemoryError(bytes);
        this.growths++;
      }
      this.top = end;
    }
    this.lastFresh = at >= this.highWater;
    this.highWater = Math.max(this.highWater, at + size);
    return at;
  }

  release(at: number, bytes: number): void {
    const size = (bytes + 15) & ~15 || 16;
    const f = this.free;
    let k = 0;
    while (k < f.length && f[k] < at) k += 2;
    f.splice(k, 0, at, size);
    // Merge with the next block, then with the previous one.
    if (k + 2 < f.length && f[k] + f[k + 1] === f[k + 2]) {
      f[k + 1] += f[k + 3];
      f.splice(k + 2, 2);
    }
    if (k >= 2 && f[k - 2] + f[k - 1] === f[k]) {
      f[k - 1] += f[k + 1];
      f.splice(k, 2);
    }
    // A free block at the top returns to the top.
    if (f.length >= 2 && f[f.length - 2] + f[f.length - 1] === this.top) {
      this.top = f[f.length - 2];
      f.length -= 2;
    }
  }
}

interface Resident {
  at: number;
  bytes: number;
  boxes: number;
  nodes: number;
  triVerts: number;
  positions: number;
  triOrder: number;
  lastUse: number;
  live: boolean;
  /** The tree's own storage (built here), not a copy: never evicted, freed with the tree. */
  owned: boolean;
}

/** An OBB tree built by the kernel (`buildObbInKernel`): its arrays, node count and coordinate bound. */
export interface BuiltObb {
  readonly storage: TreeStorage;
  readonly nodeCount: number;
  readonly maxAbsCoordinate: number;
}

/** A tree's arrays in the kernel's memory, for a builder to fill (`treeStorage`). */
export interface TreeStorage {
  readonly boxes: Float64Array;
  readonly positions: Float64Array;
  readonly nodes: Int32Array;
  readonly triVerts: Uint32Array;
  readonly triOrder: Uint32Array;
  /** Registers the finished tree that holds these arrays: its queries need no copy. */
  adopt(tree: object): void;
}

class Kernel {
  private readonly memory: WasmMemory;
  private readonly queryFn: (len: number, any: number, epoch: number) => number;
  private readonly arena: Arena;
  private f64: Float64Array;
  private i32: Int32Array;
  private u8: Uint8Array;
  private readonly resident = new WeakMap<object, Resident>();
  /** Every resident entry, for the budget (entries, not trees: trees stay collectable). */
  private readonly entries = new Set<Resident>();
  private residentBytes = 0;
  private readonly finalizer: FinalizationRegistry<Resident>;
  private useClock = 0;
  /** The scratch block and the capacities it was laid out for. */
  private scratchAt = 0;
  private scratchBytes = 0;
  /** Where the scratch's vertex stamps are, and their bytes (B's, then A's). */
  private stampsB = 0;
  private stampsA = 0;
  private stampBytesB = 0;
  private stampBytesA = 0;
  private nodeCap = 0;
  private vertCapB = 0;
  private vertCapA = 0;
  private stackCap = 0;
  private pairsAt = 0;
  private pairCap = 0;
  private epoch = 0;
  private seenGrowths = 0;
  /** The trees (their entries) and the kind of query the parameter block was last set up for. */
  private lastA: Resident | null = null;
  private lastB: Resident | null = null;
  private lastPlaced = false;
  /** The tree builder's scratch block (kept from build to build: its pages stay committed). */
  private buildAt = 0;
  private buildBytes = 0;
  /** First capacities of the builder's node store and stack, when a test sets them. */
  buildCaps: { nodes: number | null; stack: number | null } = { nodes: null, stack: null };
  private readonly buildFn: (...args: number[]) => number;
  private readonly finishFn: (...args: number[]) => void;
  private readonly boundsFn: (pos: number, idx: number, n: number) => void;
  private readonly probeTreeFn: (boxes: number, nodes: number, triVerts: number, positions: number, order: number, stack: number) => void;
  private readonly castFn: (ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tMin: number, tMax: number, skip: number) => void;
  private readonly insideFn: (px: number, py: number, pz: number) => number;
  private readonly distanceFn: (px: number, py: number, pz: number, maxDistance: number) => number;
  /** The probes' stack (u32 slots) and the tree they were last pointed at. */
  private probeStackAt = 0;
  private probeStackCap = 0;
  private probeEntry: Resident | null = null;

  constructor(api: WasmApi, compiled: Uint8Array | object) {
    // Shared memory never detaches its views when it grows, so trees can live in it (see
    // `treeStorage`); it reserves address space up to its maximum and commits only what is used.
    // Made first: where it is refused (a page without cross-origin isolation) nothing is compiled.
    this.memory = new api.Memory({ initial: 2, maximum: 65536, shared: true });
    const module = compiled instanceof Uint8Array ? new api.Module(compiled) : compiled;
    const instance = new api.Instance(module, {
      env: {
        memory: this.memory,
        exactPair: (a0: number, a1: number, a2: number, b0: number, b1: number, b2: number): number => {
          const F = this.view();
          return triTriIntersect(F, a0 / 8, a1 / 8, a2 / 8, F, b0 / 8, b1 / 8, b2 / 8) ? 1 : 0;
        },
        growPairs: (count: number): number => this.growPairs(count),
      },
    });
    this.queryFn = instance.exports.queryPose as Kernel['queryFn'];
    this.buildFn = instance.exports.buildObb as (...args: number[]) => number;
    this.finishFn = instance.exports.finishObb as (...args: number[]) => void;
    this.boundsFn = instance.exports.meshBounds as (pos: number, idx: number, n: number) => void;
    this.probeTreeFn = instance.exports.probeTree as Kernel['probeTreeFn'];
    this.castFn = instance.exports.castRay as Kernel['castFn'];
    this.insideFn = instance.exports.pointInMesh as Kernel['insideFn'];
    this.distanceFn = instance.exports.pointMeshDistance as Kernel['distanceFn'];
    this.arena = new Arena(this.memory, TREES_BASE);
    this.f64 = new Float64Array(this.memory.buffer);
    this.i32 = new Int32Array(this.memory.buffer);
    this.u8 = new Uint8Array(this.memory.buffer);
    this.finalizer = new FinalizationRegistry((entry) => this.drop(entry));
  }

  /** The memory as doubles, renewed after the memory grew. */
  private view(): Float64Array {
    if (this.seenGrowths !== this.arena.growths) {
      this.seenGrowths = this.arena.growths;
      this.f64 = new Float64Array(this.memory.buffer);
      this.i32 = new Int32Array(this.memory.buffer);
      this.u8 = new Uint8Array(this.memory.buffer);
    }
    return this.f64;
  }

  private drop(entry: Resident): void {
    if (!entry.live) return;
    entry.live = false;
    if (entry === this.lastA || entry === this.lastB) this.lastA = this.lastB = null;
    this.entries.delete(entry);
    this.residentBytes -= entry.bytes;
    this.arena.release(entry.at, entry.bytes);
  }

  limitMemory(bytes: number): void {
    this.arena.limit = Math.max(Math.min(bytes, MAX_BYTES), this.memory.buffer.byteLength);
  }

  /**
   * Frees a tree's block now: a copy (copied again if queried later), or the tree's own storage
   * (the tree is then unusable: see `releaseTree`).
   */
  release(tree: object): void {
    const entry = this.resident.get(tree);
    if (!entry) return;
    this.resident.delete(tree);
    this.finalizer.unregister(entry);
    // A tree built here has no other copy: its arrays now hold whatever comes next.
    if (entry.owned) released.add(tree);
    this.drop(entry);
  }

  /** Makes `tree` resident (copied in unless it already is); its arrays' addresses. */
  private place(tree: ObbTree | HybridTree, keep: object | null): Resident {
    const known = this.resident.get(tree);
    if (known && known.live) {
      known.lastUse = ++this.useClock;
      return known;
    }
    const parts = [tree.boxes, tree.positions, tree.nodes, tree.triVerts, tree.triOrder] as const;
    const sizes = parts.map((p) => p.byteLength);
    const bytes = blockBytes(sizes);
    // Past the budget, the least recently used trees (not the other one of this query) go.
    if (this.residentBytes + bytes > RESIDENT_BUDGET) {
      const byAge = [...this.entries].sort((x, y) => x.lastUse - y.lastUse);
      for (const e of byAge) {
        if (this.residentBytes + bytes <= RESIDENT_BUDGET) break;
        if (e.owned || (keep && this.resident.get(keep) === e)) continue;
        this.drop(e);
      }
    }
    const at = this.arena.alloc(bytes);
    this.view();
    const addr = partsAt(at, sizes);
    parts.forEach((src, k) => this.u8.set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength), addr[k]));
    const entry: Resident = {
      at, bytes, boxes: addr[0], positions: addr[1], nodes: addr[2], triVerts: addr[3], triOrder: addr[4],
      lastUse: ++this.useClock, live: true, owned: false,
    };
    this.resident.set(tree, entry);
    this.entries.add(entry);
    this.residentBytes += bytes;
    this.finalizer.register(tree, entry, entry);
    return entry;
  }

  /** Storage for a tree built straight into the kernel's memory (see `TreeStorage`). */
  treeStorage(nodeCount: number, boxStride: number, triangleCount: number, positionCount: number): TreeStorage {
    const sizes = [8 * boxStride * nodeCount, 8 * positionCount, 8 * nodeCount, 12 * triangleCount, 4 * triangleCount];
    const bytes = blockBytes(sizes);
    const at = this.arena.alloc(bytes);
    this.view();
    const addr = partsAt(at, sizes);
    return this.storageOf(
      { at, bytes, boxes: addr[0], positions: addr[1], nodes: addr[2], triVerts: addr[3], triOrder: addr[4], lastUse: ++this.useClock, live: true, owned: true },
      boxStride, nodeCount, triangleCount, positionCount,
    );
  }

  /** The arrays of a tree's own block, and the hook that makes the finished tree resident there. */
  private storageOf(entry: Resident, boxStride: number, nodeCount: number, triangleCount: number, positionCount: number): TreeStorage {
    const buffer = this.memory.buffer;
    return {
      boxes: new Float64Array(buffer, entry.boxes, boxStride * nodeCount),
      positions: new Float64Array(buffer, entry.positions, positionCount),
      nodes: new Int32Array(buffer, entry.nodes, 2 * nodeCount),
      triVerts: new Uint32Array(buffer, entry.triVerts, 3 * triangleCount),
      triOrder: new Uint32Array(buffer, entry.triOrder, triangleCount),
      adopt: (tree: object): void => {
        this.resident.set(tree, entry);
        this.finalizer.register(tree, entry, entry);
      },
    };
  }

  /**
   * Builds the OBB tree of a mesh here (as/build.ts: the TypeScript builder's tree, bit for bit)
   * into storage of its own. Throws KernelMemoryError when the memory cannot hold the scratch or
   * the tree.
   *
   * The tree's block is had first, for as many nodes as the builder may make: the positions are
   * copied into it and the boxes built in it, not in the scratch and copied after (the copies, and
   * the first touch of a scratch's pages, were 3 % of a warm build and about a sixth of a process's
   * first). The links, 8 bytes a node, are built in the scratch and copied after the boxes; the
   * block's unused end goes back to the arena.
   */
  buildObb(positions: Float64Array, indices: Uint32Array, leafSize: number): BuiltObb {
    const n = indices.length / 3;
    let nodeCap = this.buildCaps.nodes ?? Math.ceil((3 * n) / leafSize) + 16;
    let stackCap = this.buildCaps.stack ?? Math.min(n + 2, 4096);
    for (;;) {
      const parts = [4 * indices.length, 72 * n, SLOT_BYTES * n, 4 * n, BUILD_PROJ_BYTES, 12 * stackCap, BUILD_ENTRY_BYTES * stackCap, 8 * nodeCap];
      const total = blockBytes(parts);
      if (total > this.buildBytes) {
        if (this.buildAt) this.arena.release(this.buildAt, this.buildBytes);
        this.buildAt = 0;
        this.buildBytes = 0;
        this.buildAt = this.arena.alloc(total);
        this.buildBytes = total;
      }
      const [idx, tv, ts, perm, proj, stack, sums, nodes] = partsAt(this.buildAt, parts);
      // The tree's block: positions, triangles in tree order, original order, then the boxes and
      // links of up to nodeCap nodes.
      const treeParts = [8 * positions.length, 12 * n, 4 * n, 8 * OBB_STRIDE * nodeCap, 8 * nodeCap];
      const treeBlockBytes = blockBytes(treeParts);
      const block = this.arena.alloc(treeBlockBytes);
      let kept = false;
      try {
        const [posAt, triVertsAt, orderAt, boxesAt] = partsAt(block, treeParts);
        const F = this.view();
        F.set(positions, posAt / 8);
        new Uint32Array(this.memory.buffer, idx, indices.length).set(indices);
        this.boundsFn(posAt, idx, n);
        const b = (PARAMS + BUILD_SIDES) / 8;
        const minX = F[b], minY = F[b + 1], minZ = F[b + 2], maxX = F[b + 3], maxY = F[b + 4], maxZ = F[b + 5];
        const rx = 0.5 * (minX + maxX), ry = 0.5 * (minY + maxY), rz = 0.5 * (minZ + maxZ);
        const count = this.buildFn(
          posAt, idx, n, leafSize, rx, ry, rz, momentScale(Math.max(maxX - rx, maxY - ry, maxZ - rz)),
          tv, ts, perm, proj, stack, sums, stackCap, boxesAt, nodes, nodeCap,
        );
        // A store or stack too small (rare: deep or unbalanced trees): again with the bounds.
        if (count === -1) { nodeCap = 2 * n + 16; continue; }
        if (count === -2) { stackCap = n + 2; continue; }
        const nodesAt = boxesAt + aligned(8 * OBB_STRIDE * count);
        this.finishFn(count, n, nodes, perm, idx, nodesAt, triVertsAt, orderAt);
        const used = nodesAt + aligned(8 * count) - block;
        if (used < treeBlockBytes) this.arena.release(block + used, treeBlockBytes - used);
        kept = true;
        const entry: Resident = {
          at: block, bytes: used, boxes: boxesAt, positions: posAt, nodes: nodesAt, triVerts: triVertsAt, triOrder: orderAt,
          lastUse: ++this.useClock, live: true, owned: true,
        };
        return {
          storage: this.storageOf(entry, OBB_STRIDE, count, n, positions.length),
          nodeCount: count,
          maxAbsCoordinate: Math.max(-minX, maxX, -minY, maxY, -minZ, maxZ),
        };
      } finally {
        if (!kept) this.arena.release(block, treeBlockBytes);
      }
    }
  }

  /** Points the probes at `tree` (made resident), with a stack deep enough for it. */
  private aimProbes(tree: ObbTree): void {
    const entry = this.place(tree, null);
    const need = tree.nodeCount + 2;
    if (need > this.probeStackCap) {
      const cap = Math.max(need, 2 * this.probeStackCap, 256);
      const at = this.arena.alloc(4 * cap);
      if (this.probeStackAt) this.arena.release(this.probeStackAt, 4 * this.probeStackCap);
      this.probeStackAt = at;
      this.probeStackCap = cap;
      this.probeEntry = null;
    }
    if (entry !== this.probeEntry) {
      this.probeTreeFn(entry.boxes, entry.nodes, entry.triVerts, entry.positions, entry.triOrder, this.probeStackAt);
      this.probeEntry = entry;
    }
  }

  /** proximity.ts's castRay, in the kernel; the result into `out`. */
  castRay(tree: ObbTree, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tMin: number, tMax: number, skip: number, out: RayHit): void {
    this.aimProbes(tree);
    this.castFn(ox, oy, oz, dx, dy, dz, tMin, tMax, skip);
    const F = this.view(), i = this.i32;
    out.t = F[PROBE / 8];
    out.triangle = i[PROBE / 4 + 8];
    out.crossings = i[PROBE / 4 + 9];
    out.degenerate = i[PROBE / 4 + 10] !== 0;
  }

  /** proximity.ts's pointInMesh, in the kernel. */
  pointInMesh(tree: ObbTree, px: number, py: number, pz: number): boolean {
    this.aimProbes(tree);
    return this.insideFn(px, py, pz) !== 0;
  }

  /** proximity.ts's pointMeshDistance, in the kernel; the closest point into `closest` when given and found. */
  pointMeshDistance(tree: ObbTree, px: number, py: number, pz: number, maxDistance: number, closest?: Float64Array): number {
    this.aimProbes(tree);
    const d = this.distanceFn(px, py, pz, maxDistance);
    if (closest && d !== Infinity) {
      const F = this.view(), o = PROBE / 8 + 1;
      closest[0] = F[o]; closest[1] = F[o + 1]; closest[2] = F[o + 2];
    }
    return d;
  }

  /** Lays out the scratch for these trees (zeroing its stamps) unless the current one fits. */
  private layOut(nodesB: number, vertsA: number, vertsB: number, stack: number): void {
    if (this.scratchAt && nodesB <= this.nodeCap && vertsB <= this.vertCapB && vertsA <= this.vertCapA && stack <= this.stackCap) return;
    if (this.scratchAt) this.arena.release(this.scratchAt, this.scratchBytes);
    this.scratchAt = 0; // until the new block is had
    this.nodeCap = Math.max(nodesB, this.nodeCap);
    this.vertCapB = Math.max(vertsB, this.vertCapB);
    this.vertCapA = Math.max(vertsA, this.vertCapA);
    this.stackCap = Math.max(stack, this.stackCap);
    const nodeBytes = NODE_RECORD_BYTES * this.nodeCap;
    const vertBytesB = 24 * this.vertCapB, stampBytesB = aligned(4 * this.vertCapB);
    const vertBytesA = 24 * this.vertCapA, stampBytesA = aligned(4 * this.vertCapA);
    this.scratchBytes = nodeBytes + vertBytesB + stampBytesB + vertBytesA + stampBytesA + 8 * this.stackCap;
    const base = this.arena.alloc(this.scratchBytes);
    this.scratchAt = base;
    this.stampsB = base + nodeBytes + vertBytesB;
    this.stampsA = base + nodeBytes + vertBytesB + stampBytesB + vertBytesA;
    this.stampBytesB = stampBytesB;
    this.stampBytesA = stampBytesA;
    this.view();
    // Never-used memory is zero already; leaving it untouched also spares committing its pages.
    if (!this.arena.lastFresh) this.clearStamps();
    const i = this.i32, p = (PARAMS + P_INT) / 4;
    i[p + I.nodeCache] = base;
    i[p + I.vertCacheB] = base + nodeBytes;
    i[p + I.vertStampB] = this.stampsB;
    i[p + I.vertCacheA] = base + nodeBytes + vertBytesB + stampBytesB;
    i[p + I.vertStampA] = this.stampsA;
    i[p + I.stack] = base + nodeBytes + vertBytesB + stampBytesB + vertBytesA + stampBytesA;
    this.epoch = 0;
  }

  /**
   * Zeroes the scratch's stamps: each node record's first double and the two vertex stamp arrays.
   * Nothing else in it needs zeroing: the kernel reads a cached node or vertex only once its stamp
   * says it was written in this query, and the stack only where it pushed.
   */
  private clearStamps(): void {
    const F = this.f64, step = NODE_RECORD_BYTES / 8;
    for (let k = this.scratchAt / 8, end = k + step * this.nodeCap; k < end; k += step) F[k] = 0;
    this.u8.fill(0, this.stampsB, this.stampsB + this.stampBytesB);
    this.u8.fill(0, this.stampsA, this.stampsA + this.stampBytesA);
  }

  private growPairs(count: number): number {
    const old = this.pairsAt, oldCap = this.pairCap;
    const cap = Math.max(1024, 2 * oldCap);
    this.pairsAt = this.arena.alloc(8 * cap);
    this.pairCap = cap;
    this.view();
    if (count > 0) this.u8.copyWithin(this.pairsAt, old, old + 8 * count);
    if (old) this.arena.release(old, 8 * oldCap);
    const i = this.i32, p = (PARAMS + P_INT) / 4;
    i[p + I.pairs] = this.pairsAt;
    i[p + I.pairCap] = this.pairCap;
    return this.pairsAt;
  }

  /**
   * One OBB query. With `pose` (12 or 16 numbers, B's placement in A's frame), the kernel checks
   * it as parseRigid does and maps B's boxes and vertices with it; with `pose` null, a placed
   * query: `placedA` and `placedB` (both checked) map each part's vertices into the world, and the
   * boxes meet through MA⁻¹ · MB. Returns the number of pairs, or -1 when `pose` is not a rigid
   * placement (parseRigid says why). The counts and the pairs are then `boxTests`, `triTests`,
   * `exactFallbacks` and `pairs`.
   *
   * Querying the same two trees again (the common case: many poses of one pair, or a live check)
   * writes only the pose: the trees' addresses, bounds and scratch are in the block already.
   */
  query(a: ObbTree | HybridTree, b: ObbTree | HybridTree, pose: Float64Array | null, placedA: Float64Array | null, placedB: Float64Array | null, stopAtFirst: boolean): number {
    const ra = this.place(a, b);
    const rb = this.place(b, a);
    const placed = pose === null;
    if (ra !== this.lastA || rb !== this.lastB || placed !== this.lastPlaced || !this.scratchAt) {
      this.lastA = null; // until the block describes these trees
      this.layOut(b.nodeCount, placed ? a.vertexCount : 0, b.vertexCount, a.nodeCount + b.nodeCount + 2);
      if (!this.pairsAt) this.growPairs(0);
      const F = this.view(), i = this.i32, p = (PARAMS + P_INT) / 4;
      F[(PARAMS + P_MAX_A) / 8] = a.maxAbsCoordinate;
      F[(PARAMS + P_MAX_B) / 8] = b.maxAbsCoordinate;
      i[p + I.aBoxes] = ra.boxes; i[p + I.aNodes] = ra.nodes; i[p + I.aTriVerts] = ra.triVerts; i[p + I.aPos] = ra.positions; i[p + I.aOrder] = ra.triOrder;
      i[p + I.bBoxes] = rb.boxes; i[p + I.bNodes] = rb.nodes; i[p + I.bTriVerts] = rb.triVerts; i[p + I.bPos] = rb.positions; i[p + I.bOrder] = rb.triOrder;
      this.lastA = ra;
      this.lastB = rb;
      this.lastPlaced = placed;
    }
    const F = this.view();
    if (++this.epoch >= 0xffffffff) {
      this.clearStamps();
      this.epoch = 1;
    }
    if (placed) {
      F.set(placedA!, (PARAMS + P_MA) / 8);
      F.set(placedB!, (PARAMS + P_VB) / 8);
    } else {
      F.set(pose, (PARAMS + P_POSE) / 8);
    }
    const count = this.queryFn(placed ? 0 : pose.length, stopAtFirst ? 1 : 0, this.epoch);
    this.view();
    return count;
  }

  /** The last query's box tests. */
  get boxTests(): number {
    return this.i32[(PARAMS + P_INT) / 4 + I.outBox];
  }

  /** The last query's triangle tests. */
  get triTests(): number {
    return this.i32[(PARAMS + P_INT) / 4 + I.outTri];
  }

  /** The last query's triangle pairs outside the kernel's exact range, decided by the TypeScript test (BigInt). */
  get exactFallbacks(): number {
    return this.i32[(PARAMS + P_INT) / 4 + I.outExact];
  }

  /** A copy of the last query's `count` pairs (A's triangle, B's triangle; mesh numbers). */
  pairs(count: number): Uint32Array {
    return count === 0 ? NO_PAIRS : new Uint32Array(this.i32.buffer, this.pairsAt, 2 * count).slice();
  }
}

/** The pair list of a query without pairs (one shared, empty and frozen). */
const NO_PAIRS = Object.freeze(new Uint32Array(0)) as Uint32Array;

let kernel: Kernel | null | undefined;

/** The kernel, compiled on first use; null where WebAssembly is unavailable. */
export function queryKernel(): Kernel | null {
  if (kernel !== undefined) return kernel;
  const api = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  try {
    kernel = api ? new Kernel(api, precompiledKernel() ?? decodeBase64(KERNEL_WASM_BASE64)) : null;
  } catch {
    // A browser main thread refuses synchronous compiles of large modules; the TypeScript
    // kernel answers there.
    kernel = null;
  }
  return kernel;
}

/**
 * Storage in the kernel's memory for an OBB tree about to be built, or null where there is no
 * kernel (the builder then allocates ordinary arrays, and queries copy the tree in).
 */
export function treeStorage(nodeCount: number, boxStride: number, triangleCount: number, positionCount: number): TreeStorage | null {
  const k = queryKernel();
  if (!k) return null;
  try {
    return k.treeStorage(nodeCount, boxStride, triangleCount, positionCount);
  } catch (e) {
    if (e instanceof KernelMemoryError) return null; // an ordinary tree then
    throw e;
  }
}

/**
 * Builds the OBB tree of a mesh in the kernel (as/build.ts), or null where there is no kernel or
 * its memory is full (the TypeScript builder then builds it).
 */
export function buildObbInKernel(positions: Float64Array, indices: Uint32Array, leafSize: number): BuiltObb | null {
  const k = queryKernel();
  if (!k) return null;
  try {
    return k.buildObb(positions, indices, leafSize);
  } catch (e) {
    if (e instanceof KernelMemoryError) return null;
    throw e;
  }
}

/**
 * Sets the first capacities the tree builder tries (its node store and stack; they are raised to
 * their bounds when too small), or restores the defaults (null): for the tests of those retries.
 */
export function limitBuildCapacity(nodes: number | null, stack: number | null): void {
  const k = queryKernel();
  if (k) k.buildCaps = { nodes, stack };
}

/** Trees built into the kernel's memory whose storage `releaseTree` freed. */
const released = new WeakSet<object>();

/**
 * Frees a tree's memory in the kernel now, for hosts that know when a tree is done with (a closed
 * document, a benchmark's finished repetition); otherwise it goes when the tree is collected. For
 * a tree copied in, only the copy goes. A tree built into the kernel's memory (`buildObbTree` where
 * the kernel runs) must not be used afterwards: its arrays are reused by later trees, and queries
 * on it throw (`assertLiveTree`).
 */
export function releaseTree(tree: object): void {
  if (kernel) kernel.release(tree);
}

/** Throws if `tree` was released (see `releaseTree`). */
export function assertLiveTree(tree: object): void {
  if (released.has(tree)) throw new Error('the tree was released (releaseTree) and cannot be queried');
}

/**
 * Caps the kernel's memory at `bytes` (at least its present size), or lifts the cap (null): for
 * the tests of what happens when the memory is full.
 */
export function limitKernelMemory(bytes: number | null): void {
  const k = queryKernel();
  if (k) k.limitMemory(bytes ?? MAX_BYTES);
}

export type { Kernel };
