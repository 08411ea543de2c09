/** The importers a Node host offers: STL, and STEP/IGES/BREP through OpenCascade's wasm. */
import type { ImportFunction } from '../../src-core/assembly/resolve.js';
import os from 'node:os';
import { memoryTriangleLimits, resolveImportLimits, type ImportLimits } from '../../src-core/io/limits.js';
import type { OcctProvider } from '../../src-core/io/occt.js';
import { createDefaultRegistry } from '../../src-core/io/registry.js';
import type { ImportError, ImportOptions } from '../../src-core/io/types.js';
import { nodeOcctProvider } from './occtNode.js';
import { sharedOcctWorkerProvider, type OcctWorkerProvider } from './occtWorker.js';

/**
 * The memory a check on this machine may count on, bytes: the total memory, or the control
 * group's limit when that is lower (a container). The total rather than what is free now, so
 * that the same input is accepted or refused the same way from one run to the next.
 */
export function machineMemoryBytes(): number {
  const total = os.totalmem();
  const constrained = typeof process.constrainedMemory === 'function' ? process.constrainedMemory() : 0;
  return constrained > 0 && constrained < total ? constrained : total;
}

/** The import limits of this machine: DEFAULT_IMPORT_LIMITS with the triangle limits its memory holds. */
export function machineImportLimits(): ImportLimits {
  return resolveImportLimits(memoryTriangleLimits(machineMemoryBytes()));
}

export interface ImporterOptions {
  /**
   * Limits over machineImportLimits() (the defaults of src-core/io/limits.ts, triangles bounded by
   * this machine's memory); an import's own options.limits win.
   */
  readonly limits?: Partial<ImportLimits>;
  /**
   * Where OpenCascade runs: 'worker' (default) in a worker thread, bounded by limits.cadTimeoutMs
   * and stopped on cancel (services/occtWorker.ts); 'in-thread' in this thread, unbounded.
   */
  readonly cad?: 'worker' | 'in-thread';
  /** Another OpenCascade provider (tests; a worker provider with its own options). */
  readonly occt?: OcctProvider;
}

/**
 * Whether an importer refuses a file from its size and first bytes alone, before it is read whole
 * (ImporterRegistry.precheck under the importer's limits): the error, or null to read on.
 */
export type Precheck = (head: Uint8Array, size: number, fileName: string, options?: ImportOptions) => ImportError | null;

/** Lets the event loop run (a macrotask): cancel requests and progress messages get through. */
const yieldToHost = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Imports any supported file's bytes (format from content; the file name only breaks ties), under
 * the given limits. Long STL parses yield to the event loop every few MB so that cancelling works.
 * Throws RangeError at once for an invalid limit.
 */
export function createImporter(options: ImporterOptions = {}): ImportFunction & { readonly limits: ImportLimits; readonly precheck: Precheck; readonly concurrency: number } {
  const given = Object.entries(options.limits ?? {}).filter(([, v]) => v !== undefined);
  const limits = resolveImportLimits({ ...machineImportLimits(), ...Object.fromEntries(given) });
  const occt = options.occt ?? (options.cad === 'in-thread' ? nodeOcctProvider : sharedOcctWorkerProvider());
  const registry = createDefaultRegistry({ occt });
  const importFile = (bytes: Uint8Array, fileName: string, importOptions: ImportOptions = {}) =>
    registry.import(bytes, fileName, {
      yieldToHost,
      ...importOptions,
      limits: { ...limits, ...importOptions.limits },
    });
  const precheck: Precheck = (head, size, fileName, importOptions = {}) =>
    registry.precheck(head, size, fileName, { ...importOptions, limits: { ...limits, ...importOptions.limits } });
  // The limits travel with the importer, so that an assembly's sources are held to them together;
  // the precheck, so that readers refuse what it can tell from a file's first bytes (documents.ts);
  // the concurrency, so that an assembly's CAD sources are read in as many workers at once.
  const workers = (occt as Partial<OcctWorkerProvider>).workers;
  const concurrency = typeof workers === 'number' && workers > 1 ? workers : 1;
  return Object.assign(importFile, { limits, precheck, concurrency });
}
