/**
 * Errors of the host service: every failure becomes a HostError (../../contract/host.ts) whose
 * message names the file and the problem, carried by a HostRequestError — the one error type that
 * crosses to the renderer, whichever shell carries it (../../main/ipc.ts, ../../bridge/server.ts).
 */
import path from 'node:path';
import { HostErrorSchema, HostRequestError, type HostError } from '../../contract/host.js';
import { AssemblyError } from '../../../src-core/assembly/model.js';
import { CheckLimitError } from '../../../src-core/check/check.js';
import { ImportError } from '../../../src-core/io/types.js';
import { ReportError } from '../../../src-core/report/index.js';
import { PartError } from '../bodies.js';
import { CheckChildError } from '../checkChild.js';
import { FileError } from '../files.js';
import { TreeBuildError } from '../treePool.js';

/** A refusal with a code, a message and the file concerned. */
export function failure(code: string, message: string, filePath?: string | null): HostRequestError {
  return new HostRequestError({ code, message, ...(filePath != null ? { path: filePath } : {}) });
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A message that names the file: the error's own when it does, else prefixed with the file. */
export function naming(filePath: string | null | undefined, message: string): string {
  if (!filePath) return message;
  return message.includes(path.basename(filePath)) ? message : `${filePath}: ${message}`;
}

/** Any error as a HostError whose message names the file concerned (`filePath` when the error does not). */
export function toHostError(e: unknown, filePath?: string | null): HostError {
  if (e instanceof HostRequestError) return e.error;
  if (e instanceof FileError) {
    return { code: e.code === 'ENOENT' ? 'not-found' : e.code === 'EACCES' || e.code === 'EPERM' ? 'permission-denied' : 'file-error', message: e.message, path: e.path };
  }
  if (e instanceof AssemblyError) return { code: 'invalid-assembly', message: e.message, path: e.fileName };
  if (e instanceof ImportError) {
    if (e.code === 'aborted') return { code: 'cancelled', message: naming(filePath ?? e.fileName, 'opening was cancelled'), path: e.fileName };
    return { code: 'import-failed', message: e.message, path: e.fileName };
  }
  if (e instanceof PartError) return { code: 'invalid-part', message: naming(filePath, e.message), path: filePath ?? null };
  if (e instanceof TreeBuildError) {
    if (e.code === 'crashed' || e.code === 'start-failed') {
      return {
        code: 'compute-crashed',
        message: naming(filePath, `${e.message}. Nothing was changed; the next attempt starts a fresh tree-building process.`),
        path: filePath ?? null,
      };
    }
    if (e.code === 'disposed') return { code: 'disposed', message: naming(filePath, 'the host is shutting down'), path: filePath ?? null };
    return { code: 'tree-build-failed', message: naming(filePath, e.message), path: filePath ?? null };
  }
  if (e instanceof CheckChildError) {
    if (e.code === 'crashed' || e.code === 'start-failed') {
      return {
        code: 'compute-crashed',
        message: naming(filePath, `${e.message}. Nothing was changed; the next check starts a fresh check process.`),
        path: filePath ?? null,
      };
    }
    if (e.code === 'disposed') return { code: 'disposed', message: naming(filePath, 'the host is shutting down'), path: filePath ?? null };
  }
  if (e instanceof CheckLimitError) return { code: 'too-many-pairs', message: naming(filePath, e.message), path: filePath ?? null };
  if (e instanceof ReportError) return { code: 'report-failed', message: naming(filePath, `the report cannot be made: ${e.message}`), path: filePath ?? null };
  if (e instanceof Error && e.name === 'AbortError') return { code: 'cancelled', message: naming(filePath, e.message), path: filePath ?? null };
  // A HostError carried by another error object (a rejection that crossed a process boundary).
  const carried = HostErrorSchema.safeParse((e as { error?: unknown } | null)?.error);
  if (carried.success) return carried.data;
  return { code: 'internal', message: `internal error: ${naming(filePath, errorText(e))}`, ...(filePath != null ? { path: filePath } : {}) };
}
