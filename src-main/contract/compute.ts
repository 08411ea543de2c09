/**
 * Messages of the compute boundary, between the host and its compute children (a Node
 * child_process in the CLI, the bridge and tests, an Electron utilityProcess in the app). Two
 * children speak it: the tree builders (services/treePool.ts ↔ compute/treeWorker.ts, this first
 * part) and the check child (services/checkChild.ts ↔ compute/checkWorker.ts, the second part,
 * "The check child"). Every message is a member of a discriminated union on `type`; requests and
 * their answers are correlated by `jobId`.
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
import { z } from 'zod';
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
  if (v.format !== 'interfere-bvtree' || v.version !== 2) return `'result' message: 'tree' is not a serialised tree of version 2`;
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

// ------------------------------------------------------------------------------------------------
// The check child
//
// One child (compute/checkWorker.ts) runs the checks, pair queries and volumes of the open
// documents, so that the host's process (the Electron main process) never computes one. It holds
// each document's bodies, sent once per child and body (not per check):
//
//   parent → child   bodies  {docId, bodies: [BodyPayload]}   a document's bodies, before first use
//                    forget  {docId}                         the document was closed
//                    check   {jobId, docId, parts, settings, ignore, scope, refine}
//                    pair    {jobId, docId, a, b, withinMm, depth}  check.pair: triangle pairs, depth, distance
//                    trace   {jobId, docId, a, b, maxDepth, maxBoxes}
//                    overlap {jobId, docId, a, b}
//                    cancel  {jobId}                         checked by the check between pairs
//                    refined {jobId, requestId, body | error}   the answer to a `refine` below
//   child → parent   ready   {protocol}
//                    progress {jobId, phase, done, total}    throttled
//                    refine  {jobId, requestId, sourceKey, bodyIndex, deflectionMm}
//                                                            a check's refinement asks the host for
//                                                            a CAD body read again finer (the host
//                                                            reads files and builds trees; the child
//                                                            keeps the body for the document)
//                    checked {jobId, result}                 a CheckResult (src-core/check/types.ts)
//                    answer  {jobId, answer}                 of a pair, trace or overlap query
//                    failed  {jobId, code, message, limit?}
//
// Parts name their body by bodyKey; the child answers `unknown-body` for a body it was not sent.
// Both ends validate every message with the zod schemas below (strict: an unknown field is
// refused). Typed arrays cross as structured clones: neither Node's IPC channel nor Electron's
// utilityProcess can hand an ArrayBuffer to another process, so each array is copied once, whole,
// never re-packed; a tree goes without its positions (the mesh's, sent beside it).

/** Bumped whenever a check-child message changes shape. */
export const CHECK_PROTOCOL_VERSION = 1;

const count = z.number().int().nonnegative();
/** Any number, infinities included (ranges may be unbounded). */
const num = z.custom<number>((v) => typeof v === 'number', 'must be a number');
const jobId = z.number().int().nonnegative();
const key = z.string().min(1).max(4096);
/** A typed array of one kind (on any buffer: the engine's types do not narrow them). */
const typed = <T>(ctor: abstract new (...args: never[]) => unknown, name: string) => z.custom<T>((v) => v instanceof ctor, `must be a ${name}`);
const f64 = typed<Float64Array>(Float64Array, 'Float64Array');
const u32 = typed<Uint32Array>(Uint32Array, 'Uint32Array');

const SerializedObbTreeSchema = z.strictObject({
  format: z.literal('interfere-bvtree'),
  version: z.literal(2),
  kind: z.literal('obb'),
  nodeCount: count,
  leafSize: count,
  vertexCount: count,
  triangleCount: count,
  maxAbsCoordinate: z.number().nonnegative(),
  sphereLevels: count,
  buffers: z.array(z.instanceof(ArrayBuffer)).length(5)
    .refine((b) => b[TREE_POSITIONS_BUFFER].byteLength === 0, 'the positions buffer must be empty: the mesh carries them'),
});

/** A distinct body of a document as the check needs it. */
export const BodyPayloadSchema = z.strictObject({
  /** bodyKey(source, body), or a refined body's key. */
  key,
  positions: f64,
  indices: u32,
  /** Its OBB tree, positions left out. */
  tree: SerializedObbTreeSchema,
  chordErrorMm: typed<Float32Array>(Float32Array, 'Float32Array').nullable(),
  chordSide: typed<Int8Array>(Int8Array, 'Int8Array').nullable(),
  faceRanges: u32.nullable(),
  surfaces: z.strictObject({ records: f64, residualMm: f64 }).nullable(),
});
export type BodyPayload = z.infer<typeof BodyPayloadSchema>;

const PlacedPartSchema = z.strictObject({
  id: key,
  bodyKey: key,
  /** Body → world, row-major 3×4 or 4×4. */
  transform: f64,
});

const CheckScopeSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('all') }),
  z.strictObject({ kind: z.literal('selection'), ids: z.array(key) }),
  z.strictObject({ kind: z.literal('sets'), a: z.array(key), b: z.array(key) }),
  z.strictObject({ kind: z.literal('pairs'), pairs: z.array(z.tuple([key, key]).readonly()) }),
]);

export const CheckMessageSchema = z.strictObject({
  type: z.literal('check'),
  jobId,
  docId: key,
  parts: z.array(z.strictObject({
    ...PlacedPartSchema.shape,
    name: z.string(),
    refine: z.strictObject({ sourceKey: key, bodyIndex: count }).nullable(),
  })),
  settings: z.strictObject({ touchToleranceMm: z.number().nullable(), clearanceMm: z.number(), contactIsInterference: z.boolean() }),
  ignore: z.array(z.strictObject({ a: key, b: key, reason: z.string().optional() })),
  scope: CheckScopeSchema,
  /** Refinement of undecided CAD pairs (src-core/check/refine.ts), its limits; null: none. */
  refine: z.strictObject({
    limits: z.strictObject({
      minDeflectionMm: z.number().optional(), maxTrianglesPerSource: z.number().optional(), minTriangleBudget: z.number().optional(),
      triangleGrowth: z.number().optional(), timeBudgetMs: z.number().optional(), maxRounds: z.number().optional(),
    }),
  }).nullable(),
});
export type CheckMessage = z.infer<typeof CheckMessageSchema>;

export const ParentToCheckChildSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('bodies'), docId: key, bodies: z.array(BodyPayloadSchema) }),
  z.strictObject({ type: z.literal('forget'), docId: key }),
  CheckMessageSchema,
  z.strictObject({ type: z.literal('pair'), jobId, docId: key, a: PlacedPartSchema, b: PlacedPartSchema, withinMm: z.number().nonnegative().nullable(), depth: z.boolean() }),
  z.strictObject({
    type: z.literal('trace'), jobId, docId: key, a: PlacedPartSchema, b: PlacedPartSchema,
    maxDepth: count.optional(), maxBoxes: count.optional(),
  }),
  z.strictObject({ type: z.literal('overlap'), jobId, docId: key, a: PlacedPartSchema, b: PlacedPartSchema }),
  z.strictObject({ type: z.literal('cancel'), jobId }),
  z.strictObject({
    type: z.literal('refined'), jobId, requestId: count,
    body: BodyPayloadSchema.extend({ deflectionMm: z.number().positive() }).nullable(),
    /** Why the body could not be made (the pair stays undecided); null with a body. */
    error: z.string().nullable(),
  }),
]);
export type ParentToCheckChild = z.infer<typeof ParentToCheckChildSchema>;

const vec3 = z.tuple([num, num, num]).readonly();
const kind = z.enum(['interference', 'contact', 'clearance', 'undecided', 'ignored']);
const geometryKind = z.enum(['interference', 'contact', 'clearance', 'clear']);

/** src-core/check/types.ts PairResult. */
const PairResultSchema = z.strictObject({
  a: key, b: key, kind, geometricKind: z.union([kind, z.literal('clear')]),
  trianglePairs: u32,
  volumeMm3: num.nullable(), centroidMm: vec3.nullable(),
  contained: z.boolean(), containedPart: key.nullable(),
  distanceMm: num.nullable(), closestPointsMm: z.tuple([vec3, vec3]).readonly().nullable(),
  depthMm: num.nullable(), toleranceMm: num, reason: z.string().nullable(),
  resolutionMm: num.nullable(), refinedDeflectionMm: num.nullable(),
  separationRangeMm: z.tuple([num, num]).readonly().nullable(),
  possibleKinds: z.array(geometryKind).readonly().nullable(),
  coincident: z.array(key).readonly().optional(),
});

/** src-core/check/types.ts CheckResult. */
export const CheckResultSchema = z.strictObject({
  settings: z.strictObject({ touchToleranceMm: num, touchToleranceAuto: z.boolean(), clearanceMm: num, contactIsInterference: z.boolean() }),
  summary: z.strictObject({
    parts: count, triangles: count, interferences: count, contacts: count, clearanceViolations: count, ignored: count,
    undecided: count, refinedPairs: count, finestDeflectionMm: num.nullable(), elapsedMs: num,
  }),
  results: z.array(PairResultSchema).readonly(),
  candidatePairs: count,
  phaseMs: z.strictObject({ broadPhase: num, collide: num, classify: num }),
  warnings: z.array(z.string()).readonly(),
});

/** `check.pair` as computed: triangle pairs, and the distance when there are none (within reach). */
export const PairHitsSchema = z.strictObject({ trianglePairs: u32, distanceMm: num.nullable(), depthMm: num.nullable() });
export type PairHits = z.infer<typeof PairHitsSchema>;

/** `check.trace` as computed. */
export const PairTraceSchema = z.strictObject({
  trianglePairs: u32, testedA: u32, testedB: u32, boxes: f64, boxesOmitted: count, boxTests: count, triTests: count,
});
export type PairTrace = z.infer<typeof PairTraceSchema>;

/** `check.overlap` as computed: the overlap solid, null when there is none. */
export const OverlapSolidSchema = z.strictObject({ positions: typed<Float32Array>(Float32Array, 'Float32Array'), indices: u32, volumeMm3: num }).nullable();
export type OverlapSolid = z.infer<typeof OverlapSolidSchema>;

/**
 * Why the check child could not answer:
 * - `invalid-request`: the request did not parse; `unknown-body`: a part names a body it was not sent;
 * - `cancelled`: a `cancel` stopped it; `too-many-pairs`: the broad phase passed the limit
 *   (`limit` says by how much, src-core/check/check.ts CheckLimitError);
 * - `failed`: the computation threw (the message says what).
 */
export const CHECK_CHILD_ERROR_CODES = ['invalid-request', 'unknown-body', 'cancelled', 'too-many-pairs', 'failed'] as const;
export type CheckChildErrorCode = (typeof CHECK_CHILD_ERROR_CODES)[number];

export const CheckChildToParentSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready'), protocol: count }),
  z.strictObject({ type: z.literal('progress'), jobId, phase: z.enum(['broadphase', 'pairs', 'volumes', 'refine']), done: count, total: count }),
  z.strictObject({ type: z.literal('refine'), jobId, requestId: count, sourceKey: key, bodyIndex: count, deflectionMm: z.number().positive() }),
  z.strictObject({ type: z.literal('checked'), jobId, result: CheckResultSchema }),
  // Validated by the parent with the schema of the query it sent (PairHits, PairTrace, OverlapSolid).
  z.strictObject({ type: z.literal('answer'), jobId, answer: z.unknown() }),
  z.strictObject({
    type: z.literal('failed'), jobId, code: z.enum(CHECK_CHILD_ERROR_CODES), message: z.string(),
    limit: z.strictObject({ pairs: count, limit: count, exact: z.boolean() }).optional(),
  }),
]);
export type CheckChildToParent = z.infer<typeof CheckChildToParentSchema>;

/** The first issue of a failed parse, as one line for logs and refusals. */
export function zodReason(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.length > 0 ? issue.path.join('.') : 'message'}: ${issue.message}` : 'invalid message';
}
