/**
 * What a host gives the OpenCascade importers (see ../occt.ts): the initialised occt-import-js
 * module, in this thread or remote, and how to put an error it threw into words.
 */
import type { OcctReader, OcctResult } from 'occt-import-js';
import type { ImportLimits } from '../limits.js';
import type { AbortSignalLike, TessellationParams } from '../types.js';

/**
 * The initialised occt-import-js module as a host provides it. `takeOutput`, when the host collects
 * OpenCascade's print/printErr lines, returns the lines printed since its last call and forgets
 * them; the importer uses them in error messages.
 */
export interface OcctModule extends OcctReader {
  takeOutput?(): string[];
}

/** What a remote read is told about the file it reads. */
export interface OcctReadContext {
  /** For messages (ImportError 'timeout' and 'aborted' name it). */
  readonly fileName: string;
  /** 'STEP', 'IGES' or 'BREP', for messages. */
  readonly label: string;
  /** Aborting stops OpenCascade (the host ends its worker) and rejects with ImportError 'aborted'. */
  readonly signal?: AbortSignalLike;
  /** The import's limits: cadTimeoutMs bounds the read (ImportError 'timeout'). */
  readonly limits: ImportLimits;
  /** Warnings for the import result (e.g. that the read could not be bounded in time). */
  readonly warnings: string[];
  /** Triangulation parameters (null: OpenCascade's defaults). */
  readonly params?: TessellationParams | null;
}

/** What a remote read returns: occt's result and what OpenCascade printed meanwhile. */
export interface OcctRemoteRead {
  readonly result: OcctResult;
  readonly output: readonly string[];
}

/**
 * OpenCascade running away from the caller's thread (a Node worker thread, a web worker), so that
 * a read can be bounded in time and cancelled: the host stops it. `read` rejects with ImportError
 * ('timeout', 'aborted', 'too-large' when it ran out of memory) or with any other error for a
 * failure of OpenCascade itself (reported as 'unreadable-cad').
 */
export interface OcctRemoteModule {
  readonly remote: true;
  read(format: OcctFormat, content: Uint8Array, context: OcctReadContext): Promise<OcctRemoteRead>;
}

/**
 * Returns the initialised module, in this thread (OcctModule) or remote (OcctRemoteModule). Hosts
 * memoise it (initialising takes tens of milliseconds and tens of megabytes); the importer calls
 * it once per file.
 */
export type OcctProvider = (() => Promise<OcctModule | OcctRemoteModule>) & {
  /** Starts OpenCascade ahead of the first read, when the host can (a worker that compiles the wasm meanwhile). */
  readonly warm?: () => void;
  /**
   * The module is remote (OcctRemoteModule) and resolves at once: the importer then hands the
   * file to OpenCascade first and takes the STEP census while it reads, instead of before.
   */
  readonly remote?: boolean;
};

export type OcctFormat = 'step' | 'iges' | 'brep';

/**
 * What an error thrown by OpenCascade's reader says: an Error's message, or, for a C++ exception
 * that escaped the WASM module (a WebAssembly.Exception, which has no message), that it was one.
 */
export function occtErrorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (Object.prototype.toString.call(err) === '[object WebAssembly.Exception]') return 'an internal C++ exception was raised';
  return String(err);
}
