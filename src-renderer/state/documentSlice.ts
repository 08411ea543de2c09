import type { StateCreator } from 'zustand/vanilla';
import type { DocumentInfo, HostApi } from '../../src-main/contract/host';
import { markFinished, type SliceContext } from './context';
import { createJobHandlers } from './jobEvents';
import { describeError } from './notices';
import { displayNames } from './partNames';
import { checkInputsSignature } from './selectors';
import type { AppState, DocumentSlice } from './types';
import { EMPTY_HISTORY } from './undo';
import { reuseParts } from './reuse';

/** Warnings shown in one notice at most (the rest are counted). */
const MAX_WARNINGS_SHOWN = 8;

/**
 * The document slice: the connection to the host, the open document, and loading its display
 * geometry into the registry (only bodies not already there; bodies no part uses are released).
 */
export function createDocumentSlice(ctx: SliceContext): StateCreator<AppState, [], [], DocumentSlice> {
  const confirm = ctx.deps.confirm ?? (() => true);
  const registry = ctx.deps.geometry;
  let unsubscribes: (() => void)[] = [];
  /** Documents replaced by another: late events about them are ignored. */
  const replaced = new Set<string>();
  /** Bodies being fetched. */
  const inflight = new Set<string>();
  /** Fit the camera once the current document's geometry is in. */
  let fitPending = false;

  return (set, get) => {
    const jobs = createJobHandlers(set, get, ctx);

    /**
     * Opening and importing report progress but no end event: their request's answer (or the
     * document arriving) ends them. One runs at a time in a window, so every such job is over.
     */
    function endFileJobs(): void {
      const jobs = get().jobs;
      const open = Object.values(jobs).filter((j) => j.kind === 'open' || j.kind === 'import');
      if (open.length === 0) return;
      const next = { ...jobs };
      for (const j of open) {
        delete next[j.id];
        markFinished(ctx, j.id);
      }
      set({ jobs: next });
    }

    function requireHost(action: string): HostApi | null {
      const host = get().host;
      if (!host) get().notify('error', `Could not ${action}`, 'The application is not connected to its host.');
      return host;
    }

    /**
     * Opens a document through `open` (a path, a dialog, a dropped file); once it has opened, asks
     * before discarding the current one's unsaved changes (a file that does not open, or a dialog
     * cancelled, asks nothing), and closes what is not kept on the host.
     */
    async function openVia(host: HostApi, what: string | null, open: () => Promise<DocumentInfo | null>): Promise<void> {
      set({ busy: what !== null ? `Opening ${what}` : 'Opening' });
      try {
        const doc = await open();
        if (!doc) return;
        const prev = get().doc;
        if (prev && prev.id !== doc.id && prev.dirty && !confirm(`${prev.name} has unsaved changes. Open ${doc.name} and discard them?`)) {
          host.docClose({ docId: doc.id }).catch(() => {
            // At worst the unwanted document stays in the host's memory.
          });
          return;
        }
        get().receiveDocument(doc);
        if (prev && prev.id !== doc.id) {
          host.docClose({ docId: prev.id }).catch(() => {
            // At worst the old document stays in the host's memory; nothing for the user to do.
          });
        }
      } catch (error) {
        get().reportError('Could not open the file', error, what);
      } finally {
        endFileJobs();
        set({ busy: null });
      }
    }

    async function loadGeometry(doc: DocumentInfo): Promise<void> {
      const host = get().host;
      const keys = new Set(doc.parts.map((p) => p.bodyKey));
      registry.retain(keys);
      const missing = [...keys].filter((k) => !registry.has(k) && !inflight.has(k));
      if (missing.length === 0) {
        finishGeometry(doc.id, false);
        return;
      }
      if (!host) return;
      for (const k of missing) inflight.add(k);
      set((s) => ({ geometry: { status: 'loading', version: s.geometry.version } }));
      try {
        const { bodies } = await host.docGeometry({ docId: doc.id, bodyKeys: missing });
        for (const k of missing) inflight.delete(k);
        const current = get().doc;
        if (current?.id !== doc.id) return;
        const wanted = new Set(current.parts.map((p) => p.bodyKey));
        registry.add(bodies.filter((b) => wanted.has(b.bodyKey)));
        const absent = missing.filter((k) => wanted.has(k) && !registry.has(k));
        if (absent.length > 0) {
          get().notify('warning', 'Some parts cannot be drawn', `The host sent no geometry for ${absent.length} of the ${missing.length} bodies asked for.`, { path: doc.path });
        }
        finishGeometry(doc.id, true);
      } catch (error) {
        for (const k of missing) inflight.delete(k);
        if (get().doc?.id !== doc.id) return;
        set((s) => ({ geometry: { status: 'failed', version: s.geometry.version } }));
        get().reportError(`Could not load the geometry of ${doc.name}`, error, doc.path);
      }
    }

    function finishGeometry(docId: string, added: boolean): void {
      if (get().doc?.id !== docId || inflight.size > 0) return;
      if (added || get().geometry.status !== 'ready') {
        set((s) => ({ geometry: { status: 'ready', version: added ? s.geometry.version + 1 : s.geometry.version } }));
      }
      if (fitPending) {
        fitPending = false;
        get().requestCamera({ kind: 'fitAll' });
      }
    }

    return {
      host: null,
      connection: 'connecting',
      appInfo: null,
      doc: null,
      partNames: new Map(),
      geometry: { status: 'idle', version: 0 },
      busy: null,

      async connect(host) {
        get().disconnect();
        set({ host, connection: 'connecting' });
        unsubscribes = [
          host.onDocChanged((doc) => {
            if (!replaced.has(doc.id)) get().receiveDocument(doc);
          }),
          host.onJobProgress(jobs.onJobProgress),
          host.onJobDone(jobs.onJobDone),
          host.onJobFailed(jobs.onJobFailed),
          host.onBatchFile(jobs.onBatchFile),
          host.onHostError((error) =>
            get().notify('error', 'The application reported a problem', error.message, { code: error.code, path: error.path ?? null }),
          ),
          host.onMenuCommand(({ command }) => get().runCommand(command, 'menu')),
        ];
        try {
          const info = await host.appInfo({});
          if (get().host !== host) return;
          set({ appInfo: info, connection: 'connected' });
          if (info.startupDocument) get().receiveDocument(info.startupDocument);
          else endFileJobs();
        } catch (error) {
          set({ connection: 'failed' });
          get().reportError('Could not start', error);
          return;
        }
        // Unsaved work an earlier run left behind is offered once the window shows its document.
        await get().checkRecoverable();
      },

      disconnect() {
        for (const unsubscribe of unsubscribes) {
          try {
            unsubscribe();
          } catch {
            // A host that is already gone has nothing left to unsubscribe.
          }
        }
        unsubscribes = [];
      },

      receiveDocument(doc) {
        const prev = get().doc;
        if (prev === null || prev.id !== doc.id) {
          endFileJobs();
          if (prev) replaced.add(prev.id);
          replaced.delete(doc.id);
          fitPending = true;
          ctx.outcomeSignature = null;
          ctx.cancelLive();
          set((s) => ({
            doc,
            partNames: displayNames(doc.parts),
            selectedParts: [],
            selectionAnchor: null,
            hoveredPart: null,
            selectedResult: null,
            visibility: {},
            isolation: null,
            // Another document's part filter would name no part of this one.
            resultFilter: { ...s.resultFilter, part: null },
            check: { ...s.check, jobId: null, running: false, startedAt: null, cancelRequested: false, outcome: null, finishedAt: null, stale: false, outcomeRefine: null },
            geometry: { status: 'loading', version: s.geometry.version },
            history: EMPTY_HISTORY,
            drag: null,
            live: null,
            checkSets: { a: [], b: [] },
            overlap: null,
            trace: null,
            contextMenu: null,
            ignoreDraft: null,
          }));
          if (doc.warnings.length > 0) {
            const shown = doc.warnings.slice(0, MAX_WARNINGS_SHOWN);
            const more = doc.warnings.length - shown.length;
            get().notify('warning', `${doc.name} opened with warnings`, shown.join('\n') + (more > 0 ? `\n… and ${more} more` : ''), { path: doc.path });
          }
        } else {
          const ids = new Set(doc.parts.map((p) => p.id));
          const sameNames = prev.parts.length === doc.parts.length && prev.parts.every((p, i) => p.id === doc.parts[i].id && p.name === doc.parts[i].name && p.path.join('\u0000') === doc.parts[i].path.join('\u0000'));
          // Unchanged parts keep their objects, so only what changed draws again.
          doc = { ...doc, parts: reuseParts(prev.parts, doc.parts) };
          set((s) => ({
            doc,
            partNames: sameNames ? s.partNames : displayNames(doc.parts),
            selectedParts: s.selectedParts.filter((id) => ids.has(id)),
            hoveredPart: s.hoveredPart !== null && ids.has(s.hoveredPart) ? s.hoveredPart : null,
            check: s.check.outcome && ctx.outcomeSignature !== null ? { ...s.check, stale: checkInputsSignature(doc) !== ctx.outcomeSignature } : s.check,
          }));
          get().syncInspect();
        }
        void loadGeometry(doc);
      },

      async openDocument(path) {
        const host = requireHost('open a file');
        if (!host) return;
        await openVia(host, path ?? null, () => host.docOpen(path !== undefined ? { path } : {}));
      },

      async openDropped(name, open) {
        const host = requireHost('open a file');
        if (!host) return;
        await openVia(host, name, open);
      },

      async newDocument() {
        const host = requireHost('start a new assembly');
        if (!host) return;
        const prev = get().doc;
        if (prev?.dirty && !confirm(`${prev.name} has unsaved changes. Start a new assembly and discard them?`)) return;
        try {
          get().receiveDocument(await host.docNew({}));
        } catch (error) {
          get().reportError('Could not start a new assembly', error);
        }
      },

      async importFile(path) {
        const host = requireHost('import a file');
        const doc = get().doc;
        if (!host || !doc) return;
        set({ busy: path ? `Importing ${path}` : 'Importing' });
        try {
          const next = await host.docImport(path !== undefined ? { docId: doc.id, path } : { docId: doc.id });
          if (next) get().receiveDocument(next);
        } catch (error) {
          get().reportError('Could not import the file', error, path ?? null);
        } finally {
          endFileJobs();
          set({ busy: null });
        }
      },

      async saveDocument(options = {}) {
        const host = requireHost('save');
        const doc = get().doc;
        if (!host || !doc) return null;
        set({ busy: 'Saving' });
        const request = {
          docId: doc.id,
          ...(options.saveAs ? { saveAs: true } : {}),
          ...(options.path !== undefined ? { path: options.path } : {}),
        };
        try {
          let res;
          try {
            res = await host.docSave(request);
          } catch (error) {
            // The host does not replace a file it cannot vouch for without asking.
            const details = describeError(error);
            if (details.code !== 'would-overwrite' || !confirm(`${details.message}\n\nReplace it?`)) throw error;
            res = await host.docSave({ ...request, ...(details.path ? { path: details.path } : {}), overwrite: true });
          }
          if (!res) return null;
          const current = get().doc;
          // The host's doc.changed brings the full document; until then show it saved.
          if (current && current.id === doc.id) set({ doc: { ...current, dirty: false, path: res.path } });
          get().notify('info', 'Saved', res.path, { path: res.path });
          return res.path;
        } catch (error) {
          get().reportError(`Could not save ${doc.name}`, error, options.path ?? doc.path);
          return null;
        } finally {
          set({ busy: null });
        }
      },

      async updateSettings(settings) {
        const host = requireHost('change the settings');
        const doc = get().doc;
        if (!host || !doc) return;
        try {
          get().receiveDocument(await host.docUpdate({ docId: doc.id, settings }));
        } catch (error) {
          get().reportError('Could not change the settings', error);
        }
      },

      batch: null,

      async exportReport(format, path) {
        const host = requireHost('export the report');
        const doc = get().doc;
        if (!host || !doc) return null;
        if (!get().check.outcome) {
          get().notify('error', 'Nothing to export', 'Run a check first: the report lists the results of the last check.');
          return null;
        }
        set({ busy: 'Exporting the report' });
        try {
          const res = await host.reportExport({ docId: doc.id, format, ...(path !== undefined ? { path } : {}) });
          if (!res) return null;
          get().notify('info', 'Report written', res.path, { path: res.path });
          return res.path;
        } catch (error) {
          get().reportError('Could not export the report', error, path ?? null);
          return null;
        } finally {
          set({ busy: null });
        }
      },

      async runBatch(paths, reportFolder, format = 'html') {
        const host = requireHost('run a batch check');
        if (!host) return;
        set({ batch: { jobId: null, status: 'starting', total: paths?.length ?? 0, files: [], error: null, format, reportFolder: reportFolder ?? null } });
        try {
          const res = await host.batchRun({
            ...(paths !== undefined ? { paths } : {}),
            ...(reportFolder !== undefined ? { reportFolder } : {}),
            format,
          });
          if (!res) {
            // The user closed the host's file dialog.
            set({ batch: null });
            return;
          }
          if (ctx.finishedJobs.has(res.jobId)) return;
          const startedAt = ctx.now();
          set((s) => ({
            batch: s.batch && s.batch.jobId === null ? { ...s.batch, jobId: res.jobId, status: s.batch.status === 'starting' ? 'running' : s.batch.status } : s.batch,
            jobs: {
              ...s.jobs,
              [res.jobId]: s.jobs[res.jobId] ?? { id: res.jobId, kind: 'batch', stage: 'Starting the batch check', done: 0, total: paths?.length ?? 0, startedAt },
            },
          }));
        } catch (error) {
          set((s) => ({ batch: s.batch ? { ...s.batch, status: 'failed', error: describeError(error).message } : null }));
          // The Batch dialog shows why; a message only when it is not open (the desktop's own dialogs).
          if (get().dialog !== 'batch') get().reportError('Could not start the batch check', error);
        }
      },

      clearBatch() {
        const b = get().batch;
        if (b && (b.status === 'running' || b.status === 'starting')) return;
        set({ batch: null });
      },
    };
  };
}
