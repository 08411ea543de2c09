// The check at scale through the host, as the app runs it: coincident copies come back as one
// finding with the warning that names the group, and too many candidate pairs fail the job with
// an error naming the count and the limit (code 'too-many-pairs'), not a crash.
import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTestHost, TEST_DATA, tempDir } from '../host/helpers.js';

const work = tempDir('check-scale-host');
afterAll(() => rmSync(work, { recursive: true, force: true }));
copyFileSync(path.join(TEST_DATA, 'stl-models/polytopes/cube.bin.stl'), path.join(work, 'cube.bin.stl'));

/** A saved assembly of n cubes, the i-th moved by step × i along x. */
function assembly(name: string, n: number, step: number): string {
  const file = path.join(work, `${name}.assembly.json`);
  const parts = Array.from({ length: n }, (_, i) => ({ id: `p${i}`, source: 'cube', transform: [1, 0, 0, step * i, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] }));
  writeFileSync(file, JSON.stringify({ format: 'interfere-assembly', version: 1, name, units: 'mm', sources: [{ id: 'cube', path: 'cube.bin.stl' }], parts }));
  return file;
}

describe('the check at scale, through the host', () => {
  it('2,000 coincident copies: one finding and a warning; 1,500 stacked parts: refused with the count and the limit', async () => {
    const h = createTestHost({ allowedFolders: [work] }, { treeCache: false, autosave: false });
    try {
      const copies = await h.call('doc.open', { path: assembly('copies', 2000, 0) });
      const run = await h.call('check.run', { docId: copies!.id });
      const end = await h.job(run.jobId);
      expect(end).toMatchObject({ kind: 'check' });
      const outcome = (end as { outcome: { results: { a: string; b: string; kind: string }[]; warnings: string[] } }).outcome;
      expect(outcome.results.map((r) => [r.a, r.b, r.kind])).toEqual([['p0', 'p1', 'interference']]);
      expect(outcome.warnings.some((w) => w.startsWith('2,000 parts are coincident copies'))).toBe(true);

      const stacked = await h.call('doc.open', { path: assembly('stacked', 1500, 1e-3) });
      const failed = await h.job((await h.call('check.run', { docId: stacked!.id })).jobId);
      expect(failed).toMatchObject({ kind: 'check', cancelled: false, error: { code: 'too-many-pairs' } });
      expect((failed as { error: { message: string } }).error.message).toContain('the broad phase found 1,124,250 candidate pairs of parts whose bounds overlap, more than the limit of 1,000,000');
    } finally {
      await h.service.dispose();
    }
  }, 60_000);
});
