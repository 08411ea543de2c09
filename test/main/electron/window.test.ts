// The window module against a stand-in `electron` (the real one cannot load here).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_INDEX_URL } from '../../../src-main/main/security.js';
import { fakeEvent, resetFake, type Fake, type FakeBrowserWindow } from './fakeElectron.js';

let f: Fake;
let dir: string;

beforeEach(async () => {
  f = resetFake();
  vi.resetModules();
  vi.doMock('electron', () => f.module);
  dir = await mkdtemp(path.join(os.tmpdir(), 'interfere-win-'));
});

afterEach(async () => {
  vi.doUnmock('electron');
  await rm(dir, { recursive: true, force: true });
});

async function open(logs: string[] = []): Promise<FakeBrowserWindow> {
  const { createMainWindow } = await import('../../../src-main/main/window.js');
  return (await createMainWindow({ title: 'Interfere', preload: '/app/preload.cjs', userDataDir: dir, devTools: false, log: (m) => logs.push(m) })) as unknown as FakeBrowserWindow;
}

describe('the app window', () => {
  it('is isolated, sandboxed and without Node, and loads the app:// page', async () => {
    const win = await open();
    expect(win.options.webPreferences).toEqual({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
      disableBlinkFeatures: 'Auxclick',
      devTools: false,
    });
    expect(win.webContents.url).toBe(APP_INDEX_URL);
    expect(win.shown).toBe(true);
  });

  it('blocks navigation and new windows', async () => {
    const logs: string[] = [];
    const win = await open(logs);
    const nav = fakeEvent({ url: 'https://example.com/' });
    win.webContents.emit('will-navigate', nav);
    expect(nav.defaultPrevented).toBe(true);
    expect(win.webContents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(logs).toContain('navigation to https://example.com/ refused');
  });

  it('opens centred at the default size the first time, then where it was left', async () => {
    const first = await open();
    expect(first.options).toMatchObject({ width: 1280, height: 800 });
    expect(first.options).not.toHaveProperty('x');
    first.bounds = { x: 40, y: 30, width: 1000, height: 700 };
    first.maximized = true;
    first.close();
    await vi.waitFor(async () => {
      const saved = JSON.parse(await readFile(path.join(dir, 'window-state.json'), 'utf8'));
      expect(saved).toEqual({ version: 1, bounds: { x: 40, y: 30, width: 1000, height: 700 }, maximized: true });
    });
    const second = await open();
    expect(second.options).toMatchObject({ x: 40, y: 30, width: 1000, height: 700 });
    expect(second.maximized).toBe(true);
  });

  it('ignores a state saved on a display that has gone', async () => {
    await writeFile(path.join(dir, 'window-state.json'), JSON.stringify({ bounds: { x: 3000, y: 0, width: 900, height: 600 }, maximized: false }));
    const win = await open();
    expect(win.options).toMatchObject({ width: 1280, height: 800 });
    expect(win.options).not.toHaveProperty('x');
  });
});
