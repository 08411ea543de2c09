/**
 * A coarse stand-in for a large body, drawn only while the camera is dragged (MotionResolution):
 * vertex clustering — the body's vertices snapped to a grid of cells, each cell's vertices
 * merged into their mean, triangles that collapse dropped. Linear in the body's size; plain
 * typed arrays, no three.
 */

/** Bodies with fewer triangles are drawn as they are while the camera moves. */
export const COARSE_MIN_TRIANGLES = 5_000;
/** Cells along the longest side of the body's box. */
export const COARSE_CELLS = 48;

export interface CoarseMesh {
  readonly positions: Float32Array;
  readonly indices: Uint32Array;
}

/** The clustered mesh of `positions`/`indices`, or null when it would not be smaller by half. */
export function coarseMesh(positions: ArrayLike<number>, indices: ArrayLike<number>, cells = COARSE_CELLS): CoarseMesh | null {
  const vertexCount = Math.floor(positions.length / 3);
  const triCount = Math.floor(indices.length / 3);
  if (vertexCount === 0 || triCount === 0) return null;
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let v = 0; v < vertexCount; v++) {
    const x = positions[3 * v], y = positions[3 * v + 1], z = positions[3 * v + 2];
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (z < minZ) minZ = z;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
    if (z > maxZ) maxZ = z;
  }
  const size = Math.max(maxX - minX, maxY - minY, maxZ - minZ);
  if (!(size > 0)) return null;
  const cell = size / cells;
  const nx = Math.floor((maxX - minX) / cell) + 1;
  const ny = Math.floor((maxY - minY) / cell) + 1;
  // Cell of each vertex → its cluster (clusters numbered in order of first use).
  const clusterOf = new Map<number, number>();
  const vertexCluster = new Uint32Array(vertexCount);
  const sums: number[] = [];
  const counts: number[] = [];
  for (let v = 0; v < vertexCount; v++) {
    const x = positions[3 * v], y = positions[3 * v + 1], z = positions[3 * v + 2];
    const key = Math.floor((x - minX) / cell) + nx * (Math.floor((y - minY) / cell) + ny * Math.floor((z - minZ) / cell));
    let c = clusterOf.get(key);
    if (c === undefined) {
      c = counts.length;
      clusterOf.set(key, c);
      counts.push(0);
      sums.push(0, 0, 0);
    }
    vertexCluster[v] = c;
    counts[c]++;
    sums[3 * c] += x;
    sums[3 * c + 1] += y;
    sums[3 * c + 2] += z;
  }
  const out: number[] = [];
  const seen = new Set<string>();
  for (let t = 0; t < triCount; t++) {
    const a = vertexCluster[indices[3 * t]], b = vertexCluster[indices[3 * t + 1]], c = vertexCluster[indices[3 * t + 2]];
    if (a === b || b === c || c === a) continue;
    // The same three clusters in the same turn: one triangle.
    const lo = Math.min(a, b, c);
    const key = lo === a ? `${a},${b},${c}` : lo === b ? `${b},${c},${a}` : `${c},${a},${b}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(a, b, c);
  }
  if (out.length / 3 > triCount / 2) return null;
  const clusterCount = counts.length;
  const pos = new Float32Array(3 * clusterCount);
  for (let c = 0; c < clusterCount; c++) {
    pos[3 * c] = sums[3 * c] / counts[c];
    pos[3 * c + 1] = sums[3 * c + 1] / counts[c];
    pos[3 * c + 2] = sums[3 * c + 2] / counts[c];
  }
  return { positions: pos, indices: Uint32Array.from(out) };
}
