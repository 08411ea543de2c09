// The FCL runner's TypeScript side: its arguments, reading its output, and skipping it when FCL is
// not installed. Nothing here needs FCL; the last group runs the native runner only when it has been
// built (npm run bench:native).

import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BUILD_SCRIPT, DEFAULT_FCL_BINARY, FCL_RUNNER_ENV, fclArgs, fclDumpArgs, fclStrategies, parseRecordLine, parseRecords, prepareFclRunner,
  runRecordProcess,
} from '../../bench/fcl';
import { ensureBenchData } from '../../bench/generate';
import { loadReference } from '../../bench/reference';
import { perPoseHash } from '../../bench/report';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-fcl-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** An environment in which pkg-config cannot be found: as on a machine without libfcl-dev. */
const NO_FCL: NodeJS.ProcessEnv = { ...process.env, PKG_CONFIG: path.join(tmp, 'no-such-pkg-config') };
delete NO_FCL[FCL_RUNNER_ENV];

const line = (over: Record<string, unknown> = {}): string =>
  JSON.stringify({
    impl: 'fcl', variant: 'obbrss', version: '0.7.0', scenario: 'boxes-touching', query: 'all', triangles: [48, 48], poses: 2, reps: 1,
    build_ms: 0.2, query_ms: 1.5, build_ms_all: [0.2], query_ms_all: [1.5], contacts: 204, per_pose: [0, 204], per_pose_hash: perPoseHash([0, 204]),
    per_pose_ms: [0.1, 1.4], peak_rss_mb: 10, model_bytes: 52576, model_bytes_per_tri: 547.7, model_bytes_note: 'both models',
    box_tests: 10, tri_tests: 5, exact_contacts_ok: null, reps_consistent: true, ...over,
  });

describe('FCL runner arguments and output', () => {
  it('registers fcl/obbrss and fcl/obb as native strategies', () => {
    expect(fclStrategies.map((s) => `${s.impl}/${s.variant}`)).toEqual(['fcl/obbrss', 'fcl/obb']);
    expect(fclStrategies.every((s) => s.native)).toBe(true);
  });

  it('passes one scenario and one variant per process, the reps and warm-up, and the stride only when sampling', () => {
    const base = { scenariosFile: '/d/scenarios.json', scenario: 'lumpy-random', variant: 'obb' as const, reps: 3, warmup: 1 };
    expect(fclArgs({ ...base, poseStride: 1 })).toEqual([
      '--scenarios', '/d/scenarios.json', '--scenario', 'lumpy-random', '--variant', 'obb', '--reps', '3', '--warmup', '1',
    ]);
    expect(fclArgs({ ...base, poseStride: 4 }).slice(-2)).toEqual(['--pose-stride', '4']);
    expect(fclDumpArgs({ scenariosFile: '/d/s.json', scenario: 'x', variant: 'obbrss', file: '/o/p.txt', pose: 7 })).toEqual([
      '--scenarios', '/d/s.json', '--scenario', 'x', '--variant', 'obbrss', '--dump-pairs', '/o/p.txt', '--pose', '7',
    ]);
  });

  it('reads records with the protocol fields and refuses lines that lack them', () => {
    const r = parseRecordLine(line());
    expect(r.contacts).toBe(204);
    expect(r.reps_consistent).toBe(true);
    expect(parseRecords(`note on stdout\n${line()}\n${line({ variant: 'obb' })}\n`).map((x) => x.variant)).toEqual(['obbrss', 'obb']);
    expect(() => parseRecordLine('{"impl":"fcl"')).toThrow(/not a JSON line/);
    expect(() => parseRecordLine('[1]')).toThrow(/not a JSON object/);
    expect(() => parseRecordLine(line({ query_ms: 'fast' }))).toThrow(/query_ms/);
    expect(() => parseRecordLine(line({ query: 'some' }))).toThrow(/query must be/);
    expect(() => parseRecordLine(line({ per_pose: [1] }))).toThrow(/per_pose has 1 counts for 2 poses/);
    expect(() => parseRecordLine(line({ triangles: [48] }))).toThrow(/triangles/);
  });

  it('says why a runner process gave no result', () => {
    const script = path.join(tmp, 'runner.sh');
    writeFileSync(script, '#!/bin/sh\necho "not json"\nexit 3\n');
    chmodSync(script, 0o755);
    expect(runRecordProcess(script, []).problem).toMatch(/runner\.sh exited with status 3 without a result/);
    writeFileSync(script, '#!/bin/sh\necho "{oops"\n');
    expect(runRecordProcess(script, []).problem).toMatch(/unreadable output: not a JSON line/);
    writeFileSync(script, `#!/bin/sh\necho '${line()}'\nexit 1\n`);
    const ok = runRecordProcess(script, []);
    expect(ok.problem).toBeNull();
    expect(ok.records[0].scenario).toBe('boxes-touching');
    expect(runRecordProcess(path.join(tmp, 'absent'), []).problem).toMatch(/cannot run/);
  });
});

describe('without FCL the runner is skipped, never failed', () => {
  it('the build script says so in one line and exits 0 without writing a binary', () => {
    const out = path.join(tmp, 'build', 'fcl_runner');
    const r = spawnSync(process.execPath, [BUILD_SCRIPT, '--out', out], { env: NO_FCL, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^FCL runner not built: .*no-such-pkg-config is not available \(Debian: apt-get install libfcl-dev\)$/)]);
    expect(existsSync(out)).toBe(false);
    const bad = spawnSync(process.execPath, [BUILD_SCRIPT, '--nonsense'], { env: NO_FCL, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/unknown option '--nonsense'/);
  });

  it('prepareFclRunner reports the skip with the reason; BENCH_FCL_RUNNER must name an executable', () => {
    const skipped = prepareFclRunner({ env: NO_FCL, out: path.join(tmp, 'other', 'fcl_runner') });
    expect(skipped).toEqual({ ok: false, note: expect.stringMatching(/^FCL runner not built: .*apt-get install libfcl-dev/) });
    const missing = prepareFclRunner({ env: { ...NO_FCL, [FCL_RUNNER_ENV]: path.join(tmp, 'nothing-here') } });
    expect(missing).toEqual({ ok: false, note: expect.stringMatching(/BENCH_FCL_RUNNER=.*nothing-here is not an executable file/) });
    const script = path.join(tmp, 'prebuilt');
    writeFileSync(script, '#!/bin/sh\n');
    chmodSync(script, 0o755);
    expect(prepareFclRunner({ env: { ...NO_FCL, [FCL_RUNNER_ENV]: script } })).toEqual({ ok: true, binary: script, note: null });
  });

  it('npm run bench --strategy fcl: a one-line note, no FCL rows, exit 0', () => {
    ensureBenchData();
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'bench/run.ts', '--strategy', 'fcl', '--strategy', 'obb', '--scenario', 'boxes-touching', '--reps', '1', '--warmup', '0', '--no-fresh'],
      { cwd: ROOT, env: NO_FCL, encoding: 'utf8', timeout: 120_000 },
    );
    expect(r.status).toBe(0);
    const notes = r.stderr.split('\n').filter((l) => /skipped/.test(l));
    expect(notes).toEqual([expect.stringMatching(/^note: fcl\/obbrss and fcl\/obb skipped: FCL runner not built: .*libfcl-dev/)]);
    const records = parseRecords(r.stdout);
    expect(records.map((x) => `${x.impl}/${x.variant}`)).toEqual(['interfere/obb']);
    expect(r.stdout).toMatch(/counts ✓ every strategy equals bench\/reference\.json on all 13 poses/);
    expect(r.stdout).toMatch(/^note: fcl\/obbrss and fcl\/obb skipped/m);
  });
});

describe.runIf(existsSync(DEFAULT_FCL_BINARY))('the native FCL runner (built by npm run bench:native)', () => {
  it('refuses bad arguments with exit 2', () => {
    const run = (...args: string[]) => spawnSync(DEFAULT_FCL_BINARY, args, { encoding: 'utf8' });
    expect(run().stderr).toMatch(/--scenarios PATH is required/);
    expect(run('--scenarios', 'x.json', '--variant', 'kdop').stderr).toMatch(/unknown variant 'kdop'/);
    expect(run('--scenarios', 'x.json', '--reps', '0').stderr).toMatch(/--reps needs an integer >= 1/);
    expect(run('--scenarios', 'x.json', '--pose', '3').stderr).toMatch(/--dump-pairs FILE and --pose K go together/);
    expect(run('--bogus').status).toBe(2);
    expect(run('--version').stdout).toMatch(/^fcl 0\.\d+\.\d+/);
  });

  it('counts the box probe exactly as bench/reference.json does, for both variants', () => {
    const file = ensureBenchData();
    const exact = loadReference()?.scenarios.find((s) => s.name === 'boxes-touching');
    const r = runRecordProcess(DEFAULT_FCL_BINARY, ['--scenarios', file, '--scenario', 'boxes-touching', '--reps', '1', '--warmup', '0']);
    expect(r.problem).toBeNull();
    expect(r.records.map((x) => x.variant)).toEqual(['obbrss', 'obb']);
    for (const rec of r.records) {
      expect(rec.per_pose).toEqual(exact?.perPose);
      expect(rec.per_pose_hash).toBe(exact?.perPoseHash);
      expect(rec.reps_consistent).toBe(true);
    }
  });
});
