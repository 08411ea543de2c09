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
 * - Every request is admitted at the door (../../contract/admission.ts: its channel, its size and
 *   depth, its strict schema) by the shell that received it, and again here for callers in this
 *   process; anything that goes wrong becomes a HostRequestError carrying a HostError whose
 *   message names the file and the problem. Every refusal is logged with its reason.
 * - Trees are built at open and import through one TreePool; a crashed tree-building child is
 *   reported as a `host.error` event, and a job that fails because of it leaves the documents as
 *   they were.
 * - Checks, pair queries and volumes run in the check child (../checkChild.ts), which keeps the
 *   open documents' bodies; this process only prepares them and applies the results. A crashed
 *   check child fails the job it had (`compute-crashed`); the next request starts a fresh one.
 * - File access follows the AccessPolicy (../access.ts).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { admitRequest } from '../../contract/admission.js';
import { HostRequestError, type AppInfo, type EventChannel, type EventOf, type HostError } from '../../contract/host.js';
import { AccessPolicy } from '../access.js';
import { APP_NAME, APP_VERSION } from '../appInfo.js';
import { createImporter } from '../importers.js';
import { ChildCheckRunner } from '../checkChild.js';
import { InProcessCheckRunner, type CheckRunner } from '../checkRunner.js';
import { RecentFiles } from '../recent.js';
import { TreeCache } from '../treeCache.js';
import { poolTreeBuilder } from '../treeBuilder.js';
import { TreePool, type TreePoolChildStatus } from '../treePool.js';
import { type HostServiceApi, type HostServiceOptions, type HostServiceTuning } from './api.js';
import { errorFields, NO_LOG } from '../log.js';
import { logDocument, logOpened, logRefused } from './activity.js';
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

export class HostService implements HostServiceApi {
  private readonly ctx: HostContext;
  private readonly pool: TreePool;
  private readonly checkRunner: CheckRunner;
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
    const activity = options.activity ?? NO_LOG;
    const say = options.log ?? ((m: string) => console.warn(`[host] ${m}`));
    const log = (m: string): void => {
      say(m);
      activity.write('warn', 'host', { message: m });
    };
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
    const checks = tuning.checks;
    const checkFork = checks === 'in-process' ? undefined : checks?.fork ?? options.fork;
    this.checkRunner = checks === 'in-process'
      ? new InProcessCheckRunner({ yieldToHost: true })
      : new ChildCheckRunner({
        ...(checkFork ? { fork: checkFork } : {}),
        ...(checks?.cancelGraceMs !== undefined ? { cancelGraceMs: checks.cancelGraceMs } : {}),
        log: (m) => log(`checks: ${m}`),
      });
    this.ctx = {
      options, log, activity, policy, recent, buildTrees: poolTreeBuilder(this.pool), checkRunner: this.checkRunner, importer: createImporter(), events,
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
        this.checkRunner.forget(docId);
      },
    });
    this.recentLoaded = recent.load().then(() => undefined);
    this.startup = this.openStartup();
  }

  // ---- HostServiceApi ----------------------------------------------------------------------------

  async handle(channel: string, payload: unknown): Promise<unknown> {
    // The shells admit requests at their door already; callers in this process come through here.
    const parsed = admitRequest(channel, payload);
    if (!parsed.ok) {
      this.ctx.log(`refused a request: ${parsed.error.message}`);
      throw new HostRequestError(parsed.error);
    }
    if (this.disposed) throw failure('disposed', 'the host is shutting down');
    const t0 = performance.now();
    try {
      await this.recentLoaded;
      const handler = this.handlers[parsed.channel] as (request: unknown) => Promise<unknown>;
      const result = await handler(parsed.request);
      logOpened(this.ctx.activity, parsed.channel, result, performance.now() - t0);
      return result;
    } catch (e) {
      const error = toHostError(e);
      if (error.code === 'internal') {
        this.ctx.log(`${parsed.channel} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        this.ctx.activity.write('error', 'request-failed', { channel: parsed.channel, path: error.path ?? undefined, ...errorFields(e) });
      } else {
        this.ctx.log(`${parsed.channel} refused: ${error.message}`);
        logRefused(this.ctx.activity, parsed.channel, error);
      }
      throw e instanceof HostRequestError ? e : new HostRequestError(error);
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
      await Promise.all([this.pool.dispose(), this.checkRunner.dispose()]);
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

  /** Where checks run, and the check child's process id while there is one (diagnostics and tests). */
  checkRunnerStatus(): { kind: CheckRunner['kind']; pid: number | undefined } {
    return { kind: this.checkRunner.kind, pid: this.checkRunner instanceof ChildCheckRunner ? this.checkRunner.pid : undefined };
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
      const t0 = performance.now();
      const d = await this.store.open(file);
      this.startupDocId = d.id;
      logDocument(this.ctx.activity, 'open', documentInfo(d), performance.now() - t0);
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
