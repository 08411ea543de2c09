/**
 * An instrumented run of the OBB traversal for one pair of placed meshes, for the traversal view
 * (an engineer's look at how the tree found — or ruled out — contact): which triangles were
 * tested exactly, which of them intersect, and which box pairs were visited, pruned or descended.
 *
 * It mirrors collide.ts's traversal (same descent rule, same conservative 15-axis test and exact
 * triangle test), written plainly with per-pair arithmetic instead of the fast path's caches: it
 * runs once per request for one pair, never in a loop.
 */
import { triTriIntersect } from '../geometry/triTri.js';
import { OBB_STRIDE, obbAxes, type ObbTree } from '../obbtree/layout.js';
import { relative, type Rigid } from '../geometry/rigid.js';

const U = 2 ** -53;

/** Outcome of a visited box pair. */
export const TRACE_PRUNED = 0;
export const TRACE_DESCENDED = 1;
export const TRACE_LEAVES = 2;

/** Per visited box (both boxes of a pair are listed): BOX_ROW numbers. */
export const TRACE_BOX_ROW = 18;

export interface TraversalTrace {
  /** Intersecting triangle pairs [triangle of A, triangle of B, …] (original indices). */
  readonly pairs: Uint32Array;
  /** Triangles of A and of B that were tested exactly (original indices, each once). */
  readonly testedA: Uint32Array;
  readonly testedB: Uint32Array;
  /**
   * Visited boxes up to the depth limit, TRACE_BOX_ROW numbers each: side (0 = A, 1 = B), depth
   * of the pair, outcome (TRACE_PRUNED / TRACE_DESCENDED / TRACE_LEAVES), world centre (3), half
   * extents (3), world axes (9).
   */
  readonly boxes: Float64Array;
  /** Box rows left out because of maxBoxes. */
  readonly boxesOmitted: number;
  readonly boxTests: number;
  readonly triTests: number;
}

export interface TraceOptions {
  /** Record boxes of pairs at most this deep (root pair = 0). Default 64. */
  readonly maxDepth?: number;
  /** Record at most this many boxes. Default 20,000. */
  readonly maxBoxes?: number;
}

/** Does A's box i overlap B's box j, with B's box mapped by M (geometry/rigid.ts's row-major 3×4)? */
function overlap(AB: Float64Array, BB: Float64Array, i: number, j: number, M: Float64Array, eta: number): boolean {
  const o = i * OBB_STRIDE, ob = j * OBB_STRIDE;
  const ca = [AB[o], AB[o + 1], AB[o + 2]];
  const ha = [AB[o + 3], AB[o + 4], AB[o + 5]];
  const hb = [BB[ob + 3], BB[ob + 4], BB[ob + 5]];
  const axA = new Float64Array(9), axB = new Float64Array(9);
  obbAxes(AB, o, axA);
  obbAxes(BB, ob, axB);
  const ea = [0, 1, 2].map((k) => [axA[3 * k], axA[3 * k + 1], axA[3 * k + 2]]);
  const x = BB[ob], y = BB[ob + 1], z = BB[ob + 2];
  const cb = [M[0] * x + M[1] * y + M[2] * z + M[3], M[4] * x + M[5] * y + M[6] * z + M[7], M[8] * x + M[9] * y + M[10] * z + M[11]];
  const eb = [0, 1, 2].map((k) => {
    const u = axB[3 * k], v = axB[3 * k + 1], w = axB[3 * k + 2];
    return [M[0] * u + M[1] * v + M[2] * w, M[4] * u + M[5] * v + M[6] * w, M[8] * u + M[9] * v + M[10] * w];
  });
  const d = [cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]];
  const dot = (p: number[], q: number[]): number => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
  const cross = (p: number[], q: number[]): number[] => [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]];
  const axes: number[][] = [...ea, ...eb];
  for (const p of ea) for (const q of eb) axes.push(cross(p, q));
  for (const L of axes) {
    const ra = ha[0] * Math.abs(dot(ea[0], L)) + ha[1] * Math.abs(dot(ea[1], L)) + ha[2] * Math.abs(dot(ea[2], L));
    const rb = hb[0] * Math.abs(dot(eb[0], L)) + hb[1] * Math.abs(dot(eb[1], L)) + hb[2] * Math.abs(dot(eb[2], L));
    if (Math.abs(dot(d, L)) > ra + rb + eta) return false;
  }
  return true;
}

/** Traces the query of A (placed by placementA) against B (placed by placementB). */
export function traceCollide(a: ObbTree, placementA: Rigid, b: ObbTree, placementB: Rigid, options: TraceOptions = {}): TraversalTrace {
  const maxDepth = options.maxDepth ?? 64, maxBoxes = options.maxBoxes ?? 20_000;
  const MA = placementA, MB = placementB, M = relative(placementA, placementB);
  const tsum = (T: Float64Array): number => Math.abs(T[3]) + Math.abs(T[7]) + Math.abs(T[11]);
  // The fast path's slack (collide.ts), generous enough for this plainer arithmetic too.
  const eta = 64 * U * (3 * a.maxAbsCoordinate + 3 * b.maxAbsCoordinate + tsum(M) + 2 * tsum(MA) + 2 * tsum(MB)) + 1e-300;

  // World coordinates of both meshes (the exact test's input, as in collidePlaced).
  const world = (tree: ObbTree, T: Float64Array): Float64Array => {
    const P = tree.positions, W = new Float64Array(P.length);
    for (let o = 0; o < P.length; o += 3) {
      const x = P[o], y = P[o + 1], z = P[o + 2];
      W[o] = T[0] * x + T[1] * y + T[2] * z + T[3];
      W[o + 1] = T[4] * x + T[5] * y + T[6] * z + T[7];
      W[o + 2] = T[8] * x + T[9] * y + T[10] * z + T[11];
    }
    return W;
  };
  const WA = world(a, MA), WB = world(b, MB);

  const boxes: number[] = [];
  const axes = new Float64Array(9);
  let omitted = 0;
  const record = (side: 0 | 1, tree: ObbTree, T: Float64Array, node: number, depth: number, outcome: number): void => {
    if (depth > maxDepth) return;
    if (boxes.length / TRACE_BOX_ROW >= maxBoxes) { omitted++; return; }
    const B = tree.boxes, o = node * OBB_STRIDE;
    const x = B[o], y = B[o + 1], z = B[o + 2];
    boxes.push(side, depth, outcome,
      T[0] * x + T[1] * y + T[2] * z + T[3], T[4] * x + T[5] * y + T[6] * z + T[7], T[8] * x + T[9] * y + T[10] * z + T[11],
      B[o + 3], B[o + 4], B[o + 5]);
    obbAxes(B, o, axes);
    for (let k = 0; k < 3; k++) {
      const u = axes[3 * k], v = axes[3 * k + 1], w = axes[3 * k + 2];
      boxes.push(T[0] * u + T[1] * v + T[2] * w, T[4] * u + T[5] * v + T[6] * w, T[8] * u + T[9] * v + T[10] * w);
    }
  };

  const pairs: number[] = [];
  const testedA = new Set<number>(), testedB = new Set<number>();
  let boxTests = 0, triTests = 0;
  const stack: number[] = [0, 0, 0];
  const NA = a.nodes, NB = b.nodes;
  while (stack.length > 0) {
    const depth = stack.pop() as number, j = stack.pop() as number, i = stack.pop() as number;
    boxTests++;
    const hit = overlap(a.boxes, b.boxes, i, j, M, eta);
    const aCount = NA[2 * i + 1], bCount = NB[2 * j + 1];
    const outcome = !hit ? TRACE_PRUNED : aCount > 0 && bCount > 0 ? TRACE_LEAVES : TRACE_DESCENDED;
    record(0, a, MA, i, depth, outcome);
    record(1, b, MB, j, depth, outcome);
    if (!hit) continue;
    if (aCount > 0 && bCount > 0) {
      for (let s = NA[2 * i]; s < NA[2 * i] + aCount; s++) {
        const a0 = 3 * a.triVerts[3 * s], a1 = 3 * a.triVerts[3 * s + 1], a2 = 3 * a.triVerts[3 * s + 2];
        for (let t = NB[2 * j]; t < NB[2 * j] + bCount; t++) {
          triTests++;
          testedA.add(a.triOrder[s]);
          testedB.add(b.triOrder[t]);
          if (triTriIntersect(WA, a0, a1, a2, WB, 3 * b.triVerts[3 * t], 3 * b.triVerts[3 * t + 1], 3 * b.triVerts[3 * t + 2])) {
            pairs.push(a.triOrder[s], b.triOrder[t]);
          }
        }
      }
      continue;
    }
    if (aCount > 0 || (bCount === 0 && b.boxes[j * OBB_STRIDE + 3] > a.boxes[i * OBB_STRIDE + 3])) {
      stack.push(i, NB[2 * j], depth + 1, i, j + 1, depth + 1);
    } else {
      stack.push(NA[2 * i], j, depth + 1, i + 1, j, depth + 1);
    }
  }
  const sortedSet = (s: Set<number>): Uint32Array => Uint32Array.from([...s].sort((x, y) => x - y));
  return {
    pairs: Uint32Array.from(pairs),
    testedA: sortedSet(testedA),
    testedB: sortedSet(testedB),
    boxes: Float64Array.from(boxes),
    boxesOmitted: omitted,
    boxTests,
    triTests,
  };
}
