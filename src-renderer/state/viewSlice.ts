import type { StateCreator } from 'zustand/vanilla';
import type { AppState, ViewSlice } from './types';

/** The view slice: projection, part-tree visibility, camera requests, open dialog. */
export function createViewSlice(): StateCreator<AppState, [], [], ViewSlice> {
  let seq = 0;
  return (set, get) => ({
    projection: 'perspective',
    visibility: {},
    isolation: null,
    partFilter: '',
    othersWhenResult: 'transparent',
    camera: null,
    dialog: null,
    section: { on: false, axis: 'auto', flip: false, offsetMm: 0, rangeMm: 50, seq: 0 },

    setSection(patch, place = false) {
      set((s) => ({ section: { ...s.section, ...patch, seq: place ? s.section.seq + 1 : s.section.seq } }));
    },

    toggleSection() {
      const on = !get().section.on;
      get().setSection({ on, offsetMm: 0 }, on);
    },

    setVisible(ids, visible) {
      set((s) => {
        const visibility = { ...s.visibility };
        for (const id of ids) visibility[id] = visible;
        return { visibility };
      });
    },

    showAll() {
      const doc = get().doc;
      if (!doc) return;
      set({ visibility: Object.fromEntries(doc.parts.map((p) => [p.id, true])), isolation: null });
    },

    isolate(ids) {
      const doc = get().doc;
      if (!doc || ids.length === 0) return;
      const keep = new Set(ids);
      set((s) => ({ visibility: Object.fromEntries(doc.parts.map((p) => [p.id, keep.has(p.id)])), isolation: s.isolation ?? s.visibility }));
      get().requestCamera({ kind: 'fitSelection' });
    },

    endIsolation() {
      const before = get().isolation;
      if (before === null) return;
      set({ visibility: before, isolation: null });
    },

    setPartFilter(text) {
      set({ partFilter: text });
    },

    setProjection(projection) {
      set({ projection });
    },

    setOthersWhenResult(mode) {
      set({ othersWhenResult: mode });
    },

    requestCamera(command) {
      seq += 1;
      set({ camera: { seq, command } });
    },

    openDialog(kind) {
      set({ dialog: kind });
    },

    closeDialog() {
      set({ dialog: null });
    },
  });
}
