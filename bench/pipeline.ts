// Pipeline benchmarks of `npm run bench`: whole files through the command line in a cold process,
// and the all-pairs phase alone with trees already built.

import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareCheck, runPreparedCheck } from '../src-main/services/checkService';
import { createImporter } from '../src-main/services/importers';
import { median } from './report';
import { parseTimings, type TimingLine } from '../src-main/cli/timings';

export interface PipelineCase {
  readonly name: string;
  readonly description: string;
  readonly input: string;
  /** Target for the cold run, from the pipeline issue (ms). */
  readonly coldTargetMs: number;
  /**
   * When set, the cold run is also timed with `--refine off`, and the ratio of the two (what
   * deciding fits finer than the tessellation costs) is printed against this target.
   */
  readonly refineRatioTarget?: number;
}

export const PIPELINE_CASES: readonly PipelineCase[] = [
  {
    name: 'as1-step-to-json',
    description: 'AS1 STEP (18 parts, 5,040 triangles) → JSON report',
    input: 'assets/samples/as1-oc-214.stp',
    coldTargetMs: 1500,
  },
  {
    name: 'as1-asis-refine',
    description: 'AS1 as designed, saved assembly (22 mates line to line): refinement on against off',
    input: 'test/data/assemblies/as1-oc-214-asis.assembly.json',
    coldTargetMs: 1500,
    refineRatioTarget: 1.3,
  },
  {
    name: 'trackball-refine',
    description: 'Trackball, two STEP files (34,000 triangles): refinement on against off',
    input: 'test/data/assemblies/trackball-asis.assembly.json',
    coldTargetMs: 30000,
    refineRatioTarget: 1.5,
  },
  {
    name: 'so101-assembly',
    description: 'SO-101 robot (17 placements of 13 STL meshes, 398,884 triangles) → JSON report',
    input: 'test/data/assemblies/so101-zero.assembly.json',
    coldTargetMs: 2500,
  },
];

export interface PipelineRecord {
  impl: 'interfere';
  variant: 'pipeline';
  scenario: string;
  description: string;
  reps: number;
  cold_ms: number;
  cold_ms_all: number[];
  cold_target_ms: number;
  cold_peak_rss_mb: number;
  /** The cold run's minor page faults (its first touches of memory pages, all its threads; median). */
  cold_minor_faults: number;
  /**
   * What one such fault costs on this machine (µs, measured by firstTouchMicros), and so about how
   * much CPU time, over all threads, the cold run spends in them (ms).
   */
  page_fault_us: number;
  cold_fault_ms_est: number;
  /** The cold run with `--refine off`, and cold_ms over it (refinement's cost), when measured. */
  cold_refine_off_ms: number | null;
  refine_ratio: number | null;
  refine_ratio_target: number | null;
  /**
   * The cold run's phases (medians over the runs, ms; interfere check --timings): start-up and
   * loading, reading and importing (and of that OpenCascade's reads, added up over its workers),
   * trees, check (and of that refinement's OpenCascade reads, when it read bodies finer), report.
   */
  cold_phases_ms: Record<string, number>;
  /**
   * The share of the cold run's wall time not spent in OpenCascade's reads: 1 − reads / wall, the
   * inputs' reads counted at most for the whole read-and-import phase and refinement's at most for
   * the whole check (parallel reads overlap).
   */
  cold_non_occt_share: number;
  /**
   * The same share at most: the reads of several workers overlap by an amount the table does not
   * give, so they are counted here as if they had overlapped as much as they could (each phase's
   * reads divided by the workers started, still at most the phase). The true share is between
   * the two.
   */
  cold_non_occt_share_max: number;
  all_pairs_ms: number;
  all_pairs_ms_all: number[];
  broad_phase_ms: number;
  collide_ms: number;
  classify_ms: number;
  check_ms: number;
  candidate_pairs: number;
  triangles: number;
  parts: number;
}

function ensureBuilt(root: string): string {
  const cli = path.join(root, 'dist/node/cli/interfere.cjs');
  if (!existsSync(cli)) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  return cli;
}

/** Runs one case: `reps` cold command-line runs, then the all-pairs phase in this process. */
export async function runPipelineCase(c: PipelineCase, reps: number, root = process.cwd()): Promise<PipelineRecord> {
  const cli = ensureBuilt(root);
  const probe = path.join(root, 'bench/rssProbe.cjs');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'interfere-bench-'));
  const cold: number[] = [], coldOff: number[] = [];
  const phases: Record<string, number[]> = {};
  const shares: number[] = [], sharesMax: number[] = [];
  let rss = 0;
  const faults: number[] = [];
  const once = (extra: readonly string[]): number => {
    const t0 = performance.now();
    const run = spawnSync(process.execPath, ['--require', probe, cli, 'check', path.resolve(root, c.input), '--report', path.join(dir, 'report.json'), '--quiet', '--timings', ...extra], { encoding: 'utf8' });
    const ms = performance.now() - t0;
    if (run.status !== 0 && run.status !== 1) throw new Error(`${c.name}: interfere exited with ${run.status}: ${run.stderr}`);
    const m = /BENCH_PEAK_RSS_MB ([\d.]+)/.exec(run.stderr);
    if (m) rss = Math.max(rss, Number(m[1]));
    if (extra.length === 0) {
      const f = /BENCH_MINOR_FAULTS (\d+)/.exec(run.stderr);
      if (f) faults.push(Number(f[1]));
      const p = coldPhases(parseTimings(run.stderr), run.stderr);
      for (const [k, v] of Object.entries(p.phases)) (phases[k] ??= []).push(v);
      shares.push(p.nonOcctShare);
      sharesMax.push(p.nonOcctShareMax);
    }
    return ms;
  };
  try {
    // Alternated, so that a change in the machine's load falls on both alike.
    for (let r = 0; r < reps; r++) {
      cold.push(once([]));
      if (c.refineRatioTarget !== undefined) coldOff.push(once(['--refine', 'off']));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // The all-pairs phase alone: trees built once, the check repeated.
  const prepared = await prepareCheck(path.resolve(root, c.input), { importer: createImporter() });
  const allPairs: number[] = [];
  const broad: number[] = [], collide: number[] = [], classify: number[] = [], total: number[] = [];
  let candidates = 0;
  for (let r = 0; r < reps + 1; r++) {
    const t0 = performance.now();
    const check = await runPreparedCheck(prepared);
    const t = performance.now() - t0;
    if (r === 0) continue; // warm-up (JIT, wasm)
    allPairs.push(check.phaseMs.broadPhase + check.phaseMs.collide);
    broad.push(check.phaseMs.broadPhase);
    collide.push(check.phaseMs.collide);
    classify.push(check.phaseMs.classify);
    total.push(t);
    candidates = check.candidatePairs;
  }
  const round = (x: number): number => Math.round(x * 10) / 10;
  const faultUs = firstTouchMicros();
  const coldFaults = faults.length > 0 ? median(faults) : NaN;
  return {
    impl: 'interfere',
    variant: 'pipeline',
    scenario: c.name,
    description: c.description,
    reps,
    cold_ms: round(median(cold)),
    cold_ms_all: cold.map(round),
    cold_target_ms: c.coldTargetMs,
    cold_peak_rss_mb: rss,
    cold_minor_faults: Math.round(coldFaults),
    page_fault_us: Math.round(faultUs * 100) / 100,
    cold_fault_ms_est: Math.round((coldFaults * faultUs) / 1000),
    cold_refine_off_ms: coldOff.length > 0 ? round(median(coldOff)) : null,
    refine_ratio: coldOff.length > 0 ? Math.round((median(cold) / median(coldOff)) * 100) / 100 : null,
    refine_ratio_target: c.refineRatioTarget ?? null,
    cold_phases_ms: Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, round(median(v))])),
    cold_non_occt_share: Math.round(median(shares) * 1000) / 1000,
    cold_non_occt_share_max: Math.round(median(sharesMax) * 1000) / 1000,
    all_pairs_ms: round(median(allPairs)),
    all_pairs_ms_all: allPairs.map(round),
    broad_phase_ms: round(median(broad)),
    collide_ms: round(median(collide)),
    classify_ms: round(median(classify)),
    check_ms: round(median(total)),
    candidate_pairs: candidates,
    triangles: prepared.parts.reduce((s, p) => s + p.body.mesh.triangleCount, 0),
    parts: prepared.parts.length,
  };
}

/**
 * What the first touch of a fresh 4 KB memory page costs on this machine, in µs: a fresh 64 MB
 * buffer (mapped by the allocator, untouched) written once per page, the median of three. About
 * 0.1–0.5 µs on a workstation; in a virtual machine whose host backs the guest's memory only when
 * it is touched, it can be tens of times more, and every megabyte a cold run touches then costs
 * milliseconds. Measured once per benchmark run (every pipeline case reports the same figure).
 */
let firstTouchUs: number | null = null;
export function firstTouchMicros(): number {
  firstTouchUs ??= measureFirstTouch();
  return firstTouchUs;
}

function measureFirstTouch(): number {
  const PAGE = 4096, BYTES = 64 * 1024 * 1024;
  const runs: number[] = [];
  for (let r = 0; r < 3; r++) {
    const bytes = new Uint8Array(BYTES);
    const t0 = performance.now();
    for (let i = 0; i < BYTES; i += PAGE) bytes[i] = 1;
    runs.push(((performance.now() - t0) * 1000) / (BYTES / PAGE));
  }
  return median(runs);
}

/** The phases of one cold run from its --timings table (ms), and the share not in OpenCascade's reads. */
export function coldPhases(lines: readonly TimingLine[], stderr: string): { phases: Record<string, number>; nonOcctShare: number; nonOcctShareMax: number } {
  const took = (name: string): number => lines.filter((l) => l.phase === name).reduce((n, l) => n + (l.tookMs ?? 0), 0);
  const done = lines.find((l) => l.phase === 'done')?.fromMs ?? NaN;
  const sum = (re: RegExp): number => [...stderr.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0);
  // The inputs' own reads fall in their read phases; refinement's (finer tessellations) in their checks.
  const refineReads = sum(/OpenCascade's reads (\d+) \(refinement's/g);
  const reads = sum(/OpenCascade's reads (\d+)/g) - refineReads;
  const open = took('  read and import');
  const check = took('  check');
  const phases: Record<string, number> = {
    'start-up and loading': took('node start-up') + took('load the program') + took('start-up and loading'),
    'read and import': open,
    "OpenCascade's reads": reads,
    trees: took('  trees'),
    check,
    ...(refineReads > 0 ? { "refinement's OpenCascade reads": refineReads } : {}),
    report: took('  report'),
    wall: done,
  };
  // Reads added up over workers can exceed their phase's wall time: at most the phase is OpenCascade's.
  const occt = Math.min(reads, open) + Math.min(refineReads, check);
  // At most: as if the workers' reads had overlapped as much as they could.
  const workers = Math.max(1, Number(/(\d+) worker\(s\)/.exec(stderr)?.[1] ?? 1));
  const occtLeast = Math.min(reads / workers, open) + Math.min(refineReads / workers, check);
  return { phases, nonOcctShare: done > 0 ? 1 - occt / done : NaN, nonOcctShareMax: done > 0 ? 1 - occtLeast / done : NaN };
}

/** "48 %", or "1–19 %" when parallel reads leave the share between two bounds. */
function shareRange(least: number, most: number): string {
  const a = (100 * least).toFixed(0), b = (100 * most).toFixed(0);
  return a === b ? `${a} %` : `${a}–${b} %`;
}

export function renderPipeline(records: readonly PipelineRecord[]): string {
  const lines = ['', '== pipeline (cold process: the command line from start to report; all-pairs: broad phase + exact triangle pairs, trees built) =='];
  for (const r of records) {
    lines.push(
      `${r.scenario}: ${r.description}\n` +
        `  cold ${r.cold_ms} ms (target ${r.cold_target_ms} ms; runs ${r.cold_ms_all.join(', ')}), peak RSS ${r.cold_peak_rss_mb} MB\n` +
        `  memory first touched: ${r.cold_minor_faults.toLocaleString('en-US')} page faults, at ${r.page_fault_us} µs each on this machine about ${r.cold_fault_ms_est} ms of CPU over all threads\n` +
        `  cold phases (medians, ms): ${Object.entries(r.cold_phases_ms).map(([k, v]) => `${k} ${v}`).join(', ')}; ` +
        `not OpenCascade's reads ${shareRange(r.cold_non_occt_share, r.cold_non_occt_share_max)} of the wall time (target ≤ 20 % for CAD files)\n` +
        (r.refine_ratio !== null
          ? `  refinement: cold ${r.cold_ms} ms on against ${r.cold_refine_off_ms} ms off = ${r.refine_ratio}× (target ≤ ${r.refine_ratio_target}×)\n`
          : '') +
        `  all-pairs phase ${r.all_pairs_ms} ms (broad phase ${r.broad_phase_ms} ms + exact pairs ${r.collide_ms} ms over ${r.candidate_pairs} candidate pairs); ` +
        `classification ${r.classify_ms} ms; whole check ${r.check_ms} ms`,
    );
  }
  return lines.join('\n');
}
