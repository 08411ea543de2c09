// `npm run bench`: runs the registered strategies over the mesh-vs-mesh scenarios (by default the
// generated set of ./generate.ts, checked against ./reference.json; or any scenarios.json given
// with --scenarios) following the runner protocol of bench/README.md, prints one JSON line per
// scenario × strategy, then a human-readable table.

import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { perPoseHash, median, renderReport, round } from './report';
import type { BenchRecord, BenchSources, ScenarioSummary } from './report';
import { BenchInputError, cloneMesh, loadPeers, loadPeersFile, loadScenarios, meshPath, readStlFile } from './scenarios';
import type { ExactCounts, PeerScenario, Scenario, ScenarioFile } from './scenarios';
import { BENCH_DATA_DIR, ensureBenchData } from './generate';
import { fileSha256, loadReference, referenceMismatch, REFERENCE_FILE } from './reference';
import { ENGINE_IMPL, isNative, nativeStrategies, optInStrategies, strategies, strategyName } from './strategies';
import { PIPELINE_CASES, renderPipeline, runPipelineCase, type PipelineRecord } from './pipeline';
import { DEFAULT_LOAD, renderLoad, runLoad } from './load';
import type { AnyStrategy, PreparedMesh, StrategyRun } from './strategies';
import { fclArgs, fclDumpArgs, prepareFclRunner, runRecordProcess } from './fcl';
import type { FclRunner, NativeStrategy, ProcessOutcome } from './fcl';

const HELP = `Usage: npm run bench -- [options]      (or: npx tsx bench/run.ts [options])

Runs every selected strategy on every selected scenario of the mesh-vs-mesh benchmark (scenarios,
runner protocol and data: bench/README.md), each (strategy, scenario) in a fresh process of its own
unless --no-fresh. For each scenario × strategy it prints one JSON object on its own line to stdout;
after all of them, unless --json-only, a human-readable table follows on stdout. Progress notes go
to stderr.

The strategies are the engine's, three-mesh-bvh's and FCL's (fcl/obbrss, fcl/obb: the native runner
bench/native/fcl_runner.cpp, built on first use by bench/native/build.mjs, as \`npm run bench:native\`
does, when FCL is installed — Debian: libfcl-dev; without it the FCL rows are skipped with a note).

By default the scenarios are the generated set in bench-data/ (written by bench/generate.ts, as
\`npm run bench:data\` does, on first use): their counts are checked against the exact reference
counts of bench/reference.json, and the peers' figures beside them come from bench/peers.json,
measured on the original scenario set (meshes of the same kinds, not the same bytes).

Options:
  --scenarios PATH     another scenarios.json to read instead; meshes and peers.json resolve
                       relative to its folder, and its peers.json (when there is one) gives the
                       exact counts and the peers' figures of those very meshes (a file written
                       by bench/generate.ts is checked like the default set)
  --scenario NAME      run only this scenario (repeatable; default: all)
  --strategy NAME      run only this strategy (repeatable; default: all registered). Names:
                       the engine's variants (e.g. obb, obb-ts, aabb, hybrid; 'interfere' selects them
                       all) and peers as impl/variant (three-mesh-bvh/default, three-mesh-bvh/sah,
                       three-mesh-bvh/leaf1, fcl/obbrss, fcl/obb; 'three-mesh-bvh' and 'fcl'
                       select all their variants)
  --reps N             repetitions within each process: rebuild both trees and rerun every pose;
                       medians are reported (default: 3)
  --no-fresh           run the in-process strategies one after another in this process instead
                       of one fresh process per (strategy, scenario) (--fresh, the default).
                       FCL always runs in a process of its own
  --warmup N           untimed rounds before the reps, each a build of both trees and up to 8
                       evenly spaced poses, so that every strategy is timed after the JIT has
                       compiled it (default: 1; 0 times cold code)
  --pose-stride S      run only poses 0, S, 2S, … (counts are then checked pose by pose against
                       the per-pose exact counts)
  --dump-pairs FILE --pose K
                       instead of timing, write the sorted "iA iB" pairs of pose K (index into
                       the scenario's full pose list) of the one selected scenario to FILE; with
                       several strategies selected, FILE gets a per-strategy suffix
  --pipeline NAME      run this whole-file pipeline case (repeatable: ${PIPELINE_CASES.map((c) => c.name).join(', ')}):
                       the command line on a cold process from start to report (median of --reps
                       runs, its phases, peak RSS, and its page faults with what a first touch of
                       a page costs on this machine), and the all-pairs phase with trees built.
                       Given alone, only pipeline cases run; by default they run after the mesh
                       scenarios unless --scenario or --strategy narrows the run
  --no-pipeline        skip the pipeline cases
  --load               instead of the above, the load benchmark (bench/load.ts): a generated
                       assembly (default ${DEFAULT_LOAD.parts.toLocaleString('en-US')} parts, ${DEFAULT_LOAD.triangles.toLocaleString('en-US')} triangles: boxes, spheres
                       and tori in a grid, pairs clear, touching or overlapping) checked all-pairs
                       as the command line checks it (time and RSS per phase, pair counts, peak
                       RSS); then the command line on it in a cold process (time, peak RSS of the
                       command and of its tree-building children); then ${DEFAULT_LOAD.batch} saved assemblies
                       made of slices of it, checked by one command. One JSON line, then a summary
  --load-parts N       parts of the load assembly (default ${DEFAULT_LOAD.parts})
  --load-triangles N   triangles in total, shared equally by the parts (default ${DEFAULT_LOAD.triangles})
  --load-batch N       saved assemblies of the batch command (default ${DEFAULT_LOAD.batch})
  --load-dir DIR       write the generated files there and keep them (default: a temporary
                       folder, removed afterwards)
  --json-only          print only the JSON lines (stdout stays machine-readable)
  --help               this text

JSON fields: impl, variant, version, scenario, query, triangles [nA, nB], poses (number run), reps,
build_ms, query_ms (medians over reps; build = both trees from in-memory triangles, query = all
poses), build_ms_all, query_ms_all, contacts, per_pose, per_pose_hash (FNV-1a 32-bit of the
per-pose counts joined by ','), per_pose_ms (fastest rep), peak_rss_mb (peak RSS of the process that
ran it: its own with --fresh, else this one so far, shared by all strategies), model_bytes, model_bytes_per_tri, model_bytes_note, and
also box_tests and tri_tests (one run over all poses; null when not counted) and exact_contacts_ok
(vs the exact counts of bench/reference.json, or of --scenarios' peers.json; null without them).

Table: per scenario, build and query ms, contacts (✓/✗ against the exact count), box and triangle
tests, model bytes per triangle, and query/build time ratios to fcl/obbrss (when it ran) and to the
fastest three-mesh-bvh variant run on that scenario, all measured in this run; then a line saying whether every strategy's counts equal the reference (a
line starting FAIL when an engine strategy's do not, or when the reference does not apply to the
data: changed meshes or poses); then the peers' RAPID, PQP and FCL figures (measured elsewhere, see
above) beside them, related through the same three-mesh-bvh variant; geomeans over the timed
scenarios at the end. Scenarios with "timing": false (boxes-touching) report counts only.

Load JSON fields (--load): parts, triangles, files_mb, generate_ms, relations (row pairs clear,
touching, overlapping), in_process (open_ms, trees_ms, broad_phase_ms, collide_ms, classify_ms,
check_ms, report_ms, total_ms, rss_mb_by_phase, peak_rss_mb), pairs (all, candidates, interference,
contact, clearance, ignored, contained, triangle_pairs), cli and batch (ms, exit, peak_rss_mb of the
command, tree_builder_rss_mb of each tree-building child and process_tree_rss_mb of all of them at
once, both sampled from /proc on Linux; batch also assemblies, parts_each, reports).

Exit status: 0 when every engine strategy ('${ENGINE_IMPL}') matches the exact contacts, 1 when one does
not or when the reference does not apply to a scenario run (peers that differ are reported but do not
fail the run), 2 on a usage or input error.`;

interface Options {
  /** null: the generated set. */
  scenariosPath: string | null;
  scenarioNames: string[];
  strategyNames: string[];
  reps: number;
  warmup: number;
  pipelineNames: string[];
  noPipeline: boolean;
  load: boolean;
  loadParts: number;
  loadTriangles: number;
  loadBatch: number;
  loadDir: string | null;
  poseStride: number;
  fresh: boolean;
  dumpPairs: string | null;
  pose: number | null;
  jsonOnly: boolean;
  help: boolean;
}

class UsageError extends Error {}

function positiveInt(flag: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min) throw new UsageError(`${flag} needs an integer ≥ ${min}, got '${text}'`);
  return Number(text);
}

function parseOptions(argv: string[]): Options {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        scenarios: { type: 'string' },
        scenario: { type: 'string', multiple: true },
        strategy: { type: 'string', multiple: true },
        reps: { type: 'string' },
        warmup: { type: 'string' },
        pipeline: { type: 'string', multiple: true },
        'no-pipeline': { type: 'boolean' },
        load: { type: 'boolean' },
        'load-parts': { type: 'string' },
        'load-triangles': { type: 'string' },
        'load-batch': { type: 'string' },
        'load-dir': { type: 'string' },
        'pose-stride': { type: 'string' },
        fresh: { type: 'boolean' },
        'no-fresh': { type: 'boolean' },
        'dump-pairs': { type: 'string' },
        pose: { type: 'string' },
        'json-only': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const dumpPairs = values['dump-pairs'] ?? null;
  const pose = positiveInt('--pose', values.pose, 0) ?? null;
  if ((dumpPairs === null) !== (pose === null)) throw new UsageError('--dump-pairs FILE and --pose K go together');
  const load = values.load ?? false;
  if (values.fresh && values['no-fresh']) throw new UsageError('--fresh and --no-fresh exclude each other');
  for (const flag of ['load-parts', 'load-triangles', 'load-batch', 'load-dir'] as const) {
    if (values[flag] !== undefined && !load) throw new UsageError(`--${flag} goes with --load`);
  }
  const loadParts = positiveInt('--load-parts', values['load-parts'], 2) ?? DEFAULT_LOAD.parts;
  return {
    scenariosPath: values.scenarios !== undefined ? path.resolve(process.cwd(), values.scenarios) : null,
    scenarioNames: values.scenario ?? [],
    strategyNames: values.strategy ?? [],
    reps: positiveInt('--reps', values.reps, 1) ?? 3,
    warmup: positiveInt('--warmup', values.warmup, 0) ?? 1,
    pipelineNames: values.pipeline ?? [],
    noPipeline: values['no-pipeline'] ?? false,
    load,
    loadParts,
    loadTriangles: positiveInt('--load-triangles', values['load-triangles'], 12 * loadParts) ?? DEFAULT_LOAD.triangles,
    loadBatch: Math.min(loadParts, positiveInt('--load-batch', values['load-batch'], 1) ?? DEFAULT_LOAD.batch),
    loadDir: values['load-dir'] !== undefined ? path.resolve(process.cwd(), values['load-dir']) : null,
    poseStride: positiveInt('--pose-stride', values['pose-stride'], 1) ?? 1,
    fresh: !(values['no-fresh'] ?? false),
    dumpPairs,
    pose,
    jsonOnly: values['json-only'] ?? false,
    help: values.help ?? false,
  };
}

function selectStrategies(names: string[]): AnyStrategy[] {
  if (names.length === 0) return [...strategies, ...nativeStrategies];
  const picked = new Set<AnyStrategy>();
  const all: AnyStrategy[] = [...strategies, ...optInStrategies, ...nativeStrategies];
  for (const name of names) {
    const hits = all.filter(
      (s) =>
        strategyName(s) === name ||
        `${s.impl}/${s.variant}` === name ||
        (s.impl === name && !optInStrategies.some((o) => o === s)),
    );
    if (hits.length === 0) {
      throw new UsageError(`unknown strategy '${name}'; registered: ${all.map(strategyName).join(', ')}`);
    }
    for (const s of hits) picked.add(s);
  }
  // Keep registry order.
  return all.filter((s) => picked.has(s));
}

function selectScenarios(all: Scenario[], names: string[]): Scenario[] {
  if (names.length === 0) return all;
  for (const name of names) {
    if (!all.some((s) => s.name === name)) {
      throw new UsageError(`unknown scenario '${name}'; available: ${all.map((s) => s.name).join(', ')}`);
    }
  }
  return all.filter((s) => names.includes(s.name));
}

function note(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** Both meshes of a scenario, parsed once; meshB never shares arrays with meshA. */
function loadMeshes(file: ReturnType<typeof loadScenarios>, s: Scenario): [PreparedMesh, PreparedMesh] {
  const a = readStlFile(meshPath(file, s.meshA));
  const b = s.meshB === s.meshA ? cloneMesh(a) : readStlFile(meshPath(file, s.meshB));
  return [a, b];
}

function sameCounts(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Agreement of the counts of the poses run with the exact reference; null without one. */
function checkExact(perPose: number[], poseIndices: number[], total: number, exact: ExactCounts | undefined): boolean | null {
  if (!exact || exact.perPose.length !== total) return null;
  if (poseIndices.length === total) {
    const contacts = perPose.reduce((a, b) => a + b, 0);
    return contacts === exact.exactContacts && perPoseHash(perPose) === exact.perPoseHash && sameCounts(perPose, exact.perPose);
  }
  return perPose.every((count, j) => count === exact.perPose[poseIndices[j]]);
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const RUN_SCRIPT = fileURLToPath(import.meta.url);

/** The triangle count in a binary STL's header (the file is checked when a runner reads it). */
function stlTriangleCount(file: string): number {
  const header = Buffer.alloc(84);
  const fd = openSync(file, 'r');
  try {
    if (readSync(fd, header, 0, 84, 0) < 84) throw new BenchInputError(`${file}: too short for a binary STL`);
  } finally {
    closeSync(fd);
  }
  return header.readUInt32LE(80);
}

/** The command line of a fresh process running one in-process strategy on one scenario. */
function freshArgs(scenariosFile: string, scenario: string, strategy: string, opts: Options): string[] {
  return [
    '--import', 'tsx', RUN_SCRIPT, '--no-fresh', '--json-only', '--no-pipeline',
    '--scenarios', scenariosFile, '--scenario', scenario, '--strategy', strategy,
    '--reps', String(opts.reps), '--warmup', String(opts.warmup), '--pose-stride', String(opts.poseStride),
  ];
}

/**
 * A record from another process, with its counts checked here against the same exact reference as
 * in-process records (and its own verdict, and a native runner's rep-to-rep consistency, kept).
 */
function recheck(r: BenchRecord, s: Scenario, poseIndices: number[], exact: ExactCounts | undefined): BenchRecord {
  if (r.poses !== poseIndices.length) throw new Error(`${strategyName(r)} on ${s.name}: ran ${r.poses} poses, not ${poseIndices.length}`);
  if (s.query === 'any' && r.per_pose.some((c) => c !== 0 && c !== 1)) {
    throw new Error(`${strategyName(r)} on ${s.name}: an 'any' query must count 0 or 1`);
  }
  const ok = checkExact(r.per_pose, poseIndices, s.poses.length, exact);
  return { ...r, exact_contacts_ok: ok === null ? null : ok && r.exact_contacts_ok !== false && r.reps_consistent !== false };
}

function runOne(
  strategy: StrategyRun,
  scenario: Scenario,
  meshA: PreparedMesh,
  meshB: PreparedMesh,
  poseIndices: number[],
  reps: number,
  warmup: number,
  exact: ExactCounts | undefined,
): BenchRecord {
  const poses = poseIndices.map((k) => scenario.poses[k]);
  // Untimed warm-up: a build and a few evenly spaced poses.
  const warmPoses = poses.filter((_, j) => j % Math.max(1, Math.ceil(poses.length / 8)) === 0);
  for (let w = 0; w < warmup; w++) {
    const state: unknown = strategy.build(meshA, meshB);
    for (const pose of warmPoses) strategy.query(state, pose, scenario.query);
    strategy.dispose?.(state);
  }
  const buildAll: number[] = [];
  const queryAll: number[] = [];
  let counts: number[] = [];
  let consistent = true;
  let fastestPerPose: number[] = [];
  let boxTests: number | null = null;
  let triTests: number | null = null;
  let model = { bytes: 0, note: '' };

  for (let rep = 0; rep < reps; rep++) {
    const b0 = performance.now();
    const state: unknown = strategy.build(meshA, meshB);
    const b1 = performance.now();

    const repCounts = new Array<number>(poses.length);
    const perPoseMs = new Array<number>(poses.length);
    let box: number | null = 0;
    let tri: number | null = 0;
    const q0 = performance.now();
    let prev = q0;
    for (let j = 0; j < poses.length; j++) {
      const result = strategy.query(state, poses[j], scenario.query);
      const now = performance.now();
      perPoseMs[j] = now - prev;
      prev = now;
      repCounts[j] = result.count;
      box = box === null || result.boxTests === undefined ? null : box + result.boxTests;
      tri = tri === null || result.triTests === undefined ? null : tri + result.triTests;
    }
    const queryMs = prev - q0;

    buildAll.push(b1 - b0);
    queryAll.push(queryMs);
    if (rep === 0) {
      counts = repCounts;
      boxTests = box;
      triTests = tri;
    } else if (!sameCounts(counts, repCounts)) {
      consistent = false;
      note(`warning: ${strategyName(strategy)} on ${scenario.name}: rep ${rep} gave different per-pose counts than rep 0`);
    }
    if (queryMs <= Math.min(...queryAll)) fastestPerPose = perPoseMs;
    if (rep === reps - 1) model = strategy.modelBytes(state);
    strategy.dispose?.(state);
  }

  if (scenario.query === 'any' && counts.some((c) => c !== 0 && c !== 1)) {
    throw new Error(`${strategyName(strategy)} on ${scenario.name}: an 'any' query must count 0 or 1`);
  }
  const contacts = counts.reduce((a, b) => a + b, 0);
  const exactOk = checkExact(counts, poseIndices, scenario.poses.length, exact);
  const triangles: [number, number] = [meshA.triangleCount, meshB.triangleCount];
  return {
    impl: strategy.impl,
    variant: strategy.variant,
    version: strategy.version,
    scenario: scenario.name,
    query: scenario.query,
    triangles,
    poses: poses.length,
    reps,
    build_ms: round(median(buildAll), 3),
    query_ms: round(median(queryAll), 3),
    build_ms_all: buildAll.map((v) => round(v, 3)),
    query_ms_all: queryAll.map((v) => round(v, 3)),
    contacts,
    per_pose: counts,
    per_pose_hash: perPoseHash(counts),
    per_pose_ms: fastestPerPose.map((v) => round(v, 4)),
    peak_rss_mb: round(process.resourceUsage().maxRSS / 1024, 1),
    model_bytes: model.bytes,
    model_bytes_per_tri: round(model.bytes / (triangles[0] + triangles[1]), 1),
    model_bytes_note: model.note,
    box_tests: boxTests,
    tri_tests: triTests,
    exact_contacts_ok: exactOk === null ? null : exactOk && consistent,
  };
}

function dumpPairs(
  file: string,
  pose: number,
  selected: StrategyRun[],
  natives: { strategies: NativeStrategy[]; runner: FclRunner | null; scenariosFile: string },
  scenario: Scenario,
  loadPair: () => [PreparedMesh, PreparedMesh],
  exact: ExactCounts | undefined,
): boolean {
  if (pose >= scenario.poses.length) {
    throw new UsageError(`--pose ${pose}: ${scenario.name} has poses 0…${scenario.poses.length - 1}`);
  }
  const able = selected.filter((s) => s.pairs);
  const runner = natives.runner?.ok ? natives.runner : null;
  const nativeAble = runner ? natives.strategies : [];
  if (able.length + nativeAble.length === 0) throw new UsageError('none of the selected strategies can list pairs');
  const several = able.length + nativeAble.length > 1;
  const targetOf = (strategy: { impl: string; variant: string }): string => {
    let target = path.resolve(file);
    if (several) {
      const ext = path.extname(target);
      target = `${target.slice(0, target.length - ext.length)}.${strategyName(strategy).replace(/\//g, '-')}${ext}`;
    }
    mkdirSync(path.dirname(target), { recursive: true });
    return target;
  };
  const want = exact?.perPose[pose];
  const report = (strategy: { impl: string; variant: string }, count: number, target: string): boolean => {
    const good = want === undefined ? null : want === count;
    note(
      `${strategyName(strategy)} on ${scenario.name} pose ${pose}: ${count} pairs` +
        `${want === undefined ? '' : ` (exact ${want} ${good ? '✓' : '✗'})`} → ${target}`,
    );
    return good !== false || strategy.impl !== ENGINE_IMPL;
  };
  let ok = true;
  const meshes = able.length > 0 ? loadPair() : null;
  for (const strategy of able) {
    if (!meshes) break;
    const state = strategy.build(meshes[0], meshes[1]);
    const flat = strategy.pairs?.(state, scenario.poses[pose]) ?? new Uint32Array(0);
    const pairs: [number, number][] = [];
    for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
    pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    const target = targetOf(strategy);
    writeFileSync(target, pairs.map((p) => `${p[0]} ${p[1]}\n`).join(''));
    if (!report(strategy, pairs.length, target)) ok = false;
  }
  for (const strategy of nativeAble) {
    if (!runner) break;
    const target = targetOf(strategy);
    const r = spawnSync(
      runner.binary,
      fclDumpArgs({ scenariosFile: natives.scenariosFile, scenario: scenario.name, variant: strategy.variant, file: target, pose }),
      { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
    );
    if (r.status !== 0) {
      note(`MISSING: ${strategyName(strategy)} could not list the pairs: ${(r.stderr ?? '').trim() || `status ${String(r.status)}`}`);
      continue;
    }
    const count = readFileSync(target, 'utf8').split('\n').filter((l) => l !== '').length;
    report(strategy, count, target);
  }
  return ok;
}

const PEERS_FILE = fileURLToPath(new URL('./peers.json', import.meta.url));

/**
 * The exact counts and the peers' figures for the selected scenarios. The generated set (it has
 * a generatorVersion): bench/reference.json, after checking that it was computed on these very
 * meshes and poses, and bench/peers.json, looked up by each scenario's peersScenario. Any other
 * scenarios.json: the peers.json in its folder, if any, for both.
 */
function benchSources(file: ScenarioFile, selected: readonly Scenario[]): BenchSources {
  const exact = new Map<string, ExactCounts>();
  const exactProblems = new Map<string, string>();
  const peers = new Map<string, PeerScenario>();
  if (file.generatorVersion !== null) {
    const exactSource = path.relative(process.cwd(), REFERENCE_FILE) || REFERENCE_FILE;
    const ref = loadReference();
    const hashes = new Map<string, string>();
    const sha = (p: string): string => {
      let h = hashes.get(p);
      if (h === undefined) {
        h = fileSha256(p);
        hashes.set(p, h);
      }
      return h;
    };
    for (const s of selected) {
      const entry = ref?.scenarios.find((e) => e.name === s.name);
      const problem = !ref
        ? `${REFERENCE_FILE} is missing`
        : ref.generatorVersion !== file.generatorVersion
          ? `it was computed for generator version ${ref.generatorVersion}, the data is version ${file.generatorVersion} (npx tsx bench/reference.ts recomputes it)`
          : !entry
            ? `it has no counts for ${s.name}`
            : referenceMismatch(ref, entry, file, s, sha);
      if (problem !== null) exactProblems.set(s.name, problem);
      else if (entry) exact.set(s.name, entry);
    }
    const peersFile = loadPeersFile(PEERS_FILE);
    for (const s of selected) {
      const p = peersFile?.scenarios.find((x) => x.name === s.peersScenario);
      if (p) peers.set(s.name, p);
    }
    return {
      exact, exactSource, exactProblems, peers, peersFile,
      peersSource: path.relative(process.cwd(), PEERS_FILE) || PEERS_FILE,
      peersElsewhere: true,
    };
  }
  const peersFile = loadPeers(file);
  const peersPath = path.join(file.dir, 'peers.json');
  if (!peersFile) note(`note: no peers.json next to ${file.file}; contacts are not checked`);
  for (const p of peersFile?.scenarios ?? []) {
    peers.set(p.name, p);
    if (Array.isArray(p.perPose)) exact.set(p.name, { exactContacts: p.exactContacts, perPoseHash: p.perPoseHash, perPose: p.perPose });
  }
  return { exact, exactSource: peersPath, exactProblems, peers, peersFile, peersSource: peersPath, peersElsewhere: false };
}

async function main(argv: string[]): Promise<number> {
  const opts = parseOptions(argv);
  if (opts.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (opts.load) {
    const record = await runLoad({
      parts: opts.loadParts, triangles: opts.loadTriangles, batch: opts.loadBatch, dir: opts.loadDir, root: process.cwd(),
    });
    process.stdout.write(`${JSON.stringify(record)}\n`);
    if (!opts.jsonOnly) process.stdout.write(`${renderLoad(record)}\n`);
    return 0;
  }
  const file = loadScenarios(opts.scenariosPath ?? ensureBenchData(BENCH_DATA_DIR, note));
  const selectedScenarios = selectScenarios(file.scenarios, opts.scenarioNames);
  const sources = benchSources(file, selectedScenarios);
  for (const s of selectedScenarios) {
    const problem = sources.exactProblems.get(s.name);
    if (problem) note(`FAIL: ${sources.exactSource} does not apply to ${s.name}: ${problem}`);
  }
  const exactByName = sources.exact;
  const selectedStrategies = selectStrategies(opts.strategyNames);
  if (selectedStrategies.length === 0) throw new UsageError('no strategy is registered');
  const natives = selectedStrategies.filter(isNative);

  for (const name of opts.pipelineNames) {
    if (!PIPELINE_CASES.some((c) => c.name === name)) {
      throw new UsageError(`unknown pipeline case '${name}'; available: ${PIPELINE_CASES.map((c) => c.name).join(', ')}`);
    }
  }
  const onlyPipeline = opts.pipelineNames.length > 0 && opts.scenarioNames.length === 0 && opts.strategyNames.length === 0;
  const runPipeline = !opts.noPipeline && (opts.pipelineNames.length > 0 || (opts.scenarioNames.length === 0 && opts.strategyNames.length === 0));

  // The FCL runner: built (or found up to date) now; when it cannot be, its rows are skipped.
  let fcl: FclRunner | null = null;
  let skippedNote: string | null = null;
  if (natives.length > 0 && !onlyPipeline) {
    fcl = prepareFclRunner({ log: note });
    if (!fcl.ok) {
      skippedNote = `note: ${natives.map(strategyName).join(' and ')} skipped: ${fcl.note}`;
      note(skippedNote);
    } else if (fcl.note) {
      note(fcl.note);
    }
  }

  if (opts.dumpPairs !== null && opts.pose !== null) {
    if (selectedScenarios.length !== 1) throw new UsageError('--dump-pairs needs exactly one --scenario');
    const s = selectedScenarios[0];
    const inProcess = selectedStrategies.filter((x): x is StrategyRun => !isNative(x));
    const nativeSide = { strategies: natives, runner: fcl, scenariosFile: file.file };
    return dumpPairs(opts.dumpPairs, opts.pose, inProcess, nativeSide, s, () => loadMeshes(file, s), exactByName.get(s.name)) ? 0 : 1;
  }

  const records: BenchRecord[] = [];
  const summaries: ScenarioSummary[] = [];
  /** Engine strategies that gave no result (a crashed child process): the run fails. */
  const lost: string[] = [];
  for (const s of onlyPipeline ? [] : selectedScenarios) {
    const poseIndices: number[] = [];
    for (let k = 0; k < s.poses.length; k += opts.poseStride) poseIndices.push(k);
    const exact = exactByName.get(s.name);
    // Parsed here only for the strategies run in this process.
    let meshes: [PreparedMesh, PreparedMesh] | null = null;
    const inThisProcess = (): [PreparedMesh, PreparedMesh] => {
      if (meshes) return meshes;
      const t0 = performance.now();
      meshes = loadMeshes(file, s);
      note(
        `${s.name}: ${meshes[0].triangleCount} × ${meshes[1].triangleCount} triangles parsed in ` +
          `${(performance.now() - t0).toFixed(0)} ms`,
      );
      return meshes;
    };
    summaries.push({
      name: s.name,
      query: s.query,
      timing: s.timing,
      poses: s.poses.length,
      triangles: [stlTriangleCount(meshPath(file, s.meshA)), stlTriangleCount(meshPath(file, s.meshB))],
      poseIndices,
    });
    for (const strategy of selectedStrategies) {
      const name = strategyName(strategy);
      let record: BenchRecord;
      if (!isNative(strategy) && !opts.fresh) {
        const [a, b] = inThisProcess();
        record = runOne(strategy, s, a, b, poseIndices, opts.reps, opts.warmup, exact);
      } else {
        let outcome: ProcessOutcome;
        if (isNative(strategy)) {
          if (!fcl?.ok) continue;
          note(`${s.name}: ${name} in a process of its own`);
          outcome = runRecordProcess(
            fcl.binary,
            fclArgs({ scenariosFile: file.file, scenario: s.name, variant: strategy.variant, reps: opts.reps, warmup: opts.warmup, poseStride: opts.poseStride }),
          );
        } else {
          outcome = runRecordProcess(process.execPath, freshArgs(file.file, s.name, name, opts), ROOT);
        }
        const got = outcome.records.find((r) => r.scenario === s.name && strategyName(r) === name);
        const problem = outcome.problem ?? (got ? null : `no result for ${name} on ${s.name} in its output`);
        if (problem !== null || !got) {
          const engine = strategy.impl === ENGINE_IMPL;
          note(`${engine ? 'FAIL' : 'MISSING'}: ${name} on ${s.name}: ${problem ?? 'no result'}`);
          if (engine) lost.push(`${name} on ${s.name}`);
          continue;
        }
        record = recheck(got, s, poseIndices, exact);
      }
      records.push(record);
      process.stdout.write(`${JSON.stringify(record)}\n`);
      if (isNative(strategy) || !opts.fresh) {
        note(
          `  ${name}: build ${record.build_ms.toFixed(1)} ms, query ${record.query_ms.toFixed(1)} ms, ` +
            `contacts ${record.contacts} ${record.exact_contacts_ok === null ? '' : record.exact_contacts_ok ? '✓' : '✗'}`,
        );
      }
    }
  }

  if (!opts.jsonOnly && records.length > 0) {
    const report = renderReport(records, summaries, sources);
    process.stdout.write(`${report}\n${skippedNote ? `\n${skippedNote}\n` : ''}`);
  }
  if (runPipeline) {
    const cases = opts.pipelineNames.length > 0 ? PIPELINE_CASES.filter((c) => opts.pipelineNames.includes(c.name)) : PIPELINE_CASES;
    const pipelineRecords: PipelineRecord[] = [];
    for (const c of cases) {
      note(`pipeline ${c.name}: ${c.description}`);
      const record = await runPipelineCase(c, opts.reps);
      pipelineRecords.push(record);
      process.stdout.write(`${JSON.stringify(record)}\n`);
    }
    if (!opts.jsonOnly) process.stdout.write(`${renderPipeline(pipelineRecords)}\n`);
  }
  const failed = records.filter((r) => r.impl === ENGINE_IMPL && r.exact_contacts_ok === false);
  let status = 0;
  if (lost.length > 0) {
    note(`FAIL: no result from ${lost.join(', ')}`);
    status = 1;
  }
  if (failed.length > 0) {
    note(`FAIL: engine contacts differ from ${sources.exactSource}: ${failed.map((r) => `${strategyName(r)} on ${r.scenario}`).join(', ')}`);
    status = 1;
  }
  const inapplicable = summaries.filter((s) => sources.exactProblems.has(s.name)).map((s) => s.name);
  if (inapplicable.length > 0) {
    note(`FAIL: ${sources.exactSource} does not apply to ${inapplicable.join(', ')}: their counts were not checked (see above)`);
    status = 1;
  }
  return status;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  if (e instanceof UsageError) {
    note(`bench: ${e.message} (see --help)`);
  } else if (e instanceof BenchInputError) {
    note(`bench: ${e.message}`);
  } else {
    note(`bench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }
  process.exitCode = 2;
}
