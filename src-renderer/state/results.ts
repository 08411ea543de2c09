/**
 * The results table's logic: keys, ordering, filtering, and the triangles of each side of a pair.
 */
import { pairKey } from '../../src-main/contract/host';
import type { CheckOutcome, PairResultInfo, ResultStatus } from '../../src-main/contract/host';
import { formatCount, formatMeasure, formatSignedMeasure } from './format';

export type ResultKind = PairResultInfo['kind'];
/** A kind the exact solids may have (an undecided pair's possible kinds). */
export type PossibleKind = NonNullable<PairResultInfo['possibleKinds']>[number];
export type { ResultStatus };
export type ResultSortKey = 'id' | 'kind' | 'a' | 'b' | 'volume' | 'depth' | 'distance' | 'triangles' | 'resolution' | 'status';
export interface ResultSort {
  readonly key: ResultSortKey;
  readonly descending: boolean;
}
export interface ResultFilter {
  readonly kind: ResultKind | 'all';
  readonly status: ResultStatus | 'all';
  readonly text: string;
  /** Only the results of this part (a part clicked in the view), or null. */
  readonly part?: string | null;
}

export const DEFAULT_RESULT_SORT: ResultSort = { key: 'kind', descending: false };
export const DEFAULT_RESULT_FILTER: ResultFilter = { kind: 'all', status: 'all', text: '' };

/**
 * Every kind, most severe first (as the HTML report orders them): an undecided pair may interfere,
 * so it comes right after the interferences.
 */
export const RESULT_KINDS: readonly ResultKind[] = ['interference', 'undecided', 'clearance', 'contact', 'ignored'];
/** Pairs not in the last check (resolved, or only in the saved review) sort after every kind. */
const KIND_ORDER = Object.fromEntries(RESULT_KINDS.map((k, i) => [k, i])) as Record<ResultKind, number>;
const NO_KIND = RESULT_KINDS.length;
const STATUS_ORDER: Record<ResultStatus, number> = { new: 0, active: 1, resolved: 2, ignored: 3 };

export const STATUS_LABEL: Record<ResultStatus, string> = { new: 'New', active: 'Active', resolved: 'Resolved', ignored: 'Ignored' };

/**
 * A row of the results table: a result of the last check, a pair that check resolved (gone since
 * the check before), or — before any check — a pair whose status the assembly file keeps.
 */
export interface TableRow {
  /** The unordered pair (`a|b`). */
  readonly key: string;
  readonly a: string;
  readonly b: string;
  /** null: not a result of the last check. */
  readonly kind: ResultKind | null;
  readonly status: ResultStatus;
  readonly result: PairResultInfo | null;
  /** The pair's result number (`R1`, …: the document's, kept from check to check), null when it has none yet. */
  readonly id?: string | null;
}

/** The number of a result id `R<n>` (for sorting), or null. */
export function resultIdNumber(id: string | null | undefined): number | null {
  const m = id ? /^R(\d+)$/.exec(id) : null;
  return m ? Number(m[1]) : null;
}

/** The ids of a status key `a|b` whose two halves name parts of `ids` (ids may hold '|'). */
export function splitStatusKey(key: string, ids: ReadonlySet<string>): [string, string] | null {
  for (let i = key.indexOf('|'); i >= 0; i = key.indexOf('|', i + 1)) {
    const a = key.slice(0, i), b = key.slice(i + 1);
    if (a !== b && ids.has(a) && ids.has(b)) return [a, b];
  }
  return null;
}

/**
 * The rows of the table. With an outcome: its results, with their status as the document now
 * keeps it (the user may have changed it since), then the pairs it resolved. Without one: the
 * statuses saved in the assembly, so a reopened review shows where it stood. Each row names its
 * parts in the order of `partIds` (the assembly's part order), whichever way round the result does.
 */
export function tableRows(
  outcome: CheckOutcome | null, statuses: Readonly<Record<string, ResultStatus>>, partIds: ReadonlySet<string>,
  resultIds: Readonly<Record<string, string>> = {},
): TableRow[] {
  const rows = tableRowsAsFound(outcome, statuses, partIds).map((r) => ({ ...r, id: resultIds[r.key] ?? null }));
  // One order per pair, whichever way round the host names it: the assembly's part order (the set's).
  const order = new Map<string, number>();
  for (const id of partIds) order.set(id, order.size);
  return rows.map((r) => ((order.get(r.a) ?? Infinity) > (order.get(r.b) ?? Infinity) ? { ...r, a: r.b, b: r.a } : r));
}

function tableRowsAsFound(outcome: CheckOutcome | null, statuses: Readonly<Record<string, ResultStatus>>, partIds: ReadonlySet<string>): TableRow[] {
  if (outcome) {
    const rows: TableRow[] = outcome.results.map((r) => {
      const key = resultKey(r);
      return { key, a: r.a, b: r.b, kind: r.kind, status: r.kind === 'ignored' ? 'ignored' : (statuses[key] ?? r.status), result: r };
    });
    const seen = new Set(rows.map((r) => r.key));
    for (const p of outcome.resolved) {
      const key = pairKey(p.a, p.b);
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push({ key, a: p.a, b: p.b, kind: null, status: statuses[key] ?? 'resolved', result: null });
    }
    return rows;
  }
  const rows: TableRow[] = [];
  for (const [key, status] of Object.entries(statuses)) {
    const ids = splitStatusKey(key, partIds);
    if (ids) rows.push({ key, a: ids[0], b: ids[1], kind: null, status, result: null });
  }
  return rows;
}

/** The key of a result: its unordered part pair (as `statuses` keys it). */
export function resultKey(r: Pick<PairResultInfo, 'a' | 'b'>): string {
  return pairKey(r.a, r.b);
}

/** The test id of a result's table row. */
export function resultRowTestId(r: Pick<PairResultInfo, 'a' | 'b'>): string {
  return `result-row-${r.a}-${r.b}`;
}

/** Labels of result kinds for people. */
export const KIND_LABEL: Record<ResultKind, string> = {
  interference: 'Interference',
  contact: 'Contact',
  clearance: 'Clearance',
  undecided: 'Undecided',
  ignored: 'Ignored',
};

/** Number of triangle pairs listed in a result. */
export function trianglePairCount(r: Pick<PairResultInfo, 'trianglePairs'>): number {
  return r.trianglePairs.length >>> 1;
}

type Names = ReadonlyMap<string, string>;

function label(names: Names, id: string): string {
  return names.get(id) ?? id;
}

/** Compares two optional numbers, unknowns always last whatever the direction. */
function compareNullable(x: number | null, y: number | null, descending: boolean): number {
  if (x === null && y === null) return 0;
  if (x === null) return 1;
  if (y === null) return -1;
  return descending ? y - x : x - y;
}

function primary(r: TableRow, key: ResultSortKey, names: Names): number | string | null {
  switch (key) {
    case 'id':
      return resultIdNumber(r.id);
    case 'kind':
      return kindOrder(r);
    case 'status':
      return STATUS_ORDER[r.status];
    case 'a':
      return label(names, r.a);
    case 'b':
      return label(names, r.b);
    case 'volume':
      return r.result?.volumeMm3 ?? null;
    case 'depth':
      return r.result?.depthMm ?? null;
    case 'distance':
      return r.result?.distanceMm ?? null;
    case 'triangles':
      return r.result ? trianglePairCount(r.result) : null;
    case 'resolution':
      return r.result?.resolutionMm ?? null;
  }
}

function kindOrder(r: TableRow): number {
  return r.kind === null ? NO_KIND : KIND_ORDER[r.kind];
}

/** A result as a table row (its status as the result gives it). */
export function rowOf(r: PairResultInfo): TableRow {
  return { key: resultKey(r), a: r.a, b: r.b, kind: r.kind, status: r.status, result: r };
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * Sorts rows by a column; ties fall back to severity, then the parts' labels, so the order is
 * always the same for the same rows. Missing values (no volume, no depth) sort last.
 */
export function sortRows(rows: readonly TableRow[], names: Names, sort: ResultSort): TableRow[] {
  const sign = sort.descending ? -1 : 1;
  const cmp = (x: TableRow, y: TableRow): number => {
    const px = primary(x, sort.key, names);
    const py = primary(y, sort.key, names);
    let c: number;
    if (typeof px === 'string' || typeof py === 'string') c = sign * collator.compare(String(px ?? ''), String(py ?? ''));
    else c = compareNullable(px, py, sort.descending);
    if (c !== 0) return c;
    c = kindOrder(x) - kindOrder(y);
    if (c !== 0) return c;
    c = compareNullable(x.result?.volumeMm3 ?? null, y.result?.volumeMm3 ?? null, true);
    if (c !== 0) return c;
    c = collator.compare(label(names, x.a), label(names, y.a));
    if (c !== 0) return c;
    return collator.compare(label(names, x.b), label(names, y.b));
  };
  return [...rows].sort(cmp);
}

/** Rows of a kind and a status whose parts' labels or ids contain the text. */
export function filterRows(rows: readonly TableRow[], names: Names, filter: Partial<ResultFilter>): TableRow[] {
  const q = (filter.text ?? '').trim().toLowerCase();
  const kind = filter.kind ?? 'all';
  const status = filter.status ?? 'all';
  return rows.filter((r) => {
    if (kind !== 'all' && r.kind !== kind) return false;
    if (status !== 'all' && r.status !== status) return false;
    if (filter.part && r.a !== filter.part && r.b !== filter.part) return false;
    if (q === '') return true;
    return [label(names, r.a), label(names, r.b), r.a, r.b].some((s) => s.toLowerCase().includes(q));
  });
}

/** sortRows over results. */
export function sortResults(results: readonly PairResultInfo[], names: Names, sort: ResultSort): PairResultInfo[] {
  return sortRows(results.map(rowOf), names, sort).map((r) => r.result as PairResultInfo);
}

/** filterRows over results. */
export function filterResults(results: readonly PairResultInfo[], names: Names, filter: Partial<ResultFilter>): PairResultInfo[] {
  return filterRows(results.map(rowOf), names, filter).map((r) => r.result as PairResultInfo);
}

/** The next sort when a column header is clicked: same column flips, another starts ascending
 * (numbers of size start descending: the biggest interference first). */
export function nextSort(current: ResultSort, key: ResultSortKey): ResultSort {
  if (current.key === key) return { key, descending: !current.descending };
  const biggestFirst = key === 'volume' || key === 'depth' || key === 'triangles';
  return { key, descending: biggestFirst };
}

/**
 * The distinct triangles of one side of a pair (0: part a, 1: part b), ascending, from the
 * interleaved pairs [triangle of a, triangle of b, …].
 */
export function sideTriangles(trianglePairs: Uint32Array, side: 0 | 1): Uint32Array {
  const n = trianglePairs.length >>> 1;
  const picked = new Uint32Array(n);
  for (let i = 0; i < n; i++) picked[i] = trianglePairs[2 * i + side];
  picked.sort();
  let w = 0;
  for (let i = 0; i < n; i++) {
    if (w === 0 || picked[i] !== picked[w - 1]) picked[w++] = picked[i];
  }
  return picked.slice(0, w);
}

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** One-line summary of an outcome's counts; undecided pairs only when there are any. */
export function summaryText(summary: { interferences: number; contacts: number; clearanceViolations: number; ignored: number; undecided?: number }): string {
  const undecided = summary.undecided ?? 0;
  return [
    plural(summary.interferences, 'interference', 'interferences'),
    ...(undecided > 0 ? [`${formatCount(undecided)} undecided`] : []),
    plural(summary.clearanceViolations, 'clearance violation', 'clearance violations'),
    plural(summary.contacts, 'contact', 'contacts'),
    `${formatCount(summary.ignored)} ignored`,
  ].join(' · ');
}

/**
 * How many pairs were decided on bodies re-tessellated finer, and the finest deflection used:
 * "4 pairs refined to 0.0005 mm"; null when none was.
 */
export function refinedSummaryText(summary: { refinedPairs: number; finestDeflectionMm: number | null }): string | null {
  if (summary.refinedPairs <= 0 || summary.finestDeflectionMm === null) return null;
  return `${plural(summary.refinedPairs, 'pair', 'pairs')} refined to ${formatMeasure(summary.finestDeflectionMm)} mm`;
}

// ---- How finely a pair was decided -----------------------------------------------------------

type Decided = Pick<PairResultInfo, 'kind' | 'contained' | 'resolutionMm' | 'refinedDeflectionMm'>;

const POSSIBLE_KIND_LABEL: Record<PossibleKind, string> = {
  interference: 'interference',
  contact: 'contact',
  clearance: 'clearance violation',
  clear: 'clear',
};

/** "interference or contact", "interference, contact or clearance violation". */
export function possibleKindsText(kinds: readonly PossibleKind[]): string {
  const labels = kinds.map((k) => POSSIBLE_KIND_LABEL[k]);
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
}

/** A signed separation range, negative an overlap, positive a gap: "−0.012 … +0.003 mm". */
export function separationRangeText(range: readonly [number, number]): string {
  return `${formatSignedMeasure(range[0])} … ${formatSignedMeasure(range[1])} mm`;
}

/**
 * What an undecided pair may be: "interference or contact: −0.012 … +0.003 mm"; null for a pair
 * that is decided (or an undecided one without its range).
 */
export function undecidedText(r: Pick<PairResultInfo, 'kind' | 'possibleKinds' | 'separationRangeMm'>): string | null {
  if (r.kind !== 'undecided' || r.possibleKinds === null || r.separationRangeMm === null) return null;
  return `${possibleKindsText(r.possibleKinds)}: ${separationRangeText(r.separationRangeMm)}`;
}

/** No resolution applies: the pair was not measured (ignored) or no surfaces meet (one inside the other). */
function resolutionApplies(r: Decided): boolean {
  return r.kind !== 'ignored' && !r.contained;
}

/**
 * The resolution cell (mm in the column header): "±0.0011" for CAD pairs, "as given" for meshes
 * that are the geometry (STL), "—" where none applies.
 */
export function resolutionCellText(r: Decided): string {
  if (!resolutionApplies(r)) return '—';
  return r.resolutionMm === null ? 'as given' : `±${formatMeasure(r.resolutionMm)}`;
}

/** The mark of a pair decided on re-tessellated bodies: "refined 0.0005 mm"; null if it was not. */
export function refinedTagText(r: Pick<PairResultInfo, 'refinedDeflectionMm'>): string | null {
  return r.refinedDeflectionMm === null ? null : `refined ${formatMeasure(r.refinedDeflectionMm)} mm`;
}

/** What the resolution means for this pair, for a tooltip. */
export function resolutionTitle(r: Decided): string {
  if (r.kind === 'ignored') return 'Ignored: not measured';
  if (r.contained) return 'One part lies inside the other: no surfaces meet';
  if (r.resolutionMm === null) return 'Decided on the triangles as given (mesh files are the geometry): no tessellation error';
  const res = `depth and distance ±${formatMeasure(r.resolutionMm)} mm`;
  const undecided = r.kind === 'undecided';
  if (r.refinedDeflectionMm === null) return `${undecided ? 'Not decided' : 'Decided'} on the file's own tessellation: ${res} of the exact surfaces`;
  const bodies = `on bodies re-tessellated to a deflection of ${formatMeasure(r.refinedDeflectionMm)} mm`;
  return `${undecided ? 'Not decided even' : 'Decided'} ${bodies}: ${res} of the exact surfaces`;
}

/**
 * The selected pair bar's line on how the pair was decided: "resolution ±0.0011 mm, refined to
 * 0.0005 mm", "resolution ±0.0011 mm", "mesh as given"; null where no resolution applies.
 */
export function resolutionSummary(r: Decided): string | null {
  if (!resolutionApplies(r)) return null;
  if (r.resolutionMm === null) return 'mesh as given';
  const res = `resolution ±${formatMeasure(r.resolutionMm)} mm`;
  return r.refinedDeflectionMm === null ? res : `${res}, refined to ${formatMeasure(r.refinedDeflectionMm)} mm`;
}
