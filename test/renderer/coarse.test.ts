import { describe, expect, it } from 'vitest';
import { coarseMesh } from '../../src-renderer/scene/coarse';

/** A UV sphere of radius r: (rings − 1) × segments × 2 triangles, welded vertices. */
function sphere(r: number, rings: number, segments: number): { positions: Float32Array; indices: Uint32Array } {
  const positions: number[] = [];
  for (let i = 0; i <= rings; i++) {
    const theta = (Math.PI * i) / rings;
    for (let j = 0; j < segments; j++) {
      const phi = (2 * Math.PI * j) / segments;
      positions.push(r * Math.sin(theta) * Math.cos(phi), r * Math.sin(theta) * Math.sin(phi), r * Math.cos(theta));
    }
  }
  const indices: number[] = [];
  const at = (i: number, j: number) => i * segments + (j % segments);
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < segments; j++) {
      if (i > 0) indices.push(at(i, j), at(i + 1, j), at(i, j + 1));
      if (i < rings - 1) indices.push(at(i, j + 1), at(i + 1, j), at(i + 1, j + 1));
    }
  }
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}

describe('coarse stand-ins of large bodies (vertex clustering)', () => {
  it('draws a fine sphere with a small fraction of its triangles, every vertex near the surface', () => {
    const s = sphere(50, 200, 400);
    const c = coarseMesh(s.positions, s.indices, 40);
    if (!c) throw new Error('no coarse mesh');
    const before = s.indices.length / 3;
    const after = c.indices.length / 3;
    expect(after).toBeLessThan(before / 10);
    expect(after).toBeGreaterThan(1000);
    // Cells are 100 / 40 = 2.5 mm wide: a cluster's mean is within a cell's diagonal of the surface.
    for (let v = 0; v < c.positions.length; v += 3) {
      const r = Math.hypot(c.positions[v], c.positions[v + 1], c.positions[v + 2]);
      expect(Math.abs(r - 50)).toBeLessThan(2.5 * Math.sqrt(3));
    }
    // Every index names a vertex; no triangle repeats a vertex.
    const n = c.positions.length / 3;
    for (let t = 0; t < c.indices.length; t += 3) {
      const [a, b, d] = [c.indices[t], c.indices[t + 1], c.indices[t + 2]];
      expect(Math.max(a, b, d)).toBeLessThan(n);
      expect(a !== b && b !== d && d !== a).toBe(true);
    }
  });

  it('leaves a mesh that would not get smaller by half as it is (null)', () => {
    const s = sphere(50, 8, 16);
    expect(coarseMesh(s.positions, s.indices, 48)).toBeNull();
    expect(coarseMesh(new Float32Array(0), new Uint32Array(0))).toBeNull();
  });
});
