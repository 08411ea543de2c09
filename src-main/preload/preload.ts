/**
 * The preload of the app's window (bundled to dist/node/main/preload.cjs, CommonJS, run sandboxed
 * with context isolation). It gives the page two frozen objects of named functions and nothing
 * else — never ipcRenderer, never Node:
 *
 *  - `window.interfereHost`: the typed host API (../contract/host.ts) over IPC; request failures
 *    reject with a plain `{ name: 'HostRequestError', message, error }` object (see ./shellIpc.ts);
 *  - `window.interfereShell`: drag and drop (`pathForDroppedFile`, `openDroppedFile`) and the
 *    files the app is asked to open from outside the window (`onOpenFile`).
 */
import './zodConfig.js';
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createPreloadHostApi, createShellApi } from './transport.js';

contextBridge.exposeInMainWorld('interfereHost', createPreloadHostApi(ipcRenderer));
contextBridge.exposeInMainWorld('interfereShell', createShellApi(ipcRenderer, webUtils));
