import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_INDEX_URL, CONTENT_SECURITY_POLICY, createAppRequestHandler, hardenSession, hardenWebContents,
  isAllowedRequestUrl, isAppUrl, isTrustedSender, resolveAppFile, type FrameLike, type TrustedContents,
} from '../../../src-main/main/security.js';

function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
}

describe('the Content-Security-Policy', () => {
  const d = directives(CONTENT_SECURITY_POLICY);

  it('allows scripts, styles and connections from the app only', () => {
    expect(d.get('default-src')).toEqual(["'self'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('style-src')).toEqual(["'self'"]);
    expect(d.get('connect-src')).toEqual(["'self'"]);
    expect(d.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(d.get('worker-src')).toEqual(["'self'", 'blob:']);
  });

  it('forbids plugins, base changes, forms and framing', () => {
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
    expect(d.get('form-action')).toEqual(["'none'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('has no unsafe source anywhere', () => {
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|\*|https?:|file:/);
  });
});

describe('app URLs', () => {
  it('recognises app://interfere/ and nothing else', () => {
    expect(isAppUrl(APP_INDEX_URL)).toBe(true);
    expect(isAppUrl('app://interfere/assets/index-abc.js?x=1#y')).toBe(true);
    for (const url of ['app://other/index.html', 'app://user@interfere/', 'file:///index.html', 'https://interfere/', 'http://127.0.0.1/', 'not a url', '']) {
      expect(isAppUrl(url), url).toBe(false);
    }
  });

  it('lets the page load its own files and inline data only', () => {
    expect(isAllowedRequestUrl('app://interfere/a.js')).toBe(true);
    expect(isAllowedRequestUrl('data:image/png;base64,AAAA')).toBe(true);
    expect(isAllowedRequestUrl('blob:app://interfere/123')).toBe(true);
    expect(isAllowedRequestUrl('devtools://devtools/bundled/inspector.html')).toBe(true);
    for (const url of ['https://example.com/x.js', 'http://localhost:5173/', 'file:///etc/passwd', 'ws://127.0.0.1:1/', 'app://evil/']) {
      expect(isAllowedRequestUrl(url), url).toBe(false);
    }
  });
});

describe('IPC senders', () => {
  const mainFrame: FrameLike = { url: APP_INDEX_URL, processId: 4, routingId: 1, parent: null };
  const contents: TrustedContents = { mainFrame, isDestroyed: () => false };

  it('trusts our window main frame showing app://', () => {
    expect(isTrustedSender({ sender: contents, senderFrame: mainFrame }, contents)).toBe(true);
    // Another wrapper object of the same frame.
    expect(isTrustedSender({ sender: contents, senderFrame: { ...mainFrame } }, contents)).toBe(true);
  });

  it('refuses other web contents, subframes, gone frames, foreign URLs and a closed window', () => {
    const other: TrustedContents = { mainFrame, isDestroyed: () => false };
    expect(isTrustedSender({ sender: other, senderFrame: mainFrame }, contents)).toBe(false);
    expect(isTrustedSender({ sender: contents, senderFrame: { ...mainFrame, routingId: 7, parent: mainFrame } }, contents)).toBe(false);
    expect(isTrustedSender({ sender: contents, senderFrame: { ...mainFrame, routingId: 7 } }, contents)).toBe(false);
    expect(isTrustedSender({ sender: contents, senderFrame: null }, contents)).toBe(false);
    const navigated = { ...mainFrame, url: 'https://example.com/' };
    expect(isTrustedSender({ sender: contents, senderFrame: navigated }, { mainFrame: navigated, isDestroyed: () => false })).toBe(false);
    expect(isTrustedSender({ sender: contents, senderFrame: mainFrame }, null)).toBe(false);
    expect(isTrustedSender({ sender: contents, senderFrame: mainFrame }, { mainFrame, isDestroyed: () => true })).toBe(false);
  });
});

describe('serving the renderer from app://', () => {
  let root = '';
  let outside = '';
  beforeAll(async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), 'interfere-app-'));
    root = path.join(base, 'renderer');
    outside = path.join(base, 'secret.txt');
    await mkdir(path.join(root, 'assets'), { recursive: true });
    await writeFile(path.join(root, 'index.html'), '<!doctype html><title>x</title>');
    await writeFile(path.join(root, 'assets', 'main.js'), 'console.log(1)');
    await writeFile(path.join(root, 'assets', 'a b.wasm'), new Uint8Array([0, 97, 115, 109]));
    await writeFile(outside, 'secret');
  });
  afterAll(async () => {
    await rm(path.dirname(root), { recursive: true, force: true });
  });

  it('maps URLs to files under the folder', () => {
    expect(resolveAppFile(root, 'app://interfere/')).toBe(path.join(root, 'index.html'));
    expect(resolveAppFile(root, 'app://interfere')).toBe(path.join(root, 'index.html'));
    expect(resolveAppFile(root, 'app://interfere/assets/main.js?v=2#x')).toBe(path.join(root, 'assets', 'main.js'));
    expect(resolveAppFile(root, 'app://interfere/assets/a%20b.wasm')).toBe(path.join(root, 'assets', 'a b.wasm'));
  });

  it.each([
    'app://interfere/../secret.txt',
    'app://interfere/%2e%2e/secret.txt',
    'app://interfere/assets/%2E%2E/%2E%2E/secret.txt',
    'app://interfere/..%2fsecret.txt',
    'app://interfere/..%5csecret.txt',
    'app://interfere/assets//main.js',
    'app://interfere/%00index.html',
    'app://interfere/C:%5cWindows%5cwin.ini',
    'app://interfere/%E0%A4%A',
    'app://other/index.html',
    'file:///etc/passwd',
  ])('refuses %s', (url) => {
    const file = resolveAppFile(root, url);
    // The URL parser already folds dot segments (even encoded ones) into the path; what is left
    // must stay under the folder.
    expect(file === null || (file.startsWith(root + path.sep) && file !== outside)).toBe(true);
  });

  it('serves files with their type, the CSP and nosniff; 404 outside or missing; 405 for writes', async () => {
    const handle = createAppRequestHandler(root);
    const index = await handle(new Request('app://interfere/'));
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await index.text()).toContain('<title>x</title>');

    const wasm = await handle(new Request('app://interfere/assets/a%20b.wasm'));
    expect(wasm.headers.get('content-type')).toBe('application/wasm');
    expect(new Uint8Array(await wasm.arrayBuffer())).toEqual(new Uint8Array([0, 97, 115, 109]));

    const head = await handle(new Request('app://interfere/assets/main.js', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/javascript; charset=utf-8');

    const traversal = await handle(new Request('app://interfere/%2e%2e/secret.txt'));
    expect(traversal.status).toBe(404);
    expect(await traversal.text()).not.toContain('secret');
    expect((await handle(new Request('app://interfere/missing.js'))).status).toBe(404);
    expect((await handle(new Request('app://interfere/assets'))).status).toBe(404);
    expect((await handle(new Request('app://interfere/index.html', { method: 'POST', body: 'x' }))).status).toBe(405);
  });

  it('answers 500 (and logs) when a file cannot be read', async () => {
    const logs: string[] = [];
    const handle = createAppRequestHandler(root, async () => { throw Object.assign(new Error('EIO'), { code: 'EIO' }); }, (m) => logs.push(m));
    const r = await handle(new Request('app://interfere/index.html'));
    expect(r.status).toBe(500);
    expect(r.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(logs[0]).toMatch(/could not read .*index\.html: EIO/);
  });
});

type Handler = (...args: unknown[]) => unknown;

function fakeEvent(url: string, extra: Record<string, unknown> = {}) {
  return { url, prevented: false, preventDefault() { this.prevented = true; }, ...extra };
}

describe('hardening the web contents', () => {
  const handlers = new Map<string, Handler>();
  let openHandler: Handler | null = null;
  let currentUrl = APP_INDEX_URL;
  const logs: string[] = [];
  const contents = {
    on(event: string, handler: Handler) { handlers.set(event, handler); return this; },
    setWindowOpenHandler(handler: Handler) { openHandler = handler; },
    getURL: () => currentUrl,
  };
  hardenWebContents(contents as never, (m) => logs.push(m));

  it('refuses navigation away from the page', () => {
    for (const url of ['https://example.com/', 'file:///etc/passwd', 'app://interfere/other.html']) {
      const e = fakeEvent(url);
      handlers.get('will-navigate')?.(e);
      expect(e.prevented, url).toBe(true);
    }
    const same = fakeEvent(APP_INDEX_URL);
    handlers.get('will-navigate')?.(same);
    expect(same.prevented).toBe(false);
    currentUrl = 'https://evil.example/';
    const back = fakeEvent(currentUrl);
    handlers.get('will-navigate')?.(back);
    expect(back.prevented).toBe(true);
    currentUrl = APP_INDEX_URL;
  });

  it('refuses frame navigation, redirects away, webviews and new windows', () => {
    const frame = fakeEvent('https://example.com/', { isMainFrame: false });
    handlers.get('will-frame-navigate')?.(frame);
    expect(frame.prevented).toBe(true);
    const ownFrame = fakeEvent('app://interfere/frame.html', { isMainFrame: false });
    handlers.get('will-frame-navigate')?.(ownFrame);
    expect(ownFrame.prevented).toBe(false);
    const redirect = fakeEvent('https://example.com/');
    handlers.get('will-redirect')?.(redirect);
    expect(redirect.prevented).toBe(true);
    const ownRedirect = fakeEvent('app://interfere/index.html');
    handlers.get('will-redirect')?.(ownRedirect);
    expect(ownRedirect.prevented).toBe(false);
    const webview = fakeEvent('');
    handlers.get('will-attach-webview')?.(webview, {}, {});
    expect(webview.prevented).toBe(true);
    expect(openHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(openHandler?.({ url: APP_INDEX_URL })).toEqual({ action: 'deny' });
    expect(logs.some((l) => l.includes('window for https://example.com/ refused'))).toBe(true);
  });
});

describe('hardening the session', () => {
  it('refuses every permission, download and remote request', () => {
    const h: { request?: Handler; check?: Handler; beforeRequest?: Handler } = {};
    const listeners = new Map<string, Handler>();
    const session = {
      setPermissionRequestHandler(handler: Handler) { h.request = handler; },
      setPermissionCheckHandler(handler: Handler) { h.check = handler; },
      on(event: string, handler: Handler) { listeners.set(event, handler); },
      webRequest: { onBeforeRequest(handler: Handler) { h.beforeRequest = handler; } },
    };
    hardenSession(session as never, () => {});
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fileSystem']) {
      let granted: boolean | undefined;
      h.request?.({}, permission, (g: boolean) => { granted = g; }, {});
      expect(granted, permission).toBe(false);
      expect(h.check?.({}, permission, 'app://interfere', {})).toBe(false);
    }
    const download = fakeEvent('');
    listeners.get('will-download')?.(download, {}, {});
    expect(download.prevented).toBe(true);
    const decide = (url: string) => {
      let cancel: boolean | undefined;
      h.beforeRequest?.({ url }, (r: { cancel: boolean }) => { cancel = r.cancel; });
      return cancel;
    };
    expect(decide('https://cdn.example.com/lib.js')).toBe(true);
    expect(decide('app://interfere/assets/main.js')).toBe(false);
  });
});
