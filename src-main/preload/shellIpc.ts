/**
 * What the preload and the Electron main process agree on beyond the host API's own channels
 * (../contract/host.ts): the reply envelope of every request, and the two shell channels of the
 * desktop app. Shared by both sides (main may import this folder; this file imports only the
 * contract, so it also runs in the sandboxed preload).
 *
 * Replies travel as envelopes because `ipcMain.handle` cannot reject with structured errors: an
 * Error thrown in main reaches the renderer as a plain message with Electron's prefix. Main
 * answers `{ ok: true, result }` or `{ ok: false, error }` and the preload turns the latter into a
 * HostRequestError.
 */
import { HostErrorSchema, HostRequestError, type HostError } from '../contract/host.js';

export type ReplyEnvelope = { ok: true; result: unknown } | { ok: false; error: HostError };

/**
 * Renderer → main: open a file the user dropped on the window. Carries `{ path }`, the path of the
 * dropped File as Electron's `webUtils.getPathForFile` gave it in the preload; main grants access
 * to it and answers like `doc.open` (a ReplyEnvelope of DocumentInfo).
 */
export const DROP_FILE_CHANNEL = 'shell.dropFile';

/**
 * Main → renderer: the user asked the app to open a file outside the window (a second launch
 * with file arguments, macOS "Open With", Open Recent). Carries `{ path }`, already granted; the
 * renderer opens it with `docOpen({ path })` as if the user had chosen it in a dialog.
 */
export const OPEN_FILE_CHANNEL = 'shell.openFile';

/** The rejection of a failed request when the reply carries no valid HostError. */
function malformedReply(channel: string): HostError {
  return { code: 'invalid-reply', message: `the host sent a malformed reply to '${channel.slice(0, 100)}'` };
}

/** The result of a reply envelope, or throws HostRequestError. */
export function unwrapReply(channel: string, reply: unknown): unknown {
  if (typeof reply !== 'object' || reply === null) throw new HostRequestError(malformedReply(channel));
  const r = reply as { ok?: unknown; result?: unknown; error?: unknown };
  if (r.ok === true) return r.result;
  if (r.ok === false) {
    const parsed = HostErrorSchema.safeParse(r.error);
    throw new HostRequestError(parsed.success ? parsed.data : malformedReply(channel));
  }
  throw new HostRequestError(malformedReply(channel));
}

/**
 * A request failure as it crosses the context bridge to the page. contextBridge copies an Error
 * with its message only (custom properties such as HostRequestError.error are dropped), while a
 * plain object keeps every property. So the preload rejects with this shape, and the renderer
 * turns it back into its own HostRequestError (`error` is a valid HostError).
 */
export interface BridgedHostError {
  readonly name: 'HostRequestError';
  readonly message: string;
  readonly error: HostError;
}

export function toBridgedError(e: unknown): unknown {
  if (e instanceof HostRequestError) {
    const bridged: BridgedHostError = { name: 'HostRequestError', message: e.message, error: { ...e.error } };
    return bridged;
  }
  return e;
}
