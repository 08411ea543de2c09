/**
 * Entry of the volume worker thread (services/volumeWorker.ts starts it): its own manifold-3d and
 * one OverlapEngine (src-core/check/volume.ts) for one check, so that the check's booleans run
 * beside its pair tests. Bodies arrive once each, then overlap requests naming them; each answer
 * is what overlapFigures gives on the caller's thread for the same origin, placements and meshes.
 * Runs as TypeScript under tsx in tests and as the bundle dist/node/compute/volumeWorker.cjs
 * otherwise.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { TriangleMesh } from '../../src-core/geometry/mesh.js';
import { OverlapEngine, overlapFigures, type OverlapFigures } from '../../src-core/check/volume.js';
import { loadManifold } from './manifoldNode.js';

/** Parent → worker. */
export type VolumeWorkerRequest =
  | { readonly type: 'body'; readonly body: number; readonly positions: Float64Array; readonly indices: Uint32Array }
  | {
    readonly type: 'overlap'; readonly id: number;
    readonly a: { readonly key: string; readonly body: number; readonly transform: Float64Array };
    readonly b: { readonly key: string; readonly body: number; readonly transform: Float64Array };
  };

/** Worker → parent. */
export type VolumeWorkerMessage =
  | { readonly type: 'overlap'; readonly id: number; readonly figures: OverlapFigures | null }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };

/** What the parent passes as workerData: the check's origin for manifold-3d's float32 positions. */
export interface VolumeWorkerData {
  readonly origin: [number, number, number];
}

const port = parentPort;
if (port) {
  const { origin } = workerData as VolumeWorkerData;
  const bodies = new Map<number, TriangleMesh>();
  const engine = loadManifold().then((wasm) => new OverlapEngine(wasm, origin));
  // Requests in order: a body always arrives before the overlaps that name it.
  let chain: Promise<unknown> = engine;
  port.on('message', (msg: VolumeWorkerRequest) => {
    if (msg.type === 'body') {
      bodies.set(msg.body, { positions: msg.positions, indices: msg.indices, vertexCount: msg.positions.length / 3, triangleCount: msg.indices.length / 3 });
      return;
    }
    chain = chain.then(async () => {
      try {
        const e = await engine;
        const figures = overlapFigures(
          e,
          { key: msg.a.key, mesh: bodies.get(msg.a.body)!, transform: msg.a.transform },
          { key: msg.b.key, mesh: bodies.get(msg.b.body)!, transform: msg.b.transform },
        );
        port.postMessage({ type: 'overlap', id: msg.id, figures } satisfies VolumeWorkerMessage);
      } catch (e) {
        port.postMessage({ type: 'failed', id: msg.id, message: e instanceof Error ? e.message : String(e) } satisfies VolumeWorkerMessage);
      }
    });
  });
}
