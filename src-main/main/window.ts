/**
 * The app window: placed where the user left it (./windowState.ts), locked down
 * (./security.ts), showing the renderer from app://interfere/.
 */
import path from 'node:path';
import { BrowserWindow, screen } from 'electron';
import { APP_INDEX_URL, hardenWebContents } from './security.js';
import {
  MIN_WINDOW_SIZE, placeWindow, readWindowState, WINDOW_STATE_FILE, WindowStateSaver, writeWindowState,
} from './windowState.js';

export interface MainWindowOptions {
  readonly title: string;
  readonly preload: string;
  readonly userDataDir: string;
  readonly icon?: string;
  /** DevTools are available in development only. */
  readonly devTools: boolean;
  readonly log: (message: string) => void;
  /** Called with the new window before its page starts loading (to attach listeners). */
  readonly beforeLoad?: (win: BrowserWindow) => void;
}

export async function createMainWindow(o: MainWindowOptions): Promise<BrowserWindow> {
  const stateFile = path.join(o.userDataDir, WINDOW_STATE_FILE);
  const saved = await readWindowState(stateFile);
  const workAreas = [screen.getPrimaryDisplay(), ...screen.getAllDisplays()].map((d) => d.workArea);
  const placement = placeWindow(saved, workAreas);

  const win = new BrowserWindow({
    ...placement.bounds,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    title: o.title,
    ...(o.icon ? { icon: o.icon } : {}),
    show: false,
    backgroundColor: '#1e1f22',
    webPreferences: {
      preload: o.preload,
      // Isolated, sandboxed, no Node, no remote or insecure content (see ./security.ts).
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      // A file dropped outside the page's drop zone must not navigate the window to file://.
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
      // No auxclick events: a middle click can never open a link (the 3D view's middle-button
      // drag uses pointer events, which stay).
      disableBlinkFeatures: 'Auxclick',
      devTools: o.devTools,
    },
  });
  hardenWebContents(win.webContents, o.log);
  if (placement.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());

  const saver = new WindowStateSaver(
    () => (win.isDestroyed() ? null : { bounds: win.getNormalBounds(), maximized: win.isMaximized() }),
    (state) => writeWindowState(stateFile, state),
    o.log,
  );
  for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const) {
    win.on(event as 'resize', () => saver.schedule());
  }
  // 'close' may still be called off (unsaved changes), but the bounds are right either way.
  win.on('close', () => void saver.flush());

  win.webContents.on('render-process-gone', (_event, details) => {
    o.log(`the window's renderer stopped (${details.reason}, exit code ${details.exitCode})`);
  });

  o.beforeLoad?.(win);
  await win.loadURL(APP_INDEX_URL).catch((e: unknown) => {
    o.log(`could not load ${APP_INDEX_URL}: ${e instanceof Error ? e.message : String(e)}`);
  });
  return win;
}
