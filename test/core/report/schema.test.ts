/** The report's published JSON Schema: generated from the zod definitions, and exact. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { InterferenceReportSchema, reportJsonSchema, reportSchemaText } from '../../../src-core/report/schema.js';
import { reportToJson, parseReport } from '../../../src-core/report/json.js';
import { pair, sampleReport } from './sample.js';

/** A parsed report edited freely by the tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const SCHEMA_FILE = path.resolve(process.cwd(), 'docs/report.schema.json');

function validator(): (data: unknown) => string[] {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as object);
  return (data) => (validate(data) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`));
}

describe('docs/report.schema.json', () => {
  it('is what src-core/report/schema.ts generates (run npm run schema after changing it)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(reportSchemaText());
    expect(reportJsonSchema()['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('accepts reports as written: every kind, refined, undecided and coincident results, no title', () => {
    const validate = validator();
    const report = sampleReport();
    expect(report.results.map((r) => r.kind)).toEqual(['interference', 'contact', 'undecided', 'ignored', 'clearance', 'interference']);
    const json = JSON.parse(reportToJson(report)) as Record<string, unknown>;
    expect(validate(json)).toEqual([]);
    expect(InterferenceReportSchema.safeParse(json).success).toBe(true);
    const { title: _title, generator: _generator, ...bare } = json;
    expect(validate(bare)).toEqual([]);
    expect(validate(JSON.parse(reportToJson(sampleReport([]))))).toEqual([]);
    // What parseReport reads back is the same report, and valid.
    expect(validate(JSON.parse(JSON.stringify(parseReport(reportToJson(report)))))).toEqual([]);
  });

  it('is exact: an unknown field, a missing field or a wrong type is refused, at the place it is', () => {
    const validate = validator();
    const base = JSON.parse(reportToJson(sampleReport([pair({ a: 'plate', b: 'pin', kind: 'contact' })]))) as Loose;
    const variant = (change: (o: Loose) => void): Record<string, unknown> => {
      const o = structuredClone(base) as Loose;
      change(o);
      return o;
    };
    expect(validate(variant((o) => { o['extra'] = 1; })).join()).toMatch(/must NOT have additional properties/);
    expect(validate(variant((o) => { o['results'][0].note = 'x'; })).join()).toMatch(/^\/results\/0 must NOT have additional/);
    expect(validate(variant((o) => { delete o['results'][0].resolutionMm; })).join()).toMatch(/^\/results\/0 must have required property 'resolutionMm'/);
    expect(validate(variant((o) => { o['results'][0].kind = 'clash'; })).join()).toMatch(/^\/results\/0\/kind must be equal to one of/);
    expect(validate(variant((o) => { o['results'][0].trianglePairs = [[1, 2, 3]]; })).join()).toMatch(/^\/results\/0\/trianglePairs\/0 must NOT have more than 2 items/);
    expect(validate(variant((o) => { o['summary'].parts = 1.5; })).join()).toMatch(/^\/summary\/parts must be integer/);
    expect(validate(variant((o) => { o['settings'].clearanceMm = -1; })).join()).toMatch(/^\/settings\/clearanceMm must be >= 0/);
    expect(validate(variant((o) => { o['generatedAt'] = '2026-11-29 12:00'; })).join()).toMatch(/^\/generatedAt must match pattern/);
    expect(validate(variant((o) => { o['format'] = 'interfere-assembly'; })).join()).toMatch(/^\/format must be equal to constant/);
  });
});
