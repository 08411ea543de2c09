/**
 * The selected result's intersection curves, computed once per result and placement from the
 * bodies in the geometry registry (see intersectionCurves.ts) and shared by the view (the lines
 * and patches) and the camera (framing).
 */
import type { PairResultInfo, PartInfo } from '../../src-main/contract/host';
import { geometryRegistry } from '../appStore';
import { intersectionCurves, type BodyTriangles, type IntersectionCurves } from './intersectionCurves';

let cached: { key: string; result: PairResultInfo; curves: IntersectionCurves | null } | null = null;

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
  if (cached && cached.result === result && cached.key === key) return cached.curves;
  const a = trianglesOf(pa);
  const b = trianglesOf(pb);
  const curves = a && b ? intersectionCurves(result.trianglePairs, a, pa.transform, b, pb.transform) : null;
  cached = { key, result, curves };
  return curves;
}
