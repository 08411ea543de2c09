/**
 * Entry of the check child (services/checkChild.ts starts one per host): runs the checks, pair
 * queries and volumes of the host's documents, so that the host's process (the Electron main
 * process in the app) computes none. Runs as TypeScript under tsx in tests and as the bundle
 * dist/node/compute/checkWorker.cjs (Node child process, or Electron utilityProcess) otherwise.
 * Protocol: contract/compute.ts, "The check child".
 *
 * - Bodies arrive once per document (`bodies`) and stay until `forget`; a check or query names
 *   them by key. Refined bodies (refinement, src-core/check/refine.ts) are asked of the host
 *   (`refine`: it reads the CAD file again and builds the tree) and kept with the document, as
 *   are its bodies' solids for volumes and overlap queries (src-core/check/volume.ts SolidCache):
 *   each body is converted for manifold-3d once, and a moved part only places its solid anew.
 * - A check yields to the event loop between pairs (every 16 ms), so a `cancel` — and the pair
 *   queries of a drag — are read while it runs; a cancelled check stops at its next pair. What
 *   cannot yield (one large manifold boolean) the host ends by killing this process.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { bodyKey } from '../../src-core/assembly/bodyKey.js';
import { CheckAbortedError, CheckLimitError } from '../../src-core/check/check.js';
import type { RefinedBody, Refiner } from '../../src-core/check/refine.js';
import type { CheckProgress } from '../../src-core/check/types.js';
import { createMesh } from '../../src-core/geometry/mesh.js';
import { deserializeTree } from '../../src-core/obbtree/serialize.js';
import type { ObbTree } from '../../src-core/obbtree/layout.js';
import { SolidCache } from '../../src-core/check/volume.js';
import type { ManifoldToplevel } from 'manifold-3d';
import {
  CHECK_PROTOCOL_VERSION, ParentToCheckChildSchema, withPositions, zodReason,
  type BodyPayload, type CheckChildToParent, type CheckMessage,
} from '../contract/compute.js';
import { checkPartsOf, checkWithRefinement, overlapSolid, pairHits, pairTrace, type CheckBody } from '../services/checkRunner.js';
import { connectToParent, type ParentChannel } from './childChannel.js';
import { compileKernelOptimised } from '../services/wasmTiers.js';

// The kernel's hot code optimised from the first build or query (services/wasmTiers.ts).
compileKernelOptimised();

/** Shortest interval between two progress messages of a job at one phase, milliseconds. */
const PROGRESS_INTERVAL_MS = 50;

function log(message: string): void {
  console.error(`[checkWorker ${process.pid}] ${message}`);
}

class UnknownBodyError extends Error {}

/** A body as sent, made ready to check (its tree shares the mesh's positions). */
function bodyFrom(p: BodyPayload): CheckBody {
  const mesh = createMesh(p.positions, p.indices);
  const tree = deserializeTree(withPositions(p.tree, p.positions));
  if (tree.kind !== 'obb' || tree.triangleCount !== mesh.triangleCount) throw new Error(`body '${p.key}': its tree does not fit its mesh`);
  return {
    key: p.key, mesh, tree: tree as ObbTree, chordErrorMm: p.chordErrorMm, chordSide: p.chordSide,
    faceRanges: p.faceRanges, surfaces: p.surfaces,
  };
}

interface DocBodies {
  readonly bodies: Map<string, CheckBody>;
  /** Refined bodies by `bodyKey@deflection`. */
  readonly refined: Map<string, Promise<RefinedBody>>;
  /** The bodies' solids for volumes and overlap queries (manifold-3d), made on first use and kept for later checks. */
  solids: SolidCache | null;
}

function start(channel: ParentChannel): void {
  const send = (message: CheckChildToParent): void => channel.post(message);
  const docs = new Map<string, DocBodies>();
  const running = new Map<number, { aborted: boolean }>();
  const asked = new Map<number, { jobId: number; resolve: (b: RefinedBody) => void; reject: (e: Error) => void }>();
  let nextRequest = 1;

  const docOf = (docId: string): DocBodies => {
    let d = docs.get(docId);
    if (!d) docs.set(docId, (d = { bodies: new Map(), refined: new Map(), solids: null }));
    return d;
  };
  /** The document's solids (of the manifold-3d instance a check or query loaded). */
  const solidsOf = (docId: string) => (wasm: ManifoldToplevel): SolidCache => {
    const d = docOf(docId);
    if (d.solids === null || d.solids.wasm !== wasm) {
      d.solids?.dispose();
      d.solids = new SolidCache(wasm);
    }
    return d.solids;
  };
  const bodyIn = (docId: string, key: string): CheckBody => {
    const b = docs.get(docId)?.bodies.get(key);
    if (!b) throw new UnknownBodyError(`document '${docId}' has no body '${key}' here`);
    return b;
  };

  const fail = (jobId: number, e: unknown): void => {
    if (e instanceof CheckLimitError) {
      send({ type: 'failed', jobId, code: 'too-many-pairs', message: e.message, limit: { pairs: e.pairs, limit: e.limit, exact: e.exact } });
    } else if (e instanceof CheckAbortedError || (e instanceof Error && e.name === 'AbortError')) {
      send({ type: 'failed', jobId, code: 'cancelled', message: 'the check was cancelled' });
    } else if (e instanceof UnknownBodyError) {
      send({ type: 'failed', jobId, code: 'unknown-body', message: e.message });
    } else {
      send({ type: 'failed', jobId, code: 'failed', message: e instanceof Error ? `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}` : String(e) });
    }
  };

  /** The host's refiner, asked over the channel; its bodies kept with the document. */
  const refinerFor = (docId: string, jobId: number): Refiner => ({
    body(sourceKey, bodyIndex, deflectionMm) {
      const refined = docOf(docId).refined;
      const id = `${bodyKey(sourceKey, bodyIndex)}@${deflectionMm}`;
      let p = refined.get(id);
      if (!p) {
        const requestId = nextRequest++;
        p = new Promise<RefinedBody>((resolve, reject) => asked.set(requestId, { jobId, resolve, reject }));
        refined.set(id, p);
        p.catch(() => refined.delete(id));
        send({ type: 'refine', jobId, requestId, sourceKey, bodyIndex, deflectionMm });
      }
      return p;
    },
  });

  const check = async (msg: CheckMessage): Promise<void> => {
    const flag = { aborted: false };
    running.set(msg.jobId, flag);
    try {
      const parts = checkPartsOf(msg.parts.map((p) => ({ ...p, body: bodyIn(msg.docId, p.bodyKey) })));
      let last = -Infinity;
      let lastPhase = '';
      const onProgress = (p: CheckProgress): void => {
        const now = performance.now();
        if (p.phase === lastPhase && p.done > 0 && p.done < p.total && now - last < PROGRESS_INTERVAL_MS) return;
        last = now;
        lastPhase = p.phase;
        send({ type: 'progress', jobId: msg.jobId, phase: p.phase, done: p.done, total: p.total });
      };
      const result = await checkWithRefinement(
        { parts, settings: msg.settings, ignore: msg.ignore, scope: msg.scope },
        {
          signal: flag, onProgress, yieldToHost: nextTurn, solids: solidsOf(msg.docId),
          refiner: msg.refine ? refinerFor(msg.docId, msg.jobId) : null,
          ...(msg.refine ? { refineLimits: msg.refine.limits } : {}),
        },
      );
      if (flag.aborted) throw new CheckAbortedError();
      send({ type: 'checked', jobId: msg.jobId, result });
    } catch (e) {
      fail(msg.jobId, e);
    } finally {
      running.delete(msg.jobId);
    }
  };

  const answer = async (jobId: number, compute: () => unknown): Promise<void> => {
    try {
      send({ type: 'answer', jobId, answer: await compute() });
    } catch (e) {
      fail(jobId, e);
    }
  };

  channel.onMessage((raw) => {
    const parsed = ParentToCheckChildSchema.safeParse(raw);
    if (!parsed.success) {
      const reason = zodReason(parsed.error);
      log(`refused a message: ${reason}`);
      const jobId = (raw as { jobId?: unknown } | null)?.jobId;
      if (typeof jobId === 'number' && Number.isSafeInteger(jobId) && jobId >= 0) send({ type: 'failed', jobId, code: 'invalid-request', message: reason });
      return;
    }
    const msg = parsed.data;
    switch (msg.type) {
      case 'bodies': {
        const d = docOf(msg.docId);
        for (const p of msg.bodies) {
          try {
            d.bodies.set(p.key, bodyFrom(p));
          } catch (e) {
            // A body that cannot be used is left out: checks naming it answer 'unknown-body'.
            log(`refused body '${p.key}' of document '${msg.docId}': ${e instanceof Error ? e.message : String(e)}`);
          }
        }
        // Solids of bodies the document no longer has are freed.
        d.solids?.retain(new Set([...d.bodies.values()].map((b) => b.mesh)));
        return;
      }
      case 'forget':
        docs.get(msg.docId)?.solids?.dispose();
        docs.delete(msg.docId);
        return;
      case 'check':
        void check(msg);
        return;
      case 'pair':
        void answer(msg.jobId, () => {
          const a = bodyIn(msg.docId, msg.a.bodyKey), b = bodyIn(msg.docId, msg.b.bodyKey);
          return pairHits(a, msg.a.transform, b, msg.b.transform, msg.withinMm, msg.depth);
        });
        return;
      case 'trace':
        void answer(msg.jobId, () => {
          const a = bodyIn(msg.docId, msg.a.bodyKey), b = bodyIn(msg.docId, msg.b.bodyKey);
          return pairTrace(a.tree, msg.a.transform, b.tree, msg.b.transform, {
            ...(msg.maxDepth !== undefined ? { maxDepth: msg.maxDepth } : {}), ...(msg.maxBoxes !== undefined ? { maxBoxes: msg.maxBoxes } : {}),
          });
        });
        return;
      case 'overlap':
        void answer(msg.jobId, () => {
          const a = bodyIn(msg.docId, msg.a.bodyKey), b = bodyIn(msg.docId, msg.b.bodyKey);
          return overlapSolid(a.mesh, msg.a.transform, b.mesh, msg.b.transform, solidsOf(msg.docId));
        });
        return;
      case 'cancel': {
        const flag = running.get(msg.jobId);
        if (flag) flag.aborted = true;
        // A refinement waiting for the host ends now.
        for (const [id, w] of asked) {
          if (w.jobId !== msg.jobId) continue;
          asked.delete(id);
          w.reject(new CheckAbortedError());
        }
        return;
      }
      case 'refined': {
        const w = asked.get(msg.requestId);
        if (!w || w.jobId !== msg.jobId) {
          log(`refused a refined body for request ${msg.requestId}, which is not waiting`);
          return;
        }
        asked.delete(msg.requestId);
        if (msg.body === null) {
          w.reject(new Error(msg.error ?? 'the host could not make the body'));
          return;
        }
        try {
          const b = bodyFrom(msg.body);
          w.resolve({ ...b, faceRanges: b.faceRanges, surfaces: b.surfaces, deflectionMm: msg.body.deflectionMm });
        } catch (e) {
          w.reject(e instanceof Error ? e : new Error(String(e)));
        }
        return;
      }
    }
  });
  channel.onDisconnect(() => process.exit(0));
  send({ type: 'ready', protocol: CHECK_PROTOCOL_VERSION });
}

const channel = connectToParent();
if (channel) {
  start(channel);
} else {
  log('no parent to talk to: start this file with child_process.fork (IPC channel) or utilityProcess.fork');
  process.exitCode = 2;
}
