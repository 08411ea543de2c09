import { describe, it, expect } from 'vitest';
import { CHORD_SAFETY_FACTOR, estimateChordErrors } from '../../../../src-core/io/occt/chord.js';

// ---------------------------------------------------------------------------------------------
// The chordal error estimate on exact geometry

describe('occt: chordal error estimate', () => {
  /** A cylinder band of radius r, n facets around, from z = 0 to z = h; exact normals. */
  function cylinder(r: number, n: number, h: number): { positions: Float64Array; normals: Float64Array; indices: Uint32Array } {
    const pos: number[] = [], nrm: number[] = [], idx: number[] = [];
    for (let i = 0; i <= n; i++) {
      const a = (2 * Math.PI * i) / n;
      for (const z of [0, h]) {
        pos.push(r * Math.cos(a), r * Math.sin(a), z);
        nrm.push(Math.cos(a), Math.sin(a), 0);
      }
    }
    for (let i = 0; i < n; i++) idx.push(2 * i, 2 * i + 2, 2 * i + 3, 2 * i, 2 * i + 3, 2 * i + 1);
    return { positions: new Float64Array(pos), normals: new Float64Array(nrm), indices: new Uint32Array(idx) };
  }

  it('a cylinder: the exact sagitta of the facet (×1.5), even for long diagonal edges', () => {
    for (const [r, n, h] of [[5, 28, 200], [10, 12, 1], [1, 100, 50]]) {
      const c = cylinder(r, n, h);
      const e = estimateChordErrors(c.positions, c.normals, c.indices);
      const sagitta = r * (1 - Math.cos(Math.PI / n));
      for (const x of e) expect(x).toBeCloseTo(CHORD_SAFETY_FACTOR * sagitta, 6);
    }
  });

  it('one-sided (averaged) normals at a face boundary still see the full turn', () => {
    const c = cylinder(5, 12, 10);
    // Tilt the first column's normals halfway towards the next column, as an average over one side does.
    const half = Math.PI / 12;
    for (const v of [0, 1]) {
      c.normals[3 * v] = Math.cos(half);
      c.normals[3 * v + 1] = Math.sin(half);
    }
    const e = estimateChordErrors(c.positions, c.normals, c.indices);
    expect(e[0]).toBeCloseTo(CHORD_SAFETY_FACTOR * 5 * (1 - Math.cos(Math.PI / 12)), 6);
  });

  it('a sphere triangle: between the edge sagitta and 1.5 times it covers the centre', () => {
    const R = 10;
    const dir = (th: number, ph: number): number[] => [Math.sin(th) * Math.cos(ph), Math.sin(th) * Math.sin(ph), Math.cos(th)];
    const ns = [dir(0.3, 0), dir(0.3, (2 * Math.PI) / 3), dir(0.3, (4 * Math.PI) / 3)];
    const positions = new Float64Array(ns.flatMap((n) => n.map((x) => R * x)));
    const e = estimateChordErrors(positions, new Float64Array(ns.flat()), new Uint32Array([0, 1, 2]));
    // Exact: the triangle's plane is at distance d from the centre; the surface bulges R − d at the centre.
    const centre = [0, 1, 2].map((a) => (positions[a] + positions[3 + a] + positions[6 + a]) / 3);
    const bulge = R - Math.hypot(...centre);
    expect(e[0]).toBeGreaterThan(bulge);
    expect(e[0]).toBeLessThan(1.5 * bulge);
  });

  it('unusable normals and zero-length edges contribute nothing', () => {
    const e = estimateChordErrors(
      new Float64Array([0, 0, 0, 1, 0, 0, 1, 0, 0]),
      new Float64Array([0, 0, 0, NaN, 0, 1, 0, 0, 1]),
      new Uint32Array([0, 1, 2]),
    );
    expect(Array.from(e)).toEqual([0]);
  });
});
