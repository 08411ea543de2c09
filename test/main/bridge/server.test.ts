import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { WebSocket } from 'ws';
import { HostRequestError, type EventChannel, type EventOf } from '../../../src-main/contract/host.js';
import { decodeMessage, encodeMessage, parseWireMessage, type WireMessage } from '../../../src-main/contract/wire.js';
import { startBridge, isLoopback, type BridgeHandle } from '../../../src-main/bridge/server.js';
import type { HostServiceApi } from '../../../src-main/services/host/api.js';
import { connectBridge } from '../../../src-renderer/host/bridgeClient.js';
import { createTestHost, GEAR, TEST_DATA, tempDir, type TestHost } from '../host/helpers.js';

const CUBE = path.join(TEST_DATA, 'stl-models/polytopes/cube.ascii.stl');

/** A stand-in service: answers app.info, echoes, fails on demand, and emits events when asked. */
class FakeService implements HostServiceApi {
  readonly listeners = new Map<string, Set<(p: unknown) => void>>();
  readonly calls: string[] = [];
  async handle(channel: string, payload: unknown): Promise<unknown> {
    this.calls.push(channel);
    if (channel === 'app.info') return { name: 'Interfere', version: '0.0.0', host: 'bridge', platform: 'test', startupDocument: null, recentFiles: [] };
    if (channel === 'doc.geometry') return { bodies: [{ bodyKey: 'a#0', positions: new Float32Array([1, 2, 3]), indices: new Uint32Array([0, 0, 0]), faceRanges: new Uint32Array(0) }] };
    if (channel === 'job.cancel') {
      this.emit('host.error', { code: 'test', message: `event for ${JSON.stringify(payload)}`, path: null });
      return { cancelled: false };
    }
    if (channel === 'slow') return new Promise(() => {});
    throw new HostRequestError({ code: 'unknown-channel', message: `unknown request '${channel}'` });
  }
  on<E extends EventChannel>(event: E, listener: (payload: EventOf<E>) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (p: unknown) => void);
    return () => set.delete(listener as (p: unknown) => void);
  }
  emit(event: string, payload: unknown): void {
    for (const l of this.listeners.get(event) ?? []) l(payload);
  }
  subscribed(): number {
    return [...this.listeners.values()].reduce((s, x) => s + x.size, 0);
  }
  allowPath(): void {}
  dirtyDocuments(): { id: string; name: string }[] {
    return [];
  }
  async dispose(): Promise<void> {}
}

function get(port: number, rawPath: string, options: { method?: string; host?: string } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: rawPath, method: options.method ?? 'GET', headers: { host: options.host ?? `127.0.0.1:${port}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a WebSocket; resolves with it once open, or with the HTTP status it was refused with. */
function connect(url: string, headers: Record<string, string> = {}): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.binaryType = 'arraybuffer';
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', reject);
  });
}

/** A wire-speaking client: requests by id, collected events. */
class WireClient {
  private next = 1;
  private readonly pending = new Map<number, (m: WireMessage) => void>();
  readonly events: { event: string; payload: unknown }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: ArrayBuffer) => {
      const m = parseWireMessage(decodeMessage(data));
      if (m.type === 'event') this.events.push({ event: m.event, payload: m.payload });
      else if (m.type === 'response') this.pending.get(m.id)?.(m);
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }
  request(channel: string, payload: unknown = {}): Promise<WireMessage> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.ws.send(encodeMessage({ type: 'request', id, channel, payload }));
    });
  }
  async waitEvent(test: (e: { event: string; payload: unknown }) => boolean, timeoutMs = 30_000): Promise<{ event: string; payload: unknown }> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(test);
      if (found) return found;
      if (Date.now() > end) throw new Error('timed out waiting for an event');
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

describe('bridge: static files and security', () => {
  let bridge: BridgeHandle;
  let service: FakeService;
  let root: string;
  beforeAll(async () => {
    const dir = tempDir('bridge-static');
    root = path.join(dir, 'renderer');
    mkdirSync(path.join(root, 'assets', 'sub'), { recursive: true });
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Interfere</title>');
    writeFileSync(path.join(root, 'assets', 'app.js'), 'console.log(1);');
    writeFileSync(path.join(root, 'assets', 'a b.css'), 'body{}');
    writeFileSync(path.join(dir, 'secret.txt'), 'secret');
    symlinkSync(path.join(dir, 'secret.txt'), path.join(root, 'assets', 'link.txt'));
    service = new FakeService();
    bridge = await startBridge({ service, staticDir: root, port: 0, log: () => {} });
  });
  afterAll(async () => {
    await bridge.close();
  });

  it('listens on 127.0.0.1 with a 32-byte token in the page URL', () => {
    expect(bridge.url).toBe(`http://127.0.0.1:${bridge.port}/?token=${bridge.token}`);
    expect(bridge.token).toMatch(/^[0-9a-f]{64}$/);
    expect(bridge.port).toBeGreaterThan(0);
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('10.0.0.1')).toBe(false);
    expect(isLoopback('::ffff:192.168.1.2')).toBe(false);
    expect(isLoopback(undefined)).toBe(false);
  });

  it('serves the renderer with a strict CSP and nosniff', async () => {
    const index = await get(bridge.port, '/?token=abc');
    expect(index.status).toBe(200);
    expect(index.body).toContain('<title>Interfere</title>');
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    const csp = String(index.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${bridge.port}`);
    const js = await get(bridge.port, '/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body).toBe('console.log(1);');
    expect((await get(bridge.port, '/assets/a%20b.css')).status).toBe(200);
    const head = await get(bridge.port, '/assets/app.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('refuses traversal, folders, wrong paths, other methods and foreign Host headers', async () => {
    for (const p of [
      '/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt',
      '/assets/..%5c..%5csecret.txt', '/assets/link.txt', '/assets', '/assets/', '/assets/sub', '/missing.js', '/%00', '/%E0%A4%A',
      '/index.html%00.js', '//etc/passwd',
    ]) {
      const r = await get(bridge.port, p);
      expect(r.status, p).toBe(404);
      expect(r.body, p).not.toContain('secret');
      expect(r.headers['x-content-type-options'], p).toBe('nosniff');
    }
    expect((await get(bridge.port, '/host')).status).toBe(426);
    expect((await get(bridge.port, '/', { method: 'POST' })).status).toBe(405);
    expect((await get(bridge.port, '/', { host: 'evil.example:80' })).status).toBe(421);
    expect((await get(bridge.port, '/', { host: `localhost:${bridge.port}` })).status).toBe(421);
  });

  it('accepts WebSocket connections only with the token and from its own origin', async () => {
    const base = `ws://127.0.0.1:${bridge.port}/host`;
    expect(await connect(`${base}`)).toBe(401);
    expect(await connect(`${base}?token=${'0'.repeat(64)}`)).toBe(401);
    expect(await connect(`${base}?token=${bridge.token}x`)).toBe(401);
    expect(await connect(`${base}?token=${bridge.token.toUpperCase()}`)).toBe(401);
    expect(await connect(`ws://127.0.0.1:${bridge.port}/other?token=${bridge.token}`)).toBe(404);
    expect(await connect(`${base}?token=${bridge.token}`, { Origin: 'http://evil.example' })).toBe(403);
    expect(await connect(`${base}?token=${bridge.token}`, { Origin: `http://localhost:${bridge.port}` })).toBe(403);
    const own = await connect(`${base}?token=${bridge.token}`, { Origin: `http://127.0.0.1:${bridge.port}` });
    expect(own).toBeInstanceOf(WebSocket);
    (own as WebSocket).close();
    const none = await connect(`${base}?token=${bridge.token}`);
    expect(none).toBeInstanceOf(WebSocket);
    (none as WebSocket).close();
  });

  it('routes requests, answers errors with a HostError, forwards events, and closes on malformed frames', async () => {
    const client = new WireClient((await connect(`ws://127.0.0.1:${bridge.port}/host?token=${bridge.token}`)) as WebSocket);
    const info = await client.request('app.info');
    expect(info).toMatchObject({ type: 'response', ok: true, result: { name: 'Interfere' } });
    const geometry = await client.request('doc.geometry', { docId: 'd' });
    const body = (geometry as { result: { bodies: { positions: Float32Array }[] } }).result.bodies[0];
    expect(body.positions).toBeInstanceOf(Float32Array);
    expect(Array.from(body.positions)).toEqual([1, 2, 3]);
    expect(await client.request('no.such')).toMatchObject({ ok: false, error: { code: 'unknown-channel', message: "unknown request 'no.such'" } });
    await client.request('job.cancel', { jobId: 'j' });
    expect((await client.waitEvent((e) => e.event === 'host.error')).payload).toMatchObject({ message: 'event for {"jobId":"j"}' });

    client.ws.send(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    expect(await client.closed).toEqual({ code: 1007, reason: 'malformed frame' });
    const text = new WireClient((await connect(`ws://127.0.0.1:${bridge.port}/host?token=${bridge.token}`)) as WebSocket);
    text.ws.send('{"type":"request"}');
    expect((await text.closed).code).toBe(1003);
    const wrong = new WireClient((await connect(`ws://127.0.0.1:${bridge.port}/host?token=${bridge.token}`)) as WebSocket);
    wrong.ws.send(encodeMessage({ type: 'event', event: 'doc.changed', payload: {} }));
    expect((await wrong.closed).code).toBe(1008);
  });

  it('serves the typed host API to the browser client, which fails pending requests when the connection drops', async () => {
    const own = new FakeService();
    const b = await startBridge({ service: own, staticDir: root, log: () => {} });
    const api = await connectBridge({ href: b.url }, { WebSocket: WebSocket as never });
    expect((await api.appInfo({})).name).toBe('Interfere');
    const geometry = await api.docGeometry({ docId: 'd' });
    expect(geometry.bodies[0].indices).toBeInstanceOf(Uint32Array);
    const refused = await api.docOpen({ path: '/x' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HostRequestError);
    const errors: string[] = [];
    api.onHostError((e) => errors.push(e.code));
    await api.jobCancel({ jobId: 'j' });
    await new Promise((r) => setTimeout(r, 20));
    expect(errors).toEqual(['test']);

    // A request that never gets an answer fails when the connection goes.
    own.handle = async (channel: string) => (channel === 'check.run' ? new Promise(() => {}) : {});
    const hanging = api.checkRun({ docId: 'd' }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 20));
    expect(own.subscribed()).toBeGreaterThan(0);
    await b.close();
    const failed = await hanging;
    expect(failed).toBeInstanceOf(HostRequestError);
    expect((failed as HostRequestError).error.code).toBe('disconnected');
    expect(errors).toEqual(['test', 'disconnected']);
    await expect(api.appInfo({})).rejects.toBeInstanceOf(HostRequestError);
    // Closing stopped the event forwarding and the server.
    expect(own.subscribed()).toBe(0);
    await expect(connect(`ws://127.0.0.1:${b.port}/host?token=${b.token}`)).rejects.toThrow(/ECONNREFUSED/);
    await expect(connectBridge({ href: 'http://127.0.0.1:1/' })).rejects.toThrow(/no bridge token/);
  });
});

describe('bridge: with the real host service', () => {
  let h: TestHost;
  let bridge: BridgeHandle;
  beforeAll(async () => {
    h = createTestHost({ host: 'bridge', dialogs: null, startupFile: GEAR, allowedFolders: [path.dirname(CUBE)] });
    bridge = await startBridge({ service: h.service, staticDir: tempDir('bridge-empty'), log: () => {} });
  });
  afterAll(async () => {
    await bridge.close();
    await h.service.dispose();
  });

  it('answers app.info and doc.open over the wire, and forwards job events', async () => {
    const client = new WireClient((await connect(`ws://127.0.0.1:${bridge.port}/host?token=${bridge.token}`)) as WebSocket);
    const info = await client.request('app.info');
    expect(info).toMatchObject({ ok: true, result: { host: 'bridge', startupDocument: { path: GEAR } } });
    const doc = (info as { result: { startupDocument: { id: string } } }).result.startupDocument;
    const opened = await client.request('doc.open', { path: CUBE });
    if (opened.type !== 'response' || !opened.ok) throw new Error(JSON.stringify(opened));
    expect((opened.result as { parts: unknown[] }).parts).toHaveLength(1);
    const denied = await client.request('doc.open', { path: '/etc/hostname' });
    expect(denied).toMatchObject({ ok: false, error: { code: 'access-denied', path: '/etc/hostname' } });
    const started = await client.request('check.run', { docId: doc.id });
    const jobId = (started as { result: { jobId: string } }).result.jobId;
    const done = await client.waitEvent((e) => e.event === 'job.done' && (e.payload as { jobId: string }).jobId === jobId);
    const outcome = (done.payload as { outcome: { summary: { interferences: number; contacts: number }; results: { trianglePairs: Uint32Array }[] } }).outcome;
    expect(outcome.summary).toMatchObject({ interferences: 1, contacts: 1 });
    expect(outcome.results[0].trianglePairs).toBeInstanceOf(Uint32Array);
    expect(client.events.some((e) => e.event === 'job.progress')).toBe(true);
    expect(client.events.some((e) => e.event === 'doc.changed')).toBe(true);
    client.ws.close();

    // The browser client sees the same.
    const api = await connectBridge({ href: bridge.url }, { WebSocket: WebSocket as never });
    const again = await api.appInfo({});
    expect(again.startupDocument?.parts).toHaveLength(4);
  });
});
