/**
 * Picking and hover through three-mesh-bvh: every body's geometry gets a bounds tree when it is
 * built (once per body, shared by every part placing it), and meshes raycast through it — a
 * pointer move over a 400k-triangle assembly tests a few dozen triangles, not all of them.
 */
import { BufferGeometry, Mesh } from 'three';
import { acceleratedRaycast, computeBoundsTree, disposeBoundsTree } from 'three-mesh-bvh';

BufferGeometry.prototype.computeBoundsTree = computeBoundsTree;
BufferGeometry.prototype.disposeBoundsTree = disposeBoundsTree;
Mesh.prototype.raycast = acceleratedRaycast;

export function withBoundsTree(geometry: BufferGeometry): BufferGeometry {
  // Indirect: the tree keeps its own triangle order, the geometry's index stays as the host sent
  // it (results name triangles by their index).
  geometry.computeBoundsTree({ indirect: true });
  return geometry;
}
