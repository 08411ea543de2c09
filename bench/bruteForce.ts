// Brute force without the quadratic cost, for reference counts: every pair of triangles whose
// axis-aligned bounds overlap runs the engine's exact closed-triangle test (triTriIntersect) on
// B's vertices mapped exactly as collideBruteForce maps them. A pair whose bounds are apart on
// some axis cannot meet (closed triangles, exact min/max), so the answer is collideBruteForce's;
// the tests check that on whole scenarios. Candidates come from a uniform grid over B's
// triangles' bounds, clipped to the box where A's and B's bounds overlap; cell indices come from
// one monotone function per axis, so bounds that overlap always share a cell.

import { triTriIntersect } from '../src-core/geometry/triTri';
import { parseRigid } from '../src-core/geometry/rigid';

export interface IndexedMesh {
  readonly positions: Float64Array;
  readonly indices: Uint32Array;
  readonly triangleCount: number;
}

/** B's vertices under the pose, computed as collideBruteForce and the README compute them. */
export function mapPositions(positions: Float64Array, pose: ArrayLike<number>): Float64Array {
  const m = parseRigid(pose);
  const X = new Float64Array(positions.length);
  for (let o = 0; o < positions.length; o += 3) {
    const x = positions[o], y = positions[o + 1], z = positions[o + 2];
    X[o] = m[0] * x + m[1] * y + m[2] * z + m[3];
    X[o + 1] = m[4] * x + m[5] * y + m[6] * z + m[7];
    X[o + 2] = m[8] * x + m[9] * y + m[10] * z + m[11];
  }
  return X;
}

function boundsOf(P: Float64Array, I: Uint32Array, n: number): Float64Array {
  const out = new Float64Array(6 * n);
  for (let t = 0; t < n; t++) {
    for (let k = 0; k < 3; k++) {
      const v0 = P[3 * I[3 * t] + k], v1 = P[3 * I[3 * t + 1] + k], v2 = P[3 * I[3 * t + 2] + k];
      out[6 * t + k] = Math.min(v0, v1, v2);
      out[6 * t + 3 + k] = Math.max(v0, v1, v2);
    }
  }
  return out;
}

/**
 * Every intersecting pair (iA, iB) under `pose` (B mapped into A's frame), as a flat
 * [iA, iB, …] list sorted by iA, then iB.
 */
export function gridBruteForce(a: IndexedMesh, b: IndexedMesh, pose: ArrayLike<number>): Uint32Array {
  const X = mapPositions(b.positions, pose);
  const BA = boundsOf(a.positions, a.indices, a.triangleCount);
  const BB = boundsOf(X, b.indices, b.triangleCount);
  // The box where both meshes' bounds overlap; nothing outside it can meet.
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  const loA = [Infinity, Infinity, Infinity], hiA = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < a.triangleCount; i++) {
    for (let k = 0; k < 3; k++) {
      loA[k] = Math.min(loA[k], BA[6 * i + k]);
      hiA[k] = Math.max(hiA[k], BA[6 * i + 3 + k]);
    }
  }
  for (let j = 0; j < b.triangleCount; j++) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], BB[6 * j + k]);
      hi[k] = Math.max(hi[k], BB[6 * j + 3 + k]);
    }
  }
  for (let k = 0; k < 3; k++) {
    lo[k] = Math.max(lo[k], loA[k]);
    hi[k] = Math.min(hi[k], hiA[k]);
    if (lo[k] > hi[k]) return new Uint32Array(0);
  }
  const inBox = (Bx: Float64Array, o: number): boolean =>
    Bx[o] <= hi[0] && Bx[o + 1] <= hi[1] && Bx[o + 2] <= hi[2] && Bx[o + 3] >= lo[0] && Bx[o + 4] >= lo[1] && Bx[o + 5] >= lo[2];
  let extent = 0, inside = 0;
  for (let j = 0; j < b.triangleCount; j++) {
    if (!inBox(BB, 6 * j)) continue;
    inside++;
    for (let k = 0; k < 3; k++) extent += BB[6 * j + 3 + k] - BB[6 * j + k];
  }
  if (inside === 0) return new Uint32Array(0);
  const range = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const cell = Math.max(extent / (3 * inside), range / 128, 1e-300);
  const dims = [0, 1, 2].map((k) => Math.floor((hi[k] - lo[k]) / cell) + 1);
  const index = (x: number, k: number): number => Math.min(dims[k] - 1, Math.max(0, Math.floor((x - lo[k]) / cell)));
  const cells = dims[0] * dims[1] * dims[2];
  // Compressed rows: start[c] … start[c + 1] index `members` with B's triangles in cell c.
  const start = new Int32Array(cells + 1);
  const forCells = (o: number, visit: (c: number) => void): void => {
    const x1 = index(BB[o + 3], 0), y1 = index(BB[o + 4], 1), z1 = index(BB[o + 5], 2);
    for (let x = index(BB[o], 0); x <= x1; x++) {
      for (let y = index(BB[o + 1], 1); y <= y1; y++) {
        for (let z = index(BB[o + 2], 2); z <= z1; z++) visit((x * dims[1] + y) * dims[2] + z);
      }
    }
  };
  for (let j = 0; j < b.triangleCount; j++) if (inBox(BB, 6 * j)) forCells(6 * j, (c) => start[c + 1]++);
  for (let c = 0; c < cells; c++) start[c + 1] += start[c];
  const fill = start.slice(0, cells);
  const members = new Int32Array(start[cells]);
  for (let j = 0; j < b.triangleCount; j++) if (inBox(BB, 6 * j)) forCells(6 * j, (c) => (members[fill[c]++] = j));

  const IA = a.indices, IB = b.indices, PA = a.positions;
  const stamp = new Int32Array(b.triangleCount).fill(-1);
  const out: number[] = [];
  const found: number[] = [];
  for (let i = 0; i < a.triangleCount; i++) {
    const o = 6 * i;
    if (!inBox(BA, o)) continue;
    found.length = 0;
    const x1 = index(BA[o + 3], 0), y1 = index(BA[o + 4], 1), z1 = index(BA[o + 5], 2);
    for (let x = index(BA[o], 0); x <= x1; x++) {
      for (let y = index(BA[o + 1], 1); y <= y1; y++) {
        for (let z = index(BA[o + 2], 2); z <= z1; z++) {
          const c = (x * dims[1] + y) * dims[2] + z;
          for (let m = start[c]; m < start[c + 1]; m++) {
            const j = members[m];
            if (stamp[j] === i) continue;
            stamp[j] = i;
            const p = 6 * j;
            if (BB[p] > BA[o + 3] || BB[p + 1] > BA[o + 4] || BB[p + 2] > BA[o + 5]) continue;
            if (BB[p + 3] < BA[o] || BB[p + 4] < BA[o + 1] || BB[p + 5] < BA[o + 2]) continue;
            if (triTriIntersect(PA, 3 * IA[3 * i], 3 * IA[3 * i + 1], 3 * IA[3 * i + 2], X, 3 * IB[3 * j], 3 * IB[3 * j + 1], 3 * IB[3 * j + 2])) {
              found.push(j);
            }
          }
        }
      }
    }
    found.sort((p, q) => p - q);
    for (const j of found) out.push(i, j);
  }
  return Uint32Array.from(out);
}
