/**
 * The display geometry of bodies, outside React and zustand: body key → one BufferGeometry (plus
 * its edge lines), built once when the host sends the body and shared by every part that places
 * it. The store only learns that bodies arrived (`geometry.version`).
 */
import { Box3, BufferAttribute, BufferGeometry } from 'three';
import type { BodyGeometry } from '../../src-main/contract/host';
import type { Aabb } from '../state/placement';
import type { GeometrySink } from '../state/types';
import { withBoundsTree } from './bvh';
import { bodyEdges, faceRangesUsable, splitVerticesByFace } from './edges';

export interface BodyDisplay {
  /** Shaded faces: triangle t is the body's triangle t (results name triangles by index). */
  readonly geometry: BufferGeometry;
  /** Edge lines over the faces. */
  readonly edges: BufferGeometry;
  /** No B-rep faces (STL): shade each triangle flat instead of smoothing across sharp edges. */
  readonly flatShading: boolean;
  readonly triangleCount: number;
  /** In the body's own frame. */
  readonly bounds: Box3;
}

export function buildBodyDisplay(body: BodyGeometry): BodyDisplay {
  const triangleCount = Math.floor(body.indices.length / 3);
  const hasFaces = faceRangesUsable(body.faceRanges, triangleCount);
  const split = splitVerticesByFace(body.positions, body.indices, body.faceRanges);

  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(split.positions, 3));
  geometry.setIndex(new BufferAttribute(split.indices, 1));
  geometry.computeVertexNormals();
  geometry.computeBoundingBox();
  geometry.computeBoundingSphere();
  // For picking and hover (scene/bvh.ts).
  withBoundsTree(geometry);

  const edges = new BufferGeometry();
  edges.setAttribute('position', new BufferAttribute(body.positions, 3));
  edges.setIndex(new BufferAttribute(bodyEdges(body.positions, body.indices, body.faceRanges), 1));
  edges.computeBoundingSphere();

  return { geometry, edges, flatShading: !hasFaces, triangleCount, bounds: geometry.boundingBox ?? new Box3() };
}

export class GeometryRegistry implements GeometrySink {
  private readonly bodies = new Map<string, BodyDisplay>();

  add(bodies: readonly BodyGeometry[]): void {
    for (const body of bodies) {
      this.release(body.bodyKey);
      this.bodies.set(body.bodyKey, buildBodyDisplay(body));
    }
  }

  has(bodyKey: string): boolean {
    return this.bodies.has(bodyKey);
  }

  get(bodyKey: string): BodyDisplay | undefined {
    return this.bodies.get(bodyKey);
  }

  bodyBounds(bodyKey: string): Aabb | null {
    const b = this.bodies.get(bodyKey)?.bounds;
    if (!b || b.isEmpty()) return null;
    return { min: [b.min.x, b.min.y, b.min.z], max: [b.max.x, b.max.y, b.max.z] };
  }

  retain(keep: ReadonlySet<string>): void {
    for (const key of [...this.bodies.keys()]) if (!keep.has(key)) this.release(key);
  }

  private release(bodyKey: string): void {
    const body = this.bodies.get(bodyKey);
    if (!body) return;
    body.geometry.disposeBoundsTree();
    body.geometry.dispose();
    body.edges.dispose();
    this.bodies.delete(bodyKey);
  }
}

/** The window's registry (re-exported by appStore.ts). */
export const geometryRegistry = new GeometryRegistry();
