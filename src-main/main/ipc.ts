/**
 * The IPC wiring between the window and the host service (../services/host/hostService.ts):
 *
 *  - one `ipcMain.handle` per request channel of the contract (REQUESTS); each checks that the
 *    message comes from our window's main frame showing app:// (./security.ts) — anything else is
 *    refused and logged — admits the payload at the door (../contract/admission.ts: size, depth,
 *    strict schema; a refusal is logged) and passes it to `service.handle`. The answer is a ReplyEnvelope (`{ ok, result }` / `{ ok, error }`, ../preload/shellIpc.ts), which
 *    the preload unwraps. Channels outside the contract have no handler at all.
 *  - every host event (EVENTS) is forwarded to the window with `webContents.send`.
 *  - the shell's drop channel: see `handleDroppedFile` below for what is trusted and why.
 *
 * Electron comes in as parameters (typed only), so tests drive this with fakes.
 */
import path from 'node:path';
import { admitRequest } from '../contract/admission.js';
import { EVENTS, REQUESTS, type EventChannel, type HostError, type RequestChannel } from '../contract/host.js';
import { DROP_FILE_CHANNEL, type ReplyEnvelope } from '../preload/shellIpc.js';
import type { HostServiceApi } from '../services/host/api.js';
import { toHostError } from '../services/host/errors.js';
import { isTrustedSender, type IpcEventLike, type TrustedContents } from './security.js';

/** The part of Electron's ipcMain used here. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

/** Our window's web contents as seen here. */
export interface WindowContents extends TrustedContents {
  send(channel: string, ...args: unknown[]): void;
}

export interface HostIpcOptions {
  readonly ipcMain: IpcMainLike;
  readonly service: HostServiceApi;
  /** The window's web contents (null while there is no window). */
  readonly contents: () => WindowContents | null;
  readonly log: (message: string) => void;
  /** Told when a request starts (after the sender check). */
  readonly onRequest?: (channel: RequestChannel) => void;
  /** Told of every request's outcome (the menu refreshes recent files; the close prompt waits for saves). */
  readonly onSettled?: (channel: RequestChannel, reply: ReplyEnvelope) => void;
}

const REFUSED: HostError = { code: 'access-denied', message: 'request refused: it does not come from the app window' };

/**
 * The path of a dropped file as the preload sent it: an absolute path without NUL, at most 4096
 * characters; null for anything else.
 */
export function parseDroppedPath(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const p = (payload as { path?: unknown }).path;
  if (typeof p !== 'string' || p.length === 0 || p.length > 4096 || p.includes('\u0000')) return null;
  return path.isAbsolute(p) ? path.normalize(p) : null;
}

function describeSender(event: IpcEventLike): string {
  const url = event.senderFrame?.url;
  return url ? url.slice(0, 200) : 'a frame that is gone';
}

/** Registers the handlers and event forwarding; returns a function that removes them all. */
export function registerHostIpc(options: HostIpcOptions): () => void {
  const { ipcMain, service, contents, log } = options;

  const trusted = (channel: string, event: IpcEventLike): boolean => {
    if (isTrustedSender(event, contents())) return true;
    log(`refused '${channel}' from ${describeSender(event)}`);
    return false;
  };

  const run = async (channel: RequestChannel, payload: unknown): Promise<ReplyEnvelope> => {
    options.onRequest?.(channel);
    let reply: ReplyEnvelope;
    const admitted = admitRequest(channel, payload);
    if (!admitted.ok) {
      log(`refused a request: ${admitted.error.message}`);
      reply = { ok: false, error: admitted.error };
    } else {
      try {
        reply = { ok: true, result: await service.handle(channel, admitted.request) };
      } catch (e) {
        const error = toHostError(e);
        if (error.code === 'internal') log(`internal error: ${e instanceof Error && e.stack ? e.stack : String(e)}`);
        reply = { ok: false, error };
      }
    }
    try {
      options.onSettled?.(channel, reply);
    } catch (e) {
      log(`after '${channel}': ${e instanceof Error ? e.message : String(e)}`);
    }
    return reply;
  };

  const channels = Object.keys(REQUESTS) as RequestChannel[];
  for (const channel of channels) {
    ipcMain.handle(channel, async (event: IpcEventLike, payload: unknown): Promise<ReplyEnvelope> => {
      if (!trusted(channel, event)) return { ok: false, error: REFUSED };
      return run(channel, payload);
    });
  }

  /*
   * A dropped file. The page never names a path itself: the preload's openDroppedFile takes a
   * File object and reads its path with webUtils.getPathForFile, which yields a path only for a
   * File the user handed to the page (dropped on it, or picked in a file input); a File made by
   * script has none. With context isolation the page cannot reach ipcRenderer to send this
   * message with a path of its choosing, so a path arriving here (from our trusted main frame)
   * is one the user chose — the same trust as a path from an open dialog. It is granted with
   * `allowPath` and opened by the ordinary doc.open handler, which validates and reports as for
   * any open.
   */
  ipcMain.handle(DROP_FILE_CHANNEL, async (event: IpcEventLike, payload: unknown): Promise<ReplyEnvelope> => {
    if (!trusted(DROP_FILE_CHANNEL, event)) return { ok: false, error: REFUSED };
    const dropped = parseDroppedPath(payload);
    if (dropped === null) {
      return { ok: false, error: { code: 'invalid-request', message: 'a dropped file must be given by its absolute path' } };
    }
    service.allowPath(dropped);
    return run('doc.open', { path: dropped });
  });

  const unsubscribe = (Object.keys(EVENTS) as EventChannel[]).map((channel) =>
    service.on(channel, (payload) => {
      const target = contents();
      if (target && !target.isDestroyed()) target.send(channel, payload);
    }),
  );

  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
    ipcMain.removeHandler(DROP_FILE_CHANNEL);
    for (const off of unsubscribe) off();
  };
}
