/** What a report carries to be trusted later: result numbers and statuses, names, placements, inputs, the printed page. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { pairKey } from '../../../src-core/check/status.js';
import { reportToCsv } from '../../../src-core/report/csv.js';
import { STYLE, reportToHtml } from '../../../src-core/report/html.js';
import { parseReport, reportToJson } from '../../../src-core/report/json.js';
import { buildReport, ReportError, type BuildReportInput, type ReportInput } from '../../../src-core/report/model.js';
import { rotationAnglesOf, translationOf } from '../../../src-core/report/placement.js';
import { checkOf, IDS, parts, RESULTS } from './sample.js';

const INPUTS: ReportInput[] = [
  { role: 'assembly', sourceId: null, path: '/models/sample.assembly.json', sizeBytes: 1234, modifiedAt: '2026-11-28T08:30:00.250Z', sha256: 'a'.repeat(64) },
  { role: 'source', sourceId: 'as1', path: '/models/as1 <&>.stp', sizeBytes: 2_345_678, modifiedAt: '2026-11-27T10:00:00.000Z', sha256: '0123456789abcdef'.repeat(4) },
];

// A quarter turn about z and a shift.
const TURNED = [0, -1, 0, 10, 1, 0, 0, -2.5, 0, 0, 1, 0, 0, 0, 0, 1];

function input(overrides: Partial<BuildReportInput> = {}): BuildReportInput {
  const ps = parts(IDS).map((p, i) => ({
    ...p,
    path: ['top', i < 3 ? 'sub' : 'other', p.name],
    ...(p.id === 'bolt-1' ? { transform: TURNED } : { transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] }),
  }));
  return {
    assemblyName: 'sample.assembly.json',
    check: checkOf(RESULTS),
    parts: ps,
    generatedAt: new Date('2026-11-29T12:00:00Z'),
    generator: { name: 'Interfere', version: '0.1.0' },
    inputs: INPUTS,
    ...overrides,
  };
}

function validator(): (data: unknown) => string[] {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const validate = ajv.compile(JSON.parse(readFileSync(path.resolve(process.cwd(), 'docs/report.schema.json'), 'utf8')) as object);
  return (data) => (validate(data) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`));
}

describe('result numbers and statuses', () => {
  it("use the document's numbers and number new pairs after them, in the results' order", () => {
    const ids = new Map([[pairKey('plate', 'nut-2'), 'R5'], [pairKey('gear', 'tet'), 'R2'], [pairKey('x', 'y'), 'R9']]);
    const report = buildReport(input({ review: { ids } }));
    const byPair = report.results.map((r) => `${r.id} ${r.a}/${r.b}`);
    expect(byPair).toEqual(['R10 plate/bolt-1', 'R5 plate/nut-2', 'R11 plate/pin', 'R12 bolt-1/nut-2', 'R2 gear/tet', 'R13 c1/c2']);
  });

  it("take the review's statuses, and list the pairs it resolved with their numbers", () => {
    const statuses = new Map([[pairKey('plate', 'bolt-1'), 'active' as const], [pairKey('plate', 'nut-2'), 'new' as const]]);
    const ids = new Map([[pairKey('plate', 'gear'), 'R1']]);
    const report = buildReport(input({ review: { ids, statuses, resolved: [{ a: 'plate', b: 'gear' }] } }));
    expect(report.results.map((r) => r.status)).toEqual(['active', 'new', null, 'ignored', null, null]);
    expect(report.resolved).toEqual([{ id: 'R1', a: 'plate', b: 'gear' }]);
    // Without a review: ignored for an ignored pair, else none.
    expect(buildReport(input()).results.map((r) => r.status)).toEqual([null, null, null, 'ignored', null, null]);
    // The CSV's status column is the report's unless the caller says otherwise (the command line's baseline).
    const csv = reportToCsv(report).split('\r\n').slice(1, -1).map((l) => l.split(',')[6]);
    expect(csv).toEqual(['active', 'new', '', 'ignored', '', '']);
    const html = reportToHtml(report);
    expect(html).toContain('<td data-v="1" class="st-active">Active</td>');
    expect(html).toContain('<td data-v="3" class="st-ignored">Ignored</td>');
    expect(html).toMatch(/<h2 id="h-resolved">Resolved<\/h2>[\s\S]*R1<\/td><td class="st-resolved">Resolved<\/td>/);
  });

  it('refuses a resolved pair without a number and a report repeating a number', () => {
    expect(() => buildReport(input({ review: { resolved: [{ a: 'plate', b: 'gear' }] } }))).toThrow(/resolved: the resolved pair "plate"\/"gear" has no result id/);
    const report = JSON.parse(reportToJson(buildReport(input()))) as { results: { id: string }[] };
    report.results[1]!.id = report.results[0]!.id;
    expect(() => parseReport(JSON.stringify(report))).toThrow(ReportError);
    expect(() => parseReport(JSON.stringify(report))).toThrow(/results\[1\]\.id: repeats the result id "R1"/);
  });
});

describe('names, placements and inputs', () => {
  it('lists every part with its path, display name and transform, and every input file', () => {
    const report = buildReport(input());
    const bolt = report.parts.find((p) => p.id === 'bolt-1')!;
    expect(bolt.path).toEqual(['top', 'sub', 'part bolt-1']);
    expect(bolt.displayName).toBe('top / sub / part bolt-1');
    expect(bolt.transform).toEqual(TURNED);
    expect(report.inputs).toEqual(INPUTS);
    expect(validator()(JSON.parse(reportToJson(report)))).toEqual([]);
    // Read back as written.
    expect(parseReport(reportToJson(report))).toEqual(report);
    // A report from elsewhere without them: neutral values.
    const bare = JSON.parse(reportToJson(report)) as Record<string, unknown> & { parts: Record<string, unknown>[] };
    delete bare['inputs'];
    delete bare['resolved'];
    for (const p of bare.parts) {
      delete p['path'];
      delete p['displayName'];
      delete p['transform'];
    }
    const back = parseReport(JSON.stringify(bare));
    expect(back.inputs).toEqual([]);
    expect(back.parts[0]).toMatchObject({ path: ['part plate'], displayName: 'part plate', transform: null });
  });

  it('refuses a transform that is not 16 finite numbers, and an input whose hash is not SHA-256', () => {
    expect(() => buildReport(input({ parts: [{ ...parts(['a'])[0]!, transform: [1, 0, 0] }], check: checkOf([], 1) }))).toThrow(/parts\[0\]\.transform: must hold 16 numbers/);
    const text = JSON.parse(reportToJson(buildReport(input()))) as { inputs: { sha256: string }[] };
    text.inputs[0]!.sha256 = 'ABC';
    expect(() => parseReport(JSON.stringify(text))).toThrow(/inputs\[0\]\.sha256/);
  });

  it('prints the placements, the inputs and the software in the HTML', () => {
    const html = reportToHtml(buildReport(input()));
    expect(translationOf(TURNED)).toEqual([10, -2.5, 0]);
    expect(rotationAnglesOf(TURNED)).toEqual([0, 0, 90]);
    expect(html).toContain('<span class="point">10, -2.5, 0</span>');
    expect(html).toContain('<span class="point">0, 0, 90</span>');
    expect(html).toContain('(as in its file)');
    expect(html).toContain('<h2 id="h-inputs">Input files</h2>');
    expect(html).toContain('/models/as1 &lt;&amp;&gt;.stp');
    expect(html).toContain('0123456789abcdef'.repeat(4));
    expect(html).toContain('2,345,678 bytes');
    expect(html).toContain('<dt>Software</dt><dd>Interfere 0.1.0</dd>');
    // Parts by their display names, in both tables.
    expect(html).toContain('<span class="name">top / sub / part bolt-1</span>');
  });

  it('has a print stylesheet: no sticky headers, rows kept whole, headers repeated, links shown', () => {
    const print = /@media print \{([\s\S]*)\n\}/.exec(STYLE)![1]!;
    expect(print).toMatch(/thead th, th \{ position: static; \}/);
    expect(print).toMatch(/thead \{ display: table-header-group; \}/);
    expect(print).toMatch(/tr, li, dl\.settings > \* \{ break-inside: avoid; page-break-inside: avoid; \}/);
    expect(print).toMatch(/a\[href\]::after \{ content: " \(" attr\(href\) "\)";/);
    expect(print).toMatch(/\.table-wrap \{ overflow: visible; max-height: none;/);
  });
});
