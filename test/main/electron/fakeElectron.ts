/**
 * A stand-in for the parts of the `electron` module that src-main/main uses, for tests that
 * `vi.mock('electron', …)` with it: Electron's binary cannot run here, and no test may load the
 * real module. It records what the code asks for and lets tests play the user and the OS (a
 * second launch, a menu click, closing the window).
 */
import { EventEmitter } from 'node:events';

export interface FakeEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
  [key: string]: unknown;
}

export function fakeEvent(extra: Record<string, unknown> = {}): FakeEvent {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
    ...extra,
  };
}

const APP_URL_FRAME = { processId: 11, routingId: 1, parent: null };

export class FakeWebContents extends EventEmitter {
  url = '';
  destroyed = false;
  readonly sent: [string, unknown][] = [];
  windowOpenHandler: ((details: { url: string }) => unknown) | null = null;
  readonly mainFrame = { ...APP_URL_FRAME, url: '' };
  send(channel: string, payload: unknown): void {
    this.sent.push([channel, payload]);
  }
  getURL(): string {
    return this.url;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => unknown): void {
    this.windowOpenHandler = handler;
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static readonly created: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  destroyed = false;
  maximized = false;
  minimized = false;
  shown = false;
  focused = 0;
  bounds: { x: number; y: number; width: number; height: number };

  constructor(readonly options: Record<string, unknown>) {
    super();
    const o = options as { x?: number; y?: number; width: number; height: number };
    this.bounds = { x: o.x ?? 100, y: o.y ?? 100, width: o.width, height: o.height };
    FakeBrowserWindow.created.push(this);
    fake.app.emit('web-contents-created', fakeEvent(), this.webContents);
  }

  async loadURL(url: string): Promise<void> {
    this.webContents.url = url;
    this.webContents.mainFrame.url = url;
    this.webContents.emit('did-start-loading');
    await Promise.resolve();
    this.webContents.emit('did-finish-load');
    this.emit('ready-to-show');
  }

  /** Closes like Electron: 'close' may be prevented; else the window goes and 'closed' follows. */
  close(): void {
    if (this.destroyed) return;
    const event = fakeEvent();
    this.emit('close', event);
    if (event.defaultPrevented) return;
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.emit('closed');
    if (FakeBrowserWindow.created.every((w) => w.destroyed)) fake.app.emit('window-all-closed');
  }

  isDestroyed(): boolean { return this.destroyed; }
  maximize(): void { this.maximized = true; }
  isMaximized(): boolean { return this.maximized; }
  isMinimized(): boolean { return this.minimized; }
  restore(): void { this.minimized = false; }
  show(): void { this.shown = true; }
  focus(): void { this.focused++; }
  getNormalBounds() { return { ...this.bounds }; }
}

class FakeApp extends EventEmitter {
  lock = true;
  lockData: unknown = undefined;
  isPackaged = false;
  userData = '';
  appPath = '';
  quits = 0;
  exitCode: number | null = null;
  setAppUserModelId(): void {}
  requestSingleInstanceLock(data?: unknown): boolean {
    this.lockData = data;
    return this.lock;
  }
  private gate: { promise: Promise<void>; open: () => void } | null = null;
  /** Keeps the app from becoming ready until `becomeReady()`. */
  holdReady(): void {
    let open = () => {};
    const promise = new Promise<void>((resolve) => { open = resolve; });
    this.gate = { promise, open };
  }
  becomeReady(): void {
    this.gate?.open();
  }
  whenReady(): Promise<void> {
    return this.gate?.promise ?? Promise.resolve();
  }
  /** Paths the app set (app.setPath), by name. */
  readonly paths = new Map<string, string>();
  setPath(name: string, value: string): void {
    this.paths.set(name, value);
  }
  getPath(name: string): string {
    const set = this.paths.get(name);
    if (set !== undefined) return set;
    if (name !== 'userData') throw new Error(`unexpected getPath(${name})`);
    return this.userData;
  }
  getAppPath(): string {
    return this.appPath;
  }
  /** Like Electron: before-quit, then the windows close (a prevented close stops the quit), then will-quit. */
  quit(): void {
    this.quits++;
    this.emit('before-quit', fakeEvent());
    for (const w of FakeBrowserWindow.created.filter((x) => !x.destroyed)) {
      w.close();
      if (!w.destroyed) return;
    }
    const willQuit = fakeEvent();
    this.emit('will-quit', willQuit);
  }
  exit(code: number): void {
    this.exitCode = code;
  }
}

function createFake() {
  const ipcHandlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  const state = {
    app: new FakeApp(),
    BrowserWindow: FakeBrowserWindow,
    ipcHandlers,
    privileged: [] as unknown[],
    protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
    menus: [] as unknown[][],
    messageBoxes: [] as Record<string, unknown>[],
    messageBoxResponse: 0,
    forks: [] as { file: string; options: unknown }[],
    errorBoxes: [] as string[],
    permissionHandler: null as unknown,
    /** The options of each crashReporter.start, and the items shell.showItemInFolder revealed. */
    crashReporters: [] as unknown[],
    shown: [] as string[],
  };
  const module = {
    app: state.app,
    BrowserWindow: FakeBrowserWindow,
    ipcMain: {
      handle(channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) {
        if (ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        ipcHandlers.set(channel, handler);
      },
      removeHandler(channel: string) {
        ipcHandlers.delete(channel);
      },
    },
    protocol: {
      registerSchemesAsPrivileged(schemes: unknown[]) {
        state.privileged.push(...schemes);
      },
      handle(scheme: string, handler: (request: Request) => Promise<Response>) {
        state.protocolHandlers.set(scheme, handler);
      },
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler(h: unknown) { state.permissionHandler = h; },
        setPermissionCheckHandler() {},
        on() {},
        webRequest: { onBeforeRequest() {} },
      },
    },
    Menu: {
      buildFromTemplate: (template: unknown[]) => ({ template }),
      setApplicationMenu: (menu: { template: unknown[] }) => state.menus.push(menu.template),
    },
    dialog: {
      async showMessageBox(a: unknown, b?: unknown) {
        state.messageBoxes.push((b ?? a) as Record<string, unknown>);
        return { response: state.messageBoxResponse, checkboxChecked: false };
      },
      async showOpenDialog() { return { canceled: true, filePaths: [] }; },
      async showSaveDialog() { return { canceled: true, filePath: '' }; },
      showErrorBox(title: string, content: string) { state.errorBoxes.push(`${title}: ${content}`); },
    },
    utilityProcess: {
      fork(file: string, _args: unknown, options: unknown) {
        state.forks.push({ file, options });
        const child = new EventEmitter() as EventEmitter & Record<string, unknown>;
        Object.assign(child, { pid: 1, stdout: null, stderr: null, postMessage() {}, kill() { return true; } });
        return child;
      },
    },
    crashReporter: {
      start(options: unknown) { state.crashReporters.push(options); },
    },
    shell: {
      showItemInFolder(item: string) { state.shown.push(item); },
    },
    screen: {
      getPrimaryDisplay: () => ({ workArea: { x: 0, y: 0, width: 1920, height: 1040 } }),
      getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1040 } }],
    },
  };
  return Object.assign(state, { module });
}

export type Fake = ReturnType<typeof createFake>;

/** The fake of the current test (replaced by resetFake). */
export let fake: Fake = createFake();

export function resetFake(): Fake {
  FakeBrowserWindow.created.length = 0;
  fake = createFake();
  return fake;
}
