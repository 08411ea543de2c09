/**
 * The importer regression corpus (test/fixtures/regressions, see its README.md): every file there
 * is imported through the default registry, with OpenCascade in its worker thread so that every
 * CAD read is bounded in time, and must have exactly the outcome expected.json records for it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ImportLimits } from '../../../src-core/io/limits.js';
import { occtErrorText } from '../../../src-core/io/occt.js';
import { createDefaultRegistry } from '../../../src-core/io/registry.js';
import type { ImportError, ImportErrorCode, ImportResult } from '../../../src-core/io/types.js';
import { createOcctWorkerProvider } from '../../../src-main/services/occtWorker.js';
import { DOCUMENTED_CODES, expectImportFailure, expectValidResult } from './fuzzHelpers.js';

const DIR = path.resolve(process.cwd(), 'test/fixtures/regressions');
/** Time limit for CAD reads whose entry sets none: a regression then fails instead of hanging. */
const DEFAULT_CAD_TIMEOUT_MS = 10_000;

interface Expected {
  readonly ok: boolean;
  readonly code?: ImportErrorCode;
  readonly message?: string;
  readonly bodies?: number;
  readonly triangles?: number;
  readonly warning?: string;
  readonly limits?: Partial<ImportLimits>;
  readonly reproduces: string;
}

interface WasmExceptions {
  Tag: new (type: { parameters: string[] }) => object;
  Exception: new (tag: object, payload: unknown[]) => object;
}

const expected = JSON.parse(readFileSync(path.join(DIR, 'expected.json'), 'utf8')) as Record<string, Expected>;
const files = readdirSync(DIR).filter((f) => f !== 'README.md' && f !== 'expected.json').sort();

const occt = createOcctWorkerProvider({ log: () => undefined });
const registry = createDefaultRegistry({ occt });

afterAll(async () => {
  await occt.dispose();
});

describe('importer regression corpus', () => {
  it('lists every file in expected.json, and every entry has a file and a well-formed outcome', () => {
    expect(files.length).toBeGreaterThanOrEqual(9);
    expect(Object.keys(expected).sort()).toEqual(files);
    for (const [file, e] of Object.entries(expected)) {
      expect(typeof e.reproduces, file).toBe('string');
      expect(e.reproduces.length, file).toBeGreaterThan(10);
      if (e.ok) {
        expect(e.code, file).toBeUndefined();
        expect(Number.isInteger(e.bodies) && Number.isInteger(e.triangles), file).toBe(true);
      } else {
        expect(DOCUMENTED_CODES, file).toContain(e.code);
      }
    }
  });

  it.each(files)('%s', async (file) => {
    const e = expected[file];
    const bytes = new Uint8Array(readFileSync(path.join(DIR, file)));
    const limits = { cadTimeoutMs: DEFAULT_CAD_TIMEOUT_MS, ...e.limits };
    const started = performance.now();
    let result: ImportResult | null = null;
    let error: unknown = null;
    try {
      result = await registry.import(bytes, file, { limits });
    } catch (err) {
      error = err;
    }
    // Bounded: the read's own time limit, plus starting OpenCascade's worker.
    expect(performance.now() - started).toBeLessThan(limits.cadTimeoutMs + 30_000);
    if (e.ok) {
      expect(error, error instanceof Error ? error.message : String(error)).toBeNull();
      const { bodies, triangles } = expectValidResult(result as ImportResult);
      expect({ bodies, triangles }).toEqual({ bodies: e.bodies, triangles: e.triangles });
      if (e.warning !== undefined) expect((result as ImportResult).warnings.join('\n')).toContain(e.warning);
    } else {
      expect(result, `${file} imported, but ${e.code} was expected`).toBeNull();
      const code = expectImportFailure(error, file);
      expect(code, (error as ImportError).message).toBe(e.code);
      if (e.message !== undefined) expect((error as ImportError).message).toContain(e.message);
    }
  });

  it('describes a C++ exception escaping OpenCascade, which carries no message of its own', () => {
    // WebAssembly's exception-handling API (Node ≥ 20) is not in the TypeScript libraries used here.
    const wasm = (globalThis as unknown as { WebAssembly: WasmExceptions }).WebAssembly;
    const thrown = new wasm.Exception(new wasm.Tag({ parameters: [] }), []);
    expect(Object.prototype.toString.call(thrown)).toBe('[object WebAssembly.Exception]');
    expect(thrown instanceof Error).toBe(false);
    expect(occtErrorText(thrown)).toBe('an internal C++ exception was raised');
    expect(occtErrorText(new Error('memory access out of bounds'))).toBe('memory access out of bounds');
    expect(occtErrorText('text')).toBe('text');
  });
});
