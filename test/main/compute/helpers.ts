// Shared by the compute-boundary tests: benchmark meshes, reference builds, tree comparison, a
// scripted stand-in for a child process, and polling.
import path from 'node:path';
import { readStlFile } from '../../../bench/scenarios';
import { BENCH_DATA_DIR, ensureMeshFile } from '../../../bench/generate';
import { buildObbTree } from '../../../src-core/obbtree/build.js';
import type { ObbTree } from '../../../src-core/obbtree/layout.js';
import { serializeTree } from '../../../src-core/obbtree/serialize.js';
import { withoutPositions, type BuildRequest } from '../../../src-main/contract/compute.js';
import type { ChildHandle, ExitListener, ForkFn } from '../../../src-main/services/spawn.js';
import type { TreeMeshInput } from '../../../src-main/services/treePool.js';

/** The generated benchmark meshes (bench/generate.ts), each written on first use. */
export const MESH_DIR = path.join(BENCH_DATA_DIR, 'meshes');

/**
 * Names the tests use that are not generated meshes: the 3,674-triangle closed organic mesh of
 * the original benchmark was the Stanford bunny; the generated set has a lumpy sphere with the same
 * triangle count in its place.
 */
const STAND_INS: Readonly<Record<string, string>> = { 'bunny-3674': 'lumpy-3674' };

const loaded = new Map<string, TreeMeshInput>();

/** A generated benchmark STL mesh (cached); its meshId is the name asked for. */
export function loadMesh(name: string): TreeMeshInput {
  let m = loaded.get(name);
  if (!m) {
    const stl = readStlFile(ensureMeshFile(STAND_INS[name] ?? name));
    m = { meshId: name, positions: stl.positions, indices: stl.indices };
    loaded.set(name, m);
  }
  return m;
}

export function buildHere(m: TreeMeshInput): ObbTree {
  return buildObbTree({
    positions: m.positions, indices: m.indices,
    vertexCount: m.positions.length / 3, triangleCount: m.indices.length / 3,
  });
}

function sameBytes(a: ArrayBufferView, b: ArrayBufferView): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** Differences between two trees ([] when equal in every array and count). */
export function treeDifferences(a: ObbTree, b: ObbTree): string[] {
  const out: string[] = [];
  for (const k of ['nodeCount', 'leafSize', 'vertexCount', 'triangleCount', 'maxAbsCoordinate'] as const) {
    if (a[k] !== b[k]) out.push(`${k}: ${a[k]} vs ${b[k]}`);
  }
  for (const k of ['boxes', 'nodes', 'triVerts', 'triOrder', 'positions'] as const) {
    if (!sameBytes(a[k], b[k])) out.push(`${k} differ`);
  }
  return out;
}

export async function waitFor<T>(probe: () => T | undefined | false, timeoutMs: number, what: string, stepMs = 2): Promise<T> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined && v !== false) return v;
    if (performance.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** True once no process has this pid (signal 0 fails with ESRCH). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** What a well-behaved child answers to a build request (built in this process). */
export function resultFor(req: BuildRequest): unknown {
  const tree = buildObbTree({
    positions: req.positions, indices: req.indices,
    vertexCount: req.positions.length / 3, triangleCount: req.indices.length / 3,
  }, req.options);
  return { type: 'result', jobId: req.jobId, meshId: req.meshId, tree: withoutPositions(serializeTree(tree)), buildMs: 1 };
}

/**
 * A child process stand-in driven by a script: `onRequest` is called with every message the
 * parent sends and the fake itself, so it can answer with anything.
 */
export class FakeChild implements ChildHandle {
  static nextPid = 1_000_000;
  readonly pid = FakeChild.nextPid++;
  readonly received: unknown[] = [];
  killed = false;
  private readonly messageListeners: ((m: unknown) => void)[] = [];
  private readonly exitListeners: ExitListener[] = [];
  constructor(private readonly onRequest: (message: unknown, child: FakeChild) => void) {}
  postMessage(message: unknown): void {
    this.received.push(message);
    queueMicrotask(() => this.onRequest(message, this));
  }
  on(event: 'message' | 'exit', listener: ((m: unknown) => void) | ExitListener): void {
    if (event === 'message') this.messageListeners.push(listener as (m: unknown) => void);
    else this.exitListeners.push(listener as ExitListener);
  }
  kill(): void {
    if (this.killed) return;
    this.killed = true;
    setTimeout(() => this.exit(null, 'SIGKILL'), 1);
  }
  /** Sends a message to the parent. */
  send(message: unknown): void {
    for (const l of this.messageListeners) l(message);
  }
  exit(code: number | null, signal: string | null): void {
    for (const l of this.exitListeners.splice(0)) l(code, signal);
  }
}

/** A ForkFn making FakeChildren that announce themselves ready (protocol 1) unless told otherwise. */
export function fakeFork(onRequest: (message: unknown, child: FakeChild) => void, ready: unknown = { type: 'ready', protocol: 1 }): ForkFn & { children: FakeChild[] } {
  const children: FakeChild[] = [];
  const fn = (() => {
    const child = new FakeChild(onRequest);
    children.push(child);
    setTimeout(() => child.send(ready), 1);
    return child;
  }) as unknown as ForkFn & { children: FakeChild[] };
  fn.children = children;
  return fn;
}
