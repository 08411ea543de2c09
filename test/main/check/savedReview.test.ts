/**
 * The command line's reports of a saved assembly carry the review the app saved with it
 * (`resultStatus`): each result's status against it, and the findings now gone as resolved.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFile } from '../../../src-main/services/checkService.js';

const CUBE = path.resolve('test/data/stl-models/polytopes/cube.ascii.stl');
const dir = mkdtempSync(path.join(os.tmpdir(), 'interfere-review-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (x: number): number[] => [1, 0, 0, x, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

describe('a saved review in the reports of the command line', () => {
  it('gives each result its status and lists the findings gone as resolved', async () => {
    const file = path.join(dir, 'cubes.assembly.json');
    writeFileSync(file, JSON.stringify({
      format: 'interfere-assembly', version: 1,
      sources: [{ id: 'cube', path: CUBE }],
      parts: [
        { id: 'a', source: 'cube', transform: at(0) },
        { id: 'b', source: 'cube', transform: at(1) },
        { id: 'c', source: 'cube', transform: at(1.5) },
        { id: 'd', source: 'cube', transform: at(30) },
      ],
      settings: { touchToleranceMm: 0.01 },
      // a|b was seen before; a|d was a finding that is gone now (d moved away); a typo is dropped.
      resultStatus: { 'a|b': 'active', 'a|d': 'active', 'a|zz': 'active' },
      resultIds: { 'a|b': 'R1', 'a|d': 'R2' },
    }));
    const { report } = await checkFile(file, { refine: false });
    const status = Object.fromEntries(report.results.map((r) => [`${r.a}|${r.b}`, [r.id, r.status]]));
    expect(status['a|b']).toEqual(['R1', 'active']);
    expect(status['a|c']?.[1]).toBe('new');
    expect(status['b|c']?.[1]).toBe('new');
    expect(report.resolved.map((r) => [r.a, r.b, r.id])).toEqual([['a', 'd', 'R2']]);
    expect(report.warnings.some((w) => w.includes('1 entry of resultStatus'))).toBe(true);
  });
});
