/**
 * Entry of a tree-building child process (services/treePool.ts starts one per core): receives
 * meshes, builds their OBB trees and sends them back serialised. Runs as TypeScript under tsx in
 * tests and as the bundle dist/node/compute/treeWorker.cjs (Node child process, or Electron
 * utilityProcess) otherwise. Protocol: contract/compute.ts.
 *
 * Builds are synchronous, one at a time. Requests queue, and the queue is drained one build per
 * macrotask so that messages arriving meanwhile (a `cancel` for a queued build) are read between
 * builds. A build in progress cannot be interrupted: the parent kills the process instead.
 */
import { createMesh, MeshError } from '../../src-core/geometry/mesh.js';
import { buildObbTree } from '../../src-core/obbtree/build.js';
import { serializeTree } from '../../src-core/obbtree/serialize.js';
import {
  COMPUTE_PROTOCOL_VERSION, parseParentMessage, readJobId, withoutPositions,
  type BuildRequest, type ChildToParentMessage,
} from '../contract/compute.js';
import { connectToParent, type ParentChannel } from './childChannel.js';
import { compileKernelOptimised } from '../services/wasmTiers.js';

// The kernel's hot code optimised from the first build or query (services/wasmTiers.ts).
compileKernelOptimised();

/** Shortest interval between two progress messages, milliseconds. */
const PROGRESS_INTERVAL_MS = 100;

function log(message: string): void {
  console.error(`[treeWorker ${process.pid}] ${message}`);
}

function start(channel: ParentChannel): void {
  const send = (message: ChildToParentMessage): void => channel.post(message);
  const queue: BuildRequest[] = [];
  let scheduled = false;
  let lastProgress = -Infinity;

  /**
   * Progress of a job. The engine's build has no progress hook, so a job reports its start
   * (done = 0); its result stands for done = total. Throttled: a start that follows another
   * message closely is not sent.
   */
  const progress = (jobId: number, done: number, total: number): void => {
    const now = performance.now();
    if (now - lastProgress < PROGRESS_INTERVAL_MS) return;
    lastProgress = now;
    send({ type: 'progress', jobId, done, total });
  };

  const run = (job: BuildRequest): void => {
    const total = Math.floor(job.indices.length / 3);
    progress(job.jobId, 0, total);
    let mesh: ReturnType<typeof createMesh>;
    try {
      mesh = createMesh(job.positions, job.indices);
    } catch (e) {
      const message = e instanceof MeshError ? e.message : String(e);
      send({ type: 'error', jobId: job.jobId, code: 'invalid-mesh', message: `mesh '${job.meshId}': ${message}` });
      return;
    }
    try {
      const t0 = performance.now();
      const tree = buildObbTree(mesh, job.options);
      const buildMs = performance.now() - t0;
      send({ type: 'result', jobId: job.jobId, meshId: job.meshId, tree: withoutPositions(serializeTree(tree)), buildMs });
    } catch (e) {
      send({ type: 'error', jobId: job.jobId, code: 'build-failed', message: `mesh '${job.meshId}': ${e instanceof Error ? e.message : String(e)}` });
    }
  };

  const drain = (): void => {
    scheduled = false;
    const job = queue.shift();
    if (job) run(job);
    schedule();
  };

  const schedule = (): void => {
    if (scheduled || queue.length === 0) return;
    scheduled = true;
    setImmediate(drain);
  };

  channel.onMessage((raw) => {
    const parsed = parseParentMessage(raw);
    if (!parsed.ok) {
      log(`refused a message: ${parsed.reason}`);
      const jobId = readJobId(raw);
      if (jobId !== undefined) send({ type: 'error', jobId, code: 'invalid-request', message: parsed.reason });
      return;
    }
    const msg = parsed.value;
    if (msg.type === 'cancel') {
      const i = queue.findIndex((j) => j.jobId === msg.jobId);
      // A job not queued has finished (or never came): its answer is on its way, nothing to do.
      if (i >= 0) {
        queue.splice(i, 1);
        send({ type: 'error', jobId: msg.jobId, code: 'cancelled', message: 'cancelled before the build started' });
      }
      return;
    }
    queue.push(msg);
    schedule();
  });
  channel.onDisconnect(() => process.exit(0));
  send({ type: 'ready', protocol: COMPUTE_PROTOCOL_VERSION });
}

const channel = connectToParent();
if (channel) {
  start(channel);
} else {
  log('no parent to talk to: start this file with child_process.fork (IPC channel) or utilityProcess.fork');
  process.exitCode = 2;
}
