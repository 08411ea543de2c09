/**
 * Pair queries of the host service, on one pair of a document's parts at their current
 * placements: `check.pair` (the live check while dragging), `check.trace` (the traversal view)
 * and `check.overlap` (the overlap solid of an interference).
 */
import type { RequestOf, ResponseOf } from '../../contract/host.js';
import { OverlapEngine } from '../../../src-core/check/volume.js';
import { collidePlaced } from '../../../src-core/collide/collide.js';
import { minDistance } from '../../../src-core/collide/proximity.js';
import { traceCollide } from '../../../src-core/collide/trace.js';
import { parseRigid, relative } from '../../../src-core/geometry/rigid.js';
import { loadManifold } from '../manifoldNode.js';
import { bodyOf, docName, partOf, type DocState, type PartState } from './document.js';
import { failure } from './errors.js';

/** The two parts a pair query names, or 'invalid-request' / 'unknown-part'. */
function pairOf(d: DocState, channel: string, a: string, b: string): [PartState, PartState] {
  if (a === b) throw failure('invalid-request', `${docName(d)}: ${channel} needs two different parts, got '${a}' twice`, d.path);
  return [partOf(d, a), partOf(d, b)];
}

/** `check.pair`: intersecting triangle pairs, and the distance within `withinMm` when there are none. */
export function checkPair(d: DocState, { a, b, withinMm }: RequestOf<'check.pair'>): ResponseOf<'check.pair'> {
  const [pa, pb] = pairOf(d, 'check.pair', a, b);
  const ta = bodyOf(d, pa).tree, tb = bodyOf(d, pb).tree;
  const ma = parseRigid(pa.transform), mb = parseRigid(pb.transform);
  const hits = collidePlaced(ta, ma, tb, mb, 'all');
  let distanceMm: number | null = null;
  if (hits.pairCount === 0 && withinMm !== undefined) {
    distanceMm = minDistance(ta, tb, relative(ma, mb), withinMm)?.distance ?? null;
  }
  return { a, b, trianglePairs: hits.pairs as Uint32Array<ArrayBuffer>, distanceMm };
}

/** `check.trace`: what the tree query of the pair visited and tested. */
export function tracePair(d: DocState, { a, b, maxDepth, maxBoxes }: RequestOf<'check.trace'>): ResponseOf<'check.trace'> {
  const [pa, pb] = pairOf(d, 'check.trace', a, b);
  const ta = bodyOf(d, pa).tree, tb = bodyOf(d, pb).tree;
  const trace = traceCollide(ta, parseRigid(pa.transform), tb, parseRigid(pb.transform), { maxDepth, maxBoxes });
  return {
    a, b,
    trianglePairs: trace.pairs as Uint32Array<ArrayBuffer>,
    testedA: trace.testedA as Uint32Array<ArrayBuffer>,
    testedB: trace.testedB as Uint32Array<ArrayBuffer>,
    boxes: trace.boxes as Float64Array<ArrayBuffer>,
    boxesOmitted: trace.boxesOmitted,
    boxTests: trace.boxTests,
    triTests: trace.triTests,
  };
}

/** `check.overlap`: the overlap solid of the pair (manifold-3d), null when there is none. */
export async function overlapPair(d: DocState, { a, b }: RequestOf<'check.overlap'>): Promise<ResponseOf<'check.overlap'>> {
  const [pa, pb] = pairOf(d, 'check.overlap', a, b);
  const ba = bodyOf(d, pa), bb = bodyOf(d, pb);
  const wasm = await loadManifold();
  // A local origin between the two parts keeps manifold-3d's float32 positions precise.
  const origin: [number, number, number] = [
    (pa.transform[3] + pb.transform[3]) / 2, (pa.transform[7] + pb.transform[7]) / 2, (pa.transform[11] + pb.transform[11]) / 2,
  ];
  const engine = new OverlapEngine(wasm, origin);
  try {
    const sa = engine.solid('a', ba.mesh, pa.transform);
    const sb = engine.solid('b', bb.mesh, pb.transform);
    const overlap = engine.overlap(sa, sb);
    if (!overlap || overlap.indices.length === 0) return null;
    return { a, b, positions: Float32Array.from(overlap.positions), indices: overlap.indices as Uint32Array<ArrayBuffer>, volumeMm3: overlap.volume };
  } finally {
    engine.dispose();
  }
}
