/**
 * Builds the OBB trees of many meshes in child processes, one per core, so that neither the
 * Electron main process nor the CLI's event loop stalls on a build (a 500k-triangle part takes
 * about a second). Children run compute/treeWorker.ts and speak contract/compute.ts; trees come
 * back serialised and are deserialised here, never rebuilt.
 *
 * - Children start lazily, when a batch needs them, and stay for the next batch (unref'd while the
 *   pool is idle, so they never keep the process alive).
 * - The largest meshes go first, each to an idle child; overall progress is triangles of finished
 *   meshes over the batch's total.
 * - Cancelling (AbortSignal) drops the batch's queued meshes and kills every child busy on one of
 *   them — a synchronous build cannot be interrupted otherwise; a fresh child replaces it when
 *   next needed. The batch rejects with an error named 'AbortError' at once.
 * - A child that dies in the middle of a mesh is replaced and the mesh retried once; a second death
 *   fails the batch ("the tree-building process stopped unexpectedly (exit code …)").
 * - Small batches (below `inProcessBelowTriangles`, default 20,000 triangles, about 30 ms of
 *   building) are built in this process: starting a child costs more than that (100–150 ms to
 *   start here, and a fresh process's first build runs 150–250 ms slower until it is compiled).
 * - With a TreeCache, meshes already built once (same content, same leaf size) are read back
 *   instead (15–30 times faster than building); only the others are built.
 */
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMesh, MeshError, type TriangleMesh } from '../../src-core/geometry/mesh.js';
import { buildObbTree, DEFAULT_LEAF_SIZE } from '../../src-core/obbtree/build.js';
import type { ObbTree } from '../../src-core/obbtree/layout.js';
import { deserializeTree } from '../../src-core/obbtree/serialize.js';
import {
  COMPUTE_PROTOCOL_VERSION, parseChildMessage, readJobId, withPositions,
  type BuildRequest, type ComputeErrorCode, type ResultMessage,
} from '../contract/compute.js';
import { forkNodeChild, type ChildHandle, type ForkFn } from './spawn.js';
import { TreeCache } from './treeCache.js';
import { servicesModuleFile } from './moduleFile.js';

// ------------------------------------------------------------------------------------------------
// Public types

export interface TreeMeshInput {
  /** The caller's name for the mesh; keys the result map. Unique within a batch. */
  readonly meshId: string;
  /** x y z per vertex, millimetres. Shared with the returned tree, never modified. */
  readonly positions: Float64Array;
  /** Three vertex indices per triangle. */
  readonly indices: Uint32Array;
  /**
   * The same arrays as a mesh validated already (createMesh, at import): built in this process
   * as it is, not validated again. Without it the arrays are validated first.
   */
  readonly mesh?: TriangleMesh;
}

export interface BuildTreesOptions {
  /** Triangles of finished meshes and the batch's total; called with (0, total) first. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Aborting rejects the batch with an AbortError within one event-loop turn. */
  readonly signal?: AbortSignal;
}

/** How to start the tree-building child: its entry file and runtime flags. */
export interface TreeWorkerEntry {
  readonly file: string;
  readonly execArgv: readonly string[];
}

export interface TreePoolOptions {
  /** Most children at once (default os.availableParallelism()). */
  readonly size?: number;
  /** The child's entry (default findTreeWorker()). */
  readonly worker?: TreeWorkerEntry;
  /** How to start a child (default forkNodeChild; the Electron shell passes utilityProcess). */
  readonly fork?: ForkFn;
  /** Batches with fewer triangles in all are built in this process (default 20,000; 0 = never). */
  readonly inProcessBelowTriangles?: number;
  /** Most triangles per leaf, passed to buildObbTree (its default when absent). */
  readonly leafSize?: number;
  /** A child that has not reported ready by then is killed (default 30 s). */
  readonly startTimeoutMs?: number;
  /** Where refused messages, crashes and retries are reported (default console.warn). */
  readonly log?: (message: string) => void;
  /**
   * An on-disk tree cache: meshes found there are not built, built ones are stored (the batch
   * does not wait for the writes; `flush()` does).
   */
  readonly cache?: TreeCache;
}

export type TreeBuildErrorCode =
  | ComputeErrorCode
  /** A child died twice while building the mesh. */
  | 'crashed'
  /** No child could be started. */
  | 'start-failed'
  /** A child's answer was malformed or did not form the tree asked for. */
  | 'invalid-result'
  /** The pool was disposed before the batch finished. */
  | 'disposed';

export class TreeBuildError extends Error {
  override readonly name = 'TreeBuildError';
  constructor(
    readonly code: TreeBuildErrorCode,
    message: string,
    /** The mesh concerned, when there is one. */
    readonly meshId?: string,
  ) {
    super(message);
  }
}

/** A cancelled batch's rejection (the name AbortSignal users test for). */
export class AbortError extends Error {
  override readonly name = 'AbortError';
}

export interface TreePoolChildStatus {
  readonly pid: number | undefined;
  readonly state: 'starting' | 'idle' | 'busy';
  /** The mesh being built, when busy. */
  readonly meshId?: string;
}

export const DEFAULT_IN_PROCESS_BELOW_TRIANGLES = 20_000;
const DEFAULT_START_TIMEOUT_MS = 30_000;
/** Tries per mesh: the first, and one retry on a fresh child. */
const MAX_ATTEMPTS = 2;
/** Consecutive children that fail to start before the queued batches are failed. */
const MAX_START_FAILURES = 2;

// ------------------------------------------------------------------------------------------------
// Finding the child's entry

/**
 * The entry of a compute child (`treeWorker`: builds trees; `checkWorker`: runs checks), found
 * from `from` (default: this module's own file):
 * - running from the TypeScript sources: src-main/compute/<name>.ts under tsx;
 * - running from a bundle in dist/node/<folder>/: the bundled dist/node/compute/<name>.cjs
 *   (also looked for next to the bundle). Throws if no bundled entry is found.
 */
export function findComputeEntry(name: 'treeWorker' | 'checkWorker', from: string = servicesModuleFile()): TreeWorkerEntry {
  const dir = path.dirname(from);
  if (/\.[cm]?ts$/.test(from)) {
    const tsx = createRequire(from).resolve('tsx');
    return {
      file: path.resolve(dir, `../compute/${name}.ts`),
      execArgv: ['--import', pathToFileURL(tsx).href],
    };
  }
  const candidates = [
    path.resolve(dir, `../compute/${name}.cjs`),
    path.resolve(dir, `compute/${name}.cjs`),
    path.resolve(dir, `${name}.cjs`),
  ];
  const file = candidates.find((f) => existsSync(f));
  if (!file) throw new Error(`the bundled ${name === 'treeWorker' ? 'tree worker' : 'check worker'} is missing (looked for ${candidates.join(', ')})`);
  return { file, execArgv: [] };
}

/** The tree-building child's entry (findComputeEntry('treeWorker')). */
export function findTreeWorker(from: string = servicesModuleFile()): TreeWorkerEntry {
  return findComputeEntry('treeWorker', from);
}

// ------------------------------------------------------------------------------------------------
// The pool

interface Batch {
  readonly total: number;
  readonly trees: Map<string, ObbTree>;
  /** Triangles of finished meshes. */
  done: number;
  /** Triangles reported done by children, per unfinished job. */
  readonly partial: Map<number, number>;
  remaining: number;
  reported: number;
  settled: boolean;
  readonly onProgress: ((done: number, total: number) => void) | undefined;
  readonly resolve: (trees: Map<string, ObbTree>) => void;
  readonly reject: (error: Error) => void;
  readonly cleanup: () => void;
}

interface Job {
  readonly jobId: number;
  readonly meshId: string;
  readonly positions: Float64Array;
  readonly indices: Uint32Array;
  readonly triangles: number;
  readonly batch: Batch;
  attempts: number;
}

interface Child {
  readonly handle: ChildHandle;
  state: 'starting' | 'idle' | 'busy' | 'stopping';
  job: Job | null;
  startTimer: ReturnType<typeof setTimeout> | null;
  readonly exited: Promise<void>;
}

function describeExit(code: number | null, signal: string | null): string {
  return signal ? `exit code ${code ?? 'none'}, signal ${signal}` : `exit code ${code ?? 'none'}`;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function abortError(signal: AbortSignal): AbortError {
  return new AbortError('tree building was cancelled', { cause: signal.reason });
}

export class TreePool {
  /** Most children at once. */
  readonly size: number;
  private readonly fork: ForkFn;
  private readonly inProcessBelow: number;
  private readonly leafSize: number | undefined;
  private readonly startTimeoutMs: number;
  private readonly log: (message: string) => void;
  private worker: TreeWorkerEntry | undefined;

  /** Children that are starting, idle or busy. */
  private readonly children: Child[] = [];
  /** Children killed by the pool and not yet gone. */
  private readonly stopping = new Set<Child>();
  private queue: Job[] = [];
  private readonly batches = new Set<Batch>();
  private readonly readyWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  private nextJobId = 1;
  private startFailures = 0;
  /** Why the last child failed to start, for the error of the work that then cannot run. */
  private lastStartError: string | undefined;
  private disposed = false;
  private readonly cache: TreeCache | undefined;
  private readonly cacheWrites = new Set<Promise<void>>();

  constructor(options: TreePoolOptions = {}) {
    const size = options.size ?? availableParallelism();
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`pool size must be a positive integer, got ${size}`);
    this.size = size;
    this.fork = options.fork ?? forkNodeChild;
    this.inProcessBelow = options.inProcessBelowTriangles ?? DEFAULT_IN_PROCESS_BELOW_TRIANGLES;
    this.leafSize = options.leafSize;
    this.startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    this.log = options.log ?? ((m) => console.warn(`[treePool] ${m}`));
    this.worker = options.worker;
    this.cache = options.cache;
  }

  /**
   * The OBB tree of every mesh, keyed by meshId. Rejects with TypeError on malformed input, with
   * TreeBuildError when a mesh cannot be built (the whole batch fails: code and meshId say which),
   * with AbortError when cancelled.
   */
  buildTrees(meshes: readonly TreeMeshInput[], options: BuildTreesOptions = {}): Promise<Map<string, ObbTree>> {
    if (this.disposed) return Promise.reject(new TreeBuildError('disposed', 'the tree pool has been disposed'));
    const { signal, onProgress } = options;
    try {
      checkInput(meshes);
    } catch (e) {
      return Promise.reject(e);
    }
    if (signal?.aborted) return Promise.reject(abortError(signal));
    // A throwing progress callback is reported, never allowed to break the batch.
    const guarded: BuildTreesOptions = {
      signal,
      onProgress: onProgress && ((done, total) => {
        try {
          onProgress(done, total);
        } catch (e) {
          this.log(`onProgress threw: ${errorText(e)}`);
        }
      }),
    };
    return this.cache ? this.buildCached(this.cache, meshes, guarded) : this.build(meshes, guarded);
  }

  /** Waits for the cache writes of finished batches. */
  async flush(): Promise<void> {
    while (this.cacheWrites.size > 0) await Promise.all([...this.cacheWrites]);
  }

  private build(meshes: readonly TreeMeshInput[], options: BuildTreesOptions): Promise<Map<string, ObbTree>> {
    const { signal, onProgress } = options;
    let total = 0;
    for (const m of meshes) total += Math.floor(m.indices.length / 3);
    if (total < this.inProcessBelow || meshes.length === 0) return this.buildInProcess(meshes, total, options);

    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.failBatch(batch, abortError(signal as AbortSignal));
        this.dispatch();
      };
      const batch: Batch = {
        total, trees: new Map(), done: 0, partial: new Map(), remaining: meshes.length, reported: -1, settled: false,
        onProgress, resolve, reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.batches.add(batch);
      for (const m of meshes) {
        this.queue.push({
          jobId: this.nextJobId++, meshId: m.meshId, positions: m.positions, indices: m.indices,
          triangles: Math.floor(m.indices.length / 3), batch, attempts: 1,
        });
      }
      this.queue.sort((a, b) => b.triangles - a.triangles);
      this.reportProgress(batch);
      this.dispatch();
    });
  }

  /** Starts every child now (instead of at the first batch); resolves when they are ready. */
  warmUp(): Promise<void> {
    if (this.disposed) return Promise.reject(new TreeBuildError('disposed', 'the tree pool has been disposed'));
    while (this.children.length < this.size) {
      if (!this.spawn()) break;
    }
    if (!this.children.some((c) => c.state === 'starting')) {
      return this.children.length > 0 ? Promise.resolve() : Promise.reject(new TreeBuildError('start-failed', 'no tree-building process could be started'));
    }
    const ready = new Promise<void>((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
    this.updateRefs();
    return ready;
  }

  /** What each child is doing (for diagnostics and tests). */
  status(): TreePoolChildStatus[] {
    return this.children.map((c) => ({
      pid: c.handle.pid,
      state: c.state as TreePoolChildStatus['state'],
      ...(c.job ? { meshId: c.job.meshId } : {}),
    }));
  }

  /**
   * Fails unfinished batches (code 'disposed'), kills every child and resolves once all of them
   * have exited (and pending cache writes are done). The pool cannot be used afterwards.
   */
  async dispose(): Promise<void> {
    if (!this.disposed) {
      this.disposed = true;
      const error = new TreeBuildError('disposed', 'the tree pool has been disposed');
      for (const b of [...this.batches]) this.failBatch(b, error);
      for (const c of [...this.children]) this.stop(c);
      this.settleReadyWaiters();
    }
    await Promise.all([...this.stopping].map((c) => c.exited));
    await this.flush();
  }

  // ----------------------------------------------------------------------------------------------

  /** Reads what the cache has, builds the rest, stores what was built. */
  private async buildCached(cache: TreeCache, meshes: readonly TreeMeshInput[], options: BuildTreesOptions): Promise<Map<string, ObbTree>> {
    const { signal, onProgress } = options;
    let total = 0;
    for (const m of meshes) total += Math.floor(m.indices.length / 3);
    let reported = -1;
    const report = (done: number): void => {
      if (done === reported || !onProgress) return;
      reported = done;
      onProgress(done, total);
    };
    report(0);
    const leafSize = this.leafSize ?? DEFAULT_LEAF_SIZE;
    const found = await Promise.all(meshes.map(async (m) => {
      const key = await TreeCache.keyOf(m.positions, m.indices, leafSize);
      return { m, key, tree: await cache.get(key, m.positions, m.indices) };
    }));
    if (signal?.aborted) throw abortError(signal);
    if (this.disposed) throw new TreeBuildError('disposed', 'the tree pool has been disposed');
    let hit = 0;
    for (const f of found) if (f.tree) hit += Math.floor(f.m.indices.length / 3);
    report(hit);
    const missing = found.filter((f) => !f.tree);
    const built = missing.length === 0
      ? new Map<string, ObbTree>()
      : await this.build(missing.map((f) => f.m), { signal, onProgress: (done) => report(hit + done) });
    const trees = new Map<string, ObbTree>();
    for (const f of found) {
      const tree = f.tree ?? (built.get(f.m.meshId) as ObbTree);
      trees.set(f.m.meshId, tree);
      if (!f.tree) {
        const write = cache.put(f.key, tree).finally(() => this.cacheWrites.delete(write));
        this.cacheWrites.add(write);
      }
    }
    return trees;
  }

  private async buildInProcess(meshes: readonly TreeMeshInput[], total: number, options: BuildTreesOptions): Promise<Map<string, ObbTree>> {
    const { signal, onProgress } = options;
    // Callers get their promise before any progress call or build.
    await new Promise((r) => setImmediate(r));
    const trees = new Map<string, ObbTree>();
    let done = 0;
    onProgress?.(0, total);
    for (const m of meshes) {
      if (signal?.aborted) throw abortError(signal);
      if (this.disposed) throw new TreeBuildError('disposed', 'the tree pool has been disposed');
      let mesh: TriangleMesh;
      try {
        mesh = m.mesh ?? createMesh(m.positions, m.indices);
      } catch (e) {
        throw new TreeBuildError('invalid-mesh', `mesh '${m.meshId}': ${e instanceof MeshError ? e.message : String(e)}`, m.meshId);
      }
      try {
        trees.set(m.meshId, buildObbTree(mesh, this.leafSize === undefined ? {} : { leafSize: this.leafSize }));
      } catch (e) {
        throw new TreeBuildError('build-failed', `mesh '${m.meshId}': ${errorText(e)}`, m.meshId);
      }
      done += mesh.triangleCount;
      onProgress?.(done, total);
    }
    return trees;
  }

  /** Hands queued jobs to idle children and starts children while jobs wait and room is left. */
  private dispatch(): void {
    if (this.disposed) return;
    for (const child of this.children) {
      if (this.queue.length === 0) break;
      if (child.state === 'idle') this.assign(child, this.queue.shift() as Job);
    }
    const starting = this.children.filter((c) => c.state === 'starting').length;
    let wanted = Math.min(this.queue.length - starting, this.size - this.children.length);
    if (this.startFailures >= MAX_START_FAILURES) wanted = 0;
    for (; wanted > 0; wanted--) {
      if (!this.spawn()) break;
    }
    if (this.queue.length > 0 && this.children.length === 0) {
      // Nothing can serve the queue: the last children failed to start.
      this.startFailures = 0;
      this.failQueued(new TreeBuildError('start-failed', this.lastStartError ?? 'no tree-building process could be started'));
    }
    this.updateRefs();
  }

  /** Starts one child; false (and the reason in lastStartError) if it cannot be started. */
  private spawn(): boolean {
    let handle: ChildHandle;
    try {
      this.worker ??= findTreeWorker();
      handle = this.fork({ file: this.worker.file, execArgv: this.worker.execArgv, name: 'Interfere tree builder' });
    } catch (e) {
      this.lastStartError = `cannot start a tree-building process: ${errorText(e)}`;
      this.log(this.lastStartError);
      this.startFailures = MAX_START_FAILURES;
      return false;
    }
    let exited!: () => void;
    const child: Child = {
      handle, state: 'starting', job: null, startTimer: null,
      exited: new Promise<void>((r) => { exited = r; }),
    };
    handle.on('message', (message) => {
      try {
        this.onMessage(child, message);
      } catch (e) {
        this.log(`tree-building process ${handle.pid}: message handling failed: ${errorText(e)}`);
      }
    });
    handle.on('exit', (code, signal) => {
      exited();
      this.onExit(child, code, signal);
    });
    child.startTimer = setTimeout(() => {
      this.startFailed(child, `it did not report ready within ${this.startTimeoutMs} ms`);
    }, this.startTimeoutMs);
    child.startTimer.unref?.();
    this.children.push(child);
    return true;
  }

  private assign(child: Child, job: Job): void {
    child.state = 'busy';
    child.job = job;
    const request: BuildRequest = {
      type: 'build', jobId: job.jobId, meshId: job.meshId, positions: job.positions, indices: job.indices,
      options: this.leafSize === undefined ? {} : { leafSize: this.leafSize },
    };
    try {
      child.handle.postMessage(request);
    } catch (e) {
      child.state = 'idle';
      child.job = null;
      this.failBatch(job.batch, new TreeBuildError('build-failed', `mesh '${job.meshId}' could not be sent: ${errorText(e)}`, job.meshId));
    }
  }

  private onMessage(child: Child, raw: unknown): void {
    if (child.state === 'stopping') return;
    const pid = child.handle.pid;
    const parsed = parseChildMessage(raw);
    if (!parsed.ok) {
      this.log(`tree-building process ${pid}: refused a message: ${parsed.reason}`);
      // A malformed answer to the job in hand would leave it waiting forever: fail it instead.
      const answer = typeof raw === 'object' && raw !== null && ['result', 'error'].includes((raw as { type?: unknown }).type as string);
      const job = child.job;
      if (answer && job && readJobId(raw) === job.jobId) {
        this.stop(child);
        this.failBatch(job.batch, new TreeBuildError('invalid-result', `mesh '${job.meshId}': the tree-building process sent a malformed answer (${parsed.reason})`, job.meshId));
        this.dispatch();
      }
      return;
    }
    const msg = parsed.value;
    if (msg.type === 'ready') {
      if (child.state !== 'starting') {
        this.log(`tree-building process ${pid}: refused a second 'ready'`);
        return;
      }
      if (msg.protocol !== COMPUTE_PROTOCOL_VERSION) {
        this.startFailed(child, `it speaks protocol ${msg.protocol}, not ${COMPUTE_PROTOCOL_VERSION} (a stale bundle?)`);
        return;
      }
      this.clearStartTimer(child);
      child.state = 'idle';
      this.startFailures = 0;
      this.dispatch();
      this.settleReadyWaiters();
      return;
    }
    const job = child.job;
    if (!job || job.jobId !== msg.jobId) {
      this.log(`tree-building process ${pid}: refused a '${msg.type}' for job ${msg.jobId}, which it is not working on`);
      return;
    }
    if (msg.type === 'progress') {
      job.batch.partial.set(job.jobId, Math.min(msg.done, job.triangles));
      this.reportProgress(job.batch);
      return;
    }
    child.state = 'idle';
    child.job = null;
    if (msg.type === 'error') {
      this.failBatch(job.batch, new TreeBuildError(msg.code, msg.message, job.meshId));
    } else {
      let tree: ObbTree;
      try {
        tree = this.acceptResult(job, msg);
      } catch (e) {
        // A child that sends nonsense is not trusted with another job.
        this.stop(child);
        this.failBatch(job.batch, new TreeBuildError('invalid-result', `mesh '${job.meshId}': the tree-building process sent an unusable tree (${errorText(e)})`, job.meshId));
        this.dispatch();
        return;
      }
      this.complete(job, tree);
    }
    this.dispatch();
  }

  private acceptResult(job: Job, msg: ResultMessage): ObbTree {
    if (msg.meshId !== job.meshId) throw new Error(`result names mesh '${msg.meshId}'`);
    if (msg.tree.triangleCount !== job.triangles || msg.tree.vertexCount !== job.positions.length / 3) {
      throw new Error(`tree has ${msg.tree.triangleCount} triangles and ${msg.tree.vertexCount} vertices, the mesh ${job.triangles} and ${job.positions.length / 3}`);
    }
    const tree = deserializeTree(withPositions(msg.tree, job.positions));
    if (tree.kind !== 'obb') throw new Error(`tree is of kind ${tree.kind}`);
    return tree;
  }

  private complete(job: Job, tree: ObbTree): void {
    const batch = job.batch;
    if (batch.settled) return;
    batch.trees.set(job.meshId, tree);
    batch.done += job.triangles;
    batch.partial.delete(job.jobId);
    batch.remaining--;
    this.reportProgress(batch);
    if (batch.remaining === 0) {
      this.settle(batch);
      batch.resolve(batch.trees);
    }
  }

  private onExit(child: Child, code: number | null, signal: string | null): void {
    this.clearStartTimer(child);
    this.stopping.delete(child);
    const i = this.children.indexOf(child);
    if (i < 0) return; // stopped by the pool
    this.children.splice(i, 1);
    const how = describeExit(code, signal);
    const pid = child.handle.pid;
    if (child.state === 'starting') {
      this.startFailed(child, `it stopped while starting (${how})`);
      return;
    }
    const job = child.job;
    if (child.state === 'busy' && job) {
      if (job.attempts < MAX_ATTEMPTS) {
        job.attempts++;
        this.log(`tree-building process ${pid} stopped unexpectedly (${how}) while building mesh '${job.meshId}'; retrying on a fresh process`);
        this.queue.unshift(job);
      } else {
        this.failBatch(job.batch, new TreeBuildError(
          'crashed',
          `the tree-building process stopped unexpectedly (${how}) while building mesh '${job.meshId}', twice`,
          job.meshId,
        ));
      }
    } else {
      this.log(`idle tree-building process ${pid} stopped unexpectedly (${how})`);
    }
    this.dispatch();
  }

  /** A child that did not come up: counted; after MAX_START_FAILURES in a row, waiting work fails. */
  private startFailed(child: Child, reason: string): void {
    this.lastStartError = `the tree-building process could not start: ${reason}`;
    this.log(`${this.lastStartError} (${this.worker?.file ?? 'no worker'})`);
    if (child.state !== 'stopping' && this.children.includes(child)) this.stop(child);
    this.startFailures++;
    this.dispatch();
    this.settleReadyWaiters();
  }

  private clearStartTimer(child: Child): void {
    if (child.startTimer !== null) clearTimeout(child.startTimer);
    child.startTimer = null;
  }

  /** Kills a child the pool no longer wants; its exit then goes unremarked. */
  private stop(child: Child): void {
    this.clearStartTimer(child);
    const i = this.children.indexOf(child);
    if (i >= 0) this.children.splice(i, 1);
    child.state = 'stopping';
    child.job = null;
    this.stopping.add(child);
    // Kept referenced until it has exited, so that dispose() can wait for that.
    child.handle.ref?.();
    child.handle.kill();
  }

  /** Rejects a batch: its queued jobs are dropped and children busy on its jobs killed. */
  private failBatch(batch: Batch, error: Error): void {
    if (batch.settled) return;
    this.queue = this.queue.filter((j) => j.batch !== batch);
    for (const c of [...this.children]) if (c.job?.batch === batch) this.stop(c);
    this.settle(batch);
    batch.reject(error);
  }

  private failQueued(error: Error): void {
    for (const b of new Set(this.queue.map((j) => j.batch))) this.failBatch(b, error);
  }

  private settle(batch: Batch): void {
    batch.settled = true;
    batch.cleanup();
    this.batches.delete(batch);
    this.updateRefs();
  }

  private reportProgress(batch: Batch): void {
    let done = batch.done;
    for (const d of batch.partial.values()) done += d;
    if (done === batch.reported || !batch.onProgress) return;
    batch.reported = done;
    batch.onProgress(done, batch.total);
  }

  private settleReadyWaiters(): void {
    if (this.children.some((c) => c.state === 'starting')) return;
    const healthy = this.children.length > 0;
    for (const w of this.readyWaiters.splice(0)) {
      if (healthy) w.resolve();
      else w.reject(new TreeBuildError(this.disposed ? 'disposed' : 'start-failed', this.disposed ? 'the tree pool has been disposed' : this.lastStartError ?? 'no tree-building process could be started'));
    }
    this.updateRefs();
  }

  /** Children keep the process alive only while the pool has work (or a warm-up) pending. */
  private updateRefs(): void {
    const active = this.batches.size > 0 || this.readyWaiters.length > 0;
    for (const c of this.children) {
      if (active) c.handle.ref?.();
      else c.handle.unref?.();
    }
  }
}

function checkInput(meshes: readonly TreeMeshInput[]): void {
  if (!Array.isArray(meshes)) throw new TypeError('buildTrees expects an array of meshes');
  const seen = new Set<string>();
  for (const [i, m] of meshes.entries()) {
    if (typeof m !== 'object' || m === null) throw new TypeError(`mesh ${i} is not an object`);
    if (typeof m.meshId !== 'string') throw new TypeError(`mesh ${i}: meshId must be a string`);
    if (seen.has(m.meshId)) throw new TypeError(`mesh id '${m.meshId}' appears twice`);
    seen.add(m.meshId);
    if (!(m.positions instanceof Float64Array)) throw new TypeError(`mesh '${m.meshId}': positions must be a Float64Array`);
    if (!(m.indices instanceof Uint32Array)) throw new TypeError(`mesh '${m.meshId}': indices must be a Uint32Array`);
  }
}
