/**
 * Interference volumes in a worker thread (./volumeWorkerThread.ts), for checks in the caller's
 * process (the command line): the check goes on testing pairs while manifold-3d converts bodies
 * and intersects them on the other core, and waits for the volumes at its end
 * (src-core/check/volume.ts OverlapVolumes). One thread per process, started at the first volume a
 * check needs and kept for the next checks (a batch of 50 assemblies started 50 threads and
 * compiled manifold-3d 50 times otherwise); each check's bodies are sent once.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { OverlapFigures, OverlapVolumes, PlacedSolid } from '../../src-core/check/volume.js';
import type { TriangleMesh } from '../../src-core/geometry/mesh.js';
import { servicesModuleFile } from './moduleFile.js';
import type { VolumeWorkerMessage, VolumeWorkerRequest } from './volumeWorkerThread.js';

/**
 * The worker's entry: next to the TypeScript sources, a small CommonJS program that registers tsx
 * and imports volumeWorkerThread.ts; in the bundles, dist/node/compute/volumeWorker.cjs.
 */
export function findVolumeWorker(from: string = servicesModuleFile()): { file: string; eval?: boolean } {
  const dir = path.dirname(from);
  if (/\.[cm]?ts$/.test(from)) {
    const api = createRequire(from).resolve('tsx/cjs/api');
    const entry = path.resolve(dir, 'volumeWorkerThread.ts');
    return { file: `require(${JSON.stringify(api)}).register(); require(${JSON.stringify(entry)});`, eval: true };
  }
  const candidates = [
    path.resolve(dir, '../compute/volumeWorker.cjs'),
    path.resolve(dir, 'compute/volumeWorker.cjs'),
    path.resolve(dir, 'volumeWorker.cjs'),
  ];
  const file = candidates.find((f) => existsSync(f));
  if (!file) throw new Error(`the bundled volume worker is missing (looked for ${candidates.join(', ')})`);
  return { file };
}

/** The process's volume worker, started by the first check that needs a volume. */
interface Shared {
  readonly worker: Worker;
  readonly waiting: Map<number, { resolve: (f: OverlapFigures | null) => void; reject: (e: Error) => void }>;
  broken: Error | null;
}

let shared: Shared | null = null;
let nextSession = 0;
let nextRequest = 0;

function sharedWorker(): Shared {
  if (shared !== null && shared.broken === null) return shared;
  const entry = findVolumeWorker();
  const worker = new Worker(entry.file, { eval: entry.eval ?? false });
  // Idle, it does not keep the process alive; a request waiting for it does.
  worker.unref();
  const s: Shared = { worker, waiting: new Map(), broken: null };
  const fail = (e: Error): void => {
    s.broken ??= e;
    for (const w of s.waiting.values()) w.reject(s.broken);
    s.waiting.clear();
    if (shared === s) shared = null;
  };
  worker.on('message', (msg: VolumeWorkerMessage) => {
    const w = s.waiting.get(msg.id);
    if (!w) return;
    s.waiting.delete(msg.id);
    if (s.waiting.size === 0) worker.unref();
    if (msg.type === 'overlap') w.resolve(msg.figures);
    else w.reject(new Error(msg.message));
  });
  worker.on('error', (e) => fail(e));
  worker.on('exit', (code) => fail(new Error(`the volume worker stopped (exit code ${code})`)));
  shared = s;
  return s;
}

/**
 * A volume service for one check of the given origin, on the process's volume worker thread
 * (started on first use, kept for later checks while the process runs, never keeping it alive
 * when idle). Disposing of it frees the check's solids in the worker.
 */
export function workerVolumes(origin: [number, number, number]): OverlapVolumes {
  const s = sharedWorker();
  const session = nextSession++;
  const send = (m: VolumeWorkerRequest): void => s.worker.postMessage(m);
  send({ type: 'begin', session, origin });
  const bodies = new Map<TriangleMesh, number>();
  let ended = false;
  const bodyOf = (mesh: TriangleMesh): number => {
    let id = bodies.get(mesh);
    if (id === undefined) {
      bodies.set(mesh, (id = bodies.size));
      send({ type: 'body', session, body: id, positions: mesh.positions, indices: mesh.indices });
    }
    return id;
  };
  const placed = (p: PlacedSolid): { key: string; body: number; transform: Float64Array } =>
    ({ key: p.key, body: bodyOf(p.mesh), transform: Float64Array.from(p.transform) });
  return {
    overlap(a, b) {
      if (s.broken) return Promise.reject(s.broken);
      if (ended) return Promise.reject(new Error('the check is over'));
      const id = nextRequest++;
      const answer = new Promise<OverlapFigures | null>((resolve, reject) => s.waiting.set(id, { resolve, reject }));
      s.worker.ref();
      send({ type: 'overlap', session, id, a: placed(a), b: placed(b) });
      return answer;
    },
    dispose() {
      if (ended) return;
      ended = true;
      if (!s.broken) send({ type: 'end', session });
    },
  };
}

/** Stops the process's volume worker (tests; a later check starts another). */
export async function stopVolumeWorker(): Promise<void> {
  const s = shared;
  shared = null;
  if (s) await s.worker.terminate();
}
