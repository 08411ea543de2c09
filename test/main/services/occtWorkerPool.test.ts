/**
 * OpenCascade's workers (services/occtWorker.ts): several files read at once in several workers,
 * a worker started ahead of the first read, and an assembly's sources read together
 * (src-core/assembly/resolve.ts with an importer's concurrency).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createOcctWorkerProvider } from '../../../src-main/services/occtWorker.js';
import { createImporter } from '../../../src-main/services/importers.js';
import { resolveAssembly } from '../../../src-core/assembly/resolve.js';
import { parseAssembly } from '../../../src-core/assembly/format.js';

const SAMPLE = path.resolve('assets/samples/as1-oc-214.stp');
const sample = new Uint8Array(readFileSync(SAMPLE));
const triangles = (r: { bodies: { triangleCount: number }[] }): number => r.bodies.reduce((n, b) => n + b.triangleCount, 0);

describe('OpenCascade in several workers', () => {
  const occt = createOcctWorkerProvider({ workers: 2, log: () => undefined });
  afterAll(() => occt.dispose());

  it('reads two files at once in two workers, and a third in one of them', async () => {
    const importer = createImporter({ occt });
    expect(importer.concurrency).toBe(2);
    const both = await Promise.all([importer(sample, 'one.stp'), importer(sample, 'two.stp')]);
    expect(both.map(triangles)).toEqual([5040, 5040]);
    expect(occt.stats.workersStarted).toBe(2);
    expect(occt.stats.reads).toBe(2);
    expect(occt.stats.readMs).toBeGreaterThan(0);
    expect(triangles(await importer(sample, 'three.stp'))).toBe(5040);
    expect(occt.stats.workersStarted).toBe(2);
  });
});

describe('a worker started ahead of the first read', () => {
  const occt = createOcctWorkerProvider({ log: () => undefined });
  afterAll(() => occt.dispose());

  it('is the one the read uses', async () => {
    expect(occt.stats.firstReadyAtMs).toBeNull();
    occt.warm();
    occt.warm(); // a second call while it starts does nothing
    expect(occt.stats.workersStarted).toBe(1);
    const result = await createImporter({ occt })(sample, 'as1-oc-214.stp');
    expect(triangles(result)).toBe(5040);
    expect(occt.stats.workersStarted).toBe(1);
    expect(occt.stats.adopted).toBe(0);
    expect(occt.stats.firstReadyAtMs).not.toBeNull();
  });
});

describe("an assembly's sources read together", () => {
  const text = JSON.stringify({
    format: 'interfere-assembly', version: 1, name: 'two copies',
    sources: [{ id: 'a', path: 'a.stp' }, { id: 'b', path: 'b.stp' }, { id: 'c', path: 'c.stp' }],
  });

  it('keeps source order whatever finishes first, and reports the first failing source', async () => {
    const doc = parseAssembly(text, 'copies.assembly.json');
    const started: string[] = [];
    const finished: string[] = [];
    const delays: Record<string, number> = { 'a.stp': 60, 'b.stp': 5, 'c.stp': 5 };
    const importer = Object.assign(
      async (_bytes: Uint8Array, fileName: string) => {
        started.push(fileName);
        await new Promise((r) => setTimeout(r, delays[fileName]));
        finished.push(fileName);
        return { format: 'fake', bodies: [{ name: fileName, color: null, positions: new Float64Array(9), indices: Uint32Array.of(0, 1, 2), triangleCount: 1, faceRanges: null }], warnings: [] };
      },
      { concurrency: 2 },
    );
    const resolved = await resolveAssembly(doc, async () => new Uint8Array(1), importer, { fileName: 'copies.assembly.json' });
    expect(resolved.parts.map((p) => p.sourceId)).toEqual(['a', 'b', 'c']);
    // Two at a time: b finished while a was still being read, and c started only after a was taken.
    expect(started.slice(0, 2)).toEqual(['a.stp', 'b.stp']);
    expect(finished.indexOf('b.stp')).toBeLessThan(finished.indexOf('a.stp'));

    const failing = Object.assign(
      async (_bytes: Uint8Array, fileName: string, options?: { signal?: { aborted: boolean } }) => {
        await new Promise((r) => setTimeout(r, fileName === 'a.stp' ? 40 : 1));
        if (options?.signal?.aborted) throw new Error('stopped');
        throw new Error(`cannot read ${fileName}`);
      },
      { concurrency: 2 },
    );
    await expect(resolveAssembly(doc, async () => new Uint8Array(1), failing, { fileName: 'copies.assembly.json' }))
      .rejects.toThrow(/source 'a'.*cannot read a\.stp/);
  });
});
