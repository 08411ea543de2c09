/**
 * The Interfere engine: exact interference queries between triangle meshes under rigid motion.
 * Pure TypeScript over typed arrays; no DOM, no Node, no Electron.
 */
export { orient2d, orient3d } from './geometry/predicates.js';
export { triTriIntersect } from './geometry/triTri.js';
export {
  createMesh, validateMesh, weldVertices, isZeroAreaTriangle, MeshError, MAX_TRIANGLES,
  type TriangleMesh, type MeshReport, type MeshErrorCode,
} from './geometry/mesh.js';
export {
  buildObbTree, buildAabbTree, buildHybridTree, DEFAULT_LEAF_SIZE, setBuildKernel,
  type ObbBuildOptions, type AabbBuildOptions, type HybridBuildOptions, type ObbFit,
} from './obbtree/build.js';
export { type ObbTree, type AabbTree, type HybridTree, type BvTree, treeBytes } from './obbtree/layout.js';
export { serializeTree, deserializeTree, type SerializedTree } from './obbtree/serialize.js';
export { validateTree, type TreeValidation } from './obbtree/validate.js';
export { collide, collidePlaced, collideObb, collideAabb, collideHybrid, setQueryKernel, activeQueryKernel, type QueryKernel } from './collide/collide.js';
export { releaseTree } from './kernel/kernel.js';
export { collideBruteForce } from './collide/bruteForce.js';
export {
  parseRigid, rigidError, RIGID_TOLERANCE, identityRigid, rigidToMatrix4, compose, invert, relative,
  applyPoint, applyPointTo, applyVector, applyVectorTo, type Rigid,
} from './geometry/rigid.js';
export type { CollideMode, CollideResult, CollideStats, RigidTransform } from './collide/types.js';
export { STRATEGIES, DEFAULT_STRATEGY, buildTree, type StrategyName } from './collide/strategies.js';
