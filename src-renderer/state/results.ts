/**
 * The results table's logic: keys, ordering, filtering, and the triangles of each side of a pair.
 */
import { pairKey } from '../../src-main/contract/host';
import type { PairResultInfo } from '../../src-main/contract/host';

export type ResultKind = PairResultInfo['kind'];
export type ResultSortKey = 'kind' | 'a' | 'b' | 'volume' | 'depth' | 'distance' | 'triangles' | 'status';
export interface ResultSort {
  readonly key: ResultSortKey;
  readonly descending: boolean;
}
export interface ResultFilter {
  readonly kind: ResultKind | 'all';
  readonly text: string;
}

export const DEFAULT_RESULT_SORT: ResultSort = { key: 'kind', descending: false };
export const DEFAULT_RESULT_FILTER: ResultFilter = { kind: 'all', text: '' };

/** Most severe first. */
const KIND_ORDER: Record<ResultKind, number> = { interference: 0, clearance: 1, contact: 2, ignored: 3 };
const STATUS_ORDER: Record<PairResultInfo['status'], number> = { new: 0, active: 1, resolved: 2, ignored: 3 };

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

function primary(r: PairResultInfo, key: ResultSortKey, names: Names): number | string | null {
  switch (key) {
    case 'kind':
      return KIND_ORDER[r.kind];
    case 'status':
      return STATUS_ORDER[r.status];
    case 'a':
      return label(names, r.a);
    case 'b':
      return label(names, r.b);
    case 'volume':
      return r.volumeMm3;
    case 'depth':
      return r.depthMm;
    case 'distance':
      return r.distanceMm;
    case 'triangles':
      return trianglePairCount(r);
  }
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * Sorts results by a column; ties fall back to severity, then the parts' labels, so the order is
 * always the same for the same results. Missing values (no volume, no depth) sort last.
 */
export function sortResults(results: readonly PairResultInfo[], names: Names, sort: ResultSort): PairResultInfo[] {
  const sign = sort.descending ? -1 : 1;
  const cmp = (x: PairResultInfo, y: PairResultInfo): number => {
    const px = primary(x, sort.key, names);
    const py = primary(y, sort.key, names);
    let c: number;
    if (typeof px === 'string' || typeof py === 'string') c = sign * collator.compare(String(px ?? ''), String(py ?? ''));
    else c = compareNullable(px, py, sort.descending);
    if (c !== 0) return c;
    c = KIND_ORDER[x.kind] - KIND_ORDER[y.kind];
    if (c !== 0) return c;
    c = compareNullable(x.volumeMm3, y.volumeMm3, true);
    if (c !== 0) return c;
    c = collator.compare(label(names, x.a), label(names, y.a));
    if (c !== 0) return c;
    return collator.compare(label(names, x.b), label(names, y.b));
  };
  return [...results].sort(cmp);
}

/** Results of a kind whose parts' labels or ids contain the text. */
export function filterResults(results: readonly PairResultInfo[], names: Names, filter: ResultFilter): PairResultInfo[] {
  const q = filter.text.trim().toLowerCase();
  return results.filter((r) => {
    if (filter.kind !== 'all' && r.kind !== filter.kind) return false;
    if (q === '') return true;
    return [label(names, r.a), label(names, r.b), r.a, r.b].some((s) => s.toLowerCase().includes(q));
  });
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
