/**
 * The contract of the host service: what the thin shells (Electron main, the loopback bridge)
 * need from it, what they provide to it, and the types its parts share. The service itself
 * (./hostService.ts and its parts in this folder) is plain Node: every request of the host API
 * (../../contract/host.ts) is handled there, whichever shell received it.
 */
import type { ActivityLog } from '../log.js';
import type { EventChannel, EventOf } from '../../contract/host.js';
import type { AtomicFs } from '../files.js';
import type { ForkFn } from '../spawn.js';
import type { TreePoolOptions } from '../treePool.js';

/** Native file dialogs; a shell without them (the bridge) passes null. */
export interface HostDialogs {
  /** One file to open (assemblies and CAD/STL files); null when cancelled. */
  openFile(options: { title: string; filters: { name: string; extensions: string[] }[] }): Promise<string | null>;
  /** Several files (batch check); empty when cancelled. */
  openFiles(options: { title: string; filters: { name: string; extensions: string[] }[] }): Promise<string[]>;
  /** A file to write; null when cancelled. */
  saveFile(options: { title: string; defaultPath?: string; filters: { name: string; extensions: string[] }[] }): Promise<string | null>;
  /** A folder (where batch reports go); null when cancelled. */
  chooseFolder(options: { title: string }): Promise<string | null>;
}

export interface HostServiceOptions {
  /** 'electron' or 'bridge' (AppInfo.host). */
  readonly host: 'electron' | 'bridge';
  readonly dialogs: HostDialogs | null;
  /** How compute children (tree builders, checks) start (utilityProcess in Electron; child_process.fork otherwise). */
  readonly fork?: ForkFn;
  /** Where recent files and the tree cache live. */
  readonly userDataDir: string;
  /** A file to open at start (command line, or the bundled sample). */
  readonly startupFile?: string | null;
  /** Folders whose files may be opened by path without a dialog (the bridge's allowed roots). */
  readonly allowedFolders?: readonly string[];
  readonly log?: (message: string) => void;
  /**
   * The app's log file (../log.ts): documents opened, checks run, failures with their stacks,
   * and the service's own messages. Default: none.
   */
  readonly activity?: ActivityLog;
}

/** The host service as the shells see it. */
export interface HostServiceApi {
  /**
   * Handles one request; `payload` is admitted here as at the shells' door (unknown channels,
   * oversize and invalid payloads are refused with a HostError, ../../contract/admission.ts).
   * Resolves with the response or rejects with HostRequestError (../../contract/host.ts), the one
   * error that crosses to the renderer.
   */
  handle(channel: string, payload: unknown): Promise<unknown>;
  /** Subscribes to host events (to forward them to the renderer). */
  on<E extends EventChannel>(event: E, listener: (payload: EventOf<E>) => void): () => void;
  /** Grants access to a file the user chose outside a dialog (command line, drag and drop). */
  allowPath(path: string): void;
  /** Documents with unsaved changes (for the quit prompt). */
  dirtyDocuments(): { id: string; name: string }[];
  /** Opens the startup document (once the renderer asks for app.info it is included). */
  dispose(): Promise<void>;
}

/** Settings the shells do not need; tests use them. */
export interface HostServiceTuning {
  /** Options of the service's tree pool (size, in-process threshold, worker entry). */
  readonly treePool?: Omit<TreePoolOptions, 'fork' | 'log' | 'cache'>;
  /** Keep built trees in `<userDataDir>/tree-cache` so reopening is fast (default true). */
  readonly treeCache?: boolean;
  /** Least milliseconds between two progress events of a job at the same stage (default 100). */
  readonly progressIntervalMs?: number;
  /**
   * Autosave of unsaved work to recovery files: the first write `debounceMs` after a document
   * becomes dirty (default 2 s), then at most every `intervalMs` while it changes (default 30 s);
   * false: none.
   */
  readonly autosave?: false | { readonly debounceMs?: number; readonly intervalMs?: number };
  /**
   * Where checks, pair queries and volumes run: the check child (default; how it starts, by
   * default as the tree builders do, and how long a cancelled check may run on before it is
   * killed, ../checkChild.ts), or 'in-process' (this process, yielding every 16 ms).
   */
  readonly checks?: 'in-process' | { readonly fork?: ForkFn; readonly cancelGraceMs?: number };
  /** The file operations of saving documents (default node:fs/promises; tests pause or fail steps). */
  readonly atomicFs?: AtomicFs;
}

/** The formats of a report. */
export type ReportFormat = 'html' | 'csv' | 'json';

/** What a job does (the `kind` of its events). */
export type JobKind = 'check' | 'batch' | 'open' | 'import';

