/**
 * The bounding-volume strategies one query can run with, by name. All answer the same question
 * exactly (same triangle test, conservative volume tests); they differ in speed and memory, which
 * the benchmark measures.
 */
import type { TriangleMesh } from '../geometry/mesh.js';
import { buildAabbTree, buildHybridTree, buildObbTree, DEFAULT_LEAF_SIZE } from '../obbtree/build.js';
import type { BvTree } from '../obbtree/layout.js';

export type StrategyName = 'obb' | 'obb-hull' | 'aabb' | 'hybrid';

export interface StrategyInfo {
  readonly name: StrategyName;
  readonly description: string;
  readonly build: (mesh: TriangleMesh) => BvTree;
}

export const STRATEGIES: readonly StrategyInfo[] = [
  {
    name: 'obb',
    description: `OBBTree, axes from the area-weighted surface covariance, ${DEFAULT_LEAF_SIZE} triangles per leaf`,
    build: (mesh) => buildObbTree(mesh, { fit: 'surface' }),
  },
  {
    name: 'obb-hull',
    description: `OBBTree, axes from the convex hull's surface covariance (quickhull3d), ${DEFAULT_LEAF_SIZE} triangles per leaf`,
    build: (mesh) => buildObbTree(mesh, { fit: 'hull' }),
  },
  {
    name: 'aabb',
    description: `AABB tree, median split on the axis of largest centroid spread, ${DEFAULT_LEAF_SIZE} triangles per leaf`,
    build: (mesh) => buildAabbTree(mesh),
  },
  {
    name: 'hybrid',
    description: `spheres in the top 4 levels over an OBBTree, ${DEFAULT_LEAF_SIZE} triangles per leaf`,
    build: (mesh) => buildHybridTree(mesh, { sphereLevels: 4 }),
  },
];

export const DEFAULT_STRATEGY: StrategyName = 'obb';

export function buildTree(mesh: TriangleMesh, strategy: StrategyName = DEFAULT_STRATEGY): BvTree {
  const s = STRATEGIES.find((x) => x.name === strategy);
  if (!s) throw new RangeError(`unknown strategy '${strategy}'`);
  return s.build(mesh);
}
