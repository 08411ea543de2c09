/**
 * Pair queries of the host service, on one pair of a document's parts at their current
 * placements: `check.pair` (the live check while dragging), `check.trace` (the traversal view)
 * and `check.overlap` (the overlap solid of an interference).
 */
import type { RequestOf, ResponseOf } from '../../contract/host.js';
import { crossingDepth } from '../../../src-core/check/depth.js';
import { OverlapEngine } from '../../../src-core/check/volume.js';
import { collidePlaced } from '../../../src-core/collide/collide.js';
import { minDistance } from '../../../src-core/collide/proximity.js';
import { traceCollide } from '../../../src-core/collide/trace.js';
import { loadManifold } from '../manifoldNode.js';
import { bodyOf, docName, partOf, type DocState, type PartState } from './document.js';
import { failure } from './errors.js';

/** The 3×4 placement of B in A's frame, row-major (the 12 leading numbers of a 4×4), into `out`. */
function relativePlacement(a: Float64Array, b: Float64Array, out: Float64Array): void {
  // A⁻¹·B with A = [R | t]: Rᵀ·Rb and Rᵀ·(tb − ta); rows of a 4×4 (stride 4).
  const tx = b[3] - a[3], ty = b[7] - a[7], tz = b[11] - a[11];
  for (let i = 0; i < 3; i++) {
    const r0 = a[i], r1 = a[4 + i], r2 = a[8 + i]; // column i of R = row i of Rᵀ
    out[4 * i] = r0 * b[0] + r1 * b[4] + r2 * b[8];
    out[4 * i + 1] = r0 * b[1] + r1 * b[5] + r2 * b[9];
    out[4 * i + 2] = r0 * b[2] + r1 * b[6] + r2 * b[10];
    out[4 * i + 3] = r0 * tx + r1 * ty + r2 * tz;
  }
}

const RELATIVE = new Float64Array(12);

/** The two parts a pair query names, or 'invalid-request' / 'unknown-part'. */
function pairOf(d: DocState, channel: string, a: string, b: string): [PartState, PartState] {
  if (a === b) throw failure('invalid-request', `${docName(d)}: ${channel} needs two different parts, got '${a}' twice`, d.path);
  return [partOf(d, a), partOf(d, b)];
}

/**
 * `check.pair`: intersecting triangle pairs and, with `depth`, how deep they cross (the deepest
 * point of either surface inside the other, src-core/check/depth.ts); or the distance within
 * `withinMm` when there are none.
 */
export function checkPair(d: DocState, { a, b, withinMm, depth }: RequestOf<'check.pair'>): ResponseOf<'check.pair'> {
  const [pa, pb] = pairOf(d, 'check.pair', a, b);
  const ba = bodyOf(d, pa), bb = bodyOf(d, pb);
  const ta = ba.tree, tb = bb.tree;
  const hits = collidePlaced(ta, pa.transform, tb, pb.transform, 'all');
  relativePlacement(pa.transform, pb.transform, RELATIVE);
  let distanceMm: number | null = null;
  let depthMm: number | null = null;
  if (hits.pairCount > 0 && depth === true) {
    const partA = { id: a, name: pa.name, mesh: ba.mesh, tree: ta, transform: pa.transform, chordErrorMm: ba.chordErrorMm };
    const partB = { id: b, name: pb.name, mesh: bb.mesh, tree: tb, transform: pb.transform, chordErrorMm: bb.chordErrorMm };
    depthMm = crossingDepth(partA, partB, RELATIVE, hits.pairs, 0, ba.closed && bb.closed);
  } else if (hits.pairCount === 0 && withinMm !== undefined) {
    distanceMm = minDistance(ta, tb, RELATIVE, withinMm)?.distance ?? null;
  }
  return { a, b, trianglePairs: hits.pairs as Uint32Array<ArrayBuffer>, distanceMm, depthMm };
}

/** `check.trace`: what the tree query of the pair visited and tested. */
export function tracePair(d: DocState, { a, b, maxDepth, maxBoxes }: RequestOf<'check.trace'>): ResponseOf<'check.trace'> {
  const [pa, pb] = pairOf(d, 'check.trace', a, b);
  const ta = bodyOf(d, pa).tree, tb = bodyOf(d, pb).tree;
  const trace = traceCollide(ta, pa.transform, tb, pb.transform, { maxDepth, maxBoxes });
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
