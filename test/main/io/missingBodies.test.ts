/**
 * A body OpenCascade drops reaches the user: the importer's warning is printed by the command line
 * and written into the JSON report, and a saved assembly over the damaged file is refused (exit
 * status 2) instead of binding its parts to the wrong bodies. Runs the bundled command line
 * (dist/node/cli/interfere.cjs) on the regression file step-solid-refers-to-missing-shell.stp.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseReport } from '../../../src-core/report/index';

const ROOT = process.cwd();
const CLI = path.join(ROOT, 'dist/node/cli/interfere.cjs');
const BROKEN = path.join(ROOT, 'test/fixtures/regressions/step-solid-refers-to-missing-shell.stp');
const DM1 = path.join(ROOT, 'test/data/cax-if-dm1/dm1-id-214.stp');
const NUTS = "product 'nut' (MANIFOLD_SOLID_BREP #1447; placed 3 times) should give 3 bodies, OpenCascade made none " +
  '(MANIFOLD_SOLID_BREP #1447 refers to #99999, which the file does not define)';

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  if (!existsSync(CLI)) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
}, 120_000);

describe('missing bodies on the command line', () => {
  it('prints the warning and writes it into the JSON report', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'interfere-missing-'));
    const report = path.join(dir, 'r.json');
    // (Its bolts' seats are fits the default triangles cannot decide: they may pass as undecided here.)
    const r = run(['check', BROKEN, '--report', report, '--refine', 'off', '--undecided', 'pass']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('4 parts');
    expect(r.stdout).toContain('warning: ');
    expect(r.stdout).toContain(NUTS);
    const parsed = parseReport(readFileSync(report, 'utf8'));
    expect(parsed.summary.parts).toBe(4);
    expect(parsed.warnings.some((w) => w.includes(NUTS))).toBe(true);
  }, 120_000);

  it('refuses an assembly saved over the intact file once the file has lost its nuts (status 2, naming the part)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'interfere-missing-'));
    const model = path.join(dir, 'dm1.stp');
    copyFileSync(DM1, model);
    const names = ['l-bracket', 'bolt', 'bolt', 'bolt', 'nut', 'nut', 'nut'];
    const assembly = path.join(dir, 'dm1.assembly.json');
    writeFileSync(assembly, JSON.stringify({
      format: 'interfere-assembly',
      version: 1,
      sources: [{ id: 'dm1', path: 'dm1.stp', bodyNames: names }],
      parts: names.map((name, i) => ({ id: `${name}-${i}`, name, source: 'dm1', body: i })),
    }, null, 2));
    const good = run(['check', assembly, '--quiet', '--refine', 'off', '--undecided', 'pass']);
    expect(good.status, good.stderr).toBe(0);
    copyFileSync(BROKEN, model);
    const bad = run(['check', assembly]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("source 'dm1' (dm1.stp) no longer gives the bodies this assembly was saved with (7 bodies when saved, 4 now)");
    expect(bad.stderr).toContain("part 'nut-4' is bound to body 4, saved as 'nut', but the file now has no body 4");
    expect(bad.stderr).toContain(NUTS);
  }, 180_000);
});
