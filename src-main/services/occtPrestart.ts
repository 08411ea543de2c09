/**
 * An OpenCascade worker started before the program that uses it is loaded: the command line's
 * launcher (cli/launch.ts) starts it while Node compiles the rest of the command line, so that
 * OpenCascade's wasm compiles on another core meanwhile. The worker host (./occtWorker.ts) adopts
 * it on its first read or warm-up: what the worker said before that (its 'ready' message, an
 * error, its exit) is kept here and replayed to the host's own listeners, in order.
 *
 * This module imports nothing but node:worker_threads, so that the launcher stays small.
 */
import { Worker } from 'node:worker_threads';

/** One event the worker raised before it was adopted. */
export type PrestartEvent =
  | { readonly kind: 'message'; readonly value: unknown }
  | { readonly kind: 'error'; readonly error: Error }
  | { readonly kind: 'exit'; readonly code: number };

export interface PrestartedWorker {
  readonly worker: Worker;
  /** The worker's script. */
  readonly file: string;
  /** Events before adoption, oldest first. */
  readonly events: PrestartEvent[];
  /** Removes the listeners that kept the events. */
  detach(): void;
}

const KEY = Symbol.for('interfere.occt.prestarted');

type Holder = { [KEY]?: PrestartedWorker };

/**
 * Starts the worker script `file` (the bundled occtWorker.cjs) unreferenced, so that a program
 * that never adopts it still exits. Does nothing when one is already waiting; never throws (the
 * host then starts its own worker as usual).
 */
export function prestartOcctWorker(file: string): void {
  const holder = globalThis as Holder;
  if (holder[KEY] !== undefined) return;
  let worker: Worker;
  try {
    worker = new Worker(file, { workerData: {} });
  } catch {
    return;
  }
  const events: PrestartEvent[] = [];
  const onMessage = (value: unknown): void => void events.push({ kind: 'message', value });
  const onError = (error: Error): void => void events.push({ kind: 'error', error });
  const onExit = (code: number): void => void events.push({ kind: 'exit', code });
  worker.on('message', onMessage);
  worker.on('error', onError);
  worker.on('exit', onExit);
  // After the listeners: adding a 'message' listener references the worker again.
  worker.unref();
  holder[KEY] = {
    worker,
    file,
    events,
    detach: () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    },
  };
}

/** The prestarted worker of `file`, handed over once (null when there is none, or it runs another script). */
export function adoptPrestartedWorker(file: string): PrestartedWorker | null {
  const holder = globalThis as Holder;
  const pre = holder[KEY];
  if (pre === undefined || pre.file !== file) return null;
  delete holder[KEY];
  return pre;
}
