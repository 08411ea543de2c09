/**
 * Long imports as generators of checkpoints: the parser yields how much of its work is done (in
 * its own units, out of a total its caller knows) every few MB, and a driver decides what happens
 * there — check the cancel signal, report progress, and (async driver) let the host's event loop
 * run, so that a cancel request or a progress message can arrive in the middle of a parse.
 */
import { checkAborted } from './types.js';
import type { ImportOptions } from './types.js';

export type Steps<T> = Generator<number, T, void>;

/** Runs the steps to the end in one go: checks the signal and reports progress at every checkpoint. */
export function runSteps<T>(steps: Steps<T>, total: number, fileName: string, options: ImportOptions): T {
  const { signal, onProgress } = options;
  for (;;) {
    const r = steps.next();
    if (r.done) {
      checkAborted(signal, fileName);
      onProgress?.(total, total);
      return r.value;
    }
    checkAborted(signal, fileName);
    onProgress?.(Math.min(r.value, total), total);
  }
}

/** Like runSteps, and awaits options.yieldToHost (when given) at every checkpoint. */
export async function runStepsAsync<T>(steps: Steps<T>, total: number, fileName: string, options: ImportOptions): Promise<T> {
  const { signal, onProgress, yieldToHost } = options;
  for (;;) {
    const r = steps.next();
    if (r.done) {
      checkAborted(signal, fileName);
      onProgress?.(total, total);
      return r.value;
    }
    checkAborted(signal, fileName);
    onProgress?.(Math.min(r.value, total), total);
    if (yieldToHost !== undefined) {
      await yieldToHost();
      checkAborted(signal, fileName);
    }
  }
}
