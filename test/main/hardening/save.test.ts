// Nothing lost on save: a host service in a child process is killed at many points of doc.save
// (each step of the atomic write, and random moments of repeated saves); the file is always the
// previous version or the new one, whole. A malformed or unopenable assembly, a file that is not
// an assembly and a file changed on disk are never overwritten unasked ('would-overwrite').
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAssembly, serializeAssembly } from '../../../src-core/assembly/format.js';
import type { AssemblyDoc } from '../../../src-core/assembly/model.js';
import type { DocumentInfo } from '../../../src-main/contract/host.js';
import { removeStaleTempFiles } from '../../../src-main/services/files.js';
import { createTestHost, GEAR, refusal, TEST_DATA, tempDir, translation, type TestHost } from '../host/helpers.js';
import type { PauseStep } from './hostChild.js';
import { forkHostChild, inParallel, moved, seeded, sleep, tally } from './support.js';

const SEED = 20_240_611;
const STL = path.join(TEST_DATA, 'stl-models/polytopes');

let work: string;
let h: TestHost;
/** The working assembly (a Save As of the gear assembly) as first written. */
let original: string;
let originalText: string;
let partId: string;

beforeAll(async () => {
  work = tempDir('hardening-save');
  h = createTestHost({ allowedFolders: [TEST_DATA, work] }, { treeCache: false, autosave: false });
  const doc = (await h.call('doc.open', { path: GEAR })) as DocumentInfo;
  partId = doc.parts[doc.parts.length - 1].id;
  mkdirSync(path.join(work, 'base'));
  original = path.join(work, 'base', 'gear.assembly.json');
  await h.call('doc.save', { docId: doc.id, path: original });
  originalText = readFileSync(original, 'utf8');
  await h.call('doc.close', { docId: doc.id });
});

afterAll(async () => {
  await h?.service.dispose();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The document with the moved part's transform blanked: what must be whole in every version. */
function withoutMovedPart(doc: AssemblyDoc): string {
  return serializeAssembly({ ...doc, parts: (doc.parts ?? []).map((p) => (p.id === partId ? { ...p, transform: undefined } : p)) });
}

/** Which version a file on disk holds: 0 (the original, byte for byte) or n (whole, part at x = 1000 + n); throws otherwise. */
function versionOf(file: string): number {
  const text = readFileSync(file, 'utf8');
  if (text === originalText) return 0;
  const doc = parseAssembly(text, file); // throws on a damaged file
  const t = doc.parts?.find((p) => p.id === partId)?.transform;
  if (!t) throw new Error(`${file}: the moved part has no transform`);
  const n = t[3] - 1000;
  expect(t).toEqual(moved(n));
  expect(withoutMovedPart(doc)).toBe(withoutMovedPart(parseAssembly(originalText, 'original')));
  return n;
}

function tempFilesNextTo(file: string): string[] {
  return readdirSync(path.dirname(file)).filter((n) => n.includes('.interfere-tmp-'));
}

describe('a host service killed during doc.save', () => {
  it('leaves the previous file intact and parseable at every step of the atomic write, and at random moments', async () => {
    const rng = seeded(SEED);
    // The temporary file is written in chunks of 200 bytes: how many chunks version 1 takes.
    const chunks = Math.ceil(Buffer.byteLength(originalText) / 200);
    const points: ({ step: PauseStep; chunk: number } | 'random')[] = [];
    const steps: [PauseStep, number][] = [['open', 2], ['write', 5], ['sync', 2], ['close', 2], ['rename', 2], ['after-rename', 2]];
    for (const [step, count] of steps) {
      for (let i = 0; i < count; i++) points.push({ step, chunk: step === 'write' ? 1 + Math.floor(rng() * chunks) : 0 });
    }
    for (let i = 0; i < 10; i++) points.push('random');
    const delays = points.map(() => rng());

    const outcomes: { point: string; version: number; temps: number; lastSaved: number }[] = [];
    await inParallel(points, 2, async (point, i) => {
      const folder = path.join(work, `kill-${i}`);
      mkdirSync(folder);
      const file = path.join(folder, 'gear.assembly.json');
      copyFileSync(original, file);
      const child = forkHostChild({
        mode: 'save', userDataDir: path.join(folder, 'userdata'), file, part: partId,
        pause: point === 'random' ? null : point, loop: point === 'random', chunkBytes: 200,
      });
      try {
        await child.next((m) => m.type === 'ready', 'the document to open');
        if (point === 'random') {
          await sleep(delays[i] * 250);
        } else {
          await child.next((m) => m.type === 'paused', `the save to stop at ${point.step}`);
          await sleep(delays[i] * 3);
        }
      } finally {
        await child.kill();
      }
      const lastSaved = Math.max(0, ...child.messages.flatMap((m) => (m.type === 'saved' ? [m.n] : [])));
      const version = versionOf(file);
      const temps = tempFilesNextTo(file).length;
      if (point === 'random') {
        expect(version).toBeGreaterThanOrEqual(lastSaved);
      } else if (point.step === 'after-rename') {
        expect(version, 'renamed: the new version').toBe(1);
      } else {
        expect(version, `killed at ${point.step}: the previous file, byte for byte`).toBe(0);
        if (point.step !== 'open') expect(temps, 'the temporary file is left behind').toBe(1);
      }
      // What a crash leaves is cleaned up; the file stays as it is.
      await removeStaleTempFiles(file);
      expect(tempFilesNextTo(file)).toEqual([]);
      expect(versionOf(file)).toBe(version);
      outcomes.push({ point: point === 'random' ? 'random' : point.step === 'write' ? `write#${point.chunk}` : point.step, version, temps, lastSaved });
    });

    expect(outcomes).toHaveLength(points.length);
    const lost = outcomes.filter((o) => !Number.isInteger(o.version));
    expect(lost).toEqual([]);
    const random = outcomes.filter((o) => o.point === 'random');
    tally(`save kill points: ${outcomes.length} (${outcomes.length - random.length} at chosen steps of the atomic write, ${random.length} at random moments of repeated saves; ` +
      `${outcomes.filter((o) => o.temps > 0).length} left a temporary file, ${random.filter((o) => o.version > o.lastSaved).length} random kills landed with a newer version than the last reported save); data lost: ${lost.length}`);

    // Every file opens in the host as it was left.
    for (let i = 0; i < points.length; i++) {
      const file = path.join(work, `kill-${i}`, 'gear.assembly.json');
      const doc = (await h.call('doc.open', { path: file })) as DocumentInfo;
      const v = versionOf(file);
      if (v > 0) expect(doc.parts.find((p) => p.id === partId)?.transform).toEqual(moved(v));
      await h.call('doc.close', { docId: doc.id });
    }
  }, 240_000);
});

describe('never overwritten unasked', () => {
  /** A saved assembly whose second part has a transform that is not rigid. */
  function malformedText(): string {
    const doc = parseAssembly(originalText, 'original');
    return serializeAssembly({ ...doc, parts: (doc.parts ?? []).map((p, i) => (i === 1 ? { ...p, transform: [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1] } : p)) });
  }

  it('a malformed assembly fails to open naming the line and field, and nothing writes to its path unasked', async () => {
    const folder = path.join(work, 'malformed');
    mkdirSync(folder);
    const file = path.join(folder, 'broken.assembly.json');
    const text = malformedText();
    writeFileSync(file, text);
    const e = await refusal(h.call('doc.open', { path: file }));
    expect(e.code).toBe('invalid-assembly');
    expect(e.message).toMatch(/broken\.assembly\.json:\d+: parts\[1\]\.transform: /);
    const line = Number(/broken\.assembly\.json:(\d+):/.exec(e.message)![1]);
    expect(text.split('\n')[line - 1]).toMatch(/"transform"/);

    // Another document saved to that path: refused, the file untouched; with overwrite: replaced.
    const other = (await h.call('doc.open', { path: original })) as DocumentInfo;
    await h.call('doc.update', { docId: other.id, transforms: { [partId]: translation(7, 0, 0) } });
    const refused = await refusal(h.call('doc.save', { docId: other.id, path: file }));
    expect(refused.code).toBe('would-overwrite');
    expect(refused.path).toBe(file);
    expect(refused.message).toContain(file);
    expect(refused.message).toMatch(/could not be opened/);
    expect(h.logs.some((l) => l.includes('doc.save refused') && l.includes(file))).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(text);
    // Nor does a report go there.
    await h.call('check.run', { docId: other.id }).then(({ jobId }) => h.job(jobId));
    const report = await refusal(h.call('report.export', { docId: other.id, format: 'json', path: file }));
    expect(report.code).toBe('would-overwrite');
    expect(readFileSync(file, 'utf8')).toBe(text);
    // Asked and confirmed.
    expect(await h.call('doc.save', { docId: other.id, path: file, overwrite: true })).toEqual({ path: file });
    expect(parseAssembly(readFileSync(file, 'utf8'), file).parts?.find((p) => p.id === partId)?.transform).toEqual(translation(7, 0, 0));
    await h.call('doc.close', { docId: other.id });
  });

  it('refuses to replace a file that is not an assembly, or an assembly that does not open; allows a valid one', async () => {
    const folder = path.join(work, 'others');
    mkdirSync(folder);
    const notes = path.join(folder, 'notes.assembly.json');
    writeFileSync(notes, 'meeting notes, not an assembly\n');
    const empty = path.join(folder, 'empty.assembly.json');
    writeFileSync(empty, '');
    const missingSource = path.join(folder, 'missing.assembly.json');
    const missingText = JSON.stringify({ format: 'interfere-assembly', version: 1, name: 'missing', units: 'mm', sources: [{ id: 's', path: 'gone.stl' }] });
    writeFileSync(missingSource, missingText);
    const valid = path.join(folder, 'valid.assembly.json');
    copyFileSync(path.join(work, 'base', 'gear.assembly.json'), valid);

    const doc = (await h.call('doc.open', { path: path.join(STL, 'cube.ascii.stl') })) as DocumentInfo;
    for (const [file, why] of [[notes, /not a valid saved assembly/], [empty, /not a valid saved assembly/]] as const) {
      const before = readFileSync(file);
      const e = await refusal(h.call('doc.save', { docId: doc.id, path: file }));
      expect(e.code, file).toBe('would-overwrite');
      expect(e.message, file).toMatch(why);
      expect(readFileSync(file).equals(before), file).toBe(true);
    }
    const opened = await refusal(h.call('doc.open', { path: missingSource }));
    expect(opened.message).toMatch(/gone\.stl/);
    const e = await refusal(h.call('doc.save', { docId: doc.id, path: missingSource }));
    expect(e).toMatchObject({ code: 'would-overwrite', path: missingSource });
    expect(readFileSync(missingSource, 'utf8')).toBe(missingText);
    // Save As over a valid assembly is an ordinary save.
    expect(await h.call('doc.save', { docId: doc.id, path: valid })).toEqual({ path: valid });
    expect(parseAssembly(readFileSync(valid, 'utf8'), valid).parts).toHaveLength(1);
    // A report is never written over a saved assembly.
    await h.call('check.run', { docId: doc.id }).then(({ jobId }) => h.job(jobId));
    expect((await refusal(h.call('report.export', { docId: doc.id, format: 'json', path: valid }))).code).toBe('would-overwrite');
    await h.call('doc.close', { docId: doc.id });
  });

  it("refuses to save over the document's own file when it changed on disk since it was opened or saved", async () => {
    const folder = path.join(work, 'changed');
    mkdirSync(folder);
    const file = path.join(folder, 'gear.assembly.json');
    copyFileSync(path.join(work, 'base', 'gear.assembly.json'), file);
    const doc = (await h.call('doc.open', { path: file })) as DocumentInfo;
    await h.call('doc.update', { docId: doc.id, transforms: { [partId]: translation(1, 0, 0) } });
    // Touched (same content, new time): nothing changed, the save goes ahead.
    const later = new Date(Date.now() + 60_000);
    utimesSync(file, later, later);
    expect(await h.call('doc.save', { docId: doc.id })).toEqual({ path: file });
    // Changed by someone else (another program, another window): refused.
    await h.call('doc.update', { docId: doc.id, transforms: { [partId]: translation(2, 0, 0) } });
    const theirs = readFileSync(file, 'utf8').replace('"units": "mm"', '"units": "mm", "note": "edited elsewhere"');
    writeFileSync(file, theirs);
    const e = await refusal(h.call('doc.save', { docId: doc.id }));
    expect(e).toMatchObject({ code: 'would-overwrite', path: file });
    expect(e.message).toMatch(/changed on disk since it was opened or last saved/);
    expect(readFileSync(file, 'utf8')).toBe(theirs);
    expect(h.service.dirtyDocuments().map((d) => d.id)).toContain(doc.id);
    // Confirmed: saved, and later saves compare with what was written.
    expect(await h.call('doc.save', { docId: doc.id, overwrite: true })).toEqual({ path: file });
    expect(parseAssembly(readFileSync(file, 'utf8'), file).parts?.find((p) => p.id === partId)?.transform).toEqual(translation(2, 0, 0));
    await h.call('doc.update', { docId: doc.id, transforms: { [partId]: translation(3, 0, 0) } });
    expect(await h.call('doc.save', { docId: doc.id })).toEqual({ path: file });
    expect(statSync(file).size).toBeGreaterThan(0);
    await h.call('doc.close', { docId: doc.id });
  });
});
