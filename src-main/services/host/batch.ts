/**
 * Batch checks of the host service (`batch.run`): several files checked one after the other as
 * the command line checks them (../checkService.ts; the check itself where the host's checks
 * run, the check child), each with its report when a folder is given;
 * a file that cannot be checked is listed as failed and the batch goes on.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EventOf, HostError, RequestOf } from '../../contract/host.js';
import { CheckAbortedError } from '../../../src-core/check/check.js';
import { exitCode } from '../../../src-core/report/index.js';
import { checkFile } from '../checkService.js';
import { writeFileAtomic } from '../files.js';
import type { ReportFormat } from './api.js';
import { allowed, requireDialogs, type HostContext } from './context.js';
import { stemOf } from './document.js';
import type { DocumentStore } from './documentStore.js';
import { failure, toHostError } from './errors.js';
import type { Job } from './jobs.js';
import { renderReport, reportTargetProblem } from './reports.js';

type BatchFile = EventOf<'batch.file'>['file'];

export const MODEL_EXTENSIONS = ['json', 'stp', 'step', 'igs', 'iges', 'brep', 'brp', 'stl'];

export class BatchJobs {
  constructor(private readonly ctx: HostContext, private readonly store: DocumentStore) {}

  /** `batch.run`: the files asked for (or picked), checked in a job; null when none. */
  async start({ paths: requested, reportFolder, format }: RequestOf<'batch.run'>): Promise<{ jobId: string } | null> {
    const { ctx } = this;
    let paths: string[];
    if (requested === undefined) {
      paths = await requireDialogs(ctx, 'files to check').openFiles({
        title: 'Batch Check', filters: [{ name: 'Assemblies and CAD files', extensions: MODEL_EXTENSIONS }],
      });
      for (const p of paths) ctx.policy.grant(p, 'read');
    } else {
      paths = requested;
      for (const p of paths) await allowed(ctx, p, 'read');
    }
    if (paths.length === 0) return null;
    let folder: string | null = null;
    if (reportFolder !== undefined) {
      await allowed(ctx, reportFolder, 'write');
      folder = path.resolve(reportFolder);
      // Made (or refused) before any file is checked, not found missing after checking them all.
      try {
        await mkdir(folder, { recursive: true });
      } catch (e) {
        const reason = toHostError(e, folder);
        throw failure(reason.code, `the report folder ${folder} cannot be made: ${reason.message}`, folder);
      }
    }
    const job = ctx.jobs.start('batch');
    job.done = this.run(job, paths.map((p) => path.resolve(p)), folder, format ?? 'html');
    return { jobId: job.id };
  }

  private async run(job: Job, paths: readonly string[], reportFolder: string | null, format: ReportFormat): Promise<void> {
    const { ctx } = this;
    const signal = job.controller.signal;
    const progress = ctx.jobs.progress(job);
    const files: BatchFile[] = [];
    try {
      await nextTurn();
      for (let i = 0; i < paths.length; i++) {
        if (signal.aborted) throw new CheckAbortedError();
        const file = paths[i];
        const name = path.basename(file);
        progress(`checking ${name} (${i + 1} of ${paths.length})`, i, paths.length);
        let entry: BatchFile;
        try {
          const r = await checkFile(file, { importer: ctx.importer, buildTrees: ctx.buildTrees, runner: ctx.checkRunner, signal });
          const code = exitCode(r.report);
          const s = r.report.summary;
          entry = {
            path: file,
            // Failed only by pairs the triangles could not decide, even refined: a possible interference.
            status: code === 0 ? 'clear' : s.interferences + s.clearanceViolations === 0 && s.undecided > 0 ? 'undecided' : 'interference',
            exitCode: code,
            summary: {
              parts: s.parts, triangles: s.triangles, interferences: s.interferences, contacts: s.contacts, clearanceViolations: s.clearanceViolations, ignored: s.ignored,
              undecided: s.undecided, refinedPairs: s.refinedPairs, finestDeflectionMm: s.finestDeflectionMm, elapsedMs: s.elapsedMs,
            },
            reportPath: null, error: null,
          };
          if (reportFolder !== null) {
            const target = path.join(reportFolder, `${stemOf(file)}.report.${format}`);
            try {
              const kept = await reportTargetProblem(this.store, target);
              if (kept !== null) throw failure('would-overwrite', kept, target);
              await writeFileAtomic(target, renderReport(r.report, format, r.pictureBodies));
              entry = { ...entry, reportPath: target };
            } catch (e) {
              entry = { ...entry, status: 'failed', exitCode: 2, error: toHostError(e, target).message };
            }
          }
        } catch (e) {
          if (signal.aborted) throw e;
          entry = { path: file, status: 'failed', exitCode: 2, summary: null, reportPath: null, error: toHostError(e, file).message };
        }
        files.push(entry);
        ctx.events.emit('batch.file', { jobId: job.id, index: i, total: paths.length, file: entry });
      }
      progress('done', paths.length, paths.length);
      ctx.events.emit('job.done', { jobId: job.id, kind: 'batch', files });
    } catch (e) {
      const cancelled = signal.aborted;
      const error: HostError = cancelled ? { code: 'cancelled', message: 'the batch check was cancelled', path: null } : toHostError(e);
      ctx.events.emit('job.failed', { jobId: job.id, kind: 'batch', error, cancelled });
    } finally {
      ctx.jobs.finish(job);
    }
  }
}
