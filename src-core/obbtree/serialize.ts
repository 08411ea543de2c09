/**
 * A tree as a few ArrayBuffers plus a small JSON-safe header, so it can cross a process boundary
 * (structured clone) or go to a disk cache without being rebuilt.
 */
import type { AabbTree, BvTree, HybridTree, ObbTree } from './layout.js';
import { AABB_STRIDE, OBB_STRIDE, SPHERE_STRIDE } from './layout.js';

export interface SerializedTree {
  readonly format: 'interfere-bvtree';
  readonly version: 2;
  readonly kind: BvTree['kind'];
  readonly nodeCount: number;
  readonly leafSize: number;
  readonly vertexCount: number;
  readonly triangleCount: number;
  readonly maxAbsCoordinate: number;
  readonly sphereLevels: number;
  /** boxes, nodes, triVerts, triOrder, positions[, sphereOf, spheres] */
  readonly buffers: ArrayBuffer[];
}

function own(view: ArrayBufferView): ArrayBuffer {
  // A view that covers its whole buffer is shared; otherwise copy exactly its bytes.
  if (view.byteOffset === 0 && view.byteLength === view.buffer.byteLength && view.buffer instanceof ArrayBuffer) return view.buffer;
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice().buffer;
}

/** Serialises a tree. The buffers may share memory with the tree (no copy when possible). */
export function serializeTree(tree: BvTree): SerializedTree {
  const buffers = [own(tree.boxes), own(tree.nodes), own(tree.triVerts), own(tree.triOrder), own(tree.positions)];
  if (tree.kind === 'hybrid') buffers.push(own(tree.sphereOf), own(tree.spheres));
  return {
    format: 'interfere-bvtree',
    version: 2,
    kind: tree.kind,
    nodeCount: tree.nodeCount,
    leafSize: tree.leafSize,
    vertexCount: tree.vertexCount,
    triangleCount: tree.triangleCount,
    maxAbsCoordinate: tree.maxAbsCoordinate,
    sphereLevels: tree.kind === 'hybrid' ? tree.sphereLevels : 0,
    buffers,
  };
}

/** Rebuilds a tree from serializeTree's output; throws RangeError if the data is inconsistent. */
export function deserializeTree(data: SerializedTree): BvTree {
  // Version 2: an OBB's third axis is not stored (layout.ts).
  if (data.format !== 'interfere-bvtree' || data.version !== 2) throw new RangeError('not a serialised tree of version 2');
  const { kind, nodeCount, triangleCount, vertexCount } = data;
  const isInt = (x: number): boolean => Number.isInteger(x) && x >= 0;
  if (!isInt(nodeCount) || !isInt(triangleCount) || !isInt(vertexCount) || !isInt(data.leafSize)) {
    throw new RangeError('serialised tree has invalid counts');
  }
  const expect = kind === 'hybrid' ? 7 : 5;
  if (!Array.isArray(data.buffers) || data.buffers.length !== expect) throw new RangeError(`serialised ${kind} tree needs ${expect} buffers`);
  const stride = kind === 'aabb' ? AABB_STRIDE : OBB_STRIDE;
  const f64 = (b: ArrayBuffer, len: number, what: string): Float64Array => {
    if (!(b instanceof ArrayBuffer) || b.byteLength !== 8 * len) throw new RangeError(`serialised tree: ${what} has the wrong size`);
    return new Float64Array(b);
  };
  const i32 = (b: ArrayBuffer, len: number, what: string): Int32Array => {
    if (!(b instanceof ArrayBuffer) || b.byteLength !== 4 * len) throw new RangeError(`serialised tree: ${what} has the wrong size`);
    return new Int32Array(b);
  };
  const u32 = (b: ArrayBuffer, len: number, what: string): Uint32Array => {
    if (!(b instanceof ArrayBuffer) || b.byteLength !== 4 * len) throw new RangeError(`serialised tree: ${what} has the wrong size`);
    return new Uint32Array(b);
  };
  const [bx, nd, tvb, tob, pos] = data.buffers;
  const base = {
    nodeCount,
    leafSize: data.leafSize,
    vertexCount,
    triangleCount,
    maxAbsCoordinate: data.maxAbsCoordinate,
    boxes: f64(bx, stride * nodeCount, 'boxes'),
    nodes: i32(nd, 2 * nodeCount, 'nodes'),
    triVerts: u32(tvb, 3 * triangleCount, 'triangle vertices'),
    triOrder: u32(tob, triangleCount, 'triangle order'),
    positions: f64(pos, 3 * vertexCount, 'positions'),
  };
  if (kind === 'obb') return { kind, ...base } satisfies ObbTree;
  if (kind === 'aabb') return { kind, ...base } satisfies AabbTree;
  if (kind === 'hybrid') {
    const sphereOf = i32(data.buffers[5], nodeCount, 'sphere index');
    // Every node with a sphere names a distinct one, and every stored sphere is named.
    let sphereCount = 0;
    for (let i = 0; i < nodeCount; i++) if (sphereOf[i] >= 0) sphereCount++;
    const spheres = f64(data.buffers[6], SPHERE_STRIDE * sphereCount, 'spheres');
    const used = new Uint8Array(sphereCount);
    for (let i = 0; i < nodeCount; i++) {
      const k = sphereOf[i];
      if (k < -1 || k >= sphereCount || (k >= 0 && used[k]++)) throw new RangeError(`serialised tree: node ${i} has an invalid sphere index ${k}`);
    }
    return { kind, ...base, sphereLevels: data.sphereLevels, sphereOf, spheres } satisfies HybridTree;
  }
  throw new RangeError(`unknown tree kind ${String(kind)}`);
}
