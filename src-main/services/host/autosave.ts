/**
 * Autosave with recovery: unsaved work is written to recovery files (../recovery.ts) a moment
 * after a document becomes dirty and then at most every `intervalMs` while it changes, removed
 * when it is saved or closed; `doc.recoverable` lists what an earlier run left behind and
 * `doc.recover` opens it again (through the store, ./documentStore.ts).
 */
import type { RecoverableDocument } from '../../contract/host.js';
import { processAlive } from '../files.js';
import { RecoveryError, RecoveryStore, recoverableOf, type RecoveryRecord } from '../recovery.js';
import type { HostContext } from './context.js';
import { assemblyDocOf, docName, type DocState } from './document.js';
import { errorText, failure } from './errors.js';

export const DEFAULT_AUTOSAVE = { debounceMs: 2000, intervalMs: 30_000 };

export class Autosave {
  readonly store: RecoveryStore;
  /** Recovery files being recovered now (a second request for one is refused). */
  private readonly recovering = new Set<string>();

  constructor(
    private readonly ctx: HostContext,
    private readonly timing: { readonly debounceMs: number; readonly intervalMs: number } | null,
  ) {
    this.store = new RecoveryStore(ctx.options.userDataDir, ctx.log);
  }

  /** The recovery folder (`<userDataDir>/recovery`). */
  get dir(): string {
    return this.store.dir;
  }

  /** Writes the document's recovery file soon (debounced, at most once per interval). */
  schedule(d: DocState): void {
    const timing = this.timing;
    const a = d.autosave;
    if (timing === null || d.closed || this.ctx.disposed() || a.timer !== null) return;
    const delay = Math.max(timing.debounceMs, a.lastWrite + timing.intervalMs - performance.now());
    a.timer = setTimeout(() => {
      a.timer = null;
      void this.write(d);
    }, delay);
    a.timer.unref?.();
  }

  /** Runs recovery-file operations of a document one after the other; failures are logged. */
  private step(d: DocState, step: () => Promise<void>): Promise<void> {
    const next = d.autosave.chain.then(step).catch((e: unknown) => {
      this.ctx.log(`recovery file of ${docName(d)}: ${errorText(e)}`);
    });
    d.autosave.chain = next;
    return next;
  }

  /** Writes the document's recovery file if it has changes not written yet. */
  write(d: DocState): Promise<void> {
    return this.step(d, async () => {
      if (d.closed || !d.dirty || d.changes === d.autosave.written) return;
      const changes = d.changes;
      await this.store.save(this.recordOf(d));
      d.autosave.written = changes;
      d.autosave.lastWrite = performance.now();
    });
  }

  /** Removes the document's recovery file (saved, closed, or discarded). */
  clear(d: DocState): Promise<void> {
    const a = d.autosave;
    if (a.timer !== null) clearTimeout(a.timer);
    a.timer = null;
    return this.step(d, async () => {
      a.lastWrite = -Infinity;
      a.written = d.changes;
      await this.store.remove(d.recoveryId);
    });
  }

  /** Stops the document's timer (the service is shutting down); pending writes go on. */
  stop(d: DocState): void {
    if (d.autosave.timer !== null) clearTimeout(d.autosave.timer);
    d.autosave.timer = null;
  }

  private recordOf(d: DocState): RecoveryRecord {
    return {
      recoveryId: d.recoveryId,
      session: this.ctx.session,
      pid: process.pid,
      savedAt: new Date().toISOString(),
      name: d.doc.name || docName(d),
      kind: d.kind,
      originalPath: d.path,
      base: d.base,
      absoluteSources: [...d.absoluteSources],
      fingerprint: d.fingerprint,
      assembly: assemblyDocOf(d, null),
    };
  }

  // ---- Requests -----------------------------------------------------------------------------------

  /** `doc.recoverable`: what earlier runs left behind. */
  async recoverable(): Promise<RecoverableDocument[]> {
    const records = await this.store.list(this.ctx.session);
    return records.map(recoverableOf);
  }

  /**
   * `doc.recover`: opens a recovery record as a new document (`open`, the store's) with a
   * recovery file of this run, then removes the old file.
   */
  async recover(recoveryId: string, open: (record: RecoveryRecord) => Promise<DocState>): Promise<DocState> {
    const session = this.ctx.session;
    if (recoveryId.startsWith(`${session}-`)) throw failure('not-found', `'${recoveryId}' belongs to a document open now; there is nothing to recover`);
    if (this.recovering.has(recoveryId)) throw failure('busy', `'${recoveryId}' is being recovered already`);
    this.recovering.add(recoveryId);
    try {
      let record: RecoveryRecord | null;
      try {
        record = await this.store.read(recoveryId);
      } catch (e) {
        if (e instanceof RecoveryError) throw failure('invalid-recovery', `the recovery file cannot be used: ${e.message}`, e.path);
        throw e;
      }
      if (record === null) throw failure('not-found', `there is no recoverable document '${recoveryId}'`);
      if (record.session === session || (record.pid !== process.pid && processAlive(record.pid))) {
        throw failure('not-found', `'${recoveryId}' belongs to a document open in a running instance; there is nothing to recover`);
      }
      const d = await open(record);
      // This run's recovery file first, then the old one goes: never a moment without one.
      await this.write(d);
      await this.store.remove(recoveryId).catch((e: unknown) => this.ctx.log(`removing the recovery file '${recoveryId}' failed: ${errorText(e)}`));
      this.schedule(d);
      return d;
    } finally {
      this.recovering.delete(recoveryId);
    }
  }

  /** `doc.discardRecovery`: deletes a recovery file of an earlier run. */
  async discard(recoveryId: string): Promise<boolean> {
    if (recoveryId.startsWith(`${this.ctx.session}-`)) throw failure('not-found', `'${recoveryId}' belongs to a document open now; close the document instead`);
    if (this.recovering.has(recoveryId)) throw failure('busy', `'${recoveryId}' is being recovered`);
    return this.store.remove(recoveryId);
  }
}
