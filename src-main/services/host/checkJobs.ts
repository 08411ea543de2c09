/**
 * Check jobs of the host service: `check.run` checks a document's current state (or a scope of
 * it) and reports through job events; one check per document at a time (a new one cancels the
 * running one). The check itself runs where the context's CheckRunner runs it (../checkRunner.ts:
 * the check child, ../checkChild.ts, in the app and the bridge); this file gathers the parts,
 * reads CAD sources again for refinement when the check asks (../refiner.ts), and applies the
 * result: a finished check updates the document's review of its results (src-core/check/status.ts).
 */
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CheckOutcome, CheckScope, HostError, PairResultInfo } from '../../contract/host.js';
import { CheckAbortedError } from '../../../src-core/check/check.js';
import { diffStatuses } from '../../../src-core/check/status.js';
import type { CheckProgress, CheckResult, CheckSettings } from '../../../src-core/check/types.js';
import type { ReportPartInput } from '../../../src-core/report/index.js';
import type { RunnerPart } from '../checkRunner.js';
import { pictureBodiesOf } from '../checkService.js';
import { createHostRefiner, type RefinerSource } from '../refiner.js';
import { logChecked, logCheckFailed } from './activity.js';
import type { HostContext } from './context.js';
import { assignResultIds } from '../../../src-core/check/resultIds.js';
import { docName, documentInfo, partOf, reportPartsOf, runnerPartsOf, type DocState } from './document.js';
import type { DocumentStore } from './documentStore.js';
import { failure, toHostError } from './errors.js';
import type { Job } from './jobs.js';

function inScope(scope: CheckScope, a: string, b: string): boolean {
  if (scope.kind === 'all') return true;
  if (scope.kind === 'selection') return scope.ids.includes(a) || scope.ids.includes(b);
  return (scope.a.includes(a) && scope.b.includes(b)) || (scope.a.includes(b) && scope.b.includes(a));
}

function stageOf(p: CheckProgress): string {
  return p.phase === 'broadphase' ? 'finding candidate pairs' : p.phase === 'pairs' ? 'checking pairs' : p.phase === 'refine' ? 'refining CAD fits' : 'computing volumes';
}

export class CheckJobs {
  // The store is no longer needed here (a check does not mark the document changed); the
  // parameter stays so that the service builds its parts as before.
  constructor(private readonly ctx: HostContext, _store: DocumentStore) {}

  /** `check.run`: starts a check of the document (cancelling its running one); returns its job id. */
  start(d: DocState, scope: CheckScope | undefined, refine: boolean | undefined): string {
    const sc: CheckScope = scope ?? { kind: 'all' };
    const ids = sc.kind === 'all' ? [] : sc.kind === 'selection' ? sc.ids : [...sc.a, ...sc.b];
    for (const id of ids) partOf(d, id);
    d.checkJob?.controller.abort();
    const job = this.ctx.jobs.start('check');
    d.checkJob = job;
    job.done = this.run(d, job, sc, refine ?? true);
    return job.id;
  }

  private async run(d: DocState, job: Job, scope: CheckScope, refine: boolean): Promise<void> {
    const { ctx } = this;
    const sources = refine ? this.refinableSources(d) : new Map<string, RefinerSource>();
    const parts = runnerPartsOf(d, new Set(sources.keys()));
    const settings: CheckSettings = { ...d.settings };
    const ignore = d.ignore.map((r) => ({ ...r }));
    const reportParts: ReportPartInput[] = reportPartsOf(d);
    const progress = ctx.jobs.progress(job);
    const t0 = performance.now();
    const signal = job.controller.signal;
    try {
      // Let the response with the job id go out first (and a cancel sent right after it arrive).
      await nextTurn();
      if (signal.aborted) throw new CheckAbortedError();
      progress('starting the check', 0, 1);
      // The refined bodies stay cached with the document, so a re-check after a move is quick.
      const refiner = sources.size === 0 ? null
        : (d.refiner ??= createHostRefiner({ importer: ctx.importer, buildTrees: ctx.buildTrees, sources: (key) => this.refinableSources(d).get(key) }));
      const result = await ctx.checkRunner.runCheck({ docId: d.id, parts, settings, ignore, scope }, {
        signal,
        onProgress: (p: CheckProgress) => progress(stageOf(p), p.done, p.total),
        refiner,
      });
      if (signal.aborted) throw new CheckAbortedError();
      if (d.closed) throw failure('closed', `${docName(d)} was closed during its check`, d.path);
      const outcome = this.applyOutcome(d, result, scope, job.id, reportParts, parts);
      logChecked(ctx.activity, d.path, docName(d), outcome, performance.now() - t0);
      ctx.events.emit('job.done', { jobId: job.id, kind: 'check', outcome });
      ctx.events.emit('doc.changed', documentInfo(d));
    } catch (e) {
      const cancelled = signal.aborted;
      const error: HostError = cancelled
        ? { code: 'cancelled', message: `the check of ${docName(d)} was cancelled`, path: d.path }
        : toHostError(e, d.path ?? docName(d));
      if (!cancelled) ctx.log(`check of ${docName(d)} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      logCheckFailed(ctx.activity, d.path, docName(d), e, cancelled, performance.now() - t0);
      ctx.events.emit('job.failed', { jobId: job.id, kind: 'check', error, cancelled });
    } finally {
      ctx.jobs.finish(job);
      if (d.checkJob === job) d.checkJob = null;
    }
  }

  /** The document's CAD sources that can be read again finer, by source id (files as they are on disk). */
  private refinableSources(d: DocState): Map<string, RefinerSource> {
    const out = new Map<string, RefinerSource>();
    for (const s of d.doc.sources) {
      const parts = d.parts.filter((p) => p.sourceId === s.id);
      if (parts.length === 0) continue;
      if (!parts.every((p) => d.bodies.get(p.bodyKey)?.body.chordErrorMm)) continue;
      const file = path.isAbsolute(s.path) ? s.path : d.base !== null ? path.resolve(path.dirname(d.base), s.path) : null;
      if (file === null) continue;
      out.set(s.id, { path: file, bodies: null });
    }
    return out;
  }

  /**
   * The outcome of a finished check, each result with its status against the document's review
   * (src-core/check/status.ts diffStatuses: new, active, resolved, ignored). Updates the review.
   */
  private applyOutcome(
    d: DocState, result: CheckResult, scope: CheckScope, jobId: string, reportParts: ReportPartInput[], parts: readonly RunnerPart[],
  ): CheckOutcome {
    const diff = diffStatuses({
      before: d.review,
      results: result.results,
      partOrder: d.parts.map((p) => p.id),
      inScope: (a, b) => inScope(scope, a, b),
    });
    const results: PairResultInfo[] = result.results.map((r, i) => ({
      a: r.a, b: r.b, kind: r.kind, trianglePairs: r.trianglePairs as Uint32Array<ArrayBuffer>,
      volumeMm3: r.volumeMm3,
      centroidMm: r.centroidMm ? [r.centroidMm[0], r.centroidMm[1], r.centroidMm[2]] : null,
      contained: r.contained, containedPart: r.containedPart, distanceMm: r.distanceMm,
      closestPointsMm: r.closestPointsMm
        ? [[r.closestPointsMm[0][0], r.closestPointsMm[0][1], r.closestPointsMm[0][2]], [r.closestPointsMm[1][0], r.closestPointsMm[1][1], r.closestPointsMm[1][2]]]
        : null,
      depthMm: r.depthMm, toleranceMm: r.toleranceMm, reason: r.reason,
      resolutionMm: r.resolutionMm, refinedDeflectionMm: r.refinedDeflectionMm,
      separationRangeMm: r.separationRangeMm ? [r.separationRangeMm[0], r.separationRangeMm[1]] : null,
      possibleKinds: r.possibleKinds ? [...r.possibleKinds] : null,
      status: diff.statuses[i],
    }));
    // The review follows the check and is saved with the next save; a check alone is not an edit
    // (it leaves the document clean, so opening another asks nothing).
    d.review = diff.review;
    const resolved = diff.resolved;
    // Result numbers: a pair keeps its number for good; new pairs are numbered in the results' order, then the resolved ones
    // (a pair known only from a saved review without numbers).
    d.resultIds = assignResultIds(d.resultIds, [...result.results, ...resolved]).ids;
    const outcome: CheckOutcome = {
      checkId: jobId,
      docId: d.id,
      scope,
      settings: { ...result.settings },
      summary: { ...result.summary },
      results,
      resolved,
      warnings: [...result.warnings],
    };
    d.last = { outcome, result, reportParts, pictureBodies: pictureBodiesOf(parts), checkedParts: new Map(parts.map((p) => [p.id, p])) };
    return outcome;
  }
}
