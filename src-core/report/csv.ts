/**
 * The report as CSV (RFC 4180), for spreadsheets: a header row, then one row per result (part
 * pair), in the report's order. Lines end with CRLF (the last one too); a field containing a
 * comma, a double quote, CR or LF is quoted, with inner quotes doubled. The text starts with a
 * UTF-8 byte order mark (U+FEFF) unless told not to: without it Excel reads the file in the
 * system's code page and garbles non-ASCII part names.
 *
 * Columns: `id` is the result's id (ReportResult.id: `R1`, `R2`, …, the document's own numbers
 * when it has them); `a_name` and `b_name` the parts' display names (src-core/assembly/
 * displayName.ts); `status` is the review status of the pair: the caller's when it gives one (the
 * command line's baseline comparison), else the report's (the app's review; `ignored` for an
 * ignored pair), else empty. Read the columns by their header name: later versions may add
 * columns.
 *
 * Formula injection: a spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` (and some
 * treat a leading tab or CR the same way) as a formula. Every text field that came from a file
 * (part ids, part names, ignore reasons) and begins with one of those characters is written with
 * a leading apostrophe (`'=cmd`), which spreadsheets show as text; a tool reading the CSV back
 * should drop one leading apostrophe from such a field. Number columns are written by this module
 * and never prefixed.
 *
 * NUL: a CSV never contains U+0000 (many readers stop at it or drop the rest of the line); a NUL
 * in a text field is written as U+FFFD, the replacement character.
 *
 * Numbers: plain decimals (no exponent, no digit grouping, `.` as decimal point), at most six
 * decimals (1 nm, 1e-6 mm³), trailing zeros dropped. Empty field: not measured / not applicable
 * (an empty `resolution_mm`: meshes that are the geometry, decided as given).
 */
import { coincidentText, type InterferenceReport, type ReportResult } from './model.js';

export const CSV_COLUMNS = [
  'id', 'a', 'a_name', 'b', 'b_name', 'kind', 'status', 'volume_mm3',
  'centroid_x_mm', 'centroid_y_mm', 'centroid_z_mm', 'contained',
  'distance_mm', 'depth_mm', 'triangle_pairs', 'tolerance_mm', 'reason',
  'resolution_mm', 'refined_deflection_mm', 'separation_min_mm', 'separation_max_mm', 'possible_kinds',
] as const;

export interface CsvOptions {
  /** Start with a UTF-8 byte order mark (U+FEFF), which Excel needs to read non-ASCII names. Default true. */
  readonly bom?: boolean;
  /**
   * The review status of each result, in the results' order (`new`, `active`, `ignored`, …); a
   * missing entry, or no list, gives `ignored` for an ignored pair and an empty field otherwise.
   */
  readonly statuses?: readonly (string | undefined)[];
}

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;
const NUL = /\0/g;

/** A text field from a file, made safe for spreadsheets (see the module comment). */
export function csvText(s: string): string {
  return FORMULA_START.test(s) ? `'${s}` : s;
}

/** RFC 4180 quoting of one field; a NUL becomes U+FFFD (see the module comment). */
export function csvField(text: string): string {
  const s = text.includes('\0') ? text.replace(NUL, '\uFFFD') : text;
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A number as a plain decimal with at most six decimals; '' for null. */
export function csvNumber(n: number | null): string {
  if (n === null || !Number.isFinite(n)) return '';
  let s = n.toFixed(6);
  if (s.includes('e')) return String(n); // |n| >= 1e21: not a length or volume here
  s = s.replace(/\.?0+$/, '');
  return s === '-0' ? '0' : s;
}

function row(r: ReportResult, names: ReadonlyMap<string, string>, status: string | undefined): string[] {
  return [
    r.id,
    csvText(r.a),
    csvText(names.get(r.a) ?? ''),
    csvText(r.b),
    csvText(names.get(r.b) ?? ''),
    r.kind,
    csvText(status ?? r.status ?? (r.kind === 'ignored' ? 'ignored' : '')),
    csvNumber(r.volumeMm3),
    csvNumber(r.centroidMm?.[0] ?? null),
    csvNumber(r.centroidMm?.[1] ?? null),
    csvNumber(r.centroidMm?.[2] ?? null),
    r.contained ? 'true' : 'false',
    csvNumber(r.distanceMm),
    csvNumber(r.depthMm),
    String(r.trianglePairs.length),
    csvNumber(r.toleranceMm),
    // (a coincident group says so where an ignored pair gives its reason; the JSON lists every part)
    csvText(r.reason ?? (r.coincident !== undefined ? coincidentText(r.coincident, 10) : '')),
    csvNumber(r.resolutionMm),
    csvNumber(r.refinedDeflectionMm),
    csvNumber(r.separationRangeMm?.[0] ?? null),
    csvNumber(r.separationRangeMm?.[1] ?? null),
    r.possibleKinds ? r.possibleKinds.join(' ') : '',
  ];
}

/** The report's results as CSV text (see the module comment for the rules). */
export function reportToCsv(report: InterferenceReport, options: CsvOptions = {}): string {
  const names = new Map(report.parts.map((p) => [p.id, p.displayName] as const));
  const lines: string[] = [CSV_COLUMNS.join(',')];
  for (let i = 0; i < report.results.length; i++) {
    lines.push(row(report.results[i]!, names, options.statuses?.[i]).map(csvField).join(','));
  }
  return (options.bom === false ? '' : '\uFEFF') + lines.join('\r\n') + '\r\n';
}
