/** JUnit XML, baseline comparison and the findings they share. */
import { describe, expect, it } from 'vitest';
import { compareWithBaseline } from '../../../src-core/report/baseline.js';
import { reportFindings, resultFigures } from '../../../src-core/report/findings.js';
import { reportsToJunit, xmlAttr, xmlText } from '../../../src-core/report/junit.js';
import { exitCode } from '../../../src-core/report/model.js';
import { junitSchemaErrors, readJunit } from './junitSupport.js';
import { IDS, RESULTS, pair, sampleReport } from './sample.js';

describe('findings', () => {
  it('fail, pass and skip as the exit status counts them', () => {
    const report = sampleReport();
    const { findings, exitCode: code } = reportFindings(report, 'fail');
    expect(findings.map((f) => [f.id, f.result.kind, f.verdict])).toEqual([
      ['R1', 'interference', 'fail'], ['R2', 'contact', 'pass'], ['R3', 'undecided', 'fail'],
      ['R4', 'ignored', 'skip'], ['R5', 'clearance', 'fail'], ['R6', 'interference', 'fail'],
    ]);
    expect(code).toBe(exitCode(report, 'fail'));
    expect(reportFindings(report, 'pass').findings[2]!.verdict).toBe('skip');
    const onlyUndecided = sampleReport([RESULTS[2]!]);
    expect(reportFindings(onlyUndecided, 'pass').exitCode).toBe(0);
    expect(exitCode(onlyUndecided, 'pass')).toBe(0);
    expect(reportFindings(onlyUndecided, 'fail').exitCode).toBe(1);
  });

  it('say the figures in one line', () => {
    const r = sampleReport().results;
    expect(resultFigures(r[0]!)).toBe('3.52 mm³, 0.5 mm deep (±0.01 mm)');
    expect(resultFigures(r[2]!)).toBe('interference or contact, separation -0.005 … 0 mm');
    expect(resultFigures(r[4]!)).toBe('0.3 mm apart');
    expect(resultFigures(r[5]!)).toBe('c2 lies inside the other, 8 mm³; 3 coincident copies, one finding for every pair among them');
  });
});

describe('compareWithBaseline', () => {
  const accepted = sampleReport([
    pair({ a: 'plate', b: 'bolt-1', kind: 'interference', volumeMm3: 3.52, depthMm: 0.5 }),
    pair({ a: 'gear', b: 'tet', kind: 'clearance', distanceMm: 0.3 }),
    pair({ a: 'plate', b: 'nut-2', kind: 'contact', distanceMm: 0 }),
    pair({ a: 'pin', b: 'plate', kind: 'interference', depthMm: 0.1 }),
    pair({ a: 'c1', b: 'c3', kind: 'interference', volumeMm3: 8, coincident: ['c1', 'c2', 'c3'] }),
  ]);

  it('tells new, worse and unchanged pairs, and lists the resolved ones', () => {
    const now = sampleReport([
      // unchanged (within the noise), and matched in the other order
      pair({ a: 'bolt-1', b: 'plate', kind: 'interference', volumeMm3: 3.52 + 1e-9, depthMm: 0.5 + 1e-9 }),
      // closer
      pair({ a: 'gear', b: 'tet', kind: 'clearance', distanceMm: 0.25 }),
      // contact, now an interference
      pair({ a: 'plate', b: 'nut-2', kind: 'interference', depthMm: 0.02 }),
      // new
      pair({ a: 'gear', b: 'bolt-1', kind: 'interference', depthMm: 1 }),
      // the coincident group matched through its parts
      pair({ a: 'c1', b: 'c2', kind: 'interference', volumeMm3: 8, coincident: ['c1', 'c2', 'c3'] }),
      // a contact that was not there: new, but passes
      pair({ a: 'tet', b: 'pin', kind: 'contact' }),
    ]);
    const comparison = compareWithBaseline(now, accepted);
    expect(comparison.entries.map((e) => [e.change, e.why])).toEqual([
      ['same', ''],
      ['worse', 'closer: 0.25 mm apart, was 0.3 mm'],
      ['worse', 'a contact in the baseline, now an interference'],
      ['new', ''],
      ['same', ''],
      ['new', ''],
    ]);
    const { findings, resolved, exitCode: code } = reportFindings(now, 'fail', comparison);
    expect(findings.map((f) => f.verdict)).toEqual(['pass', 'fail', 'fail', 'fail', 'pass', 'pass']);
    expect(code).toBe(1);
    expect(resolved.map((x) => [x.was.a, x.was.b, x.now])).toEqual([['pin', 'plate', 'clear']]);
    expect(findings[1]!.baselineNote).toBe('worse than the baseline: closer: 0.25 mm apart, was 0.3 mm');
    expect(findings[3]!.baselineNote).toBe('new since the baseline');
  });

  it('finds deeper and larger interferences and new containments worse; shallower ones and milder kinds not', () => {
    const base = sampleReport([pair({ a: 'plate', b: 'bolt-1', kind: 'interference', volumeMm3: 3.52, depthMm: 0.5 })]);
    const change = (p: Parameters<typeof pair>[0]): string => {
      const e = compareWithBaseline(sampleReport([pair(p)]), base).entries[0]!;
      return e.why || e.change;
    };
    expect(change({ a: 'plate', b: 'bolt-1', kind: 'interference', volumeMm3: 3.52, depthMm: 0.6 })).toBe('deeper: 0.6 mm, was 0.5 mm');
    expect(change({ a: 'plate', b: 'bolt-1', kind: 'interference', volumeMm3: 4, depthMm: 0.5 })).toBe('larger volume: 4 mm³, was 3.52 mm³');
    expect(change({ a: 'plate', b: 'bolt-1', kind: 'interference', volumeMm3: 3.52, contained: true, containedPart: 'bolt-1' }))
      .toBe('now one part lies inside the other');
    expect(change({ a: 'plate', b: 'bolt-1', kind: 'interference', volumeMm3: 1, depthMm: 0.1 })).toBe('same');
    expect(change({ a: 'plate', b: 'bolt-1', kind: 'clearance', distanceMm: 0.1 })).toBe('same');
    // Fixed: the pair is gone, and a clean report against the baseline passes with one resolved pair.
    const clean = sampleReport([]);
    const fixed = reportFindings(clean, 'fail', compareWithBaseline(clean, base));
    expect(fixed.exitCode).toBe(0);
    expect(fixed.resolved).toHaveLength(1);
  });
});

describe('reportsToJunit', () => {
  it('writes valid JUnit XML: one suite per input, one test case per pair checked', async () => {
    const report = sampleReport();
    const xml = reportsToJunit([
      { input: 'models/sample.assembly.json', report },
      { input: 'broken.stp', report: null, error: { code: 'import-failed', message: 'broken.stp: not a STEP file' } },
    ], { undecided: 'fail' });
    expect(await junitSchemaErrors(xml)).toEqual([]);
    const doc = await readJunit(xml);
    expect(doc).toMatchObject({ name: 'interfere', tests: 35, failures: 4, errors: 1 });
    const [suite, broken] = doc.testsuite;
    // 9 parts: 36 pairs; the coincident group's one result stands for its 3 pairs, so 6 results and 28 clear pairs.
    expect(suite).toMatchObject({ name: 'models/sample.assembly.json', tests: 34, failures: 4, errors: 0, skipped: 1, timestamp: '2026-11-29T12:00:00' });
    const cases = suite!.testcase!;
    expect(cases.slice(0, 6).map((c) => c.name)).toEqual(['plate / bolt-1', 'plate / nut-2', 'plate / pin', 'bolt-1 / nut-2', 'gear / tet', 'c1 / c2']);
    expect(cases.every((c) => c.classname === 'sample.assembly.json')).toBe(true);
    expect(cases[0]!.failure![0]).toMatchObject({ message: 'R1 interference: 3.52 mm³, 0.5 mm deep (±0.01 mm)', type: 'interference' });
    expect(cases[0]!.failure![0]!.inner).toContain('parts: plate (part plate) and bolt-1 (part bolt-1)');
    expect(cases[2]!.failure![0]).toMatchObject({ message: 'R3 undecided: interference or contact, separation -0.005 … 0 mm', type: 'undecided' });
    expect(cases[3]!.skipped![0]!.message).toBe('R4 ignored: press fit by design');
    expect(cases[4]!.failure![0]!.type).toBe('clearance');
    expect(cases[1]!.failure).toBeUndefined();
    expect(cases.slice(6).map((c) => c.name)).toContain('nut-2 / pin');
    expect(cases.slice(6).every((c) => !c.failure && !c.skipped)).toBe(true);
    const props = Object.fromEntries(suite!.properties!.map((p) => [p.name, p.value]));
    expect(props).toMatchObject({ assembly: 'sample.assembly.json', interferences: 2, clearanceViolations: 1, undecidedPairs: 1, exitCode: 1, parts: IDS.length });
    expect(broken).toMatchObject({ name: 'broken.stp', tests: 1, errors: 1 });
    expect(broken!.testcase![0]!.error![0]).toMatchObject({ message: 'broken.stp: not a STEP file', type: 'import-failed' });
  });

  it('skips undecided pairs under --undecided pass, and fails only new or worse pairs against a baseline', async () => {
    const report = sampleReport();
    const pass = await readJunit(reportsToJunit([{ input: 's', report }], { undecided: 'pass' }));
    expect(pass.testsuite[0]).toMatchObject({ failures: 3, skipped: 2 });
    expect(pass.testsuite[0]!.testcase![2]!.skipped![0]!.message).toBe('R3 undecided: interference or contact, separation -0.005 … 0 mm (passes: --undecided pass)');
    const baseline = sampleReport([RESULTS[0]!, pair({ a: 'gear', b: 'tet', kind: 'clearance', distanceMm: 0.4 }), pair({ a: 'nut-2', b: 'pin', kind: 'interference', depthMm: 1 })]);
    const xml = reportsToJunit([{ input: 's', report, baseline: compareWithBaseline(report, baseline), baselineFile: 'accepted.json' }], { undecided: 'fail' });
    const suite = (await readJunit(xml)).testsuite[0]!;
    const cases = suite.testcase!;
    expect(suite.failures).toBe(3);
    expect(cases[0]!.failure).toBeUndefined();
    expect(cases[0]!['system-out']![0]).toContain('as in the baseline');
    expect(cases[4]!.failure![0]!.message).toBe('R5 clearance: 0.3 mm apart (worse than the baseline: closer: 0.3 mm apart, was 0.4 mm)');
    expect(cases[2]!.failure![0]!.message).toMatch(/\(new since the baseline\)$/);
    const resolved = cases.find((c) => c.name === 'nut-2 / pin')!;
    expect(resolved['system-out']![0]).toBe('clear; resolved since the baseline: it was an interference');
    const props = Object.fromEntries(suite.properties!.map((p) => [p.name, p.value]));
    expect(props).toMatchObject({ baseline: 'accepted.json', baselineNew: 2, baselineWorse: 1, baselineResolved: 1 });
  });

  it('escapes every text, replaces what XML cannot hold, and folds the clear pairs of a large assembly', async () => {
    expect(xmlText('a<b>&c\u0001\uffff')).toBe('a&lt;b&gt;&amp;c\uFFFD\uFFFD');
    expect(xmlAttr('"x"\n\ty\r')).toBe('&quot;x&quot;&#10;&#9;y&#13;');
    const ids = ['<a&"b">', 'line\nbreak', 'nul\u0000', 'ok'];
    const hostile = sampleReport([pair({ a: ids[0]!, b: ids[1]!, kind: 'ignored', reason: ']]> </testcase> \u0007' })], ids, 'x<&>.assembly.json');
    const doc = await readJunit(reportsToJunit([{ input: 'in "quotes" <&>', report: hostile }], { undecided: 'fail' }));
    expect(doc.testsuite[0]!.name).toBe('in "quotes" <&>');
    const cases = doc.testsuite[0]!.testcase!;
    expect(cases[0]!.name).toBe('<a&"b"> / line\nbreak');
    expect(cases[0]!.skipped![0]!.message).toBe('R1 ignored: ]]> </testcase> \uFFFD');
    expect(cases.map((c) => c.name)).toContain('nul\uFFFD / ok');
    const many = Array.from({ length: 200 }, (_, i) => `p${i}`);
    const big = sampleReport([pair({ a: 'p0', b: 'p1', kind: 'interference', depthMm: 1 })], many);
    const folded = await readJunit(reportsToJunit([{ input: 'big', report: big }], { undecided: 'fail', maxCases: 1000 }));
    expect(folded.testsuite[0]!.testcase!.map((c) => c.name)).toEqual(['p0 / p1', '19899 other pairs']);
    expect((await readJunit(reportsToJunit([{ input: 'big', report: big }], { undecided: 'fail', maxCases: 20_000 }))).testsuite[0]!.tests).toBe(19900);
    expect(await readJunit(reportsToJunit([], { undecided: 'fail' }))).toMatchObject({ tests: 0, failures: 0, testsuite: [] });
  });
});
