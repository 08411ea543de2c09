/**
 * Interference volumes in a worker thread (./volumeWorkerThread.ts), for checks in the caller's
 * process (the command line): the check goes on testing pairs while manifold-3d converts bodies
 * and intersects them on the other core, and waits for the volumes at its end
 * (src-core/check/volume.ts OverlapVolumes). One thread per process, started at the first volume a
 * check needs (or before, `prestartVolumeWorker`) and kept for the next checks (a batch of 50
 * assemblies started 50 threads and compiled manifold-3d 50 times otherwise); each check's bodies
 * are sent once, with their edge reports.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { OverlapFigures, OverlapVolumes, PlacedSolid } from '../../src-core/check/volume.js';
import type { TriangleMesh } from '../../src-core/geometry/mesh.js';
import { knownEdgeReport } from '../../src-core/geometry/meshProps.js';
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

/** The process's volume worker, started by the first check that needs a volume (or prestarted). */
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
  // Idle, it does not keep the process alive; a request waiting for it does. (After the listeners:
  // adding a 'message' listener references the worker's port again.)
  worker.unref();
  shared = s;
  return s;
}

/**
 * Starts the process's volume worker now, so that manifold-3d compiles on another core while the
 * inputs are read (the command line, when its inputs are meshes); it stays unreferenced, so an
 * unused worker never keeps the process alive.
 */
export function prestartVolumeWorker(): void {
  try {
    sharedWorker();
  } catch {
    // The first volume asked for reports it (or computes it in the check's thread).
  }
}

/**
 * A document's bodies in the volume worker, for its checks: each body is sent once, and may be
 * sent before a check asks for it (`prefetch`), to be converted while the worker is idle. Ending
 * the session frees its solids in the worker.
 */
export interface VolumeSession {
  /** Sends the body now and has it converted when the worker is idle (no-op if sent already). */
  prefetch(mesh: TriangleMesh): void;
  /** A volume service for one check of the given origin on this session's bodies; its dispose frees the check's placed parts only. */
  volumes(origin: [number, number, number]): OverlapVolumes;
  end(): void;
}

/** Opens a session on the process's volume worker (started now if it is not running). */
export function openVolumeSession(): VolumeSession {
  const s = sharedWorker();
  const session = nextSession++;
  const send = (m: VolumeWorkerRequest): void => s.worker.postMessage(m);
  send({ type: 'begin', session });
  const bodies = new Map<TriangleMesh, number>();
  let ended = false;
  let checks = 0;
  const bodyOf = (mesh: TriangleMesh, prefetch: boolean): number => {
    let id = bodies.get(mesh);
    if (id === undefined) {
      bodies.set(mesh, (id = bodies.size));
      // Its edge report, when the check has it (it has by the time it asks for a volume), spares
      // the worker counting its edges again.
      const edges = knownEdgeReport(mesh);
      send({ type: 'body', session, body: id, positions: mesh.positions, indices: mesh.indices, ...(edges ? { edges } : {}), ...(prefetch ? { prefetch } : {}) });
    }
    return id;
  };
  const placed = (p: PlacedSolid): { key: string; body: number; transform: Float64Array } =>
    ({ key: p.key, body: bodyOf(p.mesh, false), transform: Float64Array.from(p.transform) });
  return {
    prefetch(mesh) {
      if (ended || s.broken) return;
      bodyOf(mesh, true);
    },
    volumes(origin) {
      const check = checks++;
      let closed = false;
      return {
        overlap(a, b) {
          if (s.broken) return Promise.reject(s.broken);
          if (ended || closed) return Promise.reject(new Error('the check is over'));
          const id = nextRequest++;
          const answer = new Promise<OverlapFigures | null>((resolve, reject) => s.waiting.set(id, { resolve, reject }));
          s.worker.ref();
          send({ type: 'overlap', session, check, origin, id, a: placed(a), b: placed(b) });
          return answer;
        },
        dispose() {
          if (closed) return;
          closed = true;
          if (!ended && !s.broken) send({ type: 'close', session, check });
        },
      };
    },
    end() {
      if (ended) return;
      ended = true;
      if (!s.broken) send({ type: 'end', session });
    },
  };
}

/**
 * A volume service for one check of the given origin, on the process's volume worker thread
 * (started on first use, kept for later checks while the process runs, never keeping it alive
 * when idle): a session of its own. Disposing of it frees the check's solids in the worker.
 */
export function workerVolumes(origin: [number, number, number]): OverlapVolumes {
  const session = openVolumeSession();
  const volumes = session.volumes(origin);
  return {
    overlap: (a, b) => volumes.overlap(a, b),
    dispose() {
      volumes.dispose();
      session.end();
    },
  };
}

/** Stops the process's volume worker (tests; a later check starts another). */
export async function stopVolumeWorker(): Promise<void> {
  const s = shared;
  shared = null;
  if (s) await s.worker.terminate();
}
