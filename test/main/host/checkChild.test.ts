// The host's checks in its check child (src-main/services/checkChild.ts), as the app and the bridge
// run them: bodies cross once per document, refinement asks the host for finer CAD bodies, and a
// killed child fails its job with compute-crashed while the next check starts a fresh one.
import { describe, it, expect } from 'vitest';
import path from 'node:path';
import type { DocumentInfo } from '../../../src-main/contract/host.js';
import { forkNodeChild, type ForkFn } from '../../../src-main/services/spawn.js';
import { waitFor } from '../compute/helpers.js';
import { createTestHost, MOVED, SO101, TEST_DATA, translation } from './helpers.js';

/** child_process.fork, recording the type of every message sent to the child. */
function recordingFork(): ForkFn & { sent: { type: string; docId?: string; bodies?: unknown[] }[] } {
  const sent: { type: string; docId?: string; bodies?: unknown[] }[] = [];
  const fn = ((request) => {
    const child = forkNodeChild(request);
    return {
      get pid() { return child.pid; },
      postMessage(message: unknown) {
        sent.push(message as { type: string });
        child.postMessage(message);
      },
      on: child.on.bind(child),
      kill: () => child.kill(),
      ref: () => child.ref?.(),
      unref: () => child.unref?.(),
    };
  }) as ForkFn & { sent: typeof sent };
  fn.sent = sent;
  return fn;
}

const FITS = path.join(TEST_DATA, 'assemblies/fits-pins-asis.assembly.json');

describe('host service: checks in the check child', () => {
  it('sends each body once per document, answers checks and pair queries on them, and forgets a closed document', async () => {
    const fork = recordingFork();
    const h = createTestHost({ allowedFolders: [TEST_DATA] }, { checks: { fork }, autosave: false });
    try {
      const doc = (await h.call('doc.open', { path: MOVED })) as DocumentInfo;
      const first = await h.job((await h.call('check.run', { docId: doc.id })).jobId);
      expect(first).toMatchObject({ kind: 'check', outcome: { summary: { parts: 18, interferences: 6, contacts: 25 } } });
      await h.call('doc.update', { docId: doc.id, transforms: { 'nut-14': translation(0, 0, 500) } });
      const second = await h.job((await h.call('check.run', { docId: doc.id })).jobId);
      expect(second).toMatchObject({ kind: 'check', outcome: { summary: { interferences: 4 } } });
      const hit = await h.call('check.pair', { docId: doc.id, a: 'bolt-5', b: 'plate-10' });
      expect(hit.trianglePairs.length).toBeGreaterThan(0);
      // One message per distinct body, each sent once.
      const uploads = fork.sent.filter((m) => m.type === 'bodies').flatMap((m) => m.bodies as { key: string }[]);
      expect(uploads.map((b) => b.key).sort()).toEqual([...new Set(doc.parts.map((p) => p.bodyKey))].sort());
      expect(fork.sent.map((m) => m.type).filter((t) => t !== 'bodies')).toEqual(['check', 'check', 'pair']);
      expect(h.service.checkRunnerStatus()).toMatchObject({ kind: 'child', pid: expect.any(Number) });
      expect(h.service.checkRunnerStatus().pid).not.toBe(process.pid);

      await h.call('doc.close', { docId: doc.id });
      await waitFor(() => fork.sent.some((m) => m.type === 'forget' && m.docId === doc.id), 5000, 'the forget message');
    } finally {
      await h.service.dispose();
    }
  });

  it('refines CAD fits through the host: the same findings as a check in this process', async () => {
    const child = createTestHost({ allowedFolders: [TEST_DATA] }, { autosave: false });
    const here = createTestHost({ allowedFolders: [TEST_DATA] }, { checks: 'in-process', autosave: false });
    try {
      const outcomes = [];
      for (const h of [child, here]) {
        const doc = (await h.call('doc.open', { path: FITS })) as DocumentInfo;
        const end = await h.job((await h.call('check.run', { docId: doc.id })).jobId);
        if (!('outcome' in end)) throw new Error(`the check failed: ${JSON.stringify(end)}`);
        outcomes.push(end.outcome);
      }
      const [viaChild, inProcess] = outcomes;
      expect(viaChild.summary.refinedPairs).toBeGreaterThan(0);
      const findings = (o: typeof viaChild): unknown[] => o.results.map((r) => ({
        pair: `${r.a}/${r.b}`, kind: r.kind, depth: r.depthMm, distance: r.distanceMm, volume: r.volumeMm3, refined: r.refinedDeflectionMm, triangles: r.trianglePairs.length,
      }));
      expect(findings(viaChild)).toEqual(findings(inProcess));
      expect(viaChild.results.find((r) => r.b === 'pin-d9' || r.a === 'pin-d9')).toMatchObject({ kind: 'interference' });
    } finally {
      await Promise.all([child.service.dispose(), here.service.dispose()]);
    }
  });

  it('a killed check process fails the running check with compute-crashed, and the next check works on a fresh one', async () => {
    const h = createTestHost({ allowedFolders: [TEST_DATA] }, { autosave: false });
    try {
      const doc = (await h.call('doc.open', { path: SO101 })) as DocumentInfo;
      const { jobId } = await h.call('check.run', { docId: doc.id });
      let killed: number | undefined;
      const off = h.service.on('job.progress', (p) => {
        if (p.jobId !== jobId || p.stage !== 'checking pairs' || killed !== undefined) return;
        killed = h.service.checkRunnerStatus().pid;
        if (killed !== undefined) process.kill(killed, 'SIGKILL');
      });
      const end = await h.job(jobId);
      off();
      expect(killed).toBeDefined();
      expect(end).toMatchObject({ kind: 'check', cancelled: false, error: { code: 'compute-crashed' } });
      expect((end as { error: { message: string } }).error.message).toMatch(/check process stopped unexpectedly \(exit code none, signal SIGKILL\)/);
      expect((end as { error: { message: string } }).error.message).toContain('so101-zero');
      // The document is as it was; the next check starts a fresh child and sends the bodies again.
      const again = await h.job((await h.call('check.run', {
        docId: doc.id, scope: { kind: 'sets', a: ['gripper_link'], b: ['gripper_link-wrist-roll-follower-so101-v1'] },
      })).jobId);
      expect(again).toMatchObject({ kind: 'check', outcome: { results: [{ kind: 'interference' }] } });
      expect(h.service.checkRunnerStatus().pid).not.toBe(killed);
    } finally {
      await h.service.dispose();
    }
  });
});
