/**
 * Flat layout of bounding-volume trees. A node is an index; nodes are stored depth-first, so the
 * left child of an internal node i is i + 1. Per node, `nodes[2i]` is the right child (internal
 * node) or the first triangle slot (leaf), and `nodes[2i + 1]` is 0 (internal) or the leaf's
 * triangle count. Triangles are reached through tree slots: `triVerts[3s..3s+2]` are the vertex
 * indices of the triangle in slot s and `triOrder[s]` its index in the original mesh.
 */

/**
 * Oriented box: centre (3), half extents (3), then the first two unit axes (3 each), longest
 * extent first. The third axis is not stored: it is their cross product, computed as `obbAxes`
 * computes it (the builders size the third half extent for that axis, so that every reader that
 * forms it with the same expression gets the same box to the bit).
 */
export const OBB_STRIDE = 12;
export const OBB_CENTER = 0;
export const OBB_HALF = 3;
export const OBB_AXIS0 = 6;
export const OBB_AXIS1 = 9;

/** Axis-aligned box: centre (3), half extents (3). */
export const AABB_STRIDE = 6;

/** Sphere: centre (3), radius. */
export const SPHERE_STRIDE = 4;

/** What every tree shares: the triangles it was built over, in tree order, and its topology. */
export interface TreeTriangles {
  /** Vertex coordinates (the mesh's own array; not copied). */
  readonly positions: Float64Array;
  readonly vertexCount: number;
  readonly triangleCount: number;
  /** Vertex indices per tree slot, three per triangle. */
  readonly triVerts: Uint32Array;
  /** Original triangle index per tree slot. */
  readonly triOrder: Uint32Array;
  /** Largest |coordinate| of the mesh: scales the tests' rounding slack. */
  readonly maxAbsCoordinate: number;
}

export interface TreeTopology {
  readonly nodeCount: number;
  /** Two Int32 per node, see the file comment. */
  readonly nodes: Int32Array;
  /** Largest number of triangles a leaf may hold. */
  readonly leafSize: number;
}

export interface ObbTree extends TreeTriangles, TreeTopology {
  readonly kind: 'obb';
  /** OBB_STRIDE doubles per node. */
  readonly boxes: Float64Array;
}

export interface AabbTree extends TreeTriangles, TreeTopology {
  readonly kind: 'aabb';
  /** AABB_STRIDE doubles per node, in the mesh's frame. */
  readonly boxes: Float64Array;
}

/**
 * Sphere-over-OBB hybrid: the same tree as an OBB tree, with bounding spheres for the nodes in the
 * top `sphereLevels` levels (`sphereOf[i]` ≥ 0 indexes `spheres`), which are tested as spheres.
 */
export interface HybridTree extends TreeTriangles, TreeTopology {
  readonly kind: 'hybrid';
  readonly boxes: Float64Array;
  readonly sphereLevels: number;
  readonly sphereOf: Int32Array;
  readonly spheres: Float64Array;
}

export type BvTree = ObbTree | AabbTree | HybridTree;

/**
 * The three axes of the box at B[o..], into out[oo..oo+8]: the two stored ones and their cross
 * product (x = a_y b_z − a_z b_y, y = a_z b_x − a_x b_z, z = a_x b_y − a_y b_x, evaluated in that
 * order; the kernel's copies use the same expressions).
 */
export function obbAxes(B: Float64Array, o: number, out: Float64Array, oo = 0): void {
  const ax = B[o + 6], ay = B[o + 7], az = B[o + 8], bx = B[o + 9], by = B[o + 10], bz = B[o + 11];
  out[oo] = ax; out[oo + 1] = ay; out[oo + 2] = az;
  out[oo + 3] = bx; out[oo + 4] = by; out[oo + 5] = bz;
  out[oo + 6] = ay * bz - az * by;
  out[oo + 7] = az * bx - ax * bz;
  out[oo + 8] = ax * by - ay * bx;
}

export function isLeaf(nodes: Int32Array, i: number): boolean {
  return nodes[2 * i + 1] > 0;
}

/** Bytes held by a tree and the triangle data it needs (positions, slot indices, order). */
export function treeBytes(tree: BvTree): number {
  let bytes = tree.boxes.byteLength + tree.nodes.byteLength + tree.triVerts.byteLength + tree.triOrder.byteLength + tree.positions.byteLength;
  if (tree.kind === 'hybrid') bytes += tree.sphereOf.byteLength + tree.spheres.byteLength;
  return bytes;
}
