import type { StateCreator } from 'zustand/vanilla';
import type { SliceContext } from './context';
import { DEFAULT_RESULT_FILTER, DEFAULT_RESULT_SORT } from './results';
import { foregroundJob } from './selectors';
import type { AppState, CheckSlice } from './types';

/** The check slice: running a check, cancelling jobs, and how the results table is ordered. */
export function createCheckSlice(ctx: SliceContext): StateCreator<AppState, [], [], CheckSlice> {
  return (set, get) => ({
    check: { jobId: null, running: false, startedAt: null, cancelRequested: false, outcome: null, finishedAt: null, stale: false, requestRefine: true, outcomeRefine: null },
    jobs: {},
    resultSort: DEFAULT_RESULT_SORT,
    resultFilter: DEFAULT_RESULT_FILTER,
    refineFits: true,

    async runCheck(scope) {
      const { host, doc, check, refineFits } = get();
      if (!host || !doc) {
        get().notify('error', 'Could not run the check', host ? 'There is no document to check.' : 'The application is not connected to its host.');
        return;
      }
      if (check.running) return;
      if (doc.parts.length < 2) {
        get().notify('info', 'Nothing to check', `${doc.name} has ${doc.parts.length === 0 ? 'no parts' : 'one part'}: a check needs at least two.`);
        return;
      }
      set((s) => ({ check: { ...s.check, jobId: null, running: true, startedAt: ctx.now(), cancelRequested: false, requestRefine: refineFits } }));
      try {
        const { jobId } = await host.checkRun({ docId: doc.id, ...(scope ? { scope } : {}), refine: refineFits });
        if (ctx.finishedJobs.has(jobId)) return;
        set((s) => (s.check.running && (s.check.jobId === null || s.check.jobId === jobId) ? { check: { ...s.check, jobId } } : {}));
        if (get().check.cancelRequested && get().check.jobId === jobId) await get().cancelJob();
      } catch (error) {
        set((s) => ({ check: { ...s.check, jobId: null, running: false, startedAt: null, cancelRequested: false } }));
        get().reportError('Could not run the check', error, doc.path);
      }
    },

    async cancelJob() {
      const host = get().host;
      const job = foregroundJob(get());
      if (!host || !job) return;
      if (job.id === null) {
        // The check's job id is not known yet: cancel as soon as it is.
        set((s) => ({ check: { ...s.check, cancelRequested: true } }));
        return;
      }
      try {
        await host.jobCancel({ jobId: job.id });
      } catch (error) {
        get().reportError('Could not cancel', error);
      }
    },

    setResultSort(sort) {
      set({ resultSort: sort });
    },

    setResultFilter(filter) {
      set((s) => ({ resultFilter: { ...s.resultFilter, ...filter } }));
    },

    setRefineFits(on) {
      set({ refineFits: on });
    },
  });
}
