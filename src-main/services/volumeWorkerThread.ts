/**
 * Entry of the volume worker thread (services/volumeWorker.ts starts it): its own manifold-3d and,
 * per check (a session), one OverlapEngine (src-core/check/volume.ts) of the check's origin, so
 * that the check's booleans run beside its pair tests. A session's bodies arrive once each, then
 * overlap requests naming them; each answer is what overlapFigures gives on the caller's thread
 * for the same origin, placements and meshes. The thread stays for the process's later checks (a
 * batch of assemblies); a session's solids are freed when it ends. Runs as TypeScript under tsx in
 * tests and as the bundle dist/node/compute/volumeWorker.cjs otherwise.
 */
import { parentPort } from 'node:worker_threads';
import type { TriangleMesh } from '../../src-core/geometry/mesh.js';
import { OverlapEngine, overlapFigures, type OverlapFigures } from '../../src-core/check/volume.js';
import { loadManifold } from './manifoldNode.js';

/** Parent → worker. */
export type VolumeWorkerRequest =
  | { readonly type: 'begin'; readonly session: number; readonly origin: [number, number, number] }
  | { readonly type: 'body'; readonly session: number; readonly body: number; readonly positions: Float64Array; readonly indices: Uint32Array }
  | {
    readonly type: 'overlap'; readonly session: number; readonly id: number;
    readonly a: { readonly key: string; readonly body: number; readonly transform: Float64Array };
    readonly b: { readonly key: string; readonly body: number; readonly transform: Float64Array };
  }
  | { readonly type: 'end'; readonly session: number };

/** Worker → parent. */
export type VolumeWorkerMessage =
  | { readonly type: 'overlap'; readonly id: number; readonly figures: OverlapFigures | null }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };

interface Session {
  readonly origin: [number, number, number];
  readonly bodies: Map<number, TriangleMesh>;
  engine: OverlapEngine | null;
}

const port = parentPort;
if (port) {
  const wasm = loadManifold();
  const sessions = new Map<number, Session>();
  // Requests in order: a session begins before its bodies, a body arrives before the overlaps
  // that name it, and a session ends after its last overlap.
  let chain: Promise<unknown> = wasm.catch(() => undefined);
  port.on('message', (msg: VolumeWorkerRequest) => {
    if (msg.type === 'begin') {
      sessions.set(msg.session, { origin: msg.origin, bodies: new Map(), engine: null });
      return;
    }
    if (msg.type === 'body') {
      sessions.get(msg.session)?.bodies.set(msg.body, {
        positions: msg.positions, indices: msg.indices, vertexCount: msg.positions.length / 3, triangleCount: msg.indices.length / 3,
      });
      return;
    }
    if (msg.type === 'end') {
      chain = chain.then(() => {
        sessions.get(msg.session)?.engine?.dispose();
        sessions.delete(msg.session);
      });
      return;
    }
    chain = chain.then(async () => {
      try {
        const s = sessions.get(msg.session);
        if (!s) throw new Error(`no check ${msg.session} in the volume worker`);
        s.engine ??= new OverlapEngine(await wasm, s.origin);
        const figures = overlapFigures(
          s.engine,
          { key: msg.a.key, mesh: s.bodies.get(msg.a.body)!, transform: msg.a.transform },
          { key: msg.b.key, mesh: s.bodies.get(msg.b.body)!, transform: msg.b.transform },
        );
        port.postMessage({ type: 'overlap', id: msg.id, figures } satisfies VolumeWorkerMessage);
      } catch (e) {
        port.postMessage({ type: 'failed', id: msg.id, message: e instanceof Error ? e.message : String(e) } satisfies VolumeWorkerMessage);
      }
    });
  });
}
