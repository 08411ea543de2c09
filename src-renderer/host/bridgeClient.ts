/**
 * The host API in a browser: a WebSocket client of the loopback bridge (src-main/bridge). The page
 * URL carries the bridge's token (`?token=…`); requests and events travel as binary frames of
 * src-main/contract/wire.ts. There is no reconnecting: when the connection drops, pending requests
 * fail with a HostRequestError ('disconnected') and a local 'host.error' event says so.
 */
import { createHostApi, HostRequestError, type HostApi, type HostError, type HostTransport } from '../../src-main/contract/host';
import { decodeMessage, encodeMessage, parseWireMessage } from '../../src-main/contract/wire';

/** What the client needs of a WebSocket (the browser's, or a stand-in in tests). */
export interface SocketLike {
  binaryType: string;
  readonly readyState: number;
  send(data: ArrayBuffer): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error' | 'message', listener: (event: { data?: unknown; code?: number; reason?: string }) => void): void;
}

export type SocketConstructor = new (url: string) => SocketLike;

export interface BridgeClientOptions {
  /** The WebSocket class (default: the browser's). */
  readonly WebSocket?: SocketConstructor;
  /** Give up connecting after this long (default 10 s). */
  readonly connectTimeoutMs?: number;
}

const OPEN = 1;

/** The bridge's WebSocket address for a page address, or an Error saying what is missing. */
export function bridgeSocketUrl(pageHref: string): string {
  const page = new URL(pageHref);
  const token = page.searchParams.get('token');
  if (!token) throw new Error('the page address has no bridge token (?token=…): open the address the bridge printed');
  const scheme = page.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${page.host}/host?token=${encodeURIComponent(token)}`;
}

/** Connects to the bridge that served this page; resolves with the typed host API once connected. */
export async function connectBridge(location: { readonly href: string }, options: BridgeClientOptions = {}): Promise<HostApi> {
  const url = bridgeSocketUrl(location.href);
  const Socket = options.WebSocket ?? (globalThis as unknown as { WebSocket?: SocketConstructor }).WebSocket;
  if (!Socket) throw new Error('this browser has no WebSocket');
  const socket = new Socket(url);
  socket.binaryType = 'arraybuffer';

  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let state: 'connecting' | 'open' | 'closed' = 'connecting';
  let lost: HostError | null = null;

  const fire = (event: string, payload: unknown): void => {
    for (const l of [...(listeners.get(event) ?? [])]) {
      try {
        l(payload);
      } catch (e) {
        console.error(`a listener of ${event} threw`, e);
      }
    }
  };

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      if (state !== 'connecting') return;
      state = 'closed';
      socket.close();
      reject(new Error(`could not connect to the Interfere host at ${url.replace(/token=[^&]*/, 'token=…')} (timed out)`));
    }, options.connectTimeoutMs ?? 10_000);
    socket.addEventListener('open', () => {
      clearTimeout(timer);
      if (state !== 'connecting') return;
      state = 'open';
      resolve();
    });
    socket.addEventListener('close', (event) => {
      clearTimeout(timer);
      if (state === 'connecting') {
        state = 'closed';
        reject(new Error(`could not connect to the Interfere host (connection closed${event.code ? `, code ${event.code}` : ''}): is the bridge running, and is this the address it printed?`));
        return;
      }
      if (state === 'closed') return;
      state = 'closed';
      lost = {
        code: 'disconnected',
        message: `the connection to the Interfere host was lost${event.code ? ` (code ${event.code}${event.reason ? `: ${event.reason}` : ''})` : ''}; reload the page once it runs again`,
        path: null,
      };
      for (const p of pending.values()) p.reject(new HostRequestError(lost));
      pending.clear();
      fire('host.error', lost);
    });
  });

  socket.addEventListener('message', (event) => {
    if (!(event.data instanceof ArrayBuffer)) {
      console.warn('the host sent a frame that is not binary; ignored');
      return;
    }
    let message;
    try {
      message = parseWireMessage(decodeMessage(event.data));
    } catch (e) {
      console.warn(`the host sent a malformed frame: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    if (message.type === 'event') {
      fire(message.event, message.payload);
    } else if (message.type === 'response') {
      const p = pending.get(message.id);
      if (!p) return;
      pending.delete(message.id);
      if (message.ok) p.resolve(message.result);
      else p.reject(new HostRequestError(message.error));
    }
  });

  const transport: HostTransport = {
    invoke(channel, request) {
      if (state !== 'open' || socket.readyState !== OPEN) {
        return Promise.reject(new HostRequestError(lost ?? { code: 'disconnected', message: 'not connected to the Interfere host', path: null }));
      }
      const id = nextId++;
      let frame: ArrayBuffer;
      try {
        frame = encodeMessage({ type: 'request', id, channel, payload: request });
      } catch (e) {
        return Promise.reject(e instanceof Error ? e : new Error(String(e)));
      }
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        socket.send(frame);
      });
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
  };
  return createHostApi(transport);
}
