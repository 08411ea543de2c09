// A host service in a child process, for the tests that kill it (forked by ./support.ts under
// tsx). It opens one document, moves one part to x = 1000 + n for n = 1, 2, … and then either
//  - 'save': saves after each move (through an atomic-write layer that can stop at a chosen step:
//    before opening the temporary file, after the k-th chunk written, before the flush, before
//    closing, before or after the rename — and then waits to be killed), or
//  - 'autosave': leaves the changes unsaved for the service's autosave to write.
// It reports each step to the parent, which kills it with SIGKILL.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import { HostService } from '../../../src-main/services/host/hostService.js';
import { nodeAtomicFs, type AtomicFs } from '../../../src-main/services/files.js';
import { moved } from './support.js';

export type PauseStep = 'open' | 'write' | 'sync' | 'close' | 'rename' | 'after-rename';

export type ChildConfig =
  | {
    readonly mode: 'save';
    readonly userDataDir: string;
    readonly file: string;
    readonly part: string;
    /** Where the save of version 1 stops (null: no stop). */
    readonly pause: { readonly step: PauseStep; readonly chunk: number } | null;
    /** Save versions 1, 2, … without end (else only version 1). */
    readonly loop: boolean;
    /** Bytes per write call of the temporary file. */
    readonly chunkBytes: number;
  }
  | {
    readonly mode: 'autosave';
    readonly userDataDir: string;
    readonly file: string;
    readonly part: string;
    /** Move the part again and again (else once, then report when the recovery file holds it). */
    readonly loop: boolean;
    readonly debounceMs: number;
    readonly intervalMs: number;
  };

export type ChildMessage =
  | { readonly type: 'ready'; readonly docId: string }
  | { readonly type: 'saving'; readonly n: number }
  | { readonly type: 'saved'; readonly n: number }
  | { readonly type: 'paused'; readonly at: string; readonly n: number }
  | { readonly type: 'changed'; readonly n: number }
  | { readonly type: 'autosaved'; readonly n: number; readonly file: string }
  | { readonly type: 'error'; readonly message: string };

const send = (m: ChildMessage): void => {
  process.send?.(m);
};

const forever = (): Promise<never> => new Promise<never>(() => {});

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as ChildConfig;
  let version = 0;

  const pauseAt = async (step: PauseStep, chunk = 0): Promise<void> => {
    if (config.mode !== 'save' || config.pause === null || version !== 1) return;
    if (config.pause.step !== step || (step === 'write' && config.pause.chunk !== chunk)) return;
    send({ type: 'paused', at: step === 'write' ? `write#${chunk}` : step, n: version });
    await forever();
  };

  const atomicFs: AtomicFs = {
    ...nodeAtomicFs,
    async open(p, flags, mode) {
      await pauseAt('open');
      const handle = await nodeAtomicFs.open(p, flags, mode);
      const write = handle.write.bind(handle) as (b: Uint8Array, o: number, l: number, pos: null) => Promise<{ bytesWritten: number }>;
      const sync = handle.sync.bind(handle);
      const close = handle.close.bind(handle);
      const chunkBytes = config.mode === 'save' ? config.chunkBytes : 1 << 30;
      let chunk = 0;
      Object.assign(handle as unknown as Record<string, unknown>, {
        write: async (b: Uint8Array, o: number, l: number, pos: null) => {
          const r = await write(b, o, Math.min(l, chunkBytes), pos);
          chunk++;
          await pauseAt('write', chunk);
          return r;
        },
        sync: async () => {
          await pauseAt('sync');
          return sync();
        },
        close: async () => {
          await pauseAt('close');
          return close();
        },
      });
      return handle as FileHandle;
    },
    async rename(from, to) {
      await pauseAt('rename');
      await nodeAtomicFs.rename(from, to);
      await pauseAt('after-rename');
    },
  };

  const service = new HostService(
    {
      host: 'bridge', dialogs: null, userDataDir: config.userDataDir, allowedFolders: [path.dirname(config.file)],
      log: () => {},
    },
    {
      treeCache: false,
      atomicFs,
      autosave: config.mode === 'autosave' ? { debounceMs: config.debounceMs, intervalMs: config.intervalMs } : false,
    },
  );
  const doc = (await service.handle('doc.open', { path: config.file })) as { id: string };
  send({ type: 'ready', docId: doc.id });

  if (config.mode === 'save') {
    do {
      version++;
      await service.handle('doc.update', { docId: doc.id, transforms: { [config.part]: moved(version) } });
      send({ type: 'saving', n: version });
      await service.handle('doc.save', { docId: doc.id });
      send({ type: 'saved', n: version });
    } while (config.loop);
    await forever();
  }

  // autosave
  if (!config.loop) {
    version = 1;
    await service.handle('doc.update', { docId: doc.id, transforms: { [config.part]: moved(1) } });
    send({ type: 'changed', n: 1 });
    const dir = service.recoveryDir;
    for (;;) {
      await new Promise((r) => setTimeout(r, 5));
      let names: string[];
      try {
        names = readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
      } catch {
        continue;
      }
      for (const name of names) {
        const text = readFileSync(path.join(dir, name), 'utf8');
        if (text.includes(`${1000 + 1}`)) {
          send({ type: 'autosaved', n: 1, file: path.join(dir, name) });
          await forever();
        }
      }
    }
  }
  for (;;) {
    version++;
    await service.handle('doc.update', { docId: doc.id, transforms: { [config.part]: moved(version) } });
    send({ type: 'changed', n: version });
    await new Promise((r) => setTimeout(r, 3));
  }
}

setInterval(() => {}, 1 << 30);
main().catch((e: unknown) => {
  send({ type: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  process.exitCode = 1;
  setTimeout(() => process.exit(1), 50);
});
