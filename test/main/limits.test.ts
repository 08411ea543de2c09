/**
 * Resource limits of importing, through the importer the hosts use (services/importers.ts): a
 * hostile triangle count is refused before anything is allocated; a million-triangle STL imports
 * and builds its tree (in the tree pool's child, as the command line does) with moving progress
 * and bounded memory, and cancelling stops it within a second; OpenCascade's worker is stopped at
 * the CAD time limit with a message that says how to raise it, or when the import is cancelled,
 * and the next import gets a fresh worker.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMesh } from '../../src-core/geometry/mesh.js';
import { ImportError } from '../../src-core/io/types.js';
import type { ImportResult } from '../../src-core/io/types.js';
import { createImporter } from '../../src-main/services/importers.js';
import { createOcctWorkerProvider } from '../../src-main/services/occtWorker.js';
import { TreePool } from '../../src-main/services/treePool.js';
import { expectValidResult } from '../core/io/fuzzHelpers.js';

const ROOT = process.cwd();
const DATA = path.resolve(ROOT, 'test/data');
const SAMPLE = path.join(ROOT, 'assets/samples/as1-oc-214.stp');
const MB = 1024 * 1024;

function heapAndBuffers(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Resolves with what the promise rejected with (fails when it resolves). */
async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the import to fail');
}

/** A binary STL of a w × h grid of squares, two triangles each, in z = 0 (vertices shared by exact equality). */
function gridStl(w: number, h: number): Buffer {
  const n = 2 * w * h;
  const out = Buffer.alloc(84 + 50 * n);
  out.write('grid', 0, 'latin1');
  out.writeUInt32LE(n, 80);
  let o = 84;
  const tri = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number): void => {
    out.writeFloatLE(1, o + 8); // normal 0 0 1
    out.writeFloatLE(ax, o + 12); out.writeFloatLE(ay, o + 16);
    out.writeFloatLE(bx, o + 24); out.writeFloatLE(by, o + 28);
    out.writeFloatLE(cx, o + 36); out.writeFloatLE(cy, o + 40);
    o += 50;
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      tri(x, y, x + 1, y, x + 1, y + 1);
      tri(x, y, x + 1, y + 1, x, y + 1);
    }
  }
  return out;
}

/** Peak resident set of a process so far (Linux: VmHWM), bytes; null where /proc is missing. */
function peakRss(pid: number | 'self'): number | null {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return null;
  const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(file, 'utf8'));
  return m ? Number(m[1]) * 1024 : null;
}

describe('triangle counts are refused before allocation', () => {
  const importStl = createImporter();

  it('an 84-byte binary STL claiming 2^32 − 1 triangles: refused at once, memory unchanged', async () => {
    const claim = new Uint8Array(84);
    new DataView(claim.buffer).setUint32(80, 0xffffffff, true);
    const padded = new Uint8Array(84 + 50); // one honest triangle's worth of bytes behind the claim
    padded.set(claim);
    const heapBefore = heapAndBuffers();
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const errors = [await rejection(importStl(claim, 'claims-4G.stl')), await rejection(importStl(padded, 'claims-4G.stl'))];
    const elapsed = performance.now() - started;
    const heapGrowth = heapAndBuffers() - heapBefore;
    const rssGrowth = process.memoryUsage().rss - rssBefore;
    console.log(`2^32 − 1 triangle claim refused in ${elapsed.toFixed(1)} ms; heap + buffers grew ${(heapGrowth / 1024).toFixed(0)} kB, RSS ${(rssGrowth / 1024).toFixed(0)} kB`);
    for (const err of errors) {
      expect(err).toBeInstanceOf(ImportError);
      expect((err as ImportError).message).toMatch(/^claims-4G\.stl: .*4,294,967,295 triangles/);
    }
    expect((errors[0] as ImportError).code).toBe('truncated');
    expect((errors[1] as ImportError).code).toBe('count-mismatch');
    // 2^32 − 1 triangles would be 200 GB of file and over 100 GB of arrays: nothing near that was touched.
    expect(heapGrowth).toBeLessThan(4 * MB);
    expect(rssGrowth).toBeLessThan(32 * MB);
    expect(elapsed).toBeLessThan(1000);
  });

  it('an honest count beyond maxTrianglesPerBody is refused from the header, before reading the triangles', async () => {
    const stl = new Uint8Array(gridStl(100, 50)); // 10,000 triangles
    const limited = createImporter({ limits: { maxTrianglesPerBody: 9_999 } });
    const heapBefore = heapAndBuffers();
    const err = await rejection(limited(stl, 'grid.stl'));
    expect(heapAndBuffers() - heapBefore).toBeLessThan(stl.length); // the 1.2 MB of arrays were never made
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).code).toBe('too-large');
    expect((err as ImportError).message).toBe(
      "grid.stl: binary STL has 10,000 triangles, more than the limit of 9,999 triangles per body; raise it with 'interfere check --max-triangles N', or the import limit 'maxTrianglesPerBody'",
    );
  });
});

describe('a 1,000,000-triangle binary STL', () => {
  let dir = '';
  let file = '';
  const TRIANGLES = 1_000_000;
  const pool = new TreePool({ size: 1, inProcessBelowTriangles: 0, log: () => undefined });

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'interfere-limits-'));
    file = path.join(dir, 'grid-1m.stl');
    writeFileSync(file, gridStl(1000, 500));
  });

  afterAll(async () => {
    await pool.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports and builds its OBB tree with moving progress and bounded memory', async () => {
    const importer = createImporter();
    const rssBefore = process.memoryUsage().rss;
    const peakBefore = peakRss('self');
    let sampled = rssBefore;
    const sampler = setInterval(() => {
      sampled = Math.max(sampled, process.memoryUsage().rss);
    }, 10);
    const t0 = performance.now();
    const bytes = new Uint8Array(readFileSync(file));
    const importProgress: [number, number][] = [];
    let result: ImportResult;
    let importMs: number;
    try {
      result = await importer(bytes, 'grid-1m.stl', { onProgress: (done, total) => importProgress.push([done, total]) });
      importMs = performance.now() - t0;
    } finally {
      clearInterval(sampler);
    }
    const { triangles } = expectValidResult(result);
    expect(triangles).toBe(TRIANGLES);
    const body = result.bodies[0];
    expect(body.positions.length / 3).toBe(1001 * 501); // the grid's vertices, welded

    // Progress moves: many reports, never backwards, ending at done = total.
    expect(importProgress.length).toBeGreaterThan(10);
    expect(new Set(importProgress.map(([, total]) => total)).size).toBe(1);
    for (let i = 1; i < importProgress.length; i++) expect(importProgress[i][0]).toBeGreaterThanOrEqual(importProgress[i - 1][0]);
    const [lastDone, lastTotal] = importProgress[importProgress.length - 1];
    expect(lastDone).toBe(lastTotal);
    expect(new Set(importProgress.map(([d, t]) => d / t)).size).toBeGreaterThan(5);

    // The tree, built in the pool's child as the command line builds it.
    const t1 = performance.now();
    const treeProgress: [number, number][] = [];
    const sampler2 = setInterval(() => {
      sampled = Math.max(sampled, process.memoryUsage().rss);
    }, 10);
    let childPeak: number | null = null;
    const childWatch = setInterval(() => {
      const pid = pool.status().find((c) => c.pid !== undefined)?.pid;
      const peak = pid === undefined ? null : peakRss(pid);
      if (peak !== null) childPeak = Math.max(childPeak ?? 0, peak);
    }, 20);
    let trees;
    try {
      trees = await pool.buildTrees([{ meshId: 'grid', positions: body.positions, indices: body.indices }], {
        onProgress: (done, total) => treeProgress.push([done, total]),
      });
    } finally {
      clearInterval(sampler2);
      clearInterval(childWatch);
    }
    const treeMs = performance.now() - t1;
    const tree = trees.get('grid');
    expect(tree?.kind).toBe('obb');
    expect(tree?.triangleCount).toBe(TRIANGLES);
    expect(treeProgress[0]).toEqual([0, TRIANGLES]);
    expect(treeProgress.at(-1)).toEqual([TRIANGLES, TRIANGLES]);

    const peakAfter = peakRss('self');
    const peak = Math.max(sampled, peakAfter !== null && peakBefore !== null && peakAfter > peakBefore ? peakAfter : 0);
    const peakDelta = peak - rssBefore;
    const fileMb = bytes.length / MB;
    console.log(
      `1,000,000-triangle binary STL (${fileMb.toFixed(1)} MB): import ${(importMs / 1000).toFixed(2)} s, ` +
      `tree ${(treeMs / 1000).toFixed(2)} s (child process), ${importProgress.length} import progress reports; ` +
      `peak RSS +${(peakDelta / MB).toFixed(0)} MB in this process` +
      (childPeak !== null ? `, tree child peak RSS ${((childPeak as number) / MB).toFixed(0)} MB` : ''),
    );
    // Bounded: the importer keeps about 4–5 × the file (triangle soup, weld table, welded arrays),
    // and the tree comes back as typed arrays of about the mesh's size.
    expect(peakDelta).toBeLessThan(16 * bytes.length);
    if (childPeak !== null) expect(childPeak).toBeLessThan(1024 * MB);
    createMesh(body.positions, body.indices); // the mesh the tree indexes is valid
  }, 120_000);

  it('cancelling the import (ImportOptions.signal) stops it within 1 s', async () => {
    const importer = createImporter();
    const bytes = new Uint8Array(readFileSync(file));
    const controller = new AbortController();
    let abortedAt = 0;
    let reports = 0;
    const running = importer(bytes, 'grid-1m.stl', {
      signal: controller.signal,
      onProgress: () => {
        // Abort from the event loop while the parse runs, after it has made some progress.
        if (++reports === 3) {
          setTimeout(() => {
            abortedAt = performance.now();
            controller.abort();
          }, 0);
        }
      },
    });
    const err = await rejection(running);
    const latency = performance.now() - abortedAt;
    console.log(`1,000,000-triangle STL import cancelled after ${reports} progress reports; stopped ${latency.toFixed(0)} ms after the abort`);
    expect(abortedAt).toBeGreaterThan(0);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).code).toBe('aborted');
    expect((err as ImportError).message).toBe('grid-1m.stl: import was cancelled');
    expect(latency).toBeLessThan(1000);
  });

  it('cancelling its tree build stops it within 1 s', async () => {
    const result = await createImporter()(new Uint8Array(readFileSync(file)), 'grid-1m.stl');
    const body = result.bodies[0];
    const controller = new AbortController();
    let abortedAt = 0;
    const building = pool.buildTrees([{ meshId: 'grid', positions: body.positions, indices: body.indices }], {
      signal: controller.signal,
      onProgress: (done) => {
        if (done === 0) {
          setTimeout(() => {
            abortedAt = performance.now();
            controller.abort();
          }, 100);
        }
      },
    });
    const err = await rejection(building);
    const latency = performance.now() - abortedAt;
    console.log(`1,000,000-triangle tree build cancelled; stopped ${latency.toFixed(0)} ms after the abort`);
    expect(abortedAt).toBeGreaterThan(0);
    expect((err as Error).name).toBe('AbortError');
    expect(latency).toBeLessThan(1000);
  });
});

describe('OpenCascade in its worker: time limit and cancellation', () => {
  const log: string[] = [];
  const occt = createOcctWorkerProvider({ log: (m) => log.push(m) });
  const sample = new Uint8Array(readFileSync(SAMPLE));

  afterAll(async () => {
    await occt.dispose();
  });

  it('a tiny cadTimeoutMs stops the read with code timeout, naming the file and how to raise the limit; the next import works', async () => {
    const tight = createImporter({ occt, limits: { cadTimeoutMs: 50 } });
    const started = performance.now();
    const err = await rejection(tight(sample, 'as1-oc-214.stp'));
    const elapsed = performance.now() - started;
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).code).toBe('timeout');
    expect((err as ImportError).message).toBe(
      'as1-oc-214.stp: OpenCascade did not finish reading this STEP file within 50 ms, the time limit for CAD import, ' +
      "and was stopped; raise it with 'interfere check --import-timeout SECONDS', or the import limit 'cadTimeoutMs'",
    );
    expect(elapsed).toBeLessThan(30_000); // starting the worker, then 50 ms of reading
    expect(occt.stats.timeouts).toBe(1);
    expect(log.some((line) => line.includes('as1-oc-214.stp: stopped OpenCascade after 50 ms'))).toBe(true);

    // The worker was ended; the next import starts a fresh one and succeeds.
    const workersBefore = occt.stats.workersStarted;
    const result = await createImporter({ occt })(sample, 'as1-oc-214.stp');
    expect(expectValidResult(result)).toEqual({ bodies: 18, triangles: 5040 });
    expect(occt.stats.workersStarted).toBe(workersBefore + 1);
  });

  it('a time limit beyond the longest timer (Infinity included) means no limit, not an immediate timeout', async () => {
    // Node fires a timer longer than 2^31 − 1 ms after 1 ms.
    for (const cadTimeoutMs of [Infinity, 3e9]) {
      const result = await createImporter({ occt, limits: { cadTimeoutMs } })(sample, 'as1-oc-214.stp');
      expect(result.bodies.length).toBe(18);
    }
  });

  it('cancelling a STEP import stops OpenCascade within 1 s; the next import works', async () => {
    const importer = createImporter({ occt });
    await importer(sample, 'as1-oc-214.stp'); // the worker is up and OpenCascade initialised
    const shell = new Uint8Array(readFileSync(path.join(DATA, 'endgame-trackball/FDM_shell.step'))); // about 9 s to read
    const controller = new AbortController();
    const abortsBefore = occt.stats.aborts;
    let abortedAt = 0;
    const running = importer(shell, 'FDM_shell.step', {
      signal: controller.signal,
      onProgress: (done) => {
        // done = 0: OpenCascade is about to read; let it get well into the file.
        if (done === 0) {
          setTimeout(() => {
            abortedAt = performance.now();
            controller.abort();
          }, 500);
        }
      },
    });
    const err = await rejection(running);
    const latency = performance.now() - abortedAt;
    console.log(`STEP import (FDM_shell.step) cancelled while OpenCascade read it; stopped ${latency.toFixed(0)} ms after the abort`);
    expect(abortedAt).toBeGreaterThan(0);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).code).toBe('aborted');
    expect((err as ImportError).message).toBe('FDM_shell.step: import was cancelled');
    expect(latency).toBeLessThan(1000);
    expect(occt.stats.aborts).toBe(abortsBefore + 1);

    const result = await importer(sample, 'as1-oc-214.stp');
    expect(result.bodies.length).toBe(18);
  });
});
