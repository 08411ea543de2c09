/**
 * The results table's logic: keys, ordering, filtering, and the triangles of each side of a pair.
 */
import { pairKey } from '../../src-main/contract/host';
import type { CheckOutcome, PairResultInfo, ResultStatus } from '../../src-main/contract/host';

export type ResultKind = PairResultInfo['kind'];
export type { ResultStatus };
export type ResultSortKey = 'kind' | 'a' | 'b' | 'volume' | 'depth' | 'distance' | 'triangles' | 'status';
export interface ResultSort {
  readonly key: ResultSortKey;
  readonly descending: boolean;
}
export interface ResultFilter {
  readonly kind: ResultKind | 'all';
  readonly status: ResultStatus | 'all';
  readonly text: string;
}

export const DEFAULT_RESULT_SORT: ResultSort = { key: 'kind', descending: false };
export const DEFAULT_RESULT_FILTER: ResultFilter = { kind: 'all', status: 'all', text: '' };

/** Most severe first; pairs not in the last check (resolved, or only in the saved review) last. */
const KIND_ORDER: Record<ResultKind, number> = { interference: 0, clearance: 1, contact: 2, ignored: 3 };
const NO_KIND = 4;
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
 * statuses saved in the assembly, so a reopened review shows where it stood.
 */
export function tableRows(outcome: CheckOutcome | null, statuses: Readonly<Record<string, ResultStatus>>, partIds: ReadonlySet<string>): TableRow[] {
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

/** One-line summary of an outcome's counts. */
export function summaryText(summary: { interferences: number; contacts: number; clearanceViolations: number; ignored: number }): string {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return [
    plural(summary.interferences, 'interference', 'interferences'),
    plural(summary.clearanceViolations, 'clearance violation', 'clearance violations'),
    plural(summary.contacts, 'contact', 'contacts'),
    `${summary.ignored} ignored`,
  ].join(' · ');
}
