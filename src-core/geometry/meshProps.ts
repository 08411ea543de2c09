/**
 * Whole-mesh properties the check needs: is the surface closed (every edge shared by exactly two
 * triangles, in opposite directions), its signed volume and centroid (divergence theorem), and the
 * bounds of a placed mesh.
 */
import type { TriangleMesh } from './mesh.js';

export interface EdgeReport {
  /** Edges used by one triangle only. */
  readonly boundaryEdges: number;
  /** Edges used by more than two triangles. */
  readonly nonManifoldEdges: number;
  /** Edges used twice in the same direction (inconsistently oriented neighbours). */
  readonly misorientedEdges: number;
  /** No boundary, non-manifold or misoriented edge: a closed, consistently oriented surface. */
  readonly closed: boolean;
}

const edgeReports = new WeakMap<TriangleMesh, EdgeReport>();

/**
 * Edge topology of a welded mesh (zero-length edges of degenerate triangles are skipped);
 * remembered per mesh object, whose arrays are not expected to change.
 */
export function edgeReport(mesh: TriangleMesh): EdgeReport {
  let report = edgeReports.get(mesh);
  if (!report) {
    report = computeEdgeReport(mesh);
    edgeReports.set(mesh, report);
  }
  return report;
}

function computeEdgeReport(mesh: TriangleMesh): EdgeReport {
  const I = mesh.indices, n = mesh.triangleCount;
  // Open addressing on undirected edges; per edge: count of uses a→b (a < b) and b→a.
  let size = 16;
  while (size < 6 * n) size *= 2;
  const mask = size - 1;
  const keyLo = new Int32Array(size).fill(-1);
  const keyHi = new Int32Array(size);
  const fwd = new Int32Array(size);
  const bwd = new Int32Array(size);
  for (let t = 0; t < n; t++) {
    for (let k = 0; k < 3; k++) {
      const u = I[3 * t + k], v = I[3 * t + ((k + 1) % 3)];
      if (u === v) continue;
      const lo = u < v ? u : v, hi = u < v ? v : u;
      let h = (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca6b)) >>> 0;
      h ^= h >>> 15;
      let slot = h & mask;
      while (keyLo[slot] !== -1 && (keyLo[slot] !== lo || keyHi[slot] !== hi)) slot = (slot + 1) & mask;
      keyLo[slot] = lo;
      keyHi[slot] = hi;
      if (u < v) fwd[slot]++;
      else bwd[slot]++;
    }
  }
  let boundary = 0, nonManifold = 0, misoriented = 0;
  for (let s = 0; s < size; s++) {
    if (keyLo[s] === -1) continue;
    const total = fwd[s] + bwd[s];
    if (total === 1) boundary++;
    else if (total > 2) nonManifold++;
    else if (fwd[s] !== 1) misoriented++;
  }
  return {
    boundaryEdges: boundary,
    nonManifoldEdges: nonManifold,
    misorientedEdges: misoriented,
    closed: boundary === 0 && nonManifold === 0 && misoriented === 0,
  };
}

export interface VolumeProps {
  /** Signed volume (positive for outward-facing triangles of a closed surface). */
  readonly volume: number;
  /** Centroid of the enclosed volume (meaningful for closed surfaces). */
  readonly centroid: [number, number, number];
}

/**
 * Signed volume and centroid by the divergence theorem: the sum of signed tetrahedra from a
 * reference point (the bounds' centre, for accuracy) to each triangle.
 */
export function volumeProps(mesh: TriangleMesh): VolumeProps {
  const P = mesh.positions, I = mesh.indices, n = mesh.triangleCount;
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let v = 0; v < mesh.vertexCount; v++) {
    minX = Math.min(minX, P[3 * v]); maxX = Math.max(maxX, P[3 * v]);
    minY = Math.min(minY, P[3 * v + 1]); maxY = Math.max(maxY, P[3 * v + 1]);
    minZ = Math.min(minZ, P[3 * v + 2]); maxZ = Math.max(maxZ, P[3 * v + 2]);
  }
  const rx = 0.5 * (minX + maxX), ry = 0.5 * (minY + maxY), rz = 0.5 * (minZ + maxZ);
  let vol = 0, cx = 0, cy = 0, cz = 0;
  for (let t = 0; t < n; t++) {
    const a = 3 * I[3 * t], b = 3 * I[3 * t + 1], c = 3 * I[3 * t + 2];
    const ax = P[a] - rx, ay = P[a + 1] - ry, az = P[a + 2] - rz;
    const bx = P[b] - rx, by = P[b + 1] - ry, bz = P[b + 2] - rz;
    const qx = P[c] - rx, qy = P[c + 1] - ry, qz = P[c + 2] - rz;
    const v6 = ax * (by * qz - bz * qy) + ay * (bz * qx - bx * qz) + az * (bx * qy - by * qx);
    vol += v6;
    cx += v6 * (ax + bx + qx);
    cy += v6 * (ay + by + qy);
    cz += v6 * (az + bz + qz);
  }
  const volume = vol / 6;
  if (vol === 0) return { volume: 0, centroid: [rx, ry, rz] };
  return { volume, centroid: [cx / (4 * vol) + rx, cy / (4 * vol) + ry, cz / (4 * vol) + rz] };
}
