/**
 * The Electron main process (bundled to dist/node/main/main.cjs, package.json's `main`). Thin: it
 * owns the app's lifecycle, the window, the menu and the dialogs, and hands every request of the
 * renderer to the host service (../services/host/hostService.ts), which does the work in plain Node.
 *
 *  - One instance: a second launch passes its files to the first (and quits); the first focuses
 *    its window and opens them.
 *  - Files to open come from the command line (the first one is the startup document, else the
 *    bundled AS1 sample), macOS's open-file, a second launch, Open Recent, and drops on the window
 *    (../preload/transport.ts, ./ipc.ts). Each is granted with `service.allowPath` before the
 *    renderer is told to open it.
 *  - Tree building runs in utility processes (./utilitySpawn.ts); the service restarts one that
 *    crashes, fails the job with a message and reports it as a host.error event.
 *  - Closing the window or quitting with unsaved changes asks first (./closeGuard.ts).
 *  - Security: ./security.ts (the app:// scheme, CSP, sender checks, navigation and permissions).
 *  - The log a user can send (../services/log.ts: `<userData>/logs/interfere.log`, Help › Show
 *    Log): the host's events (open, check, failures), uncaught errors, renderer crashes and child
 *    processes that stop. Crash dumps stay on this machine, in `<userData>/crash-dumps`.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { app, crashReporter, dialog, ipcMain, Menu, protocol, session, shell, utilityProcess, type BrowserWindow } from 'electron';
import type { MenuCommand } from '../contract/host.js';
import { OPEN_FILE_CHANNEL } from '../preload/shellIpc.js';
import { APP_NAME, APP_VERSION } from '../services/appInfo.js';
import { LogFile, logFolder } from '../services/log.js';
import { HostService } from '../services/host/hostService.js';
import { RecentFiles } from '../services/recent.js';
import type { HostServiceApi } from '../services/host/api.js';
import { filesFromArgv, filesFromSecondInstance, launchData, type ArgvOptions } from './argv.js';
import { CLOSE_BUTTONS, CLOSE_CHOICES, CloseGuard, SaveWatcher, unsavedChangesMessage } from './closeGuard.js';
import { createHostDialogs } from './dialogs.js';
import { registerHostIpc } from './ipc.js';
import { buildMenuTemplate } from './menu.js';
import {
  APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppRequestHandler, hardenSession,
} from './security.js';
import { createUtilityFork } from './utilitySpawn.js';
import { createMainWindow } from './window.js';

const APP_ID = 'dev.interfere.app';
const BUNDLED_SAMPLE = path.join('assets', 'samples', 'as1-oc-214.stp');
/** How long quitting waits for the service to stop its children and flush its caches. */
const DISPOSE_TIMEOUT_MS = 5_000;

function say(message: string): void {
  console.error(`[interfere] ${message}`);
}

/** The app's log file (its writes never throw). */
const logFile = new LogFile({ folder: logFolder(app.getPath('userData')) });

function log(message: string): void {
  say(message);
  logFile.write('warn', 'main', { message });
}

// Must happen before the app is ready: app:// is a standard, secure origin for the renderer.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }]);

const argvOptions: ArgvOptions = { defaultApp: process.defaultApp === true, cwd: process.cwd() };
const launchFiles = filesFromArgv(process.argv, argvOptions);

if (!app.requestSingleInstanceLock(launchData(launchFiles))) {
  // The first instance has been sent our files (second-instance); nothing more to do here.
  app.quit();
} else {
  startApp();
}

function startApp(): void {
  // Before the app is ready: crash dumps kept under the data folder, never uploaded.
  app.setPath('crashDumps', path.join(app.getPath('userData'), 'crash-dumps'));
  crashReporter.start({ uploadToServer: false });
  logFile.info('start', {
    version: APP_VERSION, electron: process.versions.electron, platform: process.platform, arch: process.arch,
    crashDumps: app.getPath('crashDumps'),
  });
  // Logged without changing what an uncaught exception does.
  process.on('uncaughtExceptionMonitor', (e, origin) => logFile.error('uncaught-exception', e, { origin }));
  process.on('unhandledRejection', (reason) => {
    say(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
    logFile.error('unhandled-rejection', reason);
  });
  let win: BrowserWindow | null = null;
  let rendererLoaded = false;
  let service: HostServiceApi | null = null;
  let recentFiles: readonly string[] = [];
  let quitting = false;
  let disposed = false;
  /** Files asked for before the window could take them. */
  const pending: string[] = [];
  const saves = new SaveWatcher();

  const sendToRenderer = (channel: string, payload: unknown): boolean => {
    if (!win || win.isDestroyed() || !rendererLoaded) return false;
    win.webContents.send(channel, payload);
    return true;
  };
  const emit = (command: MenuCommand): void => {
    if (!sendToRenderer('menu.command', { command })) log(`menu command ${command} dropped: no window`);
  };

  let opening: Promise<void> | null = null;
  /** Opens the window (once, however often it is asked for while it opens). */
  const openWindow = (): Promise<void> => {
    opening ??= createWindow().finally(() => {
      opening = null;
    });
    return opening;
  };
  const focusWindow = (): void => {
    // macOS keeps the app running without a window: a file opened then brings one back.
    if ((!win || win.isDestroyed()) && service) {
      void openWindow();
      return;
    }
    if (!win || win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  };

  /** Grants a file the user asked for outside the window, then has the renderer open it. */
  const requestOpen = (file: string): void => {
    const abs = path.resolve(file);
    if (!service || !win || win.isDestroyed() || !rendererLoaded) {
      if (!pending.includes(abs)) pending.push(abs);
      return;
    }
    service.allowPath(abs);
    sendToRenderer(OPEN_FILE_CHANNEL, { path: abs });
  };
  const flushPending = (): void => {
    for (const file of pending.splice(0)) requestOpen(file);
  };

  const updateMenu = (): void => {
    const template = buildMenuTemplate({
      platform: process.platform,
      isPackaged: app.isPackaged,
      appName: APP_NAME,
      recentFiles,
      homeDir: os.homedir(),
      emit,
      openRecent: (file) => {
        focusWindow();
        requestOpen(file);
      },
      showLog: () => {
        // A line first, so that there is a file to show.
        logFile.info('show-log');
        shell.showItemInFolder(logFile.path);
      },
    });
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  };
  const setRecent = (files: unknown): void => {
    if (!Array.isArray(files) || !files.every((f) => typeof f === 'string')) return;
    if (files.length === recentFiles.length && files.every((f, i) => f === recentFiles[i])) return;
    recentFiles = files;
    updateMenu();
  };
  /** Reads the recent-files list the service keeps (it has stored it before a request settles). */
  const refreshRecent = (): void => {
    new RecentFiles(app.getPath('userData'), log).load().then(setRecent, (e: unknown) => {
      log(`could not read the recent files: ${e instanceof Error ? e.message : String(e)}`);
    });
  };

  // Registered before 'ready': macOS delivers files opened with the app (Finder, dock) early.
  app.on('open-file', (event, file) => {
    event.preventDefault();
    focusWindow();
    requestOpen(file);
  });
  app.on('second-instance', (_event, argv, workingDirectory, additionalData) => {
    focusWindow();
    for (const file of filesFromSecondInstance(additionalData, argv, { ...argvOptions, cwd: workingDirectory })) requestOpen(file);
  });
  // Any other web contents (none are expected) get no windows and no <webview>.
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  app.on('child-process-gone', (_event, details) => {
    if (details.reason !== 'clean-exit' && details.reason !== 'killed') {
      say(`${details.name ?? details.type} process stopped: ${details.reason} (exit code ${details.exitCode})`);
      logFile.write('error', 'child-process-gone', { type: details.type, name: details.name, reason: details.reason, exitCode: details.exitCode });
    }
  });
  app.on('render-process-gone', (_event, _contents, details) => {
    say(`the window's renderer stopped: ${details.reason} (exit code ${details.exitCode})`);
    logFile.write('error', 'render-process-gone', { reason: details.reason, exitCode: details.exitCode });
  });
  app.on('before-quit', () => {
    quitting = true;
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', (event) => {
    if (disposed || !service) return;
    event.preventDefault();
    const s = service;
    service = null;
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, DISPOSE_TIMEOUT_MS).unref());
    void Promise.race([s.dispose(), timeout])
      .catch((e: unknown) => log(`stopping the host service failed: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => {
        disposed = true;
        app.quit();
      });
  });

  async function createWindow(): Promise<void> {
    rendererLoaded = false;
    const guard = new CloseGuard({
      dirtyDocuments: () => service?.dirtyDocuments() ?? [],
      ask: async (documents) => {
        const { message, detail } = unsavedChangesMessage(documents);
        const options = { type: 'warning' as const, buttons: [...CLOSE_BUTTONS], defaultId: 0, cancelId: 2, noLink: true, message, detail };
        const r = win && !win.isDestroyed() ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
        return CLOSE_CHOICES[r.response] ?? 'cancel';
      },
      requestSave: () => emit('file.save'),
      waitForSave: () => saves.wait(),
      proceed: () => {
        if (quitting) app.quit();
        else win?.close();
      },
      cancelled: () => {
        quitting = false;
      },
      log,
    });
    const w = await createMainWindow({
      title: APP_NAME,
      preload: path.join(__dirname, 'preload.cjs'),
      userDataDir: app.getPath('userData'),
      icon: path.join(app.getAppPath(), 'assets', 'icon.png'),
      devTools: !app.isPackaged,
      log,
      beforeLoad: (created) => {
        win = created;
        created.on('close', (event) => {
          if (!guard.shouldClose()) event.preventDefault();
        });
        created.on('closed', () => {
          if (win === created) {
            win = null;
            rendererLoaded = false;
          }
        });
        created.webContents.on('did-start-loading', () => {
          rendererLoaded = false;
        });
        created.webContents.on('did-finish-load', () => {
          rendererLoaded = true;
          flushPending();
        });
      },
    });
    win = w;
  }

  void app.whenReady().then(async () => {
    if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
    hardenSession(session.defaultSession, log);
    protocol.handle(APP_SCHEME, createAppRequestHandler(path.join(app.getAppPath(), 'dist', 'renderer'), undefined, log));

    const sample = path.join(app.getAppPath(), BUNDLED_SAMPLE);
    const startupFile = launchFiles[0] ?? pending.shift() ?? (existsSync(sample) ? sample : null);
    for (const f of launchFiles.slice(1)) pending.push(f);
    const hostService = new HostService({
      host: 'electron',
      dialogs: createHostDialogs(dialog, () => win),
      fork: createUtilityFork(utilityProcess, log),
      userDataDir: app.getPath('userData'),
      startupFile,
      // The service writes its messages and events to the log itself.
      log: say,
      activity: logFile,
    });
    service = hostService;
    if (startupFile) hostService.allowPath(startupFile);

    registerHostIpc({
      ipcMain,
      service: hostService,
      contents: () => (win && !win.isDestroyed() ? win.webContents : null),
      log,
      onRequest: (channel) => saves.onRequest(channel),
      onSettled: (channel, reply) => {
        saves.onSettled(channel, reply);
        if (!reply.ok) return;
        if (channel === 'app.info') setRecent((reply.result as { recentFiles?: unknown }).recentFiles);
        else if (channel === 'doc.open' || channel === 'doc.save' || channel === 'doc.import') refreshRecent();
      },
    });
    updateMenu();
    refreshRecent();
    await openWindow();

    app.on('activate', () => {
      // macOS: the dock icon reopens the window once it has been closed.
      if (!win && service) void openWindow();
    });
  }).catch((e: unknown) => {
    log(`could not start: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    dialog.showErrorBox(`${APP_NAME} could not start`, e instanceof Error ? e.message : String(e));
    app.exit(1);
  });
}
