import type { StateCreator } from 'zustand/vanilla';
import { pairKey, type CheckScope, type DocumentInfo, type HostApi } from '../../src-main/contract/host';
import type { AppState, ReviewSlice } from './types';

/** The sets after putting `ids` in set A or B (and out of the other), or out of both. */
export function assignSets(sets: { readonly a: readonly string[]; readonly b: readonly string[] }, ids: readonly string[], target: 'a' | 'b' | null): { a: string[]; b: string[] } {
  const moving = new Set(ids);
  const a = sets.a.filter((id) => !moving.has(id));
  const b = sets.b.filter((id) => !moving.has(id));
  if (target === 'a') a.push(...ids.filter((id) => !a.includes(id)));
  if (target === 'b') b.push(...ids.filter((id) => !b.includes(id)));
  return { a, b };
}

/**
 * The review slice: what to check (all pairs, the selection against the rest, set A against set
 * B), part colours, ignore rules and result statuses (kept in the assembly by the host), and the
 * context menu of parts and results.
 */
export function createReviewSlice(): StateCreator<AppState, [], [], ReviewSlice> {
  return (set, get) => {
    /** Sends a document update; false (with the reason shown) when it fails. */
    async function update(title: string, request: Omit<Parameters<HostApi['docUpdate']>[0], 'docId'>): Promise<DocumentInfo | null> {
      const { host, doc } = get();
      if (!host || !doc) return null;
      try {
        const next = await host.docUpdate({ docId: doc.id, ...request });
        get().receiveDocument(next);
        return next;
      } catch (error) {
        get().reportError(title, error, doc.path);
        return null;
      }
    }

    const names = (ids: readonly string[]) => ids.map((id) => get().partNames.get(id) ?? id).join(' and ');

    return {
      checkScope: 'all',
      checkSets: { a: [], b: [] },
      ignoreDraft: null,
      contextMenu: null,

      setCheckScope(kind) {
        set({ checkScope: kind });
      },

      assignToSet(ids, target) {
        set((s) => ({ checkSets: assignSets(s.checkSets, ids, target) }));
      },

      scopeForCheck() {
        const s = get();
        if (s.checkScope === 'selection') {
          if (s.selectedParts.length === 0) {
            s.notify('info', 'Select parts to check', 'Selection vs rest checks the selected parts against every other part: select one or more parts first.');
            return null;
          }
          return { kind: 'selection', ids: [...s.selectedParts] };
        }
        if (s.checkScope === 'sets') {
          const ids = new Set(s.doc?.parts.map((p) => p.id) ?? []);
          const a = s.checkSets.a.filter((id) => ids.has(id));
          const b = s.checkSets.b.filter((id) => ids.has(id));
          if (a.length === 0 || b.length === 0) {
            s.notify('info', 'Fill both sets', `Set A vs set B checks every part of set A against every part of set B (now ${a.length} and ${b.length} parts): put parts in each set from the part list.`);
            return null;
          }
          return { kind: 'sets', a, b } satisfies CheckScope;
        }
        return { kind: 'all' };
      },

      async setPartColor(ids, color) {
        if (ids.length === 0) return;
        const colors: Record<string, string | null> = {};
        for (const id of ids) colors[id] = color;
        await update(`Could not change the colour of ${names(ids)}`, { colors });
      },

      askIgnorePair(a, b) {
        set({ ignoreDraft: { a, b }, dialog: 'ignore', contextMenu: null });
      },

      async ignorePair(a, b, reason) {
        const doc = get().doc;
        if (!doc || a === b) return;
        const key = pairKey(a, b);
        const others = doc.ignore.filter((r) => pairKey(r.a, r.b) !== key);
        const trimmed = reason.trim();
        const next = await update(`Could not ignore ${names([a, b])}`, { ignore: [...others, trimmed === '' ? { a, b } : { a, b, reason: trimmed }] });
        if (next) get().notify('info', 'Pair ignored', `${names([a, b])}${trimmed ? `: ${trimmed}` : ''}. The next check reports it as ignored.`);
        set({ ignoreDraft: null });
      },

      async setResultStatus(key, status) {
        await update('Could not change the status', { statuses: { [key]: status } });
      },

      openContextMenu(menu) {
        set({ contextMenu: menu });
      },

      closeContextMenu() {
        if (get().contextMenu !== null) set({ contextMenu: null });
      },
    };
  };
}
