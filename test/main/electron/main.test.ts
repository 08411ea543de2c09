// The main process's wiring, run against a stand-in `electron` and a stand-in host service: a
// launch, a second launch, menu commands, drops, host events, the unsaved-changes prompt, quit.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REQUESTS } from '../../../src-main/contract/host.js';
import { APP_INDEX_URL, CONTENT_SECURITY_POLICY } from '../../../src-main/main/security.js';
import { DROP_FILE_CHANNEL, OPEN_FILE_CHANNEL } from '../../../src-main/preload/shellIpc.js';
import type { HostServiceOptions } from '../../../src-main/services/host/api.js';
import { FakeBrowserWindow, resetFake, type Fake } from './fakeElectron.js';

class FakeHostService {
  static instances: FakeHostService[] = [];
  readonly allowed: string[] = [];
  readonly requests: [string, unknown][] = [];
  dirty: { id: string; name: string }[] = [];
  disposed = 0;
  respond: (channel: string, payload: unknown) => unknown = () => null;
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();

  constructor(readonly options: HostServiceOptions) {
    FakeHostService.instances.push(this);
  }
  async handle(channel: string, payload: unknown): Promise<unknown> {
    this.requests.push([channel, payload]);
    return this.respond(channel, payload);
  }
  on(event: string, listener: (payload: unknown) => void): () => void {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener);
    this.listeners.set(event, set);
    return () => set.delete(listener);
  }
  allowPath(p: string): void {
    this.allowed.push(p);
  }
  dirtyDocuments() {
    return this.dirty;
  }
  async dispose(): Promise<void> {
    this.disposed++;
  }
  emit(event: string, payload: unknown): void {
    for (const l of this.listeners.get(event) ?? []) l(payload);
  }
}

let f: Fake;
let base: string;
let savedArgv: string[];

beforeEach(async () => {
  f = resetFake();
  FakeHostService.instances.length = 0;
  base = await mkdtemp(path.join(os.tmpdir(), 'interfere-main-'));
  f.app.userData = path.join(base, 'userData');
  f.app.appPath = path.join(base, 'app');
  await mkdir(f.app.userData, { recursive: true });
  await mkdir(path.join(f.app.appPath, 'dist', 'renderer'), { recursive: true });
  await writeFile(path.join(f.app.appPath, 'dist', 'renderer', 'index.html'), '<!doctype html>');
  savedArgv = process.argv;
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.resetModules();
  vi.doMock('electron', () => f.module);
  vi.doMock('../../../src-main/services/host/hostService.js', () => ({ HostService: FakeHostService }));
});

afterEach(async () => {
  process.argv = savedArgv;
  vi.doUnmock('electron');
  vi.doUnmock('../../../src-main/services/host/hostService.js');
  vi.restoreAllMocks();
  await rm(base, { recursive: true, force: true });
});

/** Starts main.ts as Electron would, with these command-line arguments. */
async function launch(args: string[] = []): Promise<{ win: FakeBrowserWindow; service: FakeHostService }> {
  process.argv = ['/opt/Interfere/interfere', ...args];
  await import('../../../src-main/main/main.js');
  await vi.waitFor(() => {
    expect(FakeBrowserWindow.created[0]?.webContents.url).toBe(APP_INDEX_URL);
  });
  await new Promise((r) => setImmediate(r));
  return { win: FakeBrowserWindow.created[0], service: FakeHostService.instances[0] };
}

function invoke(win: FakeBrowserWindow, channel: string, payload: unknown): Promise<unknown> {
  const handler = f.ipcHandlers.get(channel);
  if (!handler) throw new Error(`No handler registered for '${channel}'`);
  return handler({ sender: win.webContents, senderFrame: win.webContents.mainFrame }, payload) as Promise<unknown>;
}

function menuItem(template: unknown[], id: string): { click: () => void } {
  const all = (items: unknown[]): Record<string, unknown>[] =>
    (items as Record<string, unknown>[]).flatMap((i) => [i, ...all(Array.isArray(i.submenu) ? i.submenu : [])]);
  const item = all(template).find((i) => i.id === id);
  if (!item) throw new Error(`no menu item ${id}`);
  return item as unknown as { click: () => void };
}

describe('starting the app', () => {
  it('registers app:// as a privileged scheme and serves the renderer with the CSP', async () => {
    await launch();
    expect(f.privileged).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
    const handler = f.protocolHandlers.get('app');
    const page = await handler?.(new Request(APP_INDEX_URL));
    expect(page?.status).toBe(200);
    expect(page?.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(typeof f.permissionHandler).toBe('function');
  });

  it('keeps crash dumps locally, under the user-data folder, and uploads none', async () => {
    await launch();
    expect(f.crashReporters).toEqual([expect.objectContaining({ uploadToServer: false })]);
    expect(f.app.paths.get('crashDumps')).toBe(path.join(f.app.userData, 'crash-dumps'));
  });

  it('Help › Show Log reveals the log file, which exists by then', async () => {
    await launch();
    menuItem(f.menus.at(-1)!, 'help.showLog').click();
    expect(f.shown).toHaveLength(1);
    expect(path.basename(f.shown[0]!)).toBe('interfere.log');
    expect(existsSync(f.shown[0]!)).toBe(true);
  });

  it('gives the host service dialogs, utility processes, the user-data folder and the file named at launch', async () => {
    const file = path.join(base, 'part.stp');
    const { service } = await launch(['--no-sandbox', file]);
    expect(service.options).toMatchObject({ host: 'electron', userDataDir: f.app.userData, startupFile: file });
    expect(service.options.dialogs).toMatchObject({ openFile: expect.any(Function), saveFile: expect.any(Function) });
    expect(service.allowed).toEqual([file]);
    const child = service.options.fork?.({ file: '/w.cjs' });
    expect(f.forks).toEqual([{ file: '/w.cjs', options: { serviceName: 'Interfere compute', stdio: 'pipe' } }]);
    expect(child?.pid).toBe(1);
    expect(f.app.lockData).toEqual({ files: [file] });
  });

  it('opens the bundled sample when no file is named, if it is there', async () => {
    const sample = path.join(f.app.appPath, 'assets', 'samples', 'as1-oc-214.stp');
    await mkdir(path.dirname(sample), { recursive: true });
    await writeFile(sample, 'ISO-10303-21;');
    const { service } = await launch();
    expect(service.options.startupFile).toBe(sample);
  });

  it('has no startup file without one', async () => {
    const { service } = await launch();
    expect(service.options.startupFile).toBeNull();
  });

  it('handles every request channel of the contract and the drop channel', async () => {
    const { win, service } = await launch();
    expect([...f.ipcHandlers.keys()].sort()).toEqual([...Object.keys(REQUESTS), DROP_FILE_CHANNEL].sort());
    service.respond = () => ({ ok: 1 });
    expect(await invoke(win, 'doc.new', {})).toEqual({ ok: true, result: { ok: 1 } });
    expect(service.requests).toContainEqual(['doc.new', {}]);
  });

  it('quits at once when another instance holds the lock, leaving the files to it', async () => {
    f.app.lock = false;
    process.argv = ['/opt/Interfere/interfere', path.join(base, 'b.stp')];
    await import('../../../src-main/main/main.js');
    await new Promise((r) => setImmediate(r));
    expect(f.app.lockData).toEqual({ files: [path.join(base, 'b.stp')] });
    expect(f.app.quits).toBe(1);
    expect(FakeHostService.instances).toHaveLength(0);
    expect(FakeBrowserWindow.created).toHaveLength(0);
  });
});

describe('files from outside the window', () => {
  it('a second launch focuses the window, grants its files and has the renderer open them', async () => {
    const { win, service } = await launch();
    win.minimized = true;
    const file = path.join(base, 'second.stp');
    f.app.emit('second-instance', {}, ['/opt/Interfere/interfere', '--flag', 'ignored.stp'], base, { files: [file] });
    expect(win.minimized).toBe(false);
    expect(win.focused).toBeGreaterThan(0);
    expect(service.allowed).toEqual([file]);
    expect(win.webContents.sent).toContainEqual([OPEN_FILE_CHANNEL, { path: file }]);
  });

  it('macOS open-file before the window is ready waits for it', async () => {
    const early = path.join(base, 'early.stp');
    process.argv = ['/Applications/Interfere.app/Contents/MacOS/Interfere'];
    f.app.holdReady();
    await import('../../../src-main/main/main.js');
    const event = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
    f.app.emit('open-file', event, early);
    expect(event.defaultPrevented).toBe(true);
    f.app.becomeReady();
    await vi.waitFor(() => {
      expect(FakeBrowserWindow.created[0]?.webContents.url).toBe(APP_INDEX_URL);
    });
    // Received before the service existed: it became the startup document.
    expect(FakeHostService.instances[0].options.startupFile).toBe(early);
    const later = path.join(base, 'later.stp');
    f.app.emit('open-file', event, later);
    expect(FakeHostService.instances[0].allowed).toContain(later);
    expect(FakeBrowserWindow.created[0].webContents.sent).toContainEqual([OPEN_FILE_CHANNEL, { path: later }]);
  });

  it('macOS: a file opened after the window was closed brings a window back and opens there', async () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform');
    Object.defineProperty(process, 'platform', { value: 'darwin' });
    try {
      const { win, service } = await launch();
      win.close();
      expect(win.destroyed).toBe(true);
      expect(f.app.quits).toBe(0); // the app stays without a window
      const file = path.join(base, 'reopened.stp');
      f.app.emit('open-file', { preventDefault() {} }, file);
      f.app.emit('open-file', { preventDefault() {} }, file);
      await vi.waitFor(() => {
        expect(FakeBrowserWindow.created[1]?.webContents.sent).toContainEqual([OPEN_FILE_CHANNEL, { path: file }]);
      });
      expect(FakeBrowserWindow.created).toHaveLength(2);
      expect(service.allowed).toContain(file);
    } finally {
      if (platform) Object.defineProperty(process, 'platform', platform);
    }
  });

  it('a dropped file is granted and opened through doc.open', async () => {
    const { win, service } = await launch();
    const file = path.join(base, 'dropped.stl');
    service.respond = (channel) => (channel === 'doc.open' ? { id: 'doc-1' } : null);
    expect(await invoke(win, DROP_FILE_CHANNEL, { path: file })).toEqual({ ok: true, result: { id: 'doc-1' } });
    expect(service.allowed).toEqual([file]);
    expect(service.requests).toContainEqual(['doc.open', { path: file }]);
  });
});

describe('menus and events', () => {
  it('sends menu commands to the renderer', async () => {
    const { win } = await launch();
    const template = f.menus.at(-1) ?? [];
    menuItem(template, 'file.open').click();
    menuItem(template, 'check.run').click();
    expect(win.webContents.sent).toEqual([['menu.command', { command: 'file.open' }], ['menu.command', { command: 'check.run' }]]);
  });

  it('lists the recent files the renderer learns from app.info, and opens one on click', async () => {
    const { win, service } = await launch();
    const recent = path.join(base, 'recent.stp');
    service.respond = (channel) => (channel === 'app.info' ? { recentFiles: [recent] } : null);
    await invoke(win, 'app.info', {});
    const template = f.menus.at(-1) ?? [];
    const entries = (menuItem(template, 'file.recent') as unknown as { submenu: { label: string; click: () => void }[] }).submenu;
    expect(entries.map((e) => e.label)).toEqual([recent]);
    entries[0].click();
    expect(service.allowed).toContain(recent);
    expect(win.webContents.sent).toContainEqual([OPEN_FILE_CHANNEL, { path: recent }]);
  });

  it('forwards host events such as a crashed tree-building process', async () => {
    const { win, service } = await launch();
    const error = { code: 'compute-crashed', message: 'The tree-building process stopped unexpectedly', path: null };
    service.emit('host.error', error);
    expect(win.webContents.sent).toContainEqual(['host.error', error]);
  });
});

describe('closing with unsaved changes', () => {
  it("closes after Don't Save", async () => {
    const { win, service } = await launch();
    service.dirty = [{ id: 'doc-1', name: 'as1.stp' }];
    f.messageBoxResponse = 1;
    win.close();
    expect(win.destroyed).toBe(false);
    await vi.waitFor(() => expect(win.destroyed).toBe(true));
    expect(f.messageBoxes[0]).toMatchObject({ buttons: ['Save', "Don't Save", 'Cancel'], cancelId: 2, message: expect.stringContaining('as1.stp') });
  });

  it('stays open on Cancel', async () => {
    const { win, service } = await launch();
    service.dirty = [{ id: 'doc-1', name: 'as1.stp' }];
    f.messageBoxResponse = 2;
    win.close();
    await vi.waitFor(() => expect(f.messageBoxes).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 10));
    expect(win.destroyed).toBe(false);
  });

  it('on Save has the renderer save, then closes once the save went through', async () => {
    const { win, service } = await launch();
    service.dirty = [{ id: 'doc-1', name: 'as1.stp' }];
    f.messageBoxResponse = 0;
    win.close();
    await vi.waitFor(() => expect(win.webContents.sent).toContainEqual(['menu.command', { command: 'file.save' }]));
    expect(win.destroyed).toBe(false);
    // The renderer saves.
    service.respond = (channel) => {
      if (channel === 'doc.save') service.dirty = [];
      return channel === 'doc.save' ? { path: path.join(base, 'as1.assembly.json') } : null;
    };
    await invoke(win, 'doc.save', { docId: 'doc-1' });
    await vi.waitFor(() => expect(win.destroyed).toBe(true));
  });

  it('quitting asks too, and stops the host service before the app ends', async () => {
    const { win, service } = await launch();
    service.dirty = [{ id: 'doc-1', name: 'as1.stp' }];
    f.messageBoxResponse = 1;
    f.app.quit();
    expect(win.destroyed).toBe(false);
    await vi.waitFor(() => expect(win.destroyed).toBe(true));
    await vi.waitFor(() => expect(service.disposed).toBe(1));
    // The quit resumed after the prompt and again after the service stopped.
    await vi.waitFor(() => expect(f.app.quits).toBeGreaterThanOrEqual(3));
  });
});
