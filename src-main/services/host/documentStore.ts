/**
 * The document store of the host service: the open documents (./document.ts) and every change to
 * them — open, new, import, recover, update, save and close — with the file access policy
 * (../access.ts) and the overwrite checks of saving: nothing is overwritten unasked. Saving
 * refuses ('would-overwrite') to replace a file that is not a valid saved assembly, that failed
 * to open, or — the document's own file — that changed on disk since it was opened or saved,
 * unless the request says `overwrite`.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { HostRequestError, type DocumentInfo, type RequestOf, type ResultStatus } from '../../contract/host.js';
import { pairKey, splitPairKey } from '../../../src-core/check/status.js';
import { ASSEMBLY_EXTENSION, assignPartIds, parseAssembly, serializeAssembly, slugify, transformProblem } from '../../../src-core/assembly/format.js';
import {
  ASSEMBLY_FORMAT, ASSEMBLY_VERSION, DEFAULT_SETTINGS, type AssemblyDoc, type SourceDef,
} from '../../../src-core/assembly/model.js';
import { bodyPath, colorToHex, resolveAssembly, type ResolvedAssembly } from '../../../src-core/assembly/resolve.js';
import { bodyKey } from '../../../src-core/assembly/bodyKey.js';
import { decodeText } from '../../../src-core/io/types.js';
import { canonicalPath } from '../access.js';
import { bodySourcesOf, buildBodies, meshesOf, type BodySource } from '../bodies.js';
import type { ReportInput } from '../../../src-core/report/model.js';
import { inputOf, isAssemblyFile, openAny, readModelFile, saveAssemblyFile, sourceLoader } from '../documents.js';
import { FileError, readFileChecked, removeStaleTempFiles, type FileRead } from '../files.js';
import type { FileFingerprint, RecoveryRecord } from '../recovery.js';
import type { Autosave } from './autosave.js';
import { allowed, requireDialogs, type HostContext } from './context.js';
import {
  assemblyDocOf, bodyOf, docName, documentInfo, IDENTITY, newAutosaveState, partOf, readReview, readSavedResultIds, relativeSourcePath, stemOf,
  type BodyState, type DocState, type PartState,
} from './document.js';
import { errorText, failure, toHostError } from './errors.js';
import type { Job, Progress } from './jobs.js';

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The fingerprint of a file whose content is `bytes` (its size and time from the file system). */
async function fingerprintOf(filePath: string, bytes: Uint8Array): Promise<FileFingerprint> {
  const st = await stat(filePath).catch(() => null);
  return { size: bytes.length, mtimeMs: st?.mtimeMs ?? 0, sha256: sha256Hex(bytes) };
}

interface Origin {
  readonly kind: DocState['kind'];
  readonly path: string | null;
  readonly base: string | null;
  readonly absoluteSources: readonly string[];
  readonly fingerprint: FileFingerprint | null;
  readonly dirty: boolean;
  /** The files read to open it (a report's `inputs`). */
  readonly inputs?: readonly ReportInput[];
}

export class DocumentStore {
  private readonly docs = new Map<string, DocState>();
  /** Files (canonical) that failed to open, with why: nothing is written over them unasked. */
  private readonly unopenable = new Map<string, string>();

  constructor(private readonly ctx: HostContext, private readonly autosave: Autosave) {}

  /** An open document, or 'not-found'. */
  get(docId: string): DocState {
    const d = this.docs.get(docId);
    if (!d) throw failure('not-found', `no open document '${docId}'`);
    return d;
  }

  find(docId: string): DocState | undefined {
    return this.docs.get(docId);
  }

  all(): DocState[] {
    return [...this.docs.values()];
  }

  /** Forgets every document (the service is disposed). */
  clear(): void {
    this.docs.clear();
  }

  /** A change to a document: dirty, counted, autosaved soon. */
  changed(d: DocState): void {
    d.dirty = true;
    d.changes++;
    this.autosave.schedule(d);
  }

  /** Why nothing may be written over a file unasked (it failed to open), or undefined. */
  async unopenableReason(filePath: string): Promise<string | undefined> {
    return this.unopenable.get(await canonicalPath(filePath));
  }

  /** Records that a file failed to open (unless the failure says nothing about the file). */
  async noteUnopenable(filePath: string, e: unknown): Promise<void> {
    const error = toHostError(e, filePath);
    if (['not-found', 'access-denied', 'cancelled', 'disposed', 'compute-crashed', 'closed'].includes(error.code)) return;
    this.unopenable.set(await canonicalPath(filePath), error.message);
  }

  // ---- Bodies -------------------------------------------------------------------------------------

  /**
   * The bodies the items place (../bodies.ts), trees through the pool, with their own colours.
   * Throws PartError naming the file, part and body of a mesh that cannot be used.
   */
  private async buildBodies(items: readonly BodySource[], fileName: string, job: Job, progress: Progress): Promise<Map<string, BodyState>> {
    const bodies = await buildBodies(meshesOf(items, fileName), {
      buildTrees: this.ctx.buildTrees, signal: job.controller.signal, onProgress: (done, total) => progress('building trees', done, total),
    });
    const out = new Map<string, BodyState>();
    for (const [key, b] of bodies) out.set(key, { ...b, colorHex: b.body.color !== null ? colorToHex(b.body.color) : null, positions32: null });
    return out;
  }

  /** The state of a document whose sources have been read: bodies and trees built, parts placed. */
  private async fromResolved(assembly: ResolvedAssembly, origin: Origin, name: string, job: Job, progress: Progress): Promise<DocState> {
    const bodies = await this.buildBodies(bodySourcesOf(assembly), name, job, progress);
    const parts: PartState[] = assembly.parts.map((p, i) => ({
      id: p.id, name: p.name, path: [...p.path], sourceId: p.sourceId, bodyIndex: p.bodyIndex, bodyKey: bodyKey(p.sourceId, p.bodyIndex),
      transform: Float64Array.from(p.transform), color: p.color, visible: p.visible,
      extra: assembly.doc.parts?.[i]?.extra,
    }));
    const warnings = [...assembly.warnings];
    const id = this.ctx.jobs.newId('doc');
    const d: DocState = {
      id,
      kind: origin.kind,
      path: origin.path,
      base: origin.base,
      doc: assembly.doc,
      absoluteSources: new Set(origin.absoluteSources),
      bodies,
      parts,
      partIndex: new Map(parts.map((p) => [p.id, p])),
      settings: {
        touchToleranceMm: assembly.doc.settings.touchToleranceMm,
        clearanceMm: assembly.doc.settings.clearanceMm,
        contactIsInterference: assembly.doc.settings.contactIsInterference,
      },
      ignore: assembly.doc.ignore.map((r) => (r.reason !== undefined ? { a: r.a, b: r.b, reason: r.reason } : { a: r.a, b: r.b })),
      review: new Map(),
      resultIds: new Map(),
      inputs: [...(origin.inputs ?? [])],
      dirty: origin.dirty,
      warnings,
      last: null,
      checkJob: null,
      closed: false,
      fingerprint: origin.fingerprint,
      pathFromRecovery: false,
      changes: origin.dirty ? 1 : 0,
      recoveryId: `${this.ctx.session}-${id}`,
      autosave: newAutosaveState(),
    };
    d.review = readReview(d, warnings);
    d.resultIds = readSavedResultIds(d, warnings);
    return d;
  }

  // ---- Open, new, recover -----------------------------------------------------------------------

  /** Opens a file as a new document (the caller has checked access). */
  async open(filePath: string): Promise<DocState> {
    const absolute = path.resolve(filePath);
    const name = path.basename(absolute);
    const job = this.ctx.jobs.start('open');
    const progress = this.ctx.jobs.progress(job);
    try {
      progress(`reading ${name}`, 0, 1);
      const opened = await openAny(absolute, {
        importer: this.ctx.importer,
        signal: job.controller.signal,
        onProgress: (done, total) => progress(`reading ${name}`, done, total),
      });
      const fingerprint = opened.kind === 'assembly' ? await fingerprintOf(absolute, opened.bytes) : null;
      const d = await this.fromResolved(opened.assembly, {
        kind: opened.kind, path: absolute, base: absolute, absoluteSources: [], fingerprint, dirty: false, inputs: opened.inputs,
      }, name, job, progress);
      if (opened.kind === 'assembly') {
        // The user opened this assembly: the files it references may be opened too.
        for (const s of opened.assembly.doc.sources) this.ctx.policy.grant(path.resolve(path.dirname(absolute), s.path), 'read');
      }
      this.docs.set(d.id, d);
      return d;
    } catch (e) {
      throw new HostRequestError(toHostError(e, absolute));
    } finally {
      this.ctx.jobs.finish(job);
    }
  }

  /** `doc.open` of a file the request may read: opened, noted in the recent files; a failure is remembered. */
  async openRequested(file: string): Promise<DocState> {
    let d: DocState;
    try {
      d = await this.open(file);
    } catch (e) {
      await this.noteUnopenable(file, e);
      throw e;
    }
    this.unopenable.delete(await canonicalPath(file));
    await this.ctx.recent.add(path.resolve(file));
    return d;
  }

  /** `doc.new`: an empty, unsaved document. */
  create(): DocState {
    const doc: AssemblyDoc = {
      format: ASSEMBLY_FORMAT, version: ASSEMBLY_VERSION, name: '', units: 'mm', sources: [], parts: [],
      settings: DEFAULT_SETTINGS, ignore: [], extra: {},
    };
    const id = this.ctx.jobs.newId('doc');
    const d: DocState = {
      id, kind: 'new', path: null, base: null, doc, absoluteSources: new Set(), bodies: new Map(),
      parts: [], partIndex: new Map(), settings: { touchToleranceMm: null, clearanceMm: 0, contactIsInterference: false },
      ignore: [], review: new Map(), resultIds: new Map(), inputs: [], dirty: false, warnings: [], last: null, checkJob: null, closed: false,
      fingerprint: null, pathFromRecovery: false, changes: 0, recoveryId: `${this.ctx.session}-${id}`, autosave: newAutosaveState(),
    };
    this.docs.set(d.id, d);
    return d;
  }

  /** Opens a recovery record as a new, dirty document (the record is left in place). */
  async recover(record: RecoveryRecord): Promise<DocState> {
    const label = record.originalPath ?? record.name;
    const job = this.ctx.jobs.start('open');
    const progress = this.ctx.jobs.progress(job);
    try {
      progress(`recovering ${record.name}`, 0, 1);
      // Relative source paths start from the document's file; a document without one has only
      // absolute sources.
      const folder = path.dirname(record.base ?? path.join(this.autosave.dir, 'x'));
      const reads: [FileRead, string][] = [];
      const assembly = await resolveAssembly(
        record.assembly,
        sourceLoader(folder, this.ctx.importer, job.controller.signal, (read, p) => reads.push([read, p])),
        this.ctx.importer,
        {
          fileName: label,
          signal: job.controller.signal,
          onProgress: (done, total) => progress(`recovering ${record.name}`, done, total),
        },
      );
      const d = await this.fromResolved(assembly, {
        kind: record.kind, path: record.originalPath, base: record.base, absoluteSources: record.absoluteSources,
        fingerprint: record.fingerprint, dirty: true, inputs: reads.map(([read, p]) => inputOf(read, p, record.assembly)),
      }, path.basename(label), job, progress);
      if (record.originalPath !== null) this.ctx.policy.grant(record.originalPath, 'read');
      for (const s of assembly.doc.sources) this.ctx.policy.grant(path.resolve(folder, s.path), 'read');
      d.pathFromRecovery = true;
      this.docs.set(d.id, d);
      return d;
    } catch (e) {
      throw new HostRequestError(toHostError(e, label));
    } finally {
      this.ctx.jobs.finish(job);
    }
  }

  // ---- Import, update ----------------------------------------------------------------------------

  /** Adds the bodies of a CAD/STL file to a document as parts at identity, the file as a new source. */
  async importInto(d: DocState, file: string): Promise<DocumentInfo> {
    const name = path.basename(file);
    const job = this.ctx.jobs.start('import');
    const progress = this.ctx.jobs.progress(job);
    try {
      progress(`reading ${name}`, 0, 1);
      let read: FileRead | null = null;
      const bytes = await readModelFile(file, this.ctx.importer, file, job.controller.signal, (r) => { read = r; });
      if (isAssemblyFile(file, bytes)) throw failure('not-a-model', `${file}: this is a saved assembly; open it instead of importing it`, file);
      const imported = await this.ctx.importer(bytes, file, { signal: job.controller.signal });
      if (imported.bodies.length === 0) throw failure('import-failed', `${file}: the file holds no bodies`, file);
      const taken = new Set(d.doc.sources.map((s) => s.id));
      const stem = slugify(stemOf(file)) || 'model';
      let sourceId = stem;
      for (let k = 2; taken.has(sourceId); k++) sourceId = `${stem}-${k}`;
      const ids = assignPartIds(imported.bodies.map((b) => b.name), null, new Set(d.partIndex.keys()));
      const items: BodySource[] = imported.bodies.map((body, i) => ({ partId: ids[i], sourceId, bodyIndex: i, body }));
      const bodies = await this.buildBodies(items, name, job, progress);
      if (d.closed) throw failure('closed', `${docName(d)} was closed during the import of ${name}`, file);

      const source: SourceDef = {
        id: sourceId, path: d.base !== null ? relativeSourcePath(path.dirname(d.base), file) : file, bodyNames: imported.bodies.map((b) => b.name),
      };
      if (d.base === null) d.absoluteSources.add(sourceId);
      d.doc = { ...d.doc, sources: [...d.doc.sources, source], parts: d.doc.parts ?? [] };
      for (const [key, b] of bodies) d.bodies.set(key, b);
      for (const it of items) {
        const key = bodyKey(sourceId, it.bodyIndex);
        const b = bodies.get(key) as BodyState;
        const p: PartState = {
          id: it.partId, name: it.body.name !== '' ? it.body.name : it.partId, path: bodyPath(it.body), sourceId, bodyIndex: it.bodyIndex, bodyKey: key,
          transform: Float64Array.from(IDENTITY), color: b.colorHex, visible: true, extra: undefined,
        };
        d.parts.push(p);
        d.partIndex.set(p.id, p);
      }
      for (const w of imported.warnings) d.warnings.push(`source '${sourceId}' (${name}): ${w}`);
      const fileRead = read as FileRead | null;
      if (fileRead !== null) d.inputs.push({ ...inputOf(fileRead, source.path, d.doc), sourceId });
      this.changed(d);
      this.ctx.policy.grant(file, 'read');
      const info = documentInfo(d);
      this.ctx.events.emit('doc.changed', info);
      return info;
    } catch (e) {
      throw new HostRequestError(toHostError(e, file));
    } finally {
      this.ctx.jobs.finish(job);
    }
  }

  /** `doc.geometry`: display geometry of bodies (every body when `bodyKeys` is absent), each once. */
  geometry(d: DocState, bodyKeys: readonly string[] | undefined) {
    const keys = bodyKeys ?? [...d.bodies.keys()];
    const seen = new Set<string>();
    const bodies = [];
    for (const key of keys) {
      if (seen.has(key)) continue;
      seen.add(key);
      const b = d.bodies.get(key);
      if (!b) throw failure('not-found', `${docName(d)}: there is no body '${key.slice(0, 200)}'`, d.path);
      b.positions32 ??= new Float32Array(b.body.positions);
      bodies.push({
        bodyKey: key, positions: b.positions32 as Float32Array<ArrayBuffer>, indices: b.body.indices as Uint32Array<ArrayBuffer>,
        faceRanges: (b.body.faceRanges ?? new Uint32Array(0)) as Uint32Array<ArrayBuffer>,
      });
    }
    return { bodies };
  }

  /** `doc.update`: validated whole first, then applied whole. */
  update(d: DocState, req: RequestOf<'doc.update'>): DocumentInfo {
    const name = docName(d);
    const transforms = new Map<PartState, Float64Array>();
    for (const [id, m] of Object.entries(req.transforms ?? {})) {
      const p = partOf(d, id);
      const problem = transformProblem(m);
      if (problem !== null) throw failure('invalid-transform', `${name}: part '${id}': ${problem.problem}`, d.path);
      transforms.set(p, Float64Array.from(m));
    }
    for (const id of Object.keys(req.visible ?? {})) partOf(d, id);
    for (const id of Object.keys(req.colors ?? {})) partOf(d, id);
    for (const id of Object.keys(req.names ?? {})) partOf(d, id);
    for (const [i, r] of (req.ignore ?? []).entries()) {
      partOf(d, r.a);
      partOf(d, r.b);
      if (r.a === r.b) throw failure('invalid-request', `${name}: ignore rule ${i} pairs part '${r.a}' with itself`, d.path);
    }
    const statuses = new Map<string, ResultStatus>();
    for (const [key, status] of Object.entries(req.statuses ?? {})) {
      const ids = splitPairKey(key, d.partIndex);
      if (ids === null) throw failure('unknown-part', `${name}: the status key '${key.slice(0, 200)}' does not name two parts as 'a|b'`, d.path);
      statuses.set(pairKey(ids[0], ids[1]), status);
    }

    for (const [p, m] of transforms) p.transform = m;
    for (const [id, v] of Object.entries(req.visible ?? {})) partOf(d, id).visible = v;
    for (const [id, c] of Object.entries(req.colors ?? {})) {
      const p = partOf(d, id);
      p.color = c ?? bodyOf(d, p).colorHex;
    }
    for (const [id, n] of Object.entries(req.names ?? {})) partOf(d, id).name = n === '' ? id : n;
    if (req.settings) {
      const s = req.settings;
      d.settings = {
        touchToleranceMm: s.touchToleranceMm !== undefined ? s.touchToleranceMm : d.settings.touchToleranceMm,
        clearanceMm: s.clearanceMm ?? d.settings.clearanceMm,
        contactIsInterference: s.contactIsInterference ?? d.settings.contactIsInterference,
      };
    }
    if (req.ignore) d.ignore = req.ignore.map((r) => (r.reason !== undefined ? { a: r.a, b: r.b, reason: r.reason } : { a: r.a, b: r.b }));
    for (const [key, status] of statuses) d.review.set(key, { status, kind: d.review.get(key)?.kind ?? null });
    const changed = transforms.size > 0 || req.visible || req.colors || req.names || req.settings || req.ignore || statuses.size > 0;
    if (changed) this.changed(d);
    const info = documentInfo(d);
    if (changed) this.ctx.events.emit('doc.changed', info);
    return info;
  }

  // ---- Save, close --------------------------------------------------------------------------------

  /**
   * Why writing `target` would replace something unasked (see the file comment), or null. `own`:
   * the target is the document's own file.
   */
  private async overwriteProblem(d: DocState, target: string, canonical: string, own: boolean): Promise<string | null> {
    const failed = this.unopenable.get(canonical);
    if (failed !== undefined) return `could not be opened (${failed})`;
    let bytes: Uint8Array;
    try {
      bytes = await readFileChecked(target);
    } catch (e) {
      if (e instanceof FileError && (e.code === 'ENOENT' || e.code === 'EISDIR')) return null; // nothing to lose; the write says what is wrong
      return `cannot be read to check what it holds (${e instanceof FileError ? e.problem : errorText(e)})`;
    }
    if (own && d.fingerprint !== null) {
      if (bytes.length !== d.fingerprint.size || sha256Hex(bytes) !== d.fingerprint.sha256) {
        return 'was changed on disk since it was opened or last saved here';
      }
      return null;
    }
    try {
      parseAssembly(decodeText(bytes), target);
    } catch (e) {
      return `is not a valid saved assembly (${errorText(e)})`;
    }
    return null;
  }

  /** `doc.save`: to the document's own file, the requested one or one the user picks; null when they cancel. */
  async save(d: DocState, { saveAs, path: requested, overwrite }: RequestOf<'doc.save'>): Promise<{ path: string } | null> {
    const { policy } = this.ctx;
    let target: string;
    let chosen = false;
    if (requested !== undefined) {
      target = requested;
    } else if (d.kind === 'assembly' && !saveAs && d.path !== null &&
      // A recovered document's file is saved over only where the policy allows writing; else
      // the save dialog asks (a host without dialogs refuses below).
      !(d.pathFromRecovery && this.ctx.options.dialogs !== null && !(await policy.check(d.path, 'write')).ok)) {
      target = d.path;
    } else {
      const suggestion = d.path !== null ? path.join(path.dirname(d.path), `${stemOf(d.path)}${ASSEMBLY_EXTENSION}`) : `${slugify(d.doc.name) || 'assembly'}${ASSEMBLY_EXTENSION}`;
      const picked = await requireDialogs(this.ctx, 'assembly file to save').saveFile({
        title: 'Save Assembly', defaultPath: suggestion, filters: [{ name: 'Interfere assembly', extensions: ['assembly.json'] }],
      });
      if (picked === null) return null;
      target = picked;
      chosen = true;
    }
    if (!target.toLowerCase().endsWith(ASSEMBLY_EXTENSION)) target += ASSEMBLY_EXTENSION;
    target = path.resolve(target);
    const canonical = await canonicalPath(target);
    const own = d.path !== null && d.kind === 'assembly' && canonical === (await canonicalPath(d.path));
    if (chosen) policy.grant(target, 'write');
    else if (!own || d.pathFromRecovery) await allowed(this.ctx, target, 'write');
    if (overwrite !== true) {
      const problem = await this.overwriteProblem(d, target, canonical, own);
      if (problem !== null) {
        throw failure('would-overwrite', `${target}: not saved: this file ${problem}. Nothing was written; replacing it needs your confirmation.`, target);
      }
    }
    const changesBefore = d.changes;
    const saved = await saveAssemblyFile(target, assemblyDocOf(d, target), {
      fromPath: d.base ?? target, ...(this.ctx.atomicFs !== undefined ? { fs: this.ctx.atomicFs } : {}),
    });
    d.doc = saved;
    d.path = target;
    d.pathFromRecovery = false;
    d.base = target;
    d.kind = 'assembly';
    d.absoluteSources.clear();
    d.fingerprint = await fingerprintOf(target, Buffer.from(serializeAssembly(saved), 'utf8'));
    this.unopenable.delete(canonical);
    // A change that arrived while the file was written is not in it: still unsaved.
    if (d.changes === changesBefore) {
      d.dirty = false;
      await this.autosave.clear(d);
    } else {
      this.autosave.schedule(d);
    }
    policy.grant(target, 'write');
    for (const s of saved.sources) policy.grant(path.resolve(path.dirname(target), s.path), 'read');
    // Temporary files of saves that a crash interrupted (this process's or earlier ones).
    await removeStaleTempFiles(target).catch(() => []);
    await this.ctx.recent.add(target);
    this.ctx.events.emit('doc.changed', documentInfo(d));
    return { path: target };
  }

  /** `doc.close`: cancels its check, removes its recovery file; false when there is no such document. */
  async close(docId: string): Promise<boolean> {
    const d = this.docs.get(docId);
    if (!d) return false;
    d.closed = true;
    d.checkJob?.controller.abort();
    this.docs.delete(docId);
    await this.autosave.clear(d);
    return true;
  }
}
