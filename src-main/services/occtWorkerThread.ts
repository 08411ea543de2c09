/**
 * Entry of the OpenCascade worker thread (services/occtWorker.ts starts it): initialises
 * occt-import-js once, then reads one STEP, IGES or BREP file per request and sends occt's result
 * back with its arrays as transferable typed arrays. Runs as TypeScript under tsx in tests and as
 * the bundle dist/node/compute/occtWorker.cjs otherwise.
 *
 * occt's reading is synchronous and cannot be interrupted from inside: the parent enforces the
 * time limit and cancellation by terminating this thread. Requests arrive one at a time (the
 * parent queues them).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { OcctResult } from 'occt-import-js';
import { occtErrorText, type OcctFormat } from '../../src-core/io/occt.js';
import { createNodeOcctProvider } from './occtNode.js';
import type { TessellationParams } from '../../src-core/io/types.js';

/** Parent → worker. */
export interface OcctWorkerRequest {
  readonly type: 'read';
  readonly id: number;
  readonly format: OcctFormat;
  readonly bytes: Uint8Array;
  /** Triangulation parameters (null: OpenCascade's defaults). */
  readonly params: TessellationParams | null;
}

/** Worker → parent. */
export type OcctWorkerMessage =
  | { readonly type: 'ready'; readonly initMs: number }
  | { readonly type: 'init-failed'; readonly message: string }
  | { readonly type: 'result'; readonly id: number; readonly result: OcctResult; readonly output: string[]; readonly readMs: number }
  | { readonly type: 'failed'; readonly id: number; readonly message: string; readonly output: string[] };

/** What the parent passes as workerData. */
export interface OcctWorkerData {
  readonly wasmPath?: string;
}

/** A plain array of numbers as a Float64Array (exact for every number, NaN included). */
function toFloat64(a: unknown, transfer: ArrayBuffer[]): unknown {
  if (!Array.isArray(a)) return a;
  const out = Float64Array.from(a as number[]);
  transfer.push(out.buffer);
  return out;
}

/** Indices as a Uint32Array when every one is an integer in range, else as Float64Array (checked by the importer). */
function toIndices(a: unknown, transfer: ArrayBuffer[]): unknown {
  if (!Array.isArray(a)) return a;
  const xs = a as unknown[];
  for (const k of xs) {
    if (!(typeof k === 'number' && Number.isInteger(k) && k >= 0 && k <= 0xffffffff)) return toFloat64(a, transfer);
  }
  const out = Uint32Array.from(xs as number[]);
  transfer.push(out.buffer);
  return out;
}

/** occt's result with its large arrays typed (structured clone copies typed arrays cheaply, and these are transferred). */
function pack(result: OcctResult, transfer: ArrayBuffer[]): OcctResult {
  if (typeof result !== 'object' || result === null || !Array.isArray(result.meshes)) {
    return typeof result === 'object' && result !== null ? { success: result.success === true } : ({ success: false } as OcctResult);
  }
  const meshes = result.meshes.map((m: unknown) => {
    if (typeof m !== 'object' || m === null) return m;
    const mesh = m as Record<string, unknown>;
    const attributes = mesh.attributes as Record<string, { array?: unknown } | undefined> | undefined;
    const index = mesh.index as { array?: unknown } | undefined;
    return {
      ...mesh,
      attributes: attributes === undefined || attributes === null ? attributes : {
        ...attributes,
        ...(attributes.position ? { position: { ...attributes.position, array: toFloat64(attributes.position.array, transfer) } } : {}),
        ...(attributes.normal ? { normal: { ...attributes.normal, array: toFloat64(attributes.normal.array, transfer) } } : {}),
      },
      index: index === undefined || index === null ? index : { ...index, array: toIndices(index.array, transfer) },
    };
  });
  // The product tree (`root`): small, plain objects; copied as they are (the importer checks its shape).
  return { success: result.success, meshes, ...(result.root !== undefined ? { root: result.root } : {}) } as unknown as OcctResult;
}

function start(): void {
  const port = parentPort;
  if (port === null) throw new Error('occtWorkerThread must run in a worker thread');
  const data = (workerData ?? {}) as OcctWorkerData;
  const provider = createNodeOcctProvider(data.wasmPath !== undefined ? { wasmPath: data.wasmPath } : {});
  const started = performance.now();
  const post = (message: OcctWorkerMessage, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);
  provider().then(
    () => post({ type: 'ready', initMs: performance.now() - started }),
    (err: unknown) => post({ type: 'init-failed', message: err instanceof Error ? err.message : String(err) }),
  );
  port.on('message', (raw: unknown) => {
    const request = raw as Partial<OcctWorkerRequest> | null;
    if (request === null || typeof request !== 'object' || request.type !== 'read' || typeof request.id !== 'number') return;
    const { id, format, bytes } = request as OcctWorkerRequest;
    const params = (request as OcctWorkerRequest).params ?? null;
    void provider().then(
      (module) => {
        // The Node provider always gives an in-thread module; the guard keeps the types honest.
        if (!('ReadStepFile' in module)) throw new Error('OpenCascade module without readers');
        module.takeOutput?.();
        const t0 = performance.now();
        let result: OcctResult;
        try {
          result = format === 'step' ? module.ReadStepFile(bytes, params)
            : format === 'iges' ? module.ReadIgesFile(bytes, params)
              : module.ReadBrepFile(bytes, params);
        } catch (err) {
          post({ type: 'failed', id, message: occtErrorText(err), output: module.takeOutput?.() ?? [] });
          return;
        }
        const readMs = performance.now() - t0;
        const transfer: ArrayBuffer[] = [];
        const packed = pack(result, transfer);
        post({ type: 'result', id, result: packed, output: module.takeOutput?.() ?? [], readMs }, transfer);
      },
    ).catch((err: unknown) => {
      post({ type: 'failed', id, message: err instanceof Error ? err.message : String(err), output: [] });
    });
  });
}

start();
