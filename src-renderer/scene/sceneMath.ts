/**
 * Placement, bounds and camera framing helpers (three's math classes, no rendering).
 * The model is Z-up, as CAD files are.
 */
import { Box3, Matrix4, Vector3 } from 'three';
import type { PartInfo } from '../../src-main/contract/host';
import type { StandardView } from '../state/types';

/** A part's placement: PartInfo.transform is row-major, as Matrix4.set takes its arguments. */
export function partMatrix(t: readonly number[], target = new Matrix4()): Matrix4 {
  return target.set(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13], t[14], t[15]);
}

/** The union of the parts' body bounds, placed; empty when no part has geometry. */
export function partsBounds(parts: readonly PartInfo[], bodyBounds: (bodyKey: string) => Box3 | undefined): Box3 {
  const out = new Box3();
  const m = new Matrix4();
  const box = new Box3();
  for (const part of parts) {
    const b = bodyBounds(part.bodyKey);
    if (!b || b.isEmpty()) continue;
    box.copy(b).applyMatrix4(partMatrix(part.transform, m));
    out.union(box);
  }
  return out;
}

/** The placed bounds of each part with geometry. */
export function partBoxes(parts: readonly PartInfo[], bodyBounds: (bodyKey: string) => Box3 | undefined): Box3[] {
  const out: Box3[] = [];
  const m = new Matrix4();
  for (const part of parts) {
    const b = bodyBounds(part.bodyKey);
    if (b && !b.isEmpty()) out.push(b.clone().applyMatrix4(partMatrix(part.transform, m)));
  }
  return out;
}

/** The bounds of placed points given as x y z triples. */
export function pointsBounds(points: Float32Array, matrix: Matrix4, target = new Box3()): Box3 {
  const v = new Vector3();
  for (let i = 0; i + 2 < points.length; i += 3) {
    target.expandByPoint(v.set(points[i], points[i + 1], points[i + 2]).applyMatrix4(matrix));
  }
  return target;
}

/**
 * A grid step of 1, 2 or 5 × 10ⁿ mm giving about `cells` cells across `size` mm.
 */
export function niceStep(size: number, cells = 12): number {
  if (!(size > 0) || !Number.isFinite(size)) return 10;
  const raw = size / cells;
  const pow = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * pow >= raw) return m * pow;
  return 10 * pow;
}

/** The grid under a model: its step, its size (a whole number of steps) and its centre. */
export function gridFor(bounds: Box3): { step: number; size: number; divisions: number; center: Vector3 } {
  if (bounds.isEmpty()) return { step: 10, size: 200, divisions: 20, center: new Vector3() };
  const size = bounds.getSize(new Vector3());
  const extent = Math.max(size.x, size.y, size.z * 0.5, 1e-3);
  const step = niceStep(extent * 1.6);
  const divisions = 2 * Math.ceil((extent * 1.6) / step / 2);
  const c = bounds.getCenter(new Vector3());
  const center = new Vector3(Math.round(c.x / step) * step, Math.round(c.y / step) * step, bounds.min.z - extent * 1e-3);
  return { step, size: divisions * step, divisions, center };
}

/** Direction from the target to the camera for a standard view (Z up, front looks along +Y). */
export function viewDirection(view: StandardView): Vector3 {
  switch (view) {
    case 'front':
      return new Vector3(0, -1, 0);
    case 'right':
      return new Vector3(1, 0, 0);
    case 'top':
      // Not exactly along the up axis, where orbiting has no defined azimuth.
      return new Vector3(0, -1e-4, 1).normalize();
    case 'iso':
      return new Vector3(1, -1, 1).normalize();
  }
}

/** Camera axes for looking along −`dir` with Z up: right and up on screen. */
export function screenAxes(dir: Vector3): { right: Vector3; up: Vector3 } {
  const worldUp = Math.abs(dir.z) > 0.999 ? new Vector3(0, 1, 0) : new Vector3(0, 0, 1);
  const right = new Vector3().crossVectors(worldUp, dir).normalize();
  const up = new Vector3().crossVectors(dir, right).normalize();
  return { right, up };
}

/**
 * How to see a set of boxes (the placed parts) from direction `dir` (unit, from the target
 * towards the camera): the point to look at, the perspective distance from it, and the half width
 * and half height (mm) they cover on screen for an orthographic view. The corners of every box
 * count, not just those of their union: an L-shaped arm leaves its union's corners empty.
 * `margin` leaves room around them.
 */
export function fitBoxes(
  boxes: readonly Box3[],
  dir: Vector3,
  fovDeg: number,
  aspect: number,
  margin = 1.1,
): { center: Vector3; distance: number; halfWidth: number; halfHeight: number } {
  const { right, up } = screenAxes(dir);
  const corners: Vector3[] = [];
  for (const box of boxes) {
    if (box.isEmpty()) continue;
    for (let i = 0; i < 8; i++) corners.push(new Vector3(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z));
  }
  if (corners.length === 0) return { center: new Vector3(), distance: 1, halfWidth: 1, halfHeight: 1 };
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const c of corners) {
    const p = [c.dot(right), c.dot(up), c.dot(dir)];
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], p[k]);
      max[k] = Math.max(max[k], p[k]);
    }
  }
  const [minX, minY, minZ] = min;
  const [maxX, maxY, maxZ] = max;
  const center = new Vector3()
    .addScaledVector(right, (minX + maxX) / 2)
    .addScaledVector(up, (minY + maxY) / 2)
    .addScaledVector(dir, (minZ + maxZ) / 2);
  const tanV = Math.tan((fovDeg * Math.PI) / 360);
  const tanH = tanV * aspect;
  let distance = 0;
  const d = new Vector3();
  for (const c of corners) {
    d.subVectors(c, center);
    const x = Math.abs(d.dot(right)) * margin;
    const y = Math.abs(d.dot(up)) * margin;
    const z = d.dot(dir);
    distance = Math.max(distance, z + x / tanH, z + y / tanV);
  }
  const halfWidth = Math.max(((maxX - minX) / 2) * margin, 1e-3);
  const halfHeight = Math.max(((maxY - minY) / 2) * margin, 1e-3);
  const extent = Math.hypot(maxX - minX, maxY - minY, maxZ - minZ);
  return { center, distance: Math.max(distance, extent * 0.05, 1e-3), halfWidth, halfHeight };
}
