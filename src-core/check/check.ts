/**
 * The whole-assembly check: broad phase → exact triangle pairs per candidate pair → classification
 * into interference, contact, clearance violation or clear (docs/formats.md, docs/check.md).
 *
 * Per candidate pair (world bounds within reach of the tolerance or clearance, and of the parts'
 * chordal error):
 *  - Intersecting triangle pairs (exact, collide.ts): the penetration depth — how far the
 *    surfaces reach into each other (depth.ts: the deepest vertex of a crossing triangle inside
 *    the other mesh, and walks from the crossings into the other solid for thin through-going
 *    overlaps) — decides.
 *      CAD bodies (./resolution.ts): the depth ± the pair's resolution (the chordal error where
 *      the parts meet) gives the range of the exact solids' separation; an overlap of the solids is
 *      an interference at any depth beyond the line-to-line band, and a range that spans two kinds
 *      is 'undecided' at this tessellation (./refine.ts re-tessellates such pairs finer).
 *      Meshes that are the geometry (STL): deeper than the touch tolerance is interference, else
 *      contact (surfaces that only touch, or cross by less than the tolerance).
 *    For an interference between two closed solids (manifold-3d accepts both), the overlap solid
 *    A ∩ B gives the volume and its centroid, and an overlap below max(1e-3 mm³, 1e-9 × the smaller
 *    part's bounding-box volume) is contact after all; for open meshes the volume is unknown (null).
 *  - No intersecting triangle: one closed part wholly inside the other is an interference
 *    (`contained`, volume = the inner part's volume); else the minimum distance (± the resolution
 *    for CAD bodies) decides: within the touch tolerance → contact, below `clearanceMm` → clearance
 *    violation, else clear.
 * Ignore rules are applied first (the pair is reported as ignored, not computed), and
 * `contactIsInterference` last.
 *
 * Coincident copies — parts with the same triangles (one mesh, or equal positions, indices and
 * chordal errors) at a bit-identical placement — are one group: every pair inside the group has
 * the same geometry, so the group is one finding (the exact result of its first pair, with
 * `coincident` listing every part of the group, and a warning naming the group), not n(n−1)/2
 * pairs. The group's first part stands for it in the broad phase; a pair it forms with another
 * part is computed once and reported for every copy (one result per pair of parts, as ever).
 *
 * Candidate pairs are bounded: more than `maxCandidatePairs` (default 1,000,000) after the broad
 * phase, pairs with coincident copies counted per part, throw CheckLimitError naming the count
 * and the limit, before any pair is computed.
 */
import type { TriangleMesh } from '../geometry/mesh.js';
import { edgeReport, volumeProps } from '../geometry/meshProps.js';
import { obbAxes } from '../obbtree/layout.js';
import { collidePlaced } from '../collide/collide.js';
import { minDistance, pointInMesh } from '../collide/proximity.js';
import { applyPoint, compose, invert, parseRigid, type Rigid } from '../geometry/rigid.js';
import { PairLimitError, sweepAndPrune } from '../broadphase/sweepAndPrune.js';
import { groupDigits } from '../io/types.js';
import type { ManifoldToplevel } from 'manifold-3d';
import { OverlapEngine, overlapFigures, type ManifoldProvider, type OverlapFigures, type OverlapVolumes, type SolidCache } from './volume.js';
import { crossingDepth } from './depth.js';
import { precisionWarnings } from './precision.js';
import { coincidentTessellations } from './coincident.js';
import { DEFAULT_TOUCH_TOLERANCE_MM, hasChordError, maxChordError, pairBounds, pairResolutionBound } from './tolerance.js';
import { decide, type Decision, type KindBounds } from './resolution.js';
import { surfaceBounds, type SeparationBounds } from './analytic.js';
import type { CheckPart, CheckProgress, CheckRequest, CheckResult, GeometryKind, PairResult, ResultKind } from './types.js';

export interface CheckOptions {
  /** manifold-3d for volumes of closed parts; without it volumes are null and depths probed. */
  readonly manifold?: ManifoldProvider | null;
  /**
   * The bodies' solids to reuse (./volume.ts SolidCache, kept with an open document for its later
   * checks), given the manifold-3d instance; without it each check converts the bodies it needs.
   */
  readonly solids?: (wasm: ManifoldToplevel) => SolidCache;
  /**
   * Overlap volumes computed in another thread (./volume.ts OverlapVolumes), given the assembly's
   * origin for manifold-3d's float32 positions: started at the first volume a check needs, and
   * disposed of with the check. The pairs' tests go on while its booleans run. When it fails, the
   * volume is computed here (with `manifold`).
   */
  readonly volumes?: (origin: [number, number, number]) => OverlapVolumes;
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
  /** Most candidate pairs computed (default DEFAULT_MAX_CANDIDATE_PAIRS); more throw CheckLimitError. */
  readonly maxCandidatePairs?: number;
}

/**
 * Most part pairs one check computes after the broad phase. Beyond it, memory and time grow
 * without bound (12,000 parts stacked on one another are 72 million pairs).
 */
export const DEFAULT_MAX_CANDIDATE_PAIRS = 1_000_000;

/** The broad phase left more candidate pairs than the limit: the count and the limit. */
export class CheckLimitError extends RangeError {
  override readonly name = 'CheckLimitError';
  constructor(
    /** Candidate pairs found; a lower bound when `exact` is false. */
    readonly pairs: number,
    readonly limit: number,
    readonly exact: boolean,
  ) {
    super(
      `the broad phase found ${exact ? '' : 'more than '}${groupDigits(pairs)} candidate pairs of parts whose bounds overlap, ` +
      `more than the limit of ${groupDigits(limit)} pairs one check computes; nothing was checked. ` +
      'Check a selection of the parts, or look for parts stacked on one another',
    );
  }
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
  readonly m: Rigid;
  /** World → body. */
  readonly inv: Rigid;
  /** World bounds: min xyz, max xyz (from the root box's corners). */
  readonly bounds: Float64Array;
  closed: boolean | null;
  volume: { volume: number; centroid: [number, number, number] } | null;
}

function worldBounds(part: CheckPart, m: Float64Array): Float64Array {
  const B = part.tree.boxes;
  const axes = new Float64Array(9);
  obbAxes(B, 0, axes);
  const out = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
  for (let corner = 0; corner < 8; corner++) {
    let x = B[0], y = B[1], z = B[2];
    for (let k = 0; k < 3; k++) {
      const s = (corner >> k) & 1 ? 1 : -1;
      const h = B[3 + k] * s;
      x += h * axes[3 * k];
      y += h * axes[3 * k + 1];
      z += h * axes[3 * k + 2];
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
    let m: Rigid;
    try {
      m = parseRigid(part.transform);
    } catch (e) {
      throw new RangeError(`part '${part.id}': ${(e as Error).message}`, { cause: e });
    }
    return { part, m, inv: invert(m), bounds: worldBounds(part, m), closed: null, volume: null };
  });
  const index = new Map(prepared.map((p, i) => [p.part.id, i]));
  const triangles = request.parts.reduce((s, p) => s + p.mesh.triangleCount, 0);
  const limit = options.maxCandidatePairs ?? DEFAULT_MAX_CANDIDATE_PAIRS;

  // Which pairs are asked for.
  const scope = request.scope ?? { kind: 'all' };
  const wanted = scope.kind === 'pairs' ? new Set(scope.pairs.map(([a, b]) => pairKey(a, b))) : null;
  const setA = new Set(scope.kind === 'selection' ? scope.ids : scope.kind === 'sets' ? scope.a : []);
  const setB = new Set(scope.kind === 'sets' ? scope.b : []);
  const inScope = (i: number, j: number): boolean => {
    if (scope.kind === 'all') return true;
    const a = prepared[i].part.id, b = prepared[j].part.id;
    if (scope.kind === 'selection') return setA.has(a) || setA.has(b);
    if (scope.kind === 'pairs') return wanted!.has(pairKey(a, b));
    return (setA.has(a) && setB.has(b)) || (setA.has(b) && setB.has(a));
  };

  // Coincident copies (see the file comment): groups in part order, each led by its first part.
  const groups = coincidentGroups(prepared);
  const reps: number[] = [];
  for (let i = 0; i < prepared.length; i++) if (groups.leader[i] === i) reps.push(i);
  const membersOf = (r: number): readonly number[] => groups.members.get(r) ?? [r];

  // Ignore rules.
  const ignored = new Map<string, string | null>();
  for (const rule of request.ignore) ignored.set(pairKey(rule.a, rule.b), rule.reason ?? null);

  // Broad phase over the groups' leaders: bounds grown by half the reach on each side.
  const tol = settings.touchToleranceMm ?? DEFAULT_TOUCH_TOLERANCE_MM;
  const bounds: KindBounds = { touchToleranceMm: tol, clearanceMm: settings.clearanceMm };
  // A CAD pair's exact gap may exceed its meshes' by both chordal errors (a loop, not
  // Math.max(...parts): that overflows the stack for 130,000 parts).
  let maxChord = 0;
  const chordMax = new Map<Float32Array, number>();
  for (const r of reps) {
    const c = prepared[r].part.chordErrorMm;
    if (c === null) continue;
    let m = chordMax.get(c);
    if (m === undefined) chordMax.set(c, (m = maxChordError(prepared[r].part)));
    if (m > maxChord) maxChord = m;
  }
  const reach = Math.max(tol, settings.clearanceMm) + 2 * maxChord;
  warnings.push(...precisionWarnings(prepared.map((p) => ({ id: p.part.id, bounds: p.bounds })), Math.max(tol, DEFAULT_TOUCH_TOLERANCE_MM)));
  const boxes = new Float64Array(6 * reps.length);
  reps.forEach((r, i) => {
    const p = prepared[r];
    for (let k = 0; k < 3; k++) {
      boxes[6 * i + k] = p.bounds[k] - reach / 2;
      boxes[6 * i + 3 + k] = p.bounds[3 + k] + reach / 2;
    }
  });
  options.onProgress?.({ phase: 'broadphase', done: 0, total: 1 });
  const tBroad = now();
  // Leader pairs with some pair of their parts in scope.
  let accept: ((i: number, j: number) => boolean) | undefined;
  if (scope.kind !== 'all') {
    const anyA = new Uint8Array(reps.length), anyB = new Uint8Array(reps.length);
    reps.forEach((r, k) => {
      for (const x of membersOf(r)) {
        if (setA.has(prepared[x].part.id)) anyA[k] = 1;
        if (setB.has(prepared[x].part.id)) anyB[k] = 1;
      }
    });
    accept = scope.kind === 'pairs' ? undefined
      : scope.kind === 'selection' ? (i, j) => anyA[i] === 1 || anyA[j] === 1 : (i, j) => (anyA[i] & anyB[j]) === 1 || (anyB[i] & anyA[j]) === 1;
  }
  let candidates: Uint32Array;
  try {
    candidates = sweepAndPrune(boxes, limit, accept);
  } catch (e) {
    if (e instanceof PairLimitError) throw new CheckLimitError(e.pairs, limit, e.exact);
    throw e;
  }
  // Pairs of parts each candidate pair of leaders stands for, in scope (ignored ones included:
  // they are listed, not computed).
  const work: [number, number][] = [];
  let pairTotal = 0;
  for (let k = 0; k < candidates.length; k += 2) {
    const i = reps[candidates[k]], j = reps[candidates[k + 1]];
    let n = 0;
    if (scope.kind === 'all') n = membersOf(i).length * membersOf(j).length;
    else for (const x of membersOf(i)) for (const y of membersOf(j)) if (inScope(x, y) && ++n + pairTotal > limit) break;
    if (n === 0) continue;
    pairTotal += n;
    if (pairTotal > limit && scope.kind !== 'all') throw new CheckLimitError(pairTotal, limit, false);
    work.push([i, j]);
  }
  // One finding per coincident group: its first pair in scope and not ignored.
  const groupPairs: [number, number][] = [];
  for (const members of groups.members.values()) {
    // (a 'pairs' scope names its pairs one by one: a coincident group counts as its pairs there)
    const pair = scope.kind === 'pairs'
      ? firstPairOf(members, 'all', () => false, () => false, (x, y) => !inScope(x, y) || ignored.has(pairKey(prepared[x].part.id, prepared[y].part.id)))
      : firstPairOf(members, scope.kind, (x) => setA.has(prepared[x].part.id), (x) => setB.has(prepared[x].part.id),
        (x, y) => ignored.has(pairKey(prepared[x].part.id, prepared[y].part.id)));
    if (pair) groupPairs.push(pair);
  }
  pairTotal += groupPairs.length;
  if (pairTotal > limit) throw new CheckLimitError(pairTotal, limit, true);
  work.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const phase = { broadPhaseMs: now() - tBroad, collideMs: 0, classifyMs: 0 };

  // Volumes (manifold-3d), when available: its module starts loading now, alongside the pair
  // tests, and is waited for only by the first interference that needs a volume (a check without
  // one never waits for it).
  const made: { engine: OverlapEngine | null; volumes: OverlapVolumes | null } = { engine: null, volumes: null };
  const manifold = options.manifold;
  // With a volume service, manifold-3d is loaded here only when the service fails.
  let loadingStarted: Promise<{ wasm: ManifoldToplevel } | { error: unknown }> | null = null;
  const startLoading = (): typeof loadingStarted =>
    (loadingStarted ??= manifold ? manifold().then((wasm) => ({ wasm }), (error: unknown) => ({ error })) : null);
  if (!options.volumes) startLoading();
  // manifold-3d's positions are float32: taken relative to the centre of all parts' bounds.
  const origin = (): [number, number, number] => {
    const all = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
    for (const p of prepared) for (let k = 0; k < 3; k++) { all[k] = Math.min(all[k], p.bounds[k]); all[3 + k] = Math.max(all[3 + k], p.bounds[3 + k]); }
    return prepared.length ? [(all[0] + all[3]) / 2, (all[1] + all[4]) / 2, (all[2] + all[5]) / 2] : [0, 0, 0];
  };
  let engineReady: Promise<OverlapEngine | null> | null = null;
  const engine = (): Promise<OverlapEngine | null> => {
    engineReady ??= (async () => {
      const loading = startLoading();
      if (loading === null) return null;
      const loaded = await loading;
      if ('error' in loaded) {
        warnings.push(`interference volumes are unavailable: ${(loaded.error as Error).message}`);
        return null;
      }
      try {
        made.engine = new OverlapEngine(loaded.wasm, origin(), options.solids?.(loaded.wasm));
      } catch (e) {
        warnings.push(`interference volumes are unavailable: ${(e as Error).message}`);
      }
      return made.engine;
    })();
    return engineReady;
  };
  // Volumes computed in this thread: their time (classification), and whether the check is over
  // (a pair still waiting when it was cancelled computes nothing).
  const volumeHereMs = { ms: 0 };
  let finished = false;
  const inHere = async (a: Prepared, b: Prepared): Promise<OverlapFigures | null> => {
    const e = await engine();
    if (!e || finished) return null;
    const t = now();
    const figures = overlapFigures(e, { key: a.part.id, mesh: a.part.mesh, transform: a.m }, { key: b.part.id, mesh: b.part.mesh, transform: b.m });
    const ms = now() - t;
    volumeHereMs.ms += ms;
    phase.classifyMs += ms;
    return figures;
  };
  let volumesFailed = false;
  const overlapOf = async (a: Prepared, b: Prepared): Promise<OverlapFigures | null> => {
    if (options.volumes && !volumesFailed) {
      try {
        made.volumes ??= options.volumes(origin());
        return await made.volumes.overlap({ key: a.part.id, mesh: a.part.mesh, transform: a.m }, { key: b.part.id, mesh: b.part.mesh, transform: b.m });
      } catch {
        // The same figures, computed here.
        volumesFailed = true;
      }
    }
    return inHere(a, b);
  };

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
      results.push(emptyResult(prepared[lo].part.id, prepared[hi].part.id, 'ignored', 'clear', tol, rule.reason ?? null));
    }
    let done = 0;
    let lastYield = now();
    const yieldEvery = options.yieldEveryMs ?? 16;
    const total = work.length + groupPairs.length;
    const reportedKind = (r: Omit<PairResult, 'kind'>): ResultKind => {
      const kind: ResultKind = r.geometricKind === 'clear' ? 'contact' : r.geometricKind;
      return kind === 'contact' && settings.contactIsInterference ? 'interference' : kind;
    };
    const pace = async (): Promise<void> => {
      if (options.yieldToHost && now() - lastYield >= yieldEvery) {
        await options.yieldToHost();
        lastYield = now();
      }
      check();
      options.onProgress?.({ phase: 'pairs', done: done++, total });
    };
    // A pair's tests run at once, up to its volume when it needs one; the volume may be computed
    // in another thread (options.volumes) while the next pairs are tested, so the pairs are
    // awaited together at the end, and each result is added when it is complete.
    const pending: Promise<void>[] = [];
    let failed: { error: unknown } | null = null;
    const computePair = (A: Prepared, B: Prepared, then: (r: Omit<PairResult, 'kind'> | null) => void): void => {
      const t = now(), collideBefore = phase.collideMs;
      const result = checkPair(A, B, bounds, overlapOf, isClosed, bodyVolume, phase, now);
      phase.classifyMs += now() - t - (phase.collideMs - collideBefore);
      pending.push(result.then(then, (error: unknown) => { failed ??= { error }; }));
    };
    for (const [i, j] of work) {
      await pace();
      // The pairs of parts this pair of leaders stands for (just itself without coincident copies).
      const pairs: number[] = [];
      for (const x of membersOf(i)) {
        for (const y of membersOf(j)) {
          if ((scope.kind === 'all' || inScope(x, y)) && !ignored.has(pairKey(prepared[x].part.id, prepared[y].part.id))) pairs.push(x, y);
        }
      }
      if (pairs.length === 0) continue;
      computePair(prepared[i], prepared[j], (result) => {
        if (!result) return;
        const kind = reportedKind(result);
        for (let k = 0; k < pairs.length; k += 2) results.push(asPair(result, kind, prepared[i].part.id, prepared[j].part.id, prepared[pairs[k]].part.id, prepared[pairs[k + 1]].part.id, pairs[k] > pairs[k + 1]));
      });
    }
    for (const [x, y] of groupPairs) {
      await pace();
      const members = membersOf(groups.leader[x]);
      const ids = members.map((m) => prepared[m].part.id);
      const named = ids.length <= 4 ? ids.join(', ') : `${ids.slice(0, 3).join(', ')}, … ${ids[ids.length - 1]}`;
      warnings.push(
        `${groupDigits(ids.length)} parts are coincident copies — the same triangles at the same placement (${named}): ` +
        `reported as one finding for the pair ${prepared[x].part.id}/${prepared[y].part.id}, ` +
        `which stands for all ${groupDigits(ids.length * (ids.length - 1) / 2)} pairs among them`,
      );
      computePair(prepared[x], prepared[y], (result) => {
        if (result) results.push({ ...result, kind: reportedKind(result), coincident: ids });
      });
    }
    // The volumes still to come: time waited for another thread counts as classification (the
    // volumes computed here count themselves).
    const tWait = now(), hereBefore = volumeHereMs.ms;
    await Promise.all(pending);
    phase.classifyMs += Math.max(0, now() - tWait - (volumeHereMs.ms - hereBefore));
    if (failed) throw (failed as { error: unknown }).error;
    options.onProgress?.({ phase: 'pairs', done: total, total });
  } finally {
    finished = true;
    made.volumes?.dispose();
    made.engine?.dispose();
  }

  results.sort((x, y) => (index.get(x.a)! - index.get(y.a)!) || (index.get(x.b)! - index.get(y.b)!));
  return {
    settings: {
      touchToleranceMm: tol,
      touchToleranceAuto: settings.touchToleranceMm === null,
      clearanceMm: settings.clearanceMm,
      contactIsInterference: settings.contactIsInterference,
    },
    summary: summarize(results, prepared.length, triangles, Math.round(now() - t0)),
    results,
    candidatePairs: pairTotal,
    phaseMs: { broadPhase: phase.broadPhaseMs, collide: phase.collideMs, classify: phase.classifyMs },
    warnings,
  };
}

/** The summary counts of a list of results. */
export function summarize(results: readonly PairResult[], parts: number, triangles: number, elapsedMs: number): CheckResult['summary'] {
  let interferences = 0, contacts = 0, clearanceViolations = 0, ignored = 0, undecided = 0, refinedPairs = 0;
  let finest: number | null = null;
  for (const r of results) {
    if (r.kind === 'interference') interferences++;
    else if (r.kind === 'contact') contacts++;
    else if (r.kind === 'clearance') clearanceViolations++;
    else if (r.kind === 'ignored') ignored++;
    else undecided++;
    if (r.refinedDeflectionMm !== null) {
      refinedPairs++;
      finest = finest === null ? r.refinedDeflectionMm : Math.min(finest, r.refinedDeflectionMm);
    }
  }
  return { parts, triangles, interferences, contacts, clearanceViolations, ignored, undecided, refinedPairs, finestDeflectionMm: finest, elapsedMs };
}

/**
 * The result computed for leaders (repA, repB) as the result of parts a (a copy of repA) and b
 * (a copy of repB); `swapped` when b comes first in part order, so that the result names it as
 * `a`: the triangle pairs (sorted again) and closest points are swapped with it. The leaders' own result is returned as it is.
 */
function asPair(r: Omit<PairResult, 'kind'>, kind: ResultKind, repA: string, repB: string, a: string, b: string, swapped: boolean): PairResult {
  if (a === repA && b === repB) return { ...r, kind };
  const contained = r.containedPart === null ? null : r.containedPart === repA ? a : b;
  if (!swapped) return { ...r, kind, a, b, containedPart: contained };
  const t = r.trianglePairs, flipped = new Uint32Array(t.length);
  for (let k = 0; k < t.length; k += 2) {
    flipped[k] = t[k + 1];
    flipped[k + 1] = t[k];
  }
  return {
    ...r, kind, a: b, b: a, trianglePairs: sortPairs(flipped), containedPart: contained,
    closestPointsMm: r.closestPointsMm === null ? null : [r.closestPointsMm[1], r.closestPointsMm[0]],
  };
}

function emptyResult(a: string, b: string, kind: ResultKind, geometricKind: ResultKind | 'clear', toleranceMm: number, reason: string | null): PairResult {
  return {
    a, b, kind, geometricKind,
    trianglePairs: new Uint32Array(0),
    volumeMm3: null, centroidMm: null, contained: false, containedPart: null,
    distanceMm: null, closestPointsMm: null, depthMm: null, toleranceMm, reason,
    resolutionMm: null, refinedDeflectionMm: null, separationRangeMm: null, possibleKinds: null,
  };
}

/** The finer of two deflections (null: the file's own tessellation). */
function finerOf(x: number | null | undefined, y: number | null | undefined): number | null {
  if (x === null || x === undefined) return y ?? null;
  if (y === null || y === undefined) return x;
  return Math.min(x, y);
}

/** The reported kind of a decision: its one kind, or 'undecided'. */
function kindOf(possible: readonly GeometryKind[]): ResultKind | 'clear' {
  return possible.length === 1 ? possible[0] : 'undecided';
}

/** Geometry of one pair (kind still to be reported); null when clear. */
async function checkPair(
  A: Prepared, B: Prepared, bounds: KindBounds,
  overlap: (a: Prepared, b: Prepared) => Promise<OverlapFigures | null>,
  isClosed: (p: Prepared) => boolean,
  bodyVolume: (p: Prepared) => { volume: number; centroid: [number, number, number] },
  phase: { collideMs: number },
  now: () => number,
): Promise<Omit<PairResult, 'kind'> | null> {
  const a = A.part, b = B.part;
  const tol = bounds.touchToleranceMm, clearanceMm = bounds.clearanceMm;
  const cad = hasChordError(a) || hasChordError(b);
  // B's placement in A's frame (for the metric queries); the exact triangle pairs are those of
  // the placed (world) triangles.
  const rel = compose(A.inv, B.m);
  const t0 = now();
  const hits = collidePlaced(a.tree, A.m, b.tree, B.m, 'all');
  phase.collideMs += now() - t0;
  const pairs = sortPairs(hits.pairs);
  const threshold = Math.max(1e-3, 1e-9 * Math.min(boundsVolume(A.bounds), boundsVolume(B.bounds)));
  const none = {
    a: a.id, b: b.id, trianglePairs: pairs,
    volumeMm3: null, centroidMm: null, contained: false, containedPart: null,
    distanceMm: null, closestPointsMm: null, depthMm: null, toleranceMm: tol, reason: null,
    resolutionMm: null, refinedDeflectionMm: finerOf(a.deflectionMm, b.deflectionMm), separationRangeMm: null, possibleKinds: null,
  } as const;
  const overlapOf = (): Promise<OverlapFigures | null> => overlap(A, B);

  if (hits.pairCount > 0) {
    const closed = isClosed(A) && isClosed(B);
    if (cad) {
      // CAD: the depth ± the resolution where the parts meet.
      const depth = crossingDepth(a, b, rel, pairs, 0, closed);
      // The exact separation lies in [lo, hi]: the solids may reach `grow` deeper than the meshes
      // show, and they touch or cross at every pair, so they are at most the least fall-back
      // there apart (and at most the deepest point's). Tessellations that coincide where they
      // touch follow one exact surface there.
      let lo: number, hi: number;
      if (!(depth === 0 && coincidentTessellations(a, b, rel, pairs))) {
        const pb = pairBounds(a, b, pairs)!;
        lo = -depth - pb.grow;
        hi = Math.min(pb.shrinkMin, -depth + pb.shrinkMax);
      } else {
        lo = hi = -depth;
      }
      let d = decide(-depth, lo, hi, bounds);
      let kind = kindOf(d.possible);
      let s = -depth;
      if (kind === 'undecided') {
        // The faces' exact surfaces may decide what their chords cannot (./analytic.ts); an
        // interference so decided is still refined, for a volume from finer triangles, and a pair
        // they leave undecided keeps the triangles' bounds, which steer the refinement.
        const by = decideBySurfaces(-depth, lo, surfaceBounds(a, b, rel, pairs), bounds);
        if (by) ({ lo, hi, s, d, kind } = by);
      }
      const resolution = Math.max(s - lo, hi - s);
      let volume: number | null = null, centroid: [number, number, number] | null = null;
      if (kind === 'interference') {
        const overlap = await overlapOf();
        if (overlap) {
          volume = overlap.volume;
          centroid = overlap.centroid;
          // A crossing that encloses no volume (surfaces crossing along a seam) is contact.
          if (!(volume > threshold)) kind = 'contact';
        } else if (-hi <= tol) {
          // No volume to weigh it (a part is not a closed solid): a crossing certain only to a
          // depth within the touch tolerance may enclose less than the volume that makes an
          // interference, and the faces' chordal errors are estimates. Said so, not guessed.
          kind = 'undecided';
          d = { ...d, possible: ['interference', 'contact'] };
        }
      }
      return {
        ...none,
        geometricKind: kind,
        volumeMm3: kind === 'interference' ? volume : null,
        centroidMm: kind === 'interference' ? centroid : null,
        distanceMm: 0,
        depthMm: Math.max(0, -s),
        resolutionMm: resolution,
        separationRangeMm: [lo, hi],
        possibleKinds: kind === 'undecided' ? d.possible : null,
      };
    }
    // Meshes that are the geometry: deeper than the tolerance is interference.
    const depth = crossingDepth(a, b, rel, pairs, tol, closed);
    let interferes = depth > tol;
    let volume: number | null = null, centroid: [number, number, number] | null = null;
    if (interferes) {
      const overlap = await overlapOf();
      if (overlap) {
        volume = overlap.volume;
        centroid = overlap.centroid;
        interferes = volume > threshold;
      }
    }
    return {
      ...none,
      geometricKind: interferes ? 'interference' : 'contact',
      volumeMm3: interferes ? volume : null,
      centroidMm: interferes ? centroid : null,
      distanceMm: 0,
      depthMm: interferes ? depth : null,
    };
  }

  // No surfaces cross: containment?
  const inner = containment(A, B, isClosed);
  if (inner) {
    const v = bodyVolume(inner);
    return {
      ...none,
      geometricKind: 'interference',
      volumeMm3: Math.abs(v.volume),
      centroidMm: applyPoint(inner.m, v.centroid[0], v.centroid[1], v.centroid[2]),
      contained: true, containedPart: inner.part.id,
      // A CAD solid inside another overlaps it by its whole volume: an interference however
      // close the surfaces, decided to the chordal errors of the two bodies.
      resolutionMm: cad ? pairResolutionBound(a, b) : null,
    };
  }

  // Distance within reach (for CAD bodies, of the gap their chords may hide)?
  const reach = Math.max(tol, clearanceMm) + (cad ? pairResolutionBound(a, b) : 0);
  const dist = minDistance(a.tree, b.tree, rel, reach);
  if (!dist) return null;
  const pa = applyPoint(A.m, dist.pointA[0], dist.pointA[1], dist.pointA[2]);
  const pb = applyPoint(A.m, dist.pointB[0], dist.pointB[1], dist.pointB[2]);
  const measured = { ...none, distanceMm: dist.distance, closestPointsMm: [pa, pb] as const };
  if (cad) {
    const pb = pairBounds(a, b, [dist.triangleA, dist.triangleB])!;
    let lo = dist.distance - pb.grow, hi = dist.distance + pb.shrinkMax;
    let resolution = Math.max(pb.grow, pb.shrinkMax);
    let d = decide(dist.distance, lo, hi, bounds);
    let kind = kindOf(d.possible);
    if (kind === 'undecided') {
      const by = decideBySurfaces(dist.distance, lo, surfaceBounds(a, b, rel, [dist.triangleA, dist.triangleB]), bounds);
      if (by) {
        ({ lo, hi, d, kind } = by);
        resolution = Math.max(by.s - lo, hi - by.s);
      }
    }
    if (kind === 'clear') return null;
    return {
      ...measured,
      geometricKind: kind,
      resolutionMm: resolution,
      separationRangeMm: [lo, hi],
      possibleKinds: kind === 'undecided' ? d.possible : null,
    };
  }
  let kind: ResultKind | 'clear';
  if (dist.distance <= tol) kind = 'contact';
  else if (clearanceMm > 0 && dist.distance < clearanceMm) kind = 'clearance';
  else return null;
  return { ...measured, geometricKind: kind };
}

/**
 * What the surfaces' bounds (./analytic.ts) decide of a pair measured at `measured` with chordal
 * lower bound `lo`: the larger of the two lower bounds, and the surfaces' upper bound alone — the
 * chordal upper bound trusts a planar triangle as exact, but where a curved edge trims its face (a
 * plate's face around a bore) its chord reaches into the bore. Null unless that decides a contact,
 * a clearance or clear (an interference is refined, for its volume), or when the surfaces add
 * nothing or contradict the triangles (then they are not used).
 */
function decideBySurfaces(measured: number, lo: number, sb: SeparationBounds | null, bounds: KindBounds):
  { lo: number; hi: number; s: number; d: Decision; kind: ResultKind | 'clear' } | null {
  if (!sb || !Number.isFinite(sb.hi)) return null;
  const l = Math.max(lo, sb.lo), h = sb.hi;
  if (l > h) return null;
  const s = Math.min(h, Math.max(l, measured));
  const d = decide(s, l, h, bounds);
  const kind = kindOf(d.possible);
  return kind === 'interference' || kind === 'undecided' ? null : { lo: l, hi: h, s, d, kind };
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

// ---- Coincident copies -------------------------------------------------------------------------

/** 32-bit words of a typed array's bytes (an array of 4- or 8-byte elements). */
function words(a: Float64Array | Uint32Array | Float32Array): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.byteLength / 4);
}

function fnv(h: number, w: Uint32Array): number {
  for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w[i], 16777619);
  return h >>> 0;
}

function sameWords(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Ids of what a part's geometry is: equal for parts with bit-identical positions, indices and chordal errors. */
class MeshClasses {
  private readonly byObject = new Map<TriangleMesh, Map<Float32Array | null, number>>();
  private readonly byHash = new Map<number, { readonly part: CheckPart; readonly id: number }[]>();
  private next = 0;

  of(part: CheckPart): number {
    let inner = this.byObject.get(part.mesh);
    if (!inner) this.byObject.set(part.mesh, (inner = new Map()));
    const known = inner.get(part.chordErrorMm);
    if (known !== undefined) return known;
    const { positions, indices } = part.mesh, chord = part.chordErrorMm;
    let h = fnv(fnv(2166136261, words(positions)), words(indices));
    if (chord) h = fnv(h, words(chord));
    let bucket = this.byHash.get(h);
    if (!bucket) this.byHash.set(h, (bucket = []));
    let id = bucket.find(({ part: o }) =>
      sameWords(words(o.mesh.positions), words(positions)) && sameWords(o.mesh.indices, indices) &&
      (o.chordErrorMm === null ? chord === null : chord !== null && sameWords(words(o.chordErrorMm), words(chord))))?.id;
    if (id === undefined) {
      id = this.next++;
      bucket.push({ part, id });
    }
    inner.set(chord, id);
    return id;
  }
}

/**
 * Groups of coincident copies (see the file comment): for each part the index of its group's
 * first part, and the members (in part order) of every group of two or more.
 */
function coincidentGroups(prepared: readonly Prepared[]): { leader: Int32Array; members: Map<number, number[]> } {
  const classes = new MeshClasses();
  const firstOf = new Map<string, number>();
  const leader = new Int32Array(prepared.length);
  const members = new Map<number, number[]>();
  for (let i = 0; i < prepared.length; i++) {
    // The placement as parseRigid gives it, to the last bit (String keeps every bit of a
    // double except the sign of zero, which does not move anything).
    const key = `${classes.of(prepared[i].part)}:${prepared[i].m.join(',')}`;
    const f = firstOf.get(key);
    if (f === undefined) {
      firstOf.set(key, i);
      leader[i] = i;
      continue;
    }
    leader[i] = f;
    let g = members.get(f);
    if (!g) members.set(f, (g = [f]));
    g.push(i);
  }
  return { leader, members };
}

/**
 * The first pair (lower index first) of a group's members that is in scope and not ignored, or
 * null. Tries pairs from the members the scope allows on each side, so it stops after at most
 * (ignored pairs + members + 1) tries unless every pair is ignored.
 */
function firstPairOf(
  members: readonly number[], scope: 'all' | 'selection' | 'sets',
  inA: (x: number) => boolean, inB: (x: number) => boolean, isIgnored: (x: number, y: number) => boolean,
): [number, number] | null {
  const left = scope === 'all' ? members : members.filter(inA);
  const right = scope === 'sets' ? members.filter(inB) : members;
  for (const x of left) {
    for (const y of right) {
      if (x === y) continue;
      const lo = Math.min(x, y), hi = Math.max(x, y);
      if (!isIgnored(lo, hi)) return [lo, hi];
    }
  }
  return null;
}
