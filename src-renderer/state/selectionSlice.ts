import type { StateCreator } from 'zustand/vanilla';
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
        return;
      }
      if (mode === 'range' && s.selectionAnchor !== null && s.doc) {
        const order = s.doc.parts.map((p) => p.id);
        const from = order.indexOf(s.selectionAnchor);
        const to = order.indexOf(id);
        if (from >= 0 && to >= 0) {
          const [lo, hi] = from <= to ? [from, to] : [to, from];
          set({ selectedParts: order.slice(lo, hi + 1) });
          return;
        }
      }
      set({ selectedParts: [id], selectionAnchor: id });
    },

    selectParts(ids) {
      set({ selectedParts: [...new Set(ids)], selectionAnchor: ids.length > 0 ? ids[ids.length - 1] : null });
    },

    clearSelection() {
      set({ selectedParts: [], selectionAnchor: null, selectedResult: null });
    },

    hoverPart(id) {
      if (get().hoveredPart !== id) set({ hoveredPart: id });
    },

    selectResult(key) {
      if (key === null) {
        set({ selectedResult: null });
        return;
      }
      set({ selectedResult: key });
      const result = selectedResultOf(get());
      if (!result) {
        set({ selectedResult: null });
        return;
      }
      set({ selectedParts: [result.a, result.b], selectionAnchor: result.b });
      get().requestCamera({ kind: 'fitResult', key });
    },
  });
}
