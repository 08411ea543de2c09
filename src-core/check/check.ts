/**
 * The whole-assembly check: broad phase → exact triangle pairs per candidate pair → classification
 * into interference, contact, clearance violation or clear (formats.md, and the rule of
 * ../shared/data/assemblies/README.md).
 *
 * Per candidate pair (world bounds within reach of the tolerance or clearance):
 *  - Intersecting triangle pairs (exact, collide.ts): the penetration depth — how far the
 *    surfaces reach into each other (depth.ts: the deepest vertex of a crossing triangle inside
 *    the other mesh, and walks from the crossings into the other solid for thin through-going
 *    overlaps) — decides. Deeper than the touch tolerance: interference; else contact: surfaces
 *    that only touch, or whose tessellations cross by less than the tolerance (a bolt in its
 *    hole, chords of one circle crossing chords of the other). For an interference between two
 *    closed solids (manifold-3d accepts both), the overlap solid A ∩ B gives the volume and its
 *    centroid, and an overlap below max(1e-3 mm³, 1e-9 × the smaller part's bounding-box volume)
 *    is contact after all; for open meshes the volume is unknown (null).
 *  - No intersecting triangle: one closed part wholly inside the other is an interference
 *    (`contained`, volume = the inner part's volume); else the minimum distance decides: within
 *    the touch tolerance → contact, below `clearanceMm` → clearance violation, else clear.
 * Ignore rules are applied first (the pair is reported as ignored, not computed), and
 * `contactIsInterference` last.
 */
import type { TriangleMesh } from '../geometry/mesh.js';
import { edgeReport, volumeProps } from '../geometry/meshProps.js';
import { OBB_STRIDE } from '../obbtree/layout.js';
import { collidePlaced } from '../collide/collide.js';
import { minDistance, pointInMesh } from '../collide/proximity.js';
import { readRigidTransform } from '../collide/transform.js';
import { sweepAndPrune } from '../broadphase/sweepAndPrune.js';
import { OverlapEngine, type ManifoldProvider } from './volume.js';
import { crossingDepth } from './depth.js';
import { precisionWarnings } from './precision.js';
import { pairTolerance, pairToleranceBound, maxChordError, DEFAULT_TOUCH_TOLERANCE_MM } from './tolerance.js';
import type { CheckPart, CheckProgress, CheckRequest, CheckResult, PairResult, ResultKind } from './types.js';

export interface CheckOptions {
  /** manifold-3d for volumes of closed parts; without it volumes are null and depths probed. */
  readonly manifold?: ManifoldProvider | null;
  readonly onProgress?: (p: CheckProgress) => void;
  readonly signal?: { readonly aborted: boolean };
  /** Milliseconds clock (for elapsedMs). */
  readonly now?: () => number;
  /**
   * Lets the host's event loop run (e.g. `() => new Promise((r) => setImmediate(r))`): called
   * between pairs at most every `yieldEveryMs` (default 16 ms), so a host stays responsive and a
   * cancel can arrive while a long check runs.
   */
  readonly yieldToHost?: () => Promise<void>;
  readonly yieldEveryMs?: number;
}

export class CheckAbortedError extends Error {
  override readonly name = 'AbortError';
  constructor() {
    super('the check was cancelled');
  }
}

interface Prepared {
  readonly part: CheckPart;
  /** Body → world, row-major 3×4. */
  readonly m: Float64Array;
  /** World → body. */
  readonly inv: Float64Array;
  /** World bounds: min xyz, max xyz (from the root box's corners). */
  readonly bounds: Float64Array;
  closed: boolean | null;
  volume: { volume: number; centroid: [number, number, number] } | null;
}

function invertRigid(m: Float64Array): Float64Array {
  const r = new Float64Array(12);
  // R^T and −R^T t
  r[0] = m[0]; r[1] = m[3]; r[2] = m[6];
  r[3] = m[1]; r[4] = m[4]; r[5] = m[7];
  r[6] = m[2]; r[7] = m[5]; r[8] = m[8];
  r[9] = -(r[0] * m[9] + r[1] * m[10] + r[2] * m[11]);
  r[10] = -(r[3] * m[9] + r[4] * m[10] + r[5] * m[11]);
  r[11] = -(r[6] * m[9] + r[7] * m[10] + r[8] * m[11]);
  return r;
}

/** a ∘ b for row-major 3×4 (rotation 0..8, translation 9..11). */
function compose(a: Float64Array, b: Float64Array): Float64Array {
  const r = new Float64Array(12);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
    r[9 + i] = a[3 * i] * b[9] + a[3 * i + 1] * b[10] + a[3 * i + 2] * b[11] + a[9 + i];
  }
  return r;
}

/** Row-major 3×4 in readRigidTransform's layout → the 12 leading numbers of a row-major 4×4. */
function toRows(m: Float64Array): number[] {
  return [m[0], m[1], m[2], m[9], m[3], m[4], m[5], m[10], m[6], m[7], m[8], m[11]];
}

function applyPoint(m: Float64Array, x: number, y: number, z: number): [number, number, number] {
  return [
    m[0] * x + m[1] * y + m[2] * z + m[9],
    m[3] * x + m[4] * y + m[5] * z + m[10],
    m[6] * x + m[7] * y + m[8] * z + m[11],
  ];
}

function worldBounds(part: CheckPart, m: Float64Array): Float64Array {
  const B = part.tree.boxes;
  const out = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
  for (let corner = 0; corner < 8; corner++) {
    let x = B[0], y = B[1], z = B[2];
    for (let k = 0; k < 3; k++) {
      const s = (corner >> k) & 1 ? 1 : -1;
      const h = B[3 + k] * s;
      x += h * B[OBB_STRIDE - 9 + 3 * k];
      y += h * B[OBB_STRIDE - 8 + 3 * k];
      z += h * B[OBB_STRIDE - 7 + 3 * k];
    }
    const p = applyPoint(m, x, y, z);
    for (let k = 0; k < 3; k++) {
      out[k] = Math.min(out[k], p[k]);
      out[3 + k] = Math.max(out[3 + k], p[k]);
    }
  }
  return out;
}

function boundsVolume(b: Float64Array): number {
  return Math.max(0, b[3] - b[0]) * Math.max(0, b[4] - b[1]) * Math.max(0, b[5] - b[2]);
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

export async function runCheck(request: CheckRequest, options: CheckOptions = {}): Promise<CheckResult> {
  const now = options.now ?? (() => Date.now());
  const t0 = now();
  const { settings } = request;
  const warnings: string[] = [];
  const check = (): void => {
    if (options.signal?.aborted) throw new CheckAbortedError();
  };

  // Parts: placements, inverses and world bounds.
  const prepared: Prepared[] = request.parts.map((part) => {
    const m = new Float64Array(12);
    try {
      readRigidTransform(part.transform, m);
    } catch (e) {
      throw new RangeError(`part '${part.id}': ${(e as Error).message}`, { cause: e });
    }
    return { part, m, inv: invertRigid(m), bounds: worldBounds(part, m), closed: null, volume: null };
  });
  const index = new Map(prepared.map((p, i) => [p.part.id, i]));
  const triangles = request.parts.reduce((s, p) => s + p.mesh.triangleCount, 0);

  // Which pairs are asked for.
  const scope = request.scope ?? { kind: 'all' };
  const inScope = (i: number, j: number): boolean => {
    if (scope.kind === 'all') return true;
    const a = prepared[i].part.id, b = prepared[j].part.id;
    if (scope.kind === 'selection') return scope.ids.includes(a) !== scope.ids.includes(b) || (scope.ids.includes(a) && scope.ids.includes(b));
    return (scope.a.includes(a) && scope.b.includes(b)) || (scope.a.includes(b) && scope.b.includes(a));
  };

  // Ignore rules.
  const ignored = new Map<string, string | null>();
  for (const rule of request.ignore) ignored.set(pairKey(rule.a, rule.b), rule.reason ?? null);

  // Broad phase: bounds grown by half the reach on each side.
  const fixedTol = settings.touchToleranceMm;
  const maxTol = fixedTol ?? Math.max(DEFAULT_TOUCH_TOLERANCE_MM, ...prepared.map((p) => maxChordError(p.part)));
  warnings.push(...precisionWarnings(prepared.map((p) => ({ id: p.part.id, bounds: p.bounds })), Math.max(fixedTol ?? 0, DEFAULT_TOUCH_TOLERANCE_MM)));
  const reach = Math.max(maxTol, settings.clearanceMm);
  const boxes = new Float64Array(6 * prepared.length);
  prepared.forEach((p, i) => {
    for (let k = 0; k < 3; k++) {
      boxes[6 * i + k] = p.bounds[k] - reach / 2;
      boxes[6 * i + 3 + k] = p.bounds[3 + k] + reach / 2;
    }
  });
  options.onProgress?.({ phase: 'broadphase', done: 0, total: 1 });
  const tBroad = now();
  const candidates = sweepAndPrune(boxes);
  const work: [number, number][] = [];
  for (let k = 0; k < candidates.length; k += 2) {
    if (inScope(candidates[k], candidates[k + 1])) work.push([candidates[k], candidates[k + 1]]);
  }
  work.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const phase = { broadPhaseMs: now() - tBroad, collideMs: 0, classifyMs: 0 };

  // Volumes (manifold-3d), when available.
  let overlapEngine: OverlapEngine | null = null;
  if (options.manifold) {
    try {
      const wasm = await options.manifold();
      const all = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
      for (const p of prepared) for (let k = 0; k < 3; k++) { all[k] = Math.min(all[k], p.bounds[k]); all[3 + k] = Math.max(all[3 + k], p.bounds[3 + k]); }
      const origin: [number, number, number] = prepared.length ? [(all[0] + all[3]) / 2, (all[1] + all[4]) / 2, (all[2] + all[5]) / 2] : [0, 0, 0];
      overlapEngine = new OverlapEngine(wasm, origin);
    } catch (e) {
      warnings.push(`interference volumes are unavailable: ${(e as Error).message}`);
    }
  }

  const results: PairResult[] = [];
  // Solid enough for inside tests: closed, or nearly (a few open edges where a CAD tessellation
  // left a seam; the majority vote of pointInMesh tolerates them).
  const isClosed = (p: Prepared): boolean => {
    if (p.closed === null) {
      const e = edgeReport(p.part.mesh);
      p.closed = e.boundaryEdges + e.nonManifoldEdges + e.misorientedEdges <= Math.max(64, 0.02 * p.part.mesh.triangleCount);
    }
    return p.closed;
  };
  const bodyVolume = (p: Prepared): { volume: number; centroid: [number, number, number] } => {
    if (!p.volume) p.volume = volumeProps(p.part.mesh);
    return p.volume;
  };

  try {
    // Ignored pairs are listed whatever their geometry.
    for (const rule of request.ignore) {
      const i = index.get(rule.a), j = index.get(rule.b);
      if (i === undefined || j === undefined || i === j) continue;
      const [lo, hi] = i < j ? [i, j] : [j, i];
      if (!inScope(lo, hi)) continue;
      results.push(emptyResult(prepared[lo].part.id, prepared[hi].part.id, 'ignored', 'clear', fixedTol ?? DEFAULT_TOUCH_TOLERANCE_MM, rule.reason ?? null));
    }
    let done = 0;
    let lastYield = now();
    const yieldEvery = options.yieldEveryMs ?? 16;
    for (const [i, j] of work) {
      if (options.yieldToHost && now() - lastYield >= yieldEvery) {
        await options.yieldToHost();
        lastYield = now();
      }
      check();
      options.onProgress?.({ phase: 'pairs', done: done++, total: work.length });
      const A = prepared[i], B = prepared[j];
      if (ignored.has(pairKey(A.part.id, B.part.id))) continue;
      const t = now(), collideBefore = phase.collideMs;
      const result = await checkPair(A, B, settings.clearanceMm, fixedTol, overlapEngine, isClosed, bodyVolume, phase, now);
      phase.classifyMs += now() - t - (phase.collideMs - collideBefore);
      if (!result) continue;
      let kind: ResultKind = result.geometricKind === 'clear' ? 'contact' : result.geometricKind;
      if (kind === 'contact' && settings.contactIsInterference) kind = 'interference';
      results.push({ ...result, kind });
    }
    options.onProgress?.({ phase: 'pairs', done: work.length, total: work.length });
  } finally {
    overlapEngine?.dispose();
  }

  results.sort((x, y) => (index.get(x.a)! - index.get(y.a)!) || (index.get(x.b)! - index.get(y.b)!));
  const count = (k: ResultKind): number => results.filter((r) => r.kind === k).length;
  const tolerances = results.filter((r) => r.kind !== 'ignored').map((r) => r.toleranceMm);
  return {
    settings: {
      touchToleranceMm: fixedTol ?? (tolerances.length ? Math.max(...tolerances) : DEFAULT_TOUCH_TOLERANCE_MM),
      touchToleranceAuto: fixedTol === null,
      clearanceMm: settings.clearanceMm,
      contactIsInterference: settings.contactIsInterference,
    },
    summary: {
      parts: prepared.length,
      triangles,
      interferences: count('interference'),
      contacts: count('contact'),
      clearanceViolations: count('clearance'),
      ignored: count('ignored'),
      elapsedMs: Math.round(now() - t0),
    },
    results,
    candidatePairs: work.length,
    phaseMs: { broadPhase: phase.broadPhaseMs, collide: phase.collideMs, classify: phase.classifyMs },
    warnings,
  };
}

function emptyResult(a: string, b: string, kind: ResultKind, geometricKind: ResultKind | 'clear', toleranceMm: number, reason: string | null): PairResult {
  return {
    a, b, kind, geometricKind,
    trianglePairs: new Uint32Array(0),
    volumeMm3: null, centroidMm: null, contained: false, containedPart: null,
    distanceMm: null, closestPointsMm: null, depthMm: null, toleranceMm, reason,
  };
}

/** Geometry of one pair (kind still to be reported); null when clear. */
async function checkPair(
  A: Prepared, B: Prepared, clearanceMm: number, fixedTol: number | null,
  engine: OverlapEngine | null,
  isClosed: (p: Prepared) => boolean,
  bodyVolume: (p: Prepared) => { volume: number; centroid: [number, number, number] },
  phase: { collideMs: number },
  now: () => number,
): Promise<Omit<PairResult, 'kind'> | null> {
  const a = A.part, b = B.part;
  // B's placement in A's frame (for the metric queries); the exact triangle pairs are those of
  // the placed (world) triangles.
  const rel = toRows(compose(A.inv, B.m));
  const t0 = now();
  const hits = collidePlaced(a.tree, toRows(A.m), b.tree, toRows(B.m), 'all');
  phase.collideMs += now() - t0;
  const pairs = sortPairs(hits.pairs);
  let tol = fixedTol ?? (hits.pairCount > 0 ? pairTolerance(a, b, pairs) : pairToleranceBound(a, b));
  const threshold = Math.max(1e-3, 1e-9 * Math.min(boundsVolume(A.bounds), boundsVolume(B.bounds)));

  if (hits.pairCount > 0) {
    const depth = crossingDepth(A.part, B.part, rel, pairs, tol, isClosed(A) && isClosed(B));
    let volume: number | null = null;
    let centroid: [number, number, number] | null = null;
    let interferes = depth > tol;
    if (interferes && engine) {
      // The overlap solid gives the volume; a crossing that encloses no volume (surfaces that
      // cross along a seam) is contact.
      const sa = engine.solid(a.id, a.mesh, toRows(A.m));
      const sb = engine.solid(b.id, b.mesh, toRows(B.m));
      const overlap = engine.overlap(sa, sb);
      if (overlap) {
        volume = overlap.volume;
        centroid = overlap.centroid;
        interferes = volume > threshold;
      }
    }
    return {
      a: a.id, b: b.id,
      geometricKind: interferes ? 'interference' : 'contact',
      trianglePairs: pairs,
      volumeMm3: interferes ? volume : null,
      centroidMm: interferes ? centroid : null,
      contained: false, containedPart: null,
      distanceMm: 0, closestPointsMm: null,
      depthMm: interferes ? depth : null,
      toleranceMm: tol,
      reason: null,
    };
  }

  // No surfaces cross: containment?
  const inner = containment(A, B, isClosed);
  if (inner) {
    const v = bodyVolume(inner);
    return {
      a: a.id, b: b.id,
      geometricKind: 'interference',
      trianglePairs: pairs,
      volumeMm3: Math.abs(v.volume),
      centroidMm: applyPoint(inner.m, v.centroid[0], v.centroid[1], v.centroid[2]),
      contained: true, containedPart: inner.part.id,
      distanceMm: null, closestPointsMm: null,
      depthMm: null,
      toleranceMm: tol,
      reason: null,
    };
  }

  // Distance within reach? (An automatic tolerance is then taken at the closest triangles.)
  const reach = Math.max(tol, clearanceMm);
  const d = minDistance(a.tree, b.tree, rel, reach);
  if (!d) return null;
  if (fixedTol === null) tol = pairTolerance(a, b, [d.triangleA, d.triangleB]);
  const pa = applyPoint(A.m, d.pointA[0], d.pointA[1], d.pointA[2]);
  const pb = applyPoint(A.m, d.pointB[0], d.pointB[1], d.pointB[2]);
  let kind: ResultKind | 'clear';
  if (d.distance <= tol) kind = 'contact';
  else if (clearanceMm > 0 && d.distance < clearanceMm) kind = 'clearance';
  else return null;
  return {
    a: a.id, b: b.id,
    geometricKind: kind,
    trianglePairs: pairs,
    volumeMm3: null, centroidMm: null,
    contained: false, containedPart: null,
    distanceMm: d.distance,
    closestPointsMm: [pa, pb],
    depthMm: null,
    toleranceMm: tol,
    reason: null,
  };
}

/** Pairs sorted by (triangle of a, triangle of b). */
function sortPairs(p: Uint32Array): Uint32Array {
  const n = p.length / 2;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((x, y) => p[2 * x] - p[2 * y] || p[2 * x + 1] - p[2 * y + 1]);
  const out = new Uint32Array(p.length);
  for (let i = 0; i < n; i++) { out[2 * i] = p[2 * order[i]]; out[2 * i + 1] = p[2 * order[i] + 1]; }
  return out;
}

/** When no triangles cross: is one closed part wholly inside the other? Returns the inner part. */
function containment(A: Prepared, B: Prepared, isClosed: (p: Prepared) => boolean): Prepared | null {
  const inside = (inner: Prepared, outer: Prepared): boolean => {
    if (!isClosed(outer)) return false;
    // Any vertex of the inner part decides, since no surfaces cross.
    const P = inner.part.mesh.positions;
    const w = applyPoint(inner.m, P[0], P[1], P[2]);
    const p = applyPoint(outer.inv, w[0], w[1], w[2]);
    return pointInMesh(outer.part.tree, p[0], p[1], p[2]);
  };
  if (inside(A, B)) return A;
  if (inside(B, A)) return B;
  return null;
}

export type { TriangleMesh };
