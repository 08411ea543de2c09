/**
 * OpenCascade's meshes as bodies: one body per mesh, in occt's order; vertices welded by exact
 * equality (occt repeats them for every B-rep face) keeping triangle order; occt's `brep_faces`
 * as face ranges; the colour; and the chordal-error estimate from occt's normals (chord.ts).
 */
import type { OcctMesh } from 'occt-import-js';
import { checkBodyTriangles, checkFileTriangles, limitsOf } from '../limits.js';
import type { EffectiveLimits } from '../limits.js';
import { weld } from '../../geometry/weld.js';
import { fitFaceSurfaces } from '../../geometry/surfaces.js';
import { ImportError, checkAborted, groupDigits, listSome, plural } from '../types.js';
import type { ImportOptions, ImportedBody } from '../types.js';
import { estimateChordErrors, estimateChordSides } from './chord.js';

function isArrayLike(x: unknown): x is ArrayLike<number> {
  return Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView));
}

function malformed(fileName: string, body: number, what: string): ImportError {
  return new ImportError('unreadable-cad', fileName, `OpenCascade returned a malformed mesh for body ${body}: ${what}`);
}

function validColor(c: unknown): [number, number, number] | null {
  if (!isArrayLike(c) || c.length !== 3) return null;
  const out: [number, number, number] = [Number(c[0]), Number(c[1]), Number(c[2])];
  if (!out.every(Number.isFinite)) return null;
  return [Math.min(1, Math.max(0, out[0])), Math.min(1, Math.max(0, out[1])), Math.min(1, Math.max(0, out[2]))];
}

/** The mesh colour; else the colour every face shares (files that colour faces only); else null. */
function bodyColor(mesh: OcctMesh): [number, number, number] | null {
  const own = validColor(mesh.color);
  if (own !== null) return own;
  const faces: unknown = mesh.brep_faces;
  if (!Array.isArray(faces) || faces.length === 0) return null;
  const first = validColor((faces[0] as { color?: unknown } | null)?.color);
  if (first === null) return null;
  for (const f of faces) {
    const c = validColor((f as { color?: unknown } | null)?.color);
    if (c === null || c[0] !== first[0] || c[1] !== first[1] || c[2] !== first[2]) return null;
  }
  return first;
}

/**
 * Turns occt's meshes into bodies (one per mesh, same order). Throws ImportError for too many
 * triangles, a non-finite coordinate or a malformed mesh.
 */
export function convertOcctMeshes(
  meshes: readonly unknown[],
  fileName: string,
  options: ImportOptions = {},
  warnings: string[] = [],
): ImportedBody[] {
  const limits: EffectiveLimits = limitsOf(options);
  let total = 0;
  for (let b = 0; b < meshes.length; b++) {
    const index = (meshes[b] as { index?: { array?: unknown } } | null)?.index?.array;
    if (!isArrayLike(index)) throw malformed(fileName, b, 'no index array');
    total += Math.floor(index.length / 3);
  }
  checkFileTriangles(total, fileName, limits);
  for (let b = 0; b < meshes.length; b++) {
    const count = Math.floor(((meshes[b] as { index: { array: ArrayLike<number> } }).index.array.length) / 3);
    const name = (meshes[b] as { name?: unknown }).name;
    checkBodyTriangles(count, fileName, limits, typeof name === 'string' && name !== '' ? `body ${b} ('${name}')` : `body ${b}`);
  }
  const bodies: ImportedBody[] = [];
  const emptyBodies: number[] = [];
  let emptyFaces = 0;
  const noNormals: number[] = [];
  for (let b = 0; b < meshes.length; b++) {
    checkAborted(options.signal, fileName);
    const converted = convertMesh(meshes[b], b, fileName);
    const body = converted.body;
    if (body.triangleCount === 0) emptyBodies.push(b);
    emptyFaces += converted.emptyFaces;
    if (body.triangleCount > 0 && body.chordErrorMm === null) noNormals.push(b);
    if (converted.badFaces) {
      warnings.push(`body ${b}: OpenCascade's face list does not cover its triangles in order; the body has no face ranges`);
    }
    bodies.push(body);
  }
  if (emptyBodies.length === meshes.length) {
    throw new ImportError('no-triangles', fileName, `OpenCascade could not tessellate any of the ${plural(meshes.length, 'body')} in the file`);
  }
  if (emptyBodies.length > 0) {
    const named = emptyBodies.map((b) => (bodies[b].name !== '' ? `${b} '${bodies[b].name}'` : String(b)));
    warnings.push(
      `${emptyBodies.length === 1 ? '1 body' : `${groupDigits(emptyBodies.length)} bodies`} (${listSome(named)}) could not be tessellated and ` +
      `${emptyBodies.length === 1 ? 'has' : 'have'} no triangles`,
    );
  }
  if (emptyFaces > 0) {
    warnings.push(`${plural(emptyFaces, 'B-rep face')} could not be tessellated and ${emptyFaces === 1 ? 'is' : 'are'} missing from the mesh`);
  }
  if (noNormals.length > 0) {
    warnings.push(`${plural(noNormals.length, 'body')} (${listSome(noNormals)}) came without normals: no chordal-error estimate`);
  }
  return bodies;
}

interface ConvertedMesh {
  body: ImportedBody;
  emptyFaces: number;
  badFaces: boolean;
}

function convertMesh(raw: unknown, b: number, fileName: string): ConvertedMesh {
  if (typeof raw !== 'object' || raw === null) throw malformed(fileName, b, 'not an object');
  const mesh = raw as OcctMesh;
  const pos: unknown = mesh.attributes?.position?.array;
  const idx: unknown = mesh.index?.array;
  if (!isArrayLike(pos) || pos.length % 3 !== 0) throw malformed(fileName, b, 'its position array is missing or not x y z triples');
  if (!isArrayLike(idx) || idx.length % 3 !== 0) throw malformed(fileName, b, 'its index array is missing or not triples');
  const name = typeof mesh.name === 'string' ? mesh.name : '';
  const label = name === '' ? `body ${b}` : `body ${b} ('${name}')`;

  const vertexCount = pos.length / 3;
  const positions = new Float64Array(pos.length);
  for (let v = 0; v < vertexCount; v++) {
    const x = +pos[3 * v], y = +pos[3 * v + 1], z = +pos[3 * v + 2];
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) {
      throw new ImportError('non-finite-coordinate', fileName, `${label}: vertex ${groupDigits(v)} has a non-finite coordinate (${x}, ${y}, ${z})`);
    }
    positions[3 * v] = x;
    positions[3 * v + 1] = y;
    positions[3 * v + 2] = z;
  }
  const triangleCount = idx.length / 3;
  const indices = new Uint32Array(idx.length);
  for (let i = 0; i < idx.length; i++) {
    const k = idx[i];
    if (!(Number.isInteger(k) && k >= 0 && k < vertexCount)) {
      throw malformed(fileName, b, `triangle ${Math.floor(i / 3)} refers to vertex ${k}, but it has ${groupDigits(vertexCount)} vertices`);
    }
    indices[i] = k;
  }

  let chordErrorMm: Float32Array | null = null;
  let chordSide: Int8Array | null = null;
  const nrm: unknown = mesh.attributes?.normal?.array;
  if (isArrayLike(nrm) && nrm.length === pos.length && triangleCount > 0) {
    const normals = Float64Array.from(nrm);
    chordErrorMm = estimateChordErrors(positions, normals, indices);
    chordSide = estimateChordSides(positions, normals, indices);
  }

  const faces = faceRangesOf(mesh.brep_faces, triangleCount);
  const surfaces = faces.ranges ? fitFaceSurfaces(positions, indices, faces.ranges) : null;
  const welded = weld(positions, indices);
  const body: ImportedBody = {
    name,
    color: bodyColor(mesh),
    positions: welded.positions,
    indices: welded.indices,
    triangleCount,
    faceRanges: faces.ranges,
    chordErrorMm,
    chordSide,
    surfaces,
  };
  return { body, emptyFaces: faces.empty, badFaces: faces.bad };
}

/**
 * occt's faces as inclusive [first, last] pairs. Faces without triangles (last = first − 1) are
 * left out and counted; faces that do not tile the triangles in order make the whole list null.
 */
function faceRangesOf(raw: unknown, triangleCount: number): { ranges: Uint32Array | null; empty: number; bad: boolean } {
  if (!Array.isArray(raw)) return { ranges: null, empty: 0, bad: triangleCount > 0 };
  const out = new Uint32Array(2 * raw.length);
  let n = 0;
  let next = 0;
  let empty = 0;
  for (const f of raw as unknown[]) {
    const first = (f as { first?: unknown } | null)?.first;
    const last = (f as { last?: unknown } | null)?.last;
    if (!Number.isInteger(first) || !Number.isInteger(last)) return { ranges: null, empty, bad: true };
    const a = first as number, z = last as number;
    if (a !== next) return { ranges: null, empty, bad: true };
    if (z === a - 1) {
      empty++;
      continue;
    }
    if (z < a || z >= triangleCount) return { ranges: null, empty, bad: true };
    out[n++] = a;
    out[n++] = z;
    next = z + 1;
  }
  if (next !== triangleCount) return { ranges: null, empty, bad: true };
  return { ranges: out.slice(0, n), empty, bad: false };
}
