/**
 * fast-check generators of mesh pairs and rigid poses for the differential tests of the tree
 * queries against the brute-force oracle.
 *
 * A mesh is plain data (`positions`: x y z per vertex, `indices`: three vertex indices per
 * triangle); a pose is a row-major 4×4 matrix (16 numbers, last row 0 0 0 1) mapping B's
 * coordinates into A's frame, p_A = R·p_B + t.
 *
 * The families make the hard cases frequent: exact contact built from integers and dyadic
 * fractions under rotations that are exact in floating point (identity, quarter turns, axis
 * permutations, pure translations), coplanar faces, contact at a vertex or along an edge, contact
 * constructed under arbitrary rotations (exact up to the rounding of the mapping, which is where
 * the trees' conservative slack is tested), and degenerate triangles mixed into the meshes. Where a
 * construction rounds, the oracle still decides the truth for the doubles actually produced:
 * nothing relies on a construction being exact, it only makes the interesting cases common.
 *
 * Meshes stay below about 400 triangles so that brute force is cheap.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

export type Vec3 = readonly [number, number, number];
/** Row-major 3×3 rotation. */
export type Mat3 = readonly [number, number, number, number, number, number, number, number, number];

export interface MeshData {
  readonly positions: Float64Array;
  readonly indices: Uint32Array;
}

export interface MeshPair {
  /** Which family (and variant) produced the pair, for failure messages. */
  readonly family: string;
  readonly a: MeshData;
  readonly b: MeshData;
  /** Row-major 4×4 placing B in A's frame. */
  readonly pose: Float64Array;
}

// ---------------------------------------------------------------------------------------------
// Vectors and rotations.

const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];

export const IDENTITY: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** R·p, each row evaluated left to right as the engine maps vertices. */
export function rotate(r: Mat3, p: Vec3): Vec3 {
  return [
    r[0] * p[0] + r[1] * p[1] + r[2] * p[2],
    r[3] * p[0] + r[4] * p[1] + r[5] * p[2],
    r[6] * p[0] + r[7] * p[1] + r[8] * p[2],
  ];
}

/** The rotation of a quaternion (normalised here). */
export function quaternionToMatrix(w0: number, x0: number, y0: number, z0: number): Mat3 {
  const n = Math.hypot(w0, x0, y0, z0);
  const w = w0 / n, x = x0 / n, y = y0 / n, z = z0 / n;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

/** The 24 rotations that permute the axes with signs (identity, quarter and half turns, …). */
export const SIGNED_PERMUTATIONS: readonly Mat3[] = (() => {
  const perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
  const out: Mat3[] = [];
  for (const p of perms) {
    for (let s = 0; s < 8; s++) {
      const m = [0, 0, 0, 0, 0, 0, 0, 0, 0];
      for (let i = 0; i < 3; i++) m[3 * i + (p[i] as number)] = (s >> i) & 1 ? -1 : 1;
      const det =
        m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) - m[1]! * (m[3]! * m[8]! - m[5]! * m[6]!) + m[2]! * (m[3]! * m[7]! - m[4]! * m[6]!);
      if (det === 1) out.push(m as unknown as Mat3);
    }
  }
  return out;
})();

/** A pose as 16 row-major numbers. */
export function makePose(r: Mat3, t: Vec3): Float64Array {
  return Float64Array.from([r[0], r[1], r[2], t[0], r[3], r[4], r[5], t[1], r[6], r[7], r[8], t[2], 0, 0, 0, 1]);
}

export function poseRotation(pose: ArrayLike<number>): Mat3 {
  return [pose[0]!, pose[1]!, pose[2]!, pose[4]!, pose[5]!, pose[6]!, pose[8]!, pose[9]!, pose[10]!];
}

export function poseTranslation(pose: ArrayLike<number>): Vec3 {
  return [pose[3]!, pose[7]!, pose[11]!];
}

/** B's vertices mapped into A's frame exactly as the engine maps them (left to right, then + t). */
export function mapPositions(positions: Float64Array, pose: ArrayLike<number>): Float64Array {
  const out = new Float64Array(positions.length);
  for (let o = 0; o < positions.length; o += 3) {
    const x = positions[o]!, y = positions[o + 1]!, z = positions[o + 2]!;
    out[o] = pose[0]! * x + pose[1]! * y + pose[2]! * z + pose[3]!;
    out[o + 1] = pose[4]! * x + pose[5]! * y + pose[6]! * z + pose[7]!;
    out[o + 2] = pose[8]! * x + pose[9]! * y + pose[10]! * z + pose[11]!;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Mesh construction.

/** Collects vertices (merging exactly equal ones unless asked not to) and triangles. */
export class MeshBuilder {
  private readonly coords: number[] = [];
  private readonly tris: number[] = [];
  private readonly lookup = new Map<string, number>();

  /** Index of point p, shared with an earlier vertex of exactly the same coordinates. */
  vertex(p: Vec3): number {
    const key = `${p[0]},${p[1]},${p[2]}`; // String(-0) is "0": −0 and 0 merge
    const found = this.lookup.get(key);
    if (found !== undefined) return found;
    const v = this.freshVertex(p);
    this.lookup.set(key, v);
    return v;
  }

  /** A new vertex even if an equal one exists (duplicate coordinates under distinct indices). */
  freshVertex(p: Vec3): number {
    this.coords.push(p[0], p[1], p[2]);
    return this.coords.length / 3 - 1;
  }

  triangle(a: number, b: number, c: number): void {
    this.tris.push(a, b, c);
  }

  /** Triangle over three points (vertices merged). */
  triangleAt(p: Vec3, q: Vec3, r: Vec3): void {
    this.triangle(this.vertex(p), this.vertex(q), this.vertex(r));
  }

  get triangleCount(): number {
    return this.tris.length / 3;
  }

  build(): MeshData {
    return { positions: Float64Array.from(this.coords), indices: Uint32Array.from(this.tris) };
  }
}

/** Vertex i of a mesh. */
export function meshVertex(m: MeshData, v: number): Vec3 {
  return [m.positions[3 * v]!, m.positions[3 * v + 1]!, m.positions[3 * v + 2]!];
}

/** The 9 coordinates of triangle t of a mesh (positions given separately, e.g. mapped ones). */
export function triangleCoords(positions: Float64Array, indices: Uint32Array, t: number): Float64Array {
  const out = new Float64Array(9);
  for (let k = 0; k < 3; k++) {
    const v = indices[3 * t + k]!;
    out[3 * k] = positions[3 * v]!;
    out[3 * k + 1] = positions[3 * v + 1]!;
    out[3 * k + 2] = positions[3 * v + 2]!;
  }
  return out;
}

/**
 * Axis-aligned box [min, max] with each face split into n × n quads (two triangles each). With
 * integer or dyadic corners and n a power of two every coordinate is exact.
 */
export function boxMesh(min: Vec3, max: Vec3, n = 1): MeshData {
  const mb = new MeshBuilder();
  const at = (axis: number, side: number, u: number, v: number): Vec3 => {
    const p: number[] = [0, 0, 0];
    const a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    p[axis] = side ? max[axis] : min[axis];
    p[a1] = min[a1] + (max[a1] - min[a1]) * (u / n);
    p[a2] = min[a2] + (max[a2] - min[a2]) * (v / n);
    return p as unknown as Vec3;
  };
  for (let axis = 0; axis < 3; axis++) {
    for (let side = 0; side < 2; side++) {
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const p00 = at(axis, side, i, j), p10 = at(axis, side, i + 1, j);
          const p01 = at(axis, side, i, j + 1), p11 = at(axis, side, i + 1, j + 1);
          if (side) {
            mb.triangleAt(p00, p10, p11);
            mb.triangleAt(p00, p11, p01);
          } else {
            mb.triangleAt(p00, p11, p10);
            mb.triangleAt(p00, p01, p11);
          }
        }
      }
    }
  }
  return mb.build();
}

/** Closed tetrahedron over four points (any four points; coplanar ones give a flat one). */
export function tetraMesh(p0: Vec3, p1: Vec3, p2: Vec3, p3: Vec3): MeshData {
  const mb = new MeshBuilder();
  mb.triangleAt(p0, p2, p1);
  mb.triangleAt(p0, p1, p3);
  mb.triangleAt(p1, p2, p3);
  mb.triangleAt(p2, p0, p3);
  return mb.build();
}

/** UV sphere of radius r about the origin: 2 · sectors · (stacks − 1) triangles. */
export function uvSphereMesh(r: number, sectors: number, stacks: number): MeshData {
  const mb = new MeshBuilder();
  const ring = (j: number, i: number): Vec3 => {
    if (j === 0) return [0, 0, r];
    if (j === stacks) return [0, 0, -r];
    const phi = (Math.PI * j) / stacks, theta = (2 * Math.PI * (i % sectors)) / sectors;
    return [r * Math.sin(phi) * Math.cos(theta), r * Math.sin(phi) * Math.sin(theta), r * Math.cos(phi)];
  };
  for (let j = 0; j < stacks; j++) {
    for (let i = 0; i < sectors; i++) {
      const a = ring(j, i), b = ring(j + 1, i), c = ring(j + 1, i + 1), d = ring(j, i + 1);
      if (j > 0) mb.triangleAt(a, b, d);
      if (j < stacks - 1) mb.triangleAt(d, b, c);
    }
  }
  return mb.build();
}

/** Closed cylinder about the z axis, centred at the origin: 2 · segments · (rows + 1) triangles. */
export function cylinderMesh(r: number, h: number, segments: number, rows: number): MeshData {
  const mb = new MeshBuilder();
  const at = (i: number, j: number): Vec3 => {
    const theta = (2 * Math.PI * (i % segments)) / segments;
    return [r * Math.cos(theta), r * Math.sin(theta), -h / 2 + (h * j) / rows];
  };
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < segments; i++) {
      mb.triangleAt(at(i, j), at(i + 1, j), at(i + 1, j + 1));
      mb.triangleAt(at(i, j), at(i + 1, j + 1), at(i, j + 1));
    }
  }
  const top: Vec3 = [0, 0, h / 2], bottom: Vec3 = [0, 0, -h / 2];
  for (let i = 0; i < segments; i++) {
    mb.triangleAt(bottom, at(i + 1, 0), at(i, 0));
    mb.triangleAt(top, at(i, rows), at(i + 1, rows));
  }
  return mb.build();
}

/** Flat grid of nx × ny square cells of side `cell` in the plane z = z0, corner at (x0, y0). */
export function gridMesh(nx: number, ny: number, cell: number, x0 = 0, y0 = 0, z0 = 0): MeshData {
  const mb = new MeshBuilder();
  for (let i = 0; i < nx; i++) {
    for (let j = 0; j < ny; j++) {
      const p = (u: number, v: number): Vec3 => [x0 + (i + u) * cell, y0 + (j + v) * cell, z0];
      mb.triangleAt(p(0, 0), p(1, 0), p(1, 1));
      mb.triangleAt(p(0, 0), p(1, 1), p(0, 1));
    }
  }
  return mb.build();
}

/** Applies x ↦ s·x + shift to every vertex. */
export function scaleShiftMesh(m: MeshData, s: number, shift: Vec3): MeshData {
  const p = m.positions.map((x, i) => x * s + shift[i % 3]!);
  return { positions: p, indices: m.indices.slice() };
}

/** Small deterministic generator for reorderings derived from one integer seed. */
function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s;
  };
}

/** The triangles in a seeded random order, each with its corners rotated (orientation kept). */
export function shuffleTriangles(m: MeshData, seed: number): MeshData {
  const n = m.indices.length / 3;
  const next = lcg(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = next() % (i + 1);
    const t = order[i]!; order[i] = order[j]!; order[j] = t;
  }
  const indices = new Uint32Array(m.indices.length);
  for (let k = 0; k < n; k++) {
    const t = order[k]!, rot = next() % 3;
    for (let c = 0; c < 3; c++) indices[3 * k + c] = m.indices[3 * t + ((c + rot) % 3)]!;
  }
  return { positions: m.positions.slice(), indices };
}

export type ExtraKind = 'repeated-vertex' | 'all-same' | 'same-coordinates' | 'collinear' | 'duplicate' | 'reversed-duplicate' | 'copied-duplicate' | 'needle';

/**
 * Appends (then scatters through the triangle order) extra triangles built on the mesh's own
 * vertices and triangles: zero-area ones (a repeated vertex, one vertex three times, three
 * distinct vertices with equal coordinates, a vertex at an edge's midpoint), duplicates (same
 * indices, reversed, or over copied vertices) and needles (a third vertex just off an edge).
 */
export function withExtraTriangles(m: MeshData, extras: readonly (readonly [ExtraKind, number, number])[], seed: number): MeshData {
  const coords = Array.from(m.positions);
  const tris = Array.from(m.indices);
  const n0 = m.indices.length / 3;
  const fresh = (p: Vec3): number => { coords.push(p[0], p[1], p[2]); return coords.length / 3 - 1; };
  const pt = (v: number): Vec3 => [coords[3 * v]!, coords[3 * v + 1]!, coords[3 * v + 2]!];
  for (const [kind, pick, param] of extras) {
    const t = pick % n0;
    const a = m.indices[3 * t]!, b = m.indices[3 * t + 1]!, c = m.indices[3 * t + 2]!;
    switch (kind) {
      case 'repeated-vertex': tris.push(a, b, a); break;
      case 'all-same': tris.push(b, b, b); break;
      case 'same-coordinates': tris.push(fresh(pt(c)), fresh(pt(c)), c); break;
      case 'collinear': {
        // (p + q) / 2 is exact for integer and dyadic coordinates; elsewhere nearly collinear.
        const mid = scale(add(pt(a), pt(b)), 0.5);
        tris.push(a, fresh(mid), b);
        break;
      }
      case 'duplicate': tris.push(a, b, c); break;
      case 'reversed-duplicate': tris.push(c, b, a); break;
      case 'copied-duplicate': tris.push(fresh(pt(a)), fresh(pt(b)), fresh(pt(c))); break;
      case 'needle': {
        const p = pt(a), q = pt(b), off = sub(pt(c), p);
        const s = (param % 8) / 8;
        const r = add(add(p, scale(sub(q, p), s)), scale(off, 2 ** -(10 + (param % 30))));
        tris.push(a, b, fresh(r));
        break;
      }
    }
  }
  return shuffleTriangles({ positions: Float64Array.from(coords), indices: Uint32Array.from(tris) }, seed);
}

// ---------------------------------------------------------------------------------------------
// Basic arbitraries.

/** Doubles in [-1, 1] with full 53-bit significands. */
export const unitCoordArb: Arbitrary<number> = fc
  .tuple(fc.integer({ min: -(2 ** 26), max: 2 ** 26 }), fc.integer({ min: 0, max: 2 ** 26 - 1 }))
  .map(([h, l]) => (h * 2 ** 26 + (h < 0 ? -l : l)) / 2 ** 52);

const intArb = (r: number): Arbitrary<number> => fc.integer({ min: -r, max: r });
const dyadicArb = (r: number, k: number): Arbitrary<number> => fc.integer({ min: -r * 2 ** k, max: r * 2 ** k }).map((x) => x / 2 ** k);
const pointOf = (c: Arbitrary<number>): Arbitrary<Vec3> => fc.tuple(c, c, c);

/** Rotations from random unit quaternions. */
export const quaternionRotationArb: Arbitrary<Mat3> = fc
  .tuple(unitCoordArb, unitCoordArb, unitCoordArb, unitCoordArb)
  .filter(([w, x, y, z]) => Math.hypot(w, x, y, z) > 0.1)
  .map(([w, x, y, z]) => quaternionToMatrix(w, x, y, z));

/** Rotations that are exact in floating point: identity, quarter and half turns, axis permutations. */
export const exactRotationArb: Arbitrary<Mat3> = fc.oneof(
  { arbitrary: fc.constant(IDENTITY), weight: 2 },
  { arbitrary: fc.constantFrom(...SIGNED_PERMUTATIONS), weight: 3 },
);

/** Rotations by simple angles about a coordinate axis (rounded: 30°, 45°, 60°, …). */
export const axisAngleRotationArb: Arbitrary<Mat3> = fc
  .tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 1, max: 23 }))
  .map(([axis, k]) => {
    const h = (Math.PI * k) / 24; // half angle of k · 15°
    const s = Math.sin(h);
    return quaternionToMatrix(Math.cos(h), axis === 0 ? s : 0, axis === 1 ? s : 0, axis === 2 ? s : 0);
  });

export const rotationArb: Arbitrary<Mat3> = fc.oneof(
  { arbitrary: exactRotationArb, weight: 2 },
  { arbitrary: quaternionRotationArb, weight: 3 },
  { arbitrary: axisAngleRotationArb, weight: 1 },
);

/** A shape and a bounding radius about the origin. */
interface Shape {
  readonly name: string;
  readonly mesh: MeshData;
  readonly radius: number;
}

/** Closed meshes with rounded coordinates: boxes, tetrahedra, UV spheres, cylinders. */
const closedShapeArb: Arbitrary<Shape> = fc.oneof(
  fc.tuple(pointOf(fc.double({ min: 0.2, max: 4, noNaN: true })), fc.constantFrom(1, 2, 3, 4)).map(([h, n]): Shape => ({
    name: `box(${n})`, mesh: boxMesh(scale(h, -1), h, n), radius: Math.hypot(...h),
  })),
  fc.tuple(pointOf(unitCoordArb), pointOf(unitCoordArb), pointOf(unitCoordArb), pointOf(unitCoordArb), fc.double({ min: 0.5, max: 4, noNaN: true }))
    .map(([p, q, r, s, k]): Shape => ({
      name: 'tetra', mesh: tetraMesh(scale(p, k), scale(q, k), scale(r, k), scale(s, k)), radius: k * Math.sqrt(3),
    })),
  fc.tuple(fc.double({ min: 0.3, max: 4, noNaN: true }), fc.integer({ min: 3, max: 16 }), fc.integer({ min: 2, max: 11 })).map(([r, se, st]): Shape => ({
    name: `sphere(${se}x${st})`, mesh: uvSphereMesh(r, se, st), radius: r,
  })),
  fc.tuple(fc.double({ min: 0.3, max: 3, noNaN: true }), fc.double({ min: 0.1, max: 6, noNaN: true }), fc.integer({ min: 3, max: 20 }), fc.integer({ min: 1, max: 4 }))
    .map(([r, h, se, rows]): Shape => ({
      name: `cylinder(${se}x${rows})`, mesh: cylinderMesh(r, h, se, rows), radius: Math.hypot(r, h / 2),
    })),
);

/** Exact shapes: integer boxes (faces split 1, 2 or 4 ways), integer tetrahedra, integer grids. */
const exactShapeArb: Arbitrary<Shape> = fc.oneof(
  fc.tuple(pointOf(fc.integer({ min: 1, max: 4 })), fc.constantFrom(1, 2, 4), pointOf(intArb(1))).map(([s, n, o]): Shape => {
    const max = add(o, s);
    return { name: `ibox(${n})`, mesh: boxMesh(o, max, n), radius: Math.hypot(Math.abs(o[0]) + s[0], Math.abs(o[1]) + s[1], Math.abs(o[2]) + s[2]) };
  }),
  fc.tuple(pointOf(intArb(3)), pointOf(intArb(3)), pointOf(intArb(3)), pointOf(intArb(3))).map(([p, q, r, s]): Shape => ({
    name: 'itetra', mesh: tetraMesh(p, q, r, s), radius: 3 * Math.sqrt(3),
  })),
  fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.constantFrom(0.5, 1), intArb(2)).map(([nx, ny, cell, z]): Shape => ({
    name: `igrid(${nx}x${ny})`, mesh: gridMesh(nx, ny, cell, -1, -1, z), radius: Math.hypot(nx * cell + 1, ny * cell + 1, Math.abs(z)),
  })),
);

/**
 * Triangle soups: triangles over a pool of points (repeats give shared edges, duplicates and
 * zero-area triangles), with float, integer or dyadic coordinates.
 */
const soupShapeArb: Arbitrary<Shape> = fc
  .record({
    coords: fc.constantFrom('float', 'int', 'dyadic'),
    poolSize: fc.integer({ min: 3, max: 60 }),
    triCount: fc.integer({ min: 1, max: 150 }),
    size: fc.constantFrom(1, 1 / 4, 1 / 16),
    seed: fc.integer(),
  })
  .chain(({ coords, poolSize, triCount, size, seed }) => {
    const c = coords === 'float' ? unitCoordArb : coords === 'int' ? intArb(3) : dyadicArb(1, 3);
    return fc.tuple(fc.array(pointOf(c), { minLength: poolSize, maxLength: poolSize }), fc.constant({ coords, triCount, size, seed }));
  })
  .map(([pool, { coords, triCount, size, seed }]): Shape => {
    const next = lcg(seed);
    const mb = new MeshBuilder();
    const verts = pool.map((p) => mb.freshVertex(p));
    for (let t = 0; t < triCount; t++) {
      const i = next() % verts.length, j = next() % verts.length, k = next() % verts.length;
      if (size === 1) {
        mb.triangle(verts[i]!, verts[j]!, verts[k]!);
      } else {
        // A smaller triangle at pool point i pointing towards j and k (dyadic factor: exact for
        // integer and dyadic pools).
        const p = pool[i]!;
        mb.triangle(verts[i]!, mb.vertex(add(p, scale(sub(pool[j]!, p), size))), mb.vertex(add(p, scale(sub(pool[k]!, p), size))));
      }
    }
    const r = coords === 'int' ? 3 * Math.sqrt(3) : Math.sqrt(3);
    return { name: `soup-${coords}(${triCount}, ${size})`, mesh: mb.build(), radius: r };
  });

const anyShapeArb: Arbitrary<Shape> = fc.oneof(closedShapeArb, exactShapeArb, soupShapeArb);

// ---------------------------------------------------------------------------------------------
// Pair families.

/** Two soups in overlapping boxes, B placed by any rotation and a small translation. */
export const soupPairArb: Arbitrary<MeshPair> = fc
  .tuple(soupShapeArb, soupShapeArb, rotationArb, fc.oneof(pointOf(intArb(1)), pointOf(dyadicArb(1, 2)), pointOf(unitCoordArb)))
  .map(([a, b, r, t]): MeshPair => ({ family: `soup ${a.name} / ${b.name}`, a: a.mesh, b: b.mesh, pose: makePose(r, t) }));

/** Closed meshes at a centre distance from 0 to 1.1 × the sum of their radii, in a random direction. */
export const closedOverlapPairArb: Arbitrary<MeshPair> = fc
  .tuple(closedShapeArb, fc.oneof(closedShapeArb, exactShapeArb), rotationArb, pointOf(unitCoordArb), fc.double({ min: 0, max: 1.1, noNaN: true }))
  .map(([a, b, r, dir, f]): MeshPair => {
    const n = Math.hypot(...dir) || 1;
    const t = scale(dir, (f * (a.radius + b.radius)) / n);
    return { family: `closed ${a.name} / ${b.name}`, a: a.mesh, b: b.mesh, pose: makePose(r, t) };
  });

function bounds(m: MeshData, r: Mat3): { min: Vec3; max: Vec3 } {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < m.positions.length / 3; v++) {
    const p = rotate(r, meshVertex(m, v));
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, p[k]!);
      max[k] = Math.max(max[k]!, p[k]!);
    }
  }
  return { min: min as unknown as Vec3, max: max as unknown as Vec3 };
}

/** How B's (rotated) bounds sit against A's along one axis. */
type AxisRelation = 'touch-above' | 'touch-below' | 'align-min' | 'align-max' | 'inside';

/**
 * Exact shapes under exact rotations, translated so that their bounds touch on one, two or three
 * axes (face, edge or vertex contact; a box resting on a box; two boxes sharing a face), then
 * optionally pushed apart or together by a power of two from 2⁻¹ down to 2⁻⁶⁰ on one axis.
 */
export const exactContactPairArb: Arbitrary<MeshPair> = fc
  .record({
    a: exactShapeArb,
    b: exactShapeArb,
    r: exactRotationArb,
    rel: fc.tuple(
      fc.constantFrom<AxisRelation>('touch-above', 'touch-below'),
      fc.constantFrom<AxisRelation>('touch-above', 'touch-below', 'align-min', 'align-max', 'inside', 'inside'),
      fc.constantFrom<AxisRelation>('touch-above', 'touch-below', 'align-min', 'align-max', 'inside', 'inside'),
    ),
    axisOrder: fc.constantFrom([0, 1, 2], [1, 2, 0], [2, 0, 1]),
    inside: fc.tuple(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 8 })),
    nudge: fc.oneof(
      { arbitrary: fc.constant(0), weight: 3 },
      { arbitrary: fc.tuple(fc.constantFrom(-1, 1), fc.constantFrom(1, 4, 10, 20, 30, 40, 52, 60)).map(([s, k]) => s * 2 ** -k), weight: 2 },
    ),
  })
  .map(({ a, b, r, rel, axisOrder, inside, nudge }): MeshPair => {
    const A = bounds(a.mesh, IDENTITY), B = bounds(b.mesh, r);
    const t = [0, 0, 0];
    for (let k = 0; k < 3; k++) {
      const axis = axisOrder[k]!, how = rel[k]!;
      const aMin = A.min[axis]!, aMax = A.max[axis]!, bMin = B.min[axis]!, bMax = B.max[axis]!;
      if (how === 'touch-above') t[axis] = aMax - bMin;
      else if (how === 'touch-below') t[axis] = aMin - bMax;
      else if (how === 'align-min') t[axis] = aMin - bMin;
      else if (how === 'align-max') t[axis] = aMax - bMax;
      // A point of B's range at a multiple of 1/8 of A's range (dyadic, exact).
      else t[axis] = aMin + ((aMax - aMin) * (inside[k === 1 ? 0 : 1]!)) / 8 - (bMin + bMax) / 2;
    }
    const first = axisOrder[0]!;
    t[first] = t[first]! + (rel[0] === 'touch-above' ? nudge : -nudge);
    return {
      family: `exact-contact ${a.name} / ${b.name} [${rel.join(',')}] nudge ${nudge}`,
      a: a.mesh, b: b.mesh, pose: makePose(r, t as unknown as Vec3),
    };
  });

/** A point of mesh m: a vertex, a dyadic point of an edge, or a dyadic barycentric point of a triangle. */
function featurePoint(m: MeshData, tri: number, kind: number, w: readonly [number, number]): Vec3 {
  const t = tri % (m.indices.length / 3);
  const p = meshVertex(m, m.indices[3 * t]!), q = meshVertex(m, m.indices[3 * t + 1]!), r = meshVertex(m, m.indices[3 * t + 2]!);
  if (kind === 0) return p;
  if (kind === 1) return add(p, scale(sub(q, p), w[0] / 16));
  const [i, j] = w[0] + w[1] > 16 ? [16 - w[0], 16 - w[1]] : w;
  return add(add(p, scale(sub(q, p), i / 16)), scale(sub(r, p), j / 16));
}

/**
 * B placed under any rotation so that a feature of B (vertex, edge point, face point) lands on a
 * feature of A, up to the rounding of the mapping; then the translation is moved by up to two
 * units in the last place per coordinate. This is where conservative pruning is tested hardest.
 */
export const surfaceContactPairArb: Arbitrary<MeshPair> = fc
  .record({
    a: anyShapeArb,
    b: anyShapeArb,
    r: rotationArb,
    ta: fc.nat(),
    tb: fc.nat(),
    ka: fc.integer({ min: 0, max: 2 }),
    kb: fc.integer({ min: 0, max: 2 }),
    wa: fc.tuple(fc.integer({ min: 0, max: 16 }), fc.integer({ min: 0, max: 16 })),
    wb: fc.tuple(fc.integer({ min: 0, max: 16 }), fc.integer({ min: 0, max: 16 })),
    ulps: fc.oneof({ arbitrary: fc.constant([0, 0, 0] as const), weight: 2 }, { arbitrary: fc.tuple(intArb(2), intArb(2), intArb(2)), weight: 1 }),
  })
  .map(({ a, b, r, ta, tb, ka, kb, wa, wb, ulps }): MeshPair => {
    const pa = featurePoint(a.mesh, ta, ka, wa), pb = featurePoint(b.mesh, tb, kb, wb);
    const rp = rotate(r, pb);
    const t = sub(pa, rp).map((x, i) => nudgeUlps(x, ulps[i]!)) as unknown as Vec3;
    return { family: `surface-contact ${a.name} / ${b.name} (features ${ka}/${kb})`, a: a.mesh, b: b.mesh, pose: makePose(r, t) };
  });

/**
 * Coincident geometry: a mesh against itself (identity or a symmetry of a box), and boxes sharing
 * a whole face or part of one.
 */
export const coincidentPairArb: Arbitrary<MeshPair> = fc.oneof(
  fc.tuple(anyShapeArb, fc.boolean()).map(([s, copy]): MeshPair => ({
    family: `coincident ${s.name}${copy ? ' (copy)' : ''}`,
    a: s.mesh, b: copy ? { positions: s.mesh.positions.slice(), indices: s.mesh.indices.slice() } : s.mesh, pose: makePose(IDENTITY, [0, 0, 0]),
  })),
  fc.tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom(1, 2, 4), fc.constantFrom(...SIGNED_PERMUTATIONS)).map(([s, n, r]): MeshPair => ({
    family: `cube symmetry (${n})`,
    a: boxMesh([-s, -s, -s], [s, s, s], n), b: boxMesh([-s, -s, -s], [s, s, s], n), pose: makePose(r, [0, 0, 0]),
  })),
  fc.tuple(pointOf(fc.integer({ min: 1, max: 3 })), fc.constantFrom(1, 2, 4), fc.constantFrom(1, 2), fc.integer({ min: 0, max: 2 }), fc.integer({ min: -2, max: 2 }))
    .map(([s, n, nb, axis, slide]): MeshPair => {
      const t = [0, 0, 0];
      t[axis] = s[axis]!;
      t[(axis + 1) % 3] = slide / 2;
      return {
        family: `shared face (${n}/${nb}) slide ${slide / 2}`,
        a: boxMesh([0, 0, 0], s, n), b: boxMesh([0, 0, 0], s, nb), pose: makePose(IDENTITY, t as unknown as Vec3),
      };
    }),
);

/**
 * Surfaces that coincide up to rounding, or exactly but at arbitrary angles: a UV sphere or a
 * cylinder turned about its axis by a multiple of its sector angle (every vertex lands within
 * rounding of another vertex), optionally moved by a few units in the last place; and flat grids in
 * the plane z = 0 turned by any angle about z and slid within the plane (z stays exactly 0: exact
 * coplanar overlap at every angle), or flipped over.
 */
export const symmetryPairArb: Arbitrary<MeshPair> = fc.oneof(
  fc
    .record({
      round: fc.boolean(),
      r: fc.double({ min: 0.5, max: 4, noNaN: true }),
      sectors: fc.integer({ min: 3, max: 16 }),
      stacks: fc.integer({ min: 2, max: 9 }),
      k: fc.integer({ min: 0, max: 15 }),
      ulps: fc.tuple(intArb(3), intArb(3), intArb(3)),
    })
    .map(({ round, r, sectors, stacks, k, ulps }): MeshPair => {
      const mesh = round ? uvSphereMesh(r, sectors, stacks) : cylinderMesh(r, r * 1.5, sectors, Math.min(stacks, 4));
      const h = (Math.PI * (k % sectors)) / sectors;
      const t = [0, 0, 0].map((x, i) => nudgeUlps(x, ulps[i]!)) as unknown as Vec3;
      return {
        family: `${round ? 'sphere' : 'cylinder'}(${sectors}) turned ${k % sectors}/${sectors}, ulps ${ulps.join(',')}`,
        a: mesh, b: mesh, pose: makePose(quaternionToMatrix(Math.cos(h), 0, 0, Math.sin(h)), t),
      };
    }),
  fc
    .record({
      na: fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 })),
      nb: fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 })),
      cells: fc.tuple(fc.constantFrom(0.25, 0.5, 1), fc.constantFrom(0.25, 0.5, 1, 0.3)),
      angle: fc.oneof(unitCoordArb.map((x) => x * Math.PI), fc.constantFrom(0, Math.PI / 2, Math.PI / 4, Math.PI / 6)),
      slide: fc.tuple(unitCoordArb, unitCoordArb),
      flip: fc.boolean(),
    })
    .map(({ na, nb, cells, angle, slide, flip }): MeshPair => {
      const c = Math.cos(angle), s = Math.sin(angle);
      // Turned about z; flipped: also turned half-way about x (y → −y, z → −z), exact.
      const r: Mat3 = flip ? [c, s, 0, s, -c, 0, 0, 0, -1] : [c, -s, 0, s, c, 0, 0, 0, 1];
      return {
        family: `coplanar grids ${na.join('x')} / ${nb.join('x')} at ${angle}${flip ? ' flipped' : ''}`,
        a: gridMesh(na[0], na[1], cells[0], -1, -1, 0), b: gridMesh(nb[0], nb[1], cells[1], -1, -1, 0),
        pose: makePose(r, [slide[0], slide[1], 0]),
      };
    }),
);

// ---------------------------------------------------------------------------------------------
// Decorations applied to every family: degenerate and duplicate triangles, triangle order,
// scale and distance from the origin.

const extraArb: Arbitrary<readonly [ExtraKind, number, number]> = fc.tuple(
  fc.constantFrom<ExtraKind>('repeated-vertex', 'all-same', 'same-coordinates', 'collinear', 'duplicate', 'reversed-duplicate', 'copied-duplicate', 'needle'),
  fc.nat(),
  fc.nat(),
);

/** Where the pair goes: a scale s and a shift c applied to both frames. */
interface Placement {
  readonly name: string;
  readonly s: number;
  readonly c: Vec3;
}

const placementArb: Arbitrary<Placement> = fc.oneof(
  { arbitrary: fc.constant<Placement>({ name: 'unit', s: 1, c: [0, 0, 0] }), weight: 6 },
  {
    arbitrary: fc.constantFrom<Placement>(
      { name: '2^-20', s: 2 ** -20, c: [0, 0, 0] },
      { name: '2^20', s: 2 ** 20, c: [0, 0, 0] },
      { name: '1e-6', s: 1e-6, c: [0, 0, 0] },
      { name: '1e6', s: 1e6, c: [0, 0, 0] },
      { name: 'far 2^20', s: 1, c: [2 ** 20, -(2 ** 20), 3 * 2 ** 19] },
      { name: 'far 1e6', s: 1, c: [1e6, 1e6, -1e6] },
      { name: '2^-20 far 2^20', s: 2 ** -20, c: [2 ** 20, 0, 0] },
      { name: '1e-3 far 1e6', s: 1e-3, c: [-1e6, 1e6, 1e6] },
    ),
    weight: 3,
  },
);

/**
 * Adds degenerate and duplicate triangles, shuffles triangle order and places the pair at another
 * scale or far from the origin: A' = s·A + c, B' = s·B + c, pose' = (R, s·t + c − R·c). With
 * power-of-two scales, integer shifts and exact rotations nothing rounds.
 */
export function decorated(pairs: Arbitrary<MeshPair>): Arbitrary<MeshPair> {
  return fc
    .record({
      pair: pairs,
      extrasA: fc.oneof({ arbitrary: fc.constant([]), weight: 2 }, { arbitrary: fc.array(extraArb, { minLength: 1, maxLength: 12 }), weight: 1 }),
      extrasB: fc.oneof({ arbitrary: fc.constant([]), weight: 2 }, { arbitrary: fc.array(extraArb, { minLength: 1, maxLength: 12 }), weight: 1 }),
      shuffle: fc.option(fc.integer(), { freq: 2 }),
      place: placementArb,
    })
    .map(({ pair, extrasA, extrasB, shuffle, place }): MeshPair => {
      let a = pair.a, b = pair.b;
      if (extrasA.length > 0) a = withExtraTriangles(a, extrasA, shuffle ?? 1);
      else if (shuffle !== null) a = shuffleTriangles(a, shuffle);
      if (extrasB.length > 0) b = withExtraTriangles(b, extrasB, (shuffle ?? 2) ^ 0x5bd1e995);
      else if (shuffle !== null) b = shuffleTriangles(b, shuffle ^ 0x5bd1e995);
      let pose = pair.pose;
      if (place.s !== 1 || place.c.some((x) => x !== 0)) {
        const r = poseRotation(pose), t = poseTranslation(pose), rc = rotate(r, place.c);
        a = scaleShiftMesh(a, place.s, place.c);
        b = scaleShiftMesh(b, place.s, place.c);
        pose = makePose(r, [t[0] * place.s + place.c[0] - rc[0], t[1] * place.s + place.c[1] - rc[1], t[2] * place.s + place.c[2] - rc[2]]);
      }
      const notes = [
        extrasA.length > 0 ? `+${extrasA.length} extra A` : '',
        extrasB.length > 0 ? `+${extrasB.length} extra B` : '',
        shuffle !== null ? 'shuffled' : '',
        place.name !== 'unit' ? place.name : '',
      ].filter((x) => x !== '');
      return { family: notes.length > 0 ? `${pair.family} {${notes.join(', ')}}` : pair.family, a, b, pose };
    });
}

/** The families, each decorated, by name. */
export const MESH_PAIR_ARBS: Readonly<Record<string, Arbitrary<MeshPair>>> = {
  soup: decorated(soupPairArb),
  closedOverlap: decorated(closedOverlapPairArb),
  exactContact: decorated(exactContactPairArb),
  surfaceContact: decorated(surfaceContactPairArb),
  coincident: decorated(coincidentPairArb),
  symmetry: decorated(symmetryPairArb),
};

/** Every family mixed. */
export const meshPairArb: Arbitrary<MeshPair> = fc.oneof(...Object.values(MESH_PAIR_ARBS));

/** The first `n` triangles of a mesh (all vertices kept). */
export function firstTriangles(m: MeshData, n: number): MeshData {
  return { positions: m.positions, indices: m.indices.slice(0, 3 * n) };
}

/** Pairs cut to at most `n` triangles each, for checks against the slow exact oracle. */
export function smallMeshPairArb(n: number): Arbitrary<MeshPair> {
  return meshPairArb.map((p) => ({ ...p, a: firstTriangles(p.a, n), b: firstTriangles(p.b, n) }));
}

/** Single meshes of every kind (for tree construction tests). */
export const meshArb: Arbitrary<MeshData> = fc.oneof(
  meshPairArb.map((p) => p.a),
  meshPairArb.map((p) => p.b),
);

// ---------------------------------------------------------------------------------------------
// Floating-point helpers.

const bits = new DataView(new ArrayBuffer(8));

/** x moved by k representable steps (positive: up). */
export function nudgeUlps(x: number, k: number): number {
  let y = x;
  for (let i = 0; i < Math.abs(k); i++) {
    if (y === 0) { y = k > 0 ? Number.MIN_VALUE : -Number.MIN_VALUE; continue; }
    bits.setFloat64(0, y);
    const u = bits.getBigUint64(0);
    bits.setBigUint64(0, (y > 0) === (k > 0) ? u + 1n : u - 1n);
    y = bits.getFloat64(0);
  }
  return y;
}
