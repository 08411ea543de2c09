/**
 * The renderer's state: one zustand store made of slices. The store holds ids, selection,
 * visibility and job state only; display geometry lives outside it, in a registry keyed by body
 * (see `GeometrySink`), so a 400k-triangle assembly never passes through React or zustand.
 */
import type {
  AppInfo,
  BatchFileResult,
  CheckOutcome,
  CheckScope,
  DocumentInfo,
  HostApi,
  MenuCommand,
  BodyGeometry,
  OverlapSolidInfo,
  PairTrace,
  RecoverableDocument,
  ResultStatus,
  Settings,
} from '../../src-main/contract/host';
import type { LivePair } from './liveCheck';
import type { Notice, NoticeLevel } from './notices';
import type { Aabb, Transform } from './placement';
import type { ResultFilter, ResultSort } from './results';
import type { UndoHistory } from './undo';

/** Where display geometry goes: a registry of bodies by key, outside the reactive state. */
export interface GeometrySink {
  /** Adds (or replaces) the display geometry of bodies. */
  add(bodies: readonly BodyGeometry[]): void;
  has(bodyKey: string): boolean;
  /** Releases every body whose key is not in `keep`. */
  retain(keep: ReadonlySet<string>): void;
  /** The box of a body in its own frame, or null when it is not loaded. */
  bodyBounds(bodyKey: string): Aabb | null;
}

/** What the store needs from its environment (injected so that tests run without a DOM). */
export interface StoreDeps {
  readonly geometry: GeometrySink;
  /** Milliseconds, monotonic enough for durations (default Date.now). */
  readonly now?: () => number;
  /** Asks the user to confirm (default: yes). */
  readonly confirm?: (message: string) => boolean;
  /** Runs work at the next animation frame (default: the next turn of the event loop). */
  readonly scheduleFrame?: (run: () => void) => void;
}

// ------------------------------------------------------------------------------------------------
// Document

export type ConnectionState = 'connecting' | 'connected' | 'failed';

export interface GeometryState {
  /** 'loading' while bodies are being fetched; 'ready' when every part's body is in the registry. */
  readonly status: 'idle' | 'loading' | 'ready' | 'failed';
  /** Incremented whenever bodies are added to the registry. */
  readonly version: number;
}

export interface DocumentSlice {
  host: HostApi | null;
  connection: ConnectionState;
  appInfo: AppInfo | null;
  doc: DocumentInfo | null;
  /** Display labels by part id (see partNames.ts). */
  partNames: ReadonlyMap<string, string>;
  geometry: GeometryState;
  /** A request that blocks document actions ('Opening…', 'Saving…'), or null. */
  busy: string | null;

  /**
   * Binds the store to a host: subscribes to its events, shows its startup document, then offers
   * unsaved work of earlier runs (checkRecoverable).
   */
  connect(host: HostApi): Promise<void>;
  /** Stops listening to the host. */
  disconnect(): void;
  /** Takes a document from the host (a response or a doc.changed event). */
  receiveDocument(doc: DocumentInfo): void;
  openDocument(path?: string): Promise<void>;
  /** Opens a file the user handed to the window (dropped on it) through the shell's `open`. */
  openDropped(name: string, open: () => Promise<DocumentInfo | null>): Promise<void>;
  newDocument(): Promise<void>;
  importFile(path?: string): Promise<void>;
  /** Resolves with the path saved to, or null (cancelled or failed). */
  saveDocument(options?: { saveAs?: boolean; path?: string }): Promise<string | null>;
  updateSettings(settings: Partial<Settings>): Promise<void>;
  exportReport(format: ReportFormat, path?: string): Promise<string | null>;
  /** The batch check started from this window, with its files as they finish. */
  batch: BatchState | null;
  runBatch(paths?: string[], reportFolder?: string, format?: ReportFormat): Promise<void>;
  clearBatch(): void;
}

export type ReportFormat = 'html' | 'csv' | 'json';

export interface BatchState {
  readonly jobId: string | null;
  readonly status: 'starting' | 'running' | 'done' | 'failed';
  /** Files to check (0 until the host says, when it chose them). */
  readonly total: number;
  readonly files: readonly BatchFileResult[];
  readonly error: string | null;
  readonly format: ReportFormat;
  readonly reportFolder: string | null;
}

// ------------------------------------------------------------------------------------------------
// Selection

export type SelectMode = 'replace' | 'toggle' | 'range';

export interface SelectionSlice {
  selectedParts: readonly string[];
  /** Where a Shift+click range starts. */
  selectionAnchor: string | null;
  hoveredPart: string | null;
  /** The selected result's pair key (`a|b`), or null. */
  selectedResult: string | null;

  selectPart(id: string, mode?: SelectMode): void;
  selectParts(ids: readonly string[]): void;
  clearSelection(): void;
  hoverPart(id: string | null): void;
  /** Selects a result (its two parts too) and frames it; null clears it. */
  selectResult(key: string | null): void;
  /**
   * A click on a part in the view: selects it, and when the last check found it in a result
   * (the overview marks it), filters the results table to its results.
   */
  pickPart(id: string, mode?: SelectMode): void;
}

// ------------------------------------------------------------------------------------------------
// Check and jobs

export interface JobState {
  readonly id: string;
  readonly kind: 'check' | 'batch' | 'open' | 'import';
  readonly stage: string;
  readonly done: number;
  readonly total: number;
  readonly startedAt: number;
}

export interface CheckState {
  /** The running check's job, once the host has named it. */
  readonly jobId: string | null;
  /** A check was asked for and has not finished (includes the wait for its job id). */
  readonly running: boolean;
  readonly startedAt: number | null;
  /** Cancel as soon as the job id is known. */
  readonly cancelRequested: boolean;
  readonly outcome: CheckOutcome | null;
  /** When the outcome arrived (epoch ms). */
  readonly finishedAt: number | null;
  /** The document changed (placements, settings, ignore rules) since the outcome was computed. */
  readonly stale: boolean;
  /** Whether the check asked for (running, or the last one) refines CAD fits (check.run's `refine`). */
  readonly requestRefine: boolean;
  /**
   * Whether the outcome's check refined CAD fits; null when unknown (a check this window did not
   * ask for).
   */
  readonly outcomeRefine: boolean | null;
}

export interface CheckSlice {
  check: CheckState;
  /** Jobs the host reported progress for, by id. */
  jobs: Readonly<Record<string, JobState>>;
  resultSort: ResultSort;
  resultFilter: ResultFilter;
  /**
   * Re-tessellate the CAD bodies of pairs their triangles cannot decide, finer, until they are
   * decided (check.run's `refine`); off, such pairs stay 'undecided'. On by default.
   */
  refineFits: boolean;

  runCheck(scope?: CheckScope): Promise<void>;
  /** Cancels the foreground job (the check, else the latest job). */
  cancelJob(): Promise<void>;
  setResultSort(sort: ResultSort): void;
  setResultFilter(filter: Partial<ResultFilter>): void;
  setRefineFits(on: boolean): void;
}

// ------------------------------------------------------------------------------------------------
// View

export type StandardView = 'front' | 'top' | 'right' | 'iso';

export type CameraCommand =
  | { readonly kind: 'fitAll' }
  | { readonly kind: 'fitSelection' }
  | { readonly kind: 'fitResult'; readonly key: string }
  | { readonly kind: 'view'; readonly view: StandardView }
  /** Look from a direction (from the target towards the camera), e.g. a face of the view cube. */
  | { readonly kind: 'direction'; readonly direction: readonly [number, number, number] };

/** The section view: a cut plane through the selected finding (see scene/Section.tsx). */
export interface SectionState {
  readonly on: boolean;
  /** The plane's normal: the axis of the finding's smallest extent ('auto'), a world axis, or the view direction. */
  readonly axis: 'auto' | 'x' | 'y' | 'z' | 'view';
  /** Keep the other side. */
  readonly flip: boolean;
  /** Offset of the plane along its normal from where it was placed (mm). */
  readonly offsetMm: number;
  /** How far the offset slider reaches either way (mm). */
  readonly rangeMm: number;
  /** Grows when the plane is to be placed again (turned on, another axis, another result). */
  readonly seq: number;
}

export type DialogKind = 'open' | 'import' | 'saveAs' | 'export' | 'batch' | 'shortcuts' | 'ignore' | 'recovery';

export interface ViewSlice {
  projection: 'perspective' | 'orthographic';
  /** Visibility set in the part tree, over the document's own (`PartInfo.visible`). */
  visibility: Readonly<Record<string, boolean>>;
  /** While parts are isolated: the visibility to go back to (Esc, Show all). */
  isolation: Readonly<Record<string, boolean>> | null;
  partFilter: string;
  /** What happens to the other parts while a result is selected. */
  othersWhenResult: 'transparent' | 'hidden';
  /** The latest camera request; `seq` grows so that the same request twice is seen twice. */
  camera: { readonly seq: number; readonly command: CameraCommand } | null;
  dialog: DialogKind | null;
  section: SectionState;

  setSection(patch: Partial<Omit<SectionState, 'seq'>>, place?: boolean): void;
  toggleSection(): void;
  setVisible(ids: readonly string[], visible: boolean): void;
  showAll(): void;
  /** Shows only these parts until Esc or Show all. */
  isolate(ids: readonly string[]): void;
  /** Ends an isolation, back to the visibility before it. */
  endIsolation(): void;
  setPartFilter(text: string): void;
  setProjection(projection: 'perspective' | 'orthographic'): void;
  setOthersWhenResult(mode: 'transparent' | 'hidden'): void;
  requestCamera(command: CameraCommand): void;
  openDialog(kind: DialogKind): void;
  closeDialog(): void;
}

// ------------------------------------------------------------------------------------------------
// Notices and commands

export interface NoticeSlice {
  notices: readonly Notice[];
  notify(level: NoticeLevel, title: string, message: string, extra?: { code?: string | null; path?: string | null }): void;
  /** Reports a failure as an error notice (a cancellation as an info notice). */
  reportError(title: string, error: unknown, path?: string | null): void;
  dismissNotice(id: number): void;
  dismissAllNotices(): void;
}

export type CommandSource = 'ui' | 'key' | 'menu';

/** Commands of the native menu, and those only the window has (no menu item). */
export type AppCommand = MenuCommand | 'view.section' | 'view.crossing' | 'view.isolate' | 'view.hide' | 'view.showAll' | 'gizmo.translate' | 'gizmo.rotate';

export interface CommandSlice {
  /** Runs a command from the toolbar, a shortcut or the native menu. */
  runCommand(command: AppCommand, source?: CommandSource): void;
}

// ------------------------------------------------------------------------------------------------
// Placement: gizmo, numeric fields, live check, undo

export type GizmoMode = 'translate' | 'rotate';

export interface DragState {
  readonly partId: string;
  /** Where the part is shown (the last clear placement while stopped at contact). */
  readonly shown: Transform;
  /** The drag ended and its last placements are being checked before it is kept. */
  readonly settling: boolean;
}

export interface LiveState {
  readonly partId: string;
  /** The placement these pairs were checked at. */
  readonly placement: Transform;
  /** Pairs with the moving part that intersect or come within reach. */
  readonly pairs: readonly LivePair[];
  /** Parts checked in the last batch. */
  readonly checked: number;
  /** With stop at contact: the parts the moving part is stopped against. */
  readonly stoppedBy: readonly string[];
  /** Reach of the distances, mm. */
  readonly withinMm: number;
}

export interface PlacementSlice {
  history: UndoHistory;
  /** The transform gizmo on the selected part, or null for none. */
  gizmoMode: GizmoMode | null;
  /** Snapping steps of the gizmo, or null for none. */
  snapMm: number | null;
  snapDeg: number | null;
  /** Re-check the pairs of a part while it is dragged. */
  liveCheck: boolean;
  stopAtContact: boolean;
  drag: DragState | null;
  /** What the live check found last (kept after the drag until the next check or selection). */
  live: LiveState | null;

  /** Places a part (one undoable step); resolves false when the host refused. */
  movePart(id: string, transform: Transform, label: string): Promise<boolean>;
  undo(): Promise<void>;
  redo(): Promise<void>;
  setGizmoMode(mode: GizmoMode | null): void;
  setSnap(snap: { mm?: number | null; deg?: number | null }): void;
  setLiveCheck(on: boolean): void;
  setStopAtContact(on: boolean): void;
  /** A gizmo drag of a part begins. */
  beginDrag(id: string): void;
  /** The part is dragged to `transform`; returns where to show it. */
  dragTo(transform: Transform): Transform;
  /** The drag ends: the placement is kept as one undoable step. */
  endDrag(label: string): Promise<void>;
  clearLive(): void;
}

// ------------------------------------------------------------------------------------------------
// Review: check scope and sets, colours, ignore rules, statuses, context menu

export type CheckScopeKind = 'all' | 'selection' | 'sets';

export type ContextMenuTarget = { readonly kind: 'parts'; readonly ids: readonly string[] } | { readonly kind: 'result'; readonly key: string };

export interface ContextMenuState {
  /** Client pixels. */
  readonly x: number;
  readonly y: number;
  readonly target: ContextMenuTarget;
}

export interface ReviewSlice {
  checkScope: CheckScopeKind;
  checkSets: { readonly a: readonly string[]; readonly b: readonly string[] };
  /** The pair the Ignore dialog asks a reason for. */
  ignoreDraft: { readonly a: string; readonly b: string } | null;
  contextMenu: ContextMenuState | null;

  setCheckScope(kind: CheckScopeKind): void;
  /** Puts parts in set A or B (out of the other), or out of both (null). */
  assignToSet(ids: readonly string[], set: 'a' | 'b' | null): void;
  /** The scope the Check command runs with; null (with a message) when it cannot run. */
  scopeForCheck(): CheckScope | null;
  setPartColor(ids: readonly string[], color: string | null): Promise<void>;
  /** Asks for a reason, then ignores the pair. */
  askIgnorePair(a: string, b: string): void;
  ignorePair(a: string, b: string, reason: string): Promise<void>;
  setResultStatus(key: string, status: ResultStatus): Promise<void>;
  openContextMenu(menu: ContextMenuState): void;
  closeContextMenu(): void;
}

// ------------------------------------------------------------------------------------------------
// Inspecting the selected result: the overlap solid and the traversal view

export type FetchStatus = 'loading' | 'ready' | 'none' | 'failed';

export interface InspectSlice {
  /** Outline the interference volume of the selected result. */
  showOverlap: boolean;
  /** Draw the selected result's crossing triangles (off: only its volume and intersection curves). */
  showCrossing: boolean;
  overlap: { readonly key: string; readonly status: FetchStatus; readonly solid: OverlapSolidInfo | null } | null;
  /** The traversal view of the selected pair. */
  traceOn: boolean;
  traceBoxes: boolean;
  /** Boxes drawn down to this depth of their trees. */
  traceDepth: number;
  trace: { readonly key: string; readonly status: FetchStatus; readonly data: PairTrace | null } | null;

  setShowOverlap(on: boolean): void;
  setShowCrossing(on: boolean): void;
  setTraceOn(on: boolean): void;
  setTraceBoxes(on: boolean): void;
  setTraceDepth(depth: number): void;
  /** Fetches what the selected result needs (called when the selection or the placements change). */
  syncInspect(): void;
}

// ------------------------------------------------------------------------------------------------
// Recovery of unsaved work an earlier run left behind

export interface RecoveryState {
  /** Unsaved work of earlier runs still offered, newest first (as the host lists it). */
  readonly documents: readonly RecoverableDocument[];
  /** The entry being recovered or discarded, or null. */
  readonly pending: string | null;
}

export interface RecoverySlice {
  recovery: RecoveryState;

  /** Asks the host for unsaved work of earlier runs; opens the Recover dialog when there is any. */
  checkRecoverable(): Promise<void>;
  /** Opens an entry as it was last autosaved (with unsaved changes) in place of the current document. */
  recoverDocument(recoveryId: string): Promise<void>;
  /** Deletes an entry's recovery file, after the user confirms. */
  discardRecovery(recoveryId: string): Promise<void>;
}

export type AppState = DocumentSlice &
  SelectionSlice &
  CheckSlice &
  ViewSlice &
  NoticeSlice &
  CommandSlice &
  PlacementSlice &
  ReviewSlice &
  InspectSlice &
  RecoverySlice;

/** zustand's `set` and `get` as the slices use them. */
export type SetState = (partial: Partial<AppState> | ((state: AppState) => Partial<AppState>)) => void;
export type GetState = () => AppState;
