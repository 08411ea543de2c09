/**
 * Checks in a compute child: the CheckRunner (./checkRunner.ts) the host service uses, so that the
 * process that owns windows, menus and dialogs (Electron's main process) never runs a check, a
 * pair query or a manifold boolean. The child is compute/checkWorker.ts, started like the tree
 * builders (./spawn.ts: child_process.fork in Node, the bridge and tests; utilityProcess in the
 * app through ../main/utilitySpawn.ts); they speak contract/compute.ts "The check child".
 *
 * - One child, started on first use and kept (unref'd while idle, so it never keeps the process
 *   alive). It keeps each document's bodies: a body is sent once per child, before the first
 *   request that needs it; `forget` drops a closed document's.
 * - Refinement: the child asks for each finer CAD body (`refine`); it is made here by the caller's
 *   Refiner (./refiner.ts: reads the file again in the host, builds the tree on the tree pool) and
 *   sent back; the child keeps it with the document.
 * - Cancel: the check's promise rejects (AbortError) at once and a `cancel` goes to the child,
 *   which stops at its next pair. A child that has not answered within `cancelGraceMs` (a single
 *   manifold boolean cannot be interrupted) is killed; the requests of others it had in hand go
 *   to a fresh child, the bodies sent again.
 * - Crash: a child that stops unexpectedly fails the requests it had with CheckChildError
 *   'crashed' (the host's `compute-crashed`); the next request starts a fresh child.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { z } from 'zod';
import { CheckLimitError } from '../../src-core/check/check.js';
import type { RefinedBody, Refiner } from '../../src-core/check/refine.js';
import type { CheckProgress, CheckResult } from '../../src-core/check/types.js';
import { serializeTree } from '../../src-core/obbtree/serialize.js';
import {
  CHECK_PROTOCOL_VERSION, CheckChildToParentSchema, OverlapSolidSchema, PairHitsSchema, PairTraceSchema, withoutPositions, zodReason,
  type BodyPayload, type CheckChildToParent, type OverlapSolid, type PairHits, type PairTrace, type ParentToCheckChild,
} from '../contract/compute.js';
import type { CheckBody, CheckRunner, PlacedBody, RunCheckInput, RunCheckOptions } from './checkRunner.js';
import { forkNodeChild, type ChildHandle, type ForkFn } from './spawn.js';
import { findComputeEntry, type TreeWorkerEntry } from './treePool.js';

export type CheckChildErrorCode =
  /** The child stopped unexpectedly while it had the request. */
  | 'crashed'
  /** No child could be started. */
  | 'start-failed'
  /** The runner was disposed. */
  | 'disposed'
  /** The child's answer did not parse. */
  | 'invalid-result'
  /** The child refused the request, or failed computing it. */
  | 'invalid-request' | 'unknown-body' | 'failed';

export class CheckChildError extends Error {
  override readonly name = 'CheckChildError';
  constructor(readonly code: CheckChildErrorCode, message: string) {
    super(message);
  }
}

export interface ChildCheckRunnerOptions {
  /** How to start the child (default forkNodeChild; the app passes utilityProcess). */
  readonly fork?: ForkFn;
  /** The child's entry (default findComputeEntry('checkWorker')). */
  readonly worker?: TreeWorkerEntry;
  /** How long a cancelled request may run on before the child is killed (default 500 ms). */
  readonly cancelGraceMs?: number;
  /** A child that has not reported ready by then is killed (default 30 s). */
  readonly startTimeoutMs?: number;
  readonly log?: (message: string) => void;
}

export const DEFAULT_CANCEL_GRACE_MS = 500;
const DEFAULT_START_TIMEOUT_MS = 30_000;

interface Child {
  readonly handle: ChildHandle;
  readonly ready: Promise<void>;
  /** What is sent to it, in order: bodies, then the request that needs them (see dispatch). */
  outbox: Promise<void>;
  /** Bodies sent, by document. */
  readonly sent: Map<string, Set<string>>;
  state: 'starting' | 'ready' | 'gone';
  /** Killed by the runner (cancel grace, dispose): its other requests are retried, not failed. */
  killed: boolean;
}

interface Pending {
  readonly jobId: number;
  readonly docId: string;
  readonly bodies: readonly CheckBody[];
  readonly message: ParentToCheckChild;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  /** Validates the answer (queries) or the result (checks). */
  readonly accept: (msg: CheckChildToParent) => unknown;
  readonly onProgress?: (p: CheckProgress) => void;
  readonly refiner?: Refiner | null;
  readonly signal?: AbortSignal;
  child: Child | null;
  /** The request has been sent to `child` (not just queued behind its bodies). */
  posted: boolean;
  retried: boolean;
}

function describeExit(code: number | null, signal: string | null): string {
  return signal ? `exit code ${code ?? 'none'}, signal ${signal}` : `exit code ${code ?? 'none'}`;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function abortError(): Error {
  const e = new Error('the check was cancelled');
  e.name = 'AbortError';
  return e;
}

/** A typed array on a buffer of its own (structured clone sends a view's whole buffer). */
function own<T extends Float64Array | Float32Array | Uint32Array | Int8Array>(a: T): T {
  return a.byteOffset === 0 && a.byteLength === a.buffer.byteLength ? a : (a.slice() as T);
}

/** A body as it crosses to the child: its arrays, and its tree without the positions (the mesh's). */
export function bodyPayload(key: string, b: Omit<CheckBody, 'key'>): BodyPayload {
  return {
    key,
    positions: own(b.mesh.positions),
    indices: own(b.mesh.indices),
    tree: withoutPositions(serializeTree(b.tree)) as BodyPayload['tree'],
    chordErrorMm: b.chordErrorMm && own(b.chordErrorMm),
    chordSide: b.chordSide && own(b.chordSide),
    faceRanges: b.faceRanges && own(b.faceRanges),
    surfaces: b.surfaces ? { records: own(b.surfaces.records), residualMm: own(b.surfaces.residualMm) } : null,
  };
}

function placed(p: PlacedBody): { id: string; bodyKey: string; transform: Float64Array } {
  return { id: p.id, bodyKey: p.body.key, transform: own(Float64Array.from(p.transform)) };
}

export class ChildCheckRunner implements CheckRunner {
  readonly kind = 'child';
  private readonly fork: ForkFn;
  private worker: TreeWorkerEntry | undefined;
  private readonly cancelGraceMs: number;
  private readonly startTimeoutMs: number;
  private readonly log: (message: string) => void;
  private child: Child | null = null;
  private readonly pending = new Map<number, Pending>();
  /** Cancelled requests whose child has not answered yet, with their grace timers. */
  private readonly cancelling = new Map<number, { child: Child; timer: ReturnType<typeof setTimeout> }>();
  private readonly gone = new Set<Promise<void>>();
  private nextJobId = 1;
  private disposed = false;

  constructor(options: ChildCheckRunnerOptions = {}) {
    this.fork = options.fork ?? forkNodeChild;
    this.worker = options.worker;
    this.cancelGraceMs = options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS;
    this.startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    this.log = options.log ?? ((m) => console.warn(`[checks] ${m}`));
  }

  runCheck(input: RunCheckInput, options: RunCheckOptions = {}): Promise<CheckResult> {
    const bodies = new Map<string, CheckBody>();
    for (const p of input.parts) bodies.set(p.body.key, p.body);
    const jobId = this.nextJobId++;
    return this.request({
      jobId, docId: input.docId, bodies: [...bodies.values()],
      message: {
        type: 'check', jobId, docId: input.docId,
        parts: input.parts.map((p) => ({ ...placed(p), name: p.name, refine: p.refine })),
        settings: { ...input.settings },
        ignore: input.ignore.map((r) => ({ a: r.a, b: r.b, ...(r.reason !== undefined ? { reason: r.reason } : {}) })),
        scope: input.scope ?? { kind: 'all' },
        refine: options.refiner ? { limits: { ...options.refineLimits } } : null,
      } as ParentToCheckChild,
      accept: (msg) => {
        if (msg.type !== 'checked') throw new Error(`a '${msg.type}' answers a check`);
        return msg.result;
      },
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      refiner: options.refiner ?? null,
      ...(options.signal ? { signal: options.signal } : {}),
    }) as Promise<CheckResult>;
  }

  pairHits(docId: string, a: PlacedBody, b: PlacedBody, withinMm: number | null, depth = false): Promise<PairHits> {
    const jobId = this.nextJobId++;
    return this.query(PairHitsSchema, { type: 'pair', jobId, docId, a: placed(a), b: placed(b), withinMm, depth }, [a.body, b.body]);
  }

  pairTrace(docId: string, a: PlacedBody, b: PlacedBody, limits: { maxDepth?: number; maxBoxes?: number }): Promise<PairTrace> {
    const jobId = this.nextJobId++;
    return this.query(PairTraceSchema, {
      type: 'trace', jobId, docId, a: placed(a), b: placed(b),
      ...(limits.maxDepth !== undefined ? { maxDepth: limits.maxDepth } : {}), ...(limits.maxBoxes !== undefined ? { maxBoxes: limits.maxBoxes } : {}),
    }, [a.body, b.body]);
  }

  overlap(docId: string, a: PlacedBody, b: PlacedBody): Promise<OverlapSolid> {
    const jobId = this.nextJobId++;
    return this.query(OverlapSolidSchema, { type: 'overlap', jobId, docId, a: placed(a), b: placed(b) }, [a.body, b.body]);
  }

  forget(docId: string): void {
    const child = this.child;
    if (!child || !child.sent.has(docId)) return;
    child.sent.delete(docId);
    child.outbox = child.outbox.then(() => this.post(child, { type: 'forget', docId }));
  }

  /** The child's process id, while there is one (tests and diagnostics). */
  get pid(): number | undefined {
    return this.child?.handle.pid;
  }

  /** Fails what is pending ('disposed'), kills the child and resolves once it has exited. */
  async dispose(): Promise<void> {
    if (!this.disposed) {
      this.disposed = true;
      for (const p of [...this.pending.values()]) this.settle(p, new CheckChildError('disposed', 'the check process was stopped: the host is shutting down'));
      if (this.child) this.kill(this.child);
    }
    await Promise.all([...this.gone]);
  }

  // ----------------------------------------------------------------------------------------------

  private query<S extends z.ZodType>(schema: S, message: ParentToCheckChild & { jobId: number; docId: string }, bodies: CheckBody[]): Promise<z.output<S>> {
    return this.request({
      jobId: message.jobId, docId: message.docId, bodies, message,
      accept: (msg) => {
        if (msg.type !== 'answer') throw new Error(`a '${msg.type}' answers a '${message.type}' query`);
        const parsed = schema.safeParse(msg.answer);
        if (!parsed.success) throw new Error(zodReason(parsed.error));
        return parsed.data;
      },
    }) as Promise<z.output<S>>;
  }

  private request(spec: Omit<Pending, 'resolve' | 'reject' | 'child' | 'posted' | 'retried'>): Promise<unknown> {
    if (this.disposed) return Promise.reject(new CheckChildError('disposed', 'the check process was stopped: the host is shutting down'));
    if (spec.signal?.aborted) return Promise.reject(abortError());
    return new Promise((resolve, reject) => {
      let cleanup = (): void => {};
      const p: Pending = {
        ...spec, child: null, posted: false, retried: false,
        resolve: (v) => { cleanup(); resolve(v); },
        reject: (e) => { cleanup(); reject(e); },
      };
      this.pending.set(p.jobId, p);
      const signal = p.signal;
      if (signal) {
        const onAbort = (): void => this.cancel(p);
        signal.addEventListener('abort', onAbort, { once: true });
        cleanup = () => signal.removeEventListener('abort', onAbort);
      }
      this.dispatch(p);
    });
  }

  /** Sends a request (and the bodies it needs that the child lacks) once the child is ready. */
  private dispatch(p: Pending): void {
    let child: Child;
    try {
      child = this.ensureChild();
    } catch (e) {
      this.settle(p, new CheckChildError('start-failed', `the check process could not be started: ${errorText(e)}`));
      return;
    }
    p.child = child;
    p.posted = false;
    this.updateRefs();
    // One message per body, the event loop let run between them: serialising a large body's
    // arrays blocks this process while it lasts (tens of milliseconds per 100,000 triangles).
    // Sends go through the child's outbox, so a request never overtakes the bodies it needs.
    child.outbox = child.outbox.then(async () => {
      if (p.child !== child || !this.pending.has(p.jobId)) return;
      let sent = child.sent.get(p.docId);
      if (!sent) child.sent.set(p.docId, (sent = new Set()));
      for (const b of p.bodies) {
        if (sent.has(b.key)) continue;
        sent.add(b.key);
        this.post(child, { type: 'bodies', docId: p.docId, bodies: [bodyPayload(b.key, b)] });
        await nextTurn();
      }
      if (p.child !== child || !this.pending.has(p.jobId)) return;
      this.post(child, p.message);
      p.posted = true;
    });
  }

  private post(child: Child, message: ParentToCheckChild): void {
    if (child.state === 'gone') return;
    child.handle.postMessage(message);
  }

  private ensureChild(): Child {
    if (this.child && this.child.state !== 'gone') return this.child;
    this.worker ??= findComputeEntry('checkWorker');
    const handle = this.fork({ file: this.worker.file, execArgv: this.worker.execArgv, name: 'Interfere checks' });
    let ready!: () => void;
    let notReady!: (e: Error) => void;
    const child: Child = {
      handle, sent: new Map(), state: 'starting', killed: false,
      ready: new Promise<void>((resolve, reject) => { ready = resolve; notReady = reject; }),
      outbox: Promise.resolve(),
    };
    // Nothing is sent before the child is ready; a child that never is settles its requests on exit.
    child.outbox = child.ready.catch(() => {});
    let exited!: () => void;
    const gone = new Promise<void>((r) => { exited = r; });
    this.gone.add(gone);
    const startTimer = setTimeout(() => {
      if (child.state !== 'starting') return;
      this.log(`the check process ${handle.pid ?? ''} did not report ready within ${this.startTimeoutMs} ms`);
      this.failChild(child, new CheckChildError('start-failed', `the check process did not start within ${this.startTimeoutMs} ms`));
      this.kill(child);
    }, this.startTimeoutMs);
    startTimer.unref?.();
    handle.on('message', (raw) => {
      try {
        this.onMessage(child, raw, ready, notReady);
      } catch (e) {
        this.log(`check process ${handle.pid}: message handling failed: ${errorText(e)}`);
      }
    });
    handle.on('exit', (code, signal) => {
      clearTimeout(startTimer);
      this.gone.delete(gone);
      exited();
      const wasStarting = child.state === 'starting';
      child.state = 'gone';
      notReady(new Error('the check process stopped'));
      if (this.child === child) this.child = null;
      for (const [jobId, c] of this.cancelling) {
        if (c.child !== child) continue;
        clearTimeout(c.timer);
        this.cancelling.delete(jobId);
      }
      const how = describeExit(code, signal);
      if (child.killed) {
        // Killed on purpose: what it had in hand goes to a fresh child, once.
        for (const p of [...this.pending.values()]) {
          if (p.child !== child) continue;
          if (p.retried || this.disposed) this.settle(p, new CheckChildError('crashed', `the check process was stopped (${how}) twice while it had this request`));
          else {
            p.retried = true;
            this.dispatch(p);
          }
        }
      } else {
        const what = wasStarting ? 'could not start' : 'stopped unexpectedly';
        this.log(`the check process ${handle.pid ?? ''} ${what} (${how})`);
        this.failChild(child, new CheckChildError(wasStarting ? 'start-failed' : 'crashed', `the check process ${what} (${how})`));
      }
      this.updateRefs();
    });
    this.child = child;
    return child;
  }

  private failChild(child: Child, error: CheckChildError): void {
    for (const p of [...this.pending.values()]) if (p.child === child) this.settle(p, error);
  }

  private kill(child: Child): void {
    child.killed = true;
    child.handle.ref?.();
    child.handle.kill();
  }

  private onMessage(child: Child, raw: unknown, ready: () => void, notReady: (e: Error) => void): void {
    if (child.state === 'gone') return;
    const parsed = CheckChildToParentSchema.safeParse(raw);
    if (!parsed.success) {
      const reason = zodReason(parsed.error);
      this.log(`check process ${child.handle.pid}: refused a message: ${reason}`);
      const jobId = (raw as { jobId?: unknown } | null)?.jobId;
      const p = typeof jobId === 'number' ? this.pending.get(jobId) : undefined;
      if (p && p.child === child) this.settle(p, new CheckChildError('invalid-result', `the check process sent a malformed answer (${reason})`));
      return;
    }
    const msg = parsed.data;
    if (msg.type === 'ready') {
      if (child.state !== 'starting') return;
      if (msg.protocol !== CHECK_PROTOCOL_VERSION) {
        const error = new CheckChildError('start-failed', `the check process speaks protocol ${msg.protocol}, not ${CHECK_PROTOCOL_VERSION} (a stale bundle?)`);
        this.log(error.message);
        notReady(error);
        this.failChild(child, error);
        this.kill(child);
        return;
      }
      child.state = 'ready';
      ready();
      return;
    }
    const cancelled = this.cancelling.get(msg.jobId);
    if (cancelled && cancelled.child === child && (msg.type === 'checked' || msg.type === 'answer' || msg.type === 'failed')) {
      clearTimeout(cancelled.timer);
      this.cancelling.delete(msg.jobId);
      this.updateRefs();
      return;
    }
    const p = this.pending.get(msg.jobId);
    if (!p || p.child !== child) return; // cancelled, or retried elsewhere
    switch (msg.type) {
      case 'progress':
        try {
          p.onProgress?.({ phase: msg.phase, done: msg.done, total: msg.total });
        } catch (e) {
          this.log(`onProgress threw: ${errorText(e)}`);
        }
        return;
      case 'refine':
        void this.refine(child, p, msg);
        return;
      case 'failed':
        this.settle(p, this.failureOf(msg));
        return;
      default: {
        let value: unknown;
        try {
          value = p.accept(msg);
        } catch (e) {
          this.settle(p, new CheckChildError('invalid-result', `the check process sent an unusable answer (${errorText(e)})`));
          return;
        }
        this.settle(p, null, value);
      }
    }
  }

  /** A refined body the child asked for, made by the caller's refiner and sent back. */
  private async refine(child: Child, p: Pending, msg: Extract<CheckChildToParent, { type: 'refine' }>): Promise<void> {
    let body: RefinedBody | null = null;
    let error: string | null = null;
    try {
      if (!p.refiner) throw new Error('this check does not refine');
      body = await p.refiner.body(msg.sourceKey, msg.bodyIndex, msg.deflectionMm, p.signal);
    } catch (e) {
      error = errorText(e);
    }
    if (p.child !== child || !this.pending.has(p.jobId)) return;
    this.post(child, {
      type: 'refined', jobId: p.jobId, requestId: msg.requestId, error,
      body: body ? { ...bodyPayload(`${msg.sourceKey}#${msg.bodyIndex}@${msg.deflectionMm}`, {
        mesh: body.mesh, tree: body.tree, chordErrorMm: body.chordErrorMm, chordSide: body.chordSide,
        faceRanges: body.faceRanges ?? null, surfaces: body.surfaces ?? null,
      }), deflectionMm: body.deflectionMm } : null,
    });
  }

  private failureOf(msg: Extract<CheckChildToParent, { type: 'failed' }>): Error {
    if (msg.code === 'cancelled') return abortError();
    if (msg.code === 'too-many-pairs' && msg.limit) return new CheckLimitError(msg.limit.pairs, msg.limit.limit, msg.limit.exact);
    return new CheckChildError(msg.code === 'too-many-pairs' ? 'failed' : msg.code, msg.message);
  }

  /** A cancelled request: rejected now; its child told, and killed unless it answers within the grace period. */
  private cancel(p: Pending): void {
    if (!this.pending.has(p.jobId)) return;
    const child = p.child;
    this.settle(p, abortError());
    // Not sent yet (the child starting, or its bodies still going): it never will be.
    if (!child || child.state === 'gone' || !p.posted) return;
    this.post(child, { type: 'cancel', jobId: p.jobId });
    const timer = setTimeout(() => {
      this.cancelling.delete(p.jobId);
      if (child.state === 'gone') return;
      this.log(`the check process ${child.handle.pid ?? ''} did not stop within ${this.cancelGraceMs} ms of a cancel: restarting it`);
      this.kill(child);
    }, this.cancelGraceMs);
    this.cancelling.set(p.jobId, { child, timer });
    this.updateRefs();
  }

  private settle(p: Pending, error: Error | null, value?: unknown): void {
    if (!this.pending.delete(p.jobId)) return;
    if (error) p.reject(error);
    else p.resolve(value);
    this.updateRefs();
  }

  /** The child keeps the process alive only while it has work (or a cancel) in hand. */
  private updateRefs(): void {
    const child = this.child;
    if (!child || child.state === 'gone' || child.killed) return;
    if (this.pending.size > 0 || this.cancelling.size > 0) child.handle.ref?.();
    else child.handle.unref?.();
  }
}
