/** `interfere check --json` gives one entry per input, in input order, failures included. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseReport } from '../../../src-core/report/index';
import { CLEAR, ensureBuilt, INTERFERING, run, tempDir, writeCubeAssembly } from './cliSupport';

beforeAll(() => ensureBuilt(), 60_000);

interface ErrorEntry {
  format: string;
  version: number;
  input: string;
  exitCode: number;
  error: { code: string; message: string };
}

describe('--json with several inputs', () => {
  it('one entry per input, in input order: reports, and errors with their code and message', () => {
    const dir = tempDir();
    const bad = writeCubeAssembly(path.join(dir, 'bad.assembly.json'), INTERFERING);
    const missing = path.join(dir, 'missing.assembly.json');
    const broken = path.join(dir, 'broken.assembly.json');
    writeFileSync(broken, '{ "format": "interfere-assembly", "version": 1, "sources": [ { "id": "a", "path": "gone.stl" } ] }');
    const good = writeCubeAssembly(path.join(dir, 'good.assembly.json'), CLEAR);
    const r = run(['check', missing, bad, broken, good, '--json']);
    expect(r.status).toBe(2);
    const entries = JSON.parse(r.stdout) as unknown[];
    expect(entries).toHaveLength(4);
    const [e0, e1, e2, e3] = entries as [ErrorEntry, unknown, ErrorEntry, unknown];
    expect(e0).toEqual({
      format: 'interfere-error', version: 1, input: missing, exitCode: 2,
      error: { code: 'not-found', message: `${missing}: file not found` },
    });
    expect(parseReport(JSON.stringify(e1)).assembly).toBe('bad.assembly.json');
    expect(parseReport(JSON.stringify(e1)).summary.interferences).toBe(1);
    expect(e2.format).toBe('interfere-error');
    expect(e2.input).toBe(broken);
    expect(e2.error.code).toBe('invalid-assembly');
    expect(e2.error.message).toMatch(/broken\.assembly\.json.*gone\.stl.*not found/);
    expect(parseReport(JSON.stringify(e3)).assembly).toBe('good.assembly.json');
    // The messages on standard error are the same, one line per failed input.
    expect(r.stderr).toContain(`interfere: ${e0.error.message}\n`);
    expect(r.stderr).toContain(`interfere: ${e2.error.message}\n`);
  });

  it('one input that cannot be checked: its error entry alone', () => {
    const missing = path.join(tempDir(), 'nope.stl');
    const r = run(['check', missing, '--json', '--quiet']);
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      format: 'interfere-error', version: 1, input: missing, exitCode: 2,
      error: { code: 'not-found', message: `${missing}: file not found` },
    });
  });
});
