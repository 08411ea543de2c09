/**
 * The compute children in the app (the tree builders, the check child): a ForkFn
 * (../services/spawn.ts) over Electron's `utilityProcess.fork`. The tree pool and the check runner
 * speak to a ChildHandle only, so the same code runs over child_process in Node and over utility
 * processes here:
 *
 *  - postMessage / on('message') map one to one (the child uses process.parentPort, see
 *    ../compute/childChannel.ts); messages are structured clones;
 *  - Electron's exit event carries a code only: it becomes (code, null);
 *  - the child's stdout and stderr are piped into the log, line by line, prefixed with its pid;
 *  - a fork that throws becomes a handle that has already exited (code null), as the pool expects.
 *
 * The entry file may lie inside app.asar: utility processes load from the archive like the main
 * process does. The `utilityProcess` module is passed in, so tests use a fake.
 */
import type { ForkOptions, UtilityProcess } from 'electron';
import type { ChildHandle, ExitListener, ForkFn } from '../services/spawn.js';

/** The part of Electron's `utilityProcess` module used here. */
export interface UtilityProcessModule {
  fork(modulePath: string, args?: string[], options?: ForkOptions): UtilityProcess;
}

export const DEFAULT_SERVICE_NAME = 'Interfere compute';

/** Calls `line` with each complete line of a text stream (and the last, unterminated one at the end). */
function forwardLines(stream: NodeJS.ReadableStream | null, line: (text: string) => void): void {
  if (!stream) return;
  let pending = '';
  stream.on('data', (chunk: Buffer | string) => {
    pending += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const text = pending.slice(0, nl).replace(/\r$/, '');
      pending = pending.slice(nl + 1);
      if (text.length > 0) line(text);
    }
  });
  stream.on('end', () => {
    if (pending.length > 0) line(pending);
    pending = '';
  });
}

export function createUtilityFork(utility: UtilityProcessModule, log: (message: string) => void): ForkFn {
  return (request) => {
    const exitListeners: ExitListener[] = [];
    let exitCode: number | null | undefined; // undefined while running
    const exit = (code: number | null): void => {
      if (exitCode !== undefined) return;
      exitCode = code;
      for (const l of exitListeners.splice(0)) l(code, null);
    };

    let child: UtilityProcess | null = null;
    let lastPid: number | undefined;
    try {
      const execArgv = [...(request.execArgv ?? [])];
      child = utility.fork(request.file, [], {
        serviceName: request.name ?? DEFAULT_SERVICE_NAME,
        stdio: 'pipe',
        ...(execArgv.length > 0 ? { execArgv } : {}),
      });
    } catch (e) {
      log(`could not start ${request.file}: ${e instanceof Error ? e.message : String(e)}`);
      // Reported once the caller has had a chance to listen.
      setImmediate(() => exit(null));
    }

    if (child) {
      const c = child;
      const tag = (): string => `[${request.name ?? DEFAULT_SERVICE_NAME} ${c.pid ?? lastPid ?? '?'}]`;
      c.on('spawn', () => {
        lastPid = c.pid;
      });
      forwardLines(c.stdout, (text) => log(`${tag()} ${text}`));
      forwardLines(c.stderr, (text) => log(`${tag()} ${text}`));
      c.on('error', (type, location, report) => {
        log(`${tag()} ${type} at ${location}${report ? ` (report: ${report.slice(0, 200)})` : ''}`);
      });
      // The pool and the check runner report unexpected exits itself (and kills children on purpose when cancelling).
      c.on('exit', (code) => exit(typeof code === 'number' ? code : null));
    }

    const handle: ChildHandle = {
      get pid() {
        // Electron clears the pid at exit; the pool still names the process in its log then.
        if (child?.pid !== undefined) lastPid = child.pid;
        return lastPid;
      },
      postMessage(message) {
        if (child && exitCode === undefined) child.postMessage(message);
      },
      on(event: 'message' | 'exit', listener: ((message: unknown) => void) | ExitListener): void {
        if (event === 'message') {
          child?.on('message', listener as (message: unknown) => void);
        } else if (exitCode !== undefined) {
          const code = exitCode;
          setImmediate(() => (listener as ExitListener)(code, null));
        } else {
          exitListeners.push(listener as ExitListener);
        }
      },
      kill() {
        if (child && exitCode === undefined) child.kill();
      },
    };
    return handle;
  };
}
