/**
 * The host service: every request of the host API (../../contract/host.ts) on top of the
 * plain-Node services — documents, the tree-building pool, checks, reports, batch checks —
 * whichever shell received it (the Electron main process over IPC, or the loopback bridge over a
 * WebSocket). Its parts, one concept each, are in this folder:
 *
 * - ./api.ts: what the shells see of the service and give it (its contract);
 * - ./document.ts: the document model; ./documentStore.ts: open, new, import, update, save, close;
 * - ./autosave.ts: unsaved work autosaved to recovery files, and recovered from them;
 * - ./jobs.ts: the job registry, progress and the event emitter;
 * - ./checkJobs.ts: checks and result statuses; ./pairQueries.ts: one pair's live check, trace
 *   and overlap; ./batch.ts: batch checks; ./reports.ts: report export;
 * - ./errors.ts: every failure as a HostError naming the file and the problem;
 * - ./router.ts: each request channel handed to the part that does it.
 *
 * This file validates each request, routes it, and owns the lifetime of everything: the startup
 * document, the tree pool, disposal.
 *
 * - Every request is validated here (`parseRequest`); anything that goes wrong becomes a
 *   HostRequestFailure carrying a HostError whose message names the file and the problem.
 * - Requests are refused before validation when they are larger than MAX_REQUEST_BYTES, nested
 *   deeper than MAX_REQUEST_DEPTH, or carry fields their channel does not have; after validation
 *   when an object inside them (settings, an ignore rule, a scope) carries a field its schema
 *   does not have. Every refusal is logged with its reason.
 * - Trees are built at open and import through one TreePool; a crashed tree-building child is
 *   reported as a `host.error` event, and a job that fails because of it leaves the documents as
 *   they were.
 * - File access follows the AccessPolicy (../access.ts).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  parseRequest, REQUESTS, type AppInfo, type EventChannel, type EventOf, type HostError, type RequestChannel,
} from '../../contract/host.js';
import { AccessPolicy } from '../access.js';
import { APP_NAME, APP_VERSION } from '../appInfo.js';
import { createImporter } from '../importers.js';
import { RecentFiles } from '../recent.js';
import { TreeCache } from '../treeCache.js';
import { poolTreeBuilder } from '../treeBuilder.js';
import { TreePool, type TreePoolChildStatus } from '../treePool.js';
import { HostRequestFailure, type HostServiceApi, type HostServiceOptions, type HostServiceTuning } from './api.js';
import { Autosave, DEFAULT_AUTOSAVE } from './autosave.js';
import { BatchJobs } from './batch.js';
import { CheckJobs } from './checkJobs.js';
import type { HostContext } from './context.js';
import { docName, documentInfo } from './document.js';
import { DocumentStore } from './documentStore.js';
import { failure, toHostError } from './errors.js';
import { Emitter, JobRegistry } from './jobs.js';
import { createHandlers, type Handlers } from './router.js';

export type { HostServiceTuning } from './api.js';

/** Largest request accepted, estimated as its JSON length. */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024;
/** Deepest nesting of objects and arrays accepted in a request. */
export const MAX_REQUEST_DEPTH = 32;

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

export class HostService implements HostServiceApi {
  private readonly ctx: HostContext;
  private readonly pool: TreePool;
  private readonly autosave: Autosave;
  private readonly store: DocumentStore;
  private readonly handlers: Handlers;
  private readonly recentLoaded: Promise<void>;
  private readonly startup: Promise<void>;
  private startupDocId: string | null = null;
  private startupError: HostError | null = null;
  private disposed = false;
  private disposing: Promise<void> | null = null;

  constructor(private readonly options: HostServiceOptions, tuning: HostServiceTuning = {}) {
    const log = options.log ?? ((m: string) => console.warn(`[host] ${m}`));
    const events = new Emitter(log);
    const policy = new AccessPolicy(options.allowedFolders ?? []);
    const recent = new RecentFiles(options.userDataDir, log);
    policy.setRecentSource(() => recent.list());
    this.pool = new TreePool({
      ...tuning.treePool,
      ...(options.fork ? { fork: options.fork } : {}),
      log: (m) => this.onPoolLog(m),
      ...(tuning.treeCache === false ? {} : { cache: new TreeCache({ dir: path.join(options.userDataDir, 'tree-cache'), log }) }),
    });
    this.ctx = {
      options, log, policy, recent, buildTrees: poolTreeBuilder(this.pool), importer: createImporter(), events,
      jobs: new JobRegistry(events, tuning.progressIntervalMs ?? 100),
      session: randomBytes(6).toString('hex'),
      atomicFs: tuning.atomicFs,
      disposed: () => this.disposed,
    };
    this.autosave = new Autosave(this.ctx, tuning.autosave === false ? null : { ...DEFAULT_AUTOSAVE, ...tuning.autosave });
    this.store = new DocumentStore(this.ctx, this.autosave);
    this.handlers = createHandlers({
      ctx: this.ctx,
      store: this.store,
      autosave: this.autosave,
      checks: new CheckJobs(this.ctx, this.store),
      batch: new BatchJobs(this.ctx, this.store),
      appInfo: () => this.appInfo(),
      onClosed: (docId) => {
        if (this.startupDocId === docId) this.startupDocId = null;
      },
    });
    this.recentLoaded = recent.load().then(() => undefined);
    this.startup = this.openStartup();
  }

  // ---- HostServiceApi ----------------------------------------------------------------------------

  async handle(channel: string, payload: unknown): Promise<unknown> {
    const refuse = (error: HostError): never => {
      this.ctx.log(`refused a request: ${error.message}`);
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
      if (error.code === 'internal') this.ctx.log(`${parsed.channel} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      else this.ctx.log(`${parsed.channel} refused: ${error.message}`);
      throw e instanceof HostRequestFailure ? e : new HostRequestFailure(error);
    }
  }

  on<E extends EventChannel>(event: E, listener: (payload: EventOf<E>) => void): () => void {
    return this.ctx.events.on(event, listener);
  }

  allowPath(filePath: string): void {
    this.ctx.policy.grant(filePath, 'read');
  }

  dirtyDocuments(): { id: string; name: string }[] {
    return this.store.all().filter((d) => d.dirty).map((d) => ({ id: d.id, name: docName(d) }));
  }

  /**
   * Stops every job and child process. Documents with unsaved changes keep their recovery files
   * (brought up to date first): a shell that let the user discard them calls
   * discardUnsavedWork() before.
   */
  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      this.disposed = true;
      await this.ctx.jobs.cancelAll();
      await this.startup.catch(() => undefined);
      await this.pool.dispose();
      const docs = this.store.all();
      await Promise.allSettled(docs.map((d) => (d.dirty ? this.autosave.write(d) : d.autosave.chain)));
      for (const d of docs) {
        d.closed = true;
        this.autosave.stop(d);
      }
      this.store.clear();
    })();
    return this.disposing;
  }

  /**
   * The user chose not to keep the unsaved changes of the open documents (quitting without
   * saving): their recovery files are removed and they count as clean from now on.
   */
  async discardUnsavedWork(): Promise<void> {
    await Promise.all(this.store.all().map((d) => {
      d.dirty = false;
      return this.autosave.clear(d);
    }));
  }

  /** What each tree-building child process is doing (diagnostics and tests). */
  treePoolStatus(): TreePoolChildStatus[] {
    return this.pool.status();
  }

  /** The recovery folder (`<userDataDir>/recovery`). */
  get recoveryDir(): string {
    return this.autosave.dir;
  }

  /** Resolves once the startup document has been opened (or has failed to open). */
  ready(): Promise<void> {
    return this.startup;
  }

  // ---- Start-up and the pool -------------------------------------------------------------------

  private onPoolLog(message: string): void {
    this.ctx.log(`tree pool: ${message}`);
    if (/stopped unexpectedly/.test(message)) {
      this.ctx.events.emit('host.error', {
        code: 'compute-crashed',
        message: `The tree-building process stopped unexpectedly and is being restarted (${message}).`,
        path: null,
      });
    }
  }

  private async openStartup(): Promise<void> {
    const file = this.options.startupFile;
    if (!file) return;
    this.ctx.policy.grant(file, 'read');
    try {
      await this.recentLoaded;
      const d = await this.store.open(file);
      this.startupDocId = d.id;
    } catch (e) {
      const error = toHostError(e, file);
      await this.store.noteUnopenable(file, e);
      this.startupError = { ...error, message: `The file given at start could not be opened: ${error.message}` };
      this.ctx.log(this.startupError.message);
      this.ctx.events.emit('host.error', this.startupError);
    }
  }

  private async appInfo(): Promise<AppInfo> {
    await this.startup;
    const d = this.startupDocId !== null ? this.store.find(this.startupDocId) : undefined;
    if (this.startupError) this.ctx.events.emit('host.error', this.startupError);
    return {
      name: APP_NAME,
      version: APP_VERSION,
      host: this.options.host,
      platform: process.platform,
      startupDocument: d ? documentInfo(d) : null,
      recentFiles: [...this.ctx.recent.list()],
    };
  }
}
