// A scripted host for renderer tests and smoke screenshots: answers requests from handlers,
// pushes events on demand, and records every call. Goes through the real contract
// (createHostApi), so requests, responses and events are validated exactly as in the app.
import {
  createHostApi,
  type AppInfo,
  type BodyGeometry,
  type CheckOutcome,
  type DocumentInfo,
  type EventChannel,
  type EventOf,
  type HostApi,
  type HostTransport,
  type PairResultInfo,
  type PartInfo,
} from '../../src-main/contract/host';
import type { Aabb } from '../../src-renderer/state/placement';
import type { GeometrySink } from '../../src-renderer/state/types';

export const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

export function translation(x: number, y: number, z: number): number[] {
  return [1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z, 0, 0, 0, 1];
}

/** A part placing body `body` of `file`. */
export function part(id: string, overrides: Partial<PartInfo> = {}): PartInfo {
  return {
    id,
    name: id,
    path: [id],
    sourceId: 'src',
    sourcePath: 'parts.stp',
    body: 0,
    bodyKey: 'src#0',
    triangles: 12,
    transform: IDENTITY,
    color: null,
    visible: true,
    closed: true,
    ...overrides,
  };
}

export function documentInfo(overrides: Partial<DocumentInfo> = {}): DocumentInfo {
  return {
    id: 'doc-1',
    name: 'parts.stp',
    path: '/data/parts.stp',
    kind: 'model',
    parts: [part('a', { bodyKey: 'src#0' }), part('b', { body: 1, bodyKey: 'src#1', transform: translation(5, 0, 0) })],
    settings: { touchToleranceMm: null, clearanceMm: 0, contactIsInterference: false },
    ignore: [],
    statuses: {},
    resultIds: {},
    dirty: false,
    warnings: [],
    ...overrides,
  };
}

/** A 10 mm cube from the origin: 8 welded vertices, 12 triangles, 6 B-rep faces of 2. */
export function cubeBody(bodyKey: string, size = 10): BodyGeometry {
  const s = size;
  const positions = new Float32Array([0, 0, 0, s, 0, 0, s, s, 0, 0, s, 0, 0, 0, s, s, 0, s, s, s, s, 0, s, s]);
  const indices = new Uint32Array([
    0, 2, 1, 0, 3, 2, // bottom
    4, 5, 6, 4, 6, 7, // top
    0, 1, 5, 0, 5, 4, // front
    2, 3, 7, 2, 7, 6, // back
    1, 2, 6, 1, 6, 5, // right
    3, 0, 4, 3, 4, 7, // left
  ]);
  const faceRanges = new Uint32Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  return { bodyKey, positions, indices, faceRanges };
}

export function pairResult(a: string, b: string, overrides: Partial<PairResultInfo> = {}): PairResultInfo {
  return {
    a,
    b,
    kind: 'contact',
    trianglePairs: new Uint32Array([8, 10, 9, 11]),
    volumeMm3: null,
    centroidMm: null,
    contained: false,
    containedPart: null,
    distanceMm: 0,
    closestPointsMm: null,
    depthMm: null,
    toleranceMm: 0.01,
    reason: null,
    // A CAD contact decided on the file's tessellation: touching within ±0.001 mm.
    resolutionMm: 0.001,
    refinedDeflectionMm: null,
    separationRangeMm: [-0.001, 0.001],
    possibleKinds: null,
    status: 'new',
    ...overrides,
  };
}

export function checkOutcome(docId: string, results: PairResultInfo[], overrides: Partial<CheckOutcome> = {}): CheckOutcome {
  const refined = results.flatMap((r) => (r.refinedDeflectionMm === null ? [] : [r.refinedDeflectionMm]));
  return {
    checkId: 'check-1',
    docId,
    scope: { kind: 'all' },
    settings: { touchToleranceMm: 0.01, touchToleranceAuto: true, clearanceMm: 0, contactIsInterference: false },
    summary: {
      parts: 2,
      triangles: 24,
      interferences: results.filter((r) => r.kind === 'interference').length,
      contacts: results.filter((r) => r.kind === 'contact').length,
      clearanceViolations: results.filter((r) => r.kind === 'clearance').length,
      ignored: results.filter((r) => r.kind === 'ignored').length,
      undecided: results.filter((r) => r.kind === 'undecided').length,
      refinedPairs: refined.length,
      finestDeflectionMm: refined.length > 0 ? Math.min(...refined) : null,
      elapsedMs: 12,
    },
    results,
    resolved: [],
    warnings: [],
    ...overrides,
  };
}

export function appInfo(startupDocument: DocumentInfo | null, host: 'electron' | 'bridge' = 'bridge'): AppInfo {
  return { name: 'Interfere', version: '0.1.0', host, platform: 'linux', startupDocument, recentFiles: [] };
}

type Handler = (request: Record<string, unknown>) => unknown;

/** Thrown by a handler to answer with a host error. */
export class FakeHostError extends Error {
  constructor(readonly error: { code: string; message: string; path?: string | null }) {
    super(error.message);
  }
}

export interface FakeHost {
  readonly api: HostApi;
  /** Requests seen, in order: [channel, request]. */
  readonly calls: [string, Record<string, unknown>][];
  /** Answers a channel (replacing the default). */
  handle(channel: string, handler: Handler): void;
  /** Pushes an event to the subscribers. */
  emit<E extends EventChannel>(event: E, payload: EventOf<E>): void;
  /** Subscribers per event. */
  listenerCount(event: EventChannel): number;
}

/**
 * A host with one document of two cubes. Default answers: app.info with the document,
 * doc.geometry with cubes for the keys asked, check.run with job-1 (no events: tests emit them),
 * doc.recoverable with nothing to recover.
 */
export function createFakeHost(doc: DocumentInfo = documentInfo(), host: 'electron' | 'bridge' = 'bridge'): FakeHost {
  const handlers = new Map<string, Handler>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const calls: [string, Record<string, unknown>][] = [];
  handlers.set('app.info', () => appInfo(doc, host));
  handlers.set('doc.geometry', (req) => ({
    bodies: ((req.bodyKeys as string[] | undefined) ?? [...new Set(doc.parts.map((p) => p.bodyKey))]).map((k) => cubeBody(k)),
  }));
  handlers.set('check.run', () => ({ jobId: 'job-1' }));
  handlers.set('job.cancel', () => ({ cancelled: true }));
  handlers.set('doc.close', () => ({ closed: true }));
  handlers.set('doc.recoverable', () => ({ documents: [] }));
  const transport: HostTransport = {
    async invoke(channel, request) {
      calls.push([channel, request as Record<string, unknown>]);
      const handler = handlers.get(channel);
      if (!handler) throw new FakeHostError({ code: 'unknown-channel', message: `no fake answer for ${channel}` });
      await Promise.resolve();
      return handler(request as Record<string, unknown>);
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  };
  return {
    api: createHostApi(transport),
    calls,
    handle(channel, handler) {
      handlers.set(channel, handler);
    },
    emit(event, payload) {
      for (const l of listeners.get(event) ?? []) l(payload);
    },
    listenerCount(event) {
      return listeners.get(event)?.size ?? 0;
    },
  };
}

/** The store's geometry sink without three: which body keys it holds, in the order they came. */
export class FakeRegistry implements GeometrySink {
  readonly keys = new Set<string>();
  readonly added: string[] = [];
  add(bodies: readonly BodyGeometry[]): void {
    for (const b of bodies) {
      this.keys.add(b.bodyKey);
      this.added.push(b.bodyKey);
    }
  }
  has(key: string): boolean {
    return this.keys.has(key);
  }
  retain(keep: ReadonlySet<string>): void {
    for (const k of [...this.keys]) if (!keep.has(k)) this.keys.delete(k);
  }
  bodyBounds(bodyKey: string): Aabb | null {
    return this.keys.has(bodyKey) ? { min: [0, 0, 0], max: [10, 10, 10] } : null;
  }
}

/** Lets pending promises (host calls) settle. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
}
