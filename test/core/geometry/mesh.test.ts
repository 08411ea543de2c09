import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { createMesh, validateMesh, weldVertices, isZeroAreaTriangle, MeshError } from '../../../src-core/geometry/mesh.js';
import type { MeshErrorCode } from '../../../src-core/geometry/mesh.js';

const P = (...xs: number[]): Float64Array => Float64Array.from(xs);
const I = (...xs: number[]): Uint32Array => Uint32Array.from(xs);

/** The MeshError thrown by `f`, or a failure if it throws something else or nothing. */
function meshErrorOf(f: () => unknown): MeshError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(MeshError);
    return e as MeshError;
  }
  throw new Error('expected a MeshError, nothing was thrown');
}

function expectMeshError(positions: Float64Array, indices: Uint32Array, code: MeshErrorCode, index: number, message: RegExp): void {
  for (const f of [() => validateMesh(positions, indices), () => createMesh(positions, indices)]) {
    const e = meshErrorOf(f);
    expect(e.code).toBe(code);
    expect(e.index).toBe(index);
    expect(e.name).toBe('MeshError');
    expect(e).toBeInstanceOf(Error);
    expect(e.message).toMatch(message);
  }
}

// Four vertices, two triangles.
const QUAD = P(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0);
const QUAD_IDX = I(0, 1, 2, 0, 2, 3);

describe('createMesh / validateMesh reject unusable meshes', () => {
  for (const bad of [NaN, Infinity, -Infinity]) {
    for (const [v, axis] of [[0, 0], [2, 1], [3, 2]] as const) {
      it(`a coordinate ${bad} at vertex ${v}, axis ${axis}: non-finite-coordinate naming the vertex`, () => {
        const p = QUAD.slice();
        p[3 * v + axis] = bad;
        expectMeshError(p, QUAD_IDX, 'non-finite-coordinate', v, new RegExp(`\\bvertex ${v}\\b`));
      });
    }
  }

  it('names the first non-finite vertex when there are several', () => {
    const p = QUAD.slice();
    p[7] = NaN;
    p[11] = Infinity;
    expectMeshError(p, QUAD_IDX, 'non-finite-coordinate', 2, /\bvertex 2\b/);
  });

  it('an index past the last vertex: index-out-of-range naming the triangle (and the vertex)', () => {
    expectMeshError(QUAD, I(0, 1, 2, 0, 2, 4), 'index-out-of-range', 1, /\btriangle 1\b.*\b4\b/);
    expectMeshError(QUAD, I(9, 1, 2, 0, 2, 3), 'index-out-of-range', 0, /\btriangle 0\b.*\b9\b/);
    expectMeshError(QUAD, I(0, 1, 2, 0, 2, 3, 1, 2, 0xffffffff), 'index-out-of-range', 2, /\btriangle 2\b/);
    expectMeshError(P(), I(0, 0, 0), 'index-out-of-range', 0, /\btriangle 0\b/);
  });

  it('no triangles: empty', () => {
    expectMeshError(QUAD, I(), 'empty', -1, /no triangles/);
    expectMeshError(P(), I(), 'empty', -1, /no triangles/);
  });

  it('lengths not a multiple of 3: bad-length', () => {
    expectMeshError(P(0, 0, 0, 1, 0, 0, 1), QUAD_IDX.subarray(0, 3), 'bad-length', -1, /positions length 7/);
    expectMeshError(QUAD, I(0, 1, 2, 3), 'bad-length', -1, /indices length 4/);
    expectMeshError(QUAD, I(0, 1), 'bad-length', -1, /indices length 2/);
  });

  it('a valid mesh is described by its report', () => {
    const m = createMesh(QUAD, QUAD_IDX);
    expect(m.triangleCount).toBe(2);
    expect(m.vertexCount).toBe(4);
    expect(m.positions).toBe(QUAD);
    expect(m.indices).toBe(QUAD_IDX);
    expect(m.report).toEqual({
      triangleCount: 2, vertexCount: 4, zeroAreaTriangles: 0, zeroAreaSample: [],
      maxAbsCoordinate: 1, min: [0, 0, 0], max: [1, 1, 0],
    });
    const far = createMesh(P(-3e6, 2, 0, 1, -5, 4, 0, 0, 1e-6), I(0, 1, 2));
    expect(far.report.maxAbsCoordinate).toBe(3e6);
    expect(far.report.min).toEqual([-3e6, -5, 0]);
    expect(far.report.max).toEqual([1, 2, 4]);
  });
});

describe('zero-area triangles are counted and sampled, never an error', () => {
  it('repeated vertex, collinear, all three equal, equal coordinates under distinct indices', () => {
    const positions = P(
      0, 0, 0, // 0
      1, 0, 0, // 1
      0, 1, 0, // 2
      2, 0, 0, // 3: on the line through 0 and 1
      1, 1, 1, // 4
      1, 1, 1, // 5: same coordinates as 4
      0.5, 0.25, 3, // 6
      1.5, 0.75, 9, // 7: 6 and 7 and 8 collinear (exact dyadic steps)
      2.5, 1.25, 15, // 8
    );
    const indices = I(
      0, 1, 2, // 0 fine
      0, 0, 2, // 1 repeated vertex
      0, 1, 3, // 2 collinear
      4, 4, 4, // 3 one vertex three times
      0, 2, 1, // 4 fine
      4, 5, 4, // 5 equal coordinates
      6, 7, 8, // 6 collinear off the axes
      1, 2, 4, // 7 fine
    );
    const m = createMesh(positions, indices);
    expect(m.report.zeroAreaTriangles).toBe(5);
    expect(m.report.zeroAreaSample).toEqual([1, 2, 3, 5, 6]);
    for (let t = 0; t < 8; t++) expect(isZeroAreaTriangle(positions, indices, t), `triangle ${t}`).toBe([1, 2, 3, 5, 6].includes(t));
  });

  it('decides zero area as exact integer arithmetic does (coordinates on a coarse grid: collinear, axis-aligned and repeated points common)', () => {
    // Coordinates are multiples of 1/4 (and one offset by 2⁻⁴⁰), so 2⁴² · coordinate is an integer.
    const coord = fc.constantFrom(0, 1, -1, 2, 0.25, 3.5, 1 + 2 ** -40);
    const big = (x: number): bigint => BigInt(x * 2 ** 42);
    fc.assert(
      fc.property(fc.array(coord, { minLength: 9, maxLength: 9 }), (v) => {
        const [ax, ay, az, bx, by, bz, cx, cy, cz] = v.map(big) as [bigint, bigint, bigint, bigint, bigint, bigint, bigint, bigint, bigint];
        const ux = bx - ax, uy = by - ay, uz = bz - az, wx = cx - ax, wy = cy - ay, wz = cz - az;
        const zero = uy * wz - uz * wy === 0n && uz * wx - ux * wz === 0n && ux * wy - uy * wx === 0n;
        expect(isZeroAreaTriangle(Float64Array.from(v), I(0, 1, 2), 0)).toBe(zero);
      }),
      { numRuns: 5000 },
    );
  });

  it('a nearly collinear triangle (one ulp off the line) is not zero-area', () => {
    const positions = P(0, 0, 0, 1, 1, 1, 3, 3, 3 + 2 ** -51);
    expect(createMesh(positions, I(0, 1, 2)).report.zeroAreaTriangles).toBe(0);
    expect(createMesh(P(0, 0, 0, 1, 1, 1, 3, 3, 3), I(0, 1, 2)).report.zeroAreaTriangles).toBe(1);
  });

  it('a mesh of nothing but zero-area triangles is valid; the sample lists the first ones in order', () => {
    const n = 40;
    const positions = new Float64Array(3 * (n + 2));
    for (let v = 0; v < n + 2; v++) positions.set([v, 2 * v, -v], 3 * v);
    const indices = new Uint32Array(3 * n);
    for (let t = 0; t < n; t++) indices.set([t, t + 1, t + 2], 3 * t);
    const r = validateMesh(positions, indices);
    expect(r.zeroAreaTriangles).toBe(n);
    expect(r.zeroAreaSample.length).toBeGreaterThan(0);
    expect(r.zeroAreaSample).toEqual(Array.from({ length: r.zeroAreaSample.length }, (_, i) => i));
  });
});

describe('weldVertices', () => {
  it('merges exact duplicates (−0 equals 0), keeps triangle order and first-occurrence vertex order', () => {
    const positions = P(
      1, 2, 3, // 0
      0, 0, 0, // 1
      1, 2, 3, // 2 = 0
      -0, 0, -0, // 3 = 1
      1, 2, 3 + 2 ** -51, // 4: one ulp away, distinct
      0, -0, 0, // 5 = 1
    );
    const indices = I(0, 1, 2, 3, 4, 5, 5, 2, 4);
    const w = weldVertices(positions, indices);
    expect(Array.from(w.positions)).toEqual([1, 2, 3, 0, 0, 0, 1, 2, 3 + 2 ** -51]);
    expect(Array.from(w.indices)).toEqual([0, 1, 0, 1, 2, 1, 1, 0, 2]);
    // The welded zero is +0.
    expect(Object.is(w.positions[3], 0)).toBe(true);
    // The input is left alone.
    expect(Object.is(positions[9], -0)).toBe(true);
  });

  it('without indices, numbers the input vertices in order', () => {
    const w = weldVertices(P(5, 5, 5, 6, 6, 6, 5, 5, 5, 7, 7, 7, 6, 6, 6, 5, 5, 5));
    expect(Array.from(w.positions)).toEqual([5, 5, 5, 6, 6, 6, 7, 7, 7]);
    expect(Array.from(w.indices)).toEqual([0, 1, 0, 2, 1, 0]);
  });

  it('maps every triangle to the same coordinates and leaves no duplicate (seed 20261143)', () => {
    const coord = fc.constantFrom(0, -0, 1, -1, 0.5, 1e-300, 2 ** 52, 3);
    fc.assert(
      fc.property(fc.array(fc.tuple(coord, coord, coord), { minLength: 1, maxLength: 60 }), fc.array(fc.nat(), { minLength: 3, maxLength: 90 }), (pts, picks) => {
        const positions = Float64Array.from(pts.flat());
        const n = pts.length;
        const indices = Uint32Array.from(picks.slice(0, picks.length - (picks.length % 3)).map((k) => k % n));
        const w = weldVertices(positions, indices);
        const keys = new Set<string>();
        for (let v = 0; v < w.positions.length / 3; v++) keys.add(`${w.positions[3 * v]},${w.positions[3 * v + 1]},${w.positions[3 * v + 2]}`);
        expect(keys.size).toBe(w.positions.length / 3);
        expect(w.indices.length).toBe(indices.length);
        for (let i = 0; i < indices.length; i++) {
          for (let k = 0; k < 3; k++) expect(w.positions[3 * w.indices[i]! + k]! === positions[3 * indices[i]! + k]!).toBe(true);
        }
      }),
      { seed: 20261143, numRuns: 200 },
    );
  });

  it('welds a 300k-vertex soup (100k distinct points, each three times, scattered)', () => {
    const distinct = 100_000;
    const n = 3 * distinct;
    const positions = new Float64Array(3 * n);
    // Point k is (k mod 97, k mod 101 / 8, k / 1024); copy c of point k sits at slot (k·3 + c)·7919 mod n.
    for (let k = 0; k < distinct; k++) {
      for (let c = 0; c < 3; c++) {
        const slot = ((k * 3 + c) * 7919) % n;
        positions[3 * slot] = k % 97;
        positions[3 * slot + 1] = (k % 101) / 8;
        positions[3 * slot + 2] = k / 1024;
      }
    }
    const w = weldVertices(positions);
    expect(w.positions.length).toBe(3 * distinct);
    expect(w.indices.length).toBe(n);
    for (let i = 0; i < n; i += 997) {
      for (let k = 0; k < 3; k++) expect(w.positions[3 * w.indices[i]! + k]).toBe(positions[3 * i + k]);
    }
  });
});
