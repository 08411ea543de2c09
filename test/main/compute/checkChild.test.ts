// The check child seen from the host (src-main/services/checkChild.ts), against scripted children:
// what it sends, cancel with a grace period, a child that does not stop, crashes and refusals.
import { describe, it, expect } from 'vitest';
import { createMesh } from '../../../src-core/geometry/mesh.js';
import { buildObbTree } from '../../../src-core/obbtree/build.js';
import { CheckChildError, ChildCheckRunner } from '../../../src-main/services/checkChild.js';
import type { CheckBody, RunnerPart } from '../../../src-main/services/checkRunner.js';
import { fakeFork, waitFor, type FakeChild } from './helpers.js';

function cube(key: string): CheckBody {
  const positions = Float64Array.from([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]);
  const indices = Uint32Array.from([0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7]);
  const mesh = createMesh(positions, indices);
  return { key, mesh, tree: buildObbTree(mesh), chordErrorMm: null, chordSide: null, faceRanges: null, surfaces: null };
}

const A = cube('s#0'), B = cube('s#1');
const IDENTITY = Float64Array.from([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
const parts: RunnerPart[] = [
  { id: 'a', name: 'a', body: A, transform: IDENTITY, refine: null },
  { id: 'b', name: 'b', body: B, transform: IDENTITY, refine: null },
];
const SETTINGS = { touchToleranceMm: null, clearanceMm: 0, contactIsInterference: false };

type Sent = { type: string; jobId?: number; docId?: string; bodies?: { key: string }[] };
const sentTo = (c: FakeChild): Sent[] => c.received as Sent[];

describe('ChildCheckRunner', () => {
  it('sends the bodies a request needs once per child and document, then the request; answers are validated', async () => {
    const fork = fakeFork((message, child) => {
      const m = message as Sent;
      if (m.type === 'pair') child.send({ type: 'answer', jobId: m.jobId, answer: { trianglePairs: new Uint32Array([0, 0]), distanceMm: null, depthMm: null } });
    });
    const runner = new ChildCheckRunner({ fork, log: () => {} });
    try {
      const hits = await runner.pairHits('doc-1', parts[0], parts[1], null);
      expect(Array.from(hits.trianglePairs)).toEqual([0, 0]);
      await runner.pairHits('doc-1', parts[0], parts[1], 1);
      await runner.pairHits('doc-2', parts[0], parts[1], 1);
      expect(fork.children).toHaveLength(1);
      expect(sentTo(fork.children[0]).map((m) => `${m.type} ${m.docId}${m.bodies ? ` ${m.bodies.map((b) => b.key).join(',')}` : ''}`)).toEqual([
        'bodies doc-1 s#0', 'bodies doc-1 s#1', 'pair doc-1', 'pair doc-1', 'bodies doc-2 s#0', 'bodies doc-2 s#1', 'pair doc-2',
      ]);
      runner.forget('doc-1');
      await waitFor(() => sentTo(fork.children[0]).some((m) => m.type === 'forget' && m.docId === 'doc-1'), 1000, 'forget');
    } finally {
      await runner.dispose();
    }
  });

  it('refuses a malformed answer, naming what is wrong', async () => {
    const fork = fakeFork((message, child) => {
      const m = message as Sent;
      if (m.type === 'pair') child.send({ type: 'answer', jobId: m.jobId, answer: { trianglePairs: [0, 0], distanceMm: null } });
    });
    const runner = new ChildCheckRunner({ fork, log: () => {} });
    try {
      const e = await runner.pairHits('d', parts[0], parts[1], null).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(CheckChildError);
      expect(e).toMatchObject({ code: 'invalid-result', message: expect.stringContaining('trianglePairs') });
    } finally {
      await runner.dispose();
    }
  });

  it('a cancelled check rejects at once; a child that does not stop within the grace period is killed, and what else it had goes to a fresh child', async () => {
    let stubborn = true;
    const fork = fakeFork((message, child) => {
      const m = message as Sent;
      // The first child never answers a check, nor its cancel (a long manifold boolean).
      if (m.type === 'pair' && !stubborn) child.send({ type: 'answer', jobId: m.jobId, answer: { trianglePairs: new Uint32Array(0), distanceMm: 2, depthMm: null } });
    });
    const runner = new ChildCheckRunner({ fork, cancelGraceMs: 50, log: () => {} });
    try {
      const controller = new AbortController();
      const check = runner.runCheck({ docId: 'd', parts, settings: SETTINGS, ignore: [] }, { signal: controller.signal });
      const pair = runner.pairHits('d', parts[0], parts[1], 5);
      await waitFor(() => sentTo(fork.children[0]).some((m) => m.type === 'pair'), 1000, 'the requests to be sent');
      stubborn = false;
      const t0 = performance.now();
      controller.abort();
      await expect(check).rejects.toMatchObject({ name: 'AbortError' });
      expect(performance.now() - t0).toBeLessThan(20);
      expect(sentTo(fork.children[0]).at(-1)).toMatchObject({ type: 'cancel' });
      // Killed after the grace period; the pair query is answered by a fresh child, the bodies sent again.
      expect(await pair).toMatchObject({ distanceMm: 2 });
      expect(fork.children[0].killed).toBe(true);
      expect(fork.children).toHaveLength(2);
      expect(sentTo(fork.children[1]).map((m) => m.type)).toEqual(['bodies', 'bodies', 'pair']);
    } finally {
      await runner.dispose();
    }
  });

  it('a check cancelled before it was sent sends nothing, and its child is kept', async () => {
    const fork = fakeFork(() => {});
    const runner = new ChildCheckRunner({ fork, cancelGraceMs: 20, log: () => {} });
    try {
      const controller = new AbortController();
      const check = runner.runCheck({ docId: 'd', parts, settings: SETTINGS, ignore: [] }, { signal: controller.signal });
      controller.abort();
      await expect(check).rejects.toMatchObject({ name: 'AbortError' });
      await new Promise((r) => setTimeout(r, 60));
      expect(sentTo(fork.children[0]).map((m) => m.type)).toEqual([]);
      expect(fork.children[0].killed).toBe(false);
    } finally {
      await runner.dispose();
    }
  });

  it('a child that stops the check in time is kept', async () => {
    const fork = fakeFork((message, child) => {
      const m = message as Sent;
      if (m.type === 'cancel') child.send({ type: 'failed', jobId: m.jobId, code: 'cancelled', message: 'the check was cancelled' });
    });
    const runner = new ChildCheckRunner({ fork, cancelGraceMs: 50, log: () => {} });
    try {
      const controller = new AbortController();
      const check = runner.runCheck({ docId: 'd', parts, settings: SETTINGS, ignore: [] }, { signal: controller.signal });
      await waitFor(() => sentTo(fork.children[0]).some((m) => m.type === 'check'), 1000, 'the check to be sent');
      controller.abort();
      await expect(check).rejects.toMatchObject({ name: 'AbortError' });
      await new Promise((r) => setTimeout(r, 100));
      expect(fork.children[0].killed).toBe(false);
    } finally {
      await runner.dispose();
    }
  });

  it('a child that dies fails what it had with crashed; the next request starts a fresh child', async () => {
    let crash = true;
    const fork = fakeFork((message, child) => {
      const m = message as Sent;
      if (m.type !== 'pair') return;
      if (crash) setTimeout(() => child.exit(null, 'SIGSEGV'), 1);
      else child.send({ type: 'answer', jobId: m.jobId, answer: { trianglePairs: new Uint32Array(0), distanceMm: null, depthMm: null } });
    });
    const logs: string[] = [];
    const runner = new ChildCheckRunner({ fork, log: (m) => logs.push(m) });
    try {
      const e = await runner.pairHits('d', parts[0], parts[1], null).catch((x: unknown) => x);
      expect(e).toMatchObject({ name: 'CheckChildError', code: 'crashed', message: 'the check process stopped unexpectedly (exit code none, signal SIGSEGV)' });
      expect(logs.some((l) => l.includes('stopped unexpectedly'))).toBe(true);
      crash = false;
      await expect(runner.pairHits('d', parts[0], parts[1], null)).resolves.toMatchObject({ distanceMm: null });
      expect(fork.children).toHaveLength(2);
      expect(sentTo(fork.children[1]).map((m) => m.type)).toEqual(['bodies', 'bodies', 'pair']);
    } finally {
      await runner.dispose();
    }
  });

  it('maps the child\'s failures: too many pairs, cancelled; a child speaking another protocol is not used', async () => {
    const fork = fakeFork((message, child) => {
      const m = message as Sent;
      if (m.type === 'check') child.send({ type: 'failed', jobId: m.jobId, code: 'too-many-pairs', message: 'x', limit: { pairs: 2_000_000, limit: 1_000_000, exact: false } });
    });
    const runner = new ChildCheckRunner({ fork, log: () => {} });
    try {
      const e = await runner.runCheck({ docId: 'd', parts, settings: SETTINGS, ignore: [] }).catch((x: unknown) => x);
      expect(e).toMatchObject({ name: 'CheckLimitError', pairs: 2_000_000, limit: 1_000_000 });
    } finally {
      await runner.dispose();
    }
    const stale = new ChildCheckRunner({ fork: fakeFork(() => {}, { type: 'ready', protocol: 99 }), log: () => {} });
    try {
      await expect(stale.pairHits('d', parts[0], parts[1], null)).rejects.toMatchObject({ code: 'start-failed', message: expect.stringContaining('protocol 99') });
    } finally {
      await stale.dispose();
    }
  });
});
