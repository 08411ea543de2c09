/**
 * The host service: every request of the host API (../contract/host.ts) on top of the plain-Node
 * services — documents, the tree-building pool, checks, reports, batch checks — whichever shell
 * received it (the Electron main process over IPC, or the loopback bridge over a WebSocket).
 *
 * - Every request is validated here (`parseRequest`); anything that goes wrong becomes a
 *   HostRequestFailure carrying a HostError whose message names the file and the problem.
 * - Open documents live here: their parts, one mesh and tree per distinct body (`source#body`),
 *   current placements, visibility, colours, names, settings, ignore rules, result statuses, and
 *   the last check. The renderer refers to them by id; geometry crosses once (`doc.geometry`).
 * - Checks run on the document's current state and report through job events; one check per
 *   document at a time (a new one cancels the running one). Trees are built at open and import
 *   through one TreePool; a crashed tree-building child is reported as a `host.error` event, and a
 *   job that fails because of it leaves the documents as they were.
 * - File access follows the AccessPolicy (./access.ts).
 * - Requests are refused before validation when they are larger than MAX_REQUEST_BYTES, nested
 *   deeper than MAX_REQUEST_DEPTH, or carry fields their channel does not have; after validation
 *   when an object inside them (settings, an ignore rule, a scope) carries a field its schema
 *   does not have. Every refusal is logged with its reason.
 * - Nothing is overwritten unasked: saving refuses ('would-overwrite') to replace a file that is
 *   not a valid saved assembly, that failed to open, or — the document's own file — that changed
 *   on disk since it was opened or saved, unless the request says `overwrite`. Reports are never
 *   written over a saved assembly or a file that failed to open.
 * - Unsaved work is autosaved to recovery files (./recovery.ts): a document's file is written a
 *   moment after it becomes dirty and then at most every `intervalMs` while it changes, removed
 *   when it is saved or closed. `doc.recoverable` lists what an earlier run left behind.
 *
 * The check itself (runCheck) runs in this process and yields to the event loop only where it
 * awaits; a cancel takes effect at the next pair it checks after the cancel request is read.
 */
import { createHash, randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { z } from 'zod';
import {
  pairKey, parseRequest, REQUESTS, type CheckOutcome, type CheckScope, type DocumentInfo, type EventChannel, type EventOf,
  type HostError, type IgnoreRule as IgnoreRuleInfo, type PairResultInfo, type PartInfo,
  type RequestChannel, type ResponseOf, type ResultStatus, type Settings,
} from '../contract/host.js';
import { HostRequestFailure, type HostDialogs, type HostServiceApi, type HostServiceOptions } from './hostTypes.js';
import { AccessPolicy, canonicalPath, type AccessMode } from './access.js';
import { RecentFiles } from './recent.js';
import { TreePool, TreeBuildError, type TreePoolChildStatus, type TreePoolOptions } from './treePool.js';
import { TreeCache } from './treeCache.js';
import { openAny, isAssemblyFile, readModelFile, saveAssemblyFile, sourceLoader } from './documents.js';
import { FileError, processAlive, readFileChecked, removeStaleTempFiles, writeFileAtomic, type AtomicFs } from './files.js';
import { RecoveryError, RecoveryStore, recoverableOf, type FileFingerprint, type RecoveryRecord } from './recovery.js';
import { checkFile, PartError, type TreeBuilder } from './checkService.js';
import { createImporter } from './importers.js';
import { loadManifold } from './manifoldNode.js';
import { APP_NAME, APP_VERSION } from './appInfo.js';
import type { ImportFunction } from '../../src-core/assembly/resolve.js';
import { colorToHex } from '../../src-core/assembly/resolve.js';
import { ASSEMBLY_EXTENSION, assignPartIds, parseAssembly, serializeAssembly, slugify, transformProblem } from '../../src-core/assembly/format.js';
import { resolveAssembly, type ResolvedAssembly } from '../../src-core/assembly/resolve.js';
import {
  ASSEMBLY_FORMAT, ASSEMBLY_VERSION, AssemblyError, DEFAULT_SETTINGS,
  type AssemblyDoc, type IgnoreRule as DocIgnoreRule, type PartDef, type SourceDef,
} from '../../src-core/assembly/model.js';
import { decodeText, ImportError, type ImportedBody } from '../../src-core/io/types.js';
import { createMesh, MeshError, type TriangleMesh } from '../../src-core/geometry/mesh.js';
import { edgeReport } from '../../src-core/geometry/meshProps.js';
import type { ObbTree } from '../../src-core/obbtree/layout.js';
import { runCheck, CheckAbortedError, CheckLimitError } from '../../src-core/check/check.js';
import { refineCheck } from '../../src-core/check/refine.js';
import { createHostRefiner, type HostRefiner, type RefinerSource } from './refiner.js';
import type { CheckPart, CheckProgress, CheckResult, CheckSettings } from '../../src-core/check/types.js';
import { collidePlaced } from '../../src-core/collide/collide.js';
import { minDistance } from '../../src-core/collide/proximity.js';
import { traceCollide } from '../../src-core/collide/trace.js';
import { parseRigid, relative } from '../../src-core/geometry/rigid.js';
import { OverlapEngine } from '../../src-core/check/volume.js';
import {
  buildReport, exitCode, reportToCsv, reportToHtml, reportToJson, ReportError,
  type InterferenceReport, type ReportPartInput,
} from '../../src-core/report/index.js';

// ------------------------------------------------------------------------------------------------
// Types

type RequestOutput<C extends RequestChannel> = z.output<(typeof REQUESTS)[C]['request']>;
type Handlers = { [C in RequestChannel]: (request: RequestOutput<C>) => Promise<ResponseOf<C>> };
type ReportFormat = 'html' | 'csv' | 'json';
type JobKind = 'check' | 'batch' | 'open' | 'import';

/** Settings the shells do not need; tests use them. */
export interface HostServiceTuning {
  /** Options of the service's tree pool (size, in-process threshold, worker entry). */
  readonly treePool?: Omit<TreePoolOptions, 'fork' | 'log' | 'cache'>;
  /** Keep built trees in `<userDataDir>/tree-cache` so reopening is fast (default true). */
  readonly treeCache?: boolean;
  /** Least milliseconds between two progress events of a job at the same stage (default 100). */
  readonly progressIntervalMs?: number;
  /**
   * Autosave of unsaved work to recovery files: the first write `debounceMs` after a document
   * becomes dirty (default 2 s), then at most every `intervalMs` while it changes (default 30 s);
   * false: none.
   */
  readonly autosave?: false | { readonly debounceMs?: number; readonly intervalMs?: number };
  /** The file operations of saving documents (default node:fs/promises; tests pause or fail steps). */
  readonly atomicFs?: AtomicFs;
}

/** Largest request accepted, estimated as its JSON length. */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024;
/** Deepest nesting of objects and arrays accepted in a request. */
export const MAX_REQUEST_DEPTH = 32;
const DEFAULT_AUTOSAVE = { debounceMs: 2000, intervalMs: 30_000 };

interface BodyState {
  readonly key: string;
  readonly body: ImportedBody;
  readonly mesh: TriangleMesh;
  readonly tree: ObbTree;
  readonly closed: boolean;
  /** The body's own colour, `#rrggbb`, or null. */
  readonly colorHex: string | null;
  /** Display positions, made on first request. */
  positions32: Float32Array | null;
}

interface PartState {
  readonly id: string;
  name: string;
  readonly sourceId: string;
  readonly bodyIndex: number;
  readonly bodyKey: string;
  /** Row-major 4×4, body → world. */
  transform: Float64Array;
  color: string | null;
  visible: boolean;
  /** Fields of the saved part this version does not interpret, written back on saving. */
  readonly extra: PartDef['extra'];
}

interface LastCheck {
  readonly outcome: CheckOutcome;
  readonly result: CheckResult;
  /** The parts as they were checked, for the report. */
  readonly reportParts: ReportPartInput[];
}

interface DocState {
  readonly id: string;
  kind: 'assembly' | 'model' | 'new';
  /** The file opened or last saved (absolute); null for a new document. */
  path: string | null;
  /** The file relative source paths are relative to; null for a new, unsaved document. */
  base: string | null;
  /** Name, sources, unknown fields: what saving writes besides the parts' current state. */
  doc: AssemblyDoc;
  /** Sources given by absolute path (imported into an unsaved document); made relative on saving. */
  readonly absoluteSources: Set<string>;
  readonly bodies: Map<string, BodyState>;
  readonly parts: PartState[];
  readonly partIndex: Map<string, PartState>;
  settings: Settings;
  ignore: IgnoreRuleInfo[];
  statuses: Map<string, ResultStatus>;
  dirty: boolean;
  readonly warnings: string[];
  last: LastCheck | null;
  checkJob: Job | null;
  closed: boolean;
  /** `path` as opened or last saved (saving over it checks it is unchanged); null if none. */
  fingerprint: FileFingerprint | null;
  /** Changes so far; a save leaves the document dirty when it changed while being written. */
  changes: number;
  readonly recoveryId: string;
  readonly autosave: AutosaveState;
  /** Refined bodies of the document's CAD sources, made by checks (created on first need). */
  refiner?: HostRefiner;
}

interface AutosaveState {
  timer: ReturnType<typeof setTimeout> | null;
  /** performance.now() of the last write, -Infinity when none since the document was last clean. */
  lastWrite: number;
  /** `changes` when last written. */
  written: number;
  /** Writes and removals of the recovery file, one after the other. */
  chain: Promise<void>;
}

interface Job {
  readonly id: string;
  readonly kind: JobKind;
  readonly controller: AbortController;
  done: Promise<void>;
}

const IDENTITY = Float64Array.from([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
const RESULT_KINDS_WITH_STATUS = new Set(['interference', 'clearance', 'contact', 'undecided']);
const STATUS_VALUES = new Set<string>(['new', 'active', 'resolved', 'ignored']);
const MODEL_FILTERS = [
  { name: 'Assemblies and CAD files', extensions: ['json', 'stp', 'step', 'igs', 'iges', 'brep', 'brp', 'stl'] },
  { name: 'All files', extensions: ['*'] },
];
const IMPORT_FILTERS = [
  { name: 'CAD and mesh files', extensions: ['stp', 'step', 'igs', 'iges', 'brep', 'brp', 'stl'] },
  { name: 'All files', extensions: ['*'] },
];

// ------------------------------------------------------------------------------------------------
// Helpers

function failure(code: string, message: string, filePath?: string | null): HostRequestFailure {
  return new HostRequestFailure({ code, message, ...(filePath != null ? { path: filePath } : {}) });
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A message that names the file: the error's own when it does, else prefixed with the file. */
function naming(filePath: string | null | undefined, message: string): string {
  if (!filePath) return message;
  return message.includes(path.basename(filePath)) ? message : `${filePath}: ${message}`;
}

/** Any error as a HostError whose message names the file concerned (`filePath` when the error does not). */
export function toHostError(e: unknown, filePath?: string | null): HostError {
  if (e instanceof HostRequestFailure) return e.error;
  if (e instanceof FileError) {
    return { code: e.code === 'ENOENT' ? 'not-found' : e.code === 'EACCES' || e.code === 'EPERM' ? 'permission-denied' : 'file-error', message: e.message, path: e.path };
  }
  if (e instanceof AssemblyError) return { code: 'invalid-assembly', message: e.message, path: e.fileName };
  if (e instanceof ImportError) {
    if (e.code === 'aborted') return { code: 'cancelled', message: naming(filePath ?? e.fileName, 'opening was cancelled'), path: e.fileName };
    return { code: 'import-failed', message: e.message, path: e.fileName };
  }
  if (e instanceof PartError) return { code: 'invalid-part', message: naming(filePath, e.message), path: filePath ?? null };
  if (e instanceof TreeBuildError) {
    if (e.code === 'crashed' || e.code === 'start-failed') {
      return {
        code: 'compute-crashed',
        message: naming(filePath, `${e.message}. Nothing was changed; the next attempt starts a fresh tree-building process.`),
        path: filePath ?? null,
      };
    }
    if (e.code === 'disposed') return { code: 'disposed', message: naming(filePath, 'the host is shutting down'), path: filePath ?? null };
    return { code: 'tree-build-failed', message: naming(filePath, e.message), path: filePath ?? null };
  }
  if (e instanceof CheckLimitError) return { code: 'too-many-pairs', message: naming(filePath, e.message), path: filePath ?? null };
  if (e instanceof ReportError) return { code: 'report-failed', message: naming(filePath, `the report cannot be made: ${e.message}`), path: filePath ?? null };
  if (e instanceof Error && e.name === 'AbortError') return { code: 'cancelled', message: naming(filePath, e.message), path: filePath ?? null };
  return { code: 'internal', message: naming(filePath, errorText(e)), path: filePath ?? null };
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The fingerprint of a file whose content is `bytes` (its size and time from the file system). */
async function fingerprintOf(filePath: string, bytes: Uint8Array): Promise<FileFingerprint> {
  const st = await stat(filePath).catch(() => null);
  return { size: bytes.length, mtimeMs: st?.mtimeMs ?? 0, sha256: sha256Hex(bytes) };
}

function newAutosaveState(): AutosaveState {
  return { timer: null, lastWrite: -Infinity, written: 0, chain: Promise.resolve() };
}

/**
 * Why a request cannot be taken at all (too large, too deeply nested), or null. Walks the payload
 * once and stops as soon as the estimate of its JSON length passes MAX_REQUEST_BYTES.
 */
export function requestSizeProblem(payload: unknown): string | null {
  let bytes = 0;
  const stack: { value: unknown; depth: number }[] = [{ value: payload, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof value === 'string') {
      bytes += value.length + 2;
    } else if (typeof value === 'object' && value !== null) {
      if (ArrayBuffer.isView(value)) {
        bytes += value.byteLength;
      } else {
        if (depth >= MAX_REQUEST_DEPTH) return `it is nested deeper than ${MAX_REQUEST_DEPTH} levels`;
        if (Array.isArray(value)) {
          bytes += 2 + value.length;
          if (bytes > MAX_REQUEST_BYTES) break;
          for (const v of value as unknown[]) stack.push({ value: v, depth: depth + 1 });
        } else {
          const keys = Object.keys(value);
          bytes += 2 + keys.length;
          if (bytes > MAX_REQUEST_BYTES) break;
          for (const k of keys) {
            bytes += k.length + 3;
            stack.push({ value: (value as Record<string, unknown>)[k], depth: depth + 1 });
          }
        }
      }
    } else {
      bytes += 8;
    }
    if (bytes > MAX_REQUEST_BYTES) break;
  }
  return bytes > MAX_REQUEST_BYTES ? `it is larger than ${MAX_REQUEST_BYTES / 1024 / 1024} MiB` : null;
}

/** Fields of a request object that its channel's schema does not have (the first few). */
function unknownFields(channel: RequestChannel, payload: unknown): string[] {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return [];
  const shape = (REQUESTS[channel].request as unknown as { shape: Record<string, unknown> }).shape;
  const out: string[] = [];
  for (const key of Object.keys(payload)) {
    if (!Object.prototype.hasOwnProperty.call(shape, key)) out.push(key);
    if (out.length >= 3) break;
  }
  return out;
}

/**
 * Fields inside a validated request that its schema does not have (zod drops them from the parsed
 * request): their paths, the first few. `parsed` is the request as validated.
 */
function droppedFields(payload: unknown, parsed: unknown, at = '', out: string[] = []): string[] {
  if (typeof payload !== 'object' || payload === null || typeof parsed !== 'object' || parsed === null) return out;
  if (ArrayBuffer.isView(payload)) return out;
  if (Array.isArray(payload)) {
    if (!Array.isArray(parsed)) return out;
    for (let i = 0; i < payload.length && out.length < 3; i++) droppedFields(payload[i], parsed[i], `${at}[${i}]`, out);
    return out;
  }
  for (const key of Object.keys(payload)) {
    const where = at === '' ? key : `${at}.${key}`;
    if (!Object.prototype.hasOwnProperty.call(parsed, key)) out.push(where);
    else droppedFields((payload as Record<string, unknown>)[key], (parsed as Record<string, unknown>)[key], where, out);
    if (out.length >= 3) break;
  }
  return out;
}

/** Names the fields for a message and the log: at most 100 characters each, control characters as '?'. */
function fieldList(fields: readonly string[]): string {
  // eslint-disable-next-line no-control-regex
  const shown = (k: string): string => k.slice(0, 100).replace(/[\u0000-\u001f\u007f]/g, '?');
  return `unknown field${fields.length > 1 ? 's' : ''} ${fields.map((k) => `'${shown(k)}'`).join(', ')}`;
}

function isIdentity(m: Float64Array): boolean {
  for (let i = 0; i < 16; i++) if (m[i] !== IDENTITY[i]) return false;
  return true;
}

/** The ids of a status key `a|b` (ids may themselves hold '|'): the split naming two parts. */
function splitPairKey(key: string, parts: ReadonlyMap<string, unknown>): [string, string] | null {
  for (let i = key.indexOf('|'); i >= 0; i = key.indexOf('|', i + 1)) {
    const a = key.slice(0, i), b = key.slice(i + 1);
    if (a !== b && parts.has(a) && parts.has(b)) return [a, b];
  }
  return null;
}

function inScope(scope: CheckScope, a: string, b: string): boolean {
  if (scope.kind === 'all') return true;
  if (scope.kind === 'selection') return scope.ids.includes(a) || scope.ids.includes(b);
  return (scope.a.includes(a) && scope.b.includes(b)) || (scope.a.includes(b) && scope.b.includes(a));
}

function stageOf(p: CheckProgress): string {
  return p.phase === 'broadphase' ? 'finding candidate pairs' : p.phase === 'pairs' ? 'checking pairs' : p.phase === 'refine' ? 'refining CAD fits' : 'computing volumes';
}

function renderReport(report: InterferenceReport, format: ReportFormat): string {
  if (format === 'json') return reportToJson(report);
  if (format === 'csv') return reportToCsv(report);
  return reportToHtml(report);
}

/** A file name without `.assembly.json` or its extension. */
function stemOf(filePath: string): string {
  const base = path.basename(filePath);
  if (base.toLowerCase().endsWith(ASSEMBLY_EXTENSION)) return base.slice(0, -ASSEMBLY_EXTENSION.length);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** Source path `target` as written in a document whose file is in `folder` ('/' separators). */
function relativeSourcePath(folder: string, target: string): string {
  const rel = path.relative(folder, target);
  return path.isAbsolute(rel) ? rel : rel.split(path.sep).join('/');
}

/** The parts of a document as the check sees them: shared meshes and trees, current placements (copied). */
export function checkPartsOf(doc: { readonly parts: readonly PartState[]; readonly bodies: ReadonlyMap<string, BodyState> }): CheckPart[] {
  return doc.parts.map((p) => {
    const b = doc.bodies.get(p.bodyKey) as BodyState;
    return { id: p.id, name: p.name, mesh: b.mesh, tree: b.tree, transform: Float64Array.from(p.transform), chordErrorMm: b.body.chordErrorMm ?? null, chordSide: b.body.chordSide ?? null };
  });
}

/** A small typed event emitter; a throwing listener is reported, never allowed to stop the others. */
class Emitter {
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  constructor(private readonly log: (m: string) => void) {}
  on(event: string, listener: (payload: unknown) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }
  emit(event: string, payload: unknown): void {
    for (const l of [...(this.listeners.get(event) ?? [])]) {
      try {
        l(payload);
      } catch (e) {
        this.log(`a listener of ${event} threw: ${errorText(e)}`);
      }
    }
  }
}

// ------------------------------------------------------------------------------------------------
// The service

export class HostService implements HostServiceApi {
  private readonly dialogs: HostDialogs | null;
  private readonly log: (message: string) => void;
  private readonly policy: AccessPolicy;
  private readonly recent: RecentFiles;
  private readonly pool: TreePool;
  private readonly importer: ImportFunction;
  private readonly emitter: Emitter;
  private readonly progressIntervalMs: number;
  private readonly docs = new Map<string, DocState>();
  private readonly jobs = new Map<string, Job>();
  private readonly handlers: Handlers;
  private readonly recentLoaded: Promise<void>;
  private readonly startup: Promise<void>;
  private startupDocId: string | null = null;
  private startupError: HostError | null = null;
  private nextId = 1;
  private disposed = false;
  private disposing: Promise<void> | null = null;
  /** This run of the service: names its recovery files apart from those of earlier runs. */
  private readonly session = randomBytes(6).toString('hex');
  private readonly recovery: RecoveryStore;
  private readonly autosaveTiming: { readonly debounceMs: number; readonly intervalMs: number } | null;
  private readonly atomicFs: AtomicFs | undefined;
  /** Recovery files being recovered now (a second request for one is refused). */
  private readonly recovering = new Set<string>();
  /**
   * Recovered documents whose file comes from their recovery record, until saved: the record's
   * path grants no writing — saving there needs the access policy's leave, as any other target.
   */
  private readonly pathFromRecovery = new WeakSet<DocState>();
  /** Files (canonical) that failed to open, with why: nothing is written over them unasked. */
  private readonly unopenable = new Map<string, string>();

  constructor(private readonly options: HostServiceOptions, tuning: HostServiceTuning = {}) {
    this.dialogs = options.dialogs;
    this.log = options.log ?? ((m) => console.warn(`[host] ${m}`));
    this.emitter = new Emitter(this.log);
    this.progressIntervalMs = tuning.progressIntervalMs ?? 100;
    this.recovery = new RecoveryStore(options.userDataDir, this.log);
    this.autosaveTiming = tuning.autosave === false ? null : { ...DEFAULT_AUTOSAVE, ...tuning.autosave };
    this.atomicFs = tuning.atomicFs;
    this.policy = new AccessPolicy(options.allowedFolders ?? []);
    this.recent = new RecentFiles(options.userDataDir, this.log);
    this.policy.setRecentSource(() => this.recent.list());
    this.pool = new TreePool({
      ...tuning.treePool,
      ...(options.fork ? { fork: options.fork } : {}),
      log: (m) => this.onPoolLog(m),
      ...(tuning.treeCache === false ? {} : { cache: new TreeCache({ dir: path.join(options.userDataDir, 'tree-cache'), log: this.log }) }),
    });
    this.importer = createImporter();
    this.handlers = this.createHandlers();
    this.recentLoaded = this.recent.load().then(() => undefined);
    this.startup = this.openStartup();
  }

  // ---- HostServiceApi ----------------------------------------------------------------------------

  async handle(channel: string, payload: unknown): Promise<unknown> {
    const refuse = (error: HostError): never => {
      this.log(`refused a request: ${error.message}`);
      throw new HostRequestFailure(error);
    };
    if (typeof channel !== 'string' || !Object.prototype.hasOwnProperty.call(REQUESTS, channel)) {
      refuse({ code: 'unknown-channel', message: `unknown request '${String(channel).slice(0, 100)}'` });
    }
    const tooBig = requestSizeProblem(payload);
    if (tooBig !== null) refuse({ code: 'invalid-request', message: `invalid ${channel} request: ${tooBig}` });
    const unknown = unknownFields(channel as RequestChannel, payload);
    if (unknown.length > 0) refuse({ code: 'invalid-request', message: `invalid ${channel} request: ${fieldList(unknown)}` });
    const parsed = parseRequest(channel, payload);
    if (!parsed.ok) return refuse(parsed.error);
    const dropped = droppedFields(payload, parsed.request);
    if (dropped.length > 0) refuse({ code: 'invalid-request', message: `invalid ${channel} request: ${fieldList(dropped)}` });
    if (this.disposed) throw failure('disposed', 'the host is shutting down');
    try {
      await this.recentLoaded;
      const handler = this.handlers[parsed.channel] as (request: unknown) => Promise<unknown>;
      return await handler(parsed.request);
    } catch (e) {
      const error = toHostError(e);
      if (error.code === 'internal') this.log(`${parsed.channel} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      else this.log(`${parsed.channel} refused: ${error.message}`);
      throw e instanceof HostRequestFailure ? e : new HostRequestFailure(error);
    }
  }

  on<E extends EventChannel>(event: E, listener: (payload: EventOf<E>) => void): () => void {
    return this.emitter.on(event, listener as (payload: unknown) => void);
  }

  allowPath(filePath: string): void {
    this.policy.grant(filePath, 'read');
  }

  dirtyDocuments(): { id: string; name: string }[] {
    return [...this.docs.values()].filter((d) => d.dirty).map((d) => ({ id: d.id, name: this.docName(d) }));
  }

  /**
   * Stops every job and child process. Documents with unsaved changes keep their recovery files
   * (brought up to date first): a shell that let the user discard them calls
   * discardUnsavedWork() before.
   */
  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      this.disposed = true;
      for (const job of this.jobs.values()) job.controller.abort();
      await Promise.allSettled([...this.jobs.values()].map((j) => j.done));
      await this.startup.catch(() => undefined);
      await this.pool.dispose();
      await Promise.allSettled([...this.docs.values()].map((d) => (d.dirty ? this.writeRecovery(d) : d.autosave.chain)));
      for (const d of this.docs.values()) {
        d.closed = true;
        if (d.autosave.timer !== null) clearTimeout(d.autosave.timer);
        d.autosave.timer = null;
      }
      this.docs.clear();
    })();
    return this.disposing;
  }

  /**
   * The user chose not to keep the unsaved changes of the open documents (quitting without
   * saving): their recovery files are removed and they count as clean from now on.
   */
  async discardUnsavedWork(): Promise<void> {
    await Promise.all([...this.docs.values()].map((d) => {
      d.dirty = false;
      return this.clearRecovery(d);
    }));
  }

  /** What each tree-building child process is doing (diagnostics and tests). */
  treePoolStatus(): TreePoolChildStatus[] {
    return this.pool.status();
  }

  /** The recovery folder (`<userDataDir>/recovery`). */
  get recoveryDir(): string {
    return this.recovery.dir;
  }

  /** Resolves once the startup document has been opened (or has failed to open). */
  ready(): Promise<void> {
    return this.startup;
  }

  // ---- Events and jobs ------------------------------------------------------------------------------

  private emit<E extends EventChannel>(event: E, payload: EventOf<E>): void {
    this.emitter.emit(event, payload);
  }

  private onPoolLog(message: string): void {
    this.log(`tree pool: ${message}`);
    if (/stopped unexpectedly/.test(message)) {
      this.emit('host.error', {
        code: 'compute-crashed',
        message: `The tree-building process stopped unexpectedly and is being restarted (${message}).`,
        path: null,
      });
    }
  }

  private newId(prefix: string): string {
    return `${prefix}-${this.nextId++}`;
  }

  private newJob(kind: JobKind): Job {
    const job: Job = { id: this.newId(kind), kind, controller: new AbortController(), done: Promise.resolve() };
    this.jobs.set(job.id, job);
    return job;
  }

  /** A progress reporter for a job: at most one event per interval at one stage (changes of stage and the end always go). */
  private progress(jobId: string, kind: JobKind): (stage: string, done: number, total: number) => void {
    let last = -Infinity;
    let lastStage = '';
    return (stage, done, total) => {
      const now = performance.now();
      if (stage === lastStage && done < total && now - last < this.progressIntervalMs) return;
      last = now;
      lastStage = stage;
      this.emit('job.progress', { jobId, kind, stage: stage.slice(0, 512), done, total });
    };
  }

  // ---- Access --------------------------------------------------------------------------------------

  /** Throws 'access-denied' unless the policy allows it. */
  private async allowed(filePath: string, mode: AccessMode): Promise<void> {
    const r = await this.policy.check(filePath, mode);
    if (!r.ok) throw failure('access-denied', r.denial.message, filePath);
  }

  private requireDialogs(what: string): HostDialogs {
    if (this.dialogs === null) {
      throw failure('dialog-unavailable', `this host has no file dialogs: give the path of the ${what} in the request`);
    }
    return this.dialogs;
  }

  // ---- Documents ----------------------------------------------------------------------------------

  private docOf(docId: string): DocState {
    const d = this.docs.get(docId);
    if (!d) throw failure('not-found', `no open document '${docId}'`);
    return d;
  }

  private docName(d: DocState): string {
    if (d.path) return path.basename(d.path);
    return d.doc.name || 'Untitled';
  }

  private partOf(d: DocState, id: string): PartState {
    const p = d.partIndex.get(id);
    if (!p) throw failure('unknown-part', `${this.docName(d)}: there is no part '${id}'`, d.path);
    return p;
  }

  private info(d: DocState): DocumentInfo {
    const sources = new Map(d.doc.sources.map((s) => [s.id, s.path]));
    const parts: PartInfo[] = d.parts.map((p) => {
      const b = d.bodies.get(p.bodyKey) as BodyState;
      return {
        id: p.id, name: p.name, sourceId: p.sourceId, sourcePath: sources.get(p.sourceId) ?? '', body: p.bodyIndex,
        bodyKey: p.bodyKey, triangles: b.body.triangleCount, transform: Array.from(p.transform), color: p.color,
        visible: p.visible, closed: b.closed,
      };
    });
    return {
      id: d.id,
      name: d.doc.name || this.docName(d),
      path: d.path,
      kind: d.kind,
      parts,
      settings: { ...d.settings },
      ignore: d.ignore.map((r) => ({ ...r })),
      statuses: Object.fromEntries(d.statuses),
      dirty: d.dirty,
      warnings: [...d.warnings],
    };
  }

  /**
   * Meshes, trees and closedness of bodies (each key once), trees through the pool. Throws
   * PartError naming the file, part and body of a mesh that cannot be used.
   */
  private async buildBodies(
    items: readonly { key: string; partId: string; sourceId: string; bodyIndex: number; body: ImportedBody }[],
    fileName: string,
    signal: AbortSignal,
    onProgress: (done: number, total: number) => void,
  ): Promise<Map<string, BodyState>> {
    const meshes = new Map<string, { mesh: TriangleMesh; body: ImportedBody }>();
    for (const it of items) {
      if (meshes.has(it.key)) continue;
      try {
        meshes.set(it.key, { mesh: createMesh(it.body.positions, it.body.indices), body: it.body });
      } catch (e) {
        if (e instanceof MeshError) {
          throw new PartError(`${fileName}: part '${it.partId}' (source '${it.sourceId}', body ${it.bodyIndex}): ${e.message}`, { cause: e });
        }
        throw e;
      }
    }
    const trees = await this.pool.buildTrees(
      [...meshes].map(([key, m]) => ({ meshId: key, positions: m.mesh.positions, indices: m.mesh.indices })),
      { signal, onProgress },
    );
    const out = new Map<string, BodyState>();
    for (const [key, m] of meshes) {
      out.set(key, {
        key, body: m.body, mesh: m.mesh, tree: trees.get(key) as ObbTree, closed: edgeReport(m.mesh).closed,
        colorHex: m.body.color !== null ? colorToHex(m.body.color) : null, positions32: null,
      });
    }
    return out;
  }

  /** Opens a file as a new document (the caller has checked access). */
  private async openDocument(filePath: string): Promise<DocState> {
    const absolute = path.resolve(filePath);
    const name = path.basename(absolute);
    const job = this.newJob('open');
    const progress = this.progress(job.id, 'open');
    try {
      progress(`reading ${name}`, 0, 1);
      const opened = await openAny(absolute, {
        importer: this.importer,
        signal: job.controller.signal,
        onProgress: (done, total) => progress(`reading ${name}`, done, total),
      });
      const fingerprint = opened.kind === 'assembly' ? await fingerprintOf(absolute, opened.bytes) : null;
      const d = await this.docFromResolved(opened.assembly, {
        kind: opened.kind, path: absolute, base: absolute, absoluteSources: [], fingerprint, dirty: false,
      }, name, job, progress);
      if (opened.kind === 'assembly') {
        // The user opened this assembly: the files it references may be opened too.
        for (const s of opened.assembly.doc.sources) this.policy.grant(path.resolve(path.dirname(absolute), s.path), 'read');
      }
      this.docs.set(d.id, d);
      return d;
    } catch (e) {
      throw new HostRequestFailure(toHostError(e, absolute));
    } finally {
      this.jobs.delete(job.id);
    }
  }

  /** The state of a document whose sources have been read: bodies and trees built, parts placed. */
  private async docFromResolved(
    assembly: ResolvedAssembly,
    origin: {
      kind: DocState['kind']; path: string | null; base: string | null; absoluteSources: readonly string[];
      fingerprint: FileFingerprint | null; dirty: boolean;
    },
    name: string,
    job: Job,
    progress: (stage: string, done: number, total: number) => void,
  ): Promise<DocState> {
    const bodies = await this.buildBodies(
      assembly.parts.map((p) => ({ key: `${p.sourceId}#${p.bodyIndex}`, partId: p.id, sourceId: p.sourceId, bodyIndex: p.bodyIndex, body: p.body })),
      name, job.controller.signal, (done, total) => progress('building trees', done, total),
    );
    const parts: PartState[] = assembly.parts.map((p, i) => ({
      id: p.id, name: p.name, sourceId: p.sourceId, bodyIndex: p.bodyIndex, bodyKey: `${p.sourceId}#${p.bodyIndex}`,
      transform: Float64Array.from(p.transform), color: p.color, visible: p.visible,
      extra: assembly.doc.parts?.[i]?.extra,
    }));
    const warnings = [...assembly.warnings];
    const id = this.newId('doc');
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
      statuses: new Map(),
      dirty: origin.dirty,
      warnings,
      last: null,
      checkJob: null,
      closed: false,
      fingerprint: origin.fingerprint,
      changes: origin.dirty ? 1 : 0,
      recoveryId: `${this.session}-${id}`,
      autosave: newAutosaveState(),
    };
    d.statuses = this.readStatuses(d, warnings);
    return d;
  }

  /** Opens a recovery record as a new, dirty document (the record is left in place). */
  private async recoverDocument(record: RecoveryRecord): Promise<DocState> {
    const label = record.originalPath ?? record.name;
    const job = this.newJob('open');
    const progress = this.progress(job.id, 'open');
    try {
      progress(`recovering ${record.name}`, 0, 1);
      // Relative source paths start from the document's file; a document without one has only
      // absolute sources.
      const folder = path.dirname(record.base ?? path.join(this.recovery.dir, 'x'));
      const assembly = await resolveAssembly(
        record.assembly,
        sourceLoader(folder, this.importer, job.controller.signal),
        this.importer,
        {
          fileName: label,
          signal: job.controller.signal,
          onProgress: (done, total) => progress(`recovering ${record.name}`, done, total),
        },
      );
      const d = await this.docFromResolved(assembly, {
        kind: record.kind, path: record.originalPath, base: record.base, absoluteSources: record.absoluteSources,
        fingerprint: record.fingerprint, dirty: true,
      }, path.basename(label), job, progress);
      if (record.originalPath !== null) this.policy.grant(record.originalPath, 'read');
      for (const s of assembly.doc.sources) this.policy.grant(path.resolve(folder, s.path), 'read');
      this.pathFromRecovery.add(d);
      this.docs.set(d.id, d);
      return d;
    } catch (e) {
      throw new HostRequestFailure(toHostError(e, label));
    } finally {
      this.jobs.delete(job.id);
    }
  }

  // ---- Unsaved work: recovery files and overwrite checks ---------------------------------------

  /**
   * The file a request names, checked against the access policy; or, when it names none, the
   * file the user picks in an open dialog (granted for reading), null if they cancel.
   */
  private async readableFile(
    requested: string | undefined, what: string, title: string, filters: { name: string; extensions: string[] }[],
  ): Promise<string | null> {
    if (requested !== undefined) {
      await this.allowed(requested, 'read');
      return requested;
    }
    const chosen = await this.requireDialogs(what).openFile({ title, filters });
    if (chosen !== null) this.policy.grant(chosen, 'read');
    return chosen;
  }

  /** A change to a document: dirty, counted, autosaved soon. */
  private changed(d: DocState): void {
    d.dirty = true;
    d.changes++;
    this.scheduleAutosave(d);
  }

  private scheduleAutosave(d: DocState): void {
    const timing = this.autosaveTiming;
    const a = d.autosave;
    if (timing === null || d.closed || this.disposed || a.timer !== null) return;
    const delay = Math.max(timing.debounceMs, a.lastWrite + timing.intervalMs - performance.now());
    a.timer = setTimeout(() => {
      a.timer = null;
      void this.writeRecovery(d);
    }, delay);
    a.timer.unref?.();
  }

  /** Runs recovery-file operations of a document one after the other; failures are logged. */
  private recoveryStep(d: DocState, step: () => Promise<void>): Promise<void> {
    const next = d.autosave.chain.then(step).catch((e: unknown) => {
      this.log(`recovery file of ${this.docName(d)}: ${errorText(e)}`);
    });
    d.autosave.chain = next;
    return next;
  }

  /** Writes the document's recovery file if it has changes not written yet. */
  private writeRecovery(d: DocState): Promise<void> {
    return this.recoveryStep(d, async () => {
      if (d.closed || !d.dirty || d.changes === d.autosave.written) return;
      const changes = d.changes;
      await this.recovery.save(this.recoveryRecordOf(d));
      d.autosave.written = changes;
      d.autosave.lastWrite = performance.now();
    });
  }

  /** Removes the document's recovery file (saved, closed, or discarded). */
  private clearRecovery(d: DocState): Promise<void> {
    const a = d.autosave;
    if (a.timer !== null) clearTimeout(a.timer);
    a.timer = null;
    return this.recoveryStep(d, async () => {
      a.lastWrite = -Infinity;
      a.written = d.changes;
      await this.recovery.remove(d.recoveryId);
    });
  }

  private recoveryRecordOf(d: DocState): RecoveryRecord {
    return {
      recoveryId: d.recoveryId,
      session: this.session,
      pid: process.pid,
      savedAt: new Date().toISOString(),
      name: d.doc.name || this.docName(d),
      kind: d.kind,
      originalPath: d.path,
      base: d.base,
      absoluteSources: [...d.absoluteSources],
      fingerprint: d.fingerprint,
      assembly: this.assemblyDocOf(d, null),
    };
  }

  /** Records that a file failed to open (unless the failure says nothing about the file). */
  private async noteUnopenable(filePath: string, e: unknown): Promise<void> {
    const error = toHostError(e, filePath);
    if (['not-found', 'access-denied', 'cancelled', 'disposed', 'compute-crashed', 'closed'].includes(error.code)) return;
    this.unopenable.set(await canonicalPath(filePath), error.message);
  }

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

  /** Refuses ('would-overwrite') to write a report over a file that failed to open or a saved assembly. */
  private async reportTargetProblem(target: string): Promise<string | null> {
    const failed = this.unopenable.get(await canonicalPath(target));
    if (failed !== undefined) return `${target}: no report was written: this file could not be opened (${failed}) and is kept as it is`;
    if (target.toLowerCase().endsWith(ASSEMBLY_EXTENSION)) {
      const exists = await stat(target).then(() => true, () => false);
      if (exists) return `${target}: no report was written: this is a saved assembly and is kept as it is; choose another name`;
    }
    return null;
  }

  /** Result statuses saved in the document's `resultStatus` field; bad entries are dropped with a warning. */
  private readStatuses(d: DocState, warnings: string[]): Map<string, ResultStatus> {
    const out = new Map<string, ResultStatus>();
    const raw = d.doc.extra.resultStatus;
    if (raw === undefined) return out;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      warnings.push('resultStatus is not an object of part pairs and was ignored');
      return out;
    }
    let dropped = 0;
    for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
      const ids = splitPairKey(key, d.partIndex);
      if (ids === null || typeof value !== 'string' || !STATUS_VALUES.has(value)) {
        dropped++;
        continue;
      }
      out.set(pairKey(ids[0], ids[1]), value as ResultStatus);
    }
    if (dropped > 0) warnings.push(`${dropped} entr${dropped === 1 ? 'y' : 'ies'} of resultStatus name no pair of parts or no known status and were ignored`);
    return out;
  }

  private async openStartup(): Promise<void> {
    const file = this.options.startupFile;
    if (!file) return;
    this.policy.grant(file, 'read');
    try {
      await this.recentLoaded;
      const d = await this.openDocument(file);
      this.startupDocId = d.id;
    } catch (e) {
      const error = toHostError(e, file);
      await this.noteUnopenable(file, e);
      this.startupError = { ...error, message: `The file given at start could not be opened: ${error.message}` };
      this.log(this.startupError.message);
      this.emit('host.error', this.startupError);
    }
  }

  /**
   * The document as saved: current placements, visibility, colours, names, settings, ignore rules
   * and statuses. Sources given by absolute path are made relative to `target`'s folder; with
   * `target` null (a recovery record) sources stay as the document holds them.
   */
  private assemblyDocOf(d: DocState, target: string | null): AssemblyDoc {
    const folder = target !== null ? path.dirname(target) : null;
    const sources: SourceDef[] = d.doc.sources.map((s) => (folder !== null && d.absoluteSources.has(s.id) ? { ...s, path: relativeSourcePath(folder, s.path) } : s));
    const parts: PartDef[] = d.parts.map((p) => {
      const b = d.bodies.get(p.bodyKey) as BodyState;
      return {
        id: p.id,
        ...(p.name !== p.id ? { name: p.name } : {}),
        source: p.sourceId,
        body: p.bodyIndex,
        ...(!isIdentity(p.transform) ? { transform: Array.from(p.transform) } : {}),
        ...(!p.visible ? { visible: false } : {}),
        ...(p.color !== null && p.color !== b.colorHex ? { color: p.color } : {}),
        ...(p.extra !== undefined ? { extra: p.extra } : {}),
      };
    });
    const originalRules = new Map(d.doc.ignore.map((r) => [`${pairKey(r.a, r.b)}\u0000${r.reason ?? ''}`, r]));
    const ignore: DocIgnoreRule[] = d.ignore.map((r) => {
      const original = originalRules.get(`${pairKey(r.a, r.b)}\u0000${r.reason ?? ''}`);
      return { a: r.a, b: r.b, ...(r.reason !== undefined ? { reason: r.reason } : {}), ...(original?.extra ? { extra: original.extra } : {}) };
    });
    const extra: Record<string, unknown> = { ...d.doc.extra };
    delete extra.resultStatus;
    if (d.statuses.size > 0) extra.resultStatus = Object.fromEntries([...d.statuses].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return {
      ...d.doc,
      sources,
      parts,
      settings: { ...d.settings, ...(d.doc.settings.extra ? { extra: d.doc.settings.extra } : {}) },
      ignore,
      extra,
    };
  }

  // ---- Checks -------------------------------------------------------------------------------------

  private async runCheckJob(d: DocState, job: Job, scope: CheckScope, refine = true): Promise<void> {
    const sources = refine ? this.refinableSources(d) : new Map<string, RefinerSource>();
    const parts = checkPartsOf(d).map((p) => {
      const part = d.partIndex.get(p.id)!;
      return sources.has(part.sourceId) ? { ...p, refine: { sourceKey: part.sourceId, bodyIndex: part.bodyIndex } } : p;
    });
    const settings: CheckSettings = { ...d.settings };
    const ignore = d.ignore.map((r) => ({ ...r }));
    const reportParts: ReportPartInput[] = this.reportPartsOf(d);
    const progress = this.progress(job.id, 'check');
    const signal = job.controller.signal;
    try {
      // Let the response with the job id go out first (and a cancel sent right after it arrive).
      await nextTurn();
      if (signal.aborted) throw new CheckAbortedError();
      progress('starting the check', 0, 1);
      const checkOptions = {
        manifold: loadManifold,
        signal,
        onProgress: (p: CheckProgress) => progress(stageOf(p), p.done, p.total),
        now: () => performance.now(),
        // Keep the host answering (and cancellable) while a long check runs.
        yieldToHost: nextTurn,
      };
      const first = await runCheck({ parts, settings, ignore, scope }, checkOptions);
      let result = first;
      if (sources.size > 0 && first.results.some((r) => r.kind === 'undecided')) {
        // The refined bodies stay cached with the document, so a re-check after a move is quick.
        d.refiner ??= createHostRefiner({ importer: this.importer, buildTrees: this.buildTrees, sources: (key) => this.refinableSources(d).get(key) });
        result = await refineCheck({ parts, settings, ignore, scope }, first, d.refiner, checkOptions);
      }
      if (signal.aborted) throw new CheckAbortedError();
      if (d.closed) throw failure('closed', `${this.docName(d)} was closed during its check`, d.path);
      const outcome = this.applyOutcome(d, result, scope, job.id, reportParts);
      this.emit('job.done', { jobId: job.id, kind: 'check', outcome });
      this.emit('doc.changed', this.info(d));
    } catch (e) {
      const cancelled = signal.aborted;
      const error: HostError = cancelled
        ? { code: 'cancelled', message: `the check of ${this.docName(d)} was cancelled`, path: d.path }
        : toHostError(e, d.path ?? this.docName(d));
      if (!cancelled) this.log(`check of ${this.docName(d)} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      this.emit('job.failed', { jobId: job.id, kind: 'check', error, cancelled });
    } finally {
      this.jobs.delete(job.id);
      if (d.checkJob === job) d.checkJob = null;
    }
  }

  /** The document's CAD sources that can be read again finer, by source id (files as they are on disk). */
  private refinableSources(d: DocState): Map<string, RefinerSource> {
    const out = new Map<string, RefinerSource>();
    for (const s of d.doc.sources) {
      const parts = d.parts.filter((p) => p.sourceId === s.id);
      if (parts.length === 0) continue;
      if (!parts.every((p) => d.bodies.get(p.bodyKey)?.body.chordErrorMm)) continue;
      const file = path.isAbsolute(s.path) ? s.path : d.base !== null ? path.resolve(path.dirname(d.base), s.path) : null;
      if (file === null) continue;
      out.set(s.id, { path: file, bodies: null });
    }
    return out;
  }

  private reportPartsOf(d: DocState): ReportPartInput[] {
    const sources = new Map(d.doc.sources.map((s) => [s.id, s.path]));
    return d.parts.map((p) => {
      const b = d.bodies.get(p.bodyKey) as BodyState;
      return { id: p.id, name: p.name, source: sources.get(p.sourceId) ?? p.sourceId, body: p.bodyIndex, triangles: b.body.triangleCount, closed: b.closed };
    });
  }

  /**
   * The outcome of a finished check, with each result's status against the document's statuses
   * (the previous checks): present before → active, first seen → new, set to ignored by the user →
   * ignored; pairs in scope that were present and are gone → resolved. Updates the statuses.
   */
  private applyOutcome(d: DocState, result: CheckResult, scope: CheckScope, jobId: string, reportParts: ReportPartInput[]): CheckOutcome {
    const before = d.statuses;
    const after = new Map<string, ResultStatus>();
    // Statuses of pairs outside the scope stay as they were.
    for (const [key, status] of before) {
      const ids = splitPairKey(key, d.partIndex);
      if (ids === null || !inScope(scope, ids[0], ids[1])) after.set(key, status);
    }
    const present = new Set<string>();
    const results: PairResultInfo[] = result.results.map((r) => {
      const key = pairKey(r.a, r.b);
      let status: ResultStatus;
      if (!RESULT_KINDS_WITH_STATUS.has(r.kind)) {
        status = 'ignored';
      } else {
        present.add(key);
        const prev = before.get(key);
        status = prev === 'ignored' ? 'ignored' : prev === 'new' || prev === 'active' ? 'active' : 'new';
        after.set(key, status);
      }
      return {
        a: r.a, b: r.b, kind: r.kind, trianglePairs: r.trianglePairs as Uint32Array<ArrayBuffer>,
        volumeMm3: r.volumeMm3,
        centroidMm: r.centroidMm ? [r.centroidMm[0], r.centroidMm[1], r.centroidMm[2]] : null,
        contained: r.contained, containedPart: r.containedPart, distanceMm: r.distanceMm,
        closestPointsMm: r.closestPointsMm
          ? [[r.closestPointsMm[0][0], r.closestPointsMm[0][1], r.closestPointsMm[0][2]], [r.closestPointsMm[1][0], r.closestPointsMm[1][1], r.closestPointsMm[1][2]]]
          : null,
        depthMm: r.depthMm, toleranceMm: r.toleranceMm, reason: r.reason,
        resolutionMm: r.resolutionMm, refinedDeflectionMm: r.refinedDeflectionMm,
        separationRangeMm: r.separationRangeMm ? [r.separationRangeMm[0], r.separationRangeMm[1]] : null,
        possibleKinds: r.possibleKinds ? [...r.possibleKinds] : null,
        status,
      };
    });
    const resolved: { a: string; b: string }[] = [];
    for (const [key, status] of before) {
      if (status === 'resolved' || present.has(key)) continue;
      const ids = splitPairKey(key, d.partIndex);
      if (ids === null || !inScope(scope, ids[0], ids[1])) continue;
      const [a, b] = d.parts.indexOf(d.partIndex.get(ids[0]) as PartState) < d.parts.indexOf(d.partIndex.get(ids[1]) as PartState) ? ids : [ids[1], ids[0]];
      resolved.push({ a, b });
      after.set(key, 'resolved');
    }
    const changed = after.size !== before.size || [...after].some(([k, s]) => before.get(k) !== s);
    d.statuses = after;
    if (changed) this.changed(d);
    const outcome: CheckOutcome = {
      checkId: jobId,
      docId: d.id,
      scope,
      settings: { ...result.settings },
      summary: { ...result.summary },
      results,
      resolved,
      warnings: [...result.warnings],
    };
    d.last = { outcome, result, reportParts };
    return outcome;
  }

  // ---- Batch ----------------------------------------------------------------------------------------

  /** The pool as checkFile's tree builder. */
  private readonly buildTrees: TreeBuilder = (meshes, opts) =>
    this.pool.buildTrees(meshes.map((m) => ({ meshId: m.key, positions: m.mesh.positions, indices: m.mesh.indices })), opts);

  private async runBatchJob(job: Job, paths: readonly string[], reportFolder: string | null, format: ReportFormat): Promise<void> {
    const signal = job.controller.signal;
    const progress = this.progress(job.id, 'batch');
    const files: EventOf<'batch.file'>['file'][] = [];
    try {
      await nextTurn();
      for (let i = 0; i < paths.length; i++) {
        if (signal.aborted) throw new CheckAbortedError();
        const file = paths[i];
        const name = path.basename(file);
        progress(`checking ${name} (${i + 1} of ${paths.length})`, i, paths.length);
        let entry: EventOf<'batch.file'>['file'];
        try {
          const r = await checkFile(file, { importer: this.importer, buildTrees: this.buildTrees, signal });
          const code = exitCode(r.report);
          const s = r.report.summary;
          entry = {
            path: file, status: code === 1 ? 'interference' : 'clear', exitCode: code,
            summary: {
              parts: s.parts, triangles: s.triangles, interferences: s.interferences, contacts: s.contacts, clearanceViolations: s.clearanceViolations, ignored: s.ignored,
              undecided: s.undecided, refinedPairs: s.refinedPairs, finestDeflectionMm: s.finestDeflectionMm, elapsedMs: s.elapsedMs,
            },
            reportPath: null, error: null,
          };
          if (reportFolder !== null) {
            const target = path.join(reportFolder, `${stemOf(file)}.report.${format}`);
            try {
              const kept = await this.reportTargetProblem(target);
              if (kept !== null) throw failure('would-overwrite', kept, target);
              await writeFileAtomic(target, renderReport(r.report, format));
              entry = { ...entry, reportPath: target };
            } catch (e) {
              entry = { ...entry, status: 'failed', exitCode: 2, error: toHostError(e, target).message };
            }
          }
        } catch (e) {
          if (signal.aborted) throw e;
          entry = { path: file, status: 'failed', exitCode: 2, summary: null, reportPath: null, error: toHostError(e, file).message };
        }
        files.push(entry);
        this.emit('batch.file', { jobId: job.id, index: i, total: paths.length, file: entry });
      }
      progress('done', paths.length, paths.length);
      this.emit('job.done', { jobId: job.id, kind: 'batch', files });
    } catch (e) {
      const cancelled = signal.aborted;
      const error: HostError = cancelled ? { code: 'cancelled', message: 'the batch check was cancelled', path: null } : toHostError(e);
      this.emit('job.failed', { jobId: job.id, kind: 'batch', error, cancelled });
    } finally {
      this.jobs.delete(job.id);
    }
  }

  // ---- Handlers -------------------------------------------------------------------------------------

  private createHandlers(): Handlers {
    return {
      'app.info': async () => {
        await this.startup;
        const d = this.startupDocId !== null ? this.docs.get(this.startupDocId) : undefined;
        if (this.startupError) this.emit('host.error', this.startupError);
        return {
          name: APP_NAME,
          version: APP_VERSION,
          host: this.options.host,
          platform: process.platform,
          startupDocument: d ? this.info(d) : null,
          recentFiles: [...this.recent.list()],
        };
      },

      'doc.open': async ({ path: requested }) => {
        const file = await this.readableFile(requested, 'file to open', 'Open', MODEL_FILTERS);
        if (file === null) return null;
        let d: DocState;
        try {
          d = await this.openDocument(file);
        } catch (e) {
          await this.noteUnopenable(file, e);
          throw e;
        }
        this.unopenable.delete(await canonicalPath(file));
        await this.recent.add(path.resolve(file));
        return this.info(d);
      },

      'doc.new': async () => {
        const doc: AssemblyDoc = {
          format: ASSEMBLY_FORMAT, version: ASSEMBLY_VERSION, name: '', units: 'mm', sources: [], parts: [],
          settings: DEFAULT_SETTINGS, ignore: [], extra: {},
        };
        const id = this.newId('doc');
        const d: DocState = {
          id, kind: 'new', path: null, base: null, doc, absoluteSources: new Set(), bodies: new Map(),
          parts: [], partIndex: new Map(), settings: { touchToleranceMm: null, clearanceMm: 0, contactIsInterference: false },
          ignore: [], statuses: new Map(), dirty: false, warnings: [], last: null, checkJob: null, closed: false,
          fingerprint: null, changes: 0, recoveryId: `${this.session}-${id}`, autosave: newAutosaveState(),
        };
        this.docs.set(d.id, d);
        return this.info(d);
      },

      'doc.import': async ({ docId, path: requested }) => {
        const d = this.docOf(docId);
        const file = await this.readableFile(requested, 'file to import', 'Import', IMPORT_FILTERS);
        if (file === null) return null;
        return this.importInto(d, path.resolve(file));
      },

      'doc.geometry': async ({ docId, bodyKeys }) => {
        const d = this.docOf(docId);
        const keys = bodyKeys ?? [...d.bodies.keys()];
        const seen = new Set<string>();
        const bodies = [];
        for (const key of keys) {
          if (seen.has(key)) continue;
          seen.add(key);
          const b = d.bodies.get(key);
          if (!b) throw failure('not-found', `${this.docName(d)}: there is no body '${key.slice(0, 200)}'`, d.path);
          b.positions32 ??= new Float32Array(b.body.positions);
          bodies.push({
            bodyKey: key, positions: b.positions32 as Float32Array<ArrayBuffer>, indices: b.body.indices as Uint32Array<ArrayBuffer>,
            faceRanges: (b.body.faceRanges ?? new Uint32Array(0)) as Uint32Array<ArrayBuffer>,
          });
        }
        return { bodies };
      },

      'doc.update': async (req) => {
        const d = this.docOf(req.docId);
        const name = this.docName(d);
        // Validate everything first: an update applies whole or not at all.
        const transforms = new Map<PartState, Float64Array>();
        for (const [id, m] of Object.entries(req.transforms ?? {})) {
          const p = this.partOf(d, id);
          const problem = transformProblem(m);
          if (problem !== null) throw failure('invalid-transform', `${name}: part '${id}': ${problem.problem}`, d.path);
          transforms.set(p, Float64Array.from(m));
        }
        for (const id of Object.keys(req.visible ?? {})) this.partOf(d, id);
        for (const id of Object.keys(req.colors ?? {})) this.partOf(d, id);
        for (const id of Object.keys(req.names ?? {})) this.partOf(d, id);
        for (const [i, r] of (req.ignore ?? []).entries()) {
          this.partOf(d, r.a);
          this.partOf(d, r.b);
          if (r.a === r.b) throw failure('invalid-request', `${name}: ignore rule ${i} pairs part '${r.a}' with itself`, d.path);
        }
        const statuses = new Map<string, ResultStatus>();
        for (const [key, status] of Object.entries(req.statuses ?? {})) {
          const ids = splitPairKey(key, d.partIndex);
          if (ids === null) throw failure('unknown-part', `${name}: the status key '${key.slice(0, 200)}' does not name two parts as 'a|b'`, d.path);
          statuses.set(pairKey(ids[0], ids[1]), status);
        }

        for (const [p, m] of transforms) p.transform = m;
        for (const [id, v] of Object.entries(req.visible ?? {})) this.partOf(d, id).visible = v;
        for (const [id, c] of Object.entries(req.colors ?? {})) {
          const p = this.partOf(d, id);
          p.color = c ?? (d.bodies.get(p.bodyKey) as BodyState).colorHex;
        }
        for (const [id, n] of Object.entries(req.names ?? {})) this.partOf(d, id).name = n === '' ? id : n;
        if (req.settings) {
          const s = req.settings;
          d.settings = {
            touchToleranceMm: s.touchToleranceMm !== undefined ? s.touchToleranceMm : d.settings.touchToleranceMm,
            clearanceMm: s.clearanceMm ?? d.settings.clearanceMm,
            contactIsInterference: s.contactIsInterference ?? d.settings.contactIsInterference,
          };
        }
        if (req.ignore) d.ignore = req.ignore.map((r) => (r.reason !== undefined ? { a: r.a, b: r.b, reason: r.reason } : { a: r.a, b: r.b }));
        for (const [key, status] of statuses) d.statuses.set(key, status);
        const changed = transforms.size > 0 || req.visible || req.colors || req.names || req.settings || req.ignore || statuses.size > 0;
        if (changed) this.changed(d);
        const info = this.info(d);
        if (changed) this.emit('doc.changed', info);
        return info;
      },

      'doc.save': async ({ docId, saveAs, path: requested, overwrite }) => {
        const d = this.docOf(docId);
        let target: string;
        let chosen = false;
        if (requested !== undefined) {
          target = requested;
        } else if (d.kind === 'assembly' && !saveAs && d.path !== null &&
          // A recovered document's file is saved over only where the policy allows writing; else
          // the save dialog asks (a host without dialogs refuses below).
          !(this.pathFromRecovery.has(d) && this.dialogs !== null && !(await this.policy.check(d.path, 'write')).ok)) {
          target = d.path;
        } else {
          const suggestion = d.path !== null ? path.join(path.dirname(d.path), `${stemOf(d.path)}${ASSEMBLY_EXTENSION}`) : `${slugify(d.doc.name) || 'assembly'}${ASSEMBLY_EXTENSION}`;
          const picked = await this.requireDialogs('assembly file to save').saveFile({
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
        if (chosen) this.policy.grant(target, 'write');
        else if (!own || this.pathFromRecovery.has(d)) await this.allowed(target, 'write');
        if (overwrite !== true) {
          const problem = await this.overwriteProblem(d, target, canonical, own);
          if (problem !== null) {
            throw failure('would-overwrite', `${target}: not saved: this file ${problem}. Nothing was written; replacing it needs your confirmation.`, target);
          }
        }
        const changesBefore = d.changes;
        const saved = await saveAssemblyFile(target, this.assemblyDocOf(d, target), {
          fromPath: d.base ?? target, ...(this.atomicFs !== undefined ? { fs: this.atomicFs } : {}),
        });
        d.doc = saved;
        d.path = target;
        this.pathFromRecovery.delete(d);
        d.base = target;
        d.kind = 'assembly';
        d.absoluteSources.clear();
        d.fingerprint = await fingerprintOf(target, Buffer.from(serializeAssembly(saved), 'utf8'));
        this.unopenable.delete(canonical);
        // A change that arrived while the file was written is not in it: still unsaved.
        if (d.changes === changesBefore) {
          d.dirty = false;
          await this.clearRecovery(d);
        } else {
          this.scheduleAutosave(d);
        }
        this.policy.grant(target, 'write');
        for (const s of saved.sources) this.policy.grant(path.resolve(path.dirname(target), s.path), 'read');
        // Temporary files of saves that a crash interrupted (this process's or earlier ones).
        await removeStaleTempFiles(target).catch(() => []);
        await this.recent.add(target);
        this.emit('doc.changed', this.info(d));
        return { path: target };
      },

      'doc.close': async ({ docId }) => {
        const d = this.docs.get(docId);
        if (!d) return { closed: false };
        d.closed = true;
        d.checkJob?.controller.abort();
        this.docs.delete(docId);
        if (this.startupDocId === docId) this.startupDocId = null;
        await this.clearRecovery(d);
        return { closed: true };
      },

      'doc.recoverable': async () => {
        const records = await this.recovery.list(this.session);
        return { documents: records.map(recoverableOf) };
      },

      'doc.recover': async ({ recoveryId }) => {
        if (recoveryId.startsWith(`${this.session}-`)) throw failure('not-found', `'${recoveryId}' belongs to a document open now; there is nothing to recover`);
        if (this.recovering.has(recoveryId)) throw failure('busy', `'${recoveryId}' is being recovered already`);
        this.recovering.add(recoveryId);
        try {
          let record: RecoveryRecord | null;
          try {
            record = await this.recovery.read(recoveryId);
          } catch (e) {
            if (e instanceof RecoveryError) throw failure('invalid-recovery', `the recovery file cannot be used: ${e.message}`, e.path);
            throw e;
          }
          if (record === null) throw failure('not-found', `there is no recoverable document '${recoveryId}'`);
          if (record.session === this.session || (record.pid !== process.pid && processAlive(record.pid))) {
            throw failure('not-found', `'${recoveryId}' belongs to a document open in a running instance; there is nothing to recover`);
          }
          const d = await this.recoverDocument(record);
          // This run's recovery file first, then the old one goes: never a moment without one.
          await this.writeRecovery(d);
          await this.recovery.remove(recoveryId).catch((e: unknown) => this.log(`removing the recovery file '${recoveryId}' failed: ${errorText(e)}`));
          this.scheduleAutosave(d);
          return this.info(d);
        } finally {
          this.recovering.delete(recoveryId);
        }
      },

      'doc.discardRecovery': async ({ recoveryId }) => {
        if (recoveryId.startsWith(`${this.session}-`)) throw failure('not-found', `'${recoveryId}' belongs to a document open now; close the document instead`);
        if (this.recovering.has(recoveryId)) throw failure('busy', `'${recoveryId}' is being recovered`);
        return { discarded: await this.recovery.remove(recoveryId) };
      },

      'check.run': async ({ docId, scope, refine }) => {
        const d = this.docOf(docId);
        const sc: CheckScope = scope ?? { kind: 'all' };
        const ids = sc.kind === 'all' ? [] : sc.kind === 'selection' ? sc.ids : [...sc.a, ...sc.b];
        for (const id of ids) this.partOf(d, id);
        d.checkJob?.controller.abort();
        const job = this.newJob('check');
        d.checkJob = job;
        job.done = this.runCheckJob(d, job, sc, refine ?? true);
        return { jobId: job.id };
      },

      'check.pair': async ({ docId, a, b, withinMm }) => {
        const d = this.docOf(docId);
        if (a === b) throw failure('invalid-request', `${this.docName(d)}: check.pair needs two different parts, got '${a}' twice`, d.path);
        const pa = this.partOf(d, a), pb = this.partOf(d, b);
        const ta = (d.bodies.get(pa.bodyKey) as BodyState).tree, tb = (d.bodies.get(pb.bodyKey) as BodyState).tree;
        const ma = parseRigid(pa.transform), mb = parseRigid(pb.transform);
        const hits = collidePlaced(ta, ma, tb, mb, 'all');
        let distanceMm: number | null = null;
        if (hits.pairCount === 0 && withinMm !== undefined) {
          distanceMm = minDistance(ta, tb, relative(ma, mb), withinMm)?.distance ?? null;
        }
        return { a, b, trianglePairs: hits.pairs as Uint32Array<ArrayBuffer>, distanceMm };
      },

      'check.trace': async ({ docId, a, b, maxDepth, maxBoxes }) => {
        const d = this.docOf(docId);
        if (a === b) throw failure('invalid-request', `${this.docName(d)}: check.trace needs two different parts, got '${a}' twice`, d.path);
        const pa = this.partOf(d, a), pb = this.partOf(d, b);
        const ta = (d.bodies.get(pa.bodyKey) as BodyState).tree, tb = (d.bodies.get(pb.bodyKey) as BodyState).tree;
        const trace = traceCollide(ta, parseRigid(pa.transform), tb, parseRigid(pb.transform), { maxDepth, maxBoxes });
        return {
          a, b,
          trianglePairs: trace.pairs as Uint32Array<ArrayBuffer>,
          testedA: trace.testedA as Uint32Array<ArrayBuffer>,
          testedB: trace.testedB as Uint32Array<ArrayBuffer>,
          boxes: trace.boxes as Float64Array<ArrayBuffer>,
          boxesOmitted: trace.boxesOmitted,
          boxTests: trace.boxTests,
          triTests: trace.triTests,
        };
      },

      'check.overlap': async ({ docId, a, b }) => {
        const d = this.docOf(docId);
        if (a === b) throw failure('invalid-request', `${this.docName(d)}: check.overlap needs two different parts, got '${a}' twice`, d.path);
        const pa = this.partOf(d, a), pb = this.partOf(d, b);
        const ba = d.bodies.get(pa.bodyKey) as BodyState, bb = d.bodies.get(pb.bodyKey) as BodyState;
        const wasm = await loadManifold();
        // A local origin between the two parts keeps manifold-3d's float32 positions precise.
        const origin: [number, number, number] = [
          (pa.transform[3] + pb.transform[3]) / 2, (pa.transform[7] + pb.transform[7]) / 2, (pa.transform[11] + pb.transform[11]) / 2,
        ];
        const engine = new OverlapEngine(wasm, origin);
        try {
          const sa = engine.solid('a', ba.mesh, pa.transform);
          const sb = engine.solid('b', bb.mesh, pb.transform);
          const overlap = engine.overlap(sa, sb);
          if (!overlap || overlap.indices.length === 0) return null;
          return { a, b, positions: Float32Array.from(overlap.positions), indices: overlap.indices as Uint32Array<ArrayBuffer>, volumeMm3: overlap.volume };
        } finally {
          engine.dispose();
        }
      },

      'job.cancel': async ({ jobId }) => {
        const job = this.jobs.get(jobId);
        if (!job || job.controller.signal.aborted) return { cancelled: false };
        job.controller.abort();
        return { cancelled: true };
      },

      'report.export': async ({ docId, format, path: requested }) => {
        const d = this.docOf(docId);
        const name = this.docName(d);
        if (!d.last) throw failure('no-check', `${name}: there is nothing to report yet — run a check first`, d.path);
        let target: string;
        let chosen = false;
        if (requested !== undefined) {
          target = requested;
        } else {
          const folder = d.path !== null ? path.dirname(d.path) : '';
          const picked = await this.requireDialogs('report file').saveFile({
            title: 'Export Report', defaultPath: path.join(folder, `${stemOf(name)}.report.${format}`),
            filters: [{ name: format.toUpperCase(), extensions: [format] }],
          });
          if (picked === null) return null;
          target = picked;
          chosen = true;
        }
        const ext = path.extname(target).toLowerCase();
        if (!(ext === `.${format}` || (format === 'html' && ext === '.htm'))) target += `.${format}`;
        target = path.resolve(target);
        if (chosen) this.policy.grant(target, 'write');
        else await this.allowed(target, 'write');
        const kept = await this.reportTargetProblem(target);
        if (kept !== null) throw failure('would-overwrite', kept, target);
        const { result, reportParts } = d.last;
        const report = buildReport({
          assemblyName: name,
          ...(d.doc.name ? { title: d.doc.name } : {}),
          check: { ...result, warnings: [...d.warnings, ...result.warnings] },
          parts: reportParts,
          generatedAt: new Date(),
          generator: { name: APP_NAME, version: APP_VERSION },
        });
        await writeFileAtomic(target, renderReport(report, format));
        return { path: target };
      },

      'batch.run': async ({ paths: requested, reportFolder, format }) => {
        let paths: string[];
        if (requested === undefined) {
          paths = await this.requireDialogs('files to check').openFiles({
            title: 'Batch Check', filters: [{ name: 'Assemblies and CAD files', extensions: MODEL_FILTERS[0].extensions }],
          });
          for (const p of paths) this.policy.grant(p, 'read');
        } else {
          paths = requested;
          for (const p of paths) await this.allowed(p, 'read');
        }
        if (paths.length === 0) return null;
        let folder: string | null = null;
        if (reportFolder !== undefined) {
          await this.allowed(reportFolder, 'write');
          folder = path.resolve(reportFolder);
        }
        const job = this.newJob('batch');
        job.done = this.runBatchJob(job, paths.map((p) => path.resolve(p)), folder, format ?? 'html');
        return { jobId: job.id };
      },
    };
  }

  /** Adds the bodies of a CAD/STL file to a document as parts at identity, the file as a new source. */
  private async importInto(d: DocState, file: string): Promise<DocumentInfo> {
    const name = path.basename(file);
    const job = this.newJob('import');
    const progress = this.progress(job.id, 'import');
    try {
      progress(`reading ${name}`, 0, 1);
      const bytes = await readModelFile(file, this.importer, file, job.controller.signal);
      if (isAssemblyFile(file, bytes)) throw failure('not-a-model', `${file}: this is a saved assembly; open it instead of importing it`, file);
      const imported = await this.importer(bytes, file, { signal: job.controller.signal });
      if (imported.bodies.length === 0) throw failure('import-failed', `${file}: the file holds no bodies`, file);
      const taken = new Set(d.doc.sources.map((s) => s.id));
      const stem = slugify(stemOf(file)) || 'model';
      let sourceId = stem;
      for (let k = 2; taken.has(sourceId); k++) sourceId = `${stem}-${k}`;
      const ids = assignPartIds(imported.bodies.map((b) => b.name), null, new Set(d.partIndex.keys()));
      const items = imported.bodies.map((body, i) => ({ key: `${sourceId}#${i}`, partId: ids[i], sourceId, bodyIndex: i, body }));
      const bodies = await this.buildBodies(items, name, job.controller.signal, (done, total) => progress('building trees', done, total));
      if (d.closed) throw failure('closed', `${this.docName(d)} was closed during the import of ${name}`, file);

      const source: SourceDef = {
        id: sourceId, path: d.base !== null ? relativeSourcePath(path.dirname(d.base), file) : file, bodyNames: imported.bodies.map((b) => b.name),
      };
      if (d.base === null) d.absoluteSources.add(sourceId);
      d.doc = { ...d.doc, sources: [...d.doc.sources, source], parts: d.doc.parts ?? [] };
      for (const [key, b] of bodies) d.bodies.set(key, b);
      for (const it of items) {
        const b = bodies.get(it.key) as BodyState;
        const p: PartState = {
          id: it.partId, name: it.body.name !== '' ? it.body.name : it.partId, sourceId, bodyIndex: it.bodyIndex, bodyKey: it.key,
          transform: Float64Array.from(IDENTITY), color: b.colorHex, visible: true, extra: undefined,
        };
        d.parts.push(p);
        d.partIndex.set(p.id, p);
      }
      for (const w of imported.warnings) d.warnings.push(`source '${sourceId}' (${name}): ${w}`);
      this.changed(d);
      this.policy.grant(file, 'read');
      const info = this.info(d);
      this.emit('doc.changed', info);
      return info;
    } catch (e) {
      throw new HostRequestFailure(toHostError(e, file));
    } finally {
      this.jobs.delete(job.id);
    }
  }
}
