/** The command line in CI: JUnit XML, --baseline, --shard, GitHub annotations and the CSV's status column. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { annotation, escapeData, escapeProperty, parseShard, shardInputs } from '../../../src-main/cli/ci';
import { UsageError } from '../../../src-main/cli/reports';
import { readJunit } from '../../core/report/junitSupport';
import { CLEAR, ensureBuilt, INTERFERING, run, tempDir, writeCubeAssembly, type CubePart } from './cliSupport';

beforeAll(() => ensureBuilt(), 60_000);

/** The environment without GitHub's variables (a test run inside GitHub Actions has them). */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (!('GITHUB_ACTIONS' in extra)) delete e['GITHUB_ACTIONS'];
  return e;
}

describe('--help', () => {
  it('describes the CI options', () => {
    const help = run(['--help']).stdout;
    for (const text of ['--baseline FILE', '--shard I/N', '.xml (JUnit XML for CI', 'GITHUB_ACTIONS=true', 'byte order mark', 'with --baseline, only such pairs that are new or worse']) {
      expect(help).toContain(text);
    }
    for (const line of help.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
  });
});

describe('--report FILE.xml (JUnit)', () => {
  it('one suite per input in one file: failures for interferences, an error for an input not checked', async () => {
    const dir = tempDir();
    const bad = writeCubeAssembly(path.join(dir, 'bad.assembly.json'), [...INTERFERING, { id: 'c', x: 30 }]);
    const good = writeCubeAssembly(path.join(dir, 'good.assembly.json'), CLEAR);
    const broken = path.join(dir, 'broken.assembly.json');
    writeFileSync(broken, '{ "format": "interfere-assembly", "version": 1, "sources": [ { "id": "a", "path": "gone.stl" } ] }');
    const xmlFile = path.join(dir, 'out', 'junit.xml');
    const r = run(['check', bad, good, broken, '--report', xmlFile, '--report', path.join(dir, '{name}.json')], { env: env() });
    expect(r.status).toBe(2);
    expect(r.stdout).toContain(`report: ${xmlFile}`);
    const doc = await readJunit(readFileSync(xmlFile, 'utf8'));
    expect(doc).toMatchObject({ name: 'interfere', tests: 3 + 1 + 1, failures: 1, errors: 1 });
    expect(doc.testsuite.map((s) => [s.name, s.tests, s.failures, s.errors])).toEqual([[bad, 3, 1, 0], [good, 1, 0, 0], [broken, 1, 0, 1]]);
    const cases = doc.testsuite[0]!.testcase!;
    expect(cases.map((c) => [c.classname, c.name, c.failure ? 'fail' : 'pass'])).toEqual([
      ['bad.assembly.json', 'a / b', 'fail'], ['bad.assembly.json', 'a / c', 'pass'], ['bad.assembly.json', 'b / c', 'pass'],
    ]);
    expect(cases[0]!.failure![0]!.type).toBe('interference');
    expect(cases[0]!.failure![0]!.message).toMatch(/^R1 interference: 4 mm³, [\d.]+ mm deep$/);
    expect(doc.testsuite[2]!.testcase![0]!.error![0]!.message).toMatch(/gone\.stl/);
    // The JSON reports of the same run are there too.
    expect(existsSync(path.join(dir, 'bad.json'))).toBe(true);
    // With {name}: one file per input.
    const one = run(['check', bad, good, '--report', path.join(dir, 'j', '{name}.xml'), '--quiet'], { env: env() });
    expect(one.status).toBe(1);
    expect((await readJunit(readFileSync(path.join(dir, 'j', 'good.xml'), 'utf8'))).testsuite.map((s) => s.name)).toEqual([good]);
  }, 120_000);

  it('refuses two --report options that would write the same file, before checking', () => {
    const dir = tempDir();
    const a = writeCubeAssembly(path.join(dir, 'a.assembly.json'), CLEAR);
    const r = run(['check', a, '--report', path.join(dir, 'r.xml'), '--report', path.join(dir, '.', 'r.xml')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/would both write .*r\.xml; nothing was checked/);
    expect(existsSync(path.join(dir, 'r.xml'))).toBe(false);
  });
});

describe('--baseline', () => {
  const accept = (dir: string, parts: readonly CubePart[]): { input: string; baseline: string } => {
    const input = writeCubeAssembly(path.join(dir, 'cubes.assembly.json'), parts);
    const baseline = path.join(dir, 'accepted.json');
    expect(run(['check', input, '--report', baseline, '--quiet']).status).toBe(1);
    return { input, baseline };
  };

  it('passes unchanged pairs, fails new and worse ones, and lists the resolved ones', async () => {
    const dir = tempDir();
    const { input, baseline } = accept(dir, [...INTERFERING, { id: 'c', x: 30 }]);
    // Unchanged: status 0, where without the baseline it is 1.
    const same = run(['check', input, '--baseline', baseline, '--report', path.join(dir, 'same.xml'), '--report', path.join(dir, 'same.csv')]);
    expect(same.status).toBe(0);
    expect(same.stdout).toContain(`baseline ${baseline}: 0 new, 0 worse, 1 as accepted, 0 resolved`);
    expect(same.stdout).toMatch(/R1 +interference +\S+ \(a\) +\S+ \(b\) .* accepted/);
    const sameSuite = (await readJunit(readFileSync(path.join(dir, 'same.xml'), 'utf8'))).testsuite[0]!;
    expect(sameSuite).toMatchObject({ failures: 0, tests: 3 });
    expect(sameSuite.testcase![0]!['system-out']![0]).toContain('as in the baseline');
    const csv = readFileSync(path.join(dir, 'same.csv'), 'utf8').split('\r\n');
    // Display names: the three parts all called cube, so the stem of their file, numbered.
    expect(csv[1]).toMatch(/^R1,a,cube\.ascii<1>,b,cube\.ascii<2>,interference,active,/);
    // Worse: b moved 0.5 mm further into a (a larger volume; deeper ones: test/core/report/junit.test.ts).
    writeCubeAssembly(input, [{ id: 'a', x: 0 }, { id: 'b', x: 0.5 }, { id: 'c', x: 30 }]);
    const deeper = run(['check', input, '--baseline', baseline, '--report', path.join(dir, 'deeper.xml')]);
    expect(deeper.status).toBe(1);
    expect(deeper.stdout).toContain('0 new, 1 worse, 0 as accepted, 0 resolved');
    expect(deeper.stdout).toMatch(/R1 +interference +\S+ \(a\) +\S+ \(b\) .* worse \(larger volume: 6 mm³, was 4 mm³\)/);
    const deeperCase = (await readJunit(readFileSync(path.join(dir, 'deeper.xml'), 'utf8'))).testsuite[0]!.testcase![0]!;
    expect(deeperCase.failure![0]!.message).toMatch(/^R1 interference: 6 mm³, [\d.]+ mm deep \(worse than the baseline: larger volume: 6 mm³, was 4 mm³\)$/);
    // New: c moved into b; a / b as accepted.
    writeCubeAssembly(input, [...INTERFERING, { id: 'c', x: 2.5 }]);
    const added = run(['check', input, '--baseline', baseline, '--report', path.join(dir, 'new.csv')]);
    expect(added.status).toBe(1);
    expect(added.stdout).toContain('1 new, 0 worse, 1 as accepted, 0 resolved');
    expect(readFileSync(path.join(dir, 'new.csv'), 'utf8').split('\r\n').slice(1, 3).map((l) => l.split(',').slice(0, 7).join(',')))
      .toEqual(['R1,a,cube.ascii<1>,b,cube.ascii<2>,interference,active', 'R2,b,cube.ascii<2>,c,cube.ascii<3>,interference,new']);
    // Resolved: b moved clear of a.
    writeCubeAssembly(input, [{ id: 'a', x: 0 }, { id: 'b', x: 10 }, { id: 'c', x: 30 }]);
    const fixed = run(['check', input, '--baseline', baseline, '--report', path.join(dir, 'fixed.xml')]);
    expect(fixed.status).toBe(0);
    expect(fixed.stdout).toContain('0 new, 0 worse, 0 as accepted, 1 resolved');
    expect(fixed.stdout).toContain('resolved since the baseline: a / b (was interference, now clear)');
    const fixedSuite = (await readJunit(readFileSync(path.join(dir, 'fixed.xml'), 'utf8'))).testsuite[0]!;
    expect(fixedSuite.testcase!.find((c) => c.name === 'a / b')!['system-out']![0]).toBe('clear; resolved since the baseline: it was an interference');
  }, 180_000);

  it('matches inputs to the reports of a --json array by file name; an input without one has every finding new', () => {
    const dir = tempDir();
    const one = writeCubeAssembly(path.join(dir, 'one.assembly.json'), INTERFERING);
    const two = writeCubeAssembly(path.join(dir, 'two.assembly.json'), INTERFERING);
    const accepted = path.join(dir, 'accepted.json');
    const json = run(['check', one, '--json', '--shard', '1/1', '--quiet']);
    writeFileSync(accepted, json.stdout);
    expect(JSON.parse(json.stdout)).toHaveLength(1);
    const r = run(['check', one, two, '--baseline', accepted]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${two}: no baseline in ${accepted}: every finding is new`);
    expect(r.stdout).toMatch(/one\.assembly\.json[^]*0 new, 0 worse, 1 as accepted[^]*two\.assembly\.json[^]*1 new, 0 worse, 0 as accepted/);
  }, 120_000);

  it('stops before checking when the baseline is not a report, or not there', () => {
    const dir = tempDir();
    const input = writeCubeAssembly(path.join(dir, 'cubes.assembly.json'), INTERFERING);
    const notReport = path.join(dir, 'nope.json');
    writeFileSync(notReport, '{"format": "interfere-report", "version": 1}');
    const bad = run(['check', input, '--baseline', notReport]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^interfere: --baseline .*nope\.json: not a report of interfere check \(assembly: must be a string/);
    expect(bad.stdout).toBe('');
    const missing = run(['check', input, '--baseline', path.join(dir, 'missing.json')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/missing\.json: not found/);
    // With {name}, a missing file is an input without a baseline.
    const perInput = run(['check', input, '--baseline', path.join(dir, '{name}.report.json'), '--quiet']);
    expect(perInput.status).toBe(1);
  }, 60_000);
});

describe('--shard', () => {
  it('parses i/n and refuses anything else', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    expect(parseShard(undefined)).toBeNull();
    for (const bad of ['0/2', '3/2', '1/0', '1.5/2', '-1/2', 'a/b', '2', '', '1/2/3']) expect(() => parseShard(bad), bad).toThrow(UsageError);
  });

  it('sorts by path and cuts contiguous slices that cover every input once', () => {
    const files = ['e.stl', 'b.stl', 'a/z.stl', 'd.stl', 'c.stl', 'B.stl', 'f.stl'];
    const shards = [1, 2, 3].map((index) => shardInputs(files, { index, count: 3 }));
    expect(shards).toEqual([['B.stl', 'a/z.stl'], ['b.stl', 'c.stl'], ['d.stl', 'e.stl', 'f.stl']]);
    expect(shards.flat()).toEqual([...files].sort());
    expect(shardInputs(['x'], { index: 2, count: 3 })).toEqual([]);
    expect(shardInputs(files, null)).toEqual(files);
  });

  it('checks only its slice; a bad value is status 2', () => {
    const dir = tempDir();
    const inputs = ['c', 'a', 'b'].map((n) => writeCubeAssembly(path.join(dir, `${n}.assembly.json`), n === 'b' ? INTERFERING : CLEAR));
    const names = (shard: string): string[] => {
      const r = run(['check', ...inputs, '--shard', shard, '--json']);
      expect(r.stderr).toContain(`shard ${shard}: `);
      return (JSON.parse(r.stdout) as { assembly: string }[]).map((x) => x.assembly);
    };
    expect(names('1/2')).toEqual(['a.assembly.json']);
    expect(names('2/2')).toEqual(['b.assembly.json', 'c.assembly.json']);
    const empty = run(['check', inputs[0]!, '--shard', '1/2', '--json']);
    expect(empty.status).toBe(0);
    expect(JSON.parse(empty.stdout)).toEqual([]);
    const bad = run(['check', ...inputs, '--shard', '3/2']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--shard needs i/n, whole numbers with 1 ≤ i ≤ n (the i-th of n slices of the inputs, e.g. 2/4), got '3/2'");
  }, 120_000);
});

describe('GitHub Actions annotations', () => {
  it('escapes messages and properties as workflow commands require', () => {
    expect(escapeData('100% a\r\nb: c, d')).toBe('100%25 a%0D%0Ab: c, d');
    expect(escapeProperty('a%b\nc:d,e')).toBe('a%25b%0Ac%3Ad%2Ce');
    expect(annotation('error', { file: 'x,y.stl', title: 'Interference: a:1 / b,2' }, 'R1 interference\nnext'))
      .toBe('::error file=x%2Cy.stl,title=Interference%3A a%3A1 / b%2C2::R1 interference%0Anext');
  });

  it('one ::error line per failing pair and per input not checked, only when GITHUB_ACTIONS=true', () => {
    const dir = tempDir();
    const input = writeCubeAssembly(path.join(dir, 'odd,name.assembly.json'), [{ id: 'a:1', x: 0 }, { id: 'b,%2', x: 1 }, { id: 'c', x: 30 }]);
    const missing = path.join(dir, 'missing.assembly.json');
    const r = run(['check', input, missing, '--quiet'], { env: env({ GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir }) });
    expect(r.status).toBe(2);
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(lines).toEqual([
      expect.stringMatching(/^::error file=odd%2Cname\.assembly\.json,title=Interference%3A a%3A1 \/ b%2C%252::R1 interference: 4 mm³, [\d.]+ mm deep in odd,name\.assembly\.json$/),
      expect.stringMatching(/^::error file=missing\.assembly\.json,title=Not checked%3A missing\.assembly\.json::.*missing\.assembly\.json/),
    ]);
    // With --json the annotations go to standard error; without GITHUB_ACTIONS there are none.
    const json = run(['check', input, '--json'], { env: env({ GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir }) });
    expect(json.stderr).toContain('::error file=odd%2Cname.assembly.json,');
    expect(JSON.parse(json.stdout)).toMatchObject({ format: 'interfere-report' });
    expect(run(['check', input], { env: env() }).stdout).not.toContain('::error');
    // Against a baseline that accepts the pair: no annotation.
    const baseline = path.join(dir, 'accepted.json');
    run(['check', input, '--report', baseline, '--quiet']);
    const accepted = run(['check', input, '--baseline', baseline, '--quiet'], { env: env({ GITHUB_ACTIONS: 'true' }) });
    expect(accepted.status).toBe(0);
    expect(accepted.stdout).toBe('');
  }, 120_000);
});
