import { describe, expect, it } from 'vitest';
import { bodyEdges, creaseEdges, faceBoundaryEdges, faceRangesUsable, splitVerticesByFace } from '../../src-renderer/scene/edges';
import { trianglePositions } from '../../src-renderer/scene/highlight';
import { cubeBody } from '../support/fakeHost';

/** Edges as sorted "i-j" strings of positions (vertex indices differ between methods). */
function edgeSet(positions: Float32Array, pairs: Uint32Array): string[] {
  const p = (v: number) => `${positions[3 * v]},${positions[3 * v + 1]},${positions[3 * v + 2]}`;
  const out: string[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    const [x, y] = [p(pairs[i]), p(pairs[i + 1])].sort();
    out.push(`${x}|${y}`);
  }
  return out.sort();
}

describe('edges over faces', () => {
  const cube = cubeBody('c');

  it('draws each B-rep face boundary once, not the diagonals inside faces', () => {
    const edges = faceBoundaryEdges(cube.indices, cube.faceRanges, 8);
    expect(edges.length / 2).toBe(12);
    expect(new Set(edgeSet(cube.positions, edges)).size).toBe(12);
  });

  it('finds the same 12 edges by crease angle without faces', () => {
    const edges = creaseEdges(cube.positions, cube.indices, 30);
    expect(edgeSet(cube.positions, edges)).toEqual(edgeSet(cube.positions, faceBoundaryEdges(cube.indices, cube.faceRanges, 8)));
    expect(bodyEdges(cube.positions, cube.indices, new Uint32Array(0))).toEqual(edges);
  });

  it('draws open edges of a surface', () => {
    // One square of two triangles: the 4 border edges, not the diagonal.
    const positions = new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]);
    const indices = new Uint32Array([0, 1, 2, 0, 2, 3]);
    expect(creaseEdges(positions, indices).length / 2).toBe(4);
  });

  it('checks face ranges before trusting them', () => {
    expect(faceRangesUsable(cube.faceRanges, 12)).toBe(true);
    expect(faceRangesUsable(new Uint32Array([0, 12]), 12)).toBe(false);
    expect(faceRangesUsable(new Uint32Array([3, 2]), 12)).toBe(false);
    expect(faceRangesUsable(new Uint32Array([0]), 12)).toBe(false);
    expect(faceRangesUsable(new Uint32Array(0), 12)).toBe(false);
  });

  it('draws non-manifold edges and keeps smooth ones hidden', () => {
    // Three triangles on one edge (0-1): non-manifold, drawn. A shallow fold (5°) on edge 0-1 of
    // two triangles: not drawn.
    const fin = new Float32Array([0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, -1, 0, 0.5, 0, 1]);
    const three = creaseEdges(fin, new Uint32Array([0, 1, 2, 1, 0, 3, 0, 1, 4]));
    const edges = edgeSet(fin, three);
    expect(edges).toContain('0,0,0|1,0,0');
    const z = Math.tan((5 * Math.PI) / 180);
    const fold = new Float32Array([0, 0, 0, 1, 0, 0, 0.5, 1, z, 0.5, -1, z]);
    const two = edgeSet(fold, creaseEdges(fold, new Uint32Array([0, 1, 2, 1, 0, 3])));
    expect(two).not.toContain('0,0,0|1,0,0');
    expect(two).toHaveLength(4);
  });
});

describe('splitVerticesByFace', () => {
  const cube = cubeBody('c');

  it('gives each face its own vertices and keeps every triangle where it was', () => {
    const split = splitVerticesByFace(cube.positions, cube.indices, cube.faceRanges);
    expect(split.positions.length / 3).toBe(24);
    expect(split.indices.length).toBe(cube.indices.length);
    const all = new Uint32Array(Array.from({ length: 12 }, (_, t) => t));
    expect(trianglePositions(split.positions, split.indices, all)).toEqual(trianglePositions(cube.positions, cube.indices, all));
    // No vertex is shared between two faces.
    const faceOf = new Map<number, number>();
    for (let t = 0; t < 12; t++) {
      for (let c = 0; c < 3; c++) {
        const v = split.indices[3 * t + c];
        const face = t >> 1;
        expect(faceOf.get(v) ?? face).toBe(face);
        faceOf.set(v, face);
      }
    }
  });

  it('leaves a mesh without usable faces as it is', () => {
    const split = splitVerticesByFace(cube.positions, cube.indices, new Uint32Array(0));
    expect(split.positions).toBe(cube.positions);
    expect(split.indices).toBe(cube.indices);
  });
});

describe('trianglePositions', () => {
  it('copies the corners of the chosen triangles and skips triangles out of range', () => {
    const cube = cubeBody('c', 2);
    const out = trianglePositions(cube.positions, cube.indices, new Uint32Array([1, 99]));
    // Triangle 1: vertices 0, 3, 2.
    expect([...out]).toEqual([0, 0, 0, 0, 2, 0, 2, 2, 0]);
  });
});
