/**
 * Messages of the compute boundary: the parent (services/treePool.ts) and a tree-building child
 * process (compute/treeWorker.ts; a Node child_process in the CLI and tests, an Electron
 * utilityProcess in the app). Every message is a member of a discriminated union on `type`;
 * requests and their answers are correlated by `jobId`.
 *
 *   parent → child   build  {jobId, meshId, positions, indices, options}
 *                    cancel {jobId}              drops a build the child has not started
 *   child → parent   ready  {protocol}           once, when the child listens
 *                    progress {jobId, done, total}   throttled; triangles of that job
 *                    result {jobId, meshId, tree, buildMs}
 *                    error  {jobId, code, message}
 *
 * Messages travel by structured clone (Node `serialization: 'advanced'`, Electron
 * `postMessage`): typed arrays and ArrayBuffers arrive as copies of the same type. Both ends run
 * every message through the parsers below before acting on it; a message that does not parse is
 * refused with the reason, never acted on.
 *
 * A result's tree is a SerializedTree *without its positions*: `buffers[4]` is an empty
 * ArrayBuffer, because the parent sent the positions and keeps them (the parent's tree shares the
 * caller's positions array, as an in-process build does, and 24 bytes per vertex are not copied
 * back). The parent puts its positions in before deserialising (see `withPositions`).
 */
import type { SerializedTree } from '../../src-core/obbtree/serialize.js';

/** Bumped whenever a message changes shape; a child announcing another version is not used. */
export const COMPUTE_PROTOCOL_VERSION = 1;

/** Index of the positions buffer in SerializedTree.buffers (boxes, nodes, triVerts, triOrder, positions). */
export const TREE_POSITIONS_BUFFER = 4;

// ------------------------------------------------------------------------------------------------
// Messages

export interface BuildTreeOptions {
  /** Most triangles per leaf (1–64); the engine's default when absent. */
  readonly leafSize?: number;
}

export interface BuildRequest {
  readonly type: 'build';
  readonly jobId: number;
  readonly meshId: string;
  /** x y z per vertex, millimetres. */
  readonly positions: Float64Array;
  /** Three vertex indices per triangle. */
  readonly indices: Uint32Array;
  readonly options: BuildTreeOptions;
}

export interface CancelRequest {
  readonly type: 'cancel';
  readonly jobId: number;
}

export type ParentToChildMessage = BuildRequest | CancelRequest;

export interface ReadyMessage {
  readonly type: 'ready';
  readonly protocol: number;
}

export interface ProgressMessage {
  readonly type: 'progress';
  readonly jobId: number;
  /** Triangles of this job done so far, 0 ≤ done ≤ total. */
  readonly done: number;
  readonly total: number;
}

export interface ResultMessage {
  readonly type: 'result';
  readonly jobId: number;
  readonly meshId: string;
  /** The OBB tree, positions left out (see the file comment). */
  readonly tree: SerializedTree;
  /** Wall time of the build in the child, milliseconds. */
  readonly buildMs: number;
}

/**
 * Why a child could not answer a request:
 * - `invalid-request`: the request did not parse (answered only when its jobId could be read);
 * - `invalid-mesh`: the arrays do not form a mesh (bad lengths, index out of range, NaN, empty);
 * - `build-failed`: the build threw (e.g. an unsupported leaf size);
 * - `cancelled`: a `cancel` arrived before the build started.
 */
export type ComputeErrorCode = 'invalid-request' | 'invalid-mesh' | 'build-failed' | 'cancelled';

export const COMPUTE_ERROR_CODES: readonly ComputeErrorCode[] = ['invalid-request', 'invalid-mesh', 'build-failed', 'cancelled'];

export interface ErrorMessage {
  readonly type: 'error';
  readonly jobId: number;
  readonly code: ComputeErrorCode;
  readonly message: string;
}

export type ChildToParentMessage = ReadyMessage | ProgressMessage | ResultMessage | ErrorMessage;

// ------------------------------------------------------------------------------------------------
// Parsing

/** A parsed message, or why it was refused. */
export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

type Fields = Record<string, unknown>;

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const refuse = (reason: string): Parsed<never> => ({ ok: false, reason });

function isObject(v: unknown): v is Fields {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);
}

function isJobId(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

/** What a value is, for refusal messages: 'Float32Array', 'array', 'null', 'string', … */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return v.constructor.name;
  return typeof v;
}

function messageType(m: Fields): string {
  return typeof m.type === 'string' ? m.type : `(type ${describeValue(m.type)})`;
}

/** Checks a message's field; returns the refusal reason or null. */
function field(m: Fields, name: string, check: (v: unknown) => boolean, expected: string): string | null {
  if (!(name in m)) return `'${messageType(m)}' message has no '${name}'`;
  if (!check(m[name])) return `'${messageType(m)}' message: '${name}' must be ${expected}, got ${describeValue(m[name])}`;
  return null;
}

function firstRefusal(...reasons: (string | null)[]): string | null {
  for (const r of reasons) if (r !== null) return r;
  return null;
}

/** The jobId of a message that may not parse, so that a refusal can still be correlated. */
export function readJobId(raw: unknown): number | undefined {
  return isObject(raw) && isJobId(raw.jobId) ? raw.jobId : undefined;
}

function parseBuildOptions(v: unknown): Parsed<BuildTreeOptions> {
  if (!isObject(v)) return refuse(`'build' message: 'options' must be an object, got ${describeValue(v)}`);
  if (v.leafSize === undefined) return ok({});
  if (typeof v.leafSize !== 'number' || !Number.isInteger(v.leafSize) || v.leafSize < 1) {
    return refuse(`'build' message: 'options.leafSize' must be a positive integer, got ${String(v.leafSize)}`);
  }
  return ok({ leafSize: v.leafSize });
}

/** Parses a message arriving in the child. */
export function parseParentMessage(raw: unknown): Parsed<ParentToChildMessage> {
  if (!isObject(raw)) return refuse(`message must be an object, got ${describeValue(raw)}`);
  switch (raw.type) {
    case 'build': {
      const bad = firstRefusal(
        field(raw, 'jobId', isJobId, 'a non-negative integer'),
        field(raw, 'meshId', (v) => typeof v === 'string', 'a string'),
        field(raw, 'positions', (v) => v instanceof Float64Array, 'a Float64Array'),
        field(raw, 'indices', (v) => v instanceof Uint32Array, 'a Uint32Array'),
        field(raw, 'options', () => true, ''),
      );
      if (bad) return refuse(bad);
      const options = parseBuildOptions(raw.options);
      if (!options.ok) return options;
      return ok({
        type: 'build',
        jobId: raw.jobId as number,
        meshId: raw.meshId as string,
        positions: raw.positions as Float64Array,
        indices: raw.indices as Uint32Array,
        options: options.value,
      });
    }
    case 'cancel': {
      const bad = field(raw, 'jobId', isJobId, 'a non-negative integer');
      if (bad) return refuse(bad);
      return ok({ type: 'cancel', jobId: raw.jobId as number });
    }
    default:
      return refuse(`unknown message type ${typeof raw.type === 'string' ? `'${raw.type}'` : describeValue(raw.type)}`);
  }
}

const TREE_BUFFERS = 5;

/**
 * Checks the shape of a serialised OBB tree as a child sends it (positions left out). Sizes
 * against the counts are checked by deserializeTree once the positions are back.
 */
function treeRefusal(v: unknown): string | null {
  if (!isObject(v)) return `'result' message: 'tree' must be an object, got ${describeValue(v)}`;
  if (v.format !== 'interfere-bvtree' || v.version !== 1) return `'result' message: 'tree' is not a serialised tree of version 1`;
  if (v.kind !== 'obb') return `'result' message: 'tree' must be an OBB tree, got kind ${String(v.kind)}`;
  for (const name of ['nodeCount', 'leafSize', 'vertexCount', 'triangleCount', 'sphereLevels']) {
    if (!isCount(v[name])) return `'result' message: 'tree.${name}' must be a non-negative integer, got ${String(v[name])}`;
  }
  if (typeof v.maxAbsCoordinate !== 'number' || !(v.maxAbsCoordinate >= 0)) {
    return `'result' message: 'tree.maxAbsCoordinate' must be a non-negative number`;
  }
  const buffers = v.buffers;
  if (!Array.isArray(buffers) || buffers.length !== TREE_BUFFERS) {
    return `'result' message: 'tree.buffers' must be an array of ${TREE_BUFFERS} ArrayBuffers`;
  }
  for (let i = 0; i < TREE_BUFFERS; i++) {
    if (!(buffers[i] instanceof ArrayBuffer)) {
      return `'result' message: 'tree.buffers[${i}]' must be an ArrayBuffer, got ${describeValue(buffers[i])}`;
    }
  }
  if ((buffers[TREE_POSITIONS_BUFFER] as ArrayBuffer).byteLength !== 0) {
    return `'result' message: 'tree.buffers[${TREE_POSITIONS_BUFFER}]' (positions) must be empty: the parent holds the positions`;
  }
  return null;
}

/** Parses a message arriving in the parent. */
export function parseChildMessage(raw: unknown): Parsed<ChildToParentMessage> {
  if (!isObject(raw)) return refuse(`message must be an object, got ${describeValue(raw)}`);
  switch (raw.type) {
    case 'ready': {
      const bad = field(raw, 'protocol', isCount, 'a non-negative integer');
      if (bad) return refuse(bad);
      return ok({ type: 'ready', protocol: raw.protocol as number });
    }
    case 'progress': {
      const bad = firstRefusal(
        field(raw, 'jobId', isJobId, 'a non-negative integer'),
        field(raw, 'done', isCount, 'a non-negative integer'),
        field(raw, 'total', isCount, 'a non-negative integer'),
      );
      if (bad) return refuse(bad);
      if ((raw.done as number) > (raw.total as number)) return refuse(`'progress' message: done ${String(raw.done)} exceeds total ${String(raw.total)}`);
      return ok({ type: 'progress', jobId: raw.jobId as number, done: raw.done as number, total: raw.total as number });
    }
    case 'result': {
      const bad = firstRefusal(
        field(raw, 'jobId', isJobId, 'a non-negative integer'),
        field(raw, 'meshId', (v) => typeof v === 'string', 'a string'),
        field(raw, 'buildMs', (v) => typeof v === 'number' && v >= 0, 'a non-negative number'),
        field(raw, 'tree', () => true, ''),
        treeRefusal(raw.tree),
      );
      if (bad) return refuse(bad);
      return ok({
        type: 'result',
        jobId: raw.jobId as number,
        meshId: raw.meshId as string,
        tree: raw.tree as unknown as SerializedTree,
        buildMs: raw.buildMs as number,
      });
    }
    case 'error': {
      const bad = firstRefusal(
        field(raw, 'jobId', isJobId, 'a non-negative integer'),
        field(raw, 'code', (v) => (COMPUTE_ERROR_CODES as readonly unknown[]).includes(v), `one of ${COMPUTE_ERROR_CODES.join(', ')}`),
        field(raw, 'message', (v) => typeof v === 'string', 'a string'),
      );
      if (bad) return refuse(bad);
      return ok({ type: 'error', jobId: raw.jobId as number, code: raw.code as ComputeErrorCode, message: raw.message as string });
    }
    default:
      return refuse(`unknown message type ${typeof raw.type === 'string' ? `'${raw.type}'` : describeValue(raw.type)}`);
  }
}

// ------------------------------------------------------------------------------------------------
// Positions left out of results

/** The tree as the child sends it: positions replaced by an empty buffer. */
export function withoutPositions(tree: SerializedTree): SerializedTree {
  const buffers = tree.buffers.slice();
  buffers[TREE_POSITIONS_BUFFER] = new ArrayBuffer(0);
  return { ...tree, buffers };
}

/**
 * The tree with the parent's positions put back. The positions are shared when the array covers
 * its whole buffer, copied otherwise (deserializeTree wants a buffer of exactly their size).
 */
export function withPositions(tree: SerializedTree, positions: Float64Array): SerializedTree {
  const whole = positions.byteOffset === 0 && positions.byteLength === positions.buffer.byteLength && positions.buffer instanceof ArrayBuffer;
  const buffer = whole ? (positions.buffer as ArrayBuffer) : positions.slice().buffer;
  const buffers = tree.buffers.slice();
  buffers[TREE_POSITIONS_BUFFER] = buffer;
  return { ...tree, buffers };
}
