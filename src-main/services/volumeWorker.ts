/**
 * Interference volumes in a worker thread (./volumeWorkerThread.ts), for checks in the caller's
 * process (the command line): the check goes on testing pairs while manifold-3d converts bodies
 * and intersects them on the other core, and waits for the volumes at its end
 * (src-core/check/volume.ts OverlapVolumes). One thread per check, started at its first volume and
 * stopped with it; each body's triangles are sent once.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { OverlapFigures, OverlapVolumes, PlacedSolid } from '../../src-core/check/volume.js';
import type { TriangleMesh } from '../../src-core/geometry/mesh.js';
import { servicesModuleFile } from './moduleFile.js';
import type { VolumeWorkerData, VolumeWorkerMessage, VolumeWorkerRequest } from './volumeWorkerThread.js';

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

/** A volume service on a new worker thread, for a check of the given origin. */
export function workerVolumes(origin: [number, number, number]): OverlapVolumes {
  const entry = findVolumeWorker();
  const worker = new Worker(entry.file, { eval: entry.eval ?? false, workerData: { origin } satisfies VolumeWorkerData });
  const bodies = new Map<TriangleMesh, number>();
  const waiting = new Map<number, { resolve: (f: OverlapFigures | null) => void; reject: (e: Error) => void }>();
  let next = 0;
  let broken: Error | null = null;
  const fail = (e: Error): void => {
    broken ??= e;
    for (const w of waiting.values()) w.reject(broken);
    waiting.clear();
  };
  worker.on('message', (msg: VolumeWorkerMessage) => {
    const w = waiting.get(msg.id);
    if (!w) return;
    waiting.delete(msg.id);
    if (msg.type === 'overlap') w.resolve(msg.figures);
    else w.reject(new Error(msg.message));
  });
  worker.on('error', (e) => fail(e));
  worker.on('exit', (code) => fail(new Error(`the volume worker stopped (exit code ${code})`)));
  const send = (m: VolumeWorkerRequest): void => worker.postMessage(m);
  const bodyOf = (mesh: TriangleMesh): number => {
    let id = bodies.get(mesh);
    if (id === undefined) {
      bodies.set(mesh, (id = bodies.size));
      send({ type: 'body', body: id, positions: mesh.positions, indices: mesh.indices });
    }
    return id;
  };
  const placed = (p: PlacedSolid): { key: string; body: number; transform: Float64Array } =>
    ({ key: p.key, body: bodyOf(p.mesh), transform: Float64Array.from(p.transform) });
  return {
    overlap(a, b) {
      if (broken) return Promise.reject(broken);
      const id = next++;
      const answer = new Promise<OverlapFigures | null>((resolve, reject) => waiting.set(id, { resolve, reject }));
      send({ type: 'overlap', id, a: placed(a), b: placed(b) });
      return answer;
    },
    dispose() {
      fail(new Error('the volume worker was stopped'));
      void worker.terminate();
    },
  };
}
