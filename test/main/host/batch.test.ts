import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseReport } from '../../../src-core/report/index.js';
import { createTestHost, FANUC, GEAR, TEST_DATA, tempDir } from './helpers.js';

describe('host service: batch checks', () => {
  it('checks three assemblies like the command line, one of them broken, with a report per file', async () => {
    const work = tempDir('batch');
    const broken = path.join(work, 'broken.assembly.json');
    writeFileSync(broken, JSON.stringify({ format: 'interfere-assembly', version: 1, name: 'broken', units: 'mm', sources: [{ id: 's', path: 'missing.stp' }] }));
    const h = createTestHost({ allowedFolders: [TEST_DATA, work] });
    try {
      const started = await h.call('batch.run', { paths: [GEAR, broken, FANUC], reportFolder: work, format: 'json' });
      const end = await h.job(started!.jobId);
      expect(end.kind).toBe('batch');
      if (end.kind !== 'batch' || !('files' in end)) throw new Error('batch failed');
      expect(end.files.map((f) => [path.basename(f.path), f.status, f.exitCode])).toEqual([
        ['stl-gear-polytopes.assembly.json', 'interference', 1],
        ['broken.assembly.json', 'failed', 2],
        ['fanuc-zero.assembly.json', 'clear', 0],
      ]);
      const [gear, bad, fanuc] = end.files;
      expect(gear.summary).toMatchObject({ parts: 4, interferences: 1, contacts: 1, clearanceViolations: 1 });
      expect(fanuc.summary).toMatchObject({ parts: 7, interferences: 0, ignored: 10 });
      expect(bad.summary).toBeNull();
      expect(bad.reportPath).toBeNull();
      expect(bad.error).toContain('broken.assembly.json');
      expect(bad.error).toContain('missing.stp');
      expect(gear.reportPath).toBe(path.join(work, 'stl-gear-polytopes.report.json'));
      expect(parseReport(readFileSync(gear.reportPath!, 'utf8')).summary.clearanceViolations).toBe(1);
      expect(existsSync(path.join(work, 'broken.report.json'))).toBe(false);
      expect(fanuc.reportPath).toBe(path.join(work, 'fanuc-zero.report.json'));
      const perFile = h.eventsOf('batch.file').filter((e) => e.jobId === started!.jobId);
      expect(perFile.map((e) => [e.index, e.total])).toEqual([[0, 3], [1, 3], [2, 3]]);
      expect(h.eventsOf('job.progress').some((p) => p.jobId === started!.jobId && /checking stl-gear-polytopes/.test(p.stage))).toBe(true);
      // A report folder that does not exist yet is made before the first file is checked.
      const fresh = path.join(work, 'reports', 'today');
      const again = await h.call('batch.run', { paths: [GEAR], reportFolder: fresh, format: 'csv' });
      const second = await h.job(again!.jobId);
      if (second.kind !== 'batch' || !('files' in second)) throw new Error('batch failed');
      expect(second.files.map((f) => [f.status, f.reportPath])).toEqual([['interference', path.join(fresh, 'stl-gear-polytopes.report.csv')]]);
      // One that cannot be made (a file is in the way) is refused up front, naming it.
      const blocked = path.join(work, 'broken.assembly.json', 'reports');
      await expect(h.call('batch.run', { paths: [GEAR], reportFolder: blocked })).rejects.toThrow(/report folder .*broken\.assembly\.json.* cannot be made/);
      // Without paths the host asks; a cancelled dialog starts nothing.
      expect(await h.call('batch.run', {})).toBeNull();
      expect(h.dialogs.asked).toContain('openFiles:Batch Check');
    } finally {
      await h.service.dispose();
    }
  });
});
