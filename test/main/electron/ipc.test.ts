import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENTS, REQUESTS, type EventChannel } from '../../../src-main/contract/host.js';
import { registerHostIpc, parseDroppedPath, type WindowContents } from '../../../src-main/main/ipc.js';
import { DROP_FILE_CHANNEL, type ReplyEnvelope } from '../../../src-main/preload/shellIpc.js';
import { APP_INDEX_URL, type FrameLike, type IpcEventLike } from '../../../src-main/main/security.js';
import { HostRequestError } from '../../../src-main/contract/host.js';
import type { HostServiceApi } from '../../../src-main/services/host/api.js';
import { toHostError } from '../../../src-main/services/host/errors.js';

type Listener = (event: IpcEventLike, ...args: unknown[]) => unknown;

function setup(options: { handle?: (channel: string, payload: unknown) => Promise<unknown> } = {}) {
  const handlers = new Map<string, Listener>();
  const ipcMain = {
    handle(channel: string, listener: Listener) {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler(channel: string) { handlers.delete(channel); },
  };
  const serviceListeners = new Map<string, Set<(payload: unknown) => void>>();
  const calls: [string, unknown][] = [];
  const allowed: string[] = [];
  const service = {
    handle: options.handle ?? (async (channel: string, payload: unknown) => {
      calls.push([channel, payload]);
      return { echo: channel };
    }),
    on(event: string, listener: (payload: unknown) => void) {
      const set = serviceListeners.get(event) ?? new Set();
      set.add(listener);
      serviceListeners.set(event, set);
      return () => set.delete(listener);
    },
    allowPath: (p: string) => allowed.push(p),
    dirtyDocuments: () => [],
    dispose: async () => {},
  } as unknown as HostServiceApi;
  const mainFrame: FrameLike = { url: APP_INDEX_URL, processId: 3, routingId: 1, parent: null };
  const sent: [string, unknown][] = [];
  let destroyed = false;
  const contents: WindowContents = {
    mainFrame,
    isDestroyed: () => destroyed,
    send: (channel, payload) => sent.push([channel, payload]),
  };
  const logs: string[] = [];
  const settled: [string, ReplyEnvelope][] = [];
  const started: string[] = [];
  const dispose = registerHostIpc({
    ipcMain,
    service,
    contents: () => contents,
    log: (m) => logs.push(m),
    onRequest: (c) => started.push(c),
    onSettled: (c, r) => settled.push([c, r]),
  });
  const trusted = { sender: contents, senderFrame: mainFrame };
  const invoke = (channel: string, payload: unknown, event: unknown = trusted) => {
    const h = handlers.get(channel);
    if (!h) throw new Error(`No handler registered for '${channel}'`);
    return h(event as IpcEventLike, payload) as Promise<ReplyEnvelope>;
  };
  const emit = (event: string, payload: unknown) => { for (const l of serviceListeners.get(event) ?? []) l(payload); };
  return {
    handlers, calls, allowed, sent, logs, settled, started, invoke, emit, dispose, contents, mainFrame,
    serviceListeners, destroy: () => { destroyed = true; },
  };
}

describe('IPC handlers', () => {
  it('registers one handler per request channel of the contract, plus the drop channel', () => {
    const t = setup();
    expect([...t.handlers.keys()].sort()).toEqual([...Object.keys(REQUESTS), DROP_FILE_CHANNEL].sort());
  });

  it('passes trusted requests to the service and answers with an envelope', async () => {
    const t = setup();
    expect(await t.invoke('doc.open', { path: '/a.stp' })).toEqual({ ok: true, result: { echo: 'doc.open' } });
    expect(t.calls).toEqual([['doc.open', { path: '/a.stp' }]]);
    expect(t.started).toEqual(['doc.open']);
    expect(t.settled).toEqual([['doc.open', { ok: true, result: { echo: 'doc.open' } }]]);
  });

  it('refuses and logs requests from other senders without reaching the service', async () => {
    const t = setup();
    const cases = [
      { sender: {}, senderFrame: t.mainFrame },
      { sender: t.contents, senderFrame: null },
      { sender: t.contents, senderFrame: { ...t.mainFrame, routingId: 9, parent: t.mainFrame } },
      { sender: t.contents, senderFrame: { ...t.mainFrame, url: 'https://evil.example/' } },
    ];
    for (const event of cases) {
      const reply = await t.invoke('app.info', {}, event);
      expect(reply).toEqual({ ok: false, error: { code: 'access-denied', message: expect.any(String) } });
    }
    expect(await t.invoke(DROP_FILE_CHANNEL, { path: '/x.stp' }, cases[0])).toMatchObject({ ok: false, error: { code: 'access-denied' } });
    expect(t.calls).toEqual([]);
    expect(t.allowed).toEqual([]);
    expect(t.logs).toHaveLength(5);
    expect(t.logs[3]).toContain('https://evil.example/');
  });

  it('turns the service failures into HostErrors, unexpected ones into internal errors', async () => {
    const failures: unknown[] = [
      new HostRequestError({ code: 'not-found', message: 'a.stp: file not found', path: '/a.stp' }),
      new Error('boom'),
      'odd',
    ];
    let i = 0;
    const t = setup({ handle: async () => { throw failures[i++]; } });
    expect(await t.invoke('doc.open', {})).toEqual({ ok: false, error: { code: 'not-found', message: 'a.stp: file not found', path: '/a.stp' } });
    expect(await t.invoke('doc.open', {})).toEqual({ ok: false, error: { code: 'internal', message: 'internal error: boom' } });
    expect(await t.invoke('doc.open', {})).toEqual({ ok: false, error: { code: 'internal', message: 'internal error: odd' } });
    expect(t.logs.filter((l) => l.startsWith('internal error'))).toHaveLength(2);
  });

  it('removes every handler and event subscription when disposed', () => {
    const t = setup();
    t.dispose();
    expect(t.handlers.size).toBe(0);
    for (const set of t.serviceListeners.values()) expect(set.size).toBe(0);
  });
});

describe('dropped files', () => {
  it('grants the path before opening it through doc.open', async () => {
    const order: string[] = [];
    const t = setup({ handle: async (channel, payload) => { order.push(`${channel} ${JSON.stringify(payload)}`); return null; } });
    const file = path.resolve('/models/a.stp');
    const original = t.allowed.push.bind(t.allowed);
    t.allowed.push = (...p: string[]) => { order.push(`allow ${p[0]}`); return original(...p); };
    expect(await t.invoke(DROP_FILE_CHANNEL, { path: file })).toEqual({ ok: true, result: null });
    expect(order).toEqual([`allow ${file}`, `doc.open ${JSON.stringify({ path: file })}`]);
    expect(t.settled.map(([c]) => c)).toEqual(['doc.open']);
  });

  it.each([
    ['no payload', undefined],
    ['a relative path', { path: 'a.stp' }],
    ['an empty path', { path: '' }],
    ['a NUL', { path: '/a\u0000.stp' }],
    ['a number', { path: 5 }],
    ['a huge path', { path: `/${'a'.repeat(5000)}` }],
  ])('refuses %s', async (_name, payload) => {
    const t = setup();
    expect(await t.invoke(DROP_FILE_CHANNEL, payload)).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    expect(t.allowed).toEqual([]);
    expect(t.calls).toEqual([]);
  });

  it('normalises the path', () => {
    expect(parseDroppedPath({ path: path.resolve('/a/b/../c.stp') })).toBe(path.resolve('/a/c.stp'));
  });
});

describe('host events', () => {
  it('forwards every event channel to the window, and nothing once it is gone', () => {
    const t = setup();
    for (const event of Object.keys(EVENTS) as EventChannel[]) {
      expect(t.serviceListeners.get(event)?.size, event).toBe(1);
      t.emit(event, { of: event });
    }
    expect(t.sent).toEqual(Object.keys(EVENTS).map((e) => [e, { of: e }]));
    t.destroy();
    t.emit('host.error', { code: 'x', message: 'y' });
    expect(t.sent).toHaveLength(Object.keys(EVENTS).length);
  });
});

describe('toHostError', () => {
  it('keeps a HostError carried by any error object', () => {
    expect(toHostError({ error: { code: 'cancelled', message: 'stop' } })).toEqual({ code: 'cancelled', message: 'stop' });
  });
});
