/**
 * Broad phase: which pairs of axis-aligned boxes overlap? Sweep and prune along x (sort the boxes
 * by their lower x bound, keep an active list of boxes whose x interval is still open), then test
 * y and z. O(n log n + pairs along x).
 */

/** More overlapping pairs than the caller's limit: how many (or at least how many), and the limit. */
export class PairLimitError extends RangeError {
  override readonly name = 'PairLimitError';
  constructor(
    /** Pairs found; a lower bound when `exact` is false (counting stopped). */
    readonly pairs: number,
    readonly limit: number,
    readonly exact: boolean,
  ) {
    super(`${exact ? '' : 'more than '}${pairs} overlapping pairs, more than the limit of ${limit}`);
  }
}

/** Counting goes on past the limit (for the error's figure) up to this many times the limit. */
const COUNT_BEYOND_LIMIT = 100;

/**
 * `boxes`: 6 numbers per box (minX, minY, minZ, maxX, maxY, maxZ). Returns overlapping pairs as
 * [i, j, …] with i < j, boxes touching at a face counting as overlapping. With `accept`, only
 * the overlapping pairs it accepts (called with i < j) are kept and counted. With `maxPairs`,
 * more pairs than that throw PairLimitError instead (nothing beyond the limit is stored; they
 * are counted up to 100 × the limit).
 */
export function sweepAndPrune(boxes: Float64Array, maxPairs: number = Infinity, accept?: (i: number, j: number) => boolean): Uint32Array {
  const n = boxes.length / 6;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => boxes[6 * a] - boxes[6 * b] || a - b);
  const active: number[] = [];
  const out: number[] = [];
  let found = 0;
  const stopAt = COUNT_BEYOND_LIMIT * maxPairs;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    const minX = boxes[6 * i];
    // Drop boxes that end before this one starts.
    let w = 0;
    for (let r = 0; r < active.length; r++) {
      const j = active[r];
      if (boxes[6 * j + 3] >= minX) active[w++] = j;
    }
    active.length = w;
    for (let r = 0; r < w; r++) {
      const j = active[r];
      if (
        boxes[6 * i + 1] <= boxes[6 * j + 4] && boxes[6 * j + 1] <= boxes[6 * i + 4] &&
        boxes[6 * i + 2] <= boxes[6 * j + 5] && boxes[6 * j + 2] <= boxes[6 * i + 5]
      ) {
        if (accept && !(i < j ? accept(i, j) : accept(j, i))) continue;
        if (++found > maxPairs) {
          if (found >= stopAt) throw new PairLimitError(found, maxPairs, false);
          continue;
        }
        if (i < j) out.push(i, j);
        else out.push(j, i);
      }
    }
    active.push(i);
  }
  if (found > maxPairs) throw new PairLimitError(found, maxPairs, true);
  return Uint32Array.from(out);
}

/** The oracle: every pair tested. Same output convention, pairs in (i, j) order. */
export function allPairsOverlap(boxes: Float64Array): Uint32Array {
  const n = boxes.length / 6;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (
        boxes[6 * i] <= boxes[6 * j + 3] && boxes[6 * j] <= boxes[6 * i + 3] &&
        boxes[6 * i + 1] <= boxes[6 * j + 4] && boxes[6 * j + 1] <= boxes[6 * i + 4] &&
        boxes[6 * i + 2] <= boxes[6 * j + 5] && boxes[6 * j + 2] <= boxes[6 * i + 5]
      ) out.push(i, j);
    }
  }
  return Uint32Array.from(out);
}
