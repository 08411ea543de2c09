import type { StoreDeps } from './types';

/** Bookkeeping the slices share that is not state anyone renders. */
export interface SliceContext {
  readonly deps: StoreDeps;
  readonly now: () => number;
  /** Jobs that already ended: a late response naming one must not mark it running again. */
  readonly finishedJobs: Set<string>;
  /** The inputs the current outcome was computed for (see checkInputsSignature), or null. */
  outcomeSignature: string | null;
  /** Stops a live check in progress (set by the placement slice). */
  cancelLive: () => void;
}

/** Finished job ids remembered at most. */
const MAX_FINISHED = 200;

export function createSliceContext(deps: StoreDeps): SliceContext {
  return { deps, now: deps.now ?? Date.now, finishedJobs: new Set(), outcomeSignature: null, cancelLive: () => {} };
}

export function markFinished(ctx: SliceContext, jobId: string): void {
  ctx.finishedJobs.add(jobId);
  if (ctx.finishedJobs.size > MAX_FINISHED) {
    const oldest = ctx.finishedJobs.values().next().value;
    if (oldest !== undefined) ctx.finishedJobs.delete(oldest);
  }
}
