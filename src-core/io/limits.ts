/**
 * Resource limits of importing, in one place: how large a file, how many triangles, how long
 * OpenCascade may take. A file beyond a limit is refused with an ImportError ('too-large' or
 * 'timeout') whose message names the file, the limit and how to raise it.
 *
 * | limit                     | default       | enforced by                                        |
 * |---------------------------|---------------|----------------------------------------------------|
 * | maxFileBytes              | 2 GiB         | the registry and every importer, before reading    |
 * | maxTrianglesPerBody       | 50,000,000 *  | STL: from the binary count / while parsing ASCII;  |
 * |                           |               | CAD: every body OpenCascade returns                |
 * | maxTrianglesPerAssembly   | 100,000,000 * | all bodies of one file; assemblyTriangleProblem()  |
 * |                           |               | for the sources of a saved assembly together       |
 * | cadTimeoutMs              | 300 s         | the host's OpenCascade worker (src-main/services/  |
 * |                           |               | occtWorker.ts), which is stopped at the limit      |
 *
 * (*) At most: hosts lower both to what the machine's memory holds (memoryTriangleLimits).
 *
 * The command line raises them with `--max-triangles N` (triangles per body, and per assembly when
 * N is larger) and `--import-timeout S`; the app and other hosts pass `limits` to createImporter.
 * Files are read by the host in chunks into one buffer of the file's size (src-main/services/files.ts),
 * checked against maxFileBytes before reading.
 * No limit can exceed MAX_TRIANGLES (32-bit tree node indices).
 */
import { MAX_TRIANGLES } from '../geometry/mesh.js';
import { ImportError, groupDigits, plural } from './types.js';
import type { ImportOptions } from './types.js';

export interface ImportLimits {
  /** Largest file accepted, bytes. */
  readonly maxFileBytes: number;
  /** Most triangles in one body (an STL file; one OpenCascade mesh). */
  readonly maxTrianglesPerBody: number;
  /** Most triangles in all bodies of one file, and in all sources of an assembly together. */
  readonly maxTrianglesPerAssembly: number;
  /**
   * Longest time OpenCascade may spend on one STEP, IGES or BREP file, milliseconds. Values beyond
   * 2^31 − 1 (about 24.8 days, the longest timer Node has), Infinity included, mean no limit.
   */
  readonly cadTimeoutMs: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = Object.freeze({
  maxFileBytes: 2 * 1024 ** 3,
  maxTrianglesPerBody: 50_000_000,
  maxTrianglesPerAssembly: 100_000_000,
  cadTimeoutMs: 300_000,
});

/**
 * Memory one triangle takes at the peak of a check, bytes: the file's bytes (50 for binary STL),
 * the triangle soup (72), welded positions and indices (about 24), the mesh's and the tree's
 * arrays and the tree build's scratch (about 150), and the exact intersection and overlap
 * volume of the pairs (the rest). Measured: 2,135 MiB peak RSS for two overlapping spheres of
 * 1,998,000 triangles each (`interfere check --jobs 1`), 510 bytes a triangle over the 90 MiB of
 * an idle process; rounded up to 600 for what the measurement did not exercise.
 */
export const BYTES_PER_TRIANGLE = 600;

/** Share of the machine's memory the default triangle limits let one check take. */
export const MEMORY_SHARE = 0.75;

/**
 * The triangle limits for a machine with `memoryBytes` of memory: as many triangles as
 * MEMORY_SHARE of it holds at BYTES_PER_TRIANGLE each, per body and per assembly, but never more
 * than DEFAULT_IMPORT_LIMITS' (on a machine of 24 GiB: 32,212,254 triangles). The host computes
 * the machine's memory (src-main/services/importers.ts); explicit limits override these.
 */
export function memoryTriangleLimits(memoryBytes: number): Pick<ImportLimits, 'maxTrianglesPerBody' | 'maxTrianglesPerAssembly'> {
  const fit = Math.max(1, Math.floor((memoryBytes * MEMORY_SHARE) / BYTES_PER_TRIANGLE));
  return {
    maxTrianglesPerBody: Math.min(DEFAULT_IMPORT_LIMITS.maxTrianglesPerBody, fit),
    maxTrianglesPerAssembly: Math.min(DEFAULT_IMPORT_LIMITS.maxTrianglesPerAssembly, fit),
  };
}

/** How to raise each limit, for messages. */
export const LIMIT_HINTS: Readonly<Record<keyof ImportLimits, string>> = Object.freeze({
  maxFileBytes: "the import limit 'maxFileBytes'",
  maxTrianglesPerBody: "'interfere check --max-triangles N', or the import limit 'maxTrianglesPerBody'",
  maxTrianglesPerAssembly: "'interfere check --max-triangles N', or the import limit 'maxTrianglesPerAssembly'",
  cadTimeoutMs: "'interfere check --import-timeout SECONDS', or the import limit 'cadTimeoutMs'",
});

/**
 * The defaults with `overrides` applied (undefined entries are ignored). Throws RangeError for a
 * limit that is not a positive number, or a triangle limit above MAX_TRIANGLES.
 */
export function resolveImportLimits(overrides: Partial<ImportLimits> = {}): ImportLimits {
  const out: { -readonly [K in keyof ImportLimits]: number } = { ...DEFAULT_IMPORT_LIMITS };
  for (const key of Object.keys(DEFAULT_IMPORT_LIMITS) as (keyof ImportLimits)[]) {
    const v = overrides[key];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !(v > 0) || Number.isNaN(v)) {
      throw new RangeError(`import limit '${key}' must be a positive number, got ${String(v)}`);
    }
    if ((key === 'maxTrianglesPerBody' || key === 'maxTrianglesPerAssembly') && v > MAX_TRIANGLES) {
      throw new RangeError(`import limit '${key}' cannot exceed ${groupDigits(MAX_TRIANGLES)} triangles, got ${groupDigits(v)}`);
    }
    out[key] = v;
  }
  return Object.freeze(out);
}

/** "2 GiB", "512 MiB", "1,234 bytes". */
export function formatBytes(n: number): string {
  const units: [number, string][] = [[1024 ** 3, 'GiB'], [1024 ** 2, 'MiB'], [1024, 'KiB']];
  for (const [size, unit] of units) {
    if (n >= size) {
      const v = n / size;
      return `${Number.isInteger(v) ? v : v.toFixed(1)} ${unit}`;
    }
  }
  return plural(n, 'byte');
}

/** "300 s", "1.5 s", "250 ms". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** The problem (no file name) for a file larger than the limit, or null. */
export function fileSizeProblem(size: number, limits: ImportLimits): string | null {
  if (size <= limits.maxFileBytes) return null;
  const exact = size >= 1024 ? ` (${plural(size, 'byte')})` : '';
  return `the file has ${formatBytes(size)}${exact}, more than the limit of ${formatBytes(limits.maxFileBytes)}; ` +
    `raise it with ${LIMIT_HINTS.maxFileBytes}`;
}

/** The problem for one body of `count` triangles beyond the per-body limit, or null. */
export function bodyTriangleProblem(count: number, limits: ImportLimits, what = 'the body'): string | null {
  if (count <= limits.maxTrianglesPerBody) return null;
  return `${what} has ${count > Number.MAX_SAFE_INTEGER ? 'too many triangles' : plural(count, 'triangle')}, more than the limit of ` +
    `${groupDigits(limits.maxTrianglesPerBody)} triangles per body; raise it with ${LIMIT_HINTS.maxTrianglesPerBody}`;
}

/**
 * The problem for bodies of `count` triangles together beyond the per-assembly limit, or null.
 * `what` names the whole ('the file', 'the assembly's sources').
 */
export function assemblyTriangleProblem(count: number, limits: ImportLimits, what = 'the file'): string | null {
  if (count <= limits.maxTrianglesPerAssembly) return null;
  return `${what} ${what === 'the file' ? 'has' : 'have'} ${plural(count, 'triangle')} in all, more than the limit of ` +
    `${groupDigits(limits.maxTrianglesPerAssembly)} triangles per assembly; raise it with ${LIMIT_HINTS.maxTrianglesPerAssembly}`;
}

/** The problem for a CAD read stopped at the time limit. */
export function timeoutProblem(label: string, limits: ImportLimits): string {
  return `OpenCascade did not finish reading this ${label} file within ${formatDuration(limits.cadTimeoutMs)}, ` +
    `the time limit for CAD import, and was stopped; raise it with ${LIMIT_HINTS.cadTimeoutMs}`;
}

/** The limits an import runs under: ImportOptions.limits over the defaults, and its maxTriangles. */
export interface EffectiveLimits extends ImportLimits {
  /** ImportOptions.maxTriangles, or Infinity: applies to a body and to the file's total alike. */
  readonly callerMaxTriangles: number;
}

/** The limits of one import. Throws RangeError for an invalid limit (the caller's mistake). */
export function limitsOf(options: ImportOptions = {}): EffectiveLimits {
  const limits = resolveImportLimits(options.limits);
  const m = options.maxTriangles;
  if (m !== undefined && !(typeof m === 'number' && m >= 0)) throw new RangeError(`maxTriangles must be a number ≥ 0, got ${String(m)}`);
  return { ...limits, callerMaxTriangles: m ?? Infinity };
}

/** Most triangles one body may have under these limits. */
export function maxBodyTriangles(limits: EffectiveLimits): number {
  return Math.min(limits.maxTrianglesPerBody, limits.maxTrianglesPerAssembly, limits.callerMaxTriangles, MAX_TRIANGLES);
}

/** Throws ImportError 'too-large' when the file is larger than maxFileBytes. */
export function checkFileSize(size: number, fileName: string, limits: ImportLimits): void {
  const problem = fileSizeProblem(size, limits);
  if (problem !== null) throw new ImportError('too-large', fileName, problem);
}

/**
 * Throws ImportError 'too-large' when one body has more triangles than allowed. `what` names it
 * ('binary STL', "body 3 ('nut')"); `line` is for text formats.
 */
export function checkBodyTriangles(count: number, fileName: string, limits: EffectiveLimits, what: string, line?: number): void {
  const details = line === undefined ? {} : { line };
  const at = line === undefined ? '' : `line ${line}: `;
  if (count > limits.callerMaxTriangles) {
    throw new ImportError('too-large', fileName, `${at}${what} has ${plural(count, 'triangle')}; at most ${groupDigits(limits.callerMaxTriangles)} are allowed`, details);
  }
  const problem = bodyTriangleProblem(count, limits, what) ??
    (limits.maxTrianglesPerAssembly < limits.maxTrianglesPerBody ? assemblyTriangleProblem(count, limits) : null) ??
    (count > MAX_TRIANGLES ? `${what} has ${plural(count, 'triangle')}; at most ${groupDigits(MAX_TRIANGLES)} are supported` : null);
  if (problem !== null) throw new ImportError('too-large', fileName, `${at}${problem}`, details);
}

/** Throws ImportError 'too-large' when all bodies of the file together have too many triangles. */
export function checkFileTriangles(count: number, fileName: string, limits: EffectiveLimits): void {
  if (count > limits.callerMaxTriangles) {
    throw new ImportError('too-large', fileName, `the file has ${plural(count, 'triangle')}; at most ${groupDigits(limits.callerMaxTriangles)} are allowed`);
  }
  const problem = assemblyTriangleProblem(count, limits);
  if (problem !== null) throw new ImportError('too-large', fileName, problem);
}
