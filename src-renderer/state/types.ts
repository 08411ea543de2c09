/**
 * The renderer's state: one zustand store made of slices. The store holds ids, selection,
 * visibility and job state only; display geometry lives outside it, in a registry keyed by body
 * (see `GeometrySink`), so a 400k-triangle assembly never passes through React or zustand.
 */
import type {
  AppInfo,
  CheckOutcome,
  CheckScope,
  DocumentInfo,
  HostApi,
  MenuCommand,
  BodyGeometry,
  Settings,
} from '../../src-main/contract/host';
import type { Notice, NoticeLevel } from './notices';
import type { ResultFilter, ResultSort } from './results';

/** Where display geometry goes: a registry of bodies by key, outside the reactive state. */
export interface GeometrySink {
  /** Adds (or replaces) the display geometry of bodies. */
  add(bodies: readonly BodyGeometry[]): void;
  has(bodyKey: string): boolean;
  /** Releases every body whose key is not in `keep`. */
  retain(keep: ReadonlySet<string>): void;
}

/** What the store needs from its environment (injected so that tests run without a DOM). */
export interface StoreDeps {
  readonly geometry: GeometrySink;
  /** Milliseconds, monotonic enough for durations (default Date.now). */
  readonly now?: () => number;
  /** Asks the user to confirm (default: yes). */
  readonly confirm?: (message: string) => boolean;
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

  /** Binds the store to a host: subscribes to its events and shows its startup document. */
  connect(host: HostApi): Promise<void>;
  /** Stops listening to the host. */
  disconnect(): void;
  /** Takes a document from the host (a response or a doc.changed event). */
  receiveDocument(doc: DocumentInfo): void;
  openDocument(path?: string): Promise<void>;
  newDocument(): Promise<void>;
  importFile(path?: string): Promise<void>;
  /** Resolves with the path saved to, or null (cancelled or failed). */
  saveDocument(options?: { saveAs?: boolean; path?: string }): Promise<string | null>;
  updateSettings(settings: Partial<Settings>): Promise<void>;
  exportReport(format: 'html' | 'csv' | 'json', path?: string): Promise<string | null>;
  runBatch(paths?: string[], reportFolder?: string): Promise<void>;
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
}

export interface CheckSlice {
  check: CheckState;
  /** Jobs the host reported progress for, by id. */
  jobs: Readonly<Record<string, JobState>>;
  resultSort: ResultSort;
  resultFilter: ResultFilter;

  runCheck(scope?: CheckScope): Promise<void>;
  /** Cancels the foreground job (the check, else the latest job). */
  cancelJob(): Promise<void>;
  setResultSort(sort: ResultSort): void;
  setResultFilter(filter: Partial<ResultFilter>): void;
}

// ------------------------------------------------------------------------------------------------
// View

export type StandardView = 'front' | 'top' | 'right' | 'iso';

export type CameraCommand =
  | { readonly kind: 'fitAll' }
  | { readonly kind: 'fitSelection' }
  | { readonly kind: 'fitResult'; readonly key: string }
  | { readonly kind: 'view'; readonly view: StandardView };

export type DialogKind = 'open' | 'import' | 'saveAs' | 'export' | 'batch' | 'shortcuts';

export interface ViewSlice {
  projection: 'perspective' | 'orthographic';
  /** Visibility set in the part tree, over the document's own (`PartInfo.visible`). */
  visibility: Readonly<Record<string, boolean>>;
  partFilter: string;
  /** What happens to the other parts while a result is selected. */
  othersWhenResult: 'transparent' | 'hidden';
  /** The latest camera request; `seq` grows so that the same request twice is seen twice. */
  camera: { readonly seq: number; readonly command: CameraCommand } | null;
  dialog: DialogKind | null;

  setVisible(ids: readonly string[], visible: boolean): void;
  showAll(): void;
  isolate(ids: readonly string[]): void;
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
}

export type CommandSource = 'ui' | 'key' | 'menu';

export interface CommandSlice {
  /** Runs a command from the toolbar, a shortcut or the native menu. */
  runCommand(command: MenuCommand, source?: CommandSource): void;
}

export type AppState = DocumentSlice & SelectionSlice & CheckSlice & ViewSlice & NoticeSlice & CommandSlice;

/** zustand's `set` and `get` as the slices use them. */
export type SetState = (partial: Partial<AppState> | ((state: AppState) => Partial<AppState>)) => void;
export type GetState = () => AppState;
