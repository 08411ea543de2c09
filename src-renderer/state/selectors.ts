/** Values derived from the state, shared by components and actions. */
import type { DocumentInfo, PairResultInfo, PartInfo } from '../../src-main/contract/host';
import { resultKey } from './results';
import type { AppState, JobState } from './types';

/** Whether a part is shown: the part tree's choice, else the document's. */
export function isPartVisible(state: Pick<AppState, 'visibility'>, part: Pick<PartInfo, 'id' | 'visible'>): boolean {
  return state.visibility[part.id] ?? part.visible;
}

/** The selected result, if it is in the current outcome. */
export function selectedResultOf(state: Pick<AppState, 'check' | 'selectedResult'>): PairResultInfo | null {
  const key = state.selectedResult;
  if (key === null || !state.check.outcome) return null;
  return state.check.outcome.results.find((r) => resultKey(r) === key) ?? null;
}

/** The job the progress bar shows: the running check, else the latest job with progress. */
export function foregroundJob(state: Pick<AppState, 'check' | 'jobs'>): (Omit<JobState, 'id'> & { id: string | null }) | null {
  const { check, jobs } = state;
  if (check.running) {
    const job = check.jobId !== null ? jobs[check.jobId] : undefined;
    if (job) return { ...job, startedAt: Math.min(job.startedAt, check.startedAt ?? job.startedAt) };
    return { id: check.jobId, kind: 'check', stage: 'Starting the check', done: 0, total: 0, startedAt: check.startedAt ?? 0 };
  }
  let latest: JobState | null = null;
  for (const job of Object.values(jobs)) if (!latest || job.startedAt >= latest.startedAt) latest = job;
  return latest;
}

/** What a check's outcome depends on: parts and placements, settings, ignore rules. */
export function checkInputsSignature(doc: DocumentInfo): string {
  return JSON.stringify([
    doc.parts.map((p) => [p.id, p.bodyKey, p.transform]),
    doc.settings,
    doc.ignore.map((r) => [r.a, r.b]),
  ]);
}

/** Total triangles of the document's parts. */
export function triangleCount(doc: DocumentInfo | null): number {
  if (!doc) return 0;
  let n = 0;
  for (const p of doc.parts) n += p.triangles;
  return n;
}
