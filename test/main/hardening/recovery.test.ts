// Autosave of unsaved work to recovery files, offered on the next start: a dirty document's file
// appears, follows the changes, goes when the document is saved or closed; a host service killed
// in a child process leaves it behind, and a new service lists it and recovers the same state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAssembly } from '../../../src-core/assembly/format.js';
import type { DocumentInfo } from '../../../src-main/contract/host.js';
import { RecoveryStore } from '../../../src-main/services/recovery.js';
import { createTestHost, GEAR, refusal, TEST_DATA, tempDir, translation, type TestHost } from '../host/helpers.js';
import { alive, forkHostChild, moved, seeded, sleep, tally, until } from './support.js';

const SEED = 7_031;
const STL = path.join(TEST_DATA, 'stl-models/polytopes');

let work: string;
/** A Save As of the gear assembly in `work/base`. */
let original: string;
let partId: string;

beforeAll(async () => {
  work = tempDir('hardening-recovery');
  const h = createTestHost({ allowedFolders: [TEST_DATA, work] }, { treeCache: false, autosave: false });
  try {
    const doc = (await h.call('doc.open', { path: GEAR })) as DocumentInfo;
    partId = doc.parts[0].id;
    mkdirSync(path.join(work, 'base'));
    original = path.join(work, 'base', 'gear.assembly.json');
    await h.call('doc.save', { docId: doc.id, path: original });
  } finally {
    await h.service.dispose();
  }
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A fresh copy of the working assembly in its own folder (same depth, so its sources resolve). */
function copyOf(label: string): string {
  const folder = path.join(work, label);
  mkdirSync(folder);
  const file = path.join(folder, 'gear.assembly.json');
  copyFileSync(original, file);
  return file;
}

function recordFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  } catch {
    return [];
  }
}

describe('autosave in a running service', () => {
  let h: TestHost;
  beforeAll(() => {
    h = createTestHost({ allowedFolders: [TEST_DATA, work] }, { treeCache: false, autosave: { debounceMs: 40, intervalMs: 400 } });
  });
  afterAll(async () => {
    await h.service.dispose();
  });

  it('writes a dirty document to its recovery file, follows its changes at most every interval, and removes it on save and close', async () => {
    const file = copyOf('running');
    const before = readFileSync(file, 'utf8');
    const doc = (await h.call('doc.open', { path: file })) as DocumentInfo;
    const dir = h.service.recoveryDir;
    expect(dir).toBe(path.join(h.userDataDir, 'recovery'));
    await sleep(120);
    expect(recordFiles(dir), 'nothing while clean').toEqual([]);

    await h.call('doc.update', { docId: doc.id, transforms: { [partId]: translation(5, 0, 0) } });
    const [name] = await until(() => (recordFiles(dir).length > 0 ? recordFiles(dir) : undefined), 'the recovery file');
    const record = path.join(dir, name);
    const first = JSON.parse(readFileSync(record, 'utf8')) as { originalPath: string; kind: string; assembly: unknown };
    expect(first).toMatchObject({ format: 'interfere-recovery', originalPath: file, kind: 'assembly' });
    expect(parseAssembly(JSON.stringify(first.assembly), 'record').parts?.find((p) => p.id === partId)?.transform).toEqual(translation(5, 0, 0));
    // The document's own file is not touched by autosave.
    expect(readFileSync(file, 'utf8')).toBe(before);
    // Its own session's documents are not offered for recovery.
    expect(await h.call('doc.recoverable', {})).toEqual({ documents: [] });

    // A change right after a write waits for the interval.
    const t0 = performance.now();
    await h.call('doc.update', { docId: doc.id, transforms: { [partId]: translation(6, 0, 0) } });
    await sleep(150);
    expect(readFileSync(record, 'utf8')).not.toContain('"transform": [\n    1,\n    0,\n    0,\n    6');
    await until(() => {
      const r = JSON.parse(readFileSync(record, 'utf8')) as { assembly: unknown };
      return parseAssembly(JSON.stringify(r.assembly), 'record').parts?.find((p) => p.id === partId)?.transform?.[3] === 6;
    }, 'the second write');
    expect(performance.now() - t0).toBeGreaterThan(200);

    // Saved: gone. Changed again: back. Closed: gone.
    await h.call('doc.save', { docId: doc.id });
    expect(existsSync(record)).toBe(false);
    await h.call('doc.update', { docId: doc.id, visible: { [partId]: false } });
    await until(() => existsSync(record), 'the recovery file after a new change');
    await h.call('doc.close', { docId: doc.id });
    expect(existsSync(record)).toBe(false);
    await sleep(100);
    expect(recordFiles(dir)).toEqual([]);
  });

  it('keeps the recovery file of a dirty document when the service stops, and removes it when the user discards the work', async () => {
    const userDataDir = tempDir('hardening-recovery-dispose');
    const file = copyOf('dispose');
    const a = createTestHost({ userDataDir, allowedFolders: [TEST_DATA, work] }, { treeCache: false, autosave: { debounceMs: 60_000, intervalMs: 60_000 } });
    const doc = (await a.call('doc.open', { path: file })) as DocumentInfo;
    await a.call('doc.update', { docId: doc.id, transforms: { [partId]: translation(0, 9, 0) } });
    expect(recordFiles(a.service.recoveryDir)).toEqual([]); // the debounce has not passed
    await a.service.dispose(); // brought up to date on the way out
    expect(recordFiles(a.service.recoveryDir)).toHaveLength(1);

    const b = createTestHost({ userDataDir, allowedFolders: [] }, { treeCache: false });
    try {
      const { documents } = await b.call('doc.recoverable', {});
      expect(documents).toHaveLength(1);
      const recovered = await b.call('doc.recover', { recoveryId: documents[0].recoveryId });
      expect(recovered.parts.find((p) => p.id === partId)?.transform).toEqual(translation(0, 9, 0));
      // The user quits without saving: nothing is offered next time.
      await b.service.discardUnsavedWork();
      expect(recordFiles(b.service.recoveryDir)).toEqual([]);
    } finally {
      await b.service.dispose();
    }
    expect(recordFiles(b.service.recoveryDir)).toEqual([]);
  });
});

describe('recovery after the service was killed', () => {
  it('lists the document a killed service left, recovers the same placements, and saving clears it', async () => {
    const file = copyOf('killed');
    const userDataDir = tempDir('hardening-recovery-killed');
    const child = forkHostChild({ mode: 'autosave', userDataDir, file, part: partId, loop: false, debounceMs: 20, intervalMs: 1000 });
    let recordFile: string;
    try {
      recordFile = ((await child.next((m) => m.type === 'autosaved', 'the autosave')) as { file: string }).file;
    } finally {
      await child.kill();
    }
    expect(child.child.pid !== undefined && alive(child.child.pid)).toBe(false);
    expect(existsSync(recordFile)).toBe(true);

    // The document's folder is one this host may write (a recovery record grants no writing).
    const h = createTestHost({ userDataDir, allowedFolders: [path.dirname(file)] }, { treeCache: false, autosave: { debounceMs: 20, intervalMs: 1000 } });
    try {
      const { documents } = await h.call('doc.recoverable', {});
      expect(documents).toEqual([{
        recoveryId: path.basename(recordFile, '.json'), name: expect.stringContaining('STL gear') as unknown as string,
        originalPath: file, kind: 'assembly', savedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown as string,
      }]);
      // The same state as the killed service had: the moved part, the others where the file has them.
      const onDisk = parseAssembly(readFileSync(file, 'utf8'), file);
      const doc = await h.call('doc.recover', { recoveryId: documents[0].recoveryId });
      expect(doc).toMatchObject({ path: file, kind: 'assembly', dirty: true });
      for (const p of doc.parts) {
        const expected = p.id === partId ? moved(1) : (onDisk.parts?.find((q) => q.id === p.id)?.transform ?? translation(0, 0, 0));
        expect(p.transform, p.id).toEqual(expected);
      }
      expect(h.service.dirtyDocuments().map((d) => d.id)).toContain(doc.id);
      // The old record gave way to this run's.
      expect(existsSync(recordFile)).toBe(false);
      expect(recordFiles(h.service.recoveryDir)).toHaveLength(1);
      expect(await h.call('doc.recoverable', {})).toEqual({ documents: [] });
      expect((await refusal(h.call('doc.recover', { recoveryId: documents[0].recoveryId }))).code).toBe('not-found');
      // Saved (to its own file, which has not changed): the file has the placement, the record is gone.
      expect(await h.call('doc.save', { docId: doc.id })).toEqual({ path: file });
      expect(parseAssembly(readFileSync(file, 'utf8'), file).parts?.find((p) => p.id === partId)?.transform).toEqual(moved(1));
      expect(recordFiles(h.service.recoveryDir)).toEqual([]);
    } finally {
      await h.service.dispose();
    }
  });

  it('killed at random moments while the placements change: every recovery file left is whole and recovers', async () => {
    const rng = seeded(SEED);
    const rounds = 10;
    let withRecord = 0;
    let midWrite = 0;
    for (let round = 0; round < rounds; round++) {
      const file = copyOf(`loop-${round}`);
      const userDataDir = tempDir('hardening-recovery-loop');
      const child = forkHostChild({ mode: 'autosave', userDataDir, file, part: partId, loop: true, debounceMs: 1, intervalMs: 2 });
      try {
        await child.next((m) => m.type === 'ready', 'the document to open');
        await sleep(20 + rng() * 200);
      } finally {
        await child.kill();
      }
      const lastChanged = Math.max(0, ...child.messages.flatMap((m) => (m.type === 'changed' ? [m.n] : [])));
      const temps = readdirSync(path.join(userDataDir, 'recovery')).filter((n) => n.includes('.interfere-tmp-')).length;
      if (temps > 0) midWrite++;
      const store = new RecoveryStore(userDataDir, (m) => {
        throw new Error(`a damaged recovery file: ${m}`);
      });
      const records = await store.list('none');
      expect(records.length).toBeLessThanOrEqual(1);
      if (records.length === 0) continue;
      withRecord++;
      const x = records[0].assembly.parts?.find((p) => p.id === partId)?.transform?.[3] ?? 0;
      const n = x - 1000;
      expect(Number.isInteger(n) && n >= 1).toBe(true);
      expect(n).toBeGreaterThanOrEqual(Math.min(lastChanged, 1));
      const h = createTestHost({ userDataDir, allowedFolders: [] }, { treeCache: false, autosave: false });
      try {
        const doc = await h.call('doc.recover', { recoveryId: records[0].recoveryId });
        expect(doc.parts.find((p) => p.id === partId)?.transform).toEqual(moved(n));
        expect(readFileSync(file, 'utf8')).toBe(readFileSync(original, 'utf8')); // the document's file untouched
      } finally {
        await h.service.dispose();
      }
    }
    tally(`autosave kill points: ${rounds} random kills while placements changed (${midWrite} in the middle of writing the recovery file), ${withRecord} left a recovery file; every one was whole and recovered`);
    expect(withRecord).toBeGreaterThan(rounds / 2);
  }, 180_000);
});

describe('recovery of new and bare-file documents, and refusals', () => {
  it('recovers a new document built from imported files (no path) and a bare STL opened as a model', async () => {
    const userDataDir = tempDir('hardening-recovery-new');
    const a = createTestHost({ userDataDir, allowedFolders: [TEST_DATA, work] }, { treeCache: false, autosave: { debounceMs: 10_000, intervalMs: 10_000 } });
    const fresh = await a.call('doc.new', {});
    await a.call('doc.import', { docId: fresh.id, path: path.join(STL, 'cube.ascii.stl') });
    const imported = (await a.call('doc.import', { docId: fresh.id, path: path.join(STL, 'tetrahedron.ascii.stl') })) as DocumentInfo;
    const tet = imported.parts[1].id;
    await a.call('doc.update', { docId: fresh.id, transforms: { [tet]: translation(0, 0, 30) }, names: { [tet]: 'the tetrahedron' } });
    const model = (await a.call('doc.open', { path: path.join(STL, 'cube.ascii.stl') })) as DocumentInfo;
    await a.call('doc.update', { docId: model.id, colors: { [model.parts[0].id]: '#123456' } });
    await a.service.dispose();

    const b = createTestHost({ userDataDir, allowedFolders: [work] }, { treeCache: false, autosave: false });
    try {
      const { documents } = await b.call('doc.recoverable', {});
      expect(documents.map((d) => [d.kind, d.originalPath]).sort()).toEqual([['model', path.join(STL, 'cube.ascii.stl')], ['new', null]]);
      const newOne = documents.find((d) => d.kind === 'new')!;
      const recovered = await b.call('doc.recover', { recoveryId: newOne.recoveryId });
      expect(recovered).toMatchObject({ path: null, kind: 'new', dirty: true });
      expect(recovered.parts.map((p) => [p.id, p.name, p.transform])).toEqual(
        imported.parts.map((p) => [p.id, p.id === tet ? 'the tetrahedron' : p.name, p.id === tet ? translation(0, 0, 30) : p.transform]),
      );
      // Saved somewhere: sources become relative to the new file.
      const target = path.join(work, 'recovered-new.assembly.json');
      expect(await b.call('doc.save', { docId: recovered.id, path: target })).toEqual({ path: target });
      const saved = parseAssembly(readFileSync(target, 'utf8'), target);
      expect(saved.sources.map((s) => path.resolve(work, s.path))).toEqual([path.join(STL, 'cube.ascii.stl'), path.join(STL, 'tetrahedron.ascii.stl')]);

      const modelOne = documents.find((d) => d.kind === 'model')!;
      const m = await b.call('doc.recover', { recoveryId: modelOne.recoveryId });
      expect(m).toMatchObject({ path: path.join(STL, 'cube.ascii.stl'), kind: 'model', dirty: true });
      expect(m.parts[0].color).toBe('#123456');
      expect(await b.call('doc.recoverable', {})).toEqual({ documents: [] });
    } finally {
      await b.service.dispose();
    }
  });

  it('discards, refuses ids that are not recovery ids, skips damaged files, and refuses to save over a file changed since', async () => {
    const userDataDir = tempDir('hardening-recovery-refusals');
    const file = copyOf('refusals');
    const a = createTestHost({ userDataDir, allowedFolders: [work] }, { treeCache: false, autosave: { debounceMs: 10_000, intervalMs: 10_000 } });
    const doc = (await a.call('doc.open', { path: file })) as DocumentInfo;
    await a.call('doc.update', { docId: doc.id, transforms: { [partId]: translation(1, 1, 1) } });
    await a.service.dispose();
    const dir = path.join(userDataDir, 'recovery');
    writeFileSync(path.join(dir, 'garbage-1.json'), '{ this is not json');

    const b = createTestHost({ userDataDir, allowedFolders: [work] }, { treeCache: false, autosave: false });
    try {
      const { documents } = await b.call('doc.recoverable', {});
      expect(documents).toHaveLength(1);
      expect(b.logs.some((l) => l.includes('garbage-1.json') && /cannot be used/.test(l))).toBe(true);
      expect(existsSync(path.join(dir, 'garbage-1.json'))).toBe(true); // never deleted unasked
      for (const bad of ['../etc/passwd', 'a/b', '', 'x'.repeat(200), 'a.json']) {
        expect((await refusal(b.call('doc.recover', { recoveryId: bad }))).code, bad).toBe('invalid-request');
        expect((await refusal(b.call('doc.discardRecovery', { recoveryId: bad }))).code, bad).toBe('invalid-request');
      }
      expect((await refusal(b.call('doc.recover', { recoveryId: 'garbage-1' }))).code).toBe('invalid-recovery');
      expect((await refusal(b.call('doc.recover', { recoveryId: 'no-such-record' }))).code).toBe('not-found');
      expect(await b.call('doc.discardRecovery', { recoveryId: 'no-such-record' })).toEqual({ discarded: false });

      // Someone changed the file meanwhile: the recovered document does not overwrite it unasked.
      const theirs = readFileSync(file, 'utf8').replace('"units": "mm"', '"units": "mm", "note": "edited elsewhere"');
      writeFileSync(file, theirs);
      const recovered = await b.call('doc.recover', { recoveryId: documents[0].recoveryId });
      const e = await refusal(b.call('doc.save', { docId: recovered.id }));
      expect(e).toMatchObject({ code: 'would-overwrite', path: file });
      expect(readFileSync(file, 'utf8')).toBe(theirs);
      await b.call('doc.close', { docId: recovered.id });
      expect(recordFiles(dir)).toEqual(['garbage-1.json']);
      expect(await b.call('doc.discardRecovery', { recoveryId: 'garbage-1' })).toEqual({ discarded: true });
      expect(recordFiles(dir)).toEqual([]);
    } finally {
      await b.service.dispose();
    }
  });
});
