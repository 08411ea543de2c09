/** Reports of real checks, as the command line writes them, validate against docs/report.schema.json. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { DATA, ROOT, ensureBuilt, run } from './cliSupport.js';

beforeAll(ensureBuilt, 60_000);

describe('the JSON Schema of the report', () => {
  it('validates the reports of the bundled sample and of saved assemblies, with every kind', () => {
    const schema = JSON.parse(readFileSync(path.join(ROOT, 'docs/report.schema.json'), 'utf8')) as object;
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    const inputs = [
      path.join(ROOT, 'assets/samples/as1-oc-214.stp'),
      path.join(DATA, 'assemblies/as1-oc-214-moved.assembly.json'),
      path.join(DATA, 'assemblies/fits-pins-asis.assembly.json'),
    ];
    // Refinement off: the fine fits of the pins stay undecided (possibleKinds, separationRangeMm filled in).
    const r = run(['check', ...inputs, '--json', '--refine', 'off', '--quiet']);
    expect(r.status, r.stderr).toBe(1);
    const reports = JSON.parse(r.stdout) as { format: string; results: { kind: string }[] }[];
    expect(reports.map((x) => x.format)).toEqual(['interfere-report', 'interfere-report', 'interfere-report']);
    const kinds = new Set(reports.flatMap((x) => x.results.map((res) => res.kind)));
    for (const k of ['interference', 'contact', 'clearance', 'undecided']) expect(kinds).toContain(k);
    for (const report of reports) {
      const ok = validate(report);
      expect(validate.errors ?? [], String(ok)).toEqual([]);
    }
  }, 120_000);
});
