/**
 * Refinement: re-tessellating the CAD bodies of pairs that their triangles could not decide
 * (./resolution.ts), and checking those pairs again on the finer meshes, until every pair is
 * decided or a limit is reached.
 *
 * Each round, every undecided pair asks for the deflection that would decide it: a resolution
 * below the distance from its measured separation to the nearest kind boundary (the gap to
 * resolve), at least halving its bodies' present deflection. Chords of one circle (a pin seated
 * line to line) keep crossing by about their own chordal error, so such a pair comes nearer the
 * line-to-line band with every round and is decided at MIN_DEFLECTION_MM at the latest. The bodies of one source are read
 * once per round at the finest deflection its pairs ask for, taken from a fixed ladder of values
 * (so that later checks of the same document find them in the host's cache). A source whose
 * predicted triangle count (a doubly curved face's triangles grow as 1/deflection) would pass its
 * budget is read only as finely as that allows; rounds stop after `timeBudgetMs`.
 *
 * The refined pair keeps the triangle pairs of the file's own tessellation (the triangles the
 * app shows); its kind, depth, distance, closest points and volume come from the finest meshes.
 * A pair still undecided when no finer tessellation is allowed is reported as 'undecided'.
 */
import type { TriangleMesh } from '../geometry/mesh.js';
import type { ObbTree } from '../obbtree/layout.js';
import type { FaceSurfaces } from '../geometry/surfaces.js';
import { runCheck, summarize, CheckAbortedError, type CheckOptions } from './check.js';
import { LINE_TO_LINE_MM, MIN_DEFLECTION_MM } from './resolution.js';
import { maxChordError } from './tolerance.js';
import type { CheckPart, CheckRequest, CheckResult, PairResult } from './types.js';

/** A body re-tessellated finer. */
export interface RefinedBody {
  readonly mesh: TriangleMesh;
  readonly tree: ObbTree;
  readonly chordErrorMm: Float32Array | null;
  readonly chordSide: Int8Array | null;
  /** Its faces and their recovered surfaces (./analytic.ts), when known. */
  readonly faceRanges?: Uint32Array | null;
  readonly surfaces?: FaceSurfaces | null;
  /** The linear deflection it was tessellated with (mm). */
  readonly deflectionMm: number;
}

/** What a host provides: its CAD sources' bodies at a given deflection (cached by the host). */
export interface Refiner {
  /**
   * Body `bodyIndex` of source `sourceKey` tessellated with linear deflection `deflectionMm`.
   * Rejects (with a message naming the file) when the source cannot be read again or its bodies
   * changed; the pair then stays undecided.
   */
  body(sourceKey: string, bodyIndex: number, deflectionMm: number, signal?: { readonly aborted: boolean }): Promise<RefinedBody>;
}

export interface RefineLimits {
  /** The finest deflection asked for (mm). */
  readonly minDeflectionMm: number;
  /**
   * A source is read again with at most this many triangles in all (predicted): the smaller of
   * `maxTrianglesPerSource` and the larger of `minTriangleBudget` and `triangleGrowth` × its own
   * tessellation's.
   */
  readonly maxTrianglesPerSource: number;
  readonly minTriangleBudget: number;
  readonly triangleGrowth: number;
  /** Refinement stops starting new rounds after this long (ms). */
  readonly timeBudgetMs: number;
  /** At most this many rounds. */
  readonly maxRounds: number;
}

export const DEFAULT_REFINE_LIMITS: RefineLimits = {
  minDeflectionMm: MIN_DEFLECTION_MM,
  maxTrianglesPerSource: 2_000_000,
  minTriangleBudget: 250_000,
  triangleGrowth: 12,
  timeBudgetMs: 30_000,
  maxRounds: 6,
};

export interface RefineOptions extends CheckOptions {
  readonly limits?: Partial<RefineLimits>;
}

/** Deflections refinement asks for (mm), coarse to fine: 1, 2 and 5 per decade. */
const LADDER: readonly number[] = (() => {
  const out: number[] = [];
  for (let e = 1; e >= -5; e--) for (const m of [5, 2, 1]) out.push(m * 10 ** e);
  return out.map((x) => Number(x.toPrecision(3)));
})();

/** The coarsest ladder deflection not above d, and not below the floor. */
function onLadder(d: number, floor: number): number {
  for (const x of LADDER) if (x <= d * (1 + 1e-9)) return Math.max(x, floor);
  return floor;
}

interface Side {
  readonly part: CheckPart;
  /** The deflection its triangles have now (for a file's own tessellation: its chordal error). */
  readonly current: number;
}

const key = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/**
 * Checks the undecided CAD pairs of `first` (a runCheck result of `request`) again on refined
 * bodies; returns the whole result with those pairs replaced. Returns `first` itself when nothing
 * is undecided.
 */
export async function refineCheck(request: CheckRequest, first: CheckResult, refiner: Refiner, options: RefineOptions = {}): Promise<CheckResult> {
  const limits = { ...DEFAULT_REFINE_LIMITS, ...options.limits };
  const now = options.now ?? (() => Date.now());
  const t0 = now();
  if (!first.results.some((r) => r.kind === 'undecided')) return first;

  const byId = new Map(request.parts.map((p) => [p.id, p] as const));
  const results = new Map(first.results.map((r) => [key(r.a, r.b), r] as const));
  // Each refinable part as it is now (refined bodies replace the file's own).
  const sides = new Map<string, Side>();
  for (const p of request.parts) if (p.refine) sides.set(p.id, { part: p, current: p.deflectionMm ?? maxChordError(p) });
  const warnings = [...first.warnings];
  const stuck = new Set<string>(); // part ids that cannot be refined further (limits, failures)
  const budgetNoted = new Set<string>();
  // Per source, its last read: deflection, and its triangles in all (estimated from the bodies
  // built, scaled to the whole source by their share of its own tessellation).
  const lastRead = new Map<string, { deflection: number; triangles: number }>();

  let round = 0;
  for (; round < limits.maxRounds; round++) {
    if (options.signal?.aborted) throw new CheckAbortedError();
    const open = [...results.values()].filter((r) => r.kind === 'undecided');
    if (open.length === 0) break;
    if (now() - t0 > limits.timeBudgetMs) {
      warnings.push(`refinement stopped after ${Math.round((now() - t0) / 1000)} s (its time limit): ${open.length} pair(s) left undecided`);
      break;
    }
    // What each part is asked to become this round: the finest deflection any of its pairs needs.
    const want = new Map<string, number>();
    const asking: PairResult[] = [];
    for (const r of open) {
      const sa = sides.get(r.a), sb = sides.get(r.b);
      const refinable = [sa, sb].filter((s): s is Side => s !== undefined && !stuck.has(s.part.id) && s.current > limits.minDeflectionMm * (1 + 1e-9));
      if (refinable.length === 0) continue;
      const d = neededDeflection(r, sa !== undefined && sb !== undefined ? 2 : 1, limits.minDeflectionMm, request.settings.clearanceMm);
      for (const s of refinable) want.set(s.part.id, Math.min(want.get(s.part.id) ?? Infinity, onLadder(Math.min(d, s.current / 2), limits.minDeflectionMm)));
      asking.push(r);
    }
    // One read per source per round, at the finest deflection its parts ask for, within the
    // source's triangle budget (predicted as if every face were doubly curved: triangles ∝ 1/d).
    const perSource = new Map<string, number>();
    for (const [id, d] of want) {
      const src = sides.get(id)!.part.refine!.sourceKey;
      perSource.set(src, Math.min(perSource.get(src) ?? Infinity, d));
    }
    for (const [src, asked] of perSource) {
      const of = [...sides.values()].filter((s) => s.part.refine!.sourceKey === src);
      const original = of.reduce((n, s) => n + byId.get(s.part.id)!.mesh.triangleCount, 0);
      const budget = Math.min(limits.maxTrianglesPerSource, Math.max(limits.minTriangleBudget, limits.triangleGrowth * original));
      const last = lastRead.get(src);
      // The coarsest present deflection among the parts asked to refine.
      let current = 0;
      for (const s of of) if (want.has(s.part.id)) current = Math.max(current, s.current);
      let target = asked;
      if (last === undefined) {
        // A file's own tessellation says little of how its triangles grow: the first read goes at
        // most 16 times finer, and the next ones are predicted from what it gave.
        target = Math.max(target, onLadder(current / 16, limits.minDeflectionMm));
      } else {
        // The whole source's triangles, scaled from the last read (∝ 1/deflection, as if doubly curved).
        const predicted = (d: number): number => last.triangles * (last.deflection / d);
        if (predicted(target) > budget) {
          let capped: number | undefined;
          for (const x of LADDER) if (x >= limits.minDeflectionMm && predicted(x) <= budget) capped = x;
          target = capped ?? Infinity;
        }
      }
      if (!(target < current * 0.75) || !Number.isFinite(target)) {
        perSource.delete(src);
        for (const s of of) {
          if (want.has(s.part.id)) want.delete(s.part.id);
          stuck.add(s.part.id);
        }
        if (!budgetNoted.has(src)) {
          budgetNoted.add(src);
          warnings.push(`the bodies of source '${src}' were not tessellated finer than ${current} mm: finer, they would pass ${Math.round(budget).toLocaleString('en-US')} triangles`);
        }
        continue;
      }
      perSource.set(src, target);
    }
    // The pairs with a part that is read again this round.
    const pairsThisRound = asking.filter((r) => want.has(r.a) || want.has(r.b));
    if (pairsThisRound.length === 0) break;

    options.onProgress?.({ phase: 'refine', done: round, total: limits.maxRounds });
    const involved = new Set<string>();
    for (const r of pairsThisRound) { involved.add(r.a); involved.add(r.b); }
    const refinedParts = new Map<string, CheckPart>();
    await Promise.all([...want.keys()].map(async (id) => {
      const s = sides.get(id)!;
      const ref = s.part.refine!;
      const d = perSource.get(ref.sourceKey)!;
      try {
        const body = await refiner.body(ref.sourceKey, ref.bodyIndex, d, options.signal);
        const part: CheckPart = { ...s.part, mesh: body.mesh, tree: body.tree, chordErrorMm: body.chordErrorMm, chordSide: body.chordSide, faceRanges: body.faceRanges ?? null, surfaces: body.surfaces ?? null, deflectionMm: body.deflectionMm };
        sides.set(id, { part, current: body.deflectionMm });
        refinedParts.set(id, part);
      } catch (e) {
        if (options.signal?.aborted) throw new CheckAbortedError();
        stuck.add(id);
        warnings.push(`part '${id}' could not be refined: ${(e as Error).message}`);
      }
    }));
    for (const [src, d] of perSource) {
      let built = 0, before = 0, all = 0;
      for (const s of sides.values()) {
        if (s.part.refine!.sourceKey !== src) continue;
        const own = byId.get(s.part.id)!.mesh.triangleCount;
        all += own;
        if (refinedParts.has(s.part.id)) { built += s.part.mesh.triangleCount; before += own; }
      }
      if (before > 0) lastRead.set(src, { deflection: d, triangles: built * (all / before) });
    }
    if (refinedParts.size === 0) continue;

    // Check the round's pairs again on the parts as they now are.
    const parts = [...involved].map((id) => sides.get(id)?.part ?? byId.get(id)!);
    const again = await runCheck(
      { parts, settings: request.settings, ignore: [], scope: { kind: 'pairs', pairs: pairsThisRound.map((r) => [r.a, r.b] as const) } },
      { ...options, onProgress: undefined },
    );
    const found = new Map(again.results.map((r) => [key(r.a, r.b), r] as const));
    for (const r of pairsThisRound) {
      const k = key(r.a, r.b);
      const next = found.get(k);
      if (!next) {
        results.delete(k); // decided clear on the finer meshes
        continue;
      }
      // Keep the pair's orientation and the triangles of the file's own tessellation.
      const swapped = next.a !== r.a;
      results.set(k, {
        ...next,
        a: r.a, b: r.b,
        trianglePairs: r.trianglePairs,
        closestPointsMm: swapped && next.closestPointsMm ? [next.closestPointsMm[1], next.closestPointsMm[0]] : next.closestPointsMm,
      });
    }
  }
  if (round >= limits.maxRounds && [...results.values()].some((r) => r.kind === 'undecided')) {
    warnings.push(`refinement stopped after ${limits.maxRounds} rounds with pairs still undecided`);
  }

  const order = new Map(request.parts.map((p, i) => [p.id, i] as const));
  const list = [...results.values()].sort((x, y) => (order.get(x.a)! - order.get(y.a)!) || (order.get(x.b)! - order.get(y.b)!));
  const elapsed = Math.round(first.summary.elapsedMs + (now() - t0));
  return {
    ...first,
    results: list,
    summary: summarize(list, first.summary.parts, first.summary.triangles, elapsed),
    warnings,
  };
}

/**
 * The deflection (mm) that decides a pair: its resolution is the sum of `sides` chordal errors, each
 * at most the deflection, so it must fall below the gap to resolve — the pair's distance from the
 * nearest kind boundary inside its range — with a margin.
 */
function neededDeflection(r: PairResult, sides: number, floor: number, clearanceMm: number): number {
  const range = r.separationRangeMm;
  if (!range) return floor;
  const s = r.depthMm !== null && r.depthMm > 0 ? -r.depthMm : (r.distanceMm ?? (range[0] + range[1]) / 2);
  const res = Math.max(s - range[0], range[1] - s);
  const boundaries = [-LINE_TO_LINE_MM, r.toleranceMm, ...(clearanceMm > r.toleranceMm ? [clearanceMm] : [])];
  let gap = Infinity;
  for (const x of boundaries) if (range[0] <= x && range[1] >= x) gap = Math.min(gap, Math.abs(s - x));
  if (!Number.isFinite(gap)) gap = res;
  return Math.max(floor, (0.6 * gap) / sides);
}
