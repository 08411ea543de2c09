/**
 * Jobs of the host service: the registry of running jobs (open, import, check, batch), their
 * progress events, and the event emitter every part of the service reports through.
 */
import type { EventChannel, EventOf } from '../../contract/host.js';
import type { JobKind } from './api.js';
import { errorText } from './errors.js';

/** A small typed event emitter; a throwing listener is reported, never allowed to stop the others. */
export class Emitter {
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  constructor(private readonly log: (m: string) => void) {}
  on<E extends EventChannel>(event: E, listener: (payload: EventOf<E>) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const l = listener as (payload: unknown) => void;
    set.add(l);
    return () => {
      set.delete(l);
    };
  }
  emit<E extends EventChannel>(event: E, payload: EventOf<E>): void {
    for (const l of [...(this.listeners.get(event) ?? [])]) {
      try {
        l(payload);
      } catch (e) {
        this.log(`a listener of ${event} threw: ${errorText(e)}`);
      }
    }
  }
}

export interface Job {
  readonly id: string;
  readonly kind: JobKind;
  readonly controller: AbortController;
  done: Promise<void>;
}

/** A progress reporter of one job: a stage for people, done of total. */
export type Progress = (stage: string, done: number, total: number) => void;

/** The running jobs, and the ids of jobs and documents (one sequence: `doc-1`, `check-2`, …). */
export class JobRegistry {
  private readonly jobs = new Map<string, Job>();
  private nextId = 1;

  constructor(private readonly events: Emitter, private readonly progressIntervalMs: number) {}

  newId(prefix: string): string {
    return `${prefix}-${this.nextId++}`;
  }

  /** Registers a new job; the caller removes it with `finish` when it ends. */
  start(kind: JobKind): Job {
    const job: Job = { id: this.newId(kind), kind, controller: new AbortController(), done: Promise.resolve() };
    this.jobs.set(job.id, job);
    return job;
  }

  finish(job: Job): void {
    this.jobs.delete(job.id);
  }

  /** Cancels a running job; false when there is none by that id or it is cancelled already. */
  cancel(jobId: string): boolean {
    const job = this.jobs.get(jobId);
    if (!job || job.controller.signal.aborted) return false;
    job.controller.abort();
    return true;
  }

  /** Cancels every job and waits for them to end. */
  async cancelAll(): Promise<void> {
    for (const job of this.jobs.values()) job.controller.abort();
    await Promise.allSettled([...this.jobs.values()].map((j) => j.done));
  }

  /** A progress reporter for a job: at most one event per interval at one stage (changes of stage and the end always go). */
  progress(job: Job): Progress {
    let last = -Infinity;
    let lastStage = '';
    return (stage, done, total) => {
      const now = performance.now();
      if (stage === lastStage && done < total && now - last < this.progressIntervalMs) return;
      last = now;
      lastStage = stage;
      this.events.emit('job.progress', { jobId: job.id, kind: job.kind, stage: stage.slice(0, 512), done, total });
    };
  }
}
