/**
 * Shared by the importer fuzz tests (fuzzStl.test.ts here, test/main/io/fuzzCad.test.ts) and the
 * regression corpus (regressions.test.ts, test/fixtures/regressions): mutations of real files as
 * plain records (so that fast-check prints a readable counterexample and the regression folder
 * can name what produced an input), and the one property every import must have: it succeeds
 * with valid meshes, or fails with an ImportError of a documented code whose message names the
 * file — never another exception, never a hang, and memory within bounds.
 *
 * Memory bound (documented in the fuzz tests): after an import, the JS heap plus ArrayBuffer
 * memory of this process has grown by at most MEMORY_FACTOR × the file's size + MEMORY_SLACK.
 * The importers' honest peak is about 4–5 × a binary STL's size (float64 triangle soup, weld
 * table, welded arrays) and under 2 × an ASCII STL's; garbage not yet collected counts too, hence
 * the generous factor. OpenCascade runs in a worker thread whose memory is its own: for CAD files
 * the bound covers what comes back (the meshes) and the process's resident set.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { createMesh } from '../../../src-core/geometry/mesh.js';
import { ImportError } from '../../../src-core/io/types.js';
import type { ImportErrorCode, ImportResult } from '../../../src-core/io/types.js';

export const DATA = path.resolve(process.cwd(), 'test/data');

export function readData(rel: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(DATA, rel)));
}

/** Every ImportErrorCode (the record makes the compiler check that none is missing). */
const CODES: Record<ImportErrorCode, true> = {
  'empty-file': true,
  truncated: true,
  'count-mismatch': true,
  'not-stl': true,
  'unknown-format': true,
  'non-finite-coordinate': true,
  'no-triangles': true,
  'parse-error': true,
  'wrong-vertex-count': true,
  'too-large': true,
  'unreadable-cad': true,
  'no-bodies': true,
  aborted: true,
  timeout: true,
};
export const DOCUMENTED_CODES: readonly ImportErrorCode[] = Object.keys(CODES) as ImportErrorCode[];

export const MEMORY_FACTOR = 32;
export const MEMORY_SLACK = 96 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Mutations

/** Positions are fractions of the file (0..1) so that one record applies to any file. */
export type Mutation =
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'flip'; readonly flips: readonly (readonly [number, number])[] }
  | { readonly kind: 'splice'; readonly other: number; readonly at: number; readonly otherAt: number }
  | { readonly kind: 'stl-count'; readonly count: number }
  | { readonly kind: 'number'; readonly which: number; readonly value: string }
  | { readonly kind: 'garbage'; readonly keep: number; readonly length: number; readonly seed: number }
  | { readonly kind: 'repeat'; readonly at: number; readonly times: number; readonly token: string }
  | { readonly kind: 'repeat-line'; readonly which: number; readonly times: number }
  | { readonly kind: 'eol'; readonly mode: 'crlf' | 'lf' | 'cr' | 'mixed'; readonly seed: number }
  | { readonly kind: 'nul'; readonly at: number; readonly count: number }
  | { readonly kind: 'delete'; readonly at: number; readonly length: number }
  | { readonly kind: 'duplicate'; readonly at: number; readonly length: number }
  | { readonly kind: 'delete-lines'; readonly which: number; readonly count: number }
  | { readonly kind: 'entity'; readonly which: number; readonly value: EntityValue };

/**
 * What an entity number or reference becomes (the 'entity' mutation): a given number, or the
 * original shifted by `delta` (a neighbour, or the entity itself when the reference sits inside
 * its own definition: a cycle).
 */
export type EntityValue = { readonly to: number } | { readonly delta: number };

/** Numbers that break naive readers. */
export const HOSTILE_NUMBERS = [
  'NaN', 'nan', '-nan', 'Infinity', '-Infinity', 'inf', '-inf', '1.#INF', '1e300', '-1e300', '1e308', '1.7976931348623157e308',
  '1e309', '-1e309', '1e-400', '-0', '-0.0', '0e999999999', '1e999999999', '1e-999999999', '1e+99999999999999999999',
  '123456789012345678901234567890123456789', '0.' + '0'.repeat(400) + '1', '1' + '0'.repeat(400), '1e', '1e+', '+-1', '--1',
  '.', '-.', '1.2.3', '0x10', '1_000', '١٢٣', '1e22', '4.9e-324', '2.2250738585072014e-308',
] as const;

/** Tokens repeated many times in a row. */
export const REPEATED_TOKENS = [
  'solid ', 'facet ', 'endsolid x\n', 'vertex 1 2 3\n', 'outer loop\n', 'endloop\n', '#', '(', ')', ',', '((', '#1=', "'", '/*',
  'ENDSEC;\n', 'DATA;\n', '#1=CARTESIAN_POINT(\'\',(0.,0.,0.));\n', 'Ve\n', 'Fa\n', 'TShapes 5\n', '+1 0 ', '1H,', 'S      1\n',
] as const;

/** A position in a file as a fraction 0..1 (integers scaled: fast-check's doubles crowd near 0 and 1). */
export function fraction(): Arbitrary<number> {
  return fc.integer({ min: 0, max: 1_000_000 }).map((k) => k / 1_000_000);
}

/**
 * Entity numbers and references: 0, 1, numbers beyond 32 bits, and near neighbours (dangling,
 * duplicate and cyclic references).
 */
export function entityValueArb(): Arbitrary<EntityValue> {
  return fc.oneof(
    fc.record({ to: fc.oneof(fc.constantFrom(0, 1, 2, 3, 0x7fffffff, 0x80000000, 0xffffffff, 99_999_999_999), fc.nat({ max: 5000 })) }),
    fc.record({ delta: fc.oneof(fc.constantFrom(-1, 1, -2, 2), fc.integer({ min: -500, max: 500 })) }),
  );
}

/**
 * Mutations of any file; `stl` adds a binary STL's triangle count; `cad` adds deleting whole
 * lines and changing entity numbers (STEP `#n`, IGES and BREP integers).
 */
export function mutationArb(files: number, options: { stl?: boolean; cad?: boolean } = {}): Arbitrary<Mutation> {
  const frac = fraction();
  const all: Arbitrary<Mutation>[] = [
    fc.record({ kind: fc.constant('truncate' as const), at: frac }),
    fc.record({
      kind: fc.constant('flip' as const),
      flips: fc.array(fc.tuple(frac, fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 24 }),
    }),
    fc.record({ kind: fc.constant('splice' as const), other: fc.nat({ max: Math.max(0, files - 1) }), at: frac, otherAt: frac }),
    fc.record({ kind: fc.constant('number' as const), which: frac, value: fc.oneof(fc.constantFrom(...HOSTILE_NUMBERS), fc.double().map(String)) }),
    fc.record({ kind: fc.constant('garbage' as const), keep: fc.integer({ min: 0, max: 600 }), length: fc.integer({ min: 0, max: 4096 }), seed: fc.nat() }),
    fc.record({ kind: fc.constant('repeat' as const), at: frac, times: fc.integer({ min: 2, max: 20_000 }), token: fc.constantFrom(...REPEATED_TOKENS) }),
    fc.record({ kind: fc.constant('repeat-line' as const), which: frac, times: fc.integer({ min: 2, max: 5_000 }) }),
    fc.record({ kind: fc.constant('eol' as const), mode: fc.constantFrom('crlf' as const, 'lf' as const, 'cr' as const, 'mixed' as const), seed: fc.nat() }),
    fc.record({ kind: fc.constant('nul' as const), at: frac, count: fc.integer({ min: 1, max: 64 }) }),
    fc.record({ kind: fc.constant('delete' as const), at: frac, length: fc.integer({ min: 1, max: 256 }) }),
    fc.record({ kind: fc.constant('duplicate' as const), at: frac, length: fc.integer({ min: 1, max: 512 }) }),
  ];
  if (options.stl) {
    all.push(fc.record({
      kind: fc.constant('stl-count' as const),
      count: fc.oneof(fc.constantFrom(0, 1, 2, 0xffffffff, 0x7fffffff, 0x80000000, 0x3fffffff, 0x40000000, 50_000_001), fc.nat()),
    }));
  }
  if (options.cad) {
    all.push(
      fc.record({ kind: fc.constant('delete-lines' as const), which: frac, count: fc.integer({ min: 1, max: 20 }) }),
      fc.record({ kind: fc.constant('entity' as const), which: frac, value: entityValueArb() }),
    );
  }
  return fc.oneof(...all);
}

/** A small deterministic generator (mulberry32) for mutations that need many random values. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

const ascii = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));
const pos = (bytes: Uint8Array, f: number): number => Math.min(bytes.length, Math.floor(f * bytes.length));

/** Number tokens (bounded by blanks, commas or parentheses) as [start, end) pairs. */
function numberTokens(bytes: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  const text = Buffer.from(bytes).toString('latin1');
  const re = /(?<=[\s,(=])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][-+]?\d+)?(?=[\s,);])/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push([m.index, m.index + m[0].length]);
    if (out.length >= 200_000) break;
  }
  return out;
}

/**
 * Entity numbers as [start, end) pairs of their digits: STEP's `#n` (definitions and references)
 * when the file has any, else unsigned integers standing alone (IGES pointers and counts, BREP
 * shape and location references).
 */
function entityTokens(bytes: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  const text = Buffer.from(bytes).toString('latin1');
  for (const re of [/(?<=#)\d+/g, /(?<=[\s,(=+-])\d+(?=[\s,;)*])/g]) {
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      out.push([m.index, m.index + m[0].length]);
      if (out.length >= 200_000) break;
    }
    if (out.length > 0) break;
  }
  return out;
}

/** Line starts (after LF, CR LF or lone CR). */
function lineRanges(bytes: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) {
      out.push([start, i + 1]);
      start = i + 1;
    }
  }
  if (start < bytes.length) out.push([start, bytes.length]);
  return out;
}

/** Applies one mutation; `others` are the files a splice may take its tail from. */
export function mutate(bytes: Uint8Array, m: Mutation, others: readonly Uint8Array[]): Uint8Array {
  switch (m.kind) {
    case 'truncate':
      return bytes.slice(0, pos(bytes, m.at));
    case 'flip': {
      const out = bytes.slice();
      if (out.length === 0) return out;
      for (const [f, x] of m.flips) out[Math.min(out.length - 1, Math.floor(f * out.length))] ^= x;
      return out;
    }
    case 'splice': {
      const other = others.length > 0 ? others[m.other % others.length] : bytes;
      return concat(bytes.subarray(0, pos(bytes, m.at)), other.subarray(pos(other, m.otherAt)));
    }
    case 'stl-count': {
      const out = bytes.length >= 84 ? bytes.slice() : concat(bytes, new Uint8Array(84 - bytes.length));
      new DataView(out.buffer).setUint32(80, m.count >>> 0, true);
      return out;
    }
    case 'number': {
      const tokens = numberTokens(bytes);
      if (tokens.length === 0) return bytes;
      const [a, b] = tokens[Math.min(tokens.length - 1, Math.floor(m.which * tokens.length))];
      return concat(bytes.subarray(0, a), ascii(m.value), bytes.subarray(b));
    }
    case 'garbage': {
      const r = rng(m.seed);
      const tail = new Uint8Array(m.length);
      for (let i = 0; i < tail.length; i++) tail[i] = Math.floor(r() * 256);
      return concat(bytes.subarray(0, Math.min(bytes.length, m.keep)), tail);
    }
    case 'repeat': {
      const at = pos(bytes, m.at);
      return concat(bytes.subarray(0, at), ascii(m.token.repeat(m.times)), bytes.subarray(at));
    }
    case 'repeat-line': {
      const lines = lineRanges(bytes);
      if (lines.length === 0) return bytes;
      const [a, b] = lines[Math.min(lines.length - 1, Math.floor(m.which * lines.length))];
      const line = bytes.subarray(a, b);
      const parts: Uint8Array[] = [bytes.subarray(0, b)];
      for (let i = 1; i < m.times; i++) parts.push(line);
      parts.push(bytes.subarray(b));
      return concat(...parts);
    }
    case 'eol': {
      const r = rng(m.seed);
      const text = Buffer.from(bytes).toString('latin1');
      const pick = (): string => (m.mode === 'crlf' ? '\r\n' : m.mode === 'lf' ? '\n' : m.mode === 'cr' ? '\r' : ['\r\n', '\n', '\r', '\n\r'][Math.floor(r() * 4)]);
      return ascii(text.replace(/\r\n|\n|\r/g, () => pick()));
    }
    case 'nul': {
      const at = pos(bytes, m.at);
      return concat(bytes.subarray(0, at), new Uint8Array(m.count), bytes.subarray(at));
    }
    case 'delete': {
      const at = pos(bytes, m.at);
      return concat(bytes.subarray(0, at), bytes.subarray(Math.min(bytes.length, at + m.length)));
    }
    case 'duplicate': {
      const at = pos(bytes, m.at);
      return concat(bytes.subarray(0, Math.min(bytes.length, at + m.length)), bytes.subarray(at));
    }
    case 'delete-lines': {
      const lines = lineRanges(bytes);
      if (lines.length === 0) return bytes;
      const first = Math.min(lines.length - 1, Math.floor(m.which * lines.length));
      const last = Math.min(lines.length - 1, first + m.count - 1);
      return concat(bytes.subarray(0, lines[first][0]), bytes.subarray(lines[last][1]));
    }
    case 'entity': {
      const tokens = entityTokens(bytes);
      if (tokens.length === 0) return bytes;
      const [a, b] = tokens[Math.min(tokens.length - 1, Math.floor(m.which * tokens.length))];
      const old = Number(Buffer.from(bytes.subarray(a, b)).toString('latin1'));
      const value = 'to' in m.value ? m.value.to : Math.max(0, old + m.value.delta);
      return concat(bytes.subarray(0, a), ascii(String(value)), bytes.subarray(b));
    }
  }
}

export function mutateAll(bytes: Uint8Array, ms: readonly Mutation[], others: readonly Uint8Array[]): Uint8Array {
  return ms.reduce((b, m) => mutate(b, m, others), bytes);
}

// ---------------------------------------------------------------------------------------------
// The property

export type Outcome = { readonly ok: true; readonly bodies: number; readonly triangles: number } | { readonly ok: false; readonly code: ImportErrorCode };

/** Checks an import result: every body a valid mesh (createMesh accepts it), finite, in range. */
export function expectValidResult(result: ImportResult): { bodies: number; triangles: number } {
  expect(result.bodies.length).toBeGreaterThan(0);
  expect(Array.isArray(result.warnings)).toBe(true);
  let triangles = 0;
  for (const body of result.bodies) {
    expect(body.positions).toBeInstanceOf(Float64Array);
    expect(body.indices).toBeInstanceOf(Uint32Array);
    expect(body.indices.length).toBe(3 * body.triangleCount);
    const vertexCount = body.positions.length / 3;
    for (let i = 0; i < body.positions.length; i++) {
      if (!Number.isFinite(body.positions[i])) expect.fail(`body '${body.name}': coordinate ${i} is ${body.positions[i]}`);
    }
    for (let i = 0; i < body.indices.length; i++) {
      if (body.indices[i] >= vertexCount) expect.fail(`body '${body.name}': index ${i} = ${body.indices[i]} ≥ ${vertexCount} vertices`);
    }
    if (body.triangleCount > 0) createMesh(body.positions, body.indices); // throws MeshError when invalid
    if (body.faceRanges !== null) {
      expect(body.faceRanges.length % 2).toBe(0);
      let next = 0;
      for (let k = 0; k < body.faceRanges.length; k += 2) {
        expect(body.faceRanges[k]).toBe(next);
        expect(body.faceRanges[k + 1]).toBeGreaterThanOrEqual(body.faceRanges[k]);
        next = body.faceRanges[k + 1] + 1;
      }
      expect(next).toBe(body.triangleCount);
    }
    if (body.chordErrorMm !== undefined && body.chordErrorMm !== null) {
      expect(body.chordErrorMm.length).toBe(body.triangleCount);
      for (const e of body.chordErrorMm) if (!(e >= 0 && Number.isFinite(e))) expect.fail(`body '${body.name}': chordal error ${e}`);
    }
    triangles += body.triangleCount;
  }
  expect(triangles).toBeGreaterThan(0);
  return { bodies: result.bodies.length, triangles };
}

/** Checks a failure: an ImportError of a documented code whose message names the file. */
export function expectImportFailure(err: unknown, fileName: string): ImportErrorCode {
  if (!(err instanceof ImportError)) {
    expect.fail(`expected an ImportError, got ${err instanceof Error ? `${err.name}: ${err.message}\n${err.stack ?? ''}` : String(err)}`);
  }
  expect(DOCUMENTED_CODES).toContain(err.code);
  expect(err.fileName).toBe(fileName);
  expect(err.message.startsWith(`${fileName}: `), err.message).toBe(true);
  expect(err.problem.length).toBeGreaterThan(0);
  return err.code;
}

function memoryNow(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/**
 * Runs one import and checks the property: valid result or documented ImportError, within
 * `timeLimitMs` and the memory bound. Returns the outcome for tallies.
 */
export async function checkImport(
  run: () => Promise<ImportResult>,
  fileName: string,
  size: number,
  timeLimitMs: number,
): Promise<Outcome> {
  const before = memoryNow();
  const t0 = performance.now();
  let outcome: Outcome;
  let result: ImportResult | null = null;
  try {
    result = await run();
    outcome = { ok: true, ...expectValidResult(result) };
  } catch (err) {
    outcome = { ok: false, code: expectImportFailure(err, fileName) };
  }
  const elapsed = performance.now() - t0;
  expect(elapsed, `${fileName}: took ${Math.round(elapsed)} ms`).toBeLessThan(timeLimitMs);
  const grown = memoryNow() - before;
  expect(grown, `${fileName}: memory grew by ${grown} bytes for a file of ${size}`).toBeLessThan(MEMORY_FACTOR * size + MEMORY_SLACK);
  void result; // kept alive until the measurement
  return outcome;
}

/** Counts outcomes by kind ('ok' or the error code), for the tests' summary lines. */
export class Tally {
  readonly counts = new Map<string, number>();
  cases = 0;
  add(o: Outcome): void {
    this.cases++;
    const k = o.ok ? 'ok' : o.code;
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
  }
  toString(): string {
    return `${this.cases} cases: ` + [...this.counts].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ');
  }
}
