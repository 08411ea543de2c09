// Pipeline benchmarks of `npm run bench`: whole files through the command line in a cold process,
// and the all-pairs phase alone with trees already built.

import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareCheck, runPreparedCheck } from '../src-main/services/checkService';
import { createImporter } from '../src-main/services/importers';
import { median } from './report';

export interface PipelineCase {
  readonly name: string;
  readonly description: string;
  readonly input: string;
  /** Target for the cold run, from the pipeline issue (ms). */
  readonly coldTargetMs: number;
}

export const PIPELINE_CASES: readonly PipelineCase[] = [
  {
    name: 'as1-step-to-json',
    description: 'AS1 STEP (18 parts, 5,040 triangles) → JSON report',
    input: 'assets/samples/as1-oc-214.stp',
    coldTargetMs: 1500,
  },
  {
    name: 'so101-assembly',
    description: 'SO-101 robot (17 placements of 13 STL meshes, 398,884 triangles) → JSON report',
    input: 'test/data/assemblies/so101-zero.assembly.json',
    coldTargetMs: 3000,
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
  const cold: number[] = [];
  let rss = 0;
  try {
    for (let r = 0; r < reps; r++) {
      const t0 = performance.now();
      const run = spawnSync(process.execPath, ['--require', probe, cli, 'check', path.resolve(root, c.input), '--report', path.join(dir, 'report.json'), '--quiet'], { encoding: 'utf8' });
      cold.push(performance.now() - t0);
      if (run.status !== 0 && run.status !== 1) throw new Error(`${c.name}: interfere exited with ${run.status}: ${run.stderr}`);
      const m = /BENCH_PEAK_RSS_MB ([\d.]+)/.exec(run.stderr);
      if (m) rss = Math.max(rss, Number(m[1]));
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
    all_pairs_ms: round(median(allPairs)),
    all_pairs_ms_all: allPairs.map(round),
    broad_phase_ms: round(median(broad)),
    collide_ms: round(median(collide)),
    classify_ms: round(median(classify)),
    check_ms: round(median(total)),
    candidate_pairs: candidates,
    triangles: prepared.parts.reduce((s, p) => s + p.mesh.triangleCount, 0),
    parts: prepared.parts.length,
  };
}

export function renderPipeline(records: readonly PipelineRecord[]): string {
  const lines = ['', '== pipeline (cold process: the command line from start to report; all-pairs: broad phase + exact triangle pairs, trees built) =='];
  for (const r of records) {
    lines.push(
      `${r.scenario}: ${r.description}\n` +
        `  cold ${r.cold_ms} ms (target ${r.cold_target_ms} ms; runs ${r.cold_ms_all.join(', ')}), peak RSS ${r.cold_peak_rss_mb} MB\n` +
        `  all-pairs phase ${r.all_pairs_ms} ms (broad phase ${r.broad_phase_ms} ms + exact pairs ${r.collide_ms} ms over ${r.candidate_pairs} candidate pairs); ` +
        `classification ${r.classify_ms} ms; whole check ${r.check_ms} ms`,
    );
  }
  return lines.join('\n');
}
