// Shared by the hardening tests: a seeded random generator, a forked host-service child
// (./hostChild.ts) and its messages, waiting helpers, and the counts the tests print.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ChildConfig, ChildMessage } from './hostChild.js';

/** The placement the child gives the moved part at version n: x = 1000 + n. */
export function moved(n: number): number[] {
  return [1, 0, 0, 1000 + n, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
}

/** mulberry32: a small seeded generator, uniform in [0, 1). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `check` returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** Whether a process id is alive (signal 0). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface HostChild {
  readonly child: ChildProcess;
  readonly messages: ChildMessage[];
  /** Resolves with the first message matching, or rejects if the child exits first. */
  next(match: (m: ChildMessage) => boolean, what: string, timeoutMs?: number): Promise<ChildMessage>;
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  kill(): Promise<void>;
}

const CHILD = path.resolve(process.cwd(), 'test/main/hardening/hostChild.ts');

/** Forks ./hostChild.ts (under tsx) with a configuration. */
export function forkHostChild(config: ChildConfig): HostChild {
  const child = fork(CHILD, [JSON.stringify(config)], {
    execArgv: ['--import', 'tsx'],
    cwd: process.cwd(),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  const messages: ChildMessage[] = [];
  const waiters = new Set<{ match: (m: ChildMessage) => boolean; resolve: (m: ChildMessage) => void }>();
  let exitInfo: { code: number | null; signal: string | null } | null = null;
  const exitListeners = new Set<() => void>();
  child.on('message', (m: ChildMessage) => {
    messages.push(m);
    for (const w of [...waiters]) {
      if (w.match(m)) {
        waiters.delete(w);
        w.resolve(m);
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      exitInfo = { code, signal };
      for (const l of exitListeners) l();
      resolve(exitInfo);
    });
  });
  return {
    child,
    messages,
    exited,
    next(match, what, timeoutMs = 60_000) {
      const seen = messages.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const w = { match, resolve: (m: ChildMessage) => { clearTimeout(timer); exitListeners.delete(onExit); resolve(m); } };
        const onExit = (): void => {
          waiters.delete(w);
          clearTimeout(timer);
          const error = messages.find((m) => m.type === 'error');
          reject(new Error(`the child exited (${JSON.stringify(exitInfo)}) before ${what}${error ? `: ${JSON.stringify(error)}` : ''}`));
        };
        const timer = setTimeout(() => {
          waiters.delete(w);
          exitListeners.delete(onExit);
          reject(new Error(`timed out waiting for ${what}`));
        }, timeoutMs);
        if (exitInfo !== null) return onExit();
        waiters.add(w);
        exitListeners.add(onExit);
      });
    },
    async kill() {
      if (exitInfo === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Runs `task` for each item, at most `width` at a time. */
export async function inParallel<T>(items: readonly T[], width: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

/** A line for the test output (the issue's closing note quotes these counts). */
export function tally(line: string): void {
  process.stdout.write(`[hardening] ${line}\n`);
}
