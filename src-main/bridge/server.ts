/**
 * The loopback bridge: the host API over a WebSocket, so the real renderer runs in a browser
 * (end-to-end tests, machines without Electron) against the same host service as the app.
 *
 * One HTTP server on 127.0.0.1 only:
 *  - GET/HEAD of the built renderer's files (`staticDir`), with a strict Content-Security-Policy,
 *    `nosniff`, no directory listing, no way out of the folder (`..`, encoded or not, and symbolic
 *    links are refused), 404 for anything else;
 *  - a WebSocket endpoint at `/host?token=…` speaking ../contract/wire.ts: request frames are
 *    admitted at the door (../contract/admission.ts) and go to `service.handle`; every service
 *    event goes to every connected client.
 * Refused: peers that are not loopback, a Host header other than the server's own (DNS
 * rebinding), WebSocket upgrades with a wrong token (a random 32-byte hex string, compared in
 * constant time) or a foreign Origin.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import { admitRequest } from '../contract/admission.js';
import { EVENTS, type EventChannel } from '../contract/host.js';
import { decodeMessage, encodeMessage, parseWireMessage, WireError, type WireMessage } from '../contract/wire.js';
import { contentSecurityPolicy } from '../services/contentSecurity.js';
import { contentTypeOf } from '../services/contentTypes.js';
import type { HostServiceApi } from '../services/host/api.js';
import { toHostError } from '../services/host/errors.js';

export interface BridgeOptions {
  readonly service: HostServiceApi;
  /** The built renderer (index.html and its assets). */
  readonly staticDir: string;
  /** 0 (default): any free port. */
  readonly port?: number;
  /** 64 hex digits; default a fresh random token. */
  readonly token?: string;
  readonly log?: (message: string) => void;
}

export interface BridgeHandle {
  /** The page to open: `http://127.0.0.1:PORT/?token=TOKEN`. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Stops serving, closes every connection and stops forwarding events (the service stays). */
  close(): Promise<void>;
}

export const BRIDGE_HOST = '127.0.0.1';
export const BRIDGE_PATH = '/host';
export const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;

/** The page's Content-Security-Policy: the app's (../services/contentSecurity.ts), connecting to this server's WebSocket. */
export function bridgeContentSecurityPolicy(port: number): string {
  return contentSecurityPolicy([`ws://${BRIDGE_HOST}:${port}`]);
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  if (address === '::1') return true;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** Constant-time comparison of a presented token with the expected one. */
function tokenMatches(presented: string | null, expected: string): boolean {
  if (presented === null) return false;
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  if (a.length !== b.length) {
    timingSafeEqual(b, b); // same work either way
    return false;
  }
  return timingSafeEqual(a, b);
}

function isInside(folder: string, target: string): boolean {
  const rel = path.relative(folder, target);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

export async function startBridge(options: BridgeOptions): Promise<BridgeHandle> {
  const { service } = options;
  const log = options.log ?? ((m: string) => console.warn(`[bridge] ${m}`));
  const token = options.token ?? randomBytes(32).toString('hex');
  if (!/^[0-9a-f]{64}$/.test(token)) throw new RangeError('the bridge token must be 64 lower-case hex digits');
  const staticRoot = path.resolve(options.staticDir);
  let port = 0;
  const origin = (): string => `http://${BRIDGE_HOST}:${port}`;
  const hostHeader = (): string => `${BRIDGE_HOST}:${port}`;

  // ---- static files ----
  const securityHeaders = (): Record<string, string> => ({
    'Content-Security-Policy': bridgeContentSecurityPolicy(port),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  });

  const deny = (res: ServerResponse, status: number, text: string): void => {
    res.writeHead(status, { ...securityHeaders(), 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  };

  /** The file a request path names inside the root, or null. */
  const resolveStatic = async (urlPath: string): Promise<string | null> => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    if (decoded.includes('\u0000') || decoded.includes('\\')) return null;
    const segments = decoded.split('/').filter((s) => s !== '');
    if (segments.some((s) => s === '..' || s === '.')) return null;
    const relative = segments.length === 0 ? 'index.html' : segments.join('/');
    const file = path.resolve(staticRoot, relative);
    if (!isInside(staticRoot, file)) return null;
    try {
      const [realRoot, realFile] = await Promise.all([realpath(staticRoot), realpath(file)]);
      if (!isInside(realRoot, realFile)) return null;
      const s = await stat(realFile);
      return s.isFile() ? realFile : null;
    } catch {
      return null;
    }
  };

  const onRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!isLoopback(req.socket.remoteAddress)) {
      req.socket.destroy();
      return;
    }
    if (req.headers.host !== hostHeader()) {
      deny(res, 421, 'Misdirected request');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      deny(res, 405, 'Method not allowed');
      return;
    }
    const rawPath = (req.url ?? '/').split('?')[0];
    if (!rawPath.startsWith('/')) {
      deny(res, 400, 'Bad request');
      return;
    }
    if (rawPath === BRIDGE_PATH) {
      deny(res, 426, 'Upgrade required');
      return;
    }
    const file = await resolveStatic(rawPath);
    if (file === null) {
      deny(res, 404, 'Not found');
      return;
    }
    const s = await stat(file);
    res.writeHead(200, {
      ...securityHeaders(),
      'Content-Type': contentTypeOf(file),
      'Content-Length': s.size,
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = createReadStream(file);
    stream.on('error', (e) => {
      log(`reading ${file} failed: ${e.message}`);
      res.destroy();
    });
    stream.pipe(res);
  };

  const server = createServer((req, res) => {
    onRequest(req, res).catch((e: unknown) => {
      log(`request ${req.url ?? ''} failed: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) deny(res, 500, 'Internal error');
      else res.destroy();
    });
  });

  // ---- WebSocket ----
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES, perMessageDeflate: false, clientTracking: true });

  const refuseUpgrade = (socket: Duplex, status: number, text: string, why: string): void => {
    log(`refused a connection: ${why}`);
    if (socket.writable) socket.write(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    socket.destroy();
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (!isLoopback(req.socket.remoteAddress)) {
      refuseUpgrade(socket, 403, 'Forbidden', `peer ${req.socket.remoteAddress ?? '?'} is not loopback`);
      return;
    }
    if (req.headers.host !== hostHeader()) {
      refuseUpgrade(socket, 403, 'Forbidden', `wrong Host ${String(req.headers.host).slice(0, 100)}`);
      return;
    }
    const originHeader = req.headers.origin;
    if (originHeader !== undefined && originHeader !== origin()) {
      refuseUpgrade(socket, 403, 'Forbidden', `foreign Origin ${originHeader.slice(0, 100)}`);
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', origin());
    } catch {
      refuseUpgrade(socket, 400, 'Bad Request', 'malformed URL');
      return;
    }
    if (url.pathname !== BRIDGE_PATH) {
      refuseUpgrade(socket, 404, 'Not Found', `no endpoint ${url.pathname.slice(0, 100)}`);
      return;
    }
    if (!tokenMatches(url.searchParams.get('token'), token)) {
      refuseUpgrade(socket, 401, 'Unauthorized', 'wrong or missing token');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  const send = (ws: WebSocket, message: WireMessage): void => {
    if (ws.readyState !== ws.OPEN) return;
    let frame: ArrayBuffer;
    try {
      frame = encodeMessage(message);
    } catch (e) {
      log(`a message could not be encoded: ${e instanceof Error ? e.message : String(e)}`);
      if (message.type === 'response' && message.ok) {
        send(ws, { type: 'response', id: message.id, ok: false, error: { code: 'internal', message: 'the answer could not be encoded', path: null } });
      }
      return;
    }
    ws.send(frame, { binary: true });
  };

  wss.on('connection', (ws: WebSocket) => {
    ws.binaryType = 'arraybuffer';
    ws.on('error', (e) => log(`connection error: ${e.message}`));
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (!isBinary) {
        log('refused a text frame: the bridge speaks binary frames only');
        ws.close(1003, 'binary frames only');
        return;
      }
      let message: WireMessage;
      try {
        const frame = data instanceof ArrayBuffer ? data : Array.isArray(data) ? Buffer.concat(data) : data;
        message = parseWireMessage(decodeMessage(frame));
      } catch (e) {
        log(`refused a frame: ${e instanceof WireError ? e.message : String(e)}`);
        ws.close(1007, 'malformed frame');
        return;
      }
      if (message.type !== 'request') {
        log(`refused a ${message.type} frame from a client`);
        ws.close(1008, 'clients send requests only');
        return;
      }
      const { id, channel, payload } = message;
      const admitted = admitRequest(channel, payload);
      if (!admitted.ok) {
        log(`refused a request: ${admitted.error.message}`);
        send(ws, { type: 'response', id, ok: false, error: admitted.error });
        return;
      }
      service.handle(channel, admitted.request).then(
        (result) => send(ws, { type: 'response', id, ok: true, result: result ?? null }),
        (e: unknown) => send(ws, { type: 'response', id, ok: false, error: toHostError(e) }),
      );
    });
  });

  // ---- events ----
  const unsubscribe = (Object.keys(EVENTS) as EventChannel[]).map((event) =>
    service.on(event, (payload) => {
      if (wss.clients.size === 0) return;
      let frame: ArrayBuffer;
      try {
        frame = encodeMessage({ type: 'event', event, payload });
      } catch (e) {
        log(`event ${event} could not be encoded: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
      for (const ws of wss.clients) if (ws.readyState === ws.OPEN) ws.send(frame, { binary: true });
    }),
  );

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, BRIDGE_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  server.on('error', (e) => log(`server error: ${e.message}`));

  let closing: Promise<void> | null = null;
  return {
    url: `${origin()}/?token=${token}`,
    port,
    token,
    close: () => {
      closing ??= (async () => {
        for (const u of unsubscribe) u();
        for (const ws of wss.clients) ws.terminate();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
