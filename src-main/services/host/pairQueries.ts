/**
 * Pair queries of the host service, on one pair of a document's parts at their current
 * placements: `check.pair` (the live check while dragging), `check.trace` (the traversal view)
 * and `check.overlap` (the overlap solid of an interference). The request is checked here; the
 * query runs where the context's CheckRunner runs it (the check child, ../checkChild.ts).
 */
import type { RequestOf, ResponseOf } from '../../contract/host.js';
import type { PlacedBody } from '../checkRunner.js';
import type { HostContext } from './context.js';
import { bodyOf, docName, partOf, type DocState } from './document.js';
import { failure } from './errors.js';

/** The two parts a pair query names, placed as they are now, or 'invalid-request' / 'unknown-part'. */
function pairOf(d: DocState, channel: string, a: string, b: string): [PlacedBody, PlacedBody] {
  if (a === b) throw failure('invalid-request', `${docName(d)}: ${channel} needs two different parts, got '${a}' twice`, d.path);
  const pa = partOf(d, a), pb = partOf(d, b);
  return [
    { id: a, body: bodyOf(d, pa), transform: Float64Array.from(pa.transform) },
    { id: b, body: bodyOf(d, pb), transform: Float64Array.from(pb.transform) },
  ];
}

/**
 * `check.pair`: intersecting triangle pairs and, with `depth`, how deep they cross (the deepest
 * point of either surface inside the other, src-core/check/depth.ts); or the distance within
 * `withinMm` when there are none.
 */
export async function checkPair(ctx: HostContext, d: DocState, { a, b, withinMm, depth }: RequestOf<'check.pair'>): Promise<ResponseOf<'check.pair'>> {
  const [pa, pb] = pairOf(d, 'check.pair', a, b);
  const hits = await ctx.checkRunner.pairHits(d.id, pa, pb, withinMm ?? null, depth === true);
  return { a, b, trianglePairs: hits.trianglePairs as Uint32Array<ArrayBuffer>, distanceMm: hits.distanceMm, depthMm: hits.depthMm };
}

/** `check.trace`: what the tree query of the pair visited and tested. */
export async function tracePair(ctx: HostContext, d: DocState, { a, b, maxDepth, maxBoxes }: RequestOf<'check.trace'>): Promise<ResponseOf<'check.trace'>> {
  const [pa, pb] = pairOf(d, 'check.trace', a, b);
  const trace = await ctx.checkRunner.pairTrace(d.id, pa, pb, { ...(maxDepth !== undefined ? { maxDepth } : {}), ...(maxBoxes !== undefined ? { maxBoxes } : {}) });
  return {
    a, b,
    trianglePairs: trace.trianglePairs as Uint32Array<ArrayBuffer>,
    testedA: trace.testedA as Uint32Array<ArrayBuffer>,
    testedB: trace.testedB as Uint32Array<ArrayBuffer>,
    boxes: trace.boxes as Float64Array<ArrayBuffer>,
    boxesOmitted: trace.boxesOmitted,
    boxTests: trace.boxTests,
    triTests: trace.triTests,
  };
}

/** `check.overlap`: the overlap solid of the pair (manifold-3d), null when there is none. */
export async function overlapPair(ctx: HostContext, d: DocState, { a, b }: RequestOf<'check.overlap'>): Promise<ResponseOf<'check.overlap'>> {
  const [pa, pb] = pairOf(d, 'check.overlap', a, b);
  const solid = await ctx.checkRunner.overlap(d.id, pa, pb);
  if (!solid) return null;
  return { a, b, positions: solid.positions as Float32Array<ArrayBuffer>, indices: solid.indices as Uint32Array<ArrayBuffer>, volumeMm3: solid.volumeMm3 };
}
