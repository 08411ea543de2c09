/** The `interfere` command line, run as installed: the bundled dist/node/cli/interfere.cjs. */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseReport } from '../../../src-core/report/index';

const ROOT = process.cwd();
const CLI = path.join(ROOT, 'dist/node/cli/interfere.cjs');
const DATA = path.resolve(ROOT, 'test/data');
const SAMPLE = path.join(ROOT, 'assets/samples/as1-oc-214.stp');

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  // The bundle is built on install (npm's prepare); build it if this checkout has not.
  if (!existsSync(CLI)) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
}, 60_000);

describe('interfere', () => {
  it('prints its help and version', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: interfere check FILE/);
    for (const flag of ['--report', '--json', '--tolerance', '--clearance', '--jobs', '--no-pictures', 'Exit status']) expect(help.stdout).toContain(flag);
    const version = run(['--version']);
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(/^Interfere \d+\.\d+\.\d+/);
  });

  it('refuses bad usage with status 2 and a reason', () => {
    for (const args of [[], ['frobnicate'], ['check'], ['check', SAMPLE, '--tolerance', 'x'], ['check', SAMPLE, '--report', 'out.pdf']]) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^interfere: /);
    }
  });

  it('checks the bundled sample: every mate is contact, status 0, a JSON report on stdout', () => {
    const r = run(['check', SAMPLE, '--json']);
    expect(r.status).toBe(0);
    const report = parseReport(r.stdout);
    expect(report.summary.parts).toBe(18);
    expect(report.summary.interferences).toBe(0);
    expect(report.summary.contacts).toBe(32);
    expect(r.stderr).toContain('32 contact(s)');
  }, 120_000);

  it('finds interferences (status 1) and writes reports in the format of the extension', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'interfere-cli-'));
    const input = path.join(DATA, 'assemblies/as1-oc-214-moved.assembly.json');
    const r = run(['check', input, '--report', path.join(dir, 'r.html')]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('6 interference(s)');
    // Parts by their display names (the assembly's tree, numbered siblings), then their ids.
    expect(r.stdout).toMatch(/interference \(contained\)\s+as1 \/ plate \(plate-10\)\s+as1 \/ l-bracket-assembly<\d> \/ nut<\d> \(nut-12\)/);
    const html = readFileSync(path.join(dir, 'r.html'), 'utf8');
    expect(html).toContain('<!DOCTYPE html>');
    expect(html).toContain('nut-12');
    // A picture of each of the 6 interferences; none with --no-pictures.
    expect(html.match(/<figure id="picture-\d+">\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/g)).toHaveLength(6);
    expect(run(['check', input, '--report', path.join(dir, 'plain.html'), '--quiet', '--no-pictures']).status).toBe(1);
    const plain = readFileSync(path.join(dir, 'plain.html'), 'utf8');
    expect(plain).not.toContain('<svg');
    expect(plain).toContain('nut-12');
    // The same assembly to JSON and CSV, one run each.
    expect(run(['check', input, '--report', path.join(dir, 'r.json'), '--quiet']).status).toBe(1);
    expect(parseReport(readFileSync(path.join(dir, 'r.json'), 'utf8')).summary.interferences).toBe(6);
    expect(run(['check', input, '--report', path.join(dir, 'r.csv'), '--quiet']).status).toBe(1);
    const bytes = readFileSync(path.join(dir, 'r.csv'));
    // A UTF-8 byte order mark first, so that Excel reads non-ASCII names.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = bytes.toString('utf8').slice(1).trimEnd().split('\r\n');
    expect(csv[0]).toMatch(/^id,a,a_name,b,b_name,kind,status,/);
    expect(csv[1]).toMatch(/^R1,/);
    expect(csv.length).toBe(1 + 31);
  }, 180_000);

  it('goes on past a file it cannot check, reports each, and exits 2', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'interfere-cli-'));
    const broken = path.join(dir, 'broken.assembly.json');
    writeFileSync(broken, '{ "format": "interfere-assembly", "version": 1, "sources": [ { "id": "a", "path": "missing.stl" } ] }');
    const good = path.join(DATA, 'assemblies/stl-gear-polytopes.assembly.json');
    const r = run(['check', broken, good, '--report', path.join(dir, '{name}.json')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/broken\.assembly\.json.*missing\.stl.*not found/);
    expect(r.stdout).toContain('stl-gear-polytopes.assembly.json: 4 parts');
    expect(existsSync(path.join(dir, 'stl-gear-polytopes.json'))).toBe(true);
    expect(existsSync(path.join(dir, 'broken.json'))).toBe(false);
  }, 120_000);

  it('applies --clearance and --tolerance', () => {
    const input = path.join(DATA, 'assemblies/stl-gear-polytopes.assembly.json');
    // The assembly sets clearance 0.5 mm (the tetrahedron 0.3 mm away is a violation); 0.2 mm turns it off.
    const strict = parseReport(run(['check', input, '--json']).stdout);
    expect(strict.summary.clearanceViolations).toBe(1);
    const loose = parseReport(run(['check', input, '--json', '--clearance', '0.2']).stdout);
    expect(loose.summary.clearanceViolations).toBe(0);
    expect(loose.settings.clearanceMm).toBe(0.2);
    // A 2 mm tolerance makes the 1 mm deep cube cut a contact.
    const tolerant = parseReport(run(['check', input, '--json', '--tolerance', '2']).stdout);
    expect(tolerant.summary.interferences).toBe(0);
  }, 120_000);
});
