/**
 * The router of the host service: each request channel of the host API (../../contract/host.ts),
 * validated already, handed to the part of the service that does it. Nothing else happens here.
 */
import path from 'node:path';
import type { z } from 'zod';
import type { AppInfo, REQUESTS, RequestChannel, ResponseOf } from '../../contract/host.js';
import type { Autosave } from './autosave.js';
import { MODEL_EXTENSIONS, type BatchJobs } from './batch.js';
import type { CheckJobs } from './checkJobs.js';
import { readableFile, type HostContext } from './context.js';
import { documentInfo } from './document.js';
import type { DocumentStore } from './documentStore.js';
import { checkPair, overlapPair, tracePair } from './pairQueries.js';
import { exportReport } from './reports.js';

type RequestOutput<C extends RequestChannel> = z.output<(typeof REQUESTS)[C]['request']>;
export type Handlers = { [C in RequestChannel]: (request: RequestOutput<C>) => Promise<ResponseOf<C>> };

export interface HostParts {
  readonly ctx: HostContext;
  readonly store: DocumentStore;
  readonly autosave: Autosave;
  readonly checks: CheckJobs;
  readonly batch: BatchJobs;
  /** `app.info` (the startup document is the service's). */
  readonly appInfo: () => Promise<AppInfo>;
  /** Told when a document is closed. */
  readonly onClosed: (docId: string) => void;
}

const OPEN_FILTERS = [
  { name: 'Assemblies and CAD files', extensions: MODEL_EXTENSIONS },
  { name: 'All files', extensions: ['*'] },
];
const IMPORT_FILTERS = [
  { name: 'CAD and mesh files', extensions: MODEL_EXTENSIONS.filter((e) => e !== 'json') },
  { name: 'All files', extensions: ['*'] },
];

export function createHandlers({ ctx, store, autosave, checks, batch, appInfo, onClosed }: HostParts): Handlers {
  return {
    'app.info': () => appInfo(),

    'doc.open': async ({ path: requested }) => {
      const file = await readableFile(ctx, requested, 'file to open', 'Open', OPEN_FILTERS);
      if (file === null) return null;
      return documentInfo(await store.openRequested(file));
    },

    'doc.new': async () => documentInfo(store.create()),

    'doc.import': async ({ docId, path: requested }) => {
      const d = store.get(docId);
      const file = await readableFile(ctx, requested, 'file to import', 'Import', IMPORT_FILTERS);
      if (file === null) return null;
      return store.importInto(d, path.resolve(file));
    },

    'doc.geometry': async ({ docId, bodyKeys }) => store.geometry(store.get(docId), bodyKeys),

    'doc.update': async (req) => store.update(store.get(req.docId), req),

    'doc.save': async (req) => store.save(store.get(req.docId), req),

    'doc.close': async ({ docId }) => {
      const closed = await store.close(docId);
      if (closed) onClosed(docId);
      return { closed };
    },

    'doc.recoverable': async () => ({ documents: await autosave.recoverable() }),

    'doc.recover': async ({ recoveryId }) => documentInfo(await autosave.recover(recoveryId, (record) => store.recover(record))),

    'doc.discardRecovery': async ({ recoveryId }) => ({ discarded: await autosave.discard(recoveryId) }),

    'check.run': async ({ docId, scope, refine }) => ({ jobId: checks.start(store.get(docId), scope, refine) }),

    'check.pair': async (req) => checkPair(ctx, store.get(req.docId), req),

    'check.trace': async (req) => tracePair(ctx, store.get(req.docId), req),

    'check.overlap': async (req) => overlapPair(ctx, store.get(req.docId), req),

    'job.cancel': async ({ jobId }) => ({ cancelled: ctx.jobs.cancel(jobId) }),

    'report.export': async (req) => exportReport(ctx, store, store.get(req.docId), req),

    'batch.run': async (req) => batch.start(req),
  };
}
