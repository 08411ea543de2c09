import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import path from 'node:path';
import type { DocumentInfo } from '../../../src-main/contract/host.js';
import { fakeFork, resultFor } from '../compute/helpers.js';
import type { BuildRequest } from '../../../src-main/contract/compute.js';
import { forkNodeChild } from '../../../src-main/services/spawn.js';
import {
  CHECK_RUNNERS, createTestHost, IDENTITY, MOVED, pairsOf, refusal, runCheck, SAMPLE, SO101, TEST_DATA, translation, type TestHost,
} from './helpers.js';

describe.each(CHECK_RUNNERS)('host service: result statuses (checks %s)', (_runner, tuning) => {
  let h: TestHost;
  beforeAll(() => {
    h = createTestHost({ allowedFolders: [TEST_DATA, path.dirname(SAMPLE)] }, tuning);
  });
  afterAll(async () => {
    await h.service.dispose();
  });

  it('tracks result statuses across checks: new, active, resolved, and a user-set ignored', async () => {
    const doc = (await h.call('doc.open', { path: MOVED })) as DocumentInfo;
    const first = await runCheck(h, doc.id);
    expect(first.summary).toMatchObject({ parts: 18, triangles: 5040, interferences: 6, contacts: 25 });
    expect(first.results.every((r) => r.status === 'new')).toBe(true);
    expect(first.resolved).toEqual([]);
    // A check is not an edit: the document stays clean, with the statuses it found.
    const checked = (await h.call('doc.update', { docId: doc.id })) as DocumentInfo;
    expect(checked.dirty).toBe(false);
    expect(checked.statuses['bolt-5|plate-10']).toBe('new');
    expect(pairsOf(first, 'interference')).toEqual(['bolt-5/nut-6', 'bolt-5/l-bracket-9', 'bolt-5/plate-10', 'plate-10/nut-12', 'plate-10/nut-14', 'bolt-13/nut-14']);
    const contained = first.results.find((r) => r.contained);
    expect(contained).toMatchObject({ a: 'plate-10', b: 'nut-12', containedPart: 'nut-12' });

    // Move bolt-5 back where it belongs: its three interferences become contacts (still present).
    const moved = await h.call('doc.update', { docId: doc.id, transforms: { 'bolt-5': IDENTITY }, statuses: { 'nut-12|plate-10': 'ignored' } });
    expect(moved.dirty).toBe(true);
    expect(moved.parts.find((p) => p.id === 'bolt-5')?.transform).toEqual(IDENTITY);
    const second = await runCheck(h, doc.id);
    expect(second.summary.interferences).toBe(first.summary.interferences - 3);
    expect(pairsOf(second, 'interference')).toEqual(['plate-10/nut-12', 'plate-10/nut-14', 'bolt-13/nut-14']);
    for (const r of second.results.filter((x) => x.a === 'bolt-5' || x.b === 'bolt-5')) expect(r.status).toBe('active');
    expect(second.results.find((r) => r.b === 'nut-12' && r.a === 'plate-10')?.status).toBe('ignored');
    expect(second.results.filter((r) => r.status === 'new')).toEqual([]);

    // Move nut-14 far away: both of its interferences are resolved.
    await h.call('doc.update', { docId: doc.id, transforms: { 'nut-14': translation(0, 0, 500) } });
    const third = await runCheck(h, doc.id);
    expect(third.resolved).toEqual([{ a: 'plate-10', b: 'nut-14' }, { a: 'bolt-13', b: 'nut-14' }]);
    expect(pairsOf(third, 'interference')).toEqual(['plate-10/nut-12']);
    const info = (await h.call('doc.update', { docId: doc.id })) as DocumentInfo;
    expect(info.statuses['nut-14|plate-10']).toBe('resolved');
    expect(info.statuses['bolt-13|nut-14']).toBe('resolved');
    expect(info.statuses['nut-12|plate-10']).toBe('ignored');
    expect(info.statuses['bolt-5|nut-6']).toBe('active');
    // Progress was reported, throttled, as text for people.
    const progress = h.eventsOf('job.progress').filter((p) => p.kind === 'check');
    expect(progress.some((p) => p.stage === 'checking pairs')).toBe(true);
    // Each finished check also announced the changed document.
    expect(h.eventsOf('doc.changed').some((d) => d.id === doc.id && d.statuses['bolt-13|nut-14'] === 'resolved')).toBe(true);

    // A scoped check leaves the statuses of pairs outside its scope alone.
    const { jobId } = await h.call('check.run', { docId: doc.id, scope: { kind: 'sets', a: ['bolt-5'], b: ['nut-6'] } });
    const scoped = await h.job(jobId);
    expect(scoped.kind === 'check' && 'outcome' in scoped && scoped.outcome.results.map((r) => `${r.a}/${r.b} ${r.status}`)).toEqual(['bolt-5/nut-6 active']);
    const after = (await h.call('doc.update', { docId: doc.id })) as DocumentInfo;
    expect(after.statuses['nut-14|plate-10']).toBe('resolved');
  });
});

describe.each(CHECK_RUNNERS)('host service: cancellation (checks %s)', (_runner, tuning) => {
  it('cancels a running check of the SO-101 arm, and the next check works', async () => {
    const h = createTestHost({ allowedFolders: [TEST_DATA] }, tuning);
    try {
      const doc = (await h.call('doc.open', { path: SO101 })) as DocumentInfo;
      expect(doc.parts).toHaveLength(17);
      expect(doc.parts.reduce((s, p) => s + p.triangles, 0)).toBe(398_884);

      // Cancelled right after the start.
      const first = await h.call('check.run', { docId: doc.id });
      expect(await h.call('job.cancel', { jobId: first.jobId })).toEqual({ cancelled: true });
      const end = await h.job(first.jobId);
      expect(end).toMatchObject({ kind: 'check', cancelled: true, error: { code: 'cancelled' } });

      // Cancelled while checking pairs, from a progress event: the job ends cancelled, not with a
      // result (in this process only once the pair in hand is done: one manifold boolean can take
      // seconds; how soon is a benchmark's business, bench/hostBlocking.ts, not a timed test's).
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
      expect(await h.call('job.cancel', { jobId: second.jobId })).toEqual({ cancelled: false });

      // Cancelled by a request arriving while the check runs (the check yields to the event loop).
      const fifth = await h.call('check.run', { docId: doc.id });
      const timer = setTimeout(() => void h.service.handle('job.cancel', { jobId: fifth.jobId }), 150);
      const end5 = await h.job(fifth.jobId);
      clearTimeout(timer);
      expect(end5).toMatchObject({ cancelled: true });

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
    const h = createTestHost({ allowedFolders: [TEST_DATA], fork }, { treePool: { size: 1, inProcessBelowTriangles: 0 }, treeCache: false, checks: { fork: forkNodeChild } });
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
