/**
 * Starting compute children, seen from the parent. The pool (./treePool.ts) talks to a child only
 * through ChildHandle, which fits both ways of starting one:
 * - Node: `child_process.fork(file, [], { serialization: 'advanced' })` (forkNodeChild, below), used
 *   by the CLI, the test bridge and the tests;
 * - Electron: `utilityProcess.fork(file, [], { execArgv, serviceName })`, written in src-main/main
 *   (this folder may not import 'electron'): `postMessage`, `on('message', msg)`, `on('exit', code)`
 *   and `kill()` map one to one, `ref`/`unref` are left out.
 */
import { fork, type Serializable } from 'node:child_process';

export interface ForkRequest {
  /** The child's entry file (a .cjs bundle, or a .ts source with a loader in execArgv). */
  readonly file: string;
  /** Runtime flags of the child, e.g. ['--import', <tsx loader>]; none by default. */
  readonly execArgv?: readonly string[];
  /** A name for the process (Electron's serviceName; shown in task managers). */
  readonly name?: string;
}

export type ExitListener = (code: number | null, signal: string | null) => void;

export interface ChildHandle {
  /** Operating-system process id; undefined until started (or if it could not start). */
  readonly pid: number | undefined;
  /** Sends a message (structured clone: typed arrays are copied). Ignored once the child is gone. */
  postMessage(message: unknown): void;
  /** Every message from the child, unvalidated. */
  on(event: 'message', listener: (message: unknown) => void): void;
  /**
   * Once, when the child has ended (Node: reaped, so its pid is free): the exit code, or the
   * signal that ended it. Also when it could not be started.
   */
  on(event: 'exit', listener: ExitListener): void;
  /** Ends the child at once, even in the middle of a synchronous computation. */
  kill(): void;
  /** Lets the child keep (ref) or not keep (unref) the parent's event loop alive; optional. */
  ref?(): void;
  unref?(): void;
}

export type ForkFn = (request: ForkRequest) => ChildHandle;

/** Node implementation: a child process with an IPC channel using structured clone. */
export const forkNodeChild: ForkFn = (request) => {
  const child = fork(request.file, [], {
    serialization: 'advanced',
    execArgv: [...(request.execArgv ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exitListeners: ExitListener[] = [];
  let exited = false;
  const onExit = (code: number | null, signal: string | null): void => {
    if (exited) return;
    exited = true;
    for (const l of exitListeners) l(code, signal);
  };
  child.on('exit', onExit);
  child.on('error', (err) => {
    // Sends report failures through their callbacks; what reaches here is a failed spawn (no pid,
    // no 'exit' to follow) or a failed kill (the process is gone or going).
    if (child.pid === undefined) {
      console.error(`could not start ${request.file}: ${err.message}`);
      onExit(null, null);
    }
  });
  return {
    get pid() { return child.pid; },
    postMessage(message) {
      if (child.connected) child.send(message as Serializable, undefined, undefined, () => {});
    },
    on(event: 'message' | 'exit', listener: ((message: unknown) => void) | ExitListener): void {
      if (event === 'message') child.on('message', listener as (message: unknown) => void);
      else exitListeners.push(listener as ExitListener);
    },
    kill() {
      // SIGKILL: a compute child holds no state worth a clean shutdown, and a loader such as tsx
      // may handle SIGTERM.
      if (!exited) child.kill('SIGKILL');
    },
    ref() {
      child.ref();
      child.channel?.ref();
    },
    unref() {
      child.unref();
      child.channel?.unref();
    },
  };
};
