/**
 * Reports as JUnit XML, the test report format CI systems read (GitHub Actions through test
 * reporter actions, GitLab's `artifacts:reports:junit`, Jenkins, Azure Pipelines): one
 * `<testsuite>` per input file, one `<testcase>` per part pair checked.
 *
 * Test cases of a suite: first one per result of the report, in its order (id `R1`, … as in the
 * CSV); then one per clear pair, in part order, which passes. A result of a group of coincident
 * copies stands for every pair among them (as in the report) and is one test case. When a suite
 * would have more than `maxCases` test cases, the clear pairs are one passing test case
 * (`N other pairs`) instead. A result's test case
 *  - fails (`<failure>`) as ./findings.ts decides (interference, clearance violation, undecided
 *    unless `--undecided pass`; with a baseline, only new or worse ones), with the result's id,
 *    kind and figures as the message, its kind as the type, and the details as the text;
 *  - is skipped (`<skipped>`) when ignored (with the reason) or undecided under `--undecided pass`;
 *  - else passes, with its figures (and what the baseline says) in `<system-out>`.
 * An input that could not be checked is a suite of one test case `check` with an `<error>`.
 *
 * Names: a suite is named by the input's path as given; a test case's `classname` is the report's
 * `assembly` (the input's file name) and its `name` the pair, `a / b`: stable from run to run, so
 * CI tools can follow a pair's history. Each suite's `<properties>` carry the report's numbers and
 * settings. Times are seconds: a suite's is the check's `elapsedMs` (pairs are not timed one by
 * one: theirs is 0). The timestamp is the report's `generatedAt` in UTC, without the `Z`, as the
 * common JUnit schema has it.
 *
 * XML: UTF-8, every text escaped; characters XML 1.0 cannot hold (C0 controls other than tab, LF
 * and CR, U+FFFE, U+FFFF, lone surrogates) are written as U+FFFD.
 */
import type { BaselineComparison } from './baseline.js';
import { reportFindings, type Finding } from './findings.js';
import { pairKey } from '../check/status.js';
import type { InterferenceReport, ReportResult, UndecidedPolicy } from './model.js';

/** Most test cases of one suite before the clear pairs are folded into one. */
export const MAX_JUNIT_CASES = 10_000;

export interface JunitInput {
  /** The input file as given on the command line (the suite's name). */
  readonly input: string;
  /** The input's report, or null when it could not be checked. */
  readonly report: InterferenceReport | null;
  /** When it could not be checked: why (an error code of --json and a message). */
  readonly error?: { readonly code: string; readonly message: string };
  /** The comparison with the baseline, when the run has one. */
  readonly baseline?: BaselineComparison | null;
  /** The baseline file, for the suite's properties. */
  readonly baselineFile?: string;
}

export interface JunitOptions {
  readonly undecided: UndecidedPolicy;
  /** Most test cases per suite (default MAX_JUNIT_CASES). */
  readonly maxCases?: number;
}

// eslint-disable-next-line no-control-regex -- replacing what XML cannot hold is the point
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text content: &, < and > escaped, characters XML cannot hold replaced. */
export function xmlText(s: string): string {
  return s.replace(NOT_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value (in double quotes): also ", and tab, LF and CR as character references (kept by parsers). */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values).map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`).join('');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

interface Case {
  readonly name: string;
  readonly body: string;
  readonly kind: 'pass' | 'fail' | 'skip' | 'error';
}

function num(n: number | null): string {
  return n === null ? '' : String(n);
}

/** The details of a result: one `field: value` line each. */
function details(f: Finding, report: InterferenceReport, names: ReadonlyMap<string, string>): string {
  const r = f.result;
  const lines = [
    f.message,
    `parts: ${r.a} (${names.get(r.a) ?? r.a}) and ${r.b} (${names.get(r.b) ?? r.b})`,
    `kind: ${r.kind}${r.geometricKind !== r.kind ? ` (by geometry: ${r.geometricKind})` : ''}`,
  ];
  if (r.volumeMm3 !== null) lines.push(`volume: ${r.volumeMm3} mm³${r.centroidMm ? ` around (${r.centroidMm.join(', ')}) mm` : ''}`);
  if (r.depthMm !== null) lines.push(`depth: ${r.depthMm} mm`);
  if (r.distanceMm !== null) lines.push(`distance: ${r.distanceMm} mm${r.closestPointsMm ? ` between (${r.closestPointsMm[0].join(', ')}) and (${r.closestPointsMm[1].join(', ')})` : ''}`);
  if (r.separationRangeMm !== null) lines.push(`separation: ${r.separationRangeMm[0]} … ${r.separationRangeMm[1]} mm`);
  if (r.resolutionMm !== null) lines.push(`resolution: ±${r.resolutionMm} mm${r.refinedDeflectionMm !== null ? ` (refined to ${r.refinedDeflectionMm} mm)` : ''}`);
  lines.push(`touch tolerance: ${num(r.toleranceMm)} mm, clearance: ${report.settings.clearanceMm} mm`);
  lines.push(`intersecting triangle pairs: ${r.trianglePairs.length}`);
  if (r.coincident !== undefined) lines.push(`coincident copies: ${r.coincident.join(', ')}`);
  if (f.baselineNote) lines.push(f.baselineNote);
  return lines.join('\n');
}

function resultCase(f: Finding, report: InterferenceReport, names: ReadonlyMap<string, string>): Case {
  const r = f.result;
  const name = `${r.a} / ${r.b}`;
  const message = f.baselineNote && f.change !== 'same' ? `${f.message} (${f.baselineNote})` : f.message;
  if (f.verdict === 'fail') {
    return { name, kind: 'fail', body: `<failure${attrs({ message, type: r.kind })}>${xmlText(details(f, report, names))}</failure>` };
  }
  if (f.verdict === 'skip') {
    const why = r.kind === 'ignored' ? `${f.id} ignored${r.reason !== null ? `: ${r.reason}` : ''}` : `${message} (passes: --undecided pass)`;
    return { name, kind: 'skip', body: `<skipped${attrs({ message: why })}/>` };
  }
  return { name, kind: 'pass', body: `<system-out>${xmlText(details(f, report, names))}</system-out>` };
}

/** The clear pairs of the report (every part pair without a result), in part order; null when more than `limit`. */
function clearPairs(report: InterferenceReport, limit: number): { a: string; b: string }[] | null {
  const ids = report.parts.map((p) => p.id);
  const covered = new Set<string>();
  let coveredCount = 0;
  const groupOf = new Map<string, number>();
  report.results.forEach((r, i) => {
    covered.add(pairKey(r.a, r.b));
    if (r.coincident !== undefined) {
      for (const id of r.coincident) groupOf.set(id, i);
      coveredCount += (r.coincident.length * (r.coincident.length - 1)) / 2;
    } else {
      coveredCount++;
    }
  });
  const total = (ids.length * (ids.length - 1)) / 2;
  if (total - coveredCount > limit) return null;
  const out: { a: string; b: string }[] = [];
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = ids[i]!, b = ids[j]!;
      if (covered.has(pairKey(a, b))) continue;
      const g = groupOf.get(a);
      if (g !== undefined && g === groupOf.get(b)) continue;
      out.push({ a, b });
    }
  }
  return out;
}

function suite(input: JunitInput, options: JunitOptions): { xml: string; tests: number; failures: number; errors: number; skipped: number; ms: number } {
  const maxCases = options.maxCases ?? MAX_JUNIT_CASES;
  const report = input.report;
  if (report === null) {
    const code = input.error?.code ?? 'not-checked';
    const message = input.error?.message ?? `${input.input}: not checked`;
    const xml = `  <testsuite${attrs({ name: input.input, tests: 1, failures: 0, errors: 1, skipped: 0, time: '0.000' })}>\n`
      + `    <testcase${attrs({ name: 'check', classname: input.input, time: '0.000' })}>\n`
      + `      <error${attrs({ message, type: code })}>${xmlText(message)}</error>\n`
      + '    </testcase>\n  </testsuite>\n';
    return { xml, tests: 1, failures: 0, errors: 1, skipped: 0, ms: 0 };
  }
  const names = new Map(report.parts.map((p) => [p.id, p.displayName] as const));
  const { findings, resolved, exitCode } = reportFindings(report, options.undecided, input.baseline ?? null);
  const cases: Case[] = findings.map((f) => resultCase(f, report, names));
  const resolvedBy = new Map(resolved.map((x) => [pairKey(x.was.a, x.was.b), x.was] as const));
  const clear = clearPairs(report, Math.max(0, maxCases - cases.length));
  const resolvedNote = (was: ReportResult): string => `resolved since the baseline: it was ${was.kind === 'interference' ? 'an' : 'a'} ${was.kind}`;
  if (clear === null) {
    const count = report.parts.length * (report.parts.length - 1) / 2 - findings.reduce((n, f) => n + (f.result.coincident ? f.result.coincident.length * (f.result.coincident.length - 1) / 2 : 1), 0);
    const lines = [`${count} other part pairs are clear (one test case for them all: more than ${maxCases} test cases otherwise)`];
    for (const was of resolvedBy.values()) lines.push(`${was.a} / ${was.b}: ${resolvedNote(was)}`);
    cases.push({ name: `${count} other pairs`, kind: 'pass', body: `<system-out>${xmlText(lines.join('\n'))}</system-out>` });
  } else {
    for (const { a, b } of clear) {
      const was = resolvedBy.get(pairKey(a, b));
      cases.push({ name: `${a} / ${b}`, kind: 'pass', body: was ? `<system-out>${xmlText(`clear; ${resolvedNote(was)}`)}</system-out>` : '' });
    }
  }
  // Resolved pairs that still have a (passing) result say so too.
  for (const [i, f] of findings.entries()) {
    const was = resolvedBy.get(pairKey(f.result.a, f.result.b));
    if (was !== undefined && cases[i]!.kind === 'pass') {
      cases[i] = { ...cases[i]!, body: `<system-out>${xmlText(`${details(f, report, names)}\n${resolvedNote(was)}`)}</system-out>` };
    }
  }
  const failures = cases.filter((c) => c.kind === 'fail').length;
  const skipped = cases.filter((c) => c.kind === 'skip').length;
  const s = report.summary;
  const properties: [string, string | number][] = [
    ['assembly', report.assembly],
    ...(report.title !== undefined ? [['title', report.title] as [string, string]] : []),
    ['generatedAt', report.generatedAt],
    ...(report.generator ? [['generator', `${report.generator.name} ${report.generator.version}`] as [string, string]] : []),
    ['touchToleranceMm', report.settings.touchToleranceMm],
    ['touchToleranceAuto', String(report.settings.touchToleranceAuto)],
    ['clearanceMm', report.settings.clearanceMm],
    ['contactIsInterference', String(report.settings.contactIsInterference)],
    ['undecided', options.undecided],
    ['parts', s.parts],
    ['triangles', s.triangles],
    ['interferences', s.interferences],
    ['clearanceViolations', s.clearanceViolations],
    ['contacts', s.contacts],
    ['undecidedPairs', s.undecided],
    ['ignored', s.ignored],
    ['contained', s.contained],
    ['refinedPairs', s.refinedPairs],
    ...(input.baseline ? [
      ['baseline', input.baselineFile ?? ''] as [string, string],
      ['baselineNew', findings.filter((f) => f.change === 'new' && f.verdict === 'fail').length] as [string, number],
      ['baselineWorse', findings.filter((f) => f.change === 'worse' && f.verdict === 'fail').length] as [string, number],
      ['baselineResolved', resolved.length] as [string, number],
    ] : []),
    ['exitCode', exitCode],
  ];
  const out: string[] = [];
  out.push(`  <testsuite${attrs({
    name: input.input, tests: cases.length, failures, errors: 0, skipped, time: seconds(s.elapsedMs),
    timestamp: report.generatedAt.replace(/Z$/, ''),
  })}>\n`);
  out.push('    <properties>\n');
  for (const [name, value] of properties) out.push(`      <property${attrs({ name, value })}/>\n`);
  out.push('    </properties>\n');
  for (const c of cases) {
    const open = `    <testcase${attrs({ name: c.name, classname: report.assembly, time: '0.000' })}`;
    out.push(c.body ? `${open}>\n      ${c.body}\n    </testcase>\n` : `${open}/>\n`);
  }
  out.push('  </testsuite>\n');
  return { xml: out.join(''), tests: cases.length, failures, errors: 0, skipped, ms: s.elapsedMs };
}

/** The JUnit XML of a run: one suite per input, in the given order. */
export function reportsToJunit(inputs: readonly JunitInput[], options: JunitOptions): string {
  const suites = inputs.map((i) => suite(i, options));
  const sum = (k: 'tests' | 'failures' | 'errors' | 'skipped' | 'ms'): number => suites.reduce((n, s) => n + s[k], 0);
  return '<?xml version="1.0" encoding="UTF-8"?>\n'
    + `<testsuites${attrs({ name: 'interfere', tests: sum('tests'), failures: sum('failures'), errors: sum('errors'), skipped: sum('skipped'), time: seconds(sum('ms')) })}>\n`
    + suites.map((s) => s.xml).join('')
    + '</testsuites>\n';
}
