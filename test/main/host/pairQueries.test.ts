// Queries of one pair through the host service: the live check, the traversal view and the overlap solid.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import path from 'node:path';
import type { CheckOutcome, DocumentInfo } from '../../../src-main/contract/host.js';
import { CHECK_RUNNERS, createTestHost, GEAR, IDENTITY, MOVED, runCheck, SAMPLE, TEST_DATA, tempDir, translation, type TestHost } from './helpers.js';

describe.each(CHECK_RUNNERS)('host service: pair queries (checks %s)', (_runner, tuning) => {
  let h: TestHost;
  let work: string;
  beforeAll(() => {
    work = tempDir('host-work');
    h = createTestHost({ allowedFolders: [TEST_DATA, path.dirname(SAMPLE), work] }, tuning);
  });
  afterAll(async () => {
    await h.service.dispose();
  });

  describe('with a checked document', () => {
    let doc: DocumentInfo;
    let outcome: CheckOutcome;
    beforeAll(async () => {
      doc = (await h.call('doc.open', { path: MOVED })) as DocumentInfo;
      outcome = await runCheck(h, doc.id);
    });

    it('checks one pair at current placements, the same answer on every call (live check)', async () => {
      const hit = await h.call('check.pair', { docId: doc.id, a: 'bolt-5', b: 'plate-10' });
      const full = outcome.results.find((r) => r.a === 'bolt-5' && r.b === 'plate-10')!;
      expect(hit.trianglePairs.length).toBe(full.trianglePairs.length);
      expect(hit.distanceMm).toBeNull();
      expect(hit.depthMm).toBeNull();
      // How deep they cross, when asked: about the 0.5 mm the bolt was pushed sideways into the plate.
      const deep = await h.call('check.pair', { docId: doc.id, a: 'bolt-5', b: 'plate-10', depth: true });
      expect(deep.depthMm).toBeGreaterThan(0.3);
      expect(deep.depthMm).toBeLessThan(0.8);
      // Apart: the distance within reach, or null beyond it.
      await h.call('doc.update', { docId: doc.id, transforms: { 'bolt-5': translation(0, 0, 300) } });
      const apart = await h.call('check.pair', { docId: doc.id, a: 'bolt-5', b: 'plate-10', withinMm: 1000 });
      expect(apart.trianglePairs.length).toBe(0);
      expect(apart.depthMm).toBeNull();
      expect(apart.distanceMm).toBeGreaterThan(100);
      expect(apart.distanceMm).toBeLessThan(300);
      expect((await h.call('check.pair', { docId: doc.id, a: 'bolt-5', b: 'plate-10', withinMm: 1 })).distanceMm).toBeNull();
      // Order of a and b does not change the distance.
      const swapped = await h.call('check.pair', { docId: doc.id, a: 'plate-10', b: 'bolt-5', withinMm: 1000 });
      expect(swapped.distanceMm).toBeCloseTo(apart.distanceMm!, 9);
      // Repeated calls (as while dragging) answer alike; the time per call is printed, not asserted.
      await h.call('doc.update', { docId: doc.id, transforms: { 'bolt-5': IDENTITY } });
      const first = await h.call('check.pair', { docId: doc.id, a: 'bolt-5', b: 'l-bracket-9', withinMm: 5 });
      expect(first.trianglePairs.length).toBeGreaterThan(0);
      const t0 = performance.now();
      for (let i = 0; i < 100; i++) {
        const again = await h.call('check.pair', { docId: doc.id, a: 'bolt-5', b: 'l-bracket-9', withinMm: 5 });
        expect(Array.from(again.trianglePairs)).toEqual(Array.from(first.trianglePairs));
      }
      const perCall = (performance.now() - t0) / 100;
      console.log(`check.pair (checks ${_runner}): ${perCall.toFixed(2)} ms per call (bolt-5 / l-bracket-9, contact)`);
    });
  });
});

describe.each(CHECK_RUNNERS)('host service: pair analysis (checks %s)', (_runner, tuning) => {
  it('traces a pair and outlines its overlap solid', async () => {
    const h = createTestHost({ allowedFolders: [TEST_DATA] }, tuning);
    try {
      const doc = (await h.call('doc.open', { path: GEAR })) as DocumentInfo;
      // block cuts 1 mm into the gear's teeth (19.74 mm³ per the ground truth).
      const trace = await h.call('check.trace', { docId: doc.id, a: 'gear', b: 'block', maxDepth: 4 });
      expect(trace.trianglePairs.length / 2).toBe(57);
      expect(trace.testedA.length).toBeGreaterThan(0);
      expect(trace.triTests).toBeGreaterThanOrEqual(57);
      expect(trace.boxes.length % 18).toBe(0);
      for (let o = 0; o < trace.boxes.length; o += 18) expect(trace.boxes[o + 1]).toBeLessThanOrEqual(4);

      const solid = await h.call('check.overlap', { docId: doc.id, a: 'gear', b: 'block' });
      expect(solid).not.toBeNull();
      expect(solid!.volumeMm3).toBeCloseTo(19.74, 1);
      expect(solid!.indices.length % 3).toBe(0);
      expect(solid!.positions.length).toBeGreaterThan(0);

      // Parts 1 mm apart overlap in nothing.
      expect(await h.call('check.overlap', { docId: doc.id, a: 'base', b: 'block' })).toBeNull();
      await expect(h.call('check.trace', { docId: doc.id, a: 'gear', b: 'gear' })).rejects.toThrow(/two different parts/);
    } finally {
      await h.service.dispose();
    }
  }, 60_000);
});
