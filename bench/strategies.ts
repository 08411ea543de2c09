// Benchmark adapters: the interface every measured implementation provides, and the registry the
// runner picks from.

import { engineStrategies, optInEngineStrategies } from './engine';
import { fclStrategies } from './fcl';
import type { NativeStrategy } from './fcl';
import { threeMeshBvhStrategies } from './threeMeshBvh';

/** A mesh as read from the scenario's STL: welded float64 vertices, triangles in file order. */
export interface PreparedMesh {
  /** xyz per vertex (float32 values from the file, widened exactly). */
  positions: Float64Array;
  /** Three vertex indices per triangle; triangle i is the i-th triangle of the STL file. */
  indices: Uint32Array;
  triangleCount: number;
}

export type QueryMode = 'all' | 'any';

export interface QueryResult {
  /** 'all': number of intersecting (iA, iB) pairs; 'any': 1 if the meshes intersect, else 0. */
  count: number;
  /** Bounding-volume overlap tests done by this query, when the implementation can count them. */
  boxTests?: number;
  /** Triangle-triangle tests done by this query, when the implementation can count them. */
  triTests?: number;
}

export interface StrategyRun {
  /** Who: 'interfere' for the engine, 'three-mesh-bvh' for the peer. */
  impl: string;
  /** Which configuration: 'obb', 'aabb', 'hybrid', 'default', 'sah', 'leaf1', … */
  variant: string;
  version: string;
  /**
   * Builds the trees of BOTH meshes (two separate trees even when meshA and meshB hold the same
   * triangles) and returns opaque state for `query`. Must not modify the meshes.
   */
  build(meshA: PreparedMesh, meshB: PreparedMesh): unknown;
  /** `pose`: 16 numbers, row-major 4 × 4, mapping meshB's coordinates into meshA's frame. */
  query(state: unknown, pose: Float64Array, mode: QueryMode): QueryResult;
  /** Every intersecting pair for one pose as a flat [iA, iB, iA, iB, …] list (any order). */
  pairs?(state: unknown, pose: Float64Array): Uint32Array;
  /** Bytes held by both trees and the triangle data they need, and what was counted. */
  modelBytes(state: unknown): { bytes: number; note: string };
  /** Frees what `build` made, after a repetition (untimed), as a host closing a document would. */
  dispose?(state: unknown): void;
}

export { ENGINE_IMPL, strategyName } from './report';

/** An in-process strategy, or one that runs in a native process of its own (FCL). */
export type AnyStrategy = StrategyRun | NativeStrategy;

export function isNative(s: AnyStrategy): s is NativeStrategy {
  return 'native' in s && s.native;
}

/** Every in-process strategy run by default: the engine's first, then the peers. */
export const strategies: StrategyRun[] = [...engineStrategies, ...threeMeshBvhStrategies];

/** Strategies run only when named with --strategy. */
export const optInStrategies: StrategyRun[] = [...optInEngineStrategies];

/** Native strategies, run by default after the in-process ones (skipped when the runner cannot be built). */
export const nativeStrategies: NativeStrategy[] = [...fclStrategies];
