/**
 * Display preparation of a body's mesh, on plain typed arrays (no three): it runs once per body,
 * on up to a few hundred thousand triangles.
 *
 * Edges are drawn over shaded faces, as pairs of vertex indices into the body's welded vertex
 * buffer (as the host sends it):
 *
 *  - With B-rep face ranges (STEP, IGES, BREP): the boundary of each face's triangulation, i.e.
 *    the model's real edges, tangent ones included: an edge used by exactly one triangle of a
 *    face is on that face's boundary. Two faces share each such edge; it is drawn once.
 *  - Without (STL): crease edges — where the two triangles' normals differ by more than a
 *    threshold — plus open and non-manifold edges. The host's vertices are welded (exact
 *    duplicates merged), so triangles sharing an edge share its two vertex indices.
 *
 * Shading: the host's vertices are welded across faces (so that the checker sees closed
 * surfaces); normals computed on them would round every sharp edge. `splitVerticesByFace` gives
 * each B-rep face its own vertices again, keeping the triangle order (results name triangles by
 * their index), so normals are smooth within a face and sharp between faces.
 */

/** Whether face ranges describe the mesh: pairs of first/last triangle, in range, ordered. */
export function faceRangesUsable(faceRanges: Uint32Array, triangleCount: number): boolean {
  if (faceRanges.length === 0 || faceRanges.length % 2 !== 0) return false;
  for (let i = 0; i < faceRanges.length; i += 2) {
    if (faceRanges[i] > faceRanges[i + 1] || faceRanges[i + 1] >= triangleCount) return false;
  }
  return true;
}

/** Boundary edges of the B-rep faces (`last` inclusive), each edge once. */
export function faceBoundaryEdges(indices: Uint32Array, faceRanges: Uint32Array, vertexCount: number): Uint32Array {
  const out = new GrowableIndex(Math.max(16, indices.length >>> 1));
  const counts = new Map<number, number>();
  const emitted = new Set<number>();
  const n = Math.max(1, vertexCount);
  for (let f = 0; f < faceRanges.length; f += 2) {
    counts.clear();
    const first = faceRanges[f];
    const last = faceRanges[f + 1];
    for (let t = first; t <= last; t++) {
      const o = 3 * t;
      countEdge(counts, indices[o], indices[o + 1], n);
      countEdge(counts, indices[o + 1], indices[o + 2], n);
      countEdge(counts, indices[o + 2], indices[o], n);
    }
    for (const [key, count] of counts) {
      if (count !== 1 || emitted.has(key)) continue;
      emitted.add(key);
      const a = Math.floor(key / n);
      out.push(a, key - a * n);
    }
  }
  return out.result();
}

function countEdge(counts: Map<number, number>, i: number, j: number, n: number): void {
  if (i === j) return;
  const key = i < j ? i * n + j : j * n + i;
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/**
 * Crease, open and non-manifold edges of a triangle mesh with welded vertices. `thresholdDeg`:
 * the smallest angle between the normals of two triangles sharing an edge that draws the edge.
 */
export function creaseEdges(positions: Float32Array, indices: Uint32Array, thresholdDeg = 30): Uint32Array {
  const vertexCount = Math.floor(positions.length / 3);
  const triCount = Math.floor(indices.length / 3);
  const normals = new Float64Array(triCount * 3);
  for (let t = 0; t < triCount; t++) {
    const a = 3 * indices[3 * t];
    const b = 3 * indices[3 * t + 1];
    const c = 3 * indices[3 * t + 2];
    const ux = positions[b] - positions[a];
    const uy = positions[b + 1] - positions[a + 1];
    const uz = positions[b + 2] - positions[a + 2];
    const vx = positions[c] - positions[a];
    const vy = positions[c + 1] - positions[a + 1];
    const vz = positions[c + 2] - positions[a + 2];
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    const len = Math.hypot(nx, ny, nz) || 1;
    normals[3 * t] = nx / len;
    normals[3 * t + 1] = ny / len;
    normals[3 * t + 2] = nz / len;
  }
  const cosThreshold = Math.cos((thresholdDeg * Math.PI) / 180);
  const n = Math.max(1, vertexCount);
  /** Per edge: the first triangle using it (+1), negated once a second triangle made it sharp. */
  const firstTri = new Map<number, number>();
  /** Per edge: how many triangles use it. */
  const useCount = new Map<number, number>();
  for (let t = 0; t < triCount; t++) {
    for (let e = 0; e < 3; e++) {
      const i = indices[3 * t + e];
      const j = indices[3 * t + ((e + 1) % 3)];
      if (i === j) continue;
      const key = i < j ? i * n + j : j * n + i;
      const count = useCount.get(key) ?? 0;
      useCount.set(key, count + 1);
      if (count === 0) {
        firstTri.set(key, t + 1);
      } else if (count === 1) {
        const o = (firstTri.get(key) ?? t + 1) - 1;
        const dot = normals[3 * o] * normals[3 * t] + normals[3 * o + 1] * normals[3 * t + 1] + normals[3 * o + 2] * normals[3 * t + 2];
        if (dot < cosThreshold) firstTri.set(key, -(o + 1));
      }
    }
  }
  const out = new GrowableIndex(64);
  for (const [key, count] of useCount) {
    if (count === 2 && (firstTri.get(key) ?? 0) > 0) continue;
    const i = Math.floor(key / n);
    out.push(i, key - i * n);
  }
  return out.result();
}

/**
 * Gives each B-rep face its own copy of the vertices it uses; triangle t of the result is
 * triangle t of the input. Without usable face ranges the mesh is returned as is.
 */
export function splitVerticesByFace(
  positions: Float32Array,
  indices: Uint32Array,
  faceRanges: Uint32Array,
): { positions: Float32Array; indices: Uint32Array } {
  const triCount = Math.floor(indices.length / 3);
  if (!faceRangesUsable(faceRanges, triCount)) return { positions, indices };
  const vertexCount = Math.floor(positions.length / 3);
  const stamp = new Int32Array(vertexCount).fill(-1);
  const remap = new Uint32Array(vertexCount);
  const outIndices = new Uint32Array(indices.length);
  let outPositions = new Float32Array(Math.min(indices.length, vertexCount * 2) * 3);
  let next = 0;
  const assign = (k: number, face: number) => {
    const v = indices[k];
    if (stamp[v] !== face) {
      stamp[v] = face;
      remap[v] = next;
      if (3 * next + 3 > outPositions.length) {
        const grown = new Float32Array(Math.min(indices.length * 3, outPositions.length * 2 + 3));
        grown.set(outPositions);
        outPositions = grown;
      }
      outPositions[3 * next] = positions[3 * v];
      outPositions[3 * next + 1] = positions[3 * v + 1];
      outPositions[3 * next + 2] = positions[3 * v + 2];
      next++;
    }
    outIndices[k] = remap[v];
  };
  // Triangles outside every range (none, for ranges that tile the mesh) keep shared vertices of
  // their own pseudo-face.
  const covered = new Uint8Array(triCount);
  for (let f = 0; f < faceRanges.length; f += 2) {
    const face = f >>> 1;
    for (let t = faceRanges[f]; t <= faceRanges[f + 1]; t++) {
      covered[t] = 1;
      assign(3 * t, face);
      assign(3 * t + 1, face);
      assign(3 * t + 2, face);
    }
  }
  const rest = faceRanges.length >>> 1;
  for (let t = 0; t < triCount; t++) {
    if (covered[t]) continue;
    assign(3 * t, rest);
    assign(3 * t + 1, rest);
    assign(3 * t + 2, rest);
  }
  return { positions: outPositions.slice(0, next * 3), indices: outIndices };
}

/** Edge lines for a body: B-rep face boundaries when the face ranges are usable, else creases. */
export function bodyEdges(positions: Float32Array, indices: Uint32Array, faceRanges: Uint32Array): Uint32Array {
  const triCount = Math.floor(indices.length / 3);
  if (faceRangesUsable(faceRanges, triCount)) return faceBoundaryEdges(indices, faceRanges, Math.floor(positions.length / 3));
  return creaseEdges(positions, indices);
}

/** An append-only Uint32Array. */
class GrowableIndex {
  private data: Uint32Array;
  private length = 0;
  constructor(capacity: number) {
    this.data = new Uint32Array(capacity);
  }
  push(a: number, b: number): void {
    if (this.length + 2 > this.data.length) {
      const next = new Uint32Array(this.data.length * 2 + 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = a;
    this.data[this.length++] = b;
  }
  result(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}
