// The traversal view and the overlap solid of a pair, through the host service.
import { describe, expect, it } from 'vitest';
import type { DocumentInfo } from '../../../src-main/contract/host.js';
import { createTestHost, GEAR, TEST_DATA } from './helpers.js';

describe('host service: pair analysis', () => {
  it('traces a pair and outlines its overlap solid', async () => {
    const h = createTestHost({ allowedFolders: [TEST_DATA] });
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
