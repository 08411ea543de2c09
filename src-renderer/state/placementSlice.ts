import type { StateCreator } from 'zustand/vanilla';
import { DEFAULT_TOUCH_TOLERANCE_MM } from '../../src-core/check/tolerance';
import type { SliceContext } from './context';
import { LiveChecker } from './liveCheck';
import { aabbCenter, aabbDiagonal, sameTransform, transformAabb, type Aabb, type Transform } from './placement';
import { EMPTY_HISTORY, recordChange, redoStep, undoStep, type PlacementChange } from './undo';
import type { AppState, PlacementSlice } from './types';

/** A body whose bounds are unknown (not loaded yet) counts as a point at its origin. */
const POINT_BOX: Aabb = { min: [0, 0, 0], max: [0, 0, 0] };

/** Reach of the live check around the moving part: 5 % of its size, within these bounds (mm). */
const LIVE_REACH_MIN_MM = 0.5;
const LIVE_REACH_MAX_MM = 10;

/** The drag in progress (not state anyone renders: the gizmo and the checker share it). */
interface DragSession {
  readonly docId: string;
  readonly partId: string;
  readonly start: Transform;
  latest: Transform;
  readonly checker: LiveChecker | null;
}

/**
 * The placement slice: moving parts (numeric fields, gizmo drags) as undoable steps sent to the
 * host, the gizmo's settings, and the live check while a part is dragged.
 */
export function createPlacementSlice(ctx: SliceContext): StateCreator<AppState, [], [], PlacementSlice> {
  const schedule = ctx.deps.scheduleFrame ?? ((run: () => void) => void setTimeout(run, 0));
  const registry = ctx.deps.geometry;
  let session: DragSession | null = null;

  return (set, get) => {
    /** Sends placements to the host; false (with the reason shown) when it refuses. */
    async function sendPlacements(transforms: Readonly<Record<string, Transform>>, failTitle: string): Promise<boolean> {
      const { host, doc } = get();
      if (!host || !doc) return false;
      const request: Record<string, number[]> = {};
      for (const [id, t] of Object.entries(transforms)) request[id] = [...t];
      try {
        const next = await host.docUpdate({ docId: doc.id, transforms: request });
        get().receiveDocument(next);
        return true;
      } catch (error) {
        get().reportError(failTitle, error, doc.path);
        return false;
      }
    }

    function label(id: string): string {
      return get().partNames.get(id) ?? id;
    }

    /** Applies one side of an undo entry; restores the history when the host refuses. */
    async function step(kind: 'undo' | 'redo'): Promise<void> {
      if (get().drag) return;
      const history = get().history;
      const next = kind === 'undo' ? undoStep(history) : redoStep(history);
      if (!next) {
        get().notify('info', kind === 'undo' ? 'Nothing to undo' : 'Nothing to redo', 'Undo and redo go through the placement changes of this document.');
        return;
      }
      set({ history: next.history });
      const change: PlacementChange = next.change;
      const ok = await sendPlacements(kind === 'undo' ? change.before : change.after, kind === 'undo' ? `Could not undo “${change.label}”` : `Could not redo “${change.label}”`);
      if (!ok) {
        if (get().history === next.history) set({ history });
        return;
      }
      get().notify('info', kind === 'undo' ? 'Undone' : 'Redone', change.label);
      get().syncInspect();
    }

    ctx.cancelLive = () => {
      session?.checker?.cancel();
      session = null;
    };

    return {
      history: EMPTY_HISTORY,
      gizmoMode: null,
      snapMm: null,
      snapDeg: null,
      liveCheck: true,
      stopAtContact: false,
      drag: null,
      live: null,

      async movePart(id, transform, changeLabel) {
        const part = get().doc?.parts.find((p) => p.id === id);
        if (!part || get().drag) return false;
        if (sameTransform(part.transform, transform, 0)) return true;
        const before = part.transform;
        const ok = await sendPlacements({ [id]: transform }, `Could not move ${label(id)}`);
        if (ok) {
          set((s) => ({ history: recordChange(s.history, { label: changeLabel, before: { [id]: before }, after: { [id]: [...transform] } }), live: null }));
          get().syncInspect();
        }
        return ok;
      },

      undo: () => step('undo'),
      redo: () => step('redo'),

      setGizmoMode(mode) {
        set({ gizmoMode: mode });
      },

      setSnap(snap) {
        set((s) => ({ snapMm: snap.mm !== undefined ? snap.mm : s.snapMm, snapDeg: snap.deg !== undefined ? snap.deg : s.snapDeg }));
      },

      setLiveCheck(on) {
        set({ liveCheck: on });
      },

      setStopAtContact(on) {
        set({ stopAtContact: on });
      },

      beginDrag(id) {
        const { host, doc, liveCheck, stopAtContact } = get();
        const part = doc?.parts.find((p) => p.id === id);
        if (!host || !doc || !part) return;
        session?.checker?.cancel();
        const box = registry.bodyBounds(part.bodyKey) ?? POINT_BOX;
        const withinMm = Math.min(LIVE_REACH_MAX_MM, Math.max(LIVE_REACH_MIN_MM, 0.05 * aabbDiagonal(box)));
        let checker: LiveChecker | null = null;
        if (liveCheck) {
          const others = doc.parts.flatMap((p) => {
            const b = p.id === id ? null : registry.bodyBounds(p.bodyKey);
            return b ? [{ id: p.id, box: transformAabb(b, p.transform) }] : [];
          });
          checker = new LiveChecker({
            host,
            docId: doc.id,
            partId: id,
            start: part.transform,
            box,
            pivot: aabbCenter(box),
            others,
            withinMm,
            touchMm: doc.settings.touchToleranceMm ?? DEFAULT_TOUCH_TOLERANCE_MM,
            stopAtContact,
            schedule,
            onReport: (r) => {
              if (session?.checker !== checker) return;
              set((s) => ({
                live: { partId: id, placement: r.placement, pairs: r.pairs, checked: r.checked, stoppedBy: r.stoppedBy, withinMm },
                drag: s.drag && s.drag.partId === id && !sameTransform(s.drag.shown, r.shown, 0) ? { ...s.drag, shown: r.shown } : s.drag,
              }));
            },
            onError: (error) => get().reportError('The live check stopped', error, doc.path),
          });
        }
        session = { docId: doc.id, partId: id, start: part.transform, latest: part.transform, checker };
        set({ drag: { partId: id, shown: part.transform, settling: false }, live: null });
      },

      dragTo(transform) {
        if (!session) return transform;
        session.latest = transform;
        const shown = session.checker ? session.checker.update(transform) : transform;
        // The fields and the gizmo follow where the part is drawn.
        const d = get().drag;
        if (d && d.partId === session.partId && !sameTransform(d.shown, shown, 0)) set({ drag: { ...d, shown } });
        return shown;
      },

      async endDrag(changeLabel) {
        const current = session;
        if (!current) return;
        set((s) => ({ drag: s.drag ? { ...s.drag, settling: true } : null }));
        const final = current.checker ? await current.checker.finish() : current.latest;
        if (session !== current) return;
        session = null;
        if (get().doc?.id !== current.docId) {
          set({ drag: null });
          return;
        }
        // Always send the final placement: during the drag the host may have been given another.
        const ok = await sendPlacements({ [current.partId]: final }, `Could not move ${label(current.partId)}`);
        if (ok) set((s) => ({ history: recordChange(s.history, { label: changeLabel, before: { [current.partId]: current.start }, after: { [current.partId]: [...final] } }) }));
        set({ drag: null });
        get().syncInspect();
      },

      clearLive() {
        if (get().live !== null) set({ live: null });
      },
    };
  };
}
