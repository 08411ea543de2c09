import type { StateCreator } from 'zustand/vanilla';
import { partMarks } from './marks';
import { splitStatusKey } from './results';
import { selectedResultOf } from './selectors';
import type { AppState, SelectionSlice } from './types';

/** The selection slice: selected and hovered parts, and the selected result. */
export function createSelectionSlice(): StateCreator<AppState, [], [], SelectionSlice> {
  return (set, get) => ({
    selectedParts: [],
    selectionAnchor: null,
    hoveredPart: null,
    selectedResult: null,

    selectPart(id, mode = 'replace') {
      const s = get();
      if (mode === 'toggle') {
        const selected = s.selectedParts.includes(id) ? s.selectedParts.filter((p) => p !== id) : [...s.selectedParts, id];
        set({ selectedParts: selected, selectionAnchor: id });
        get().syncInspect();
        return;
      }
      if (mode === 'range' && s.selectionAnchor !== null && s.doc) {
        const order = s.doc.parts.map((p) => p.id);
        const from = order.indexOf(s.selectionAnchor);
        const to = order.indexOf(id);
        if (from >= 0 && to >= 0) {
          const [lo, hi] = from <= to ? [from, to] : [to, from];
          set({ selectedParts: order.slice(lo, hi + 1) });
          get().syncInspect();
          return;
        }
      }
      set({ selectedParts: [id], selectionAnchor: id });
      get().syncInspect();
    },

    pickPart(id, mode = 'replace') {
      const s = get();
      if (mode === 'replace' && s.selectedResult === null && partMarks(s.check.outcome).has(id)) s.setResultFilter({ part: id });
      get().selectPart(id, mode);
    },

    selectParts(ids) {
      set({ selectedParts: [...new Set(ids)], selectionAnchor: ids.length > 0 ? ids[ids.length - 1] : null });
      get().syncInspect();
    },

    clearSelection() {
      set({ selectedParts: [], selectionAnchor: null, selectedResult: null });
      get().syncInspect();
    },

    hoverPart(id) {
      if (get().hoveredPart !== id) set({ hoveredPart: id });
    },

    selectResult(key) {
      if (key === null) {
        set({ selectedResult: null });
        get().syncInspect();
        return;
      }
      get().clearLive();
      set({ selectedResult: key });
      const result = selectedResultOf(get());
      if (!result) {
        set({ selectedResult: null });
        // A pair not in the last check (resolved, or known from the saved review): its two parts.
        const ids = splitStatusKey(key, new Set(get().doc?.parts.map((p) => p.id) ?? []));
        if (ids) {
          set({ selectedParts: ids, selectionAnchor: ids[1] });
          get().requestCamera({ kind: 'fitSelection' });
        }
        get().syncInspect();
        return;
      }
      set({ selectedParts: [result.a, result.b], selectionAnchor: result.b });
      get().requestCamera({ kind: 'fitResult', key });
      get().syncInspect();
    },
  });
}
