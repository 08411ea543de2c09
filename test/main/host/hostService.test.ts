import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { copyFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DocumentInfo } from '../../../src-main/contract/host.js';
import { HostService } from '../../../src-main/services/host/hostService.js';
import {
  ASSEMBLIES, createTestHost, IDENTITY, refusal, STL, TEST_DATA, tempDir, type TestHost,
} from './helpers.js';

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
