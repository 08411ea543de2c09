/**
 * Entry of the volume worker thread (services/volumeWorker.ts starts it): its own manifold-3d and,
 * per session (a checked document), the bodies' solids (one SolidCache, src-core/check/volume.ts)
 * and an OverlapEngine per check of it (its origin and placed parts), so that the check's booleans run beside its pair tests. A session's
 * bodies arrive once each, then overlap requests naming them; each answer is what overlapFigures
 * gives on the caller's thread for the same origin, placements and meshes.
 *
 * A body may arrive before the check that needs it (`prefetch`: the command line sends the bodies
 * of parts whose bounds overlap while it still reads the others): it is converted when the thread
 * has nothing else to do — overlap requests come first, one conversion at a time between them —
 * so that the check finds it ready. The solid is the same as one converted on demand.
 *
 * The thread stays for the process's later checks (a batch of assemblies); a session's solids are
 * freed when it ends. Runs as TypeScript under tsx in tests and as the bundle
 * dist/node/compute/volumeWorker.cjs otherwise.
 */
import { parentPort } from 'node:worker_threads';
import type { ManifoldToplevel } from 'manifold-3d';
import type { TriangleMesh } from '../../src-core/geometry/mesh.js';
import { rememberEdgeReport, type EdgeReport } from '../../src-core/geometry/meshProps.js';
import { OverlapEngine, overlapFigures, SolidCache, type OverlapFigures } from '../../src-core/check/volume.js';
import { loadManifold } from './manifoldNode.js';

/** Parent → worker. */
export type VolumeWorkerRequest =
  | { readonly type: 'begin'; readonly session: number }
  | {
    readonly type: 'body'; readonly session: number; readonly body: number; readonly positions: Float64Array; readonly indices: Uint32Array;
    /** The mesh's edge report when the caller has it: whether it is closed is not counted again here. */
    readonly edges?: EdgeReport;
    /** Convert it as soon as the thread is idle (it is likely to be asked for). */
    readonly prefetch?: boolean;
  }
  | {
    readonly type: 'overlap'; readonly session: number; readonly id: number;
    /**
     * The check (one session may serve several: refinement rounds place other bodies under the
     * same part ids) and its origin for manifold-3d's float32 positions (volume.ts OverlapEngine).
     */
    readonly check: number;
    readonly origin: readonly [number, number, number];
    readonly a: { readonly key: string; readonly body: number; readonly transform: Float64Array };
    readonly b: { readonly key: string; readonly body: number; readonly transform: Float64Array };
  }
  /** A check is over: its placed parts are freed (the bodies' solids stay for the session). */
  | { readonly type: 'close'; readonly session: number; readonly check: number }
  | { readonly type: 'end'; readonly session: number };

/** Worker → parent. */
export type VolumeWorkerMessage =
  | { readonly type: 'overlap'; readonly id: number; readonly figures: OverlapFigures | null }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };

interface Session {
  readonly bodies: Map<number, TriangleMesh>;
  /** Bodies to convert while idle, in arrival order. */
  readonly prefetch: number[];
  cache: SolidCache | null;
  /** Placed parts per check. */
  readonly engines: Map<number, OverlapEngine>;
}

const port = parentPort;
if (port) {
  const wasm = loadManifold();
  const sessions = new Map<number, Session>();
  const cacheOf = (s: Session, w: ManifoldToplevel): SolidCache => (s.cache ??= new SolidCache(w));
  // Requests in order: a session begins before its bodies, a body arrives before the overlaps
  // that name it, and a session ends after its last overlap.
  let chain: Promise<unknown> = wasm.catch(() => undefined);
  /** Overlap requests received and not yet answered: prefetching waits for them. */
  let busy = 0;
  let pumping = false;
  /** One prefetched conversion per turn of the event loop, so that requests arriving meanwhile go first. */
  const pump = (): void => {
    if (pumping) return;
    pumping = true;
    setImmediate(() => {
      pumping = false;
      if (busy > 0) return; // resumed when the requests are answered
      void wasm.then((w) => {
        if (busy > 0) return;
        for (const s of sessions.values()) {
          const body = s.prefetch.shift();
          if (body === undefined) continue;
          const mesh = s.bodies.get(body);
          if (mesh) {
            try {
              cacheOf(s, w).of(mesh);
            } catch {
              // Asked for later, the same conversion reports what failed.
            }
          }
          pump();
          return;
        }
      }, () => undefined);
    });
  };
  port.on('message', (msg: VolumeWorkerRequest) => {
    if (msg.type === 'begin') {
      sessions.set(msg.session, { bodies: new Map(), prefetch: [], cache: null, engines: new Map() });
      return;
    }
    if (msg.type === 'body') {
      const s = sessions.get(msg.session);
      if (!s) return;
      const mesh: TriangleMesh = {
        positions: msg.positions, indices: msg.indices, vertexCount: msg.positions.length / 3, triangleCount: msg.indices.length / 3,
      };
      if (msg.edges) rememberEdgeReport(mesh, msg.edges);
      s.bodies.set(msg.body, mesh);
      if (msg.prefetch) {
        s.prefetch.push(msg.body);
        pump();
      }
      return;
    }
    if (msg.type === 'close') {
      chain = chain.then(() => {
        const s = sessions.get(msg.session);
        s?.engines.get(msg.check)?.dispose();
        s?.engines.delete(msg.check);
      });
      return;
    }
    if (msg.type === 'end') {
      chain = chain.then(() => {
        const s = sessions.get(msg.session);
        if (!s) return;
        for (const e of s.engines.values()) e.dispose();
        s.cache?.dispose();
        sessions.delete(msg.session);
      });
      return;
    }
    busy++;
    chain = chain.then(async () => {
      try {
        const s = sessions.get(msg.session);
        if (!s) throw new Error(`no check ${msg.session} in the volume worker`);
        const w = await wasm;
        let engine = s.engines.get(msg.check);
        if (!engine) s.engines.set(msg.check, (engine = new OverlapEngine(w, [msg.origin[0], msg.origin[1], msg.origin[2]], cacheOf(s, w))));
        const figures = overlapFigures(
          engine,
          { key: msg.a.key, mesh: s.bodies.get(msg.a.body)!, transform: msg.a.transform },
          { key: msg.b.key, mesh: s.bodies.get(msg.b.body)!, transform: msg.b.transform },
        );
        port.postMessage({ type: 'overlap', id: msg.id, figures } satisfies VolumeWorkerMessage);
      } catch (e) {
        port.postMessage({ type: 'failed', id: msg.id, message: e instanceof Error ? e.message : String(e) } satisfies VolumeWorkerMessage);
      } finally {
        if (--busy === 0) pump();
      }
    });
  });
}
