/**
 * The host API: the one contract between the renderer and whatever hosts it — the Electron main
 * process (through the preload, over IPC) or the loopback bridge (over a WebSocket, for browser
 * end-to-end tests and machines without Electron). Both sides use this file:
 *
 *  - `REQUESTS`: every operation the renderer can ask for, by channel (`domain.verb`), with the
 *    zod schema of its request and of its response. Request schemas are strict: a field a schema
 *    does not have is refused, not dropped. Hosts admit each request on arrival (./admission.ts:
 *    unknown channels, oversize and invalid requests are refused); clients validate each response.
 *  - `EVENTS`: everything a host can push to the renderer, with its schema.
 *  - `HostApi`: the object the renderer sees — one named function per request and one `on…`
 *    subscription per event, each returning an unsubscribe. `createHostApi(transport)` builds it
 *    over any transport, so the preload never exposes `ipcRenderer` itself.
 *
 * Everything crossing is plain data: JSON values, plus typed arrays in geometry responses (IPC
 * structured-clones them; the bridge sends them as binary frames, see ./wire.ts).
 */
import { z } from 'zod';
import { MAX_ID_LENGTH, MAX_NAME_LENGTH, MAX_PATH_LENGTH, MAX_REASON_LENGTH } from '../../src-core/assembly/limits.js';
import { MAX_BODY_PATH_DEPTH } from '../../src-core/io/types.js';
import { RESULT_STATUSES, type ResultStatus as CoreResultStatus } from '../../src-core/check/status.js';

/** The key of an unordered part pair in `statuses` (src-core/check/status.ts). */
export { pairKey } from '../../src-core/check/status.js';

// ------------------------------------------------------------------------------------------------
// Shapes

const finite = z.number().finite();
/** Lengths: src-core/assembly/limits.ts, which the assembly reader holds to as well. */
const id = z.string().min(1).max(MAX_ID_LENGTH);
/** Paths and file names: bounded, no NUL. */
const pathString = z.string().min(1).max(MAX_PATH_LENGTH).refine((s) => !s.includes('\u0000'), 'a path may not contain NUL');

/** Row-major 4×4 rigid placement (last row 0 0 0 1). */
export const TransformSchema = z.array(finite).length(16);
export type Transform = z.infer<typeof TransformSchema>;

export const SettingsSchema = z.strictObject({
  /** null: automatic, from the tessellation's chordal error. */
  touchToleranceMm: finite.nonnegative().max(1e6).nullable(),
  clearanceMm: finite.nonnegative().max(1e6),
  contactIsInterference: z.boolean(),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const IgnoreRuleSchema = z.strictObject({ a: id, b: id, reason: z.string().max(MAX_REASON_LENGTH).optional() });
export type IgnoreRule = z.infer<typeof IgnoreRuleSchema>;

/** Status of a result across checks: first seen, seen again, gone, ignored by the user. */
export const ResultStatusSchema = z.enum(RESULT_STATUSES as readonly CoreResultStatus[] as [CoreResultStatus, ...CoreResultStatus[]]);
export type ResultStatus = z.infer<typeof ResultStatusSchema>;

export const PartInfoSchema = z.object({
  id,
  name: z.string().max(MAX_NAME_LENGTH),
  /** Its place in its source's product tree, from the root's children down to the body (src-core/io/occt/tree.ts). */
  path: z.array(z.string().max(MAX_NAME_LENGTH)).max(MAX_BODY_PATH_DEPTH),
  sourceId: id,
  /** The source file as the document names it (relative to a saved assembly's folder). */
  sourcePath: z.string().max(MAX_PATH_LENGTH),
  body: z.number().int().nonnegative(),
  /** Parts placing the same body share its geometry (and its tree). */
  bodyKey: z.string().max(4400),
  triangles: z.number().int().nonnegative(),
  transform: TransformSchema,
  /** `#rrggbb`, or null for the default. */
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/).nullable(),
  visible: z.boolean(),
  /** A closed surface (volumes and containment are available). */
  closed: z.boolean(),
});
export type PartInfo = z.infer<typeof PartInfoSchema>;

export const DocumentInfoSchema = z.object({
  id,
  name: z.string().max(MAX_NAME_LENGTH),
  /** The file the document was opened from or saved to; null for a new, unsaved document. */
  path: pathString.nullable(),
  kind: z.enum(['assembly', 'model', 'new']),
  parts: z.array(PartInfoSchema),
  settings: SettingsSchema,
  ignore: z.array(IgnoreRuleSchema),
  /** Result status per part pair, keyed `a|b` with a < b. */
  statuses: z.record(z.string(), ResultStatusSchema),
  /** Result number (`R1`, `R2`, …) per part pair the document's checks have found, keyed as `statuses` (src-core/check/resultIds.ts). */
  resultIds: z.record(z.string(), z.string().regex(/^R[1-9][0-9]{0,15}$/)),
  /** Unsaved changes. */
  dirty: z.boolean(),
  warnings: z.array(z.string()),
});
export type DocumentInfo = z.infer<typeof DocumentInfoSchema>;

/** Geometry of bodies for display, in each body's own millimetre frame. */
export const BodyGeometrySchema = z.object({
  bodyKey: z.string(),
  positions: z.instanceof(Float32Array),
  indices: z.instanceof(Uint32Array),
  /** First and last triangle of each B-rep face (pairs), for drawing face edges; may be empty. */
  faceRanges: z.instanceof(Uint32Array),
});
export type BodyGeometry = z.infer<typeof BodyGeometrySchema>;

export const CheckScopeSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('all') }),
  z.strictObject({ kind: z.literal('selection'), ids: z.array(id).min(1).max(100_000) }),
  z.strictObject({ kind: z.literal('sets'), a: z.array(id).min(1).max(100_000), b: z.array(id).min(1).max(100_000) }),
]);
export type CheckScope = z.infer<typeof CheckScopeSchema>;

const vec3 = z.tuple([finite, finite, finite]);

export const PairResultSchema = z.object({
  a: id,
  b: id,
  kind: z.enum(['interference', 'contact', 'clearance', 'undecided', 'ignored']),
  /** Triangle pairs [triangle of a, triangle of b, …] in each body's import order. */
  trianglePairs: z.instanceof(Uint32Array),
  volumeMm3: finite.nullable(),
  centroidMm: vec3.nullable(),
  contained: z.boolean(),
  containedPart: id.nullable(),
  distanceMm: finite.nullable(),
  closestPointsMm: z.tuple([vec3, vec3]).nullable(),
  depthMm: finite.nullable(),
  toleranceMm: finite,
  reason: z.string().nullable(),
  /** The ± of the depth or distance (mm) where the parts meet; null for meshes that are the geometry (STL). */
  resolutionMm: finite.nullable(),
  /** The finest deflection the pair's CAD bodies were re-tessellated with to decide it (mm), or null. */
  refinedDeflectionMm: finite.nullable(),
  /** The exact signed separation (−depth … distance, mm) lies in this range, for CAD pairs. */
  separationRangeMm: z.tuple([finite, finite]).nullable(),
  /** For undecided pairs, the kinds the exact solids may have. */
  possibleKinds: z.array(z.enum(['interference', 'contact', 'clearance', 'clear'])).max(4).nullable(),
  status: ResultStatusSchema,
});
export type PairResultInfo = z.infer<typeof PairResultSchema>;

export const CheckOutcomeSchema = z.object({
  checkId: id,
  docId: id,
  scope: CheckScopeSchema,
  settings: z.object({
    touchToleranceMm: finite,
    touchToleranceAuto: z.boolean(),
    clearanceMm: finite,
    contactIsInterference: z.boolean(),
  }),
  summary: z.object({
    parts: z.number().int(),
    triangles: z.number().int(),
    interferences: z.number().int(),
    contacts: z.number().int(),
    clearanceViolations: z.number().int(),
    ignored: z.number().int(),
    undecided: z.number().int(),
    refinedPairs: z.number().int(),
    finestDeflectionMm: finite.nullable(),
    elapsedMs: finite,
  }),
  results: z.array(PairResultSchema),
  /** Pairs resolved since the previous check (their results are gone). */
  resolved: z.array(z.object({ a: id, b: id })),
  warnings: z.array(z.string()),
});
export type CheckOutcome = z.infer<typeof CheckOutcomeSchema>;

/** The traversal view of one pair: what the tree query visited and tested. */
export const PairTraceSchema = z.object({
  a: id,
  b: id,
  /** Intersecting triangle pairs [triangle of a, triangle of b, …]. */
  trianglePairs: z.instanceof(Uint32Array),
  /** Triangles tested exactly (each part's own indices, each once), intersecting or not. */
  testedA: z.instanceof(Uint32Array),
  testedB: z.instanceof(Uint32Array),
  /**
   * Visited boxes, 18 numbers each: side (0 = a, 1 = b), depth, outcome (0 pruned, 1 descended,
   * 2 both leaves), world centre (3), half extents (3), world axes (9).
   */
  boxes: z.instanceof(Float64Array),
  /** Boxes left out beyond `maxBoxes`. */
  boxesOmitted: z.number().int().nonnegative(),
  boxTests: z.number().int().nonnegative(),
  triTests: z.number().int().nonnegative(),
});
export type PairTrace = z.infer<typeof PairTraceSchema>;

/** The overlap solid of an interfering pair (world millimetres), to outline the volume. */
export const OverlapSolidSchema = z.object({
  a: id,
  b: id,
  positions: z.instanceof(Float32Array),
  indices: z.instanceof(Uint32Array),
  volumeMm3: finite,
});
export type OverlapSolidInfo = z.infer<typeof OverlapSolidSchema>;

/** A quick re-check of one pair while a part moves (live check). */
export const PairCheckSchema = z.object({
  a: id,
  b: id,
  /** Triangle pairs that intersect at the given placements. */
  trianglePairs: z.instanceof(Uint32Array),
  /** Minimum distance when they do not intersect and it is within `withinMm`, else null. */
  distanceMm: finite.nullable(),
  /** With `depth`: how deep the surfaces cross when they intersect (mm; 0 for surfaces that only touch), else null. */
  depthMm: finite.nullable(),
});
export type PairCheck = z.infer<typeof PairCheckSchema>;

export const BatchFileResultSchema = z.object({
  path: pathString,
  status: z.enum(['clear', 'interference', 'undecided', 'failed']),
  /** 0, 1 or 2 as the command line's exit status. */
  exitCode: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  summary: CheckOutcomeSchema.shape.summary.nullable(),
  /** Where its report was written, or null. */
  reportPath: pathString.nullable(),
  error: z.string().nullable(),
});
export type BatchFileResult = z.infer<typeof BatchFileResultSchema>;

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** 'electron' (dialogs, menus) or 'bridge' (browser; files by path). */
  host: z.enum(['electron', 'bridge']),
  platform: z.string(),
  /** The document the host opened at start (command line, or the bundled sample), if any. */
  startupDocument: DocumentInfoSchema.nullable(),
  recentFiles: z.array(pathString),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

export const HostErrorSchema = z.object({
  /** Machine-readable: 'invalid-request', 'not-found', 'access-denied', 'import-failed', … */
  code: z.string(),
  /** For people: names the file and the problem. */
  message: z.string(),
  /** The file concerned, if any. */
  path: z.string().nullable().optional(),
});
export type HostError = z.infer<typeof HostErrorSchema>;

/** Names a recovery file: letters, digits, '-' and '_' only. */
export const RecoveryIdSchema = z.string().min(1).max(128).regex(/^[A-Za-z0-9_-]+$/, 'a recovery id has letters, digits, - and _ only');

/** Unsaved work of an earlier run that can be recovered (doc.recoverable). */
export const RecoverableDocumentSchema = z.object({
  recoveryId: RecoveryIdSchema,
  /** The document's name as it was shown. */
  name: z.string().max(MAX_NAME_LENGTH),
  /** The file the document was opened from or last saved to; null for a new document never saved. */
  originalPath: pathString.nullable(),
  kind: z.enum(['assembly', 'model', 'new']),
  /** When the recovery file was written (ISO 8601, UTC). */
  savedAt: z.string().max(64),
});
export type RecoverableDocument = z.infer<typeof RecoverableDocumentSchema>;

export const MenuCommandSchema = z.enum([
  'file.new', 'file.open', 'file.import', 'file.save', 'file.saveAs', 'file.exportReport', 'file.batchCheck',
  'edit.undo', 'edit.redo', 'check.run', 'check.cancel',
  'view.fitAll', 'view.fitSelection', 'view.front', 'view.top', 'view.right', 'view.iso', 'view.toggleProjection',
  'help.about', 'help.shortcuts',
]);
export type MenuCommand = z.infer<typeof MenuCommandSchema>;

// ------------------------------------------------------------------------------------------------
// Requests

const docRef = z.strictObject({ docId: id });

/** Every request the renderer can make: channel → request and response schemas. */
export const REQUESTS = {
  'app.info': { request: z.strictObject({}), response: AppInfoSchema },
  /** Open a document; without a path the host asks the user (Electron) — null when they cancel. */
  'doc.open': { request: z.strictObject({ path: pathString.optional() }), response: DocumentInfoSchema.nullable() },
  'doc.new': { request: z.strictObject({}), response: DocumentInfoSchema },
  /** Add the bodies of a CAD/STL file to a document as parts. */
  'doc.import': { request: docRef.extend({ path: pathString.optional() }), response: DocumentInfoSchema.nullable() },
  'doc.geometry': {
    request: docRef.extend({ bodyKeys: z.array(z.string().max(4400)).max(100_000).optional() }),
    response: z.strictObject({ bodies: z.array(BodyGeometrySchema) }),
  },
  /** Edit a document (placements, visibility, colours, settings, ignore rules, statuses). */
  'doc.update': {
    request: docRef.extend({
      transforms: z.record(id, TransformSchema).optional(),
      visible: z.record(id, z.boolean()).optional(),
      colors: z.record(id, z.string().regex(/^#[0-9a-fA-F]{6}$/).nullable()).optional(),
      names: z.record(id, z.string().max(MAX_NAME_LENGTH)).optional(),
      settings: SettingsSchema.partial().optional(),
      ignore: z.array(IgnoreRuleSchema).max(100_000).optional(),
      statuses: z.record(z.string().max(600), ResultStatusSchema).optional(),
    }),
    response: DocumentInfoSchema,
  },
  /**
   * Save; `saveAs` or a new document asks for a path (or uses `path` on a host without dialogs).
   * The host refuses (HostError 'would-overwrite', its `path` the file concerned) to replace a
   * file that is not a valid saved assembly, that failed to open, or — the document's own file —
   * that changed on disk since it was opened or saved; after asking the user, the same request
   * with `overwrite: true` replaces it.
   */
  'doc.save': {
    request: docRef.extend({ saveAs: z.boolean().optional(), path: pathString.optional(), overwrite: z.boolean().optional() }),
    response: z.strictObject({ path: pathString }).nullable(),
  },
  'doc.close': { request: docRef, response: z.strictObject({ closed: z.boolean() }) },
  /**
   * Unsaved work a previous run left behind (it stopped without saving: a crash, a kill, a power
   * cut), newest first — to offer at start. The host autosaves every document with unsaved
   * changes to a recovery file, and removes it when the document is saved or closed.
   */
  'doc.recoverable': { request: z.strictObject({}), response: z.strictObject({ documents: z.array(RecoverableDocumentSchema) }) },
  /** Opens a recoverable document as it was last autosaved: dirty, its path the original file (or null). */
  'doc.recover': { request: z.strictObject({ recoveryId: RecoveryIdSchema }), response: DocumentInfoSchema },
  /** Deletes a recoverable document's recovery file; `discarded` is false when there was none. */
  'doc.discardRecovery': { request: z.strictObject({ recoveryId: RecoveryIdSchema }), response: z.strictObject({ discarded: z.boolean() }) },
  /** Start an all-pairs (or scoped) check; progress and the outcome arrive as job events. */
  /**
   * Check the document (or a scope of it). `refine` (default true): re-tessellate the CAD bodies of
   * pairs their triangles cannot decide, finer, until they are decided.
   */
  'check.run': { request: docRef.extend({ scope: CheckScopeSchema.optional(), refine: z.boolean().optional() }), response: z.strictObject({ jobId: id }) },
  /** Re-check one pair at the document's current placements (live check while dragging); `depth`: measure how deep they cross. */
  'check.pair': { request: docRef.extend({ a: id, b: id, withinMm: finite.nonnegative().max(1e6).optional(), depth: z.boolean().optional() }), response: PairCheckSchema },
  /** The traversal of one pair at the current placements (traversal view); boxes up to maxDepth. */
  'check.trace': {
    request: docRef.extend({ a: id, b: id, maxDepth: z.number().int().min(0).max(64).optional(), maxBoxes: z.number().int().min(0).max(200_000).optional() }),
    response: PairTraceSchema,
  },
  /** The overlap solid of two closed parts at the current placements; null when they do not overlap or are not closed. */
  'check.overlap': { request: docRef.extend({ a: id, b: id }), response: OverlapSolidSchema.nullable() },
  'job.cancel': { request: z.strictObject({ jobId: id }), response: z.strictObject({ cancelled: z.boolean() }) },
  /** Export the last check's report; without a path the host asks (Electron). */
  'report.export': {
    request: docRef.extend({ format: z.enum(['html', 'csv', 'json']), path: pathString.optional() }),
    response: z.strictObject({ path: pathString }).nullable(),
  },
  /** Check several saved assemblies; without paths the host asks (Electron). */
  'batch.run': {
    request: z.strictObject({ paths: z.array(pathString).max(10_000).optional(), reportFolder: pathString.optional(), format: z.enum(['html', 'csv', 'json']).optional() }),
    response: z.strictObject({ jobId: id }).nullable(),
  },
} as const;

export type RequestChannel = keyof typeof REQUESTS;
export type RequestOf<C extends RequestChannel> = z.input<(typeof REQUESTS)[C]['request']>;
export type ResponseOf<C extends RequestChannel> = z.output<(typeof REQUESTS)[C]['response']>;

// ------------------------------------------------------------------------------------------------
// Events

export const JobKindSchema = z.enum(['check', 'batch', 'open', 'import']);

export const EVENTS = {
  'job.progress': z.object({
    jobId: id,
    kind: JobKindSchema,
    /** What is happening, for people: 'reading as1.stp', 'building trees', 'checking pairs'. */
    stage: z.string().max(512),
    done: finite,
    total: finite,
  }),
  'job.done': z.discriminatedUnion('kind', [
    z.object({ jobId: id, kind: z.literal('check'), outcome: CheckOutcomeSchema }),
    z.object({ jobId: id, kind: z.literal('batch'), files: z.array(BatchFileResultSchema) }),
  ]),
  'job.failed': z.object({ jobId: id, kind: JobKindSchema, error: HostErrorSchema, cancelled: z.boolean() }),
  'batch.file': z.object({ jobId: id, index: z.number().int(), total: z.number().int(), file: BatchFileResultSchema }),
  'doc.changed': DocumentInfoSchema,
  'menu.command': z.object({ command: MenuCommandSchema }),
  /** A problem outside any request, e.g. the tree-building process crashed and was restarted. */
  'host.error': HostErrorSchema,
} as const;

export type EventChannel = keyof typeof EVENTS;
export type EventOf<E extends EventChannel> = z.output<(typeof EVENTS)[E]>;

// ------------------------------------------------------------------------------------------------
// The renderer's API object

/** How a client reaches its host: a request/response call and event subscriptions. */
export interface HostTransport {
  invoke(channel: string, request: unknown): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

/** Thrown by the API when the host answers with an error. */
export class HostRequestError extends Error {
  override readonly name = 'HostRequestError';
  constructor(readonly error: HostError) {
    super(error.message);
  }
}

/** Name of the API function for a channel: 'doc.open' → 'docOpen'. */
type Camel<S extends string> = S extends `${infer A}.${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
/** Name of the subscription for an event: 'job.progress' → 'onJobProgress'. */
type OnName<S extends string> = `on${Capitalize<Camel<S>>}`;

export type HostApi = {
  readonly [C in RequestChannel as Camel<C>]: (request: RequestOf<C>) => Promise<ResponseOf<C>>;
} & {
  readonly [E in EventChannel as OnName<E>]: (listener: (payload: EventOf<E>) => void) => () => void;
};

function camel(channel: string): string {
  return channel.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase());
}

export function apiFunctionName(channel: RequestChannel): string {
  return camel(channel);
}

export function apiEventName(event: EventChannel): string {
  const c = camel(event);
  return `on${c[0].toUpperCase()}${c.slice(1)}`;
}

/**
 * Builds the renderer's API over a transport: requests are validated before they are sent and
 * responses when they arrive; event payloads are validated before listeners see them (an invalid
 * one is dropped with a console warning: it can only come from a broken host).
 */
export function createHostApi(transport: HostTransport): HostApi {
  const api: Record<string, unknown> = {};
  for (const channel of Object.keys(REQUESTS) as RequestChannel[]) {
    const spec = REQUESTS[channel];
    api[apiFunctionName(channel)] = async (request: unknown) => {
      const req = spec.request.parse(request ?? {});
      const res = await transport.invoke(channel, req);
      return spec.response.parse(res);
    };
  }
  for (const event of Object.keys(EVENTS) as EventChannel[]) {
    const schema = EVENTS[event];
    api[apiEventName(event)] = (listener: (payload: unknown) => void) =>
      transport.on(event, (payload) => {
        const parsed = schema.safeParse(payload);
        if (parsed.success) listener(parsed.data);
        else console.warn(`host event ${event} refused: ${parsed.error.message}`);
      });
  }
  return Object.freeze(api) as HostApi;
}

