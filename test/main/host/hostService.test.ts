import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAssembly } from '../../../src-core/assembly/format.js';
import { parseReport } from '../../../src-core/report/index.js';
import type { CheckOutcome, DocumentInfo } from '../../../src-main/contract/host.js';
import { HostService } from '../../../src-main/services/host.js';
import {
  ASSEMBLIES, createTestHost, IDENTITY, MOVED, refusal, SAMPLE, TEST_DATA, tempDir, translation, type TestHost,
} from './helpers.js';

const STL = path.join(TEST_DATA, 'stl-models/polytopes');

async function runCheck(h: TestHost, docId: string, scope?: { kind: 'all' }): Promise<CheckOutcome> {
  const { jobId } = await h.call('check.run', { docId, ...(scope ? { scope } : {}) });
  const end = await h.job(jobId);
  if (end.kind !== 'check' || !('outcome' in end)) throw new Error(`check failed: ${JSON.stringify(end)}`);
  return end.outcome;
}

function pairsOf(o: CheckOutcome, kind?: string): string[] {
  return o.results.filter((r) => kind === undefined || r.kind === kind).map((r) => `${r.a}/${r.b}`);
}

describe('host service: documents and checks on AS1', () => {
  let h: TestHost;
  let work: string;
  beforeAll(() => {
    work = tempDir('host-work');
    h = createTestHost({ allowedFolders: [TEST_DATA, path.dirname(SAMPLE), work] });
  });
  afterAll(async () => {
    await h.service.dispose();
  });

  it('opens the bundled AS1 sample and serves each distinct body once', async () => {
    const doc = (await h.call('doc.open', { path: SAMPLE })) as DocumentInfo;
    expect(doc).toMatchObject({ kind: 'model', path: SAMPLE, dirty: false, statuses: {} });
    expect(doc.parts).toHaveLength(18);
    expect(doc.parts.every((p) => p.closed && p.visible && p.transform.join() === IDENTITY.join())).toBe(true);
    const { bodies } = await h.call('doc.geometry', { docId: doc.id });
    expect(bodies.map((b) => b.bodyKey).sort()).toEqual([...new Set(doc.parts.map((p) => p.bodyKey))].sort());
    let triangles = 0;
    for (const b of bodies) {
      expect(b.positions).toBeInstanceOf(Float32Array);
      expect(b.indices).toBeInstanceOf(Uint32Array);
      expect(b.positions.length % 3).toBe(0);
      expect(b.indices.length % 3).toBe(0);
      expect(Math.max(...b.indices)).toBeLessThan(b.positions.length / 3);
      expect(b.faceRanges.length).toBeGreaterThan(0);
      expect(b.faceRanges.length % 2).toBe(0);
      triangles += b.indices.length / 3;
    }
    expect(triangles).toBe(5040);
    const part = doc.parts[3];
    const one = await h.call('doc.geometry', { docId: doc.id, bodyKeys: [part.bodyKey, part.bodyKey] });
    expect(one.bodies.map((b) => b.bodyKey)).toEqual([part.bodyKey]);
    expect(one.bodies[0].indices.length / 3).toBe(part.triangles);
  });

  it('tracks result statuses across checks: new, active, resolved, and a user-set ignored', async () => {
    const doc = (await h.call('doc.open', { path: MOVED })) as DocumentInfo;
    const first = await runCheck(h, doc.id);
    expect(first.summary).toMatchObject({ parts: 18, triangles: 5040, interferences: 6, contacts: 25 });
    expect(first.results.every((r) => r.status === 'new')).toBe(true);
    expect(first.resolved).toEqual([]);
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

  it('saves and reopens: placements, visibility, colours, names, settings, ignore rules and statuses survive; Save As rebases sources', async () => {
    const doc = (await h.call('doc.open', { path: MOVED })) as DocumentInfo;
    await runCheck(h, doc.id);
    const turned = [0, -1, 0, 5, 1, 0, 0, -2, 0, 0, 1, 0.25, 0, 0, 0, 1];
    await h.call('doc.update', {
      docId: doc.id,
      transforms: { 'bolt-5': IDENTITY, 'nut-0': turned },
      visible: { 'rod-2': false },
      colors: { 'plate-10': '#ff8800' },
      names: { 'nut-1': 'front nut' },
      settings: { clearanceMm: 0.25 },
      ignore: [{ a: 'rod-2', b: 'nut-1', reason: 'press fit' }],
      statuses: { 'bolt-13|nut-14': 'ignored' },
    });
    expect(h.service.dirtyDocuments()).toContainEqual({ id: doc.id, name: 'as1-oc-214-moved.assembly.json' });
    const target = path.join(work, 'nested', 'copy');
    mkdirSync(path.dirname(target), { recursive: true });
    const saved = await h.call('doc.save', { docId: doc.id, path: target });
    expect(saved?.path).toBe(`${target}.assembly.json`);
    expect(h.service.dirtyDocuments().map((d) => d.id)).not.toContain(doc.id);

    const text = readFileSync(`${target}.assembly.json`, 'utf8');
    const written = parseAssembly(text, 'copy.assembly.json');
    expect(written.sources[0].path).toBe(path.relative(path.dirname(target), path.join(TEST_DATA, 'cax-if-as1/as1-oc-214.stp')).split(path.sep).join('/'));
    expect(written.parts?.find((p) => p.id === 'bolt-5')?.transform).toBeUndefined();
    expect(written.parts?.find((p) => p.id === 'nut-0')?.transform).toEqual(turned);
    expect(written.extra.description).toBeTypeOf('string'); // unknown fields are kept
    expect((written.extra.resultStatus as Record<string, string>)['bolt-13|nut-14']).toBe('ignored');
    expect((written.extra.resultStatus as Record<string, string>)['bolt-5|plate-10']).toBe('new');

    const before = (await h.call('doc.update', { docId: doc.id })) as DocumentInfo;
    const reopened = (await h.call('doc.open', { path: `${target}.assembly.json` })) as DocumentInfo;
    expect(reopened.kind).toBe('assembly');
    expect(reopened.dirty).toBe(false);
    expect(reopened.parts.map((p) => [p.id, p.name, p.transform, p.visible, p.color])).toEqual(before.parts.map((p) => [p.id, p.name, p.transform, p.visible, p.color]));
    expect(reopened.settings).toEqual({ touchToleranceMm: 0.05, clearanceMm: 0.25, contactIsInterference: false });
    expect(reopened.ignore).toEqual([{ a: 'rod-2', b: 'nut-1', reason: 'press fit' }]);
    expect(reopened.statuses).toEqual(before.statuses);
    // A re-check of the reopened document compares with the saved statuses.
    const again = await runCheck(h, reopened.id);
    expect(again.results.find((r) => r.a === 'bolt-5' && r.b === 'plate-10')?.status).toBe('active');
    expect(again.results.find((r) => r.a === 'bolt-13' && r.b === 'nut-14')?.status).toBe('ignored');
    expect(again.results.find((r) => r.a === 'nut-1' && r.b === 'rod-2')).toMatchObject({ kind: 'ignored', reason: 'press fit', status: 'ignored' });

    // Plain Save writes back to the same file.
    await h.call('doc.update', { docId: reopened.id, names: { 'nut-4': 'back nut' } });
    expect(await h.call('doc.save', { docId: reopened.id })).toEqual({ path: `${target}.assembly.json` });
    expect(readFileSync(`${target}.assembly.json`, 'utf8')).toContain('"back nut"');
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
      expect(readFileSync(html!.path, 'utf8')).toMatch(/^<!DOCTYPE html>/i);
      // Through the dialog when no path is given; cancelling gives null.
      h.dialogs.save.push(path.join(work, 'chosen.html'), null);
      expect(await h.call('report.export', { docId: doc.id, format: 'html' })).toEqual({ path: path.join(work, 'chosen.html') });
      expect(await h.call('report.export', { docId: doc.id, format: 'html' })).toBeNull();
    });

    it('checks one pair at current placements, the same answer on every call (live check)', async () => {
      const hit = await h.call('check.pair', { docId: doc.id, a: 'bolt-5', b: 'plate-10' });
      const full = outcome.results.find((r) => r.a === 'bolt-5' && r.b === 'plate-10')!;
      expect(hit.trianglePairs.length).toBe(full.trianglePairs.length);
      expect(hit.distanceMm).toBeNull();
      // Apart: the distance within reach, or null beyond it.
      await h.call('doc.update', { docId: doc.id, transforms: { 'bolt-5': translation(0, 0, 300) } });
      const apart = await h.call('check.pair', { docId: doc.id, a: 'bolt-5', b: 'plate-10', withinMm: 1000 });
      expect(apart.trianglePairs.length).toBe(0);
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
      console.log(`check.pair: ${perCall.toFixed(2)} ms per call (bolt-5 / l-bracket-9, contact)`);
    });
  });

  it('builds a new document from imported files, saves it with relative sources and reopens it', async () => {
    const doc = await h.call('doc.new', {});
    expect(doc).toMatchObject({ kind: 'new', path: null, parts: [], dirty: false });
    const a = (await h.call('doc.import', { docId: doc.id, path: path.join(STL, 'cube.ascii.stl') })) as DocumentInfo;
    expect(a.parts).toHaveLength(1);
    expect(a.dirty).toBe(true);
    const b = (await h.call('doc.import', { docId: doc.id, path: path.join(STL, 'cube.ascii.stl') })) as DocumentInfo;
    expect(b.parts).toHaveLength(2);
    expect(new Set(b.parts.map((p) => p.id)).size).toBe(2);
    expect(new Set(b.parts.map((p) => p.sourceId)).size).toBe(2);
    expect(b.parts.every((p) => p.transform.join() === IDENTITY.join())).toBe(true);
    // Coincident copies interfere.
    const o = await runCheck(h, doc.id);
    expect(o.results).toHaveLength(1);
    await h.call('doc.update', { docId: doc.id, transforms: { [b.parts[1].id]: translation(1000, 0, 0) } });
    expect((await runCheck(h, doc.id)).resolved).toHaveLength(1);
    // A new document asks where to save; without a dialog answer nothing is written.
    expect(await h.call('doc.save', { docId: doc.id })).toBeNull();
    h.dialogs.save.push(path.join(work, 'two-cubes'));
    const saved = await h.call('doc.save', { docId: doc.id });
    expect(saved?.path).toBe(path.join(work, 'two-cubes.assembly.json'));
    const written = parseAssembly(readFileSync(saved!.path, 'utf8'), 'two-cubes.assembly.json');
    for (const s of written.sources) expect(path.isAbsolute(s.path)).toBe(false);
    const reopened = (await h.call('doc.open', { path: saved!.path })) as DocumentInfo;
    expect(reopened.parts.map((p) => p.transform)).toEqual(b.parts.map((p, i) => (i === 1 ? translation(1000, 0, 0) : p.transform)));
    // An assembly is opened, not imported.
    const wrong = await refusal(h.call('doc.import', { docId: doc.id, path: MOVED }));
    expect(wrong.code).toBe('not-a-model');
  });

  it('uses the dialogs when no path is given, and returns null when the user cancels', async () => {
    const cube = path.join(STL, 'cube.ascii.stl');
    h.dialogs.open.push(cube, null);
    const opened = await h.call('doc.open', {});
    expect(opened?.path).toBe(cube);
    expect(await h.call('doc.open', {})).toBeNull();
    expect(h.dialogs.asked.filter((a) => a.startsWith('openFile'))).toHaveLength(2);
    const bridge = createTestHost({ host: 'bridge', dialogs: null });
    try {
      const e = await refusal(bridge.call('doc.open', {}));
      expect(e.code).toBe('dialog-unavailable');
    } finally {
      await bridge.service.dispose();
    }
  });

  it('closes documents and reports unknown ones', async () => {
    const doc = await h.call('doc.new', {});
    expect(await h.call('doc.close', { docId: doc.id })).toEqual({ closed: true });
    expect(await h.call('doc.close', { docId: doc.id })).toEqual({ closed: false });
    const e = await refusal(h.call('doc.geometry', { docId: doc.id }));
    expect(e).toMatchObject({ code: 'not-found' });
    expect(e.message).toContain(doc.id);
  });
});

describe('host service: refusals', () => {
  let h: TestHost;
  let doc: DocumentInfo;
  let work: string;
  let outside: string;
  beforeAll(async () => {
    work = tempDir('host-allowed');
    outside = tempDir('host-outside');
    h = createTestHost({ allowedFolders: [TEST_DATA, work] });
    doc = (await h.call('doc.open', { path: path.join(STL, 'cube.ascii.stl') })) as DocumentInfo;
  });
  afterAll(async () => {
    await h.service.dispose();
  });

  it('refuses invalid requests on every channel with a reason, and logs it', async () => {
    const part = doc.parts[0].id;
    const scale = [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1];
    const cases: [string, unknown, string, RegExp][] = [
      ['doc.delete', {}, 'unknown-channel', /unknown request 'doc\.delete'/],
      ['__proto__', {}, 'unknown-channel', /unknown request/],
      ['app.info', null, 'invalid-request', /app\.info/],
      ['doc.open', { path: 5 }, 'invalid-request', /path/],
      ['doc.open', { path: 'x'.repeat(5000) }, 'invalid-request', /path/],
      ['doc.open', { path: 'a\u0000b' }, 'invalid-request', /NUL/],
      ['doc.new', 'new', 'invalid-request', /doc\.new/],
      ['doc.import', { path: '/x.stl' }, 'invalid-request', /docId/],
      ['doc.geometry', { docId: doc.id, bodyKeys: ['nope#0'] }, 'not-found', /nope#0/],
      ['doc.geometry', { docId: doc.id, bodyKeys: 'all' }, 'invalid-request', /bodyKeys/],
      ['doc.update', { docId: doc.id, transforms: { nope: IDENTITY } }, 'unknown-part', /'nope'/],
      ['doc.update', { docId: doc.id, transforms: { [part]: scale } }, 'invalid-transform', new RegExp(`part '${part}'.*scales by 2`)],
      ['doc.update', { docId: doc.id, transforms: { [part]: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1] } }, 'invalid-transform', /last row/],
      ['doc.update', { docId: doc.id, transforms: { [part]: IDENTITY.slice(0, 15) } }, 'invalid-request', /transforms/],
      ['doc.update', { docId: doc.id, transforms: { [part]: [NaN, ...IDENTITY.slice(1)] } }, 'invalid-request', /transforms/],
      ['doc.update', { docId: doc.id, colors: { [part]: 'red' } }, 'invalid-request', /colors/],
      ['doc.update', { docId: doc.id, ignore: [{ a: part, b: part }] }, 'invalid-request', /itself/],
      ['doc.update', { docId: doc.id, ignore: Array.from({ length: 100_001 }, () => ({ a: part, b: 'x' })) }, 'invalid-request', /ignore/],
      ['doc.update', { docId: doc.id, statuses: { 'a|b': 'new' } }, 'unknown-part', /a\|b/],
      ['doc.update', { docId: doc.id, statuses: { [`${part}|${part}`]: 'done' } }, 'invalid-request', /statuses/],
      ['doc.update', { docId: doc.id, settings: { clearanceMm: -1 } }, 'invalid-request', /clearanceMm/],
      ['doc.save', { docId: 'doc-999' }, 'not-found', /doc-999/],
      ['doc.close', {}, 'invalid-request', /docId/],
      ['check.run', { docId: doc.id, scope: { kind: 'selection', ids: ['ghost'] } }, 'unknown-part', /'ghost'/],
      ['check.run', { docId: doc.id, scope: { kind: 'some' } }, 'invalid-request', /scope/],
      ['check.pair', { docId: doc.id, a: part, b: part }, 'invalid-request', /two different parts/],
      ['check.pair', { docId: doc.id, a: part, b: 'ghost' }, 'unknown-part', /'ghost'/],
      ['check.pair', { docId: doc.id, a: part, b: 'x', withinMm: -1 }, 'invalid-request', /withinMm/],
      ['job.cancel', {}, 'invalid-request', /jobId/],
      ['report.export', { docId: doc.id, format: 'pdf' }, 'invalid-request', /format/],
      ['batch.run', { paths: 'a.json' }, 'invalid-request', /paths/],
      ['batch.run', { paths: Array.from({ length: 10_001 }, () => '/a') }, 'invalid-request', /paths/],
    ];
    for (const [channel, payload, code, message] of cases) {
      const before = h.logs.length;
      const e = await refusal(h.service.handle(channel, payload));
      expect(e.code, `${channel} ${JSON.stringify(payload)?.slice(0, 80)}`).toBe(code);
      expect(e.message, channel).toMatch(message);
      expect(h.logs.length, `${channel} logged`).toBeGreaterThan(before);
    }
    // Nothing half-applied: the document is as it was.
    const info = (await h.call('doc.update', { docId: doc.id })) as DocumentInfo;
    expect(info.dirty).toBe(false);
    expect(info.ignore).toEqual([]);
    expect(await h.call('job.cancel', { jobId: 'job-12345' })).toEqual({ cancelled: false });
  });

  it('denies paths outside the policy, naming them; .. and symbolic links cannot escape', async () => {
    const secret = path.join(outside, 'secret.stl');
    copyFileSync(path.join(STL, 'cube.ascii.stl'), secret);
    symlinkSync(secret, path.join(work, 'link.stl'));
    symlinkSync(outside, path.join(work, 'linked-folder'));
    const denied: [string, () => Promise<unknown>][] = [
      [secret, () => h.call('doc.open', { path: secret })],
      ['/etc/hostname', () => h.call('doc.open', { path: '/etc/hostname' })],
      ['escape', () => h.call('doc.open', { path: `${work}/../${path.basename(outside)}/secret.stl` })],
      ['link', () => h.call('doc.open', { path: path.join(work, 'link.stl') })],
      ['folder link', () => h.call('doc.open', { path: path.join(work, 'linked-folder', 'secret.stl') })],
      ['import', () => h.call('doc.import', { docId: doc.id, path: secret })],
      ['save', () => h.call('doc.save', { docId: doc.id, path: path.join(outside, 'x.assembly.json') })],
      ['save via link', () => h.call('doc.save', { docId: doc.id, path: path.join(work, 'linked-folder', 'x.assembly.json') })],
      ['batch', () => h.call('batch.run', { paths: [secret] })],
      ['batch reports', () => h.call('batch.run', { paths: [path.join(ASSEMBLIES, 'as1-oc-214-asis.assembly.json')], reportFolder: outside })],
    ];
    for (const [what, p] of denied) {
      const e = await refusal(p());
      expect(e.code, what).toBe('access-denied');
      expect(e.message, what).toMatch(/access denied/);
      expect(e.path, what).toBeTruthy();
      expect(e.message, what).toContain(e.path!);
    }
    // Reports go inside the allowed folders only.
    const { jobId } = await h.call('check.run', { docId: doc.id });
    expect((await h.job(jobId)).kind).toBe('check');
    const e = await refusal(h.call('report.export', { docId: doc.id, format: 'json', path: path.join(outside, 'r.json') }));
    expect(e.code).toBe('access-denied');
    expect((await h.call('report.export', { docId: doc.id, format: 'json', path: path.join(work, 'r.json') }))?.path).toBe(path.join(work, 'r.json'));
    // A file handed over by the shell (command line, drop) may be opened.
    h.service.allowPath(secret);
    expect((await h.call('doc.open', { path: secret }))?.path).toBe(secret);
  });

  it('allows files chosen in a dialog and, later, files from the recent list', async () => {
    const other = tempDir('host-recent');
    const file = path.join(other, 'tet.stl');
    copyFileSync(path.join(STL, 'tetrahedronIrregular.bin.stl'), file);
    const denied = await refusal(h.call('doc.open', { path: file }));
    expect(denied.code).toBe('access-denied');
    h.dialogs.open.push(file);
    expect((await h.call('doc.open', {}))?.path).toBe(file);
    const info = await h.call('app.info', {});
    expect(info.recentFiles[0]).toBe(file);
    // A second service with the same user data: the recent file opens by path.
    const next = createTestHost({ userDataDir: h.userDataDir, allowedFolders: [] });
    try {
      expect((await next.call('doc.open', { path: file }))?.path).toBe(file);
      expect((await refusal(next.call('doc.open', { path: path.join(STL, 'tetrahedron.ascii.stl') }))).code).toBe('access-denied');
    } finally {
      await next.service.dispose();
    }
  });

  it('makes the sources of an opened assembly openable', async () => {
    const folder = tempDir('host-sources');
    const stl = path.join(folder, 'cube.stl');
    copyFileSync(path.join(STL, 'cube.ascii.stl'), stl);
    const assembly = path.join(folder, 'one.assembly.json');
    writeFileSync(assembly, JSON.stringify({ format: 'interfere-assembly', version: 1, name: 'one', units: 'mm', sources: [{ id: 's', path: 'cube.stl' }] }));
    const x = createTestHost({ allowedFolders: [] });
    try {
      expect((await refusal(x.call('doc.open', { path: stl }))).code).toBe('access-denied');
      x.dialogs.open.push(assembly);
      await x.call('doc.open', {});
      expect((await x.call('doc.open', { path: stl }))?.path).toBe(stl);
    } finally {
      await x.service.dispose();
    }
  });
});

describe('host service: start-up', () => {
  it('opens the startup file once and reports it in app.info', async () => {
    const cube = path.join(STL, 'cube.ascii.stl');
    const h = createTestHost({ host: 'bridge', dialogs: null, startupFile: cube, allowedFolders: [] });
    try {
      const info = await h.call('app.info', {});
      expect(info).toMatchObject({ name: 'Interfere', host: 'bridge', platform: process.platform });
      expect(info.startupDocument?.path).toBe(cube);
      expect(info.startupDocument?.parts).toHaveLength(1);
      const again = await h.call('app.info', {});
      expect(again.startupDocument?.id).toBe(info.startupDocument?.id);
      // The startup file was granted (command line).
      expect((await h.call('doc.open', { path: cube }))?.path).toBe(cube);
      // Closing it takes it out of app.info.
      await h.call('doc.close', { docId: info.startupDocument!.id });
      expect((await h.call('app.info', {})).startupDocument).toBeNull();
    } finally {
      await h.service.dispose();
    }
  });

  it('reports a startup file that cannot be opened as a host error, with no startup document', async () => {
    const missing = path.join(tempDir('host-missing'), 'gone.stp');
    const errors: string[] = [];
    const service = new HostService({ host: 'bridge', dialogs: null, userDataDir: tempDir('userdata'), startupFile: missing, log: () => {} });
    service.on('host.error', (e) => errors.push(e.message));
    try {
      const info = (await service.handle('app.info', {})) as { startupDocument: unknown };
      expect(info.startupDocument).toBeNull();
      expect(errors.length).toBeGreaterThan(0);
      expect(errors[0]).toContain(missing);
      expect(errors[0]).toMatch(/file not found/);
    } finally {
      await service.dispose();
    }
    await expect(service.handle('app.info', {})).rejects.toMatchObject({ error: { code: 'disposed' } });
  });
});
