/**
 * What each result of a report means for a CI run: whether it fails the check, passes or is
 * skipped, with its id (`R1`, …) and a one-line message with its figures. The JUnit XML
 * (./junit.ts), the GitHub annotations and the command line's exit status all follow it, so
 * they agree.
 *
 * A result **fails** when its kind is interference or clearance, or undecided unless the policy
 * is `pass` (exitCode in ./model.ts); with a baseline (./baseline.ts), only when it is also new or
 * worse than there. Ignored pairs, and undecided ones under `--undecided pass`, are **skipped**;
 * the rest (contacts, findings accepted by the baseline) **pass**.
 */
import type { BaselineChange, BaselineComparison } from './baseline.js';
import { resolvedSince } from './baseline.js';
import { type InterferenceReport, type ReportResult, type UndecidedPolicy } from './model.js';

export type Verdict = 'fail' | 'pass' | 'skip';

export interface Finding {
  /** The result's id, `R1`, `R2`, … (ReportResult.id). */
  readonly id: string;
  readonly result: ReportResult;
  readonly verdict: Verdict;
  /** With a baseline: how the result compares with it; else null. */
  readonly change: BaselineChange | null;
  /** One line: the id, the kind and the figures (`R1 interference: 3.52 mm³, 0.5 mm deep (±0.01 mm)`). */
  readonly message: string;
  /** With a baseline, what it says about the result (`new since the baseline`, `worse than the baseline: deeper …`); else ''. */
  readonly baselineNote: string;
}

export interface ReportFindings {
  readonly findings: readonly Finding[];
  /** With a baseline: its findings that are gone, with what the pair is now; else empty. */
  readonly resolved: readonly { readonly was: ReportResult; readonly now: ReportResult['kind'] | 'clear' }[];
  /** 1 when a result fails, else 0: the exit status of the report. */
  readonly exitCode: 0 | 1;
}

/** Whether a result's kind fails the check (exitCode's rule, without a baseline). */
export function failingKind(r: Pick<ReportResult, 'kind'>, undecided: UndecidedPolicy): boolean {
  return r.kind === 'interference' || r.kind === 'clearance' || (r.kind === 'undecided' && undecided === 'fail');
}

function num(n: number): string {
  return String(Number(n.toPrecision(6)));
}

/** The figures of a result in words: `3.52 mm³, 0.5 mm deep (±0.01 mm)`. */
export function resultFigures(r: ReportResult): string {
  const out: string[] = [];
  if (r.kind === 'undecided' && r.possibleKinds !== null) {
    out.push(r.possibleKinds.join(' or '));
    if (r.separationRangeMm !== null) out.push(`separation ${num(r.separationRangeMm[0])} … ${num(r.separationRangeMm[1])} mm`);
  }
  if (r.contained) out.push(`${r.containedPart ?? 'one part'} lies inside the other`);
  if (r.volumeMm3 !== null) out.push(`${num(r.volumeMm3)} mm³`);
  if (r.depthMm !== null && r.kind !== 'undecided') out.push(`${num(r.depthMm)} mm deep`);
  if (r.distanceMm !== null && (r.kind === 'clearance' || (r.kind === 'contact' && r.distanceMm > 0))) out.push(`${num(r.distanceMm)} mm apart`);
  if (r.kind === 'ignored' && r.reason !== null) out.push(`ignored: ${r.reason}`);
  let text = out.join(', ');
  if (r.resolutionMm !== null && r.kind !== 'ignored' && r.kind !== 'undecided') text += ` (±${num(r.resolutionMm)} mm)`;
  if (r.coincident !== undefined) text += `${text ? '; ' : ''}${r.coincident.length} coincident copies, one finding for every pair among them`;
  return text;
}

function baselineNote(change: BaselineChange, why: string): string {
  if (change === 'new') return 'new since the baseline';
  if (change === 'worse') return `worse than the baseline: ${why}`;
  return 'as in the baseline';
}

/** The findings of a report under an undecided policy, against a baseline when one is given. */
export function reportFindings(
  report: InterferenceReport, undecided: UndecidedPolicy, baseline: BaselineComparison | null = null,
): ReportFindings {
  const findings = report.results.map((r, i): Finding => {
    const entry = baseline?.entries[i] ?? null;
    const figures = resultFigures(r);
    const message = `${r.id} ${r.kind}${figures ? `: ${figures}` : ''}`;
    const failing = failingKind(r, undecided);
    let verdict: Verdict;
    if (r.kind === 'ignored' || (r.kind === 'undecided' && !failing)) verdict = 'skip';
    else if (failing && (entry === null || entry.change !== 'same')) verdict = 'fail';
    else verdict = 'pass';
    return {
      id: r.id, result: r, verdict, change: entry?.change ?? null, message,
      baselineNote: entry !== null ? baselineNote(entry.change, entry.why) : '',
    };
  });
  const resolved = baseline !== null ? resolvedSince(baseline, report, (r) => failingKind(r, undecided)) : [];
  return { findings, resolved, exitCode: findings.some((f) => f.verdict === 'fail') ? 1 : 0 };
}
