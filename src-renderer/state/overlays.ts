/**
 * Which triangles of a part are drawn over it, and in which colour: the traversal view (red in a
 * contact, yellow tested without contact), else what the live check found while it moved, else
 * the colliding triangles of the selected result. Plain data, drawn by scene/PartOverlays.tsx.
 */
import type { PairResultInfo, PairTrace } from '../../src-main/contract/host';
import { sideTriangles } from './results';
import type { LiveState } from './types';

export interface PartOverlay {
  /** Triangles drawn red: in a contact (intersecting). */
  readonly hit: Uint32Array;
  /** Triangles drawn yellow: tested exactly, in no contact (traversal view only). */
  readonly tested: Uint32Array;
}

const NONE = new Uint32Array(0);

/** The sorted values of `all` that are not in the sorted `minus`. */
export function sortedDifference(all: Uint32Array, minus: Uint32Array): Uint32Array {
  const out = new Uint32Array(all.length);
  let w = 0;
  let j = 0;
  for (let i = 0; i < all.length; i++) {
    const v = all[i];
    while (j < minus.length && minus[j] < v) j++;
    if (j < minus.length && minus[j] === v) continue;
    out[w++] = v;
  }
  return out.slice(0, w);
}

/** The distinct values of several sorted arrays, sorted. */
function sortedUnion(lists: readonly Uint32Array[]): Uint32Array {
  let n = 0;
  for (const l of lists) n += l.length;
  const all = new Uint32Array(n);
  let o = 0;
  for (const l of lists) {
    all.set(l, o);
    o += l.length;
  }
  all.sort();
  let w = 0;
  for (let i = 0; i < all.length; i++) if (w === 0 || all[i] !== all[w - 1]) all[w++] = all[i];
  return all.slice(0, w);
}

/** The live check's triangles of a part: all its contacts if it is the moving part, else its side of the pair. */
export function liveOverlay(live: LiveState, partId: string): PartOverlay | null {
  if (partId === live.partId) {
    const lists = live.pairs.filter((p) => p.trianglePairs.length > 0).map((p) => sideTriangles(p.trianglePairs, 0));
    return lists.length > 0 ? { hit: sortedUnion(lists), tested: NONE } : null;
  }
  const pair = live.pairs.find((p) => p.other === partId);
  if (!pair || pair.trianglePairs.length === 0) return null;
  return { hit: sideTriangles(pair.trianglePairs, 1), tested: NONE };
}

/** A side of the traversal view: its intersecting triangles, and those tested without contact. */
export function traceOverlay(trace: PairTrace, partId: string): PartOverlay | null {
  const side = partId === trace.a ? 0 : partId === trace.b ? 1 : -1;
  if (side < 0) return null;
  const hit = sideTriangles(trace.trianglePairs, side as 0 | 1);
  const tested = Uint32Array.from(side === 0 ? trace.testedA : trace.testedB).sort();
  return { hit, tested: sortedDifference(tested, hit) };
}

/** A side of a result: its colliding triangles. */
export function resultOverlay(result: PairResultInfo, partId: string): PartOverlay | null {
  const side = partId === result.a ? 0 : partId === result.b ? 1 : -1;
  if (side < 0 || result.trianglePairs.length === 0) return null;
  return { hit: sideTriangles(result.trianglePairs, side as 0 | 1), tested: NONE };
}

/**
 * What is drawn over a part: the traversal view when it is on and shows this part's pair; else
 * the live check's findings while there are any; else the selected result's triangles.
 */
export function overlayFor(
  partId: string,
  inputs: { readonly trace: PairTrace | null; readonly live: LiveState | null; readonly result: PairResultInfo | null },
): PartOverlay | null {
  if (inputs.trace && (inputs.trace.a === partId || inputs.trace.b === partId)) return traceOverlay(inputs.trace, partId);
  if (inputs.live) return liveOverlay(inputs.live, partId);
  if (inputs.result) return resultOverlay(inputs.result, partId);
  return null;
}
