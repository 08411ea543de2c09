/**
 * Broad phase: which pairs of axis-aligned boxes overlap? Sweep and prune along x (sort the boxes
 * by their lower x bound, keep an active list of boxes whose x interval is still open), then test
 * y and z. O(n log n + pairs along x).
 */

/**
 * `boxes`: 6 numbers per box (minX, minY, minZ, maxX, maxY, maxZ). Returns overlapping pairs as
 * [i, j, …] with i < j, boxes touching at a face counting as overlapping.
 */
export function sweepAndPrune(boxes: Float64Array): Uint32Array {
  const n = boxes.length / 6;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => boxes[6 * a] - boxes[6 * b] || a - b);
  const active: number[] = [];
  const out: number[] = [];
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
        if (i < j) out.push(i, j);
        else out.push(j, i);
      }
    }
    active.push(i);
  }
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
