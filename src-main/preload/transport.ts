/**
 * The preload's pieces, free of the `electron` import so that tests can run them against fakes:
 * the HostTransport over ipcRenderer, the host API object handed to the page, and the shell
 * functions (drag and drop, files the app is asked to open).
 *
 * Everything here takes the renderer-side Electron objects as parameters; ./preload.ts passes the
 * real ones.
 */
import {
  createHostApi, EVENTS, HostRequestError, REQUESTS,
  type DocumentInfo, type HostApi, type HostTransport,
} from '../contract/host.js';
import { DROP_FILE_CHANNEL, OPEN_FILE_CHANNEL, toBridgedError, unwrapReply } from './shellIpc.js';

/** The part of Electron's ipcRenderer used here. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/** The part of Electron's webUtils used here. */
export interface WebUtilsLike {
  getPathForFile(file: never): string;
}

const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/**
 * A HostTransport over IPC: requests go out with `invoke` on their own channel and come back as
 * reply envelopes (./shellIpc.ts); subscriptions listen to one host event channel each. Only the
 * contract's channels are reachable: anything else is refused here, before any IPC.
 */
export function createIpcTransport(ipc: IpcRendererLike): HostTransport {
  return {
    async invoke(channel, request) {
      if (!hasOwn(REQUESTS, channel)) {
        throw new HostRequestError({ code: 'unknown-channel', message: `unknown request '${String(channel).slice(0, 100)}'` });
      }
      return unwrapReply(channel, await ipc.invoke(channel, request));
    },
    on(event, listener) {
      if (!hasOwn(EVENTS, event)) throw new TypeError(`unknown host event '${String(event).slice(0, 100)}'`);
      // The IPC event object (sender, ports) stays here: listeners see the payload only.
      const wrapped = (_event: unknown, payload: unknown): void => listener(payload);
      ipc.on(event, wrapped);
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        ipc.removeListener(event, wrapped);
      };
    },
  };
}

/**
 * The host API as the page gets it: createHostApi over the IPC transport, with each request's
 * failure turned into a plain BridgedHostError object (./shellIpc.ts) so that its HostError
 * survives the context bridge. Named functions only; nothing else of IPC is reachable.
 */
export function createPreloadHostApi(ipc: IpcRendererLike): HostApi {
  const api = createHostApi(createIpcTransport(ipc)) as unknown as Record<string, (arg: unknown) => unknown>;
  const bridged: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(api)) {
    bridged[name] = name.startsWith('on')
      ? fn
      : async (request: unknown) => {
        try {
          return await fn(request);
        } catch (e) {
          throw toBridgedError(e);
        }
      };
  }
  return Object.freeze(bridged) as unknown as HostApi;
}

/** The desktop shell's extra functions, exposed to the page as `window.interfereShell`. */
export interface InterfereShell {
  /** The file system path of a File the user dropped (or picked); '' when it has none. */
  pathForDroppedFile(file: File): string;
  /**
   * Opens a dropped File as a document: main grants access to its path and opens it exactly as
   * `docOpen({ path })` would (same result, same errors, rejected as BridgedHostError).
   */
  openDroppedFile(file: File): Promise<DocumentInfo | null>;
  /**
   * Files the app was asked to open from outside the window (second launch, macOS Open With,
   * Open Recent): the listener gets each path, already granted, and should call
   * `docOpen({ path })`. Returns an unsubscribe.
   */
  onOpenFile(listener: (path: string) => void): () => void;
}

function parsePathMessage(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const p = (payload as { path?: unknown }).path;
  return typeof p === 'string' && p.length > 0 && p.length <= 4096 && !p.includes('\u0000') ? p : null;
}

/** Most paths kept for the page before it subscribes to onOpenFile. */
const MAX_QUEUED_OPEN_FILES = 32;

export function createShellApi(ipc: IpcRendererLike, webUtils: WebUtilsLike): InterfereShell {
  const pathOf = (file: File): string => webUtils.getPathForFile(file as never);

  // Listening from the start (the preload runs before the page): a file main sends while the page
  // is still starting is kept until the page subscribes, then handed to its first listener.
  const listeners = new Set<(path: string) => void>();
  const queued: string[] = [];
  ipc.on(OPEN_FILE_CHANNEL, (_event: unknown, payload: unknown) => {
    const path = parsePathMessage(payload);
    if (path === null) {
      console.warn(`${OPEN_FILE_CHANNEL} message refused: no valid path`);
      return;
    }
    if (listeners.size === 0) {
      if (queued.length < MAX_QUEUED_OPEN_FILES) queued.push(path);
      return;
    }
    for (const l of [...listeners]) l(path);
  });

  return Object.freeze({
    pathForDroppedFile(file: File): string {
      return pathOf(file);
    },
    async openDroppedFile(file: File): Promise<DocumentInfo | null> {
      try {
        let path: string;
        try {
          path = pathOf(file);
        } catch {
          path = '';
        }
        if (!path) {
          throw new HostRequestError({ code: 'invalid-request', message: 'the dropped item is not a file on this computer' });
        }
        const result = unwrapReply(DROP_FILE_CHANNEL, await ipc.invoke(DROP_FILE_CHANNEL, { path }));
        const parsed = REQUESTS['doc.open'].response.safeParse(result);
        if (!parsed.success) {
          throw new HostRequestError({ code: 'invalid-reply', message: `the host sent a malformed reply to '${DROP_FILE_CHANNEL}'` });
        }
        return parsed.data;
      } catch (e) {
        throw toBridgedError(e);
      }
    },
    onOpenFile(listener: (path: string) => void): () => void {
      if (typeof listener !== 'function') throw new TypeError('onOpenFile needs a function');
      const wrapped = (path: string): void => listener(path);
      listeners.add(wrapped);
      for (const path of queued.splice(0)) wrapped(path);
      return () => {
        listeners.delete(wrapped);
      };
    },
  });
}
