/**
 * The check report (`*.report.json`, format v1 of docs/formats.md): what a check found,
 * as the plain JSON object that tools downstream read. Renderings: ./json.ts (the file itself),
 * ./csv.ts (one row per part pair, for spreadsheets), ./html.ts (one self-contained page).
 *
 * The core fields (`format`, `version`, `assembly`, `generatedAt`, `settings`, `summary`,
 * `results` with `a`, `b`, `kind`, `trianglePairs`, `volumeMm3`, `centroidMm`, `contained`) mean
 * exactly what formats.md says. Everything else is an added field (readers ignore unknown fields):
 * `title`, `generator`, `settings.touchToleranceAuto`, `summary.contained`, the per-result figures
 * a `PairResult` carries (`geometricKind`, `containedPart`, `distanceMm`, `closestPointsMm`,
 * `depthMm`, `toleranceMm`, `reason`, and `coincident` on the one result of a group of coincident
 * copies), the `parts` list (always written: it maps the ids in `results` to names, sources and
 * bodies) and `warnings`.
 *
 * Coincident copies (parts with the same triangles at the same placement, check/check.ts) are
 * one result: `a` and `b` are two of them, `coincident` lists every part of the group, and it
 * stands for every pair among them; a warning says so in words. Their pairs with other parts are
 * results of their own, one per pair, as for any part.
 *
 * Numbers keep full double precision here and in the JSON; only the human renderings round.
 */
import { displayNames } from '../assembly/displayName.js';
import { assignResultIds, resultNumber, type ResultIds } from '../check/resultIds.js';
import { pairKey, type ResultStatus } from '../check/status.js';
import type { CheckResult, GeometryKind, PairResult, ResultKind } from '../check/types.js';

export const REPORT_FORMAT = 'interfere-report';
export const REPORT_VERSION = 1;

export type Vec3 = readonly [number, number, number];
/** `[triangle of a, triangle of b]`, each in its body's own import order. */
export type TrianglePair = readonly [number, number];

export interface ReportSettings {
  readonly touchToleranceMm: number;
  readonly clearanceMm: number;
  readonly contactIsInterference: boolean;
  /** Added field: the touch tolerance was chosen automatically from the parts' chordal error. */
  readonly touchToleranceAuto: boolean;
}

export interface ReportSummary {
  readonly parts: number;
  readonly triangles: number;
  readonly interferences: number;
  readonly contacts: number;
  readonly clearanceViolations: number;
  readonly ignored: number;
  readonly elapsedMs: number;
  /** Added field: results (other than ignored ones) with one part wholly inside the other. */
  readonly contained: number;
  /** Added field: CAD pairs the triangles could not decide, even refined (kind 'undecided'). */
  readonly undecided: number;
  /** Added field: pairs decided on re-tessellated bodies, and the finest deflection used (mm). */
  readonly refinedPairs: number;
  readonly finestDeflectionMm: number | null;
}

export interface ReportResult {
  /**
   * Added field: the result's number, `R1`, `R2`, …: the document's own (kept from check to check
   * and saved with the assembly, src-core/check/resultIds.ts), else numbered in this report's order.
   */
  readonly id: string;
  readonly a: string;
  readonly b: string;
  readonly kind: ResultKind;
  /**
   * Added field: the pair's review status (src-core/check/status.ts): the document's review when
   * the report has one (the app), else `ignored` for an ignored pair and null otherwise.
   */
  readonly status: ResultStatus | null;
  /** Kind by geometry alone, before ignore rules and contactIsInterference. */
  readonly geometricKind: ResultKind | 'clear';
  /** Interference volume (mm³), when both bodies are closed solids; else null. */
  readonly volumeMm3: number | null;
  /** Centroid of the interference volume (world mm), with `volumeMm3`; else null. */
  readonly centroidMm: Vec3 | null;
  readonly contained: boolean;
  /** The id of the part that lies inside the other, when contained. */
  readonly containedPart: string | null;
  /** Minimum distance between the surfaces (mm; 0 when touching or crossing), when measured. */
  readonly distanceMm: number | null;
  /** The two closest points (world mm), for clearance results. */
  readonly closestPointsMm: readonly [Vec3, Vec3] | null;
  /** How far the surfaces reach into each other (mm), when they cross. */
  readonly depthMm: number | null;
  /** The touch tolerance applied to this pair (mm). */
  readonly toleranceMm: number;
  /** The ignore rule's reason, for ignored pairs. */
  readonly reason: string | null;
  /**
   * Added field: the ± of the depth or distance where the parts meet (mm: the two CAD bodies'
   * chordal errors there), or null when both meshes are the geometry (STL: "as given").
   */
  readonly resolutionMm: number | null;
  /** Added field: the finest linear deflection the pair's bodies were re-tessellated with (mm), or null. */
  readonly refinedDeflectionMm: number | null;
  /** Added field: the exact signed separation (mm; −depth … distance) lies in this range, for CAD pairs. */
  readonly separationRangeMm: readonly [number, number] | null;
  /** Added field: for undecided pairs, the kinds the exact solids may have. */
  readonly possibleKinds: readonly GeometryKind[] | null;
  readonly trianglePairs: readonly TrianglePair[];
  /**
   * Added field, only on the result of a group of coincident copies: every part of the group (a
   * and b among them); the result stands for every pair among them.
   */
  readonly coincident?: readonly string[];
}

export interface ReportPart {
  readonly id: string;
  readonly name: string;
  /** Added field: its place in its file's product tree (src-core/io/occt/tree.ts). */
  readonly path: readonly string[];
  /** Added field: the name it is shown by everywhere (src-core/assembly/displayName.ts). */
  readonly displayName: string;
  /** Added field: its placement, a row-major 4×4 rigid transform (mm); null when a report from elsewhere does not say. */
  readonly transform: readonly number[] | null;
  /** The source's path as written in the assembly, or its id. */
  readonly source: string;
  /** Index of the body in the source, in import order. */
  readonly body: number;
  /** Triangle count of the body; null when a report from elsewhere does not say. */
  readonly triangles: number | null;
  /** The body's mesh is a closed solid; null when unknown. */
  readonly closed: boolean | null;
}

/** Added field: a pair the review had as a finding that this check found clear (status resolved). */
export interface ReportResolved {
  readonly id: string;
  readonly a: string;
  readonly b: string;
}

/** Added field: a file the check read, as it was read. */
export interface ReportInput {
  /** `assembly`: the file checked; `source`: a CAD or mesh file its parts come from. */
  readonly role: 'assembly' | 'source';
  /** The source's id in the assembly (null for the assembly file). */
  readonly sourceId: string | null;
  /** The full (absolute) path it was read from. */
  readonly path: string;
  readonly sizeBytes: number;
  /** Its modification time when read: ISO 8601 UTC, milliseconds. */
  readonly modifiedAt: string;
  /** SHA-256 of the bytes read, 64 lower-case hexadecimal digits. */
  readonly sha256: string;
}

export interface ReportGenerator {
  readonly name: string;
  readonly version: string;
}

export interface InterferenceReport {
  readonly format: typeof REPORT_FORMAT;
  readonly version: typeof REPORT_VERSION;
  /** The assembly's file name as given, e.g. `as1-shifted.assembly.json`. */
  readonly assembly: string;
  /** Added field: a human title (e.g. the assembly's `name`), when known. */
  readonly title?: string;
  /** ISO 8601 UTC, seconds precision: `2026-11-29T12:00:00Z`. */
  readonly generatedAt: string;
  /** Added field: the application that wrote the report. */
  readonly generator?: ReportGenerator;
  readonly settings: ReportSettings;
  readonly summary: ReportSummary;
  /** One per unordered part pair that is not clear. */
  readonly results: readonly ReportResult[];
  /** Added field: findings of the review that are gone (status resolved); empty without a review. */
  readonly resolved: readonly ReportResolved[];
  readonly parts: readonly ReportPart[];
  /** Added field: every file read for the check, with its size, time and SHA-256; empty when not known. */
  readonly inputs: readonly ReportInput[];
  readonly warnings: readonly string[];
}

export interface ReportPartInput {
  readonly id: string;
  readonly name: string;
  /** Its place in its file's product tree; default `[name]`. */
  readonly path?: readonly string[];
  /** Its label (displayName); default: computed from the parts' names and paths. */
  readonly displayName?: string;
  /** Row-major 4×4 placement; default unknown (null). */
  readonly transform?: ArrayLike<number>;
  /** Source path (as written in the assembly) or source id. */
  readonly source: string;
  readonly body: number;
  readonly triangles: number;
  readonly closed: boolean;
}

export interface BuildReportInput {
  /** The assembly's file name as given, e.g. `as1-shifted.assembly.json`. */
  readonly assemblyName: string;
  readonly title?: string;
  readonly check: CheckResult;
  readonly parts: readonly ReportPartInput[];
  readonly generatedAt: Date;
  readonly generator?: ReportGenerator;
  /**
   * The document's review: its result ids (pairs without one are numbered after them, in the
   * results' order), its statuses by pairKey (results' `status`) and the pairs it lists as resolved.
   * Absent: results numbered R1, R2, … in order, statuses `ignored` or null.
   */
  readonly review?: ReportReviewInput;
  /** The files read (ReportInput), in reading order. */
  readonly inputs?: readonly ReportInput[];
}

export interface ReportReviewInput {
  readonly ids?: ResultIds;
  readonly statuses?: ReadonlyMap<string, ResultStatus>;
  readonly resolved?: readonly { readonly a: string; readonly b: string }[];
}

/** A report that cannot be built or read: says what is wrong and where (a field path). */
export class ReportError extends Error {
  override readonly name = 'ReportError';
  constructor(
    readonly problem: string,
    /** A path to the field at fault, e.g. `results[3].trianglePairs[7]`, or null. */
    readonly field: string | null = null,
  ) {
    super(field ? `${field}: ${problem}` : problem);
  }
}

/**
 * The id of the result at `index` (from 0) within its report: `R1`, `R2`, … in the results'
 * order. Stable for one report (the CSV, the JUnit XML and the annotations of one run agree);
 * another check may number the same pair differently, so tools match pairs by `a` and `b`.
 */
export function resultId(index: number): string {
  return `R${index + 1}`;
}

/** Kinds from most to least severe: the order the human renderings list results in. */
export const KIND_ORDER: readonly ResultKind[] = ['interference', 'undecided', 'clearance', 'contact', 'ignored'];

/** `2026-11-29T12:00:00Z`: ISO 8601 UTC at seconds precision (fractions are truncated). */
export function isoSeconds(date: Date): string {
  const t = date.getTime();
  if (!Number.isFinite(t)) throw new ReportError('is not a valid date', 'generatedAt');
  return new Date(Math.floor(t / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function requireFinite(n: number, field: string): number {
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new ReportError(`must be a finite number, got ${String(n)}`, field);
  return n;
}

function requireCount(n: number, field: string): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new ReportError(`must be a non-negative integer, got ${String(n)}`, field);
  return n;
}

/** Nullable figures: a non-finite value means "not measured" and is written as null. */
function finiteOrNull(n: number | null): number | null {
  return n !== null && Number.isFinite(n) ? n : null;
}

function vec3OrNull(v: Vec3 | null): Vec3 | null {
  if (v === null || !v.every((c) => Number.isFinite(c))) return null;
  return [v[0], v[1], v[2]];
}

function closestOrNull(points: readonly [Vec3, Vec3] | null): readonly [Vec3, Vec3] | null {
  if (points === null) return null;
  const p = vec3OrNull(points[0]);
  const q = vec3OrNull(points[1]);
  return p !== null && q !== null ? [p, q] : null;
}

function transformOf(m: ArrayLike<number>, field: string): number[] {
  if (m.length !== 16) throw new ReportError(`must hold 16 numbers, got ${m.length}`, field);
  return Array.from(m, (x, k) => requireFinite(x, `${field}[${k}]`));
}

/** Orders result ids by their number (ids that are not `R<n>` last, by text). */
export function compareResultIds(p: string, q: string): number {
  const a = resultNumber(p), b = resultNumber(q);
  if (a !== null && b !== null) return a - b;
  if (a !== null) return -1;
  if (b !== null) return 1;
  return p < q ? -1 : p > q ? 1 : 0;
}

function pairsOf(flat: Uint32Array, field: string): TrianglePair[] {
  if (flat.length % 2 !== 0) throw new ReportError(`has an odd length (${flat.length}): not a list of pairs`, field);
  const out = new Array<TrianglePair>(flat.length / 2);
  for (let k = 0, i = 0; i < flat.length; i += 2, k++) out[k] = [flat[i]!, flat[i + 1]!];
  return out;
}

function resultOf(r: PairResult, index: number, id: string, status: ResultStatus | null): ReportResult {
  const field = `results[${index}]`;
  return {
    id,
    a: r.a,
    b: r.b,
    kind: r.kind,
    status,
    geometricKind: r.geometricKind,
    volumeMm3: finiteOrNull(r.volumeMm3),
    centroidMm: vec3OrNull(r.centroidMm),
    contained: r.contained,
    containedPart: r.containedPart,
    distanceMm: finiteOrNull(r.distanceMm),
    closestPointsMm: closestOrNull(r.closestPointsMm),
    depthMm: finiteOrNull(r.depthMm),
    toleranceMm: requireFinite(r.toleranceMm, `${field}.toleranceMm`),
    reason: r.reason,
    resolutionMm: finiteOrNull(r.resolutionMm),
    refinedDeflectionMm: finiteOrNull(r.refinedDeflectionMm),
    separationRangeMm: r.separationRangeMm && r.separationRangeMm.every((x) => Number.isFinite(x)) ? [r.separationRangeMm[0], r.separationRangeMm[1]] : null,
    possibleKinds: r.possibleKinds ? [...r.possibleKinds] : null,
    trianglePairs: pairsOf(r.trianglePairs, `${field}.trianglePairs`),
    ...(r.coincident !== undefined ? { coincident: [...r.coincident] } : {}),
  };
}

/** "12,000 coincident copies: p0, p1, p2, … p11999" (at most `shown` ids), for the human renderings. */
export function coincidentText(ids: readonly string[], shown = 4): string {
  const list = ids.length <= shown ? ids.join(', ') : `${ids.slice(0, shown - 1).join(', ')}, … ${ids[ids.length - 1]}`;
  return `${ids.length.toLocaleString('en-US')} coincident copies (same triangles, same placement), one finding for every pair among them: ${list}`;
}

/** Counts of results by kind (the `summary` figures that follow from `results`). */
export function countResults(results: readonly (Pick<ReportResult, 'kind' | 'contained'> & Partial<Pick<ReportResult, 'refinedDeflectionMm'>>)[]): Pick<
  ReportSummary,
  'interferences' | 'contacts' | 'clearanceViolations' | 'ignored' | 'contained' | 'undecided' | 'refinedPairs' | 'finestDeflectionMm'
> {
  let interferences = 0;
  let contacts = 0;
  let clearanceViolations = 0;
  let ignored = 0;
  let contained = 0;
  let undecided = 0;
  let refinedPairs = 0;
  let finestDeflectionMm: number | null = null;
  for (const r of results) {
    if (r.kind === 'interference') interferences++;
    else if (r.kind === 'contact') contacts++;
    else if (r.kind === 'clearance') clearanceViolations++;
    else if (r.kind === 'undecided') undecided++;
    else ignored++;
    if (r.contained && r.kind !== 'ignored') contained++;
    const d = r.refinedDeflectionMm;
    if (d !== null && d !== undefined) {
      refinedPairs++;
      finestDeflectionMm = finestDeflectionMm === null ? d : Math.min(finestDeflectionMm, d);
    }
  }
  return { interferences, contacts, clearanceViolations, ignored, contained, undecided, refinedPairs, finestDeflectionMm };
}

/**
 * Checks what every report must satisfy beyond field types: part ids unique, every result naming
 * two different listed parts (when a parts list is given), each unordered pair at most once, a
 * coincident group listing distinct (listed) parts with a and b among them, and the summary counts
 * equal to the results'. Throws ReportError.
 */
export function checkReportConsistency(report: Pick<InterferenceReport, 'summary' | 'results' | 'parts'>): void {
  const ids = new Set<string>();
  report.parts.forEach((p, i) => {
    if (ids.has(p.id)) throw new ReportError(`duplicate part id "${p.id}"`, `parts[${i}].id`);
    ids.add(p.id);
  });
  const seen = new Set<string>();
  report.results.forEach((r, i) => {
    const field = `results[${i}]`;
    if (r.a === r.b) throw new ReportError(`pairs part "${r.a}" with itself`, field);
    if (ids.size > 0) {
      if (!ids.has(r.a)) throw new ReportError(`names part "${r.a}", which is not in parts`, `${field}.a`);
      if (!ids.has(r.b)) throw new ReportError(`names part "${r.b}", which is not in parts`, `${field}.b`);
    }
    const key = r.a < r.b ? JSON.stringify([r.a, r.b]) : JSON.stringify([r.b, r.a]);
    if (seen.has(key)) throw new ReportError(`repeats the pair "${r.a}"/"${r.b}"`, field);
    seen.add(key);
    if (r.coincident !== undefined) {
      const group = new Set(r.coincident);
      if (group.size !== r.coincident.length) throw new ReportError('lists a part twice', `${field}.coincident`);
      if (!group.has(r.a) || !group.has(r.b)) throw new ReportError(`does not list the result's parts "${r.a}" and "${r.b}"`, `${field}.coincident`);
      if (ids.size > 0) {
        r.coincident.forEach((id, k) => {
          if (!ids.has(id)) throw new ReportError(`names part "${id}", which is not in parts`, `${field}.coincident[${k}]`);
        });
      }
    }
  });
  const resultIds = new Set<string>();
  report.results.forEach((r, i) => {
    if (resultIds.has(r.id)) throw new ReportError(`repeats the result id "${r.id}"`, `results[${i}].id`);
    resultIds.add(r.id);
  });
  const counts = countResults(report.results);
  for (const key of ['interferences', 'contacts', 'clearanceViolations', 'ignored', 'undecided'] as const) {
    if (report.summary[key] !== counts[key]) {
      throw new ReportError(`is ${report.summary[key]} but results hold ${counts[key]}`, `summary.${key}`);
    }
  }
}

/**
 * The report of one check. The summary's per-kind counts are counted from the results (so the
 * report is consistent by construction); parts, triangles and elapsed time come from the check.
 * Throws ReportError when the input cannot make a valid report (duplicate part ids, a result
 * naming an unknown part, an odd-length triangle pair list, a non-finite required number).
 */
export function buildReport(input: BuildReportInput): InterferenceReport {
  const { check } = input;
  const s = check.settings;
  const settings: ReportSettings = {
    touchToleranceMm: requireFinite(s.touchToleranceMm, 'settings.touchToleranceMm'),
    clearanceMm: requireFinite(s.clearanceMm, 'settings.clearanceMm'),
    contactIsInterference: s.contactIsInterference,
    touchToleranceAuto: s.touchToleranceAuto,
  };
  const review = input.review;
  const numbering = assignResultIds(review?.ids ?? new Map(), check.results);
  const results = check.results.map((r, i) => {
    const status = review?.statuses?.get(pairKey(r.a, r.b)) ?? (r.kind === 'ignored' ? 'ignored' : null);
    return resultOf(r, i, numbering.resultIds[i], status);
  });
  const resolved: ReportResolved[] = (review?.resolved ?? []).map((p) => {
    const id = numbering.ids.get(pairKey(p.a, p.b));
    if (id === undefined) throw new ReportError(`the resolved pair "${p.a}"/"${p.b}" has no result id`, 'resolved');
    return { id, a: p.a, b: p.b };
  });
  const summary: ReportSummary = {
    parts: requireCount(check.summary.parts, 'summary.parts'),
    triangles: requireCount(check.summary.triangles, 'summary.triangles'),
    ...countResults(results),
    elapsedMs: requireFinite(check.summary.elapsedMs, 'summary.elapsedMs'),
  };
  const labels = displayNames(input.parts.map((p) => ({ id: p.id, name: p.name, path: p.path ?? [p.name], sourcePath: p.source, body: p.body })));
  const parts: ReportPart[] = input.parts.map((p, i) => ({
    id: p.id,
    name: p.name,
    path: [...(p.path ?? [p.name])],
    displayName: p.displayName ?? labels.get(p.id) ?? p.name,
    transform: p.transform !== undefined ? transformOf(p.transform, `parts[${i}].transform`) : null,
    source: p.source,
    body: requireCount(p.body, `parts[${i}].body`),
    triangles: requireCount(p.triangles, `parts[${i}].triangles`),
    closed: p.closed,
  }));
  const report: InterferenceReport = {
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    assembly: input.assemblyName,
    ...(input.title !== undefined ? { title: input.title } : {}),
    generatedAt: isoSeconds(input.generatedAt),
    ...(input.generator !== undefined ? { generator: { name: input.generator.name, version: input.generator.version } } : {}),
    settings,
    summary: {
      // Key order as in formats.md, with the added count last.
      parts: summary.parts,
      triangles: summary.triangles,
      interferences: summary.interferences,
      contacts: summary.contacts,
      clearanceViolations: summary.clearanceViolations,
      ignored: summary.ignored,
      elapsedMs: summary.elapsedMs,
      contained: summary.contained,
      undecided: summary.undecided,
      refinedPairs: summary.refinedPairs,
      finestDeflectionMm: summary.finestDeflectionMm,
    },
    results,
    resolved,
    parts,
    inputs: (input.inputs ?? []).map((f) => ({ ...f })),
    warnings: [...check.warnings],
  };
  checkReportConsistency(report);
  return report;
}

/** How undecided pairs count for the exit status: as a possible interference (default), or not. */
export type UndecidedPolicy = 'fail' | 'pass';

/**
 * The command line's exit status for a report (formats.md): 1 when an interference or a
 * clearance violation was found, or (by default) a pair the triangles could not decide, else 0
 * (contacts and ignored pairs are allowed). Status 2 (the input could not be checked) has no
 * report.
 */
export function exitCode(report: Pick<InterferenceReport, 'summary' | 'results'>, undecided: UndecidedPolicy = 'fail'): 0 | 1 {
  const failing = (k: ResultKind): boolean => k === 'interference' || k === 'clearance' || (undecided === 'fail' && k === 'undecided');
  if (report.summary.interferences > 0 || report.summary.clearanceViolations > 0) return 1;
  return report.results.some((r) => failing(r.kind)) ? 1 : 0;
}
