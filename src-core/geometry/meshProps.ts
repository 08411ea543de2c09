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

/** The mesh's edge report if edgeReport has computed (or been told) it, else undefined. */
export function knownEdgeReport(mesh: TriangleMesh): EdgeReport | undefined {
  return edgeReports.get(mesh);
}

/**
 * Remembers the edge report of a mesh whose arrays were reported on elsewhere — a copy of a mesh
 * whose report another thread computed (src-main/services/volumeWorker.ts) — so that edgeReport
 * does not count its edges again. The report must be edgeReport's of the same arrays.
 */
export function rememberEdgeReport(mesh: TriangleMesh, report: EdgeReport): void {
  if (!edgeReports.has(mesh)) edgeReports.set(mesh, report);
}

/**
 * Every edge is bucketed under its lower vertex (a counting sort: one pass counts, one places), so
 * that the uses of one undirected edge meet in one short bucket — a vertex's edges to higher
 * vertices, about three on average — where they are counted by a scan. Linear, two passes over
 * the triangles and one over the buckets, no hashing (a hash table over all edges cost a cache
 * miss per edge on large meshes).
 */
function computeEdgeReport(mesh: TriangleMesh): EdgeReport {
  const I = mesh.indices, n = mesh.triangleCount;
  let nv = mesh.vertexCount;
  for (let i = 0; i < 3 * n; i++) if (I[i] >= nv) nv = I[i] + 1;
  // start[v]..start[v+1]: the edges whose lower vertex is v.
  const start = new Uint32Array(nv + 1);
  for (let i = 0; i < 3 * n; i++) {
    const u = I[i], v = I[i - (i % 3) + ((i + 1) % 3)];
    if (u !== v) start[(u < v ? u : v) + 1]++;
  }
  for (let v = 0; v < nv; v++) start[v + 1] += start[v];
  const fill = start.slice(0, nv);
  // Per edge use: the higher vertex, times 2, plus 1 when it runs from higher to lower (in 32 bits
  // unsigned: below 2³¹ vertices, 48 GB of positions).
  const other = new Uint32Array(start[nv]);
  for (let i = 0; i < 3 * n; i++) {
    const u = I[i], v = I[i - (i % 3) + ((i + 1) % 3)];
    if (u === v) continue;
    if (u < v) other[fill[u]++] = 2 * v;
    else other[fill[v]++] = 2 * u + 1;
  }
  let boundary = 0, nonManifold = 0, misoriented = 0;
  const tally = (fwd: number, bwd: number): void => {
    const total = fwd + bwd;
    if (total === 1) boundary++;
    else if (total > 2) nonManifold++;
    else if (fwd !== 1) misoriented++;
  };
  for (let v = 0; v < nv; v++) {
    const lo = start[v], hi = start[v + 1];
    if (hi - lo > 16) {
      // A long bucket (a fan's centre): sorted, so that each edge's uses are one run.
      other.subarray(lo, hi).sort();
      for (let k = lo; k < hi;) {
        const w = other[k] >>> 1;
        let fwd = 0, bwd = 0;
        for (; k < hi && other[k] >>> 1 === w; k++) {
          if (other[k] & 1) bwd++;
          else fwd++;
        }
        tally(fwd, bwd);
      }
      continue;
    }
    for (let k = lo; k < hi; k++) {
      const w = other[k] >>> 1;
      // Counted at the edge's first use in the bucket only.
      let first = true;
      for (let j = lo; j < k; j++) if (other[j] >>> 1 === w) { first = false; break; }
      if (!first) continue;
      let fwd = 0, bwd = 0;
      for (let j = k; j < hi; j++) {
        if (other[j] >>> 1 !== w) continue;
        if (other[j] & 1) bwd++;
        else fwd++;
      }
      tally(fwd, bwd);
    }
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
