/**
 * A result's intersection curves, computed once per result and placement from the bodies in the
 * geometry registry (see intersectionCurves.ts) and shared by the view (the lines and patches,
 * resultObjects.ts), the camera (framing) and the section plane. Kept with the result object: the
 * results of the next check are new objects, and these go with the old ones.
 */
import type { PairResultInfo, PartInfo } from '../../src-main/contract/host';
import { geometryRegistry } from './geometryRegistry';
import { intersectionCurves, type BodyTriangles, type IntersectionCurves } from './intersectionCurves';

const cache = new WeakMap<PairResultInfo, { key: string; curves: IntersectionCurves | null }>();

function trianglesOf(part: PartInfo): BodyTriangles | null {
  const g = geometryRegistry.get(part.bodyKey)?.geometry;
  const index = g?.getIndex();
  const position = g?.getAttribute('position');
  if (!index || !position) return null;
  return { positions: position.array, indices: index.array };
}

/** The curves of `result` between its parts as placed in `parts`; null when a body is not loaded. */
export function resultCurves(result: PairResultInfo, parts: readonly PartInfo[], geometryVersion: number): IntersectionCurves | null {
  const pa = parts.find((p) => p.id === result.a);
  const pb = parts.find((p) => p.id === result.b);
  if (!pa || !pb) return null;
  const key = `${geometryVersion}|${pa.bodyKey}@${pa.transform.join(',')}|${pb.bodyKey}@${pb.transform.join(',')}`;
  const cached = cache.get(result);
  if (cached && cached.key === key) return cached.curves;
  const a = trianglesOf(pa);
  const b = trianglesOf(pb);
  const curves = a && b ? intersectionCurves(result.trianglePairs, a, pa.transform, b, pb.transform) : null;
  cache.set(result, { key, curves });
  return curves;
}
