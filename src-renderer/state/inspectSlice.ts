import type { StateCreator } from 'zustand/vanilla';
import { pairKey, type CheckOutcome, type OverlapSolidInfo, type PairResultInfo, type PartInfo } from '../../src-main/contract/host';
import { selectedResultOf } from './selectors';
import type { AppState, InspectSlice } from './types';

/** Depth and number of boxes the traversal view asks for at most. */
export const TRACE_MAX_DEPTH = 40;
export const TRACE_MAX_BOXES = 60_000;

/** The pair the traversal view shows: the selected result's, else two selected parts. */
export function inspectedPair(state: Pick<AppState, 'check' | 'selectedResult' | 'selectedParts'>): { a: string; b: string; result: PairResultInfo | null } | null {
  const result = selectedResultOf(state);
  if (result) return { a: result.a, b: result.b, result };
  if (state.selectedParts.length === 2) return { a: state.selectedParts[0], b: state.selectedParts[1], result: null };
  return null;
}

/** What a fetch for a pair depends on: the document, the pair and both placements. */
export function inspectKey(docId: string, a: PartInfo, b: PartInfo): string {
  return `${docId}|${pairKey(a.id, b.id)}@${a.transform.join(',')};${b.transform.join(',')}`;
}

/**
 * The inspect slice: for the selected result, its interference volume as a solid (the host's
 * overlap solid) and, on demand, the traversal view of the pair — each fetched again when a
 * placement of the pair changes, never during a drag.
 */
export function createInspectSlice(): StateCreator<AppState, [], [], InspectSlice> {
  /**
   * The overlap solids fetched for the results of the last check, by pair (with the key they were
   * fetched for): selecting a row again shows its solid at once, without asking the host again
   * (and the view keeps the objects it built for it). Forgotten when a new check's outcome comes.
   */
  let solids: { outcome: CheckOutcome | null; byPair: Map<string, { key: string; solid: OverlapSolidInfo | null }> } = { outcome: null, byPair: new Map() };
  const solidsOf = (outcome: CheckOutcome | null) => {
    if (solids.outcome !== outcome) solids = { outcome, byPair: new Map() };
    return solids.byPair;
  };
  return (set, get) => ({
    showOverlap: true,
    showCrossing: false,
    overlap: null,
    traceOn: false,
    traceBoxes: true,
    traceDepth: 5,
    trace: null,

    setShowOverlap(on) {
      set({ showOverlap: on });
      get().syncInspect();
    },

    setShowCrossing(on) {
      set({ showCrossing: on });
    },

    setTraceOn(on) {
      set({ traceOn: on });
      get().syncInspect();
    },

    setTraceBoxes(on) {
      set({ traceBoxes: on });
    },

    setTraceDepth(depth) {
      set({ traceDepth: Math.max(0, Math.min(TRACE_MAX_DEPTH, Math.round(depth))) });
    },

    syncInspect() {
      const s = get();
      if (s.drag) return;
      // Solids of an earlier check (or document) are let go.
      solidsOf(s.check.outcome);
      const { host, doc } = s;
      const pair = inspectedPair(s);
      const pa = pair ? doc?.parts.find((p) => p.id === pair.a) : undefined;
      const pb = pair ? doc?.parts.find((p) => p.id === pair.b) : undefined;
      if (!host || !doc || !pair || !pa || !pb) {
        if (s.overlap !== null || s.trace !== null) set({ overlap: null, trace: null });
        return;
      }
      const key = inspectKey(doc.id, pa, pb);

      const wantOverlap = s.showOverlap && pair.result?.kind === 'interference' && pa.closed && pb.closed;
      if (!wantOverlap) {
        if (s.overlap !== null) set({ overlap: null });
      } else if (s.overlap?.key !== key) {
        const outcome = s.check.outcome;
        const known = solidsOf(outcome).get(pairKey(pair.a, pair.b));
        if (known?.key === key) {
          set({ overlap: { key, status: known.solid ? 'ready' : 'none', solid: known.solid } });
        } else {
          set({ overlap: { key, status: 'loading', solid: null } });
          host.checkOverlap({ docId: doc.id, a: pair.a, b: pair.b }).then(
            (solid) => {
              if (get().check.outcome === outcome) solidsOf(outcome).set(pairKey(pair.a, pair.b), { key, solid });
              if (get().overlap?.key === key) set({ overlap: { key, status: solid ? 'ready' : 'none', solid } });
            },
            (error: unknown) => {
              if (get().overlap?.key !== key) return;
              set({ overlap: { key, status: 'failed', solid: null } });
              get().reportError('Could not compute the interference volume', error, doc.path);
            },
          );
        }
      }

      if (!s.traceOn) {
        if (s.trace !== null) set({ trace: null });
      } else if (s.trace?.key !== key) {
        set({ trace: { key, status: 'loading', data: null } });
        host.checkTrace({ docId: doc.id, a: pair.a, b: pair.b, maxDepth: TRACE_MAX_DEPTH, maxBoxes: TRACE_MAX_BOXES }).then(
          (data) => {
            if (get().trace?.key === key) set({ trace: { key, status: 'ready', data } });
          },
          (error: unknown) => {
            if (get().trace?.key !== key) return;
            set({ trace: { key, status: 'failed', data: null } });
            get().reportError('Could not trace the pair', error, doc.path);
          },
        );
      }
    },
  });
}
