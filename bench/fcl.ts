// The native FCL runner (bench/native/fcl_runner.cpp) as benchmark strategies: fcl/obbrss and
// fcl/obb. Each (variant, scenario) runs in its own process of the runner, which prints one JSON line
// in the format of the TypeScript runners. The binary is built by bench/native/build.mjs (`npm run
// bench:native`, or `npm run bench` on first use) when FCL is installed (Debian: libfcl-dev); when it
// cannot be built the FCL strategies are skipped with a note, never failed.

import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRecord } from './report';

export const FCL_IMPL = 'fcl';
export const FCL_VARIANTS = ['obbrss', 'obb'] as const;
export type FclVariant = (typeof FCL_VARIANTS)[number];

/** A strategy run by a native process rather than in this one. */
export interface NativeStrategy {
  impl: typeof FCL_IMPL;
  variant: FclVariant;
  native: true;
}

export const fclStrategies: NativeStrategy[] = FCL_VARIANTS.map((variant) => ({ impl: FCL_IMPL, variant, native: true }));

export const NATIVE_DIR = fileURLToPath(new URL('./native/', import.meta.url));
export const BUILD_SCRIPT = path.join(NATIVE_DIR, 'build.mjs');
export const DEFAULT_FCL_BINARY = path.join(NATIVE_DIR, 'build', 'fcl_runner');

/** Environment variable naming a prebuilt runner to use instead of building one. */
export const FCL_RUNNER_ENV = 'BENCH_FCL_RUNNER';

export type FclRunner = { ok: true; binary: string; note: string | null } | { ok: false; note: string };

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The runner to use, building it when needed. With BENCH_FCL_RUNNER set, that file (it must be
 * executable; nothing is built). Otherwise bench/native/build.mjs builds `out` or finds it up to
 * date; when it skips (no FCL, no compiler) or fails, the FCL strategies are skipped and `note`
 * says why in one line.
 */
export function prepareFclRunner(
  options: { env?: NodeJS.ProcessEnv; out?: string; log?: (line: string) => void } = {},
): FclRunner {
  const env = options.env ?? process.env;
  const given = env[FCL_RUNNER_ENV];
  if (given !== undefined && given !== '') {
    const file = path.resolve(given);
    return executable(file)
      ? { ok: true, binary: file, note: null }
      : { ok: false, note: `${FCL_RUNNER_ENV}=${given} is not an executable file` };
  }
  const out = options.out ?? DEFAULT_FCL_BINARY;
  const r = spawnSync(process.execPath, [BUILD_SCRIPT, '--out', out], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const line of (r.stderr ?? '').split('\n')) if (line.trim() !== '') options.log?.(line);
  const lines = (r.stdout ?? '').split('\n').filter((l) => l.trim() !== '');
  const last = lines.at(-1) ?? (r.error ? `cannot run ${BUILD_SCRIPT}: ${r.error.message}` : 'no output from the build');
  if (r.status !== 0 || r.error) return { ok: false, note: last };
  if (/^FCL runner (built|up to date)/.test(last) && executable(out)) {
    return { ok: true, binary: out, note: /^FCL runner built/.test(last) ? last : null };
  }
  return { ok: false, note: last };
}

/** Arguments for one (variant, scenario) run of the native runner. */
export function fclArgs(o: {
  scenariosFile: string;
  scenario: string;
  variant: FclVariant;
  reps: number;
  warmup: number;
  poseStride: number;
}): string[] {
  const args = ['--scenarios', o.scenariosFile, '--scenario', o.scenario, '--variant', o.variant, '--reps', String(o.reps), '--warmup', String(o.warmup)];
  if (o.poseStride !== 1) args.push('--pose-stride', String(o.poseStride));
  return args;
}

/** Arguments for writing the pairs of one pose. */
export function fclDumpArgs(o: { scenariosFile: string; scenario: string; variant: FclVariant; file: string; pose: number }): string[] {
  return ['--scenarios', o.scenariosFile, '--scenario', o.scenario, '--variant', o.variant, '--dump-pairs', o.file, '--pose', String(o.pose)];
}

const NUMBER_FIELDS = ['poses', 'reps', 'build_ms', 'query_ms', 'contacts', 'peak_rss_mb', 'model_bytes', 'model_bytes_per_tri'] as const;

/**
 * One record from a runner's JSON line, checked for the protocol's fields; throws with the reason
 * when the line is not one.
 */
export function parseRecordLine(line: string): BenchRecord {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (e) {
    throw new Error(`not a JSON line (${(e as Error).message}): ${line.slice(0, 120)}`, { cause: e });
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`not a JSON object: ${line.slice(0, 120)}`);
  const r = raw as Record<string, unknown>;
  for (const f of ['impl', 'variant', 'version', 'scenario', 'per_pose_hash', 'model_bytes_note'] as const) {
    if (typeof r[f] !== 'string') throw new Error(`field ${f} is missing or not a string`);
  }
  if (r.query !== 'all' && r.query !== 'any') throw new Error('field query must be "all" or "any"');
  for (const f of NUMBER_FIELDS) if (typeof r[f] !== 'number') throw new Error(`field ${f} is missing or not a number`);
  for (const f of ['triangles', 'build_ms_all', 'query_ms_all', 'per_pose', 'per_pose_ms'] as const) {
    if (!Array.isArray(r[f]) || !(r[f] as unknown[]).every((x) => typeof x === 'number')) throw new Error(`field ${f} is missing or not a list of numbers`);
  }
  if ((r.triangles as number[]).length !== 2) throw new Error('field triangles must be [nA, nB]');
  if ((r.per_pose as number[]).length !== r.poses) throw new Error(`per_pose has ${(r.per_pose as number[]).length} counts for ${String(r.poses)} poses`);
  for (const f of ['box_tests', 'tri_tests'] as const) if (r[f] !== null && typeof r[f] !== 'number') throw new Error(`field ${f} must be a number or null`);
  if (r.exact_contacts_ok !== null && typeof r.exact_contacts_ok !== 'boolean') throw new Error('field exact_contacts_ok must be a boolean or null');
  if (r.reps_consistent !== undefined && typeof r.reps_consistent !== 'boolean') throw new Error('field reps_consistent must be a boolean');
  return r as unknown as BenchRecord;
}

/** The records a runner printed on stdout: every line that starts with '{'. */
export function parseRecords(stdout: string): BenchRecord[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map(parseRecordLine);
}

export interface ProcessOutcome {
  records: BenchRecord[];
  /** Why no usable record came back, or null. */
  problem: string | null;
}

/**
 * Runs a command that prints records (the native runner, or run.ts for one in-process strategy);
 * its stderr goes to ours. A non-zero exit with records is not a problem here: the caller checks
 * the counts itself.
 */
export function runRecordProcess(command: string, args: string[], cwd?: string): ProcessOutcome {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 256 * 1024 * 1024 });
  if (r.error) return { records: [], problem: `cannot run ${command}: ${r.error.message}` };
  let records: BenchRecord[];
  try {
    records = parseRecords(r.stdout ?? '');
  } catch (e) {
    return { records: [], problem: `unreadable output: ${(e as Error).message}` };
  }
  if (records.length === 0) {
    const how = r.signal ? `was killed by ${r.signal}` : `exited with status ${String(r.status)}`;
    return { records, problem: `${path.basename(command)} ${how} without a result` };
  }
  return { records, problem: null };
}
