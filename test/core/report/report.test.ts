import { describe, it, expect } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { CheckResult, PairResult } from '../../../src-core/check/types.js';
import {
  buildReport, exitCode, isoSeconds, ReportError, REPORT_FORMAT, resultId,
  type BuildReportInput, type InterferenceReport, type ReportPartInput,
} from '../../../src-core/report/model.js';
import { reportToJson, parseReport } from '../../../src-core/report/json.js';
import { reportToCsv, CSV_COLUMNS, csvNumber } from '../../../src-core/report/csv.js';
import { reportToHtml, formatNumber, escapeHtml, contentSecurityPolicy } from '../../../src-core/report/html.js';

// ---------------------------------------------------------------------------------------------
// A hand-made check covering every kind

function pair(p: Partial<PairResult> & Pick<PairResult, 'a' | 'b' | 'kind'>): PairResult {
  return {
    geometricKind: p.kind,
    trianglePairs: new Uint32Array(0),
    volumeMm3: null,
    centroidMm: null,
    contained: false,
    containedPart: null,
    distanceMm: null,
    closestPointsMm: null,
    depthMm: null,
    toleranceMm: 0.01,
    reason: null,
    resolutionMm: null,
    refinedDeflectionMm: null,
    separationRangeMm: null,
    possibleKinds: null,
    ...p,
  };
}

const PARTS: ReportPartInput[] = [
  { id: 'plate', name: 'plate', source: '../cax-if-as1/as1-oc-214.stp', body: 0, triangles: 1200, closed: true },
  { id: 'bolt-1', name: 'bolt', source: '../cax-if-as1/as1-oc-214.stp', body: 5, triangles: 800, closed: true },
  { id: 'nut-2', name: 'nut', source: '../cax-if-as1/as1-oc-214.stp', body: 6, triangles: 400, closed: true },
  { id: 'nut-12', name: 'nut', source: '../cax-if-as1/as1-oc-214.stp', body: 12, triangles: 400, closed: true },
  { id: 'gear', name: 'gearwheel', source: 'meshes/gearwheel.bin.stl', body: 0, triangles: 2000, closed: true },
  { id: 'tet', name: 'tetrahedron', source: 'meshes/tet.stl', body: 0, triangles: 240, closed: false },
];

const RESULTS: PairResult[] = [
  pair({
    a: 'bolt-1', b: 'plate', kind: 'interference',
    trianglePairs: Uint32Array.of(412, 97, 413, 97),
    volumeMm3: 3.52, centroidMm: [12.1, 40.5, 3.0], distanceMm: 0, depthMm: 0.5,
  }),
  pair({
    a: 'plate', b: 'nut-12', kind: 'interference',
    volumeMm3: 664.4, centroidMm: [90, 20, 10], contained: true, containedPart: 'nut-12', distanceMm: 0,
  }),
  pair({ a: 'nut-2', b: 'plate', kind: 'contact', trianglePairs: Uint32Array.of(1, 2), distanceMm: 0, depthMm: 0.004 }),
  pair({
    a: 'gear', b: 'tet', kind: 'clearance', distanceMm: 0.3,
    closestPointsMm: [[1, 2, 3], [1.3, 2, 3]], toleranceMm: 0.05,
  }),
  pair({
    a: 'bolt-1', b: 'nut-2', kind: 'ignored', geometricKind: 'interference',
    trianglePairs: Uint32Array.of(5, 6), reason: 'press fit by design', depthMm: 0.2,
  }),
];

function check(results: PairResult[] = RESULTS, overrides: Partial<CheckResult> = {}): CheckResult {
  return {
    settings: { touchToleranceMm: 0.01, touchToleranceAuto: false, clearanceMm: 0.5, contactIsInterference: false },
    summary: {
      parts: 6, triangles: 5040, interferences: 2, contacts: 1, clearanceViolations: 1, ignored: 1, elapsedMs: 85,
      undecided: 0, refinedPairs: 0, finestDeflectionMm: null,
    },
    results,
    candidatePairs: 9, phaseMs: { broadPhase: 0, collide: 0, classify: 0 },
    warnings: ['part "tet" is not a closed solid: no volume for its pairs'],
    ...overrides,
  };
}

function input(overrides: Partial<BuildReportInput> = {}): BuildReportInput {
  return {
    assemblyName: 'as1-shifted.assembly.json',
    title: 'AS1 with a shifted bolt',
    check: check(),
    parts: PARTS,
    generatedAt: new Date('2026-11-29T12:00:00.789Z'),
    generator: { name: 'Interfere', version: '0.1.0' },
    ...overrides,
  };
}

function expectReportError(fn: () => unknown, field: string | null, text?: RegExp): ReportError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ReportError);
  const err = caught as ReportError;
  expect(err.field).toBe(field);
  if (text) expect(err.message).toMatch(text);
  return err;
}

// ---------------------------------------------------------------------------------------------

describe('buildReport', () => {
  it('writes the format v1 object with every kind', () => {
    const report = buildReport(input());
    expect(report).toEqual({
      format: 'interfere-report',
      version: 1,
      assembly: 'as1-shifted.assembly.json',
      title: 'AS1 with a shifted bolt',
      generatedAt: '2026-11-29T12:00:00Z',
      generator: { name: 'Interfere', version: '0.1.0' },
      settings: { touchToleranceMm: 0.01, clearanceMm: 0.5, contactIsInterference: false, touchToleranceAuto: false },
      summary: {
        parts: 6, triangles: 5040, interferences: 2, contacts: 1, clearanceViolations: 1, ignored: 1,
        elapsedMs: 85, contained: 1, undecided: 0, refinedPairs: 0, finestDeflectionMm: null,
      },
      results: [
        {
          id: 'R1', a: 'bolt-1', b: 'plate', kind: 'interference', status: null, geometricKind: 'interference',
          volumeMm3: 3.52, centroidMm: [12.1, 40.5, 3.0], contained: false, containedPart: null,
          distanceMm: 0, closestPointsMm: null, depthMm: 0.5, toleranceMm: 0.01, reason: null,
          resolutionMm: null, refinedDeflectionMm: null, separationRangeMm: null, possibleKinds: null,
          trianglePairs: [[412, 97], [413, 97]],
        },
        {
          id: 'R2', a: 'plate', b: 'nut-12', kind: 'interference', status: null, geometricKind: 'interference',
          volumeMm3: 664.4, centroidMm: [90, 20, 10], contained: true, containedPart: 'nut-12',
          distanceMm: 0, closestPointsMm: null, depthMm: null, toleranceMm: 0.01, reason: null,
          resolutionMm: null, refinedDeflectionMm: null, separationRangeMm: null, possibleKinds: null,
          trianglePairs: [],
        },
        {
          id: 'R3', a: 'nut-2', b: 'plate', kind: 'contact', status: null, geometricKind: 'contact',
          volumeMm3: null, centroidMm: null, contained: false, containedPart: null,
          distanceMm: 0, closestPointsMm: null, depthMm: 0.004, toleranceMm: 0.01, reason: null,
          resolutionMm: null, refinedDeflectionMm: null, separationRangeMm: null, possibleKinds: null,
          trianglePairs: [[1, 2]],
        },
        {
          id: 'R4', a: 'gear', b: 'tet', kind: 'clearance', status: null, geometricKind: 'clearance',
          volumeMm3: null, centroidMm: null, contained: false, containedPart: null,
          distanceMm: 0.3, closestPointsMm: [[1, 2, 3], [1.3, 2, 3]], depthMm: null, toleranceMm: 0.05, reason: null,
          resolutionMm: null, refinedDeflectionMm: null, separationRangeMm: null, possibleKinds: null,
          trianglePairs: [],
        },
        {
          id: 'R5', a: 'bolt-1', b: 'nut-2', kind: 'ignored', status: 'ignored', geometricKind: 'interference',
          volumeMm3: null, centroidMm: null, contained: false, containedPart: null,
          distanceMm: null, closestPointsMm: null, depthMm: 0.2, toleranceMm: 0.01, reason: 'press fit by design',
          resolutionMm: null, refinedDeflectionMm: null, separationRangeMm: null, possibleKinds: null,
          trianglePairs: [[5, 6]],
        },
      ],
      resolved: [],
      parts: PARTS.map((p) => ({ ...p, path: [p.name], displayName: p.id === 'nut-2' ? 'nut<1>' : p.id === 'nut-12' ? 'nut<2>' : p.name, transform: null })),
      inputs: [],
      warnings: ['part "tet" is not a closed solid: no volume for its pairs'],
    });
  });

  it('has exactly the core fields of formats.md with the documented types', () => {
    const report = JSON.parse(reportToJson(buildReport(input()))) as Record<string, unknown>;
    expect(report['format']).toBe(REPORT_FORMAT);
    expect(report['version']).toBe(1);
    expect(report['generatedAt']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Object.keys(report['settings'] as object)).toEqual(expect.arrayContaining(['touchToleranceMm', 'clearanceMm', 'contactIsInterference']));
    expect(Object.keys(report['summary'] as object)).toEqual(expect.arrayContaining([
      'parts', 'triangles', 'interferences', 'contacts', 'clearanceViolations', 'ignored', 'elapsedMs',
    ]));
    for (const r of report['results'] as Record<string, unknown>[]) {
      expect(typeof r['a']).toBe('string');
      expect(typeof r['b']).toBe('string');
      expect(['interference', 'contact', 'clearance', 'ignored']).toContain(r['kind']);
      expect(Array.isArray(r['trianglePairs'])).toBe(true);
      for (const p of r['trianglePairs'] as unknown[]) expect(p).toEqual([expect.any(Number), expect.any(Number)]);
      expect(r['volumeMm3'] === null || typeof r['volumeMm3'] === 'number').toBe(true);
      expect(r['centroidMm'] === null || (Array.isArray(r['centroidMm']) && r['centroidMm'].length === 3)).toBe(true);
      expect(typeof r['contained']).toBe('boolean');
    }
  });

  it('omits title and generator when not given, and keeps the automatic-tolerance flag', () => {
    const c = check();
    const report = buildReport(input({
      title: undefined, generator: undefined,
      check: { ...c, settings: { ...c.settings, touchToleranceAuto: true, touchToleranceMm: 0.0375 } },
    }));
    expect('title' in report).toBe(false);
    expect('generator' in report).toBe(false);
    expect(report.settings).toEqual({ touchToleranceMm: 0.0375, clearanceMm: 0.5, contactIsInterference: false, touchToleranceAuto: true });
    expect(reportToJson(report)).not.toMatch(/"title"|"generator"/);
  });

  it('writes generatedAt as UTC at seconds precision', () => {
    expect(isoSeconds(new Date(Date.UTC(2026, 10, 29, 12, 0, 0, 999)))).toBe('2026-11-29T12:00:00Z');
    expect(isoSeconds(new Date('2027-01-01T00:59:59.001+01:00'))).toBe('2026-12-31T23:59:59Z');
    expect(isoSeconds(new Date(-1500))).toBe('1969-12-31T23:59:58Z');
    expectReportError(() => buildReport(input({ generatedAt: new Date(NaN) })), 'generatedAt');
  });

  it('counts the summary from the results', () => {
    const c = check(RESULTS, { summary: { ...check().summary, interferences: 7, contacts: 0 } });
    const report = buildReport(input({ check: c }));
    expect(report.summary.interferences).toBe(2);
    expect(report.summary.contacts).toBe(1);
    expect(report.summary.parts).toBe(6);
    expect(report.summary.triangles).toBe(5040);
  });

  it('keeps full precision and copies the inputs', () => {
    const flat = Uint32Array.of(4294967295, 0);
    const centroid: [number, number, number] = [1 / 3, -2 / 7, 1e-12];
    const results = [pair({ a: 'bolt-1', b: 'plate', kind: 'interference', volumeMm3: Math.PI, centroidMm: centroid, trianglePairs: flat })];
    const report = buildReport(input({ check: check(results) }));
    flat[1] = 99;
    centroid[0] = 5;
    expect(report.results[0]!.trianglePairs).toEqual([[4294967295, 0]]);
    expect(report.results[0]!.centroidMm).toEqual([1 / 3, -2 / 7, 1e-12]);
    const back = JSON.parse(reportToJson(report)) as InterferenceReport;
    expect(back.results[0]!.volumeMm3).toBe(Math.PI);
    expect(back.results[0]!.centroidMm).toEqual([1 / 3, -2 / 7, 1e-12]);
  });

  it('writes a figure that is not a finite number as null', () => {
    const results = [pair({
      a: 'bolt-1', b: 'plate', kind: 'interference', volumeMm3: NaN, centroidMm: [NaN, 0, 0],
      distanceMm: Infinity, depthMm: NaN, closestPointsMm: [[0, 0, 0], [0, NaN, 0]],
    })];
    const r = buildReport(input({ check: check(results) })).results[0]!;
    expect([r.volumeMm3, r.centroidMm, r.distanceMm, r.depthMm, r.closestPointsMm]).toEqual([null, null, null, null, null]);
  });

  it('rejects input that cannot make a valid report', () => {
    expectReportError(
      () => buildReport(input({ check: check([pair({ a: 'bolt-1', b: 'plate', kind: 'contact', trianglePairs: Uint32Array.of(1, 2, 3) })]) })),
      'results[0].trianglePairs', /odd length/,
    );
    expectReportError(
      () => buildReport(input({ check: check([pair({ a: 'bolt-1', b: 'plate', kind: 'contact', toleranceMm: NaN })]) })),
      'results[0].toleranceMm',
    );
    expectReportError(() => buildReport(input({ parts: [...PARTS, PARTS[0]!] })), 'parts[6].id', /duplicate/);
    expectReportError(
      () => buildReport(input({ check: check([pair({ a: 'bolt-1', b: 'ghost', kind: 'contact' })]) })),
      'results[0].b', /ghost/,
    );
    expectReportError(
      () => buildReport(input({ check: check([pair({ a: 'plate', b: 'bolt-1', kind: 'contact' }), pair({ a: 'bolt-1', b: 'plate', kind: 'contact' })]) })),
      'results[1]', /repeats/,
    );
    expectReportError(() => buildReport(input({ parts: [{ ...PARTS[0]!, body: -1 }] })), 'parts[0].body');
  });

  it('accepts results naming any id when no parts are listed', () => {
    const report = buildReport(input({ parts: [], check: check([pair({ a: 'x', b: 'y', kind: 'contact' })]) }));
    expect(report.parts).toEqual([]);
    expect(parseReport(reportToJson(report))).toEqual(report);
  });
});

describe('exitCode', () => {
  const build = (results: PairResult[]) => buildReport(input({ check: check(results) }));
  const contact = pair({ a: 'nut-2', b: 'plate', kind: 'contact' });
  const ignored = pair({ a: 'bolt-1', b: 'nut-2', kind: 'ignored', reason: 'by design' });

  it('is 0 with nothing, contacts or ignored pairs only', () => {
    expect(exitCode(build([]))).toBe(0);
    expect(exitCode(build([contact]))).toBe(0);
    expect(exitCode(build([contact, ignored]))).toBe(0);
  });

  it('is 1 with an interference or a clearance violation', () => {
    expect(exitCode(build(RESULTS))).toBe(1);
    expect(exitCode(build([contact, pair({ a: 'gear', b: 'tet', kind: 'clearance', distanceMm: 0.3 })]))).toBe(1);
    expect(exitCode(build([pair({ a: 'plate', b: 'nut-12', kind: 'interference', contained: true })]))).toBe(1);
  });

  it('follows a parsed report too', () => {
    expect(exitCode(parseReport(reportToJson(build(RESULTS))))).toBe(1);
    expect(exitCode(parseReport(reportToJson(build([ignored]))))).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------

/** A parsed report to break on purpose: the edits write values of the wrong type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

function bigReport(pairs: number): InterferenceReport {
  const flat = new Uint32Array(pairs * 2);
  for (let i = 0; i < flat.length; i++) flat[i] = (i * 7919) % 400_000;
  const results = [
    pair({ a: 'bolt-1', b: 'plate', kind: 'interference', trianglePairs: flat, volumeMm3: 141.2, depthMm: 0.66, distanceMm: 0 }),
    ...RESULTS.slice(1),
  ];
  return buildReport(input({ check: check(results) }));
}

describe('reportToJson and parseReport', () => {
  it('round-trips', () => {
    const report = buildReport(input());
    const text = reportToJson(report);
    expect(JSON.parse(text)).toEqual(report);
    expect(parseReport(text)).toEqual(report);
    expect(reportToJson(parseReport(text))).toBe(text);
  });

  it('is indented, with small arrays on one line', () => {
    const text = reportToJson(buildReport(input()));
    expect(text.startsWith('{\n  "format": "interfere-report",\n  "version": 1,\n')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('      "trianglePairs": [[412, 97], [413, 97]]\n');
    expect(text).toContain('"centroidMm": [12.1, 40.5, 3],');
    expect(text).toContain('"closestPointsMm": [[1, 2, 3], [1.3, 2, 3]],');
    expect(text).toContain('"trianglePairs": []\n');
  });

  it('packs many triangle pairs into rows', () => {
    const report = bigReport(50_000);
    const text = reportToJson(report);
    const lines = text.split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(100);
    // About five pairs of 6-digit indices per line: well under one line per pair.
    expect(lines.length).toBeLessThan(50_000 / 4);
    const back = parseReport(text);
    expect(back.results[0]!.trianglePairs.length).toBe(50_000);
    expect(back).toEqual(report);
  });

  it('parses the example of formats.md (whose summary is abbreviated) when not checking consistency', () => {
    const example = `{
      "format": "interfere-report", "version": 1, "assembly": "as1-shifted.assembly.json",
      "generatedAt": "2026-11-29T12:00:00Z",
      "settings": { "touchToleranceMm": 0.01, "clearanceMm": 0, "contactIsInterference": false },
      "summary": { "parts": 18, "triangles": 5040, "interferences": 1, "contacts": 16,
                   "clearanceViolations": 0, "ignored": 1, "elapsedMs": 85 },
      "results": [
        { "a": "bolt-1", "b": "plate", "kind": "interference", "trianglePairs": [[412, 97], [413, 97]],
          "volumeMm3": 3.52, "centroidMm": [12.1, 40.5, 3.0], "contained": false, "futureField": {} }
      ]
    }`;
    expectReportError(() => parseReport(example), 'summary.contacts', /16 but results hold 0/);
    const report = parseReport(example, { checkConsistency: false });
    expect(report.results[0]).toEqual({
      id: 'R1', a: 'bolt-1', b: 'plate', kind: 'interference', status: null, geometricKind: 'interference',
      volumeMm3: 3.52, centroidMm: [12.1, 40.5, 3], contained: false, containedPart: null,
      distanceMm: null, closestPointsMm: null, depthMm: null, toleranceMm: 0.01, reason: null,
      resolutionMm: null, refinedDeflectionMm: null, separationRangeMm: null, possibleKinds: null,
      trianglePairs: [[412, 97], [413, 97]],
    });
    expect(report.settings.touchToleranceAuto).toBe(false);
    expect(report.parts).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(exitCode(report)).toBe(1);
  });

  it('rejects what is not a valid report, naming the field', () => {
    const good = JSON.parse(reportToJson(buildReport(input()))) as Record<string, unknown>;
    const variant = (edit: (o: Loose) => void): string => {
      const o = structuredClone(good) as Loose;
      edit(o);
      return JSON.stringify(o);
    };
    expectReportError(() => parseReport('{"format": '), null, /not valid JSON/);
    expectReportError(() => parseReport('[]'), '(top level)');
    expectReportError(() => parseReport(variant((o) => { o['format'] = 'interfere-assembly'; })), 'format');
    expectReportError(() => parseReport(variant((o) => { o['version'] = 2; })), 'version');
    expectReportError(() => parseReport(variant((o) => { o['generatedAt'] = 'yesterday'; })), 'generatedAt');
    expectReportError(() => parseReport(variant((o) => { delete o['results']; })), 'results');
    expectReportError(() => parseReport(variant((o) => { o['results'][2].kind = 'touch'; })), 'results[2].kind');
    expectReportError(() => parseReport(variant((o) => { o['results'][0].trianglePairs[1] = [1]; })), 'results[0].trianglePairs[1]');
    expectReportError(() => parseReport(variant((o) => { o['results'][0].trianglePairs[0][1] = -4; })), 'results[0].trianglePairs[0][1]');
    expectReportError(() => parseReport(variant((o) => { o['results'][0].centroidMm = [1, 2]; })), 'results[0].centroidMm');
    expectReportError(() => parseReport(variant((o) => { delete o['results'][0].contained; })), 'results[0].contained');
    expectReportError(() => parseReport(variant((o) => { o['results'][1].volumeMm3 = '664'; })), 'results[1].volumeMm3');
    expectReportError(() => parseReport(variant((o) => { o['settings'].clearanceMm = -1; })), 'settings.clearanceMm');
    expectReportError(() => parseReport(variant((o) => { o['summary'].parts = 1.5; })), 'summary.parts');
    expectReportError(() => parseReport(variant((o) => { o['summary'].ignored = 0; })), 'summary.ignored');
    expectReportError(() => parseReport(variant((o) => { o['parts'][0].id = 7; })), 'parts[0].id');
    expectReportError(() => parseReport(variant((o) => { o['title'] = 7; })), 'title');
  });

  it('writes a 400k-triangle-scale report in linear time', () => {
    // Not timed; a quadratic writer would take minutes here.
    const text = reportToJson(bigReport(200_000));
    expect(text.length).toBeGreaterThan(200_000 * 8);
  });
});

// ---------------------------------------------------------------------------------------------

/** An RFC 4180 reader, for reading the CSV back. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = text.startsWith('\uFEFF') ? 1 : 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i += 2; continue; }
      if (c === '"') { quoted = false; i++; continue; }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') { quoted = true; i++; continue; }
    if (c === ',') { row.push(field); field = ''; i++; continue; }
    if (c === '\r' && text[i + 1] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i += 2; continue; }
    if (c === '"' || c === '\r' || c === '\n') throw new Error(`unquoted ${JSON.stringify(c)} at ${i}`);
    field += c;
    i++;
  }
  if (field !== '' || row.length > 0) throw new Error('last line lacks CRLF');
  return rows;
}

describe('reportToCsv', () => {
  it('writes a header and one row per result', () => {
    const text = reportToCsv(buildReport(input()));
    const rows = readCsv(text);
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows[0]).toEqual([
      'id', 'a', 'a_name', 'b', 'b_name', 'kind', 'status', 'volume_mm3', 'centroid_x_mm', 'centroid_y_mm', 'centroid_z_mm',
      'contained', 'distance_mm', 'depth_mm', 'triangle_pairs', 'tolerance_mm', 'reason',
      'resolution_mm', 'refined_deflection_mm', 'separation_min_mm', 'separation_max_mm', 'possible_kinds',
    ]);
    expect(rows.slice(1)).toEqual([
      ['R1', 'bolt-1', 'bolt', 'plate', 'plate', 'interference', '', '3.52', '12.1', '40.5', '3', 'false', '0', '0.5', '2', '0.01', '', '', '', '', '', ''],
      ['R2', 'plate', 'plate', 'nut-12', 'nut<2>', 'interference', '', '664.4', '90', '20', '10', 'true', '0', '', '0', '0.01', '', '', '', '', '', ''],
      ['R3', 'nut-2', 'nut<1>', 'plate', 'plate', 'contact', '', '', '', '', '', 'false', '0', '0.004', '1', '0.01', '', '', '', '', '', ''],
      ['R4', 'gear', 'gearwheel', 'tet', 'tetrahedron', 'clearance', '', '', '', '', '', 'false', '0.3', '', '0', '0.05', '', '', '', '', '', ''],
      ['R5', 'bolt-1', 'bolt', 'nut-2', 'nut<1>', 'ignored', 'ignored', '', '', '', '', 'false', '', '0.2', '1', '0.01', 'press fit by design', '', '', '', '', ''],
    ]);
    expect(text.split('\r\n').length).toBe(7);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('quotes fields with commas, quotes and line breaks, and neutralises formulas', () => {
    const parts: ReportPartInput[] = [
      { id: 'p,1', name: 'say "hi"', source: 's', body: 0, triangles: 1, closed: true },
      { id: '=HYPERLINK("http://x","y")', name: 'line\r\nbreak', source: 's', body: 1, triangles: 1, closed: true },
      { id: '-1', name: '+SUM(A1)', source: 's', body: 2, triangles: 1, closed: true },
      { id: '@cmd', name: '\tTAB', source: 's', body: 3, triangles: 1, closed: true },
      { id: 'q', name: 'naïve 部品 ³', source: 's', body: 4, triangles: 1, closed: true },
    ];
    const results = [
      pair({ a: 'p,1', b: '=HYPERLINK("http://x","y")', kind: 'ignored', reason: '=1+1, "quoted"\nnext line' }),
      pair({ a: '-1', b: '@cmd', kind: 'interference', volumeMm3: 1 / 3, centroidMm: [-1.5, -0.0000004, 2e-7], depthMm: -0 }),
      pair({ a: 'q', b: 'p,1', kind: 'contact', reason: '-looks like a formula' }),
    ];
    const report = buildReport(input({ parts, check: check(results) }));
    const text = reportToCsv(report);
    const rows = readCsv(text);
    expect(rows.slice(1).map((r) => r.slice(1, 5))).toEqual([
      ['p,1', 'say "hi"', `'=HYPERLINK("http://x","y")`, 'line\r\nbreak'],
      [`'-1`, `'+SUM(A1)`, `'@cmd`, `'\tTAB`],
      ['q', 'naïve 部品 ³', 'p,1', 'say "hi"'],
    ]);
    const reason = CSV_COLUMNS.indexOf('reason');
    expect(rows[1]![reason]).toBe(`'=1+1, "quoted"\nnext line`);
    expect(rows[3]![reason]).toBe(`'-looks like a formula`);
    // Numbers are never prefixed: negative centroids stay numbers.
    const volume = CSV_COLUMNS.indexOf('volume_mm3');
    expect(rows[2]!.slice(volume, volume + 7)).toEqual(['0.333333', '-1.5', '0', '0', 'false', '', '0']);
    expect(text).toContain('"say ""hi"""');
    expect(text).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    // A field never starts with a formula character after its opening quote either.
    for (const row of rows.slice(1)) {
      for (const [col, cell] of row.entries()) {
        if (['a', 'a_name', 'b', 'b_name', 'reason'].includes(CSV_COLUMNS[col]!)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      }
    }
  });

  it('formats numbers as plain decimals', () => {
    expect(csvNumber(null)).toBe('');
    expect(csvNumber(NaN)).toBe('');
    expect(csvNumber(0)).toBe('0');
    expect(csvNumber(-0)).toBe('0');
    expect(csvNumber(533000)).toBe('533000');
    expect(csvNumber(2.5e-7)).toBe('0');
    expect(csvNumber(1.23456789)).toBe('1.234568');
    expect(csvNumber(-0.0004)).toBe('-0.0004');
    expect(csvNumber(1e-5)).toBe('0.00001');
  });

  it('starts with a byte order mark unless told not to', () => {
    expect(reportToCsv(buildReport(input())).startsWith('\uFEFFid,a,a_name,')).toBe(true);
    expect(new TextEncoder().encode(reportToCsv(buildReport(input()))).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
    expect(reportToCsv(buildReport(input({ check: check([]) })), { bom: false })).toBe(`${CSV_COLUMNS.join(',')}\r\n`);
  });

  it('numbers the results and writes the statuses it is given', () => {
    const report = buildReport(input());
    const rows = readCsv(reportToCsv(report, { statuses: ['new', 'active', undefined, '=bad'] }));
    const id = CSV_COLUMNS.indexOf('id');
    const status = CSV_COLUMNS.indexOf('status');
    expect(rows.slice(1).map((r) => [r[id], r[status]])).toEqual([['R1', 'new'], ['R2', 'active'], ['R3', ''], ['R4', `'=bad`], ['R5', 'ignored']]);
    expect(report.results.map((_, i) => resultId(i))).toEqual(['R1', 'R2', 'R3', 'R4', 'R5']);
  });
});

// ---------------------------------------------------------------------------------------------

const HOSTILE = '<img src=x onerror=alert(1)>';
const HOSTILE_ESCAPED = '&lt;img src=x onerror=alert(1)&gt;';
const BREAKOUT = `"'><script>alert(2)</script>`;

function hostileReport(): InterferenceReport {
  const parts: ReportPartInput[] = [
    { id: HOSTILE, name: BREAKOUT, source: `${HOSTILE}.stl`, body: 0, triangles: 12, closed: true },
    { id: 'p2', name: HOSTILE, source: '</style><style>*{}', body: 1, triangles: 12, closed: false },
    { id: BREAKOUT, name: 'ok & fine', source: 's.stl', body: 2, triangles: 12, closed: true },
  ];
  const results = [
    pair({ a: HOSTILE, b: 'p2', kind: 'ignored', reason: HOSTILE, geometricKind: 'contact' }),
    pair({ a: 'p2', b: BREAKOUT, kind: 'interference', volumeMm3: 3.52, centroidMm: [1, 2, 3], depthMm: 0.5, distanceMm: 0, contained: true, containedPart: BREAKOUT }),
    pair({ a: HOSTILE, b: BREAKOUT, kind: 'clearance', distanceMm: 0.3, closestPointsMm: [[0, 0, 0], [0.3, 0, 0]] }),
  ];
  return buildReport(input({
    assemblyName: `${HOSTILE}.assembly.json`,
    title: BREAKOUT,
    parts,
    check: check(results, { warnings: [HOSTILE] }),
    generator: { name: `Interfere${HOSTILE}`, version: '0.1.0' },
  }));
}

function inlineBlock(html: string, tag: 'script' | 'style'): string {
  const all = [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))];
  expect(all.length).toBe(1);
  return all[0]![1]!;
}

function b64sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

/** The rows of the first table with the given class, as the cells' text (tags dropped, entities decoded). */
function tableRows(html: string, cls: string): string[][] {
  const table = new RegExp(`<table class="sortable ${cls}"[\\s\\S]*?<tbody>([\\s\\S]*?)</tbody>`).exec(html);
  expect(table).not.toBeNull();
  return [...table![1]!.matchAll(/<tr(?: [^>]*)?>([\s\S]*?)<\/tr>/g)].map((m) =>
    [...m[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => decode(c[1]!.replace(/<[^>]*>/g, ''))));
}

function kindOf(cellText: string): string {
  return ['interference', 'clearance', 'contact', 'ignored'].find((k) => cellText.startsWith(k)) ?? cellText;
}

function decode(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

describe('reportToHtml', () => {
  it('escapes every string that came from a file', () => {
    const html = reportToHtml(hostileReport());
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('</style><style>');
    expect(html).toContain(HOSTILE_ESCAPED);
    expect(html).toContain('&quot;&#39;&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(html).toContain('ok &amp; fine');
    // One script and one style element: the page's own.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html.match(/<style/g)).toHaveLength(1);
    // The hostile strings are all there, as text.
    const results = tableRows(html, 'results');
    expect(results.some((r) => r[1]!.includes(HOSTILE))).toBe(true); // the reason
    expect(results.some((r) => r[3]!.includes(BREAKOUT) && r[3]!.includes(HOSTILE))).toBe(true);
    const parts = tableRows(html, 'parts');
    expect(parts[0]).toEqual([HOSTILE, BREAKOUT, `${HOSTILE}.stl`, '0', '12', 'yes', '—', '—']);
    expect(parts[1]).toEqual(['p2', HOSTILE, '</style><style>*{}', '1', '12', 'no', '—', '—']);
  });

  it('escapes & < > " \'', () => {
    expect(escapeHtml(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&#39;f');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });

  it('refers to nothing outside the file', () => {
    const html = reportToHtml(buildReport(input()));
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/\b(src|href)\s*=/i);
    expect(html).not.toMatch(/@import|url\(/i);
    expect(reportToHtml(hostileReport())).not.toMatch(/https?:\/\//i);
  });

  it('has a Content-Security-Policy that allows only its own inline script and style', () => {
    const html = reportToHtml(buildReport(input()));
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
    expect(meta).not.toBeNull();
    const csp = meta![1]!;
    expect(csp).toBe(contentSecurityPolicy());
    const directives = new Map(csp.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values] as const;
    }));
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual([`'sha256-${b64sha256(inlineBlock(html, 'script'))}'`]);
    expect(directives.get('style-src')).toEqual([`'sha256-${b64sha256(inlineBlock(html, 'style'))}'`]);
    expect(csp).not.toMatch(/unsafe|\*|data:|nonce/);
    // The CSP comes before the style and script it governs, and no inline handler or style attribute is used.
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<style>'));
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/\sstyle=/i);
  });

  it('has one table row per result, most severe first, with units', () => {
    const report = buildReport(input());
    const html = reportToHtml(report);
    const rows = tableRows(html, 'results');
    expect(rows).toHaveLength(report.results.length);
    expect(rows.map((r) => kindOf(r[1]!))).toEqual(['interference', 'interference', 'clearance', 'contact', 'ignored']);
    // The location is printed (centroid, closest points), not a hover tooltip.
    expect(rows[0]).toEqual(['R1', 'interference', '—', 'bolt bolt-1', 'plate', '3.52 mm³', '(12.1, 40.5, 3) mm', '0.5 mm', '0 mm', '—', '2', 'no', '0.01 mm', 'as given']);
    expect(rows[1]).toEqual(['R2', 'interference', '—', 'plate', 'nut<2> nut-12', '664.4 mm³', '(90, 20, 10) mm', '—', '0 mm', '—', '0', 'yes: nut<2> inside', '0.01 mm', 'as given']);
    expect(rows[2]).toEqual(['R4', 'clearance', '—', 'gearwheel gear', 'tetrahedron tet', '—', '—', '—', '0.3 mm', '(1, 2, 3) mm(1.3, 2, 3) mm', '0', 'no', '0.05 mm', 'as given']);
    expect(rows[4]![1]).toBe('ignoredpress fit by designgeometry: interference');
    expect(rows[4]![2]).toBe('Ignored');
    // Header labels with units; headers are buttons.
    for (const label of ['No.', 'Kind', 'Status', 'Part A', 'Part B', 'Volume (mm³)', 'Centroid (mm)', 'Depth (mm)', 'Min distance (mm)', 'Closest points (mm)', 'Triangle pairs', 'Contained', 'Tolerance (mm)']) {
      expect(html).toContain(`<button type="button">${label}</button>`);
    }
    // Exact values for sorting; no tooltips.
    expect(html).toContain('data-v="3.52"');
    expect(html).not.toContain('title="centroid');
    // Each result row can be linked to by its number.
    expect(html).toContain('<tr id="R1">');
  });

  it('shows the summary, settings, parts and footer', () => {
    const c = check();
    const report = buildReport(input({ check: { ...c, settings: { ...c.settings, touchToleranceAuto: true } } }));
    const html = reportToHtml(report);
    expect(html).toContain('<title>Interference report: AS1 with a shifted bolt</title>');
    expect(html).toContain('as1-shifted.assembly.json');
    expect(html).toContain('class="badge k-interference"><span class="n">2</span> interferences');
    expect(html).toContain('class="badge k-clearance"><span class="n">1</span> clearance violation<');
    expect(html).toContain('class="badge k-contact"><span class="n">1</span> contact<');
    expect(html).toContain('class="badge k-ignored"><span class="n">1</span> ignored pair<');
    expect(html).toContain('5,040 triangles');
    expect(html).toContain('0.01 mm (the default)');
    expect(html).toContain('0.5 mm: pairs closer');
    expect(html).toContain('status fail');
    expect(html).toContain('<time datetime="2026-11-29T12:00:00Z">2026-11-29 12:00:00 UTC</time> by Interfere 0.1.0');
    expect(tableRows(html, 'parts')).toHaveLength(PARTS.length);
    expect(html).toContain('@media print');
    expect(html).toContain('position: sticky');
    expect(html).toContain('tabular-nums');
    expect(html).toContain('system-ui');
    const pass = reportToHtml(buildReport(input({ check: check([]) })), { title: 'T', generator: { name: 'X' } });
    expect(pass).toContain('status pass');
    expect(pass).toContain('No pair interferes');
    expect(pass).toContain('<title>Interference report: T</title>');
    expect(pass).toContain(' by X ·');
  });

  it('formats numbers for people', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(533000.7)).toBe('533,001');
    expect(formatNumber(9096.3)).toBe('9,096');
    expect(formatNumber(58.9)).toBe('58.9');
    expect(formatNumber(2.2913)).toBe('2.291');
    expect(formatNumber(0.0004)).toBe('0.0004');
    expect(formatNumber(0.00012346)).toBe('0.0001235');
    expect(formatNumber(-1234.5)).toBe('-1,235');
    expect(formatNumber(-0.00001)).toBe('-0.00001');
    expect(formatNumber(2.5e-9)).toBe('2.50e-9');
    expect(formatNumber(1234567890)).toBe('1,234,567,890');
  });

  it('renders a report with 50k triangle pairs and many results', () => {
    const report = bigReport(50_000);
    const many = buildReport(input({
      parts: Array.from({ length: 300 }, (_, i) => ({ id: `p${i}`, name: `part ${i}`, source: 's.stl', body: i, triangles: 100, closed: true })),
      check: check(Array.from({ length: 5000 }, (_, k) => pair({
        a: `p${k % 300}`, b: `p${(k % 300 + 1 + Math.floor(k / 300)) % 300}`, kind: 'contact',
        trianglePairs: new Uint32Array(20), distanceMm: 0,
      }))),
    }));
    expect(tableRows(reportToHtml(report), 'results')).toHaveLength(report.results.length);
    expect(tableRows(reportToHtml(many), 'results')).toHaveLength(5000);
    expect(readCsv(reportToCsv(many))).toHaveLength(5001);
  });
});

// ---------------------------------------------------------------------------------------------
// The sorting script, run against the rendered table through a minimal stand-in for the DOM

class FakeElement {
  readonly attrs = new Map<string, string>();
  readonly children: FakeElement[] = [];
  parentNode: FakeElement | null = null;
  textContent = '';
  listeners: (() => void)[] = [];
  constructor(readonly tag: string) {}
  getAttribute(n: string): string | null { return this.attrs.get(n) ?? null; }
  hasAttribute(n: string): boolean { return this.attrs.has(n); }
  setAttribute(n: string, v: string): void { this.attrs.set(n, v); }
  removeAttribute(n: string): void { this.attrs.delete(n); }
  appendChild(c: FakeElement): void {
    const nodes = c.tag === '#fragment' ? [...c.children] : [c];
    if (c.tag === '#fragment') c.children.length = 0;
    for (const node of nodes) {
      if (node.parentNode) node.parentNode.children.splice(node.parentNode.children.indexOf(node), 1);
      node.parentNode = this;
      this.children.push(node);
    }
  }
  get rows(): FakeElement[] { return this.children; }
  get cells(): FakeElement[] { return this.children; }
  get tHead(): FakeElement { return this.children.find((c) => c.tag === 'thead')!; }
  get tBodies(): FakeElement[] { return this.children.filter((c) => c.tag === 'tbody'); }
  querySelector(sel: string): FakeElement | null { return sel === 'button' ? this.children.find((c) => c.tag === 'button') ?? null : null; }
  addEventListener(_type: string, fn: () => void): void { this.listeners.push(fn); }
}

function fakeDom(html: string): { document: object; tables: FakeElement[] } {
  const tables: FakeElement[] = [];
  for (const t of html.matchAll(/<table class="sortable[^"]*"[^>]*>([\s\S]*?)<\/table>/g)) {
    const table = new FakeElement('table');
    const thead = new FakeElement('thead');
    const head = new FakeElement('tr');
    for (const h of t[1]!.match(/<thead>([\s\S]*?)<\/thead>/)![1]!.matchAll(/<th([^>]*)>([\s\S]*?)<\/th>/g)) {
      const th = new FakeElement('th');
      for (const a of h[1]!.matchAll(/([a-z-]+)="([^"]*)"/g)) th.setAttribute(a[1]!, a[2]!);
      if (h[2]!.includes('<button')) th.appendChild(new FakeElement('button'));
      head.appendChild(th);
    }
    thead.appendChild(head);
    table.appendChild(thead);
    const tbody = new FakeElement('tbody');
    for (const r of t[1]!.match(/<tbody>([\s\S]*?)<\/tbody>/)![1]!.matchAll(/<tr(?: [^>]*)?>([\s\S]*?)<\/tr>/g)) {
      const tr = new FakeElement('tr');
      for (const c of r[1]!.matchAll(/<td([^>]*)>([\s\S]*?)<\/td>/g)) {
        const td = new FakeElement('td');
        for (const a of c[1]!.matchAll(/([a-z-]+)="([^"]*)"/g)) td.setAttribute(a[1]!, decode(a[2]!));
        td.textContent = decode(c[2]!.replace(/<[^>]*>/g, ''));
        tr.appendChild(td);
      }
      tbody.appendChild(tr);
    }
    table.appendChild(tbody);
    tables.push(table);
  }
  const document = {
    querySelectorAll: (sel: string) => (sel === 'table.sortable' ? tables : []),
    createDocumentFragment: () => new FakeElement('#fragment'),
  };
  return { document, tables };
}

describe('the sorting script', () => {
  function setup() {
    const html = reportToHtml(buildReport(input()));
    const { document, tables } = fakeDom(html);
    new Function('document', inlineBlock(html, 'script'))(document);
    const results = tables[0]!;
    const click = (col: number) => results.tHead.rows[0]!.cells[col]!.children[0]!.listeners.forEach((fn) => fn());
    const column = (col: number) => results.tBodies[0]!.rows.map((r) => r.cells[col]!.textContent);
    const sortState = () => results.tHead.rows[0]!.cells.map((c) => c.getAttribute('aria-sort'));
    return { tables, click, column, sortState };
  }

  it('binds every header button of both tables', () => {
    const { tables } = setup();
    expect(tables).toHaveLength(2);
    for (const t of tables) for (const th of t.tHead.rows[0]!.cells) expect(th.children[0]!.listeners).toHaveLength(1);
  });

  it('sorts numeric columns numerically, unmeasured values last, and toggles direction', () => {
    const { click, column, sortState } = setup();
    click(5); // volume
    expect(column(5)).toEqual(['3.52 mm³', '664.4 mm³', '—', '—', '—']);
    expect(sortState()[5]).toBe('ascending');
    expect(sortState()[1]).toBeNull();
    click(5);
    expect(column(5)).toEqual(['664.4 mm³', '3.52 mm³', '—', '—', '—']);
    expect(sortState()[5]).toBe('descending');
    click(7); // depth: 0.5, 0.004, 0.2 → numeric, not text order
    expect(column(7)).toEqual(['0.004 mm', '0.2 mm', '0.5 mm', '—', '—']);
    click(0); // the result numbers, by number
    expect(column(0)).toEqual(['R1', 'R2', 'R3', 'R4', 'R5']);
  });

  it('sorts text columns and kind by severity', () => {
    const { click, column } = setup();
    click(1); // kind starts ascending by severity: the first click reverses it
    expect(column(1).map(kindOf)).toEqual(['ignored', 'contact', 'clearance', 'interference', 'interference']);
    click(3);
    expect(column(3)).toEqual(['bolt bolt-1', 'bolt bolt-1', 'gearwheel gear', 'nut<1> nut-2', 'plate']);
    click(3);
    expect(column(3)).toEqual(['plate', 'nut<1> nut-2', 'gearwheel gear', 'bolt bolt-1', 'bolt bolt-1']);
    click(1);
    expect(column(1).map(kindOf)).toEqual(['interference', 'interference', 'clearance', 'contact', 'ignored']);
  });

  it('leaves the placeholder row of an empty table alone', () => {
    const html = reportToHtml(buildReport(input({ check: check([]) })));
    const { document, tables } = fakeDom(html);
    new Function('document', inlineBlock(html, 'script'))(document);
    for (const th of tables[0]!.tHead.rows[0]!.cells) th.children[0]!.listeners.forEach((fn) => fn());
    expect(tables[0]!.tBodies[0]!.rows).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// The ground-truth cases: a report made of the truth's pairs says what the truth expects

const TRUTH = path.resolve(process.cwd(), 'test/data/truth');

interface TruthPair {
  a: string; b: string; kind: PairResult['kind'] | 'clear'; geometricKind: PairResult['kind'] | 'clear';
  ignoredReason?: string; contained: boolean; containedPart?: string | null;
  volumeMm3: number | null; centroidMm: [number, number, number] | null; distanceMm: number | null;
  triPairs: [number, number, number][];
}

interface Truth {
  settings: { touchToleranceMm: number; clearanceMm: number; contactIsInterference: boolean };
  expected: {
    exitCode: number; interferences: number; contacts: number; clearanceViolations: number; ignored: number;
    contained: number; results: string[][];
  };
  totals: { parts: number; triangles: number };
  parts: { id: string; source: string; body: number; triangles: number; mesh: { closed: boolean } }[];
  pairs: TruthPair[];
}

describe('reports of the ground-truth cases', () => {
  const cases = readdirSync(TRUTH).filter((f) => f.endsWith('.truth.json')).sort();

  it('finds the truth files', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
  });

  for (const file of cases) {
    it(file.replace('.truth.json', ''), () => {
      const truth = JSON.parse(readFileSync(path.join(TRUTH, file), 'utf8')) as Truth;
      const results = truth.pairs.filter((p) => p.kind !== 'clear').map((p) => pair({
        a: p.a, b: p.b, kind: p.kind as PairResult['kind'], geometricKind: p.geometricKind,
        trianglePairs: Uint32Array.from(p.triPairs.flatMap(([i, j]) => [i, j])),
        volumeMm3: p.volumeMm3, centroidMm: p.centroidMm, contained: p.contained,
        containedPart: p.containedPart ?? null, distanceMm: p.distanceMm,
        toleranceMm: truth.settings.touchToleranceMm, reason: p.ignoredReason ?? null,
      }));
      const report = buildReport({
        assemblyName: file.replace('.truth.json', '.assembly.json'),
        check: {
          settings: { ...truth.settings, touchToleranceAuto: false },
          summary: {
            parts: truth.totals.parts, triangles: truth.totals.triangles, interferences: 0, contacts: 0,
            clearanceViolations: 0, ignored: 0, elapsedMs: 1, undecided: 0, refinedPairs: 0, finestDeflectionMm: null,
          },
          results, candidatePairs: results.length, phaseMs: { broadPhase: 0, collide: 0, classify: 0 }, warnings: [],
        },
        parts: truth.parts.map((p) => ({ id: p.id, name: p.id, source: p.source, body: p.body, triangles: p.triangles, closed: p.mesh.closed })),
        generatedAt: new Date('2026-11-29T12:00:00Z'),
      });
      const e = truth.expected;
      const back = parseReport(reportToJson(report));
      expect(back).toEqual(report);
      expect(back.summary).toMatchObject({
        interferences: e.interferences, contacts: e.contacts, clearanceViolations: e.clearanceViolations,
        ignored: e.ignored, contained: e.contained, triangles: truth.totals.triangles,
      });
      expect(exitCode(back)).toBe(e.exitCode);
      const listed = back.results.map((r) => [r.a, r.b, r.kind, ...(r.contained ? ['contained'] : [])]);
      expect(listed).toEqual(e.results);
      expect(readCsv(reportToCsv(back))).toHaveLength(e.results.length + 1);
      expect(tableRows(reportToHtml(back), 'results')).toHaveLength(e.results.length);
    });
  }
});
