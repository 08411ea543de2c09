/**
 * Default triangle limits come from the machine's memory, so that no input the defaults accept
 * needs more memory than the machine has; `--max-triangles` still overrides them; `--jobs` is
 * capped at the core count with a note; a binary STL beyond the limits is refused from its count,
 * before it is read.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BYTES_PER_TRIANGLE, DEFAULT_IMPORT_LIMITS, memoryTriangleLimits } from '../../src-core/io/limits.js';
import { ImportError } from '../../src-core/io/types.js';
import { readModelFile } from '../../src-main/services/documents.js';
import { createImporter, machineMemoryBytes } from '../../src-main/services/importers.js';
import { tempDir } from './host/helpers.js';

const ROOT = process.cwd();
const CLI = path.join(ROOT, 'src-main/cli/interfere.ts');
const CUBE = path.join(ROOT, 'test/data/stl-models/polytopes/cube.bin.stl');
/** Peak memory per triangle measured on two overlapping spheres of 1,998,000 triangles (see limits.ts). */
const MEASURED_BYTES_PER_TRIANGLE = 510;

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A sparse binary STL whose header declares `count` triangles and whose size fits it. */
function sparseBinaryStl(file: string, count: number): void {
  const header = new Uint8Array(84);
  header.set(new TextEncoder().encode('binary STL declaring many triangles'));
  new DataView(header.buffer).setUint32(80, count, true);
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, header);
    ftruncateSync(fd, 84 + 50 * count);
  } finally {
    closeSync(fd);
  }
}

describe('triangle limits from the machine memory', () => {
  it('is 3/4 of the memory at BYTES_PER_TRIANGLE a triangle, never above the fixed defaults', () => {
    expect(BYTES_PER_TRIANGLE).toBeGreaterThanOrEqual(MEASURED_BYTES_PER_TRIANGLE);
    expect(memoryTriangleLimits(24 * 1024 ** 3)).toEqual({ maxTrianglesPerBody: 32_212_254, maxTrianglesPerAssembly: 32_212_254 });
    expect(memoryTriangleLimits(64 * 1024 ** 3)).toEqual({ maxTrianglesPerBody: 50_000_000, maxTrianglesPerAssembly: 85_899_345 });
    expect(memoryTriangleLimits(1024 ** 4)).toEqual({ maxTrianglesPerBody: 50_000_000, maxTrianglesPerAssembly: 100_000_000 });
    expect(memoryTriangleLimits(0)).toEqual({ maxTrianglesPerBody: 1, maxTrianglesPerAssembly: 1 });
  });

  it('the default importer accepts no input that needs more memory than this machine has', () => {
    const memory = machineMemoryBytes();
    expect(memory).toBeLessThanOrEqual(os.totalmem());
    const limits = createImporter({ cad: 'in-thread' }).limits;
    expect(limits.maxTrianglesPerAssembly * MEASURED_BYTES_PER_TRIANGLE).toBeLessThanOrEqual(memory);
    expect(limits.maxTrianglesPerBody * MEASURED_BYTES_PER_TRIANGLE).toBeLessThanOrEqual(memory);
    expect(limits).toMatchObject(memoryTriangleLimits(memory));
    expect(limits.maxFileBytes).toBe(DEFAULT_IMPORT_LIMITS.maxFileBytes);
  });

  it('explicit limits override the machine defaults', () => {
    const limits = createImporter({ cad: 'in-thread', limits: { maxTrianglesPerBody: 60_000_000, maxTrianglesPerAssembly: 120_000_000, cadTimeoutMs: undefined } }).limits;
    expect(limits.maxTrianglesPerBody).toBe(60_000_000);
    expect(limits.maxTrianglesPerAssembly).toBe(120_000_000);
    expect(limits.cadTimeoutMs).toBe(DEFAULT_IMPORT_LIMITS.cadTimeoutMs);
  });

  it('refuses a binary STL declaring more triangles than the limit from its count, before reading it', async () => {
    const importer = createImporter({ cad: 'in-thread' });
    const max = importer.limits.maxTrianglesPerBody;
    const file = path.join(tempDir('limits-memory'), 'many.stl');
    sparseBinaryStl(file, max + 1);
    const rss0 = process.memoryUsage().rss;
    let error: unknown = null;
    await readModelFile(file, importer).catch((e: unknown) => (error = e));
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).code).toBe('too-large');
    expect((error as ImportError).message).toBe(`${file}: binary STL has ${(max + 1).toLocaleString('en-US')} triangles, more than the limit of ` +
      `${max.toLocaleString('en-US')} triangles per body; raise it with 'interfere check --max-triangles N', or the import limit 'maxTrianglesPerBody'`);
    expect(process.memoryUsage().rss - rss0).toBeLessThan(256 * 1024 * 1024);
  });
});

describe('interfere check: --max-triangles default and --jobs cap', () => {
  it('--help states the default of this machine and the formula', () => {
    const limits = memoryTriangleLimits(machineMemoryBytes());
    const help = run(['--help']);
    expect(help.status).toBe(0);
    const text = help.stdout.replace(/\s+/g, ' ');
    expect(text).toContain(`Default: what 3/4 of this machine's memory holds at ${BYTES_PER_TRIANGLE} bytes a triangle (import, trees and check), ` +
      `at most 50,000,000 per body and 100,000,000 in all: ${limits.maxTrianglesPerBody.toLocaleString('en-US')} and ` +
      `${limits.maxTrianglesPerAssembly.toLocaleString('en-US')} here`);
    const cores = os.availableParallelism();
    expect(text).toContain('(most: one per core; default: one per core on more than two cores, else 1; ' +
      `${cores <= 2 ? 1 : cores} here; 1 builds in this process)`);
  }, 60_000);

  it('caps --jobs at the core count with a note on standard error', () => {
    const cores = os.availableParallelism();
    const r = run(['check', CUBE, '--jobs', String(cores + 58), '--quiet']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(`interfere: --jobs ${cores + 58} is more than the ${cores} cores of this machine; using ${cores}\n`);
    const fine = run(['check', CUBE, '--jobs', String(cores), '--quiet']);
    expect(fine.status).toBe(0);
    expect(fine.stderr).toBe('');
  }, 120_000);
});
