// How long a check blocks the host's event loop (in the app: the Electron main process, which also
// owns menus and dialogs) with checks in this process against checks in the check child
// (src-main/services/checkChild.ts), and what each costs in check time and check.pair latency.
//
//   npx tsx bench/hostBlocking.ts [file …]     (default: the AS1 sample and the SO-101 arm)
//
// Per runner and file: the first check (the child started, the bodies sent), then the median of
// five checks, each with the longest event-loop stall seen meanwhile (perf_hooks
// monitorEventLoopDelay, 1 ms resolution), and the median of 50 check.pair calls.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import type { DocumentInfo, EventOf } from '../src-main/contract/host';
import { HostService, type HostServiceTuning } from '../src-main/services/host/hostService';

setFlagsFromString('--liftoff-only');

const ROOT = path.resolve(import.meta.dirname, '..');
const FILES = process.argv.slice(2).length > 0
  ? process.argv.slice(2).map((f) => path.resolve(f))
  : [path.join(ROOT, 'assets/samples/as1-oc-214.stp'), path.join(ROOT, 'test/data/assemblies/so101-zero.assembly.json')];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number): string => `${x.toFixed(1)} ms`;

async function measure(file: string, label: string, tuning: HostServiceTuning): Promise<void> {
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'interfere-bench-host-'));
  const service = new HostService(
    { host: 'bridge', dialogs: null, userDataDir, allowedFolders: [path.dirname(file), path.join(ROOT, 'test/data')], log: () => {} },
    { ...tuning, autosave: false, treeCache: false },
  );
  const ends = new Map<string, (e: unknown) => void>();
  const settle = (e: EventOf<'job.done'> | EventOf<'job.failed'>): void => ends.get(e.jobId)?.(e);
  service.on('job.done', settle);
  service.on('job.failed', settle);
  try {
    const doc = (await service.handle('doc.open', { path: file })) as DocumentInfo;
    const check = async (): Promise<{ wall: number; stall: number }> => {
      const h = monitorEventLoopDelay({ resolution: 1 });
      h.enable();
      const t0 = performance.now();
      const { jobId } = (await service.handle('check.run', { docId: doc.id })) as { jobId: string };
      const end = (await new Promise<unknown>((r) => ends.set(jobId, r))) as { outcome?: unknown; error?: unknown };
      const wall = performance.now() - t0;
      h.disable();
      if (!end.outcome) throw new Error(`the check failed: ${JSON.stringify(end.error)}`);
      return { wall, stall: h.max / 1e6 };
    };
    const first = await check();
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await check());
    const [a, b] = doc.parts.slice(0, 2);
    const pairs: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      await service.handle('check.pair', { docId: doc.id, a: a.id, b: b.id, withinMm: 5 });
      pairs.push(performance.now() - t0);
    }
    console.log([
      `${path.basename(file)} (${doc.parts.length} parts), checks ${label}:`,
      `first check ${ms(first.wall)} (longest stall ${ms(first.stall)});`,
      `check ${ms(median(runs.map((r) => r.wall)))}, longest event-loop stall ${ms(median(runs.map((r) => r.stall)))} (worst ${ms(Math.max(...runs.map((r) => r.stall)))});`,
      `check.pair ${ms(median(pairs))}`,
    ].join(' '));
  } finally {
    await service.dispose();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

for (const file of FILES) {
  await measure(file, 'in this process', { checks: 'in-process' });
  await measure(file, 'in the check child', {});
}
