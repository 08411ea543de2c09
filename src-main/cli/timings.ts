/**
 * `interfere check --timings`: where a run's time went, printed to standard error after the run —
 * each phase's start and length in milliseconds since the process started (performance.now()),
 * per input: reading and importing it (and of that, OpenCascade's reads in its workers), building
 * its trees, the check (broad phase, pair tests, classification, refinement, and of that
 * refinement's OpenCascade reads) and its reports.
 * bench/pipeline.ts reads these lines (`parseTimings`), so their shape is kept as it is.
 */
import type { OcctWorkerStats } from '../services/occtWorker.js';

/** Set by the launcher (cli/launch.ts) on its first line. */
export const LAUNCHED_AT = Symbol.for('interfere.launchedAt');

export interface InputTimes {
  readonly input: string;
  readonly startMs: number;
  readonly openMs: number;
  /** OpenCascade's own reading time for this input (ms, in its workers), when it read any. */
  readonly occtReadMs: number;
  /** OpenCascade's reads during the check (ms, in its workers): refinement reading bodies finer. */
  readonly refineOcctReadMs: number;
  readonly treesMs: number;
  readonly checkMs: number;
  readonly phaseMs: { readonly broadPhase: number; readonly collide: number; readonly classify: number };
  reportMs: number;
}

export class Timings {
  private readonly launchedAt: number | null;
  private readonly mainAt = performance.now();
  private readonly inputs: InputTimes[] = [];

  constructor(private readonly occt: () => OcctWorkerStats | null) {
    const at = (globalThis as { [LAUNCHED_AT]?: unknown })[LAUNCHED_AT];
    this.launchedAt = typeof at === 'number' ? at : null;
  }

  /** Opens the record of one input; fill in its reportMs when its reports are written. */
  input(times: Omit<InputTimes, 'reportMs'>): InputTimes {
    const row = { ...times, reportMs: 0 };
    this.inputs.push(row);
    return row;
  }

  render(endMs = performance.now()): string {
    const rows: [string, number | null, number | null, string][] = [];
    if (this.launchedAt !== null) {
      rows.push(['node start-up', 0, this.launchedAt, '']);
      rows.push(['load the program', this.launchedAt, this.mainAt - this.launchedAt, '']);
    } else {
      rows.push(['start-up and loading', 0, this.mainAt, '']);
    }
    const occt = this.occt();
    if (occt !== null && occt.firstReadyAtMs !== null) {
      const by = occt.adopted > 0 ? 'started by the launcher' : 'started for the first read';
      rows.push(['OpenCascade ready', occt.firstReadyAtMs, null, `${occt.workersStarted} worker(s), the first ${by}, initialised in ${Math.round(occt.lastInitMs ?? 0)} ms`]);
    }
    for (const t of this.inputs) {
      const total = t.openMs + t.treesMs + t.checkMs + t.reportMs;
      rows.push([t.input, t.startMs, total, '']);
      let at = t.startMs;
      const step = (name: string, ms: number, note = ''): void => {
        rows.push([`  ${name}`, at, ms, note]);
        at += ms;
      };
      step('read and import', t.openMs, t.occtReadMs > 0 ? `OpenCascade's reads ${Math.round(t.occtReadMs)} (in its workers, added up)` : '');
      step('trees', t.treesMs);
      const p = t.phaseMs;
      const rest = Math.max(0, t.checkMs - p.broadPhase - p.collide - p.classify);
      const refineReads = t.refineOcctReadMs > 0 ? `; of the check, OpenCascade's reads ${Math.round(t.refineOcctReadMs)} (refinement's, in its workers, added up)` : '';
      step('check', t.checkMs, `broad phase ${Math.round(p.broadPhase)}, pair tests ${Math.round(p.collide)}, classification ${Math.round(p.classify)}, other ${Math.round(rest)} (refinement, progress)${refineReads}`);
      step('report', t.reportMs);
    }
    rows.push(['done', endMs, null, '']);
    const width = rows.reduce((w, r) => Math.max(w, r[0].length), 5);
    const num = (v: number | null): string => (v === null ? '-' : String(Math.round(v))).padStart(7);
    const lines = ['timings (ms since the process started):', `  ${'phase'.padEnd(width)}  ${'from'.padStart(7)}  ${'took'.padStart(7)}`];
    for (const [name, from, took, note] of rows) lines.push(`  ${name.padEnd(width)}  ${num(from)}  ${num(took)}${note ? `  ${note}` : ''}`);
    return lines.join('\n');
  }
}

/** One phase line of the table: its name (indented for an input's phases), start and length (ms). */
export interface TimingLine {
  readonly phase: string;
  readonly fromMs: number | null;
  readonly tookMs: number | null;
}

/** The phase lines of a `--timings` table, in order (for the pipeline benchmark). */
export function parseTimings(text: string): TimingLine[] {
  const start = text.indexOf('timings (ms since the process started):');
  if (start < 0) return [];
  const out: TimingLine[] = [];
  for (const line of text.slice(start).split('\n').slice(2)) {
    const m = /^ {2}( *\S.*?) +(-|\d+) +(-|\d+)(?: {2}.*)?$/.exec(line);
    if (m === null) break;
    const value = (v: string): number | null => (v === '-' ? null : Number(v));
    out.push({ phase: m[1], fromMs: value(m[2]), tookMs: value(m[3]) });
  }
  return out;
}
