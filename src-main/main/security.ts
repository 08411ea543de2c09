/**
 * The window's security settings and the checks behind them, kept free of Electron's runtime so
 * that tests exercise them as they are (the Electron objects come in as parameters, typed only):
 *
 *  - the renderer is served from the privileged `app://interfere/` scheme (standard, secure)
 *    rather than file://: only files under the built renderer folder can be served (no path
 *    traversal), every response carries a strict Content-Security-Policy, and the page has an
 *    origin of its own that the IPC handlers can recognise. Under file://, 'self' in the CSP would
 *    admit any local file, and every local page would share the page's (opaque) origin;
 *  - IPC is answered only for the main frame of our window showing our origin;
 *  - navigation, new windows, <webview>, permission requests, downloads and remote requests are
 *    refused.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Session, WebContents } from 'electron';
import { contentSecurityPolicy } from '../services/contentSecurity.js';
import { contentTypeOf } from '../services/contentTypes.js';

export const APP_SCHEME = 'app';
export const APP_HOST = 'interfere';
/** The page the window loads. */
export const APP_INDEX_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** How the scheme is registered (protocol.registerSchemesAsPrivileged, before the app is ready). */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  stream: true,
  codeCache: true,
} as const;

/** The Content-Security-Policy of every app:// response (../services/contentSecurity.ts). */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** Whether a URL is one of the app's own pages or files (app://interfere/…). */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

// ------------------------------------------------------------------------------------------------
// IPC senders

/** The part of Electron's WebFrameMain the sender check reads. */
export interface FrameLike {
  readonly url: string;
  readonly processId: number;
  readonly routingId: number;
  readonly parent: unknown;
}

/** The part of an IPC event the sender check reads. */
export interface IpcEventLike {
  readonly sender: unknown;
  readonly senderFrame: FrameLike | null;
}

/** The window's web contents as the sender check sees them. */
export interface TrustedContents {
  readonly mainFrame: FrameLike;
  isDestroyed(): boolean;
}

/**
 * Whether an IPC message comes from our page: sent by our window's web contents, from its main
 * frame (not an iframe, not a frame that has navigated away or been destroyed), showing an
 * app:// URL. Everything else is refused by the handlers.
 */
export function isTrustedSender(event: IpcEventLike, contents: TrustedContents | null): boolean {
  if (!contents || contents.isDestroyed() || event.sender !== contents) return false;
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  const main = contents.mainFrame;
  if (frame !== main && (frame.processId !== main.processId || frame.routingId !== main.routingId)) return false;
  return isAppUrl(frame.url);
}

// ------------------------------------------------------------------------------------------------
// Serving the renderer

/**
 * The file under `rootDir` an app:// URL names, or null when the URL is not ours or would leave
 * the folder: `..` segments (also percent-encoded), backslashes, drive letters, NUL. `/` is
 * index.html. The query and fragment are ignored.
 */
export function resolveAppFile(rootDir: string, url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null;
  let rel: string;
  try {
    rel = decodeURIComponent(u.pathname);
  } catch {
    return null;
  }
  if (rel === '' || rel === '/') rel = '/index.html';
  if (!rel.startsWith('/') || rel.includes('\\') || rel.includes(':') || rel.includes('\u0000')) return null;
  const segments = rel.slice(1).split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return null;
  const root = path.resolve(rootDir);
  const file = path.resolve(root, ...segments);
  const inside = path.relative(root, file);
  if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) return null;
  return file;
}

/** Headers of every app:// response. */
export function appResponseHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  };
}

export type ReadFileFn = (file: string) => Promise<Uint8Array>;

/**
 * The app:// protocol handler (for `protocol.handle`): GET and HEAD of files under `rootDir`
 * (the built renderer), 404 for anything else. `readFile` is Node's by default (Electron's reads
 * inside app.asar too).
 */
export function createAppRequestHandler(
  rootDir: string,
  read: ReadFileFn = (file) => readFile(file),
  log: (message: string) => void = () => {},
): (request: Request) => Promise<Response> {
  const plain = (status: number, text: string): Response =>
    new Response(text, { status, headers: appResponseHeaders('text/plain; charset=utf-8') });
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'method not allowed');
    const file = resolveAppFile(rootDir, request.url);
    if (!file) {
      log(`app:// refused ${request.url.slice(0, 300)}`);
      return plain(404, 'not found');
    }
    let body: Uint8Array;
    try {
      body = await read(file);
    } catch (e) {
      const code = (e as { code?: unknown } | null)?.code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return plain(404, 'not found');
      log(`app:// could not read ${file}: ${e instanceof Error ? e.message : String(e)}`);
      return plain(500, 'could not read the file');
    }
    const headers = appResponseHeaders(contentTypeOf(file));
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
  };
}

// ------------------------------------------------------------------------------------------------
// The window and its session

/** Requests the app's pages may make: their own files, inline data, and DevTools' own pages. */
export function isAllowedRequestUrl(url: string): boolean {
  if (isAppUrl(url)) return true;
  const scheme = url.slice(0, url.indexOf(':') + 1).toLowerCase();
  return scheme === 'data:' || scheme === 'blob:' || scheme === 'devtools:' || scheme === 'chrome-extension:';
}

/**
 * Navigation (other than to the page already shown), new windows, redirects away from the app and
 * <webview> are refused for a web contents. `log` hears of each refusal.
 */
export function hardenWebContents(
  contents: Pick<WebContents, 'on' | 'setWindowOpenHandler' | 'getURL'>,
  log: (message: string) => void,
): void {
  contents.on('will-navigate', (event) => {
    if (event.url === contents.getURL() && isAppUrl(event.url)) return;
    event.preventDefault();
    log(`navigation to ${event.url.slice(0, 300)} refused`);
  });
  // Frames inside the page (the app has none of its own) may show only the app's files.
  contents.on('will-frame-navigate', (event) => {
    if (event.isMainFrame || isAppUrl(event.url) || event.url === 'about:blank') return;
    event.preventDefault();
    log(`frame navigation to ${event.url.slice(0, 300)} refused`);
  });
  contents.on('will-redirect', (event) => {
    if (isAppUrl(event.url)) return;
    event.preventDefault();
    log(`redirect to ${event.url.slice(0, 300)} refused`);
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log('a <webview> was refused');
  });
  contents.setWindowOpenHandler(({ url }) => {
    log(`window for ${url.slice(0, 300)} refused`);
    return { action: 'deny' };
  });
}

/**
 * The session's guards: every permission request and check is refused (the app needs none),
 * downloads are cancelled (files are written by the main process), and requests other than to
 * the app's own files are cancelled (no remote content).
 */
export function hardenSession(
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'on' | 'webRequest'>,
  log: (message: string) => void,
): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    log(`permission '${permission}' refused`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.on('will-download', (event) => {
    event.preventDefault();
    log('a download was refused');
  });
  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed = isAllowedRequestUrl(details.url);
    if (!allowed) log(`request to ${details.url.slice(0, 300)} refused`);
    callback({ cancel: !allowed });
  });
}
