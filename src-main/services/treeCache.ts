/**
 * An on-disk cache of OBB trees keyed by a content hash of the mesh (positions and indices) and
 * the build options, so that reopening an assembly does not rebuild its trees.
 *
 * Measured on the 2-core development machine (see the pool's report): a 100k-triangle tree takes
 * 160–210 ms to build, 2 ms to hash and 4 ms to read (25 ms uncached from disk); a 400k-triangle
 * tree 0.85–1.1 s to build, 8 ms to hash and 50 ms to read (115 ms uncached).
 *
 * - Key: SHA-256 over a version tag, the leaf size and the SHA-256 of the positions' and the
 *   indices' bytes (hashed on libuv's thread pool by WebCrypto, off the event loop).
 * - File `<key>.obbtree`: magic, a JSON header, then the tree's buffers without the positions
 *   (the caller holds identical ones: they are part of the key). Written to a temporary name and
 *   renamed, so a reader never sees half a file.
 * - Reading checks magic, header, sizes, that the tree's triangles are the mesh's triangles, and
 *   that the tree is sound (`treeProblem`: its structure, every box's two stored axes
 *   orthonormal (the third is their cross product), every
 *   node's box enclosing the vertices of all the triangles below it), since the check prunes with
 *   the boxes: a box that does not enclose its triangles hides their interferences. A file that
 *   fails is deleted and counts as a miss (the tree is then rebuilt), with a log line.
 * - The directory must be private (services/dataFolder.ts: owned by the current user, not group-
 *   or world-writable; created with mode 0700): otherwise nothing is read from or written to it,
 *   and one log line says why.
 * - Least recently used files (by modification time, touched on every hit) are deleted when the
 *   directory grows past `maxBytes`.
 */
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, utimes, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_LEAF_SIZE } from '../../src-core/obbtree/build.js';
import { OBB_STRIDE, obbAxes, type ObbTree } from '../../src-core/obbtree/layout.js';
import { deserializeTree, serializeTree, type SerializedTree } from '../../src-core/obbtree/serialize.js';
import { TREE_POSITIONS_BUFFER, withPositions, withoutPositions } from '../contract/compute.js';
import { privateFolderProblem } from './dataFolder.js';

/** Bumped when the tree build or the file layout changes: older files are then never matched. */
const CACHE_VERSION = 2;
const MAGIC = 'IFOBBT01';
const EXT = '.obbtree';
const MAX_HEADER_BYTES = 1 << 16;
/** Age after which a temporary file is taken to be abandoned. */
const STALE_TMP_MS = 60 * 60 * 1000;
const AXES = new Float64Array(9);
export const DEFAULT_TREE_CACHE_BYTES = 2 * 1024 ** 3;

export interface TreeCacheOptions {
  /** The cache directory (created when first written). */
  readonly dir: string;
  /** Size above which the least recently used files are deleted (default 2 GiB). */
  readonly maxBytes?: number;
  /** Where unreadable files and failed writes are reported (default console.warn). */
  readonly log?: (message: string) => void;
}

interface FileHeader extends Omit<SerializedTree, 'buffers'> {
  readonly cacheVersion: number;
  readonly key: string;
  readonly bufferBytes: number[];
}

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

export class TreeCache {
  readonly dir: string;
  readonly maxBytes: number;
  private readonly log: (message: string) => void;
  private pruning: Promise<void> = Promise.resolve();
  /** Whether the directory is private (checked once; see the file comment). */
  private usable: Promise<boolean> | null = null;

  constructor(options: TreeCacheOptions) {
    this.dir = options.dir;
    this.maxBytes = options.maxBytes ?? DEFAULT_TREE_CACHE_BYTES;
    this.log = options.log ?? ((m) => console.warn(`[treeCache] ${m}`));
  }

  /** The cache key of a mesh built with `leafSize` (hex SHA-256). */
  static async keyOf(positions: Float64Array, indices: Uint32Array, leafSize: number = DEFAULT_LEAF_SIZE): Promise<string> {
    const [p, i] = await Promise.all([
      webcrypto.subtle.digest('SHA-256', bytesOf(positions)),
      webcrypto.subtle.digest('SHA-256', bytesOf(indices)),
    ]);
    return createHash('sha256')
      .update(`interfere-obbtree-cache ${CACHE_VERSION} leaf ${leafSize} `)
      .update(new Uint8Array(p))
      .update(new Uint8Array(i))
      .digest('hex');
  }

  private fileOf(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new RangeError(`not a tree cache key: ${key}`);
    return path.join(this.dir, key + EXT);
  }

  /** Whether the directory may be used: private, or not there yet. Logs once when it may not. */
  private isUsable(): Promise<boolean> {
    this.usable ??= privateFolderProblem(this.dir).then((problem) => {
      if (problem !== null) this.log(`not using the tree cache ${this.dir}: it ${problem}`);
      return problem === null;
    });
    return this.usable;
  }

  /**
   * The cached tree of a mesh, sharing the given positions; null on a miss or an unusable file
   * (which is then deleted). Never throws for file problems.
   */
  async get(key: string, positions: Float64Array, indices: Uint32Array): Promise<ObbTree | null> {
    const file = this.fileOf(key);
    if (!(await this.isUsable())) return null;
    let handle: FileHandle;
    try {
      handle = await open(file, 'r');
    } catch {
      return null;
    }
    let tree: ObbTree;
    try {
      const size = (await handle.stat()).size;
      const head = new Uint8Array(12);
      await readExactly(handle, head, 0);
      if (Buffer.from(head.subarray(0, 8)).toString('latin1') !== MAGIC) throw new Error('not a tree cache file');
      const headerBytes = new DataView(head.buffer).getUint32(8, true);
      if (headerBytes > MAX_HEADER_BYTES || 12 + headerBytes > size) throw new Error('bad header length');
      const headerBuf = new Uint8Array(headerBytes);
      await readExactly(handle, headerBuf, 12);
      const header = JSON.parse(Buffer.from(headerBuf).toString('utf8')) as FileHeader;
      if (header.cacheVersion !== CACHE_VERSION || header.key !== key) throw new Error('header does not match the key');
      const lengths = header.bufferBytes;
      if (!Array.isArray(lengths) || lengths.length !== 5 || !lengths.every((n) => Number.isSafeInteger(n) && n >= 0)) {
        throw new Error('bad buffer lengths');
      }
      let offset = 12 + headerBytes;
      if (offset + lengths.reduce((a, b) => a + b, 0) !== size) throw new Error('file size does not match its header');
      const buffers: ArrayBuffer[] = [];
      for (const n of lengths) {
        const b = new ArrayBuffer(n);
        await readExactly(handle, new Uint8Array(b), offset);
        offset += n;
        buffers.push(b);
      }
      const { cacheVersion: _v, key: _k, bufferBytes: _b, ...rest } = header;
      const back = deserializeTree(withPositions({ ...rest, buffers }, positions));
      if (back.kind !== 'obb') throw new Error(`tree of kind ${back.kind}`);
      if (!sameTriangles(back, indices)) throw new Error('its triangles are not the mesh\'s');
      const problem = treeProblem(back, positions);
      if (problem !== null) throw new Error(`the tree is not sound: ${problem}`);
      tree = back;
    } catch (e) {
      await handle.close().catch(() => {});
      this.log(`deleting unusable cache file ${file}: ${e instanceof Error ? e.message : String(e)}`);
      await rm(file, { force: true }).catch(() => {});
      return null;
    }
    await handle.close().catch(() => {});
    const now = new Date();
    utimes(file, now, now).catch(() => {});
    return tree;
  }

  /** isUsable, asked again if the directory did not exist when first asked. */
  private async isUsableAfterCreating(): Promise<boolean> {
    if (!(await this.isUsable())) return false;
    this.usable = null;
    return this.isUsable();
  }

  /** Stores a tree (the positions are left out). Resolves when written; failures are logged. */
  async put(key: string, tree: ObbTree): Promise<void> {
    const file = this.fileOf(key);
    const serialized = withoutPositions(serializeTree(tree));
    const { buffers, ...rest } = serialized;
    const header: FileHeader = { ...rest, cacheVersion: CACHE_VERSION, key, bufferBytes: buffers.map((b) => b.byteLength) };
    const headerBuf = Buffer.from(JSON.stringify(header), 'utf8');
    const head = new Uint8Array(12);
    head.set(Buffer.from(MAGIC, 'latin1'));
    new DataView(head.buffer).setUint32(8, headerBuf.length, true);
    const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      if (!(await this.isUsableAfterCreating())) return;
      const handle = await open(tmp, 'w');
      try {
        await handle.writev([head, headerBuf, ...buffers.map((b, i) => (i === TREE_POSITIONS_BUFFER ? new Uint8Array(0) : new Uint8Array(b)))]);
      } finally {
        await handle.close();
      }
      await rename(tmp, file);
    } catch (e) {
      await rm(tmp, { force: true }).catch(() => {});
      this.log(`could not write ${file}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    await this.prune();
  }

  /**
   * Deletes the least recently used files until the directory holds at most 90 % of maxBytes once
   * it holds more than maxBytes (and abandoned temporary files).
   */
  prune(): Promise<void> {
    this.pruning = this.pruning.then(() => this.pruneNow()).catch((e: unknown) => {
      this.log(`could not prune ${this.dir}: ${e instanceof Error ? e.message : String(e)}`);
    });
    return this.pruning;
  }

  private async pruneNow(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    const files: { file: string; size: number; mtime: number }[] = [];
    for (const n of names) {
      const file = path.join(this.dir, n);
      const s = await stat(file).catch(() => null);
      if (!s) continue;
      if (n.endsWith(EXT)) files.push({ file, size: s.size, mtime: s.mtimeMs });
      // Left by a writer that died before renaming.
      else if (n.endsWith('.tmp') && n.includes(EXT) && Date.now() - s.mtimeMs > STALE_TMP_MS) await rm(file, { force: true });
    }
    let total = files.reduce((a, f) => a + f.size, 0);
    if (total <= this.maxBytes) return;
    files.sort((a, b) => a.mtime - b.mtime);
    for (const f of files) {
      if (total <= 0.9 * this.maxBytes) break;
      await rm(f.file, { force: true });
      total -= f.size;
    }
  }
}

async function readExactly(handle: FileHandle, into: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < into.length) {
    const { bytesRead } = await handle.read(into, done, into.length - done, position + done);
    if (bytesRead === 0) throw new Error('file ends early');
    done += bytesRead;
  }
}

/** The tree's slots hold exactly the mesh's triangles (a wrong or damaged file fails this). */
function sameTriangles(tree: ObbTree, indices: Uint32Array): boolean {
  const { triVerts, triOrder, triangleCount } = tree;
  if (3 * triangleCount !== indices.length) return false;
  const seen = new Uint8Array(triangleCount);
  for (let s = 0; s < triangleCount; s++) {
    const t = triOrder[s];
    if (t >= triangleCount || seen[t]) return false;
    seen[t] = 1;
    if (triVerts[3 * s] !== indices[3 * t] || triVerts[3 * s + 1] !== indices[3 * t + 1] || triVerts[3 * s + 2] !== indices[3 * t + 2]) return false;
  }
  return true;
}

/**
 * Why a tree read back cannot be trusted, or null. The checks the pruning relies on:
 *  - its largest coordinate is the mesh's (it scales the tolerance below);
 *  - structure: every node reached once from the root, right children after their left ones,
 *    leaves of 1..leafSize triangles whose slot ranges cover every slot exactly once;
 *  - boxes: finite, half extents ≥ 0, axes orthonormal (the box overlap test assumes it);
 *  - enclosure: every vertex of every triangle below a node lies in the node's box, to within
 *    1e-9 of the largest coordinate (validateTree's check, as one tight loop per node over its
 *    contiguous slot range: 0.25–0.5 s for a 400k-triangle tree on the 2-core machine under load,
 *    where validateTree takes 0.7–1.9 s and building 1.4–2.3 s).
 */
export function treeProblem(tree: ObbTree, positions: Float64Array): string | null {
  let maxAbs = 0;
  for (let i = 0; i < positions.length; i++) {
    const a = Math.abs(positions[i]);
    if (a > maxAbs) maxAbs = a;
  }
  if (tree.maxAbsCoordinate !== maxAbs) return `its largest coordinate ${tree.maxAbsCoordinate} is not the mesh's ${maxAbs}`;
  const N = tree.nodes, n = tree.nodeCount, T = tree.triangleCount, B = tree.boxes, TV = tree.triVerts;
  if (n < 1) return 'it has no nodes';
  const V = positions.length / 3;
  for (let k = 0; k < TV.length; k++) if (TV[k] >= V) return `slot ${Math.floor(k / 3)} names vertex ${TV[k]}, beyond the mesh's ${V}`;

  // Structure, and each node's slot range [first, end).
  const first = new Int32Array(n).fill(-1);
  const end = new Int32Array(n);
  const covered = new Uint8Array(T);
  const stack = new Int32Array(n + 1);
  let top = 0;
  stack[top++] = 0;
  let reached = 0;
  while (top > 0) {
    const i = stack[--top];
    if (first[i] !== -1) return `node ${i} is reached twice`;
    first[i] = -2;
    reached++;
    const o = i * OBB_STRIDE;
    for (let k = 0; k < OBB_STRIDE; k++) if (!Number.isFinite(B[o + k])) return `the box of node ${i} has a number that is not finite`;
    if (!(B[o + 3] >= 0 && B[o + 4] >= 0 && B[o + 5] >= 0)) return `the box of node ${i} has a negative half extent`;
    for (let p = 0; p < 2; p++) {
      for (let q = p; q < 2; q++) {
        const a = o + 6 + 3 * p, b = o + 6 + 3 * q;
        const dot = B[a] * B[b] + B[a + 1] * B[b + 1] + B[a + 2] * B[b + 2];
        if (!(Math.abs(dot - (p === q ? 1 : 0)) <= 1e-9)) return `the axes of the box of node ${i} are not orthonormal`;
      }
    }
    const count = N[2 * i + 1];
    if (count > 0) {
      const f = N[2 * i];
      if (count > tree.leafSize || f < 0 || f + count > T) return `leaf ${i} holds slots ${f}..${f + count - 1} (leaf size ${tree.leafSize}, ${T} slots)`;
      for (let q = f; q < f + count; q++) {
        if (covered[q]) return `slot ${q} is in two leaves`;
        covered[q] = 1;
      }
      first[i] = f;
      end[i] = f + count;
    } else if (count === 0) {
      const right = N[2 * i];
      if (!(right > i + 1 && right < n)) return `internal node ${i} has right child ${right}`;
      stack[top++] = right;
      stack[top++] = i + 1;
    } else {
      return `node ${i} has a negative triangle count`;
    }
  }
  if (reached !== n) return `${n - reached} nodes are unreachable from the root`;
  for (let q = 0; q < T; q++) if (!covered[q]) return `slot ${q} is in no leaf`;
  // Internal nodes' ranges from their children (which have higher indices).
  for (let i = n - 1; i >= 0; i--) {
    if (N[2 * i + 1] !== 0) continue;
    const l = i + 1, r = N[2 * i];
    if (end[l] !== first[r]) return `the children of node ${i} do not cover one contiguous slot range`;
    first[i] = first[l];
    end[i] = end[r];
  }

  // Enclosure (see the function comment). Slots below a node are one contiguous range.
  const tol = Math.max(1e-12, 1e-9 * maxAbs);
  const P = positions;
  for (let i = n - 1; i >= 0; i--) {
    const o = i * OBB_STRIDE;
    const cx = B[o], cy = B[o + 1], cz = B[o + 2];
    const hx = B[o + 3] + tol, hy = B[o + 4] + tol, hz = B[o + 5] + tol;
    obbAxes(B, o, AXES);
    const ax = AXES[0], ay = AXES[1], az = AXES[2];
    const bx = AXES[3], by = AXES[4], bz = AXES[5];
    const ex = AXES[6], ey = AXES[7], ez = AXES[8];
    for (let k = 3 * first[i], kEnd = 3 * end[i]; k < kEnd; k++) {
      const v = 3 * TV[k];
      const dx = P[v] - cx, dy = P[v + 1] - cy, dz = P[v + 2] - cz;
      const u = dx * ax + dy * ay + dz * az, w = dx * bx + dy * by + dz * bz, t = dx * ex + dy * ey + dz * ez;
      if (!(u <= hx && -u <= hx && w <= hy && -w <= hy && t <= hz && -t <= hz)) {
        const q = Math.floor(k / 3);
        return `triangle ${tree.triOrder[q]} (slot ${q}) is not inside the box of node ${i}`;
      }
    }
  }
  return null;
}
