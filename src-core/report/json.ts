/**
 * The report as a file (`*.report.json`): writing it readable and in linear time, and reading it
 * back with validation.
 *
 * Layout: two-space indentation; short arrays of numbers or strings on one line (`[12.1, 40.5, 3]`);
 * arrays of such small arrays (`trianglePairs`, `closestPointsMm`) packed into rows of at most
 * about 100 characters, so tens of thousands of triangle pairs take a few thousand lines rather
 * than one line or a hundred thousand. Numbers are written by JSON.stringify: full precision.
 */
import { RESULT_STATUSES, type ResultStatus } from '../check/status.js';
import type { GeometryKind, ResultKind } from '../check/types.js';
import {
  REPORT_FORMAT, REPORT_VERSION, ReportError, checkReportConsistency, countResults, resultId,
  type InterferenceReport, type ReportInput, type ReportPart, type ReportResult, type TrianglePair, type Vec3,
} from './model.js';

const LINE_WIDTH = 100;
const INDENT = '  ';

type Scalar = string | number | boolean | null;

function isScalar(v: unknown): v is Scalar {
  return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function scalar(v: Scalar): string {
  // String() of a finite number is its JSON text (shortest round trip); only strings need escaping.
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  return JSON.stringify(v);
}

function isScalarArray(v: unknown): v is readonly Scalar[] {
  return Array.isArray(v) && v.every(isScalar);
}

function inline(v: readonly Scalar[]): string {
  if (v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number') return `[${scalar(v[0])}, ${scalar(v[1])}]`;
  let s = '[';
  for (let i = 0; i < v.length; i++) s += (i > 0 ? ', ' : '') + scalar(v[i]!);
  return s + ']';
}

/**
 * An array of small arrays: on one line when short, else packed into rows up to the line width.
 * Each row is built as one string, so the cost is linear with a small constant.
 */
function writeRows(v: readonly (readonly Scalar[])[], indent: string, out: string[]): void {
  const budget = LINE_WIDTH - 30 - indent.length;
  let short = v.length * 2;
  for (let i = 0; i < v.length && short <= budget; i++) short += inline(v[i]!).length;
  if (short <= budget) {
    out.push(`[${v.map(inline).join(', ')}]`);
    return;
  }
  const inner = indent + INDENT;
  out.push('[\n');
  let line = '';
  for (let i = 0; i < v.length; i++) {
    const item = inline(v[i]!);
    if (line === '') {
      line = inner + item;
    } else if (line.length + 2 + item.length + 1 > LINE_WIDTH) {
      out.push(line, ',\n');
      line = inner + item;
    } else {
      line += ', ' + item;
    }
  }
  out.push(line, '\n', indent, ']');
}

/** Appends the JSON of `v` to `out`; `indent` is the indentation of the line `v` starts on. */
function write(v: unknown, indent: string, out: string[]): void {
  if (isScalar(v)) {
    out.push(scalar(v));
    return;
  }
  const inner = indent + INDENT;
  if (Array.isArray(v)) {
    if (v.length === 0) {
      out.push('[]');
    } else if (v.every(isScalar) && indent.length + inline(v).length <= LINE_WIDTH - 30) {
      out.push(inline(v));
    } else if (v.every(isScalarArray)) {
      writeRows(v, indent, out);
    } else {
      out.push('[\n');
      for (let i = 0; i < v.length; i++) {
        out.push(inner);
        write(v[i] === undefined ? null : v[i], inner, out);
        out.push(i < v.length - 1 ? ',\n' : '\n');
      }
      out.push(indent, ']');
    }
    return;
  }
  if (typeof v === 'object' && v !== null) {
    const entries = Object.entries(v).filter(([, value]) => value !== undefined);
    if (entries.length === 0) {
      out.push('{}');
      return;
    }
    out.push('{\n');
    entries.forEach(([key, value], i) => {
      out.push(inner, JSON.stringify(key), ': ');
      write(value, inner, out);
      out.push(i < entries.length - 1 ? ',\n' : '\n');
    });
    out.push(indent, '}');
    return;
  }
  // undefined, functions, symbols, bigints: not part of a report.
  throw new ReportError(`cannot be written as JSON (${typeof v})`);
}

/** The report file's text (ends with a newline). Linear in the size of the report. */
export function reportToJson(report: InterferenceReport): string {
  const out: string[] = [];
  write(report, '', out);
  out.push('\n');
  return out.join('');
}

// ---------------------------------------------------------------------------------------------
// Reading

const KINDS: readonly ResultKind[] = ['interference', 'contact', 'clearance', 'undecided', 'ignored'];
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

type Obj = Record<string, unknown>;

function fail(field: string, problem: string): never {
  throw new ReportError(problem, field);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `a string (${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)})`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}

function obj(v: unknown, field: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(field, `must be an object, got ${describe(v)}`);
  return v as Obj;
}

function arr(v: unknown, field: string): unknown[] {
  if (!Array.isArray(v)) fail(field, `must be an array, got ${describe(v)}`);
  return v;
}

function str(v: unknown, field: string): string {
  if (typeof v !== 'string') fail(field, `must be a string, got ${describe(v)}`);
  return v;
}

function bool(v: unknown, field: string): boolean {
  if (typeof v !== 'boolean') fail(field, `must be true or false, got ${describe(v)}`);
  return v;
}

function num(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(field, `must be a number, got ${describe(v)}`);
  return v;
}

function nonNegative(v: unknown, field: string): number {
  const n = num(v, field);
  if (n < 0) fail(field, `must not be negative, got ${n}`);
  return n;
}

function count(v: unknown, field: string): number {
  const n = num(v, field);
  if (!Number.isSafeInteger(n) || n < 0) fail(field, `must be a non-negative integer, got ${n}`);
  return n;
}

function numOrNull(v: unknown, field: string): number | null {
  return v === null ? null : num(v, field);
}

function strOrNull(v: unknown, field: string): string | null {
  return v === null ? null : str(v, field);
}

function vec3(v: unknown, field: string): Vec3 {
  const a = arr(v, field);
  if (a.length !== 3) fail(field, `must be [x, y, z], got ${a.length} numbers`);
  return [num(a[0], `${field}[0]`), num(a[1], `${field}[1]`), num(a[2], `${field}[2]`)];
}

function vec3OrNull(v: unknown, field: string): Vec3 | null {
  return v === null ? null : vec3(v, field);
}

function kind(v: unknown, field: string): ResultKind {
  if (typeof v !== 'string' || !(KINDS as readonly string[]).includes(v)) {
    fail(field, `must be one of ${KINDS.join(', ')}; got ${describe(v)}`);
  }
  return v as ResultKind;
}

/** An optional added field: its default when absent, else read strictly. */
function optional<T>(o: Obj, key: string, field: string, read: (v: unknown, field: string) => T, fallback: T): T {
  return key in o && o[key] !== undefined ? read(o[key], field ? `${field}.${key}` : key) : fallback;
}

function trianglePairs(v: unknown, field: string): TrianglePair[] {
  const a = arr(v, field);
  const out = new Array<TrianglePair>(a.length);
  for (let k = 0; k < a.length; k++) {
    const p = a[k];
    if (!Array.isArray(p) || p.length !== 2) fail(`${field}[${k}]`, `must be a pair [i, j], got ${describe(p)}`);
    out[k] = [count(p[0], `${field}[${k}][0]`), count(p[1], `${field}[${k}][1]`)];
  }
  return out;
}

/** The parts of a coincident group: two or more ids. */
function coincident(v: unknown, field: string): string[] {
  const ids = arr(v, field).map((id, i) => str(id, `${field}[${i}]`));
  if (ids.length < 2) fail(field, `must list at least two parts, got ${ids.length}`);
  return ids;
}

const STATUSES: readonly string[] = RESULT_STATUSES;

function status(v: unknown, field: string): ResultStatus | null {
  if (v === null) return null;
  if (typeof v !== 'string' || !STATUSES.includes(v)) fail(field, `must be one of ${STATUSES.join(', ')} or null; got ${describe(v)}`);
  return v as ResultStatus;
}

function result(v: unknown, field: string, defaultTolerance: number, index: number): ReportResult {
  const o = obj(v, field);
  const k = kind(o['kind'], `${field}.kind`);
  const closest = optional(o, 'closestPointsMm', field, (c, f) => {
    if (c === null) return null;
    const pts = arr(c, f);
    if (pts.length !== 2) fail(f, `must be two points, got ${pts.length}`);
    return [vec3(pts[0], `${f}[0]`), vec3(pts[1], `${f}[1]`)] as const;
  }, null);
  const geometricKind = optional<ResultKind | 'clear'>(o, 'geometricKind', field,
    (g, f) => (g === 'clear' ? 'clear' : kind(g, f)), k);
  return {
    id: optional(o, 'id', field, str, resultId(index)),
    a: str(o['a'], `${field}.a`),
    b: str(o['b'], `${field}.b`),
    kind: k,
    status: optional(o, 'status', field, status, k === 'ignored' ? 'ignored' : null),
    geometricKind,
    volumeMm3: numOrNull(o['volumeMm3'], `${field}.volumeMm3`),
    centroidMm: vec3OrNull(o['centroidMm'], `${field}.centroidMm`),
    contained: bool(o['contained'], `${field}.contained`),
    containedPart: optional(o, 'containedPart', field, strOrNull, null),
    distanceMm: optional(o, 'distanceMm', field, numOrNull, null),
    closestPointsMm: closest,
    depthMm: optional(o, 'depthMm', field, numOrNull, null),
    toleranceMm: optional(o, 'toleranceMm', field, nonNegative, defaultTolerance),
    reason: optional(o, 'reason', field, strOrNull, null),
    resolutionMm: optional(o, 'resolutionMm', field, (x, f) => (x === null ? null : nonNegative(x, f)), null),
    refinedDeflectionMm: optional(o, 'refinedDeflectionMm', field, (x, f) => (x === null ? null : nonNegative(x, f)), null),
    separationRangeMm: optional(o, 'separationRangeMm', field, (x, f) => {
      if (x === null) return null;
      const r = arr(x, f);
      if (r.length !== 2) fail(f, `must be [low, high], got ${r.length} numbers`);
      return [num(r[0], `${f}[0]`), num(r[1], `${f}[1]`)] as const;
    }, null),
    possibleKinds: optional(o, 'possibleKinds', field, (x, f) => {
      if (x === null) return null;
      return arr(x, f).map((g, i) => {
        if (g !== 'interference' && g !== 'contact' && g !== 'clearance' && g !== 'clear') {
          fail(`${f}[${i}]`, `must be interference, contact, clearance or clear; got ${describe(g)}`);
        }
        return g as GeometryKind;
      });
    }, null),
    trianglePairs: trianglePairs(o['trianglePairs'], `${field}.trianglePairs`),
    ...(o['coincident'] !== undefined ? { coincident: coincident(o['coincident'], `${field}.coincident`) } : {}),
  };
}

function part(v: unknown, field: string): ReportPart {
  const o = obj(v, field);
  const id = str(o['id'], `${field}.id`);
  const name = optional(o, 'name', field, str, id);
  return {
    id,
    name,
    path: optional(o, 'path', field, (x, f) => arr(x, f).map((n, i) => str(n, `${f}[${i}]`)), [name]),
    displayName: optional(o, 'displayName', field, str, name),
    transform: optional(o, 'transform', field, (x, f) => {
      if (x === null) return null;
      const m = arr(x, f);
      if (m.length !== 16) fail(f, `must be 16 numbers (a row-major 4×4 matrix), got ${m.length}`);
      return m.map((n, i) => num(n, `${f}[${i}]`));
    }, null),
    source: optional(o, 'source', field, str, ''),
    body: optional(o, 'body', field, count, 0),
    triangles: optional(o, 'triangles', field, (t, f) => (t === null ? null : count(t, f)), null),
    closed: optional(o, 'closed', field, (c, f) => (c === null ? null : bool(c, f)), null),
  };
}

function input(v: unknown, field: string): ReportInput {
  const o = obj(v, field);
  const role = o['role'];
  if (role !== 'assembly' && role !== 'source') fail(`${field}.role`, `must be assembly or source, got ${describe(role)}`);
  const sha = str(o['sha256'], `${field}.sha256`);
  if (!/^[0-9a-f]{64}$/.test(sha)) fail(`${field}.sha256`, `must be 64 lower-case hexadecimal digits, got ${describe(sha)}`);
  return {
    role,
    sourceId: strOrNull(o['sourceId'] ?? null, `${field}.sourceId`),
    path: str(o['path'], `${field}.path`),
    sizeBytes: count(o['sizeBytes'], `${field}.sizeBytes`),
    modifiedAt: str(o['modifiedAt'], `${field}.modifiedAt`),
    sha256: sha,
  };
}

export interface ParseReportOptions {
  /**
   * Also check that the report is consistent (checkReportConsistency: summary counts equal to the
   * results', no repeated pair, results naming listed parts). Default true.
   */
  readonly checkConsistency?: boolean;
}

/**
 * Reads and validates a report file. The core fields of formats.md are required; the added
 * fields are optional, and when absent take neutral values: `touchToleranceAuto` false, per-result
 * figures null, `geometricKind` the reported kind, `toleranceMm` the settings' tolerance, `parts`
 * and `warnings` empty, a part's `name` its id. Unknown fields are ignored. Unless told not to,
 * also checks consistency (checkReportConsistency). Throws ReportError naming the field at fault.
 */
export function parseReport(text: string, options: ParseReportOptions = {}): InterferenceReport {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ReportError(`not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const o = obj(raw, '(top level)');
  if (o['format'] !== REPORT_FORMAT) fail('format', `must be "${REPORT_FORMAT}", got ${describe(o['format'])}`);
  if (o['version'] !== REPORT_VERSION) fail('version', `must be ${REPORT_VERSION}, got ${describe(o['version'])}`);
  const assembly = str(o['assembly'], 'assembly');
  const generatedAt = str(o['generatedAt'], 'generatedAt');
  if (!ISO_UTC.test(generatedAt) || !Number.isFinite(Date.parse(generatedAt))) {
    fail('generatedAt', `must be an ISO 8601 date and time like 2026-11-29T12:00:00Z, got ${describe(generatedAt)}`);
  }
  const title = optional(o, 'title', '', str, undefined);
  const generator = optional(o, 'generator', '', (g, f) => {
    const go = obj(g, f);
    return { name: str(go['name'], `${f}.name`), version: str(go['version'], `${f}.version`) };
  }, undefined);

  const so = obj(o['settings'], 'settings');
  const settings = {
    touchToleranceMm: nonNegative(so['touchToleranceMm'], 'settings.touchToleranceMm'),
    clearanceMm: nonNegative(so['clearanceMm'], 'settings.clearanceMm'),
    contactIsInterference: bool(so['contactIsInterference'], 'settings.contactIsInterference'),
    touchToleranceAuto: optional(so, 'touchToleranceAuto', 'settings', bool, false),
  };

  const results = arr(o['results'], 'results').map((r, i) => result(r, `results[${i}]`, settings.touchToleranceMm, i));

  const sm = obj(o['summary'], 'summary');
  const summary = {
    parts: count(sm['parts'], 'summary.parts'),
    triangles: count(sm['triangles'], 'summary.triangles'),
    interferences: count(sm['interferences'], 'summary.interferences'),
    contacts: count(sm['contacts'], 'summary.contacts'),
    clearanceViolations: count(sm['clearanceViolations'], 'summary.clearanceViolations'),
    ignored: count(sm['ignored'], 'summary.ignored'),
    elapsedMs: nonNegative(sm['elapsedMs'], 'summary.elapsedMs'),
    contained: optional(sm, 'contained', 'summary', count,
      results.filter((r) => r.contained && r.kind !== 'ignored').length),
    undecided: optional(sm, 'undecided', 'summary', count, results.filter((r) => r.kind === 'undecided').length),
    refinedPairs: optional(sm, 'refinedPairs', 'summary', count, results.filter((r) => r.refinedDeflectionMm !== null).length),
    finestDeflectionMm: optional(sm, 'finestDeflectionMm', 'summary', (x, f) => (x === null ? null : nonNegative(x, f)),
      countResults(results).finestDeflectionMm),
  };

  const parts = optional(o, 'parts', '', (p, f) => arr(p, f).map((x, i) => part(x, `${f}[${i}]`)), []);
  const warnings = optional(o, 'warnings', '', (w, f) => arr(w, f).map((x, i) => str(x, `${f}[${i}]`)), []);
  const resolved = optional(o, 'resolved', '', (w, f) => arr(w, f).map((x, i) => {
    const ro = obj(x, `${f}[${i}]`);
    return { id: str(ro['id'], `${f}[${i}].id`), a: str(ro['a'], `${f}[${i}].a`), b: str(ro['b'], `${f}[${i}].b`) };
  }), []);
  const inputs = optional(o, 'inputs', '', (w, f) => arr(w, f).map((x, i) => input(x, `${f}[${i}]`)), []);

  const report: InterferenceReport = {
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    assembly,
    ...(title !== undefined ? { title } : {}),
    generatedAt,
    ...(generator !== undefined ? { generator } : {}),
    settings,
    summary,
    results,
    resolved,
    parts,
    inputs,
    warnings,
  };
  if (options.checkConsistency !== false) checkReportConsistency(report);
  return report;
}
