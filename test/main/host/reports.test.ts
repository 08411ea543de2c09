import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseReport } from '../../../src-core/report/index.js';
import type { CheckOutcome, DocumentInfo } from '../../../src-main/contract/host.js';
import { createDefaultRegistry } from '../../../src-core/io/registry.js';
import { checkFile } from '../../../src-main/services/checkService.js';
import { nodeOcctProvider } from '../../../src-main/services/occtNode.js';

const registry = createDefaultRegistry({ occt: nodeOcctProvider });
const cad = { importer: (bytes: Uint8Array, fileName: string, options?: Parameters<typeof registry.import>[2]) => registry.import(bytes, fileName, options) };
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

describe('host service: result numbers, statuses, names and inputs in reports', () => {
  let h: TestHost;
  let work: string;
  beforeAll(() => {
    work = tempDir('host-ids');
    h = createTestHost({ allowedFolders: [TEST_DATA, path.dirname(SAMPLE), work] });
  });
  afterAll(async () => {
    await h.service.dispose();
  });

  it('numbers results once, keeps the numbers through a save and reopen, and the command line uses them', async () => {
    const doc = (await h.call('doc.open', { path: MOVED })) as DocumentInfo;
    // The parts carry their place in AS1's product tree.
    const plate = doc.parts.find((p) => p.id === 'plate-10')!;
    expect(plate.path).toEqual(['as1', 'plate']);
    const outcome = await runCheck(h, doc.id);
    const jsonPath = (await h.call('report.export', { docId: doc.id, format: 'json', path: path.join(work, 'first.json') }))!.path;
    const first = parseReport(readFileSync(jsonPath, 'utf8'));
    expect(first.results.map((r) => r.id)).toEqual(first.results.map((_, i) => `R${i + 1}`));
    expect(first.results.every((r) => r.status === (r.kind === 'ignored' ? 'ignored' : 'new'))).toBe(true);
    expect(first.results).toHaveLength(outcome.results.length);
    // Parts: path, display name, placement.
    const reportPlate = first.parts.find((p) => p.id === 'plate-10')!;
    expect(reportPlate.displayName).toBe('as1 / plate');
    expect(reportPlate.transform).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(first.parts.find((p) => p.id === 'bolt-5')!.transform![7]).toBe(-0.5);
    // Inputs: the assembly and its source, as read, with their SHA-256.
    expect(first.inputs.map((f) => f.role)).toEqual(['assembly', 'source']);
    for (const f of first.inputs) {
      const bytes = readFileSync(f.path);
      expect(f.sizeBytes).toBe(bytes.length);
      expect(f.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(Date.parse(f.modifiedAt)).toBeCloseTo(statSync(f.path).mtimeMs, -1);
    }
    // The CSV carries the statuses too.
    const csvPath = (await h.call('report.export', { docId: doc.id, format: 'csv', path: path.join(work, 'first.csv') }))!.path;
    const csvRows = readFileSync(csvPath, 'utf8').slice(1).trimEnd().split('\r\n').slice(1);
    expect(csvRows.every((l) => /^R\d+,/.test(l) && /,(new|ignored),/.test(l))).toBe(true);
    // The HTML too.
    const htmlPath = (await h.call('report.export', { docId: doc.id, format: 'html', path: path.join(work, 'first.html') }))!.path;
    const html = readFileSync(htmlPath, 'utf8');
    expect(html).toContain('<tr id="R1">');
    expect(html).toContain('class="st-new">New</td>');
    expect(html).toContain(first.inputs[1]!.sha256);

    // Saved with the assembly: reopened, checked again, the same pairs keep their numbers and are active now.
    const saved = path.join(work, 'moved-again.assembly.json');
    await h.call('doc.save', { docId: doc.id, saveAs: true, path: saved });
    const text = JSON.parse(readFileSync(saved, 'utf8')) as { resultIds: Record<string, string>; parts: { path?: string[] }[] };
    expect(Object.keys(text.resultIds)).toHaveLength(first.results.length);
    expect(text.parts.every((p) => Array.isArray(p.path))).toBe(true);
    const again = (await h.call('doc.open', { path: saved })) as DocumentInfo;
    expect(again.resultIds).toEqual(text.resultIds);
    await runCheck(h, again.id);
    const second = parseReport(readFileSync((await h.call('report.export', { docId: again.id, format: 'json', path: path.join(work, 'second.json') }))!.path, 'utf8'));
    const idOf = (r: readonly { a: string; b: string; id: string }[]) => new Map(r.map((x) => [[x.a, x.b].sort().join('|'), x.id]));
    expect(idOf(second.results)).toEqual(idOf(first.results));
    expect(second.results.every((r) => r.status === (r.kind === 'ignored' ? 'ignored' : 'active'))).toBe(true);

    // The command line checking the saved assembly uses the saved numbers; a bare file is numbered fresh.
    const cli = await checkFile(saved, cad);
    expect(idOf(cli.report.results)).toEqual(idOf(first.results));
    expect(cli.report.inputs.map((f) => f.path)).toEqual([saved, path.resolve(path.dirname(MOVED), '../cax-if-as1/as1-oc-214.stp')]);
  }, 240_000);

  it('numbers new pairs after the saved ones, in report order', async () => {
    const base = JSON.parse(readFileSync(MOVED, 'utf8')) as Record<string, unknown>;
    const file = path.join(work, 'numbered.assembly.json');
    const sourcePath = path.relative(work, path.resolve(path.dirname(MOVED), '../cax-if-as1/as1-oc-214.stp')).split(path.sep).join('/');
    writeFileSync(file, JSON.stringify({ ...base, sources: [{ id: 'as1', path: sourcePath }], resultIds: { 'bolt-5|plate-10': 'R40', 'nut-0|nope': 'R2' } }));
    const r = await checkFile(file, cad);
    const ids = r.report.results.map((x) => x.id);
    expect(ids[r.report.results.findIndex((x) => [x.a, x.b].sort().join('|') === 'bolt-5|plate-10')]).toBe('R40');
    expect(ids.filter((id) => id !== 'R40')).toEqual(ids.filter((id) => id !== 'R40').map((_, i) => `R${41 + i}`));
    expect(r.report.warnings.some((w) => w.includes('resultIds'))).toBe(true);
  }, 120_000);
});
