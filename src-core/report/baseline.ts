/**
 * A report compared with an earlier one, its **baseline** (an accepted state: the JSON report of
 * an earlier check, `interfere check --baseline accepted.json`): which findings are new, which
 * got worse, which are as accepted, and which are gone. Pure.
 *
 * A pair is matched by its two part ids, in either order; a result of a group of coincident copies
 * (`coincident`) also matches a baseline result whose group holds both its parts. Against the
 * baseline's result for the same pair, a result is
 *  - **new**: the baseline has no result for the pair;
 *  - **worse**: its kind is more severe (contact → clearance → undecided → interference; any
 *    finding is worse than an ignored pair), or, of the same kind, an interference is deeper
 *    (`depthMm`), shares a larger volume (`volumeMm3`) or became a containment, or a clearance
 *    violation is closer (`distanceMm`), each by more than the noise of a recomputation
 *    (LENGTH_NOISE_MM, VOLUME_NOISE);
 *  - **same**: otherwise (the same, or better: shallower, smaller, farther, or a milder kind).
 * A finding (a result of a kind that fails the check, ./findings.ts) of the baseline is
 * **resolved** when the report has no failing result for its pair any more (the pair is clear,
 * or of a kind that passes).
 */
import { pairKey } from '../check/status.js';
import type { InterferenceReport, ReportResult } from './model.js';

export type BaselineChange = 'new' | 'worse' | 'same';

/** Lengths that differ by no more than this (mm, 1 nm) are the same: recomputing on another engine may round differently. */
export const LENGTH_NOISE_MM = 1e-6;
/** Volumes that differ by no more than this part of the larger (or 1e-9 mm³) are the same. */
export const VOLUME_NOISE = 1e-6;

const SEVERITY: Record<ReportResult['kind'], number> = { ignored: -1, contact: 0, clearance: 1, undecided: 2, interference: 3 };

/** The comparison of one result with the baseline. */
export interface BaselineEntry {
  readonly change: BaselineChange;
  /** The baseline's result for the pair, or null when it has none. */
  readonly was: ReportResult | null;
  /** Why it is worse, in words (`deeper: 0.51 mm, was 0.2 mm`); empty when not worse. */
  readonly why: string;
}

export interface BaselineComparison {
  /** One per result of the report, in its order. */
  readonly entries: readonly BaselineEntry[];
  /** The baseline (its results, of every kind), for finding the resolved ones. */
  readonly baseline: Pick<InterferenceReport, 'results'>;
}

function fmt(n: number): string {
  return String(Number(n.toPrecision(6)));
}

/** Why `r` is worse than `was` (same kind), or ''. */
function worseFigures(r: ReportResult, was: ReportResult): string {
  if (r.kind === 'interference') {
    if (r.contained && !was.contained) return 'now one part lies inside the other';
    if (r.depthMm !== null && was.depthMm !== null && r.depthMm > was.depthMm + LENGTH_NOISE_MM) {
      return `deeper: ${fmt(r.depthMm)} mm, was ${fmt(was.depthMm)} mm`;
    }
    if (r.volumeMm3 !== null && was.volumeMm3 !== null
      && r.volumeMm3 - was.volumeMm3 > Math.max(1e-9, VOLUME_NOISE * Math.max(Math.abs(r.volumeMm3), Math.abs(was.volumeMm3)))) {
      return `larger volume: ${fmt(r.volumeMm3)} mm³, was ${fmt(was.volumeMm3)} mm³`;
    }
  }
  if (r.kind === 'clearance' && r.distanceMm !== null && was.distanceMm !== null && r.distanceMm < was.distanceMm - LENGTH_NOISE_MM) {
    return `closer: ${fmt(r.distanceMm)} mm apart, was ${fmt(was.distanceMm)} mm`;
  }
  return '';
}

/** Looks up the baseline's result for a pair: by its key, else by a coincident group holding both parts. */
class BaselineIndex {
  private readonly byPair = new Map<string, ReportResult>();
  private readonly groupOf = new Map<string, ReportResult>();

  constructor(results: readonly ReportResult[]) {
    for (const r of results) {
      this.byPair.set(pairKey(r.a, r.b), r);
      for (const id of r.coincident ?? []) this.groupOf.set(id, r);
    }
  }

  find(a: string, b: string): ReportResult | null {
    const direct = this.byPair.get(pairKey(a, b));
    if (direct !== undefined) return direct;
    const group = this.groupOf.get(a);
    return group !== undefined && group === this.groupOf.get(b) ? group : null;
  }
}

/** Compares each result of `report` with `baseline` (see the module comment). */
export function compareWithBaseline(report: Pick<InterferenceReport, 'results'>, baseline: Pick<InterferenceReport, 'results'>): BaselineComparison {
  const index = new BaselineIndex(baseline.results);
  const entries = report.results.map((r): BaselineEntry => {
    const was = index.find(r.a, r.b);
    if (was === null) return { change: 'new', was: null, why: '' };
    if (SEVERITY[r.kind] > SEVERITY[was.kind]) return { change: 'worse', was, why: `${was.kind === 'ignored' ? 'ignored' : `a ${was.kind}`} in the baseline, now ${r.kind === 'interference' ? 'an' : 'a'} ${r.kind}` };
    if (SEVERITY[r.kind] < SEVERITY[was.kind]) return { change: 'same', was, why: '' };
    const why = worseFigures(r, was);
    return { change: why !== '' ? 'worse' : 'same', was, why };
  });
  return { entries, baseline };
}

/**
 * The baseline's results that `fails` counts as findings and that have no failing result in the
 * report any more, in the baseline's order, with what the pair is now (`clear` when the report
 * has no result for it).
 */
export function resolvedSince(
  comparison: BaselineComparison, report: Pick<InterferenceReport, 'results'>, fails: (r: ReportResult) => boolean,
): { readonly was: ReportResult; readonly now: ReportResult['kind'] | 'clear' }[] {
  const now = new BaselineIndex(report.results);
  const out: { was: ReportResult; now: ReportResult['kind'] | 'clear' }[] = [];
  for (const was of comparison.baseline.results) {
    if (!fails(was)) continue;
    const r = now.find(was.a, was.b);
    if (r === null) out.push({ was, now: 'clear' });
    else if (!fails(r)) out.push({ was, now: r.kind });
  }
  return out;
}
