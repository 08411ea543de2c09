/**
 * Job events from the host: progress of checks, opens, imports and batches; their outcome or their
 * failure. A job's events may arrive before the response that names it, so nothing here depends
 * on having seen that response.
 */
import type { EventOf } from '../../src-main/contract/host';
import { markFinished, type SliceContext } from './context';
import { resultKey } from './results';
import { checkInputsSignature } from './selectors';
import type { GetState, JobState, SetState } from './types';

const IDLE_CHECK = { jobId: null, running: false, startedAt: null, cancelRequested: false } as const;

function withoutJob(jobs: Readonly<Record<string, JobState>>, jobId: string): Record<string, JobState> {
  const out = { ...jobs };
  delete out[jobId];
  return out;
}

export function createJobHandlers(set: SetState, get: GetState, ctx: SliceContext) {
  function onJobProgress(payload: EventOf<'job.progress'>): void {
    if (ctx.finishedJobs.has(payload.jobId)) return;
    set((s) => {
      const prev = s.jobs[payload.jobId];
      const job: JobState = {
        id: payload.jobId,
        kind: payload.kind,
        stage: payload.stage,
        done: payload.done,
        total: payload.total,
        startedAt: prev?.startedAt ?? ctx.now(),
      };
      const jobs = { ...s.jobs, [payload.jobId]: job };
      // The check asked for is waiting for its job id: this is it.
      if (payload.kind === 'check' && s.check.running && s.check.jobId === null) {
        return { jobs, check: { ...s.check, jobId: payload.jobId } };
      }
      return { jobs };
    });
    const check = get().check;
    if (check.cancelRequested && check.jobId === payload.jobId) void get().cancelJob();
  }

  function onJobDone(payload: EventOf<'job.done'>): void {
    markFinished(ctx, payload.jobId);
    if (payload.kind === 'check') {
      const outcome = payload.outcome;
      set((s) => {
        const jobs = withoutJob(s.jobs, payload.jobId);
        if (s.doc === null || outcome.docId !== s.doc.id) {
          // Another document's check (replaced meanwhile): only stop waiting for it.
          return s.check.jobId === payload.jobId ? { jobs, check: { ...s.check, ...IDLE_CHECK } } : { jobs };
        }
        ctx.outcomeSignature = checkInputsSignature(s.doc);
        const keys = new Set(outcome.results.map(resultKey));
        return {
          jobs,
          check: {
            ...IDLE_CHECK,
            outcome,
            finishedAt: ctx.now(),
            stale: false,
            requestRefine: s.check.requestRefine,
            // Only the check this window asked for is known to have refined or not.
            outcomeRefine: s.check.running && (s.check.jobId === null || s.check.jobId === payload.jobId) ? s.check.requestRefine : null,
          },
          selectedResult: s.selectedResult !== null && keys.has(s.selectedResult) ? s.selectedResult : null,
          // The check supersedes what the live check showed.
          live: null,
        };
      });
      get().syncInspect();
      return;
    }
    const files = payload.files;
    set((s) => ({
      jobs: withoutJob(s.jobs, payload.jobId),
      batch: s.batch && (s.batch.jobId === payload.jobId || s.batch.jobId === null) ? { ...s.batch, jobId: payload.jobId, status: 'done', total: files.length, files } : s.batch,
    }));
    const failed = files.filter((f) => f.status === 'failed').length;
    const interfering = files.filter((f) => f.status === 'interference').length;
    const lines = files.map((f) => `${f.path}: ${f.status}${f.error ? ` — ${f.error}` : ''}${f.reportPath ? ` (report ${f.reportPath})` : ''}`);
    // The Batch dialog lists the files itself: then the message only passes.
    get().notify(
      failed > 0 && get().dialog !== 'batch' ? 'warning' : 'info',
      'Batch check finished',
      `${files.length} files: ${files.length - failed - interfering} clear, ${interfering} with interference, ${failed} failed.\n${lines.join('\n')}`,
    );
  }

  function onJobFailed(payload: EventOf<'job.failed'>): void {
    markFinished(ctx, payload.jobId);
    set((s) => {
      const jobs = withoutJob(s.jobs, payload.jobId);
      const isCheck = s.check.jobId === payload.jobId || (payload.kind === 'check' && s.check.running && s.check.jobId === null);
      const batch =
        payload.kind === 'batch' && s.batch && (s.batch.jobId === payload.jobId || s.batch.jobId === null)
          ? { ...s.batch, jobId: payload.jobId, status: 'failed' as const, error: payload.error.message }
          : s.batch;
      return isCheck ? { jobs, batch, check: { ...s.check, ...IDLE_CHECK } } : { jobs, batch };
    });
    const what = { check: 'The check', batch: 'The batch check', import: 'The import', open: 'Opening the file' }[payload.kind];
    const extra = { code: payload.error.code, path: payload.error.path ?? null };
    if (payload.cancelled) get().notify('info', `${what} was cancelled`, payload.error.message, extra);
    else get().notify('error', `${what} failed`, payload.error.message, extra);
  }

  function onBatchFile(payload: EventOf<'batch.file'>): void {
    if (ctx.finishedJobs.has(payload.jobId)) return;
    set((s) => {
      const prev = s.jobs[payload.jobId];
      const job: JobState = {
        id: payload.jobId,
        kind: 'batch',
        stage: `Checked ${payload.file.path}: ${payload.file.status}`,
        done: payload.index + 1,
        total: payload.total,
        startedAt: prev?.startedAt ?? ctx.now(),
      };
      const batch =
        s.batch && (s.batch.jobId === payload.jobId || s.batch.jobId === null)
          ? {
              ...s.batch,
              jobId: payload.jobId,
              status: 'running' as const,
              total: payload.total,
              files: [...s.batch.files.filter((f) => f.path !== payload.file.path), payload.file],
            }
          : s.batch;
      return { jobs: { ...s.jobs, [payload.jobId]: job }, batch };
    });
  }

  return { onJobProgress, onJobDone, onJobFailed, onBatchFile };
}
