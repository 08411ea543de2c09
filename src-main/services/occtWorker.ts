/**
 * OpenCascade in a worker thread: the OcctProvider the CLI and the host use, so that reading a
 * STEP, IGES or BREP file is bounded in time and can be cancelled. occt-import-js reads
 * synchronously and some damaged files keep it busy for minutes; in a worker thread it can be
 * stopped (Worker.terminate interrupts WebAssembly too) without stopping the process.
 *
 * - Up to `workers` workers (default 1; the process-wide provider: one per core, at most 4), each
 *   started when a read finds every running one busy (or by `warm()`, ahead of the first read,
 *   while the caller reads its files) and initialised once (occt's wasm compiles in it). Each
 *   worker reads one file at a time; a read goes to an idle worker, else a new one, else the
 *   shortest queue. A worker is unref'd while idle (it never keeps a command line alive) and
 *   ended after `idleMs` without work, which gives OpenCascade's memory (a WebAssembly memory
 *   only grows) back to the system.
 * - Each read is bounded by the import's `limits.cadTimeoutMs` (unbounded beyond Node's longest
 *   timer, 2^31 − 1 ms, Infinity included), counted from when the worker
 *   starts on it (queueing and starting the worker are not counted): at the limit the worker is
 *   terminated and the read rejects with ImportError 'timeout' naming the file, the limit and how
 *   to raise it. Aborting the import's signal terminates it too (ImportError 'aborted', within the
 *   signal's event or the 100 ms poll of signals without events).
 * - A worker that dies while reading (a crash in OpenCascade, out of memory) fails that read only
 *   ('unreadable-cad'; 'too-large' for memory) and is replaced for the next one.
 * - When no worker can be started (the bundled entry missing, a host without worker threads), the
 *   read runs in this thread without a time limit and says so in the import's warnings.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { OcctResult } from 'occt-import-js';
import type { OcctFormat, OcctModule, OcctProvider, OcctReadContext, OcctRemoteModule, OcctRemoteRead } from '../../src-core/io/occt.js';
import { timeoutProblem } from '../../src-core/io/limits.js';
import { ImportError } from '../../src-core/io/types.js';
import { nodeOcctProvider } from './occtNode.js';
import type { OcctWorkerData, OcctWorkerMessage, OcctWorkerRequest } from './occtWorkerThread.js';
import { servicesModuleFile } from './moduleFile.js';
import { adoptPrestartedWorker } from './occtPrestart.js';

/** How to start the worker: a script file, or (TypeScript sources) code evaluated as CommonJS. */
export interface OcctWorkerEntry {
  readonly file: string;
  readonly eval?: boolean;
}

export interface OcctWorkerOptions {
  /** Path of occt-import-js.wasm when it is not beside the package's JavaScript. */
  readonly wasmPath?: string;
  /** The worker's entry (default findOcctWorker()). */
  readonly entry?: OcctWorkerEntry;
  /** Time for a new worker to initialise OpenCascade (default 60 s); beyond it the read fails. */
  readonly startTimeoutMs?: number;
  /** An idle worker is ended after this long (default 60 s; Infinity keeps it). */
  readonly idleMs?: number;
  /** V8 heap limits of the worker (OpenCascade's wasm memory is not counted by V8). */
  readonly resourceLimits?: ResourceLimits;
  /** Poll interval for abort signals that have no events (default 100 ms). */
  readonly abortPollMs?: number;
  /** When no worker can be started: read in this thread without a time limit (default), or fail. */
  readonly fallback?: 'in-thread' | 'fail';
  /** Where worker failures are reported (default console.warn). */
  readonly log?: (message: string) => void;
  /** Most workers reading at once (default 1), each with its own OpenCascade instance. */
  readonly workers?: number;
}

export interface OcctWorkerStats {
  /** Workers started (1 in a healthy process, plus one after each timeout, cancel or crash). */
  workersStarted: number;
  reads: number;
  timeouts: number;
  aborts: number;
  crashes: number;
  /** Reads that ran in this thread because no worker could be started. */
  inThreadReads: number;
  /** Milliseconds the last worker took to initialise OpenCascade. */
  lastInitMs: number | null;
  /** When (performance.now() of this thread) a worker first said it was ready. */
  firstReadyAtMs: number | null;
  /** Workers taken over from the command line's launcher (./occtPrestart.ts) rather than started here. */
  adopted: number;
  /** Milliseconds OpenCascade spent reading, as the workers measured it, all reads together. */
  readMs: number;
}

export type OcctWorkerProvider = OcctProvider & {
  readonly stats: OcctWorkerStats;
  /** Most workers that read at once. */
  readonly workers: number;
  /**
   * Starts a worker and its OpenCascade initialisation now, without a read, so that the first read
   * does not wait for it; does nothing when one is running or starting.
   */
  warm(): void;
  /** Ends the workers; reads waiting or running reject. */
  dispose(): Promise<void>;
};

// ------------------------------------------------------------------------------------------------
// Finding the entry

/**
 * The worker's entry: next to the TypeScript sources, a small CommonJS program that registers tsx
 * and imports occtWorkerThread.ts (worker threads do not inherit the parent's loader); in the
 * bundles, dist/node/compute/occtWorker.cjs.
 */
export function findOcctWorker(from: string = servicesModuleFile()): OcctWorkerEntry {
  const dir = path.dirname(from);
  if (/\.[cm]?ts$/.test(from)) {
    const api = createRequire(from).resolve('tsx/cjs/api');
    const entry = path.resolve(dir, 'occtWorkerThread.ts');
    const code =
      `try { require(${JSON.stringify(api)}).register(); require(${JSON.stringify(entry)}); } ` +
      `catch (e) { require('node:worker_threads').parentPort.postMessage({ type: 'init-failed', message: String(e && e.message || e) }); }`;
    return { file: code, eval: true };
  }
  const candidates = [
    path.resolve(dir, '../compute/occtWorker.cjs'),
    path.resolve(dir, 'compute/occtWorker.cjs'),
    path.resolve(dir, 'occtWorker.cjs'),
  ];
  const file = candidates.find((f) => existsSync(f));
  if (!file) throw new Error(`the bundled OpenCascade worker is missing (looked for ${candidates.join(', ')})`);
  return { file };
}

// ------------------------------------------------------------------------------------------------
// The worker host

const DEFAULT_START_TIMEOUT_MS = 60_000;
const DEFAULT_IDLE_MS = 60_000;
const DEFAULT_ABORT_POLL_MS = 100;
/** Node's longest timer, 2^31 − 1 ms (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Running {
  readonly worker: Worker;
  /** Resolves when OpenCascade is initialised in it; rejects when it cannot start. */
  readonly ready: Promise<void>;
  /** The read in progress, to be settled by a message, an error or the worker's exit. */
  pending: { id: number; settle: (outcome: { ok: OcctRemoteRead } | { error: Error }) => void } | null;
  idleTimer: ReturnType<typeof setTimeout> | null;
  ended: boolean;
}

interface Queued {
  readonly run: () => void;
  readonly cancel: (error: Error) => void;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function abortedError(fileName: string): ImportError {
  return new ImportError('aborted', fileName, 'import was cancelled');
}

class OcctWorkerHost implements OcctRemoteModule {
  readonly remote = true as const;
  readonly stats: OcctWorkerStats = {
    workersStarted: 0, reads: 0, timeouts: 0, aborts: 0, crashes: 0, inThreadReads: 0, lastInitMs: null, firstReadyAtMs: null, adopted: 0, readMs: 0,
  };
  private current: Running | null = null;
  private busy = false;
  private readonly queue: Queued[] = [];
  private nextId = 1;
  private disposed = false;
  /** Why no worker could be started; later reads then go straight to the fallback. */
  private startFailure: unknown = null;
  private readonly log: (message: string) => void;

  constructor(private readonly options: OcctWorkerOptions) {
    this.log = options.log ?? ((m) => console.warn(`[occt worker] ${m}`));
  }

  /** Reads running or queued here. */
  get load(): number {
    return (this.busy ? 1 : 0) + this.queue.length;
  }

  /** Starts the worker ahead of a read (see OcctWorkerProvider.warm). */
  warm(): void {
    if (this.disposed || this.startFailure !== null || (this.current !== null && !this.current.ended)) return;
    let running: Running;
    try {
      running = this.startWorker();
    } catch (err) {
      this.startFailure = err;
      return;
    }
    this.current = running;
    running.worker.unref();
    this.idleAfterUse(running);
  }

  read(format: OcctFormat, content: Uint8Array, context: OcctReadContext): Promise<OcctRemoteRead> {
    if (this.disposed) return Promise.reject(new Error('the OpenCascade worker was shut down'));
    if (context.signal?.aborted) return Promise.reject(abortedError(context.fileName));
    return new Promise<OcctRemoteRead>((resolve, reject) => {
      const stopWatching = watchAbort(context.signal, this.options.abortPollMs ?? DEFAULT_ABORT_POLL_MS, () => {
        const at = this.queue.indexOf(entry);
        if (at >= 0) {
          this.queue.splice(at, 1);
          this.stats.aborts++;
          reject(abortedError(context.fileName));
        }
      });
      const entry: Queued = {
        run: () => {
          stopWatching();
          this.readNow(format, content, context).then(resolve, reject).finally(() => {
            this.busy = false;
            this.next();
          });
        },
        cancel: (error) => {
          stopWatching();
          reject(error);
        },
      };
      this.queue.push(entry);
      this.next();
    });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const q of this.queue.splice(0)) q.cancel(new Error('the OpenCascade worker was shut down'));
    const running = this.current;
    this.current = null;
    if (running !== null) await this.end(running, new Error('the OpenCascade worker was shut down'));
  }

  private next(): void {
    if (this.busy) return;
    const entry = this.queue.shift();
    if (entry === undefined) return;
    this.busy = true;
    entry.run();
  }

  /** Starts a worker (throws when none can be created, e.g. its entry is missing). */
  private startWorker(): Running {
    const entry = this.options.entry ?? findOcctWorker();
    const data: OcctWorkerData = this.options.wasmPath !== undefined ? { wasmPath: this.options.wasmPath } : {};
    // The command line's launcher may have started this very worker already (./occtPrestart.ts).
    const plain = this.options.entry === undefined && this.options.wasmPath === undefined && this.options.resourceLimits === undefined;
    const pre = plain && entry.eval !== true ? adoptPrestartedWorker(entry.file) : null;
    const worker = pre?.worker ?? new Worker(entry.file, {
      eval: entry.eval ?? false,
      workerData: data,
      ...(this.options.resourceLimits ? { resourceLimits: this.options.resourceLimits } : {}),
    });
    this.stats.workersStarted++;
    if (pre !== null) this.stats.adopted++;
    let readyResolve!: () => void;
    let readyReject!: (e: Error) => void;
    const ready = new Promise<void>((res, rej) => {
      readyResolve = res;
      readyReject = rej;
    });
    ready.catch(() => undefined); // observed by the read that waits for it
    const running: Running = { worker, ready, pending: null, idleTimer: null, ended: false };
    let started = false;
    worker.on('message', (raw: unknown) => {
      const m = raw as OcctWorkerMessage;
      if (m === null || typeof m !== 'object') return;
      if (m.type === 'ready') {
        started = true;
        this.stats.lastInitMs = m.initMs;
        this.stats.firstReadyAtMs ??= performance.now();
        readyResolve();
      } else if (m.type === 'init-failed') {
        readyReject(new Error(`OpenCascade could not be initialised in its worker: ${m.message}`));
        void this.end(running, null);
      } else if ((m.type === 'result' || m.type === 'failed') && running.pending?.id === m.id) {
        const settle = running.pending.settle;
        running.pending = null;
        if (m.type === 'result') this.stats.readMs += m.readMs;
        if (m.type === 'result') settle({ ok: { result: m.result, output: m.output } });
        else settle({ error: new Error(`${m.message}${occtOutput(m.output)}`) });
      }
    });
    worker.on('error', (err: Error) => {
      const code = (err as { code?: unknown }).code;
      const failure = code === 'ERR_WORKER_OUT_OF_MEMORY' ? Object.assign(new Error('out of memory'), { outOfMemory: true }) : err;
      if (!started) readyReject(new Error(`the OpenCascade worker could not start: ${errorText(err)}`));
      this.fail(running, failure);
    });
    worker.on('exit', (code) => {
      running.ended = true;
      if (this.current === running) this.current = null;
      if (!started) readyReject(new Error(`the OpenCascade worker stopped while starting (exit code ${code})`));
      this.fail(running, new Error(`the OpenCascade worker stopped unexpectedly (exit code ${code})`));
    });
    if (pre !== null) {
      // What it said before it was adopted, in order, to the listeners above.
      pre.detach();
      for (const e of pre.events) {
        if (e.kind === 'message') worker.emit('message', e.value);
        else if (e.kind === 'error') worker.emit('error', e.error);
        else worker.emit('exit', e.code);
      }
    }
    return running;
  }

  private fail(running: Running, error: Error): void {
    const pending = running.pending;
    if (pending === null) return;
    running.pending = null;
    this.stats.crashes++;
    pending.settle({ error });
  }

  private async end(running: Running, error: Error | null): Promise<void> {
    if (this.current === running) this.current = null;
    if (running.idleTimer !== null) clearTimeout(running.idleTimer);
    if (error !== null && running.pending !== null) {
      const settle = running.pending.settle;
      running.pending = null;
      settle({ error });
    }
    running.pending = null;
    if (running.ended) return;
    running.ended = true;
    try {
      await running.worker.terminate();
    } catch {
      // already gone
    }
  }

  private async readNow(format: OcctFormat, content: Uint8Array, context: OcctReadContext): Promise<OcctRemoteRead> {
    const { fileName, signal } = context;
    if (signal?.aborted) {
      this.stats.aborts++;
      throw abortedError(fileName);
    }
    if (this.disposed) throw new Error('the OpenCascade worker was shut down');
    if (this.startFailure !== null) return this.inThread(format, content, context, this.startFailure);
    let running = this.current;
    if (running === null || running.ended) {
      try {
        running = this.startWorker();
      } catch (err) {
        this.startFailure = err;
        return this.inThread(format, content, context, err);
      }
      this.current = running;
    }
    if (running.idleTimer !== null) {
      clearTimeout(running.idleTimer);
      running.idleTimer = null;
    }
    running.worker.ref();
    try {
      try {
        await this.untilReady(running, context);
      } catch (err) {
        if (err instanceof ImportError) throw err;
        await this.end(running, null);
        this.startFailure = err;
        return this.inThread(format, content, context, err);
      }
      return await this.send(running, format, content, context);
    } finally {
      if (!running.ended) {
        running.worker.unref();
        this.idleAfterUse(running);
      }
    }
  }

  /** Ends the worker after idleMs without work. */
  private idleAfterUse(running: Running): void {
    const idleMs = this.options.idleMs ?? DEFAULT_IDLE_MS;
    if (!Number.isFinite(idleMs)) return;
    if (running.idleTimer !== null) clearTimeout(running.idleTimer);
    running.idleTimer = setTimeout(() => void this.end(running, null), idleMs);
    running.idleTimer.unref();
  }

  /** Waits for OpenCascade to be initialised in the worker, bounded by startTimeoutMs and the signal. */
  private untilReady(running: Running, context: OcctReadContext): Promise<void> {
    const limit = this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    return new Promise<void>((resolve, reject) => {
      let done = false;
      const finish = (f: () => void): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        stopWatching();
        f();
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`OpenCascade did not start in its worker within ${limit} ms`))), limit);
      const stopWatching = watchAbort(context.signal, this.options.abortPollMs ?? DEFAULT_ABORT_POLL_MS, () => finish(() => {
        this.stats.aborts++;
        void this.end(running, null);
        reject(abortedError(context.fileName));
      }));
      running.ready.then(() => finish(resolve), (err: unknown) => finish(() => reject(err instanceof Error ? err : new Error(String(err)))));
    });
  }

  /** Sends one read to a ready worker and waits for its answer, the time limit or the signal. */
  private send(running: Running, format: OcctFormat, content: Uint8Array, context: OcctReadContext): Promise<OcctRemoteRead> {
    const { fileName, signal, limits } = context;
    const id = this.nextId++;
    this.stats.reads++;
    return new Promise<OcctRemoteRead>((resolve, reject) => {
      let done = false;
      const finish = (f: () => void): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        stopWatching();
        f();
      };
      running.pending = {
        id,
        settle: (outcome) => finish(() => {
          if ('ok' in outcome) {
            resolve(outcome.ok);
            return;
          }
          const err = outcome.error as Error & { outOfMemory?: boolean };
          if (err.outOfMemory === true) {
            reject(new ImportError('too-large', fileName, `OpenCascade ran out of memory while reading this ${context.label} file`, { cause: err }));
          } else {
            reject(err);
          }
        }),
      };
      // A longer delay would fire at once (Node clamps it to 1 ms): beyond the longest timer, no limit.
      const timer = limits.cadTimeoutMs > MAX_TIMER_MS ? undefined : setTimeout(() => finish(() => {
        this.stats.timeouts++;
        this.log(`${fileName}: stopped OpenCascade after ${limits.cadTimeoutMs} ms (the CAD import time limit)`);
        running.pending = null;
        void this.end(running, null);
        reject(new ImportError('timeout', fileName, timeoutProblem(context.label, limits)));
      }), limits.cadTimeoutMs);
      const stopWatching = watchAbort(signal, this.options.abortPollMs ?? DEFAULT_ABORT_POLL_MS, () => finish(() => {
        this.stats.aborts++;
        running.pending = null;
        void this.end(running, null);
        reject(abortedError(fileName));
      }));
      // A copy the worker owns: the caller's bytes (perhaps a view of a larger buffer) stay intact.
      const copy = content.slice();
      const request: OcctWorkerRequest = { type: 'read', id, format, bytes: copy, params: context.params ?? null };
      try {
        running.worker.postMessage(request, [copy.buffer]);
      } catch (err) {
        finish(() => reject(err instanceof Error ? err : new Error(String(err))));
      }
    });
  }

  /** The fallback: this thread's OpenCascade, without a time limit. */
  private async inThread(format: OcctFormat, content: Uint8Array, context: OcctReadContext, why: unknown): Promise<OcctRemoteRead> {
    if ((this.options.fallback ?? 'in-thread') === 'fail') throw why instanceof Error ? why : new Error(String(why));
    const reason = errorText(why).split('\n')[0];
    if (this.stats.inThreadReads === 0) this.log(`reading CAD files in this thread, without a time limit: ${reason}`);
    this.stats.inThreadReads++;
    context.warnings.push(`OpenCascade read the file without a time limit: its worker thread could not be started (${reason})`);
    const module: OcctModule = await nodeOcctProvider();
    module.takeOutput?.();
    const params = context.params ?? null;
    const result: OcctResult = format === 'step' ? module.ReadStepFile(content, params)
      : format === 'iges' ? module.ReadIgesFile(content, params)
        : module.ReadBrepFile(content, params);
    return { result, output: module.takeOutput?.() ?? [] };
  }
}

/**
 * Calls `onAbort` once when the signal is aborted: through its 'abort' event when it has one, and
 * by polling `aborted` (every pollMs) otherwise. Returns the function that stops watching.
 */
function watchAbort(signal: OcctReadContext['signal'], pollMs: number, onAbort: () => void): () => void {
  if (signal === undefined) return () => undefined;
  let stopped = false;
  const fire = (): void => {
    if (stopped) return;
    stop();
    onAbort();
  };
  const target = signal as Partial<Pick<AbortSignal, 'addEventListener' | 'removeEventListener'>>;
  const evented = typeof target.addEventListener === 'function' && typeof target.removeEventListener === 'function';
  if (evented) target.addEventListener!('abort', fire);
  const poll = evented ? null : setInterval(() => {
    if (signal.aborted) fire();
  }, pollMs);
  poll?.unref();
  function stop(): void {
    stopped = true;
    if (evented) target.removeEventListener!('abort', fire);
    if (poll !== null) clearInterval(poll);
  }
  if (signal.aborted) fire();
  return stop;
}

function occtOutput(lines: readonly string[]): string {
  const cleaned = lines.map((l) => l.trim()).filter((l) => l !== '');
  return cleaned.length === 0 ? '' : ` (OpenCascade: ${cleaned.slice(0, 4).join('; ').slice(0, 400)})`;
}

const STAT_KEYS = ['workersStarted', 'reads', 'timeouts', 'aborts', 'crashes', 'inThreadReads', 'adopted', 'readMs'] as const;

/** Up to `workers` worker hosts, one read at a time each; see the module comment. */
class OcctWorkerPool implements OcctRemoteModule {
  readonly remote = true as const;
  readonly stats: OcctWorkerStats;
  private readonly hosts: OcctWorkerHost[] = [];

  constructor(private readonly options: OcctWorkerOptions, readonly workers: number) {
    const stats = {} as OcctWorkerStats;
    for (const key of STAT_KEYS) {
      Object.defineProperty(stats, key, { enumerable: true, get: () => this.hosts.reduce((n, h) => n + h.stats[key], 0) });
    }
    Object.defineProperty(stats, 'lastInitMs', {
      enumerable: true,
      get: () => this.hosts.reduce<number | null>((last, h) => h.stats.lastInitMs ?? last, null),
    });
    Object.defineProperty(stats, 'firstReadyAtMs', {
      enumerable: true,
      get: () => this.hosts.reduce<number | null>((first, h) => (h.stats.firstReadyAtMs !== null && (first === null || h.stats.firstReadyAtMs < first) ? h.stats.firstReadyAtMs : first), null),
    });
    this.stats = stats;
  }

  warm(): void {
    (this.hosts[0] ?? this.add()).warm();
  }

  read(format: OcctFormat, content: Uint8Array, context: OcctReadContext): Promise<OcctRemoteRead> {
    return this.pick().read(format, content, context);
  }

  async dispose(): Promise<void> {
    await Promise.all(this.hosts.map((h) => h.dispose()));
  }

  private pick(): OcctWorkerHost {
    const idle = this.hosts.find((h) => h.load === 0);
    if (idle !== undefined) return idle;
    if (this.hosts.length < this.workers) return this.add();
    return this.hosts.reduce((best, h) => (h.load < best.load ? h : best));
  }

  private add(): OcctWorkerHost {
    const host = new OcctWorkerHost(this.options);
    this.hosts.push(host);
    return host;
  }
}

/** A provider of its own: up to `options.workers` workers (default 1). */
export function createOcctWorkerProvider(options: OcctWorkerOptions = {}): OcctWorkerProvider {
  const workers = Math.max(1, Math.floor(options.workers ?? 1));
  const pool = new OcctWorkerPool(options, workers);
  const provider = (): Promise<OcctRemoteModule> => Promise.resolve(pool);
  return Object.assign(provider, { stats: pool.stats, workers, remote: true as const, warm: () => pool.warm(), dispose: () => pool.dispose() });
}

/** Workers of the process-wide provider: one per core, at most 4 (each OpenCascade instance holds its own memory). */
export const SHARED_OCCT_WORKERS = Math.min(4, Math.max(1, availableParallelism()));

let shared: OcctWorkerProvider | null = null;

/** The process-wide worker provider (created on first use). */
export function sharedOcctWorkerProvider(): OcctWorkerProvider {
  shared ??= createOcctWorkerProvider({ workers: SHARED_OCCT_WORKERS });
  return shared;
}
