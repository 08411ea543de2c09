/**
 * Result numbers: a stable id per part pair, `R1`, `R2`, …, that a review keeps from check to
 * check, so that "R7" in a design review means the same pair in every report of the document.
 *
 * A pair gets its number the first time a check finds it, in the order of that check's results,
 * after the highest number the document has given so far; a pair keeps its number for good — also
 * while it is resolved, and when it comes back. The numbers are saved with the document (the
 * assembly's `resultIds`, docs/formats.md) beside its review statuses (./status.ts), so a reopened
 * document and the command line checking the saved assembly use the same ones.
 */
import { pairKey } from './status.js';

/** Result ids by pairKey. */
export type ResultIds = ReadonlyMap<string, string>;

const ID_PATTERN = /^R([1-9][0-9]{0,15})$/;

/** The number of a result id `R<n>`, or null when `id` is not one. */
export function resultNumber(id: string): number | null {
  const m = ID_PATTERN.exec(id);
  if (m === null) return null;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) ? n : null;
}

/** The id of result number n (from 1): `R<n>`. */
export function resultIdOf(n: number): string {
  return `R${n}`;
}

/**
 * The ids after a check: every pair of `before` keeps its id; each pair of `results` without one
 * gets the next number, in the results' order. Returns the new map (a copy) and the id of each
 * result, in the results' order.
 */
export function assignResultIds(
  before: ResultIds,
  results: readonly { readonly a: string; readonly b: string }[],
): { ids: Map<string, string>; resultIds: string[] } {
  const ids = new Map(before);
  let next = 1;
  for (const id of before.values()) {
    const n = resultNumber(id);
    if (n !== null && n >= next) next = n + 1;
  }
  const resultIds = results.map((r) => {
    const key = pairKey(r.a, r.b);
    const had = ids.get(key);
    if (had !== undefined) return had;
    const id = resultIdOf(next++);
    ids.set(key, id);
    return id;
  });
  return { ids, resultIds };
}

/**
 * Saved ids read back (the assembly's `resultIds` object): entries naming a pair of `parts` with
 * an id `R<n>` used once are kept; the others are counted as dropped.
 */
export function readResultIds(
  raw: unknown,
  splitKey: (key: string) => [string, string] | null,
): { ids: Map<string, string>; dropped: number } {
  const ids = new Map<string, string>();
  let dropped = 0;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ids, dropped: raw === undefined ? 0 : 1 };
  const used = new Set<string>();
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const pair = splitKey(key);
    if (pair === null || typeof value !== 'string' || resultNumber(value) === null || used.has(value)) {
      dropped++;
      continue;
    }
    used.add(value);
    ids.set(pairKey(pair[0], pair[1]), value);
  }
  return { ids, dropped };
}

/** Ids as the assembly saves them: an object keyed by pairKey, in ascending key order. */
export function resultIdsObject(ids: ResultIds): Record<string, string> {
  return Object.fromEntries([...ids].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
