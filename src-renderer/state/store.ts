/**
 * The renderer's one store, built from slices: document (host connection, open document, display
 * geometry loading), selection, check (jobs, outcome, results table order), view (projection,
 * visibility, camera requests, dialogs), notices (errors and messages), commands, placement
 * (gizmo, undo, live check), review (check scope and sets, colours, ignore rules, statuses),
 * inspect (the selected result's volume and traversal view) and recovery (unsaved work an earlier
 * run left behind).
 *
 * `createAppStore` is free of the DOM and of three: tests build it with a fake host and a fake
 * geometry registry; the app builds it once with the real registry (see ./appStore.ts).
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createCheckSlice } from './checkSlice';
import { createCommandSlice } from './commandSlice';
import { createSliceContext } from './context';
import { createDocumentSlice } from './documentSlice';
import { createInspectSlice } from './inspectSlice';
import { createNoticeSlice } from './noticeSlice';
import { createPlacementSlice } from './placementSlice';
import { createRecoverySlice } from './recoverySlice';
import { createReviewSlice } from './reviewSlice';
import { createSelectionSlice } from './selectionSlice';
import type { AppState, StoreDeps } from './types';
import { createViewSlice } from './viewSlice';

export type AppStore = StoreApi<AppState>;

export function createAppStore(deps: StoreDeps): AppStore {
  const ctx = createSliceContext(deps);
  const documentSlice = createDocumentSlice(ctx);
  const selectionSlice = createSelectionSlice();
  const checkSlice = createCheckSlice(ctx);
  const viewSlice = createViewSlice();
  const noticeSlice = createNoticeSlice(deps);
  const commandSlice = createCommandSlice(ctx);
  const placementSlice = createPlacementSlice(ctx);
  const reviewSlice = createReviewSlice();
  const inspectSlice = createInspectSlice();
  const recoverySlice = createRecoverySlice(ctx);
  return createStore<AppState>()((...a) => ({
    ...documentSlice(...a),
    ...selectionSlice(...a),
    ...checkSlice(...a),
    ...viewSlice(...a),
    ...noticeSlice(...a),
    ...commandSlice(...a),
    ...placementSlice(...a),
    ...reviewSlice(...a),
    ...inspectSlice(...a),
    ...recoverySlice(...a),
  }));
}
