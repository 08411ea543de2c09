/** Request and result types of mesh-vs-mesh queries. */

/** 'any': stop at the first intersecting triangle pair. 'all': report every pair. */
export type CollideMode = 'any' | 'all';

export interface CollideStats {
  /** Bounding-volume pair tests (box–box, sphere–box, sphere–sphere). */
  boxTests: number;
  /** Exact triangle–triangle tests. */
  triTests: number;
}

export interface CollideResult extends CollideStats {
  /** At least one triangle pair intersects. */
  readonly hit: boolean;
  /** Number of intersecting pairs found (at most 1 in 'any' mode). */
  readonly pairCount: number;
  /**
   * Intersecting pairs as [triangle of A, triangle of B, …] in the meshes' original triangle
   * numbering, 2 · pairCount entries, in traversal order.
   */
  readonly pairs: Uint32Array;
}

/**
 * A rigid placement of mesh B in mesh A's frame: p_A = R · p_B + t, given as a row-major 4×4
 * matrix (16 numbers, last row 0 0 0 1) or its first three rows (12 numbers, the layout of
 * geometry/rigid.ts). collide and collideBruteForce read and check it with parseRigid; the
 * queries between placed parts (collidePlaced, minDistance, traceCollide) take parsed `Rigid`s.
 */
export type RigidTransform = ArrayLike<number>;
