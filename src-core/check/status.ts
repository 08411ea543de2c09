/**
 * Result statuses across checks: the review of an assembly's findings, and how a new check
 * changes it. Pure; the host keeps the review with the document (src-main/services/host) and
 * saves it in the assembly's `resultStatus` (docs/formats.md).
 *
 * A finding's identity is its part pair and its kind. Against the review before the check:
 *  - a finding seen for the first time is **new**; one seen before (new or active) **active** —
 *    unless its kind became more severe (contact → clearance → undecided → interference), which
 *    makes it a new finding; one the user marked ignored stays **ignored**;
 *  - a pair an ignore rule leaves out (kind `ignored`) is **ignored**, and stays so in the review;
 *  - a finding of the scope that is gone is **resolved** and listed as such; a pair that was only
 *    left out by an ignore rule and is clear now is dropped from the review;
 *  - pairs outside the check's scope keep their status.
 * The counts per status are those of the rows: the results, then the resolved pairs.
 */

export type ResultStatus = 'new' | 'active' | 'resolved' | 'ignored';
export const RESULT_STATUSES: readonly ResultStatus[] = ['new', 'active', 'resolved', 'ignored'];

/** The kinds of the rows of a check (src-core/check/types.ts ResultKind). */
export type FindingKind = 'interference' | 'contact' | 'clearance' | 'undecided' | 'ignored';

/** Severity of the kinds of findings: a finding whose kind rises is a new one. */
const SEVERITY: Record<Exclude<FindingKind, 'ignored'>, number> = { contact: 0, clearance: 1, undecided: 2, interference: 3 };

/** The key of an unordered part pair: `a|b` with a < b (by UTF-16 code unit), as `resultStatus` keys it. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

/** The ids of a pair key `a|b` (ids may themselves hold '|'): the split naming two parts of `parts`. */
export function splitPairKey(key: string, parts: { has(id: string): boolean }): [string, string] | null {
  for (let i = key.indexOf('|'); i >= 0; i = key.indexOf('|', i + 1)) {
    const a = key.slice(0, i), b = key.slice(i + 1);
    if (a !== b && parts.has(a) && parts.has(b)) return [a, b];
  }
  return null;
}

/** One pair of the review: its status, and the kind it had when last checked (null: not known, as read from a file). */
export interface ReviewEntry {
  readonly status: ResultStatus;
  readonly kind: FindingKind | null;
}

/** The review: entries by pairKey. */
export type Review = ReadonlyMap<string, ReviewEntry>;

export interface StatusDiffInput {
  /** The review before the check. */
  readonly before: Review;
  /** The check's results (one per pair), in their order. */
  readonly results: readonly { readonly a: string; readonly b: string; readonly kind: FindingKind }[];
  /** The parts in document order: resolved pairs name the earlier part first. */
  readonly partOrder: readonly string[];
  /** Whether a pair was in the check's scope (default: every pair). */
  readonly inScope?: (a: string, b: string) => boolean;
}

export interface StatusCounts {
  readonly new: number;
  readonly active: number;
  readonly resolved: number;
  readonly ignored: number;
}

export interface StatusDiff {
  /** The status of each result, in the results' order. */
  readonly statuses: ResultStatus[];
  /** Findings of the scope that are gone, in the order of the review before. */
  readonly resolved: { readonly a: string; readonly b: string }[];
  /** The review after the check. */
  readonly review: Map<string, ReviewEntry>;
  /** Rows per status: the results' statuses and the resolved pairs. */
  readonly counts: StatusCounts;
  /** Whether the review changed. */
  readonly changed: boolean;
}

function statusOf(kind: FindingKind, prev: ReviewEntry | undefined): ResultStatus {
  if (kind === 'ignored') return 'ignored';
  if (prev === undefined || prev.kind === 'ignored') return 'new';
  if (prev.status === 'ignored') return 'ignored';
  if (prev.status === 'resolved') return 'new';
  if (prev.kind !== null && SEVERITY[kind] > SEVERITY[prev.kind]) return 'new';
  return 'active';
}

/**
 * The review saved in an assembly's `resultStatus` field (an object of pair keys to statuses; the
 * kinds are not saved): entries naming no two parts (`split`) or no known status are dropped and
 * counted; a field that is not such an object is one dropped entry.
 */
export function readSavedReview(raw: unknown, split: (key: string) => readonly [string, string] | null): { review: Map<string, ReviewEntry>; dropped: number } {
  const review = new Map<string, ReviewEntry>();
  if (raw === undefined) return { review, dropped: 0 };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { review, dropped: 1 };
  let dropped = 0;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const ids = split(key);
    if (ids === null || typeof value !== 'string' || !(RESULT_STATUSES as readonly string[]).includes(value)) {
      dropped++;
      continue;
    }
    review.set(pairKey(ids[0], ids[1]), { status: value as ResultStatus, kind: null });
  }
  return { review, dropped };
}

/** The statuses of a check's results and the review after it; see the file comment. */
export function diffStatuses(input: StatusDiffInput): StatusDiff {
  const { before, results } = input;
  const inScope = input.inScope ?? (() => true);
  const ids = new Set(input.partOrder);
  const order = new Map(input.partOrder.map((id, i) => [id, i]));
  const review = new Map<string, ReviewEntry>();
  // Pairs outside the scope (or naming no two parts) keep their entry.
  for (const [key, entry] of before) {
    const pair = splitPairKey(key, ids);
    if (pair === null || !inScope(pair[0], pair[1])) review.set(key, entry);
  }
  const present = new Set<string>();
  const statuses = results.map((r) => {
    const key = pairKey(r.a, r.b);
    present.add(key);
    const status = statusOf(r.kind, before.get(key));
    review.set(key, { status, kind: r.kind });
    return status;
  });
  const resolved: { a: string; b: string }[] = [];
  for (const [key, entry] of before) {
    if (present.has(key) || entry.status === 'resolved' || entry.kind === 'ignored') continue;
    const pair = splitPairKey(key, ids);
    if (pair === null || !inScope(pair[0], pair[1])) continue;
    const [a, b] = (order.get(pair[0]) as number) < (order.get(pair[1]) as number) ? pair : [pair[1], pair[0]];
    resolved.push({ a, b });
    review.set(key, { status: 'resolved', kind: entry.kind });
  }
  const counts = { new: 0, active: 0, resolved: resolved.length, ignored: 0 };
  for (const s of statuses) counts[s]++;
  const changed = review.size !== before.size || [...review].some(([k, e]) => before.get(k)?.status !== e.status);
  return { statuses, resolved, review, counts, changed };
}
