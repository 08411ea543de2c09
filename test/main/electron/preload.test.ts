import { build } from 'esbuild';
import { describe, expect, it, vi } from 'vitest';
import { EVENTS, HostRequestError, REQUESTS, apiEventName, apiFunctionName, type DocumentInfo } from '../../../src-main/contract/host.js';
import { createIpcTransport, createPreloadHostApi, createShellApi } from '../../../src-main/preload/transport.js';
import { DROP_FILE_CHANNEL, OPEN_FILE_CHANNEL, unwrapReply } from '../../../src-main/preload/shellIpc.js';
import { runPreloadInSandbox } from './sandboxPreload.js';

type Listener = (event: unknown, ...args: unknown[]) => void;

function fakeIpc(reply: (channel: string, payload: unknown) => unknown = () => ({ ok: true, result: null })) {
  const listeners = new Map<string, Set<Listener>>();
  const invoked: [string, unknown][] = [];
  return {
    invoked,
    listeners,
    async invoke(channel: string, payload: unknown) {
      invoked.push([channel, payload]);
      return reply(channel, payload);
    },
    on(channel: string, listener: Listener) {
      const set = listeners.get(channel) ?? new Set();
      set.add(listener);
      listeners.set(channel, set);
      return this;
    },
    removeListener(channel: string, listener: Listener) {
      listeners.get(channel)?.delete(listener);
      return this;
    },
    deliver(channel: string, payload: unknown) {
      for (const l of [...(listeners.get(channel) ?? [])]) l({ sender: 'ipc event' }, payload);
    },
  };
}

const doc: DocumentInfo = {
  id: 'doc-1', name: 'a.stp', path: '/m/a.stp', kind: 'model', parts: [],
  settings: { touchToleranceMm: null, clearanceMm: 0, contactIsInterference: false },
  ignore: [], statuses: {}, resultIds: {}, dirty: false, warnings: [],
};

describe('reply envelopes', () => {
  it('unwraps results and turns errors into HostRequestError', () => {
    expect(unwrapReply('x', { ok: true, result: 5 })).toBe(5);
    expect(() => unwrapReply('x', { ok: false, error: { code: 'not-found', message: 'gone', path: '/a' } }))
      .toThrow(expect.objectContaining({ name: 'HostRequestError', error: { code: 'not-found', message: 'gone', path: '/a' } }));
    for (const bad of [null, 'x', {}, { ok: 'yes' }, { ok: false, error: { message: 'no code' } }]) {
      expect(() => unwrapReply('doc.open', bad)).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'invalid-reply' }) }));
    }
  });
});

describe('the IPC transport', () => {
  it('invokes contract channels only', async () => {
    const ipc = fakeIpc(() => ({ ok: true, result: 7 }));
    const t = createIpcTransport(ipc);
    expect(await t.invoke('doc.new', {})).toBe(7);
    await expect(t.invoke('fs.readFile', { path: '/etc/passwd' })).rejects.toBeInstanceOf(HostRequestError);
    await expect(t.invoke('__proto__', {})).rejects.toMatchObject({ error: { code: 'unknown-channel' } });
    expect(ipc.invoked).toEqual([['doc.new', {}]]);
  });

  it('subscribes to event channels only, hands listeners the payload alone, and unsubscribes exactly that listener', () => {
    const ipc = fakeIpc();
    const t = createIpcTransport(ipc);
    const a: unknown[] = [];
    const b: unknown[] = [];
    const offA = t.on('job.progress', (p) => a.push(p));
    t.on('job.progress', (p) => b.push(p));
    ipc.deliver('job.progress', 1);
    offA();
    offA();
    ipc.deliver('job.progress', 2);
    expect(a).toEqual([1]);
    expect(b).toEqual([1, 2]);
    expect(ipc.listeners.get('job.progress')?.size).toBe(1);
    expect(() => t.on('shell.anything', () => {})).toThrow(/unknown host event/);
  });
});

describe('the host API given to the page', () => {
  it('has one function per request and one subscription per event, nothing else', () => {
    const api = createPreloadHostApi(fakeIpc());
    const expected = [...Object.keys(REQUESTS).map((c) => apiFunctionName(c as keyof typeof REQUESTS)), ...Object.keys(EVENTS).map((e) => apiEventName(e as keyof typeof EVENTS))];
    expect(Object.keys(api).sort()).toEqual(expected.sort());
    expect(Object.values(api).every((f) => typeof f === 'function')).toBe(true);
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('validates responses and rejects failures with plain objects that survive the context bridge', async () => {
    const ipc = fakeIpc((channel) => channel === 'doc.new'
      ? { ok: true, result: doc }
      : { ok: false, error: { code: 'access-denied', message: 'not yours', path: '/x' } });
    const api = createPreloadHostApi(ipc);
    expect(await api.docNew({})).toEqual(doc);
    const failure = await api.docOpen({ path: '/x' }).then(() => null, (e: unknown) => e);
    expect(failure).toEqual({ name: 'HostRequestError', message: 'not yours', error: { code: 'access-denied', message: 'not yours', path: '/x' } });
    expect(failure).not.toBeInstanceOf(Error);
    // An invalid request never leaves the preload.
    await expect(api.docOpen({ path: '' })).rejects.toBeDefined();
    expect(ipc.invoked.map(([c]) => c)).toEqual(['doc.new', 'doc.open']);
  });

  it('delivers valid events and drops invalid ones', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const ipc = fakeIpc();
    const api = createPreloadHostApi(ipc);
    const got: unknown[] = [];
    const off = api.onMenuCommand((p) => got.push(p.command));
    ipc.deliver('menu.command', { command: 'file.save' });
    ipc.deliver('menu.command', { command: 'rm -rf' });
    off();
    ipc.deliver('menu.command', { command: 'file.open' });
    expect(got).toEqual(['file.save']);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});

describe('the shell functions', () => {
  const file = { name: 'a.stp' } as unknown as File;

  it('gives a dropped file its path, and opens it through main', async () => {
    const ipc = fakeIpc(() => ({ ok: true, result: doc }));
    const shell = createShellApi(ipc, { getPathForFile: () => '/m/a.stp' });
    expect(shell.pathForDroppedFile(file)).toBe('/m/a.stp');
    expect(await shell.openDroppedFile(file)).toEqual(doc);
    expect(ipc.invoked).toEqual([[DROP_FILE_CHANNEL, { path: '/m/a.stp' }]]);
  });

  it('refuses a File without a path (made by script) before any IPC', async () => {
    const ipc = fakeIpc();
    const shell = createShellApi(ipc, { getPathForFile: () => '' });
    await expect(shell.openDroppedFile(file)).rejects.toMatchObject({ name: 'HostRequestError', error: { code: 'invalid-request' } });
    const throwing = createShellApi(ipc, { getPathForFile: () => { throw new TypeError('not a File'); } });
    await expect(throwing.openDroppedFile({} as File)).rejects.toMatchObject({ error: { code: 'invalid-request' } });
    expect(ipc.invoked).toEqual([]);
  });

  it('rejects a failed or malformed open with a bridged HostError', async () => {
    const failing = createShellApi(fakeIpc(() => ({ ok: false, error: { code: 'import-failed', message: 'a.stp: not a STEP file' } })), { getPathForFile: () => '/a.stp' });
    await expect(failing.openDroppedFile(file)).rejects.toEqual({ name: 'HostRequestError', message: 'a.stp: not a STEP file', error: { code: 'import-failed', message: 'a.stp: not a STEP file' } });
    const malformed = createShellApi(fakeIpc(() => ({ ok: true, result: { id: 3 } })), { getPathForFile: () => '/a.stp' });
    await expect(malformed.openDroppedFile(file)).rejects.toMatchObject({ error: { code: 'invalid-reply' } });
  });

  it('keeps files main asks to open until the page listens, then delivers them and later ones', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const ipc = fakeIpc();
    const shell = createShellApi(ipc, { getPathForFile: () => '' });
    ipc.deliver(OPEN_FILE_CHANNEL, { path: '/early.stp' });
    ipc.deliver(OPEN_FILE_CHANNEL, { path: 42 });
    const got: string[] = [];
    const off = shell.onOpenFile((p) => got.push(p));
    ipc.deliver(OPEN_FILE_CHANNEL, { path: '/later.stp' });
    off();
    off();
    ipc.deliver(OPEN_FILE_CHANNEL, { path: '/unheard.stp' });
    expect(got).toEqual(['/early.stp', '/later.stp']);
    expect(warn).toHaveBeenCalledTimes(1); // the path that was a number
    warn.mockRestore();
  });
});

describe('the preload bundle', () => {
  it('runs in a bare context that can require only electron, and exposes two objects of functions', async () => {
    // Built as scripts/build.mjs builds it.
    const out = await build({
      entryPoints: ['src-main/preload/preload.ts'], bundle: true, platform: 'browser', target: 'chrome140',
      format: 'cjs', external: ['electron'], write: false, logLevel: 'silent',
    });
    const code = out.outputFiles[0].text;
    const ipc = fakeIpc(() => ({ ok: true, result: doc }));
    const { exposed, required } = runPreloadInSandbox(code, { ipcRenderer: ipc, webUtils: { getPathForFile: () => '/m/a.stp' } });
    expect(required).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['interfereHost', 'interfereShell']);
    for (const api of exposed.values()) {
      expect(Object.values(api).every((v) => typeof v === 'function')).toBe(true);
      expect(Object.values(api)).not.toContain(ipc);
    }
    expect(Object.keys(exposed.get('interfereShell') ?? {}).sort()).toEqual(['onOpenFile', 'openDroppedFile', 'pathForDroppedFile']);
    const docNew = exposed.get('interfereHost')?.docNew as (r: unknown) => Promise<unknown>;
    expect(await docNew({})).toEqual(doc);
  });
});
