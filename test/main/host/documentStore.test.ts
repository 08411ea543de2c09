import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAssembly } from '../../../src-core/assembly/format.js';
import type { DocumentInfo } from '../../../src-main/contract/host.js';
import {
  createTestHost, IDENTITY, MOVED, refusal, runCheck, SAMPLE, STL, TEST_DATA, tempDir, translation, type TestHost,
} from './helpers.js';

describe('host service: documents on AS1', () => {
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
