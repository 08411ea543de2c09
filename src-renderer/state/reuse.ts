/**
 * Structural sharing of parts between two versions of a document: every `doc.changed` brings all
 * parts anew (parsed from the message), but usually only one moved. Keeping the objects of the
 * parts that did not change lets memoised components (a mesh per part, a row per part) skip them.
 */
import type { PartInfo } from '../../src-main/contract/host';

export function samePart(a: PartInfo, b: PartInfo): boolean {
  if (
    a.id !== b.id || a.name !== b.name || a.sourceId !== b.sourceId || a.sourcePath !== b.sourcePath || a.body !== b.body ||
    a.bodyKey !== b.bodyKey || a.triangles !== b.triangles || a.color !== b.color || a.visible !== b.visible || a.closed !== b.closed
  ) {
    return false;
  }
  if (a.transform.length !== b.transform.length) return false;
  for (let i = 0; i < a.transform.length; i++) if (a.transform[i] !== b.transform[i]) return false;
  return true;
}

/** `next`, with each part equal to its previous version replaced by that previous object. */
export function reuseParts(prev: readonly PartInfo[], next: readonly PartInfo[]): PartInfo[] {
  const byId = new Map(prev.map((p) => [p.id, p]));
  return next.map((p) => {
    const old = byId.get(p.id);
    return old && samePart(old, p) ? old : p;
  });
}
