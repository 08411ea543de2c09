/**
 * Runs a preload bundle the way Electron's sandbox does, as far as it matters here: CommonJS, in
 * a context of its own, where `require` knows only 'electron' (given by the test). Returns what
 * it exposed to the page and what it tried to require.
 */
import { runInNewContext } from 'node:vm';

export interface SandboxResult {
  readonly exposed: Map<string, Record<string, unknown>>;
  readonly required: string[];
}

export function runPreloadInSandbox(code: string, electron: { ipcRenderer: unknown; webUtils: unknown }): SandboxResult {
  const exposed = new Map<string, Record<string, unknown>>();
  const required: string[] = [];
  const module = { exports: {} };
  runInNewContext(code, {
    require: (name: string) => {
      required.push(name);
      if (name === 'electron') {
        return {
          contextBridge: { exposeInMainWorld: (key: string, api: Record<string, unknown>) => exposed.set(key, api) },
          ...electron,
        };
      }
      throw new Error(`a sandboxed preload cannot require '${name}'`);
    },
    module,
    exports: module.exports,
    console,
  });
  return { exposed, required };
}
