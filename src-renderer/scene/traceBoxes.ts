/**
 * Line buffers for the boxes the traversal view visited: one indexed line geometry for all of
 * them (8 corners and 12 edges a box), ordered by depth so that drawing down to a chosen depth is
 * a draw range, not a rebuild. Plain typed-array code (no three), tested in Node.
 */

/** Numbers per box in PairTrace.boxes: side, depth, outcome, centre (3), half extents (3), axes (9). */
export const BOX_STRIDE = 18;

/** The 12 edges of a box as pairs of its corners (corner i: ±x by bit 0, ±y by bit 1, ±z by bit 2). */
const EDGES = [0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7];

export interface BoxLines {
  /** 8 corners a box, x y z, world millimetres. */
  readonly positions: Float32Array;
  /** r g b per corner (0–1). */
  readonly colors: Float32Array;
  /** 24 a box. */
  readonly indices: Uint32Array;
  /** Index count drawing every box of depth ≤ d: `indexEnd[d]` (the last entry for deeper). */
  readonly indexEnd: readonly number[];
  /** Boxes pruned (disjoint) and descended into (or tested as leaves). */
  readonly pruned: number;
  readonly descended: number;
  readonly maxDepth: number;
}

/** Colour of a box by its outcome: 0 pruned, 1 descended, 2 both leaves (tested exactly). */
export interface BoxColours {
  readonly pruned: readonly [number, number, number];
  readonly descended: readonly [number, number, number];
}

export function boxLines(boxes: Float64Array, colours: BoxColours): BoxLines {
  const n = Math.floor(boxes.length / BOX_STRIDE);
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((x, y) => boxes[x * BOX_STRIDE + 1] - boxes[y * BOX_STRIDE + 1] || x - y);
  const positions = new Float32Array(n * 24);
  const colors = new Float32Array(n * 24);
  const indices = new Uint32Array(n * 24);
  const indexEnd: number[] = [];
  let pruned = 0;
  let maxDepth = 0;
  for (let k = 0; k < n; k++) {
    const o = order[k] * BOX_STRIDE;
    const depth = boxes[o + 1];
    while (indexEnd.length < depth) indexEnd.push(k * 24);
    maxDepth = Math.max(maxDepth, depth);
    const isPruned = boxes[o + 2] === 0;
    if (isPruned) pruned++;
    const colour = isPruned ? colours.pruned : colours.descended;
    const cx = boxes[o + 3], cy = boxes[o + 4], cz = boxes[o + 5];
    const hx = boxes[o + 6], hy = boxes[o + 7], hz = boxes[o + 8];
    for (let c = 0; c < 8; c++) {
      const sx = c & 1 ? hx : -hx, sy = c & 2 ? hy : -hy, sz = c & 4 ? hz : -hz;
      // Axes are rows: axis j is boxes[o + 9 + 3j .. +2].
      const p = (k * 8 + c) * 3;
      positions[p] = cx + sx * boxes[o + 9] + sy * boxes[o + 12] + sz * boxes[o + 15];
      positions[p + 1] = cy + sx * boxes[o + 10] + sy * boxes[o + 13] + sz * boxes[o + 16];
      positions[p + 2] = cz + sx * boxes[o + 11] + sy * boxes[o + 14] + sz * boxes[o + 17];
      colors[p] = colour[0];
      colors[p + 1] = colour[1];
      colors[p + 2] = colour[2];
    }
    for (let e = 0; e < 24; e++) indices[k * 24 + e] = k * 8 + EDGES[e];
  }
  while (indexEnd.length <= maxDepth) indexEnd.push(n * 24);
  return { positions, colors, indices, indexEnd, pruned, descended: n - pruned, maxDepth };
}

/** The index count drawing the boxes down to `depth`. */
export function indexCountToDepth(lines: Pick<BoxLines, 'indexEnd'>, depth: number): number {
  if (lines.indexEnd.length === 0 || depth < 0) return 0;
  return lines.indexEnd[Math.min(Math.floor(depth), lines.indexEnd.length - 1)];
}

/** The deepest box of a trace (0 when there is none). */
export function maxBoxDepth(boxes: Float64Array): number {
  let d = 0;
  for (let o = 1; o < boxes.length; o += BOX_STRIDE) d = Math.max(d, boxes[o]);
  return d;
}
