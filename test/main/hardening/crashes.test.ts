// Crashes mid-job: the tree-building children (real processes) are killed with SIGKILL at
// seeded random moments while trees are built (opening, importing, batch checks) and while a
// check runs; every job succeeds after the pool's retry or fails cleanly ('compute-crashed'),
// the document keeps its unsaved placements, and the next job runs. Then the bridge connection
// is dropped in the middle of checks: the service carries on, and a new connection sees the
// document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startBridge, type BridgeHandle } from '../../../src-main/bridge/server.js';
import type { DocumentInfo, EventOf, HostError } from '../../../src-main/contract/host.js';
import { GEAR, MOVED, TEST_DATA, SO101, createTestHost, tempDir, translation, type TestHost } from '../host/helpers.js';
import { alive, seeded, sleep, tally } from './support.js';
import { WireClient } from './wireClient.js';

const SEED = 424_242;
const OBJECTS = path.join(TEST_DATA, 'stl-models/objects');
const BUNNY = path.join(OBJECTS, 'bunny.bin.stl');

type Settled<T> = { ok: true; value: T } | { ok: false; error: HostError };

async function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await p };
  } catch (e) {
    const error = (e as { error?: HostError }).error;
    if (!error) throw e;
    return { ok: false, error };
  }
}

/** Unhandled rejections while these tests run (each one also fails the run). */
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};

let work: string;
const killedPids = new Set<number>();
const counts = { build: 0, retried: 0, failed: 0, check: 0, batch: 0, batchFailedFiles: 0, missed: 0, bridgeDrops: 0 };

beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
  work = tempDir('hardening-crash');
});

afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  if (work) rmSync(work, { recursive: true, force: true });
  tally(`crash injections survived: ${counts.build + counts.check + counts.batch} SIGKILLs of tree-building children ` +
    `(${counts.build} during tree builds of open/import: ${counts.retried} jobs succeeded after the retry, ${counts.failed} failed cleanly with compute-crashed; ` +
    `${counts.check} during checks; ${counts.batch} during batch checks, ${counts.batchFailedFiles} batch files failed cleanly), ` +
    `${counts.missed} moments with no child to kill; ${counts.bridgeDrops} bridge connections dropped mid-job; unhandled rejections: ${unhandled.length}`);
});

/** Waits a random part of `windowMs`, then SIGKILLs a busy child (else any child); returns its pid or null. */
async function killChild(h: TestHost, rng: () => number, windowMs: number): Promise<number | null> {
  await sleep(rng() * windowMs);
  const status = h.service.treePoolStatus();
  const target = status.find((c) => c.state === 'busy' && c.pid !== undefined) ?? status.find((c) => c.pid !== undefined);
  if (target?.pid === undefined) return null;
  try {
    process.kill(target.pid, 'SIGKILL');
  } catch {
    return null;
  }
  killedPids.add(target.pid);
  return target.pid;
}

function placements(info: DocumentInfo): Record<string, number[]> {
  return Object.fromEntries(info.parts.map((p) => [p.id, p.transform]));
}

describe('tree-building children killed mid-job', () => {
  let h: TestHost;
  let main: DocumentInfo;
  /** The main document's unsaved placements, set before any crash. */
  let expected: Record<string, number[]>;

  beforeAll(async () => {
    h = createTestHost({ allowedFolders: [TEST_DATA, work] }, { treeCache: false, autosave: false, treePool: { size: 2, inProcessBelowTriangles: 0 } });
    main = (await h.call('doc.open', { path: GEAR })) as DocumentInfo;
    const moved = Object.fromEntries(main.parts.map((p, i) => [p.id, translation(10 * i, 250, 5)]));
    main = await h.call('doc.update', { docId: main.id, transforms: moved });
    expected = placements(main);
    expect(main.dirty).toBe(true);
  });

  afterAll(async () => {
    await h?.service.dispose();
    expect(h.service.treePoolStatus()).toEqual([]);
    for (const pid of killedPids) expect(alive(pid), `process ${pid}`).toBe(false);
  });

  /** The main document still has its unsaved placements (and whatever parts were imported). */
  async function mainSurvives(): Promise<DocumentInfo> {
    const now = await h.call('doc.update', { docId: main.id });
    expect(now.dirty).toBe(true);
    for (const [id, t] of Object.entries(expected)) expect(now.parts.find((p) => p.id === id)?.transform, id).toEqual(t);
    return now;
  }

  it('while opening and importing: the job succeeds after a retry or fails with compute-crashed; the document keeps its placements', async () => {
    const rng = seeded(SEED);
    const rounds = 8;
    for (let round = 0; round < rounds; round++) {
      const importing = round % 3 !== 2;
      const partsBefore = (await mainSurvives()).parts.length;
      const job = importing
        ? settle(h.call('doc.import', { docId: main.id, path: BUNNY }))
        : settle(h.call('doc.open', { path: SO101 }));
      // Sometimes two kills: the retry dies too and the job must fail.
      const kills = rng() < 0.3 ? 2 : 1;
      let injected = 0;
      for (let k = 0; k < kills; k++) {
        if ((await killChild(h, rng, importing ? 450 : 1200)) !== null) injected++;
        else counts.missed++;
      }
      counts.build += injected;
      const r = await job;
      if (r.ok) {
        if (injected > 0) counts.retried++;
        if (importing) expect((r.value as DocumentInfo).parts).toHaveLength(partsBefore + 1);
        else await h.call('doc.close', { docId: (r.value as DocumentInfo).id });
      } else {
        counts.failed++;
        expect(r.error.code, JSON.stringify(r.error)).toBe('compute-crashed');
        expect(r.error.message).toMatch(/stopped unexpectedly|could not start/);
        expect(r.error.message).toContain(importing ? 'bunny.bin.stl' : 'so101-zero.assembly.json');
        expect((await mainSurvives()).parts).toHaveLength(partsBefore);
      }
      await mainSurvives();
    }
    expect(h.eventsOf('host.error').some((e) => e.code === 'compute-crashed')).toBe(true);
    // The next jobs run: an import, and a check of the document with everything imported.
    const after = await h.call('doc.import', { docId: main.id, path: path.join(OBJECTS, 'gearwheel.bin.stl') });
    expect(after?.parts.length).toBeGreaterThan(main.parts.length);
    const { jobId } = await h.call('check.run', { docId: main.id });
    expect((await h.job(jobId)).kind).toBe('check');
    expect('outcome' in (await h.job(jobId))).toBe(true);
    await mainSurvives();
  }, 120_000);

  it('while a check runs: the check is not disturbed and gives the same outcome', async () => {
    const rng = seeded(SEED + 1);
    const arm = (await h.call('doc.open', { path: SO101 })) as DocumentInfo;
    const reference = await h.job((await h.call('check.run', { docId: arm.id })).jobId);
    if (!('outcome' in reference)) throw new Error('the reference check failed');
    for (let round = 0; round < 3; round++) {
      // Children to kill: an import into another document leaves them running, idle.
      if (h.service.treePoolStatus().length === 0) await h.call('doc.import', { docId: main.id, path: BUNNY });
      const { jobId } = await h.call('check.run', { docId: arm.id });
      const end = h.job(jobId);
      for (let k = 0; k < 2; k++) {
        if ((await killChild(h, rng, 900)) !== null) counts.check++;
        else counts.missed++;
      }
      const done = await end;
      if (!('outcome' in done)) throw new Error(`the check failed: ${JSON.stringify(done)}`);
      expect(done.outcome.summary).toEqual({ ...reference.outcome.summary, elapsedMs: done.outcome.summary.elapsedMs });
      expect(done.outcome.results.map((r) => `${r.a}|${r.b}|${r.kind}`)).toEqual(reference.outcome.results.map((r) => `${r.a}|${r.b}|${r.kind}`));
      await mainSurvives();
    }
    await h.call('doc.close', { docId: arm.id });
  }, 120_000);

  it('while a batch check builds trees: each file is checked or fails cleanly, the batch finishes, the next one runs', async () => {
    const rng = seeded(SEED + 2);
    const pair = path.join(work, 'bunny-and-gear.assembly.json');
    writeFileSync(pair, JSON.stringify({
      format: 'interfere-assembly', version: 1, name: 'bunny and gear', units: 'mm',
      sources: [{ id: 'bunny', path: BUNNY }, { id: 'gear', path: path.join(OBJECTS, 'gearwheel.bin.stl') }],
      parts: [{ id: 'bunny', source: 'bunny', body: 0 }, { id: 'gear', source: 'gear', body: 0, transform: translation(300, 0, 0) }],
    }));
    const files = [pair, GEAR];
    const runBatch = async (): Promise<EventOf<'batch.file'>['file'][]> => {
      const started = await h.call('batch.run', { paths: files });
      const end = await h.job(started!.jobId);
      if (end.kind !== 'batch' || !('files' in end)) throw new Error(`the batch failed: ${JSON.stringify(end)}`);
      return end.files;
    };
    const reference = await runBatch();
    expect(reference.map((f) => f.status)).toEqual(['clear', 'interference']);
    for (let round = 0; round < 4; round++) {
      const batch = runBatch();
      let injected = 0;
      for (let k = 0; k < (rng() < 0.4 ? 2 : 1); k++) {
        if ((await killChild(h, rng, 500)) !== null) injected++;
        else counts.missed++;
      }
      counts.batch += injected;
      const result = await batch;
      expect(result.map((f) => f.path)).toEqual(files);
      result.forEach((f, i) => {
        if (f.status === 'failed') {
          counts.batchFailedFiles++;
          expect(f.error).toMatch(/stopped unexpectedly|could not start/);
          expect(f.exitCode).toBe(2);
        } else {
          expect(f.status).toBe(reference[i].status);
          expect(f.summary).toEqual({ ...reference[i].summary, elapsedMs: f.summary!.elapsedMs });
        }
      });
      await mainSurvives();
    }
    expect((await runBatch()).map((f) => f.status)).toEqual(['clear', 'interference']);
  }, 120_000);
});

describe('the bridge connection dropped mid-check', () => {
  let h: TestHost;
  let bridge: BridgeHandle;
  const bridgeLogs: string[] = [];

  beforeAll(async () => {
    h = createTestHost({ host: 'bridge', dialogs: null, allowedFolders: [TEST_DATA] }, { treeCache: false, autosave: false });
    bridge = await startBridge({ service: h.service, staticDir: tempDir('hardening-bridge-static'), log: (m) => bridgeLogs.push(m) });
  });

  afterAll(async () => {
    await bridge?.close();
    await h?.service.dispose();
  });

  it('keeps the service running: each check completes, a new connection sees the document and its placements', async () => {
    const rng = seeded(SEED + 3);
    let client = await WireClient.open(bridge.port, bridge.token);
    const doc = await client.call<DocumentInfo>('doc.open', { path: MOVED });
    const part = doc.parts[0].id;
    let outcomes = 0;
    const rounds = 14;
    for (let round = 0; round < rounds; round++) {
      // (+ 0 turns -0 into 0, as JSON does on the wire)
      const placed = translation(round, -round, 2 * round).map((v) => v + 0);
      const updated = await client.call<DocumentInfo>('doc.update', { docId: doc.id, transforms: { [part]: placed } });
      expect(updated.dirty).toBe(true);
      const { jobId } = await client.call<{ jobId: string }>('check.run', { docId: doc.id });
      const end = h.job(jobId);
      // Sometimes a large answer is in flight when the connection goes.
      if (round % 4 === 3) void client.request('doc.geometry', { docId: doc.id });
      await sleep(rng() * 700);
      if (rng() < 0.5) client.ws.terminate();
      else client.ws.close();
      await client.closed;
      counts.bridgeDrops++;
      const done = await end;
      expect(done.kind).toBe('check');
      if ('outcome' in done) outcomes++;
      else expect(done).toMatchObject({ cancelled: true, error: { code: 'cancelled' } });

      client = await WireClient.open(bridge.port, bridge.token);
      const seen = await client.call<DocumentInfo>('doc.update', { docId: doc.id });
      expect(seen.parts.find((p) => p.id === part)?.transform).toEqual(placed);
      expect(seen.dirty).toBe(true);
    }
    expect(outcomes).toBe(rounds);
    // A check started on the new connection reports to it.
    const { jobId } = await client.call<{ jobId: string }>('check.run', { docId: doc.id });
    const done = await client.waitEvent((e) => e.event === 'job.done' && (e.payload as { jobId: string }).jobId === jobId);
    expect((done.payload as { outcome: { docId: string } }).outcome.docId).toBe(doc.id);
    expect((await client.call<{ host: string }>('app.info')).host).toBe('bridge');
    client.ws.close();
    expect(bridgeLogs.filter((l) => !/connection error/.test(l))).toEqual([]);
  }, 120_000);
});
