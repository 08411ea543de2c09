import type { StateCreator } from 'zustand/vanilla';
import { describeError } from './notices';
import type { SliceContext } from './context';
import type { AppState, RecoverySlice } from './types';

/**
 * The recovery slice: unsaved work an earlier run left behind (it crashed, was killed, lost
 * power). On connecting, the store asks the host for it (`doc.recoverable`) and, when there is
 * any, opens the Recover dialog: each entry can be recovered (opened as it was last autosaved,
 * with unsaved changes) or discarded (its recovery file deleted); "Later" closes the dialog and
 * keeps the files for the next start.
 */
export function createRecoverySlice(ctx: SliceContext): StateCreator<AppState, [], [], RecoverySlice> {
  const confirm = ctx.deps.confirm ?? (() => true);

  return (set, get) => {
    /** Takes an entry off the list; the dialog closes when nothing is left to offer. */
    function drop(recoveryId: string): void {
      const left = get().recovery.documents.filter((d) => d.recoveryId !== recoveryId);
      set((s) => ({
        recovery: { documents: left, pending: s.recovery.pending === recoveryId ? null : s.recovery.pending },
        dialog: left.length === 0 && s.dialog === 'recovery' ? null : s.dialog,
      }));
    }

    function nameOf(recoveryId: string): string {
      return get().recovery.documents.find((d) => d.recoveryId === recoveryId)?.name || 'the document';
    }

    return {
      recovery: { documents: [], pending: null },

      async checkRecoverable() {
        const host = get().host;
        if (!host) return;
        try {
          const { documents } = await host.docRecoverable({});
          if (get().host !== host) return;
          set((s) => ({
            recovery: { documents, pending: null },
            dialog: documents.length > 0 && s.dialog === null ? 'recovery' : s.dialog,
          }));
        } catch (error) {
          get().notify('warning', 'Could not look for unsaved work', `${describeError(error).message}\nWork left unsaved by an earlier run, if any, is kept and offered at the next start.`);
        }
      },

      async recoverDocument(recoveryId) {
        const host = get().host;
        if (!host || get().recovery.pending !== null) return;
        const prev = get().doc;
        const name = nameOf(recoveryId);
        if (prev?.dirty && !confirm(`${prev.name} has unsaved changes. Recover ${name} in its place and discard them?`)) return;
        set((s) => ({ recovery: { ...s.recovery, pending: recoveryId }, busy: `Recovering ${name}` }));
        try {
          const doc = await host.docRecover({ recoveryId });
          drop(recoveryId);
          get().receiveDocument(doc);
          if (prev && prev.id !== doc.id) {
            host.docClose({ docId: prev.id }).catch(() => {
              // At worst the old document stays in the host's memory; nothing for the user to do.
            });
          }
          get().notify('info', 'Recovered', `${doc.name} is open as it was last autosaved. Save it to keep the changes.`, { path: doc.path });
        } catch (error) {
          // An entry the host no longer has cannot be recovered later either.
          if (describeError(error).code === 'not-found') drop(recoveryId);
          else set((s) => ({ recovery: { ...s.recovery, pending: null } }));
          get().reportError(`Could not recover ${name}`, error);
        } finally {
          set({ busy: null });
        }
      },

      async discardRecovery(recoveryId) {
        const host = get().host;
        if (!host || get().recovery.pending !== null) return;
        const name = nameOf(recoveryId);
        if (!confirm(`Discard the unsaved changes of ${name}? They cannot be recovered afterwards.`)) return;
        set((s) => ({ recovery: { ...s.recovery, pending: recoveryId } }));
        try {
          // `discarded: false`: the file was gone already; either way there is nothing left to offer.
          await host.docDiscardRecovery({ recoveryId });
          drop(recoveryId);
        } catch (error) {
          set((s) => ({ recovery: { ...s.recovery, pending: null } }));
          get().reportError(`Could not discard the unsaved changes of ${name}`, error);
        }
      },
    };
  };
}
