import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseReport } from '../../../src-core/report/index.js';
import type { DocumentInfo } from '../../../src-main/contract/host.js';
import { fakeFork, resultFor } from '../compute/helpers.js';
import type { BuildRequest } from '../../../src-main/contract/compute.js';
import { createTestHost, FANUC, GEAR, refusal, TEST_DATA, SO101, tempDir } from './helpers.js';

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
      // Without paths the host asks; a cancelled dialog starts nothing.
      expect(await h.call('batch.run', {})).toBeNull();
      expect(h.dialogs.asked).toContain('openFiles:Batch Check');
    } finally {
      await h.service.dispose();
    }
  });
});

describe('host service: cancellation', () => {
  it('cancels a running check of the SO-101 arm, and the next check works', async () => {
    const h = createTestHost({ allowedFolders: [TEST_DATA] });
    try {
      const doc = (await h.call('doc.open', { path: SO101 })) as DocumentInfo;
      expect(doc.parts).toHaveLength(17);
      expect(doc.parts.reduce((s, p) => s + p.triangles, 0)).toBe(398_884);

      // Cancelled right after the start.
      const first = await h.call('check.run', { docId: doc.id });
      expect(await h.call('job.cancel', { jobId: first.jobId })).toEqual({ cancelled: true });
      const end = await h.job(first.jobId);
      expect(end).toMatchObject({ kind: 'check', cancelled: true, error: { code: 'cancelled' } });

      // Cancelled while checking pairs, from a progress event.
      const t0 = performance.now();
      const second = await h.call('check.run', { docId: doc.id });
      let asked = false;
      const off = h.service.on('job.progress', (p) => {
        if (p.jobId === second.jobId && p.stage === 'checking pairs' && !asked) {
          asked = true;
          void h.service.handle('job.cancel', { jobId: second.jobId });
        }
      });
      const end2 = await h.job(second.jobId);
      off();
      expect(end2).toMatchObject({ cancelled: true });
      expect(performance.now() - t0).toBeLessThan(3000);
      expect(await h.call('job.cancel', { jobId: second.jobId })).toEqual({ cancelled: false });

      // Cancelled by a request arriving while the check runs (the check yields to the event loop).
      const t1 = performance.now();
      const fifth = await h.call('check.run', { docId: doc.id });
      const timer = setTimeout(() => void h.service.handle('job.cancel', { jobId: fifth.jobId }), 150);
      const end5 = await h.job(fifth.jobId);
      clearTimeout(timer);
      expect(end5).toMatchObject({ cancelled: true });
      expect(performance.now() - t1).toBeLessThan(1500);

      // A new check replaces a running one.
      const third = await h.call('check.run', { docId: doc.id });
      const fourth = await h.call('check.run', { docId: doc.id, scope: { kind: 'sets', a: ['gripper_link'], b: ['gripper_link-wrist-roll-follower-so101-v1'] } });
      expect(await h.job(third.jobId)).toMatchObject({ cancelled: true });
      const done = await h.job(fourth.jobId);
      if (done.kind !== 'check' || !('outcome' in done)) throw new Error(`the check failed: ${JSON.stringify(done)}`);
      expect(done.outcome.results.map((r) => `${r.a}/${r.b} ${r.kind} ${r.status}`)).toEqual(['gripper_link/gripper_link-wrist-roll-follower-so101-v1 interference new']);
      expect(done.outcome.results[0].volumeMm3).toBeCloseTo(10.24, 1);
    } finally {
      await h.service.dispose();
    }
  });
});

describe('host service: a crashing tree-building process', () => {
  it('fails the job with a clear message, keeps the document, reports a host error, and the next job works', async () => {
    let crashes = 0;
    const fork = fakeFork((message, child) => {
      const req = message as BuildRequest;
      if (req.type !== 'build') return;
      if (crashes > 0) {
        crashes--;
        setTimeout(() => child.exit(null, 'SIGSEGV'), 1);
        return;
      }
      child.send(resultFor(req));
    });
    const h = createTestHost({ allowedFolders: [TEST_DATA], fork }, { treePool: { size: 1, inProcessBelowTriangles: 0 }, treeCache: false });
    try {
      const doc = (await h.call('doc.open', { path: path.join(TEST_DATA, 'stl-models/polytopes/cube.ascii.stl') })) as DocumentInfo;
      expect(fork.children.length).toBe(1);
      crashes = 2; // the mesh and its retry
      const e = await refusal(h.call('doc.import', { docId: doc.id, path: path.join(TEST_DATA, 'stl-models/polytopes/tetrahedron.ascii.stl') }));
      expect(e.code).toBe('compute-crashed');
      expect(e.message).toContain('tetrahedron.ascii.stl');
      expect(e.message).toMatch(/stopped unexpectedly/);
      expect(h.eventsOf('host.error').some((x) => x.code === 'compute-crashed')).toBe(true);
      const kept = (await h.call('doc.update', { docId: doc.id })) as DocumentInfo;
      expect(kept.parts).toEqual(doc.parts);
      expect(kept.dirty).toBe(false);
      // The next job works on a fresh process.
      const imported = (await h.call('doc.import', { docId: doc.id, path: path.join(TEST_DATA, 'stl-models/polytopes/tetrahedron.ascii.stl') })) as DocumentInfo;
      expect(imported.parts).toHaveLength(2);
      const { jobId } = await h.call('check.run', { docId: doc.id });
      expect((await h.job(jobId)).kind).toBe('check');
    } finally {
      await h.service.dispose();
    }
  });
});
