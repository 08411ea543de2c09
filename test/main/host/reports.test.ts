import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseReport } from '../../../src-core/report/index.js';
import type { CheckOutcome, DocumentInfo } from '../../../src-main/contract/host.js';
import { createTestHost, MOVED, pairsOf, refusal, runCheck, SAMPLE, TEST_DATA, tempDir, type TestHost } from './helpers.js';

describe('host service: reports', () => {
  let h: TestHost;
  let work: string;
  beforeAll(() => {
    work = tempDir('host-work');
    h = createTestHost({ allowedFolders: [TEST_DATA, path.dirname(SAMPLE), work] });
  });
  afterAll(async () => {
    await h.service.dispose();
  });

  describe('with a checked document', () => {
    let doc: DocumentInfo;
    let outcome: CheckOutcome;
    beforeAll(async () => {
      doc = (await h.call('doc.open', { path: MOVED })) as DocumentInfo;
      const none = await refusal(h.call('report.export', { docId: doc.id, format: 'json', path: path.join(work, 'r.json') }));
      expect(none.code).toBe('no-check');
      expect(none.message).toContain('as1-oc-214-moved.assembly.json');
      outcome = await runCheck(h, doc.id);
    });

    it('exports the last check as HTML, CSV and JSON', async () => {
      const json = await h.call('report.export', { docId: doc.id, format: 'json', path: path.join(work, 'moved-report') });
      expect(json?.path).toBe(path.join(work, 'moved-report.json'));
      const report = parseReport(readFileSync(json!.path, 'utf8'));
      expect(report.assembly).toBe('as1-oc-214-moved.assembly.json');
      expect(report.summary.interferences).toBe(outcome.summary.interferences);
      expect(report.results.map((r) => `${r.a}/${r.b}`)).toEqual(pairsOf(outcome));
      const csv = await h.call('report.export', { docId: doc.id, format: 'csv', path: path.join(work, 'moved.csv') });
      expect(readFileSync(csv!.path, 'utf8').split('\n').filter((l) => l.includes('bolt-5'))).toHaveLength(3 + outcome.results.filter((r) => r.kind === 'contact' && (r.a === 'bolt-5' || r.b === 'bolt-5')).length);
      const html = await h.call('report.export', { docId: doc.id, format: 'html', path: path.join(work, 'moved.htm') });
      expect(html?.path).toBe(path.join(work, 'moved.htm'));
      const page = readFileSync(html!.path, 'utf8');
      expect(page).toMatch(/^<!DOCTYPE html>/i);
      // A picture of each interference and clearance violation, of the parts as checked.
      const pictured = outcome.results.filter((r) => r.kind === 'interference' || r.kind === 'clearance').length;
      expect(pictured).toBeGreaterThan(0);
      expect(page.match(/<figure id="picture-\d+">\n<svg /g)).toHaveLength(pictured);
      // The interferences' overlap solids (closed parts) are outlined, in both views of each.
      const interferences = outcome.results.filter((r) => r.kind === 'interference').length;
      expect(page.match(/stroke-dasharray="4 2"/g)?.length).toBe(2 * interferences);
      // Through the dialog when no path is given; cancelling gives null.
      h.dialogs.save.push(path.join(work, 'chosen.html'), null);
      expect(await h.call('report.export', { docId: doc.id, format: 'html' })).toEqual({ path: path.join(work, 'chosen.html') });
      expect(await h.call('report.export', { docId: doc.id, format: 'html' })).toBeNull();
    });
  });
});
