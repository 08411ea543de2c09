/**
 * The triangle mesh every part of the engine works on: flat typed arrays, no per-triangle objects.
 *
 * positions: Float64Array, x y z per vertex, in millimetres.
 * indices:   Uint32Array, three vertex indices per triangle; triangle i is indices[3i..3i+2].
 *
 * Triangle indices are the mesh's own order (the order the importer produced); trees keep a map
 * back to them so results always speak of original triangle numbers.
 */
import { orient2dCertainlyNonzero, orient2dExact } from './predicates.js';
import { weld } from './weld.js';

export interface TriangleMesh {
  readonly positions: Float64Array;
  readonly indices: Uint32Array;
  readonly vertexCount: number;
  readonly triangleCount: number;
}

/** What validation found besides errors. */
export interface MeshReport {
  readonly triangleCount: number;
  readonly vertexCount: number;
  /** Triangles of exactly zero area (collinear or repeated vertices). They are kept. */
  readonly zeroAreaTriangles: number;
  /** The first few zero-area triangle indices, for messages. */
  readonly zeroAreaSample: readonly number[];
  /** Largest |coordinate| over vertices used by triangles. */
  readonly maxAbsCoordinate: number;
  readonly min: readonly [number, number, number];
  readonly max: readonly [number, number, number];
}

export type MeshErrorCode = 'empty' | 'bad-length' | 'non-finite-coordinate' | 'index-out-of-range' | 'too-large';

/** A mesh that cannot be used, with the offending vertex or triangle index. */
export class MeshError extends Error {
  override readonly name = 'MeshError';
  constructor(
    readonly code: MeshErrorCode,
    message: string,
    /** Vertex index for coordinate errors, triangle index for index errors, else -1. */
    readonly index: number = -1,
  ) {
    super(message);
  }
}

/** Largest triangle count one mesh may have (node indices are 32-bit). */
export const MAX_TRIANGLES = 0x3fffffff;

const ZERO_AREA_SAMPLE = 16;

/**
 * Checks a mesh's arrays and reports its zero-area triangles. Throws MeshError naming the first
 * offending vertex (non-finite coordinate) or triangle (index out of range).
 */
export function validateMesh(positions: Float64Array, indices: Uint32Array): MeshReport {
  if (positions.length % 3 !== 0) {
    throw new MeshError('bad-length', `positions length ${positions.length} is not a multiple of 3`);
  }
  if (indices.length % 3 !== 0) {
    throw new MeshError('bad-length', `indices length ${indices.length} is not a multiple of 3`);
  }
  const vertexCount = positions.length / 3;
  const triangleCount = indices.length / 3;
  if (triangleCount === 0) throw new MeshError('empty', 'mesh has no triangles');
  if (triangleCount > MAX_TRIANGLES) {
    throw new MeshError('too-large', `mesh has ${triangleCount} triangles; at most ${MAX_TRIANGLES} are supported`);
  }
  for (let t = 0; t < triangleCount; t++) {
    const a = indices[3 * t], b = indices[3 * t + 1], c = indices[3 * t + 2];
    if (a >= vertexCount || b >= vertexCount || c >= vertexCount) {
      const bad = a >= vertexCount ? a : b >= vertexCount ? b : c;
      throw new MeshError(
        'index-out-of-range',
        `triangle ${t} refers to vertex ${bad}, but the mesh has ${vertexCount} vertices`,
        t,
      );
    }
  }
  let minX = Infinity, minY = Infinity, minZ = Infinity;
  let maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let v = 0; v < vertexCount; v++) {
    const x = positions[3 * v], y = positions[3 * v + 1], z = positions[3 * v + 2];
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) {
      throw new MeshError(
        'non-finite-coordinate',
        `vertex ${v} has a non-finite coordinate (${x}, ${y}, ${z})`,
        v,
      );
    }
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  let zeroArea = 0;
  const sample: number[] = [];
  for (let t = 0; t < triangleCount; t++) {
    if (isZeroAreaTriangle(positions, indices, t)) {
      zeroArea++;
      if (sample.length < ZERO_AREA_SAMPLE) sample.push(t);
    }
  }
  const maxAbs = Math.max(-minX, maxX, -minY, maxY, -minZ, maxZ);
  return {
    triangleCount,
    vertexCount,
    zeroAreaTriangles: zeroArea,
    zeroAreaSample: sample,
    maxAbsCoordinate: maxAbs,
    min: [minX, minY, minZ],
    max: [maxX, maxY, maxZ],
  };
}

/** Exactly zero area: the three vertices are collinear (all three projections have zero area). */
export function isZeroAreaTriangle(positions: Float64Array, indices: Uint32Array, t: number): boolean {
  const a = 3 * indices[3 * t], b = 3 * indices[3 * t + 1], c = 3 * indices[3 * t + 2];
  const P = positions;
  // A triangle of a CAD mesh often lies in a coordinate plane's normal direction (a cylinder's
  // side seen along its axis), where one projection is exactly degenerate: look at all three with
  // the filter first, and evaluate exactly only when none is certainly non-zero.
  if (
    orient2dCertainlyNonzero(P[a], P[a + 1], P[b], P[b + 1], P[c], P[c + 1]) ||
    orient2dCertainlyNonzero(P[a + 1], P[a + 2], P[b + 1], P[b + 2], P[c + 1], P[c + 2]) ||
    orient2dCertainlyNonzero(P[a + 2], P[a], P[b + 2], P[b], P[c + 2], P[c])
  ) {
    return false;
  }
  return (
    orient2dExact(P[a], P[a + 1], P[b], P[b + 1], P[c], P[c + 1]) === 0 &&
    orient2dExact(P[a + 1], P[a + 2], P[b + 1], P[b + 2], P[c + 1], P[c + 2]) === 0 &&
    orient2dExact(P[a + 2], P[a], P[b + 2], P[b], P[c + 2], P[c]) === 0
  );
}

/** A validated mesh plus its report. Throws MeshError on invalid input. */
export function createMesh(positions: Float64Array, indices: Uint32Array): TriangleMesh & { readonly report: MeshReport } {
  const report = validateMesh(positions, indices);
  return { positions, indices, vertexCount: report.vertexCount, triangleCount: report.triangleCount, report };
}

/**
 * Merges vertices with exactly equal coordinates (−0 equals 0), keeping triangle order and the
 * first occurrence's vertex order. Linear time (open-addressing hash on the coordinate bits).
 */
export function weldVertices(positions: Float64Array, indices?: Uint32Array): { positions: Float64Array; indices: Uint32Array } {
  return weld(positions, indices);
}
