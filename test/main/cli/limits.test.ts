/**
 * `interfere check --max-triangles N` and `--import-timeout SECONDS`: validation, and that the
 * limits reach the importer (bare files and the sources of a saved assembly). Runs the command
 * line from its TypeScript sources under tsx.
 */
import { execFile, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const CLI = path.join(ROOT, 'src-main/cli/interfere.ts');
const DATA = path.resolve(ROOT, 'test/data');
const SAMPLE = path.join(ROOT, 'assets/samples/as1-oc-214.stp');
const CUBE = path.join(DATA, 'stl-models/polytopes/cube.bin.stl'); // 12 triangles
const GEAR_ASSEMBLY = path.join(DATA, 'assemblies/stl-gear-polytopes.assembly.json');

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Like run, without waiting: several runs go in parallel. */
function start(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 }, (err, stdout, stderr) => {
      const code = (err as { code?: unknown } | null)?.code;
      resolve({ status: err === null ? 0 : typeof code === 'number' ? code : null, stdout, stderr });
    });
  });
}

describe('interfere check --max-triangles / --import-timeout', () => {
  it('documents both flags in --help', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--max-triangles N\s+most triangles one body may have; one file, and the sources of one saved\n\s+assembly together/);
    expect(help.stdout).toMatch(/--import-timeout SECONDS\n\s+longest time OpenCascade may spend reading one STEP, IGES or BREP file\n\s+\(default 300\)/);
  }, 60_000);

  it('refuses bad values with status 2, naming the flag, the value and what is allowed', async () => {
    const triangles = "needs a whole number of triangles from 1 to 1,073,741,823, got";
    const seconds = 'needs a number of seconds greater than 0 and at most 2147483 (about 24 days), got';
    const cases: [string[], string][] = [
      [['--max-triangles', '0'], `--max-triangles ${triangles} '0'`],
      [['--max-triangles=-5'], `--max-triangles ${triangles} '-5'`],
      [['--max-triangles', '1.5'], `--max-triangles ${triangles} '1.5'`],
      [['--max-triangles', 'many'], `--max-triangles ${triangles} 'many'`],
      [['--max-triangles', '1e6'], `--max-triangles ${triangles} '1e6'`],
      [['--max-triangles', '2,000,000,000'], `--max-triangles ${triangles} '2,000,000,000'`],
      [['--max-triangles', ''], `--max-triangles ${triangles} ''`],
      [['--import-timeout', '0'], `--import-timeout ${seconds} '0'`],
      [['--import-timeout=-1'], `--import-timeout ${seconds} '-1'`],
      [['--import-timeout', 'soon'], `--import-timeout ${seconds} 'soon'`],
      [['--import-timeout', 'Infinity'], `--import-timeout ${seconds} 'Infinity'`],
      [['--import-timeout', '3000000'], `--import-timeout ${seconds} '3000000'`],
      [['--import-timeout', ' '], `--import-timeout ${seconds} ' '`],
    ];
    const runs = await Promise.all(cases.map(([flag]) => start(['check', CUBE, ...flag])));
    for (const [k, [flag, message]] of cases.entries()) {
      const r = runs[k];
      expect(r.status, flag.join(' ')).toBe(2);
      expect(r.stderr).toBe(`interfere: ${message}\nRun 'interfere --help' for usage.\n`);
      expect(r.stdout).toBe('');
    }
    // Without '=', Node's argument parser takes '-1' for an option and says so.
    for (const args of [['--import-timeout'], ['--import-timeout', '-1']]) {
      const r = await start(['check', CUBE, ...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^interfere: Option '--import-timeout/);
    }
  }, 120_000);

  it('--max-triangles lowers the per-body limit for bare files and assembly sources; digit groups are allowed', () => {
    const refused = run(['check', CUBE, '--max-triangles', '11']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      "cube.bin.stl: binary STL has 12 triangles, more than the limit of 11 triangles per body; raise it with 'interfere check --max-triangles N'",
    );
    const enough = run(['check', CUBE, '--max-triangles', '12']);
    expect(enough.status).toBe(0);
    expect(enough.stdout).toContain('cube.bin.stl: 1 parts, 12 triangles');
    // Larger than the default per-assembly limit (100,000,000): accepted, and raises both limits.
    expect(run(['check', CUBE, '--max-triangles', '1_000_000_000', '--quiet']).status).toBe(0);

    const assembly = run(['check', GEAR_ASSEMBLY, '--max-triangles', '2,000']);
    expect(assembly.status).toBe(2);
    expect(assembly.stderr).toMatch(
      /stl-gear-polytopes\.assembly\.json:\d+: sources\[0\]: source 'gear' \(\.\.\/stl-models\/objects\/gearwheel\.bin\.stl\): binary STL has 2,444 triangles, more than the limit of 2,000 triangles per body/,
    );
  }, 120_000);

  it('--import-timeout bounds OpenCascade in seconds; the other inputs are still checked', () => {
    const r = run(['check', SAMPLE, CUBE, '--import-timeout', '0.05']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      'as1-oc-214.stp: OpenCascade did not finish reading this STEP file within 50 ms, the time limit for CAD import, ' +
      "and was stopped; raise it with 'interfere check --import-timeout SECONDS'",
    );
    expect(r.stdout).toContain('cube.bin.stl: 1 parts, 12 triangles');
    const generous = run(['check', SAMPLE, '--import-timeout', '600', '--quiet']);
    expect(generous.status).toBe(0);
    expect(generous.stderr).toBe('');
  }, 120_000);
});
