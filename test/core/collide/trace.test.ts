import { describe, expect, it } from 'vitest';
import { buildObbTree, collidePlaced, createMesh, parseRigid } from '../../../src-core/index';
import { traceCollide, TRACE_BOX_ROW, TRACE_PRUNED } from '../../../src-core/collide/trace';

function sphere(r: number, seg = 16, rings = 8): ReturnType<typeof createMesh> {
  const pos: number[] = [];
  const idx: number[] = [];
  for (let i = 0; i <= rings; i++) {
    const th = (Math.PI * i) / rings;
    for (let j = 0; j < seg; j++) {
      const ph = (2 * Math.PI * j) / seg;
      pos.push(r * Math.sin(th) * Math.cos(ph), r * Math.sin(th) * Math.sin(ph), r * Math.cos(th));
    }
  }
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < seg; j++) {
      const a = i * seg + j, b = i * seg + ((j + 1) % seg), c = a + seg, d = b + seg;
      if (i > 0) idx.push(a, c, b);
      if (i < rings - 1) idx.push(b, c, d);
    }
  }
  return createMesh(Float64Array.from(pos), Uint32Array.from(idx));
}

function sorted(p: Uint32Array): string[] {
  const out: string[] = [];
  for (let i = 0; i < p.length; i += 2) out.push(`${p[i]} ${p[i + 1]}`);
  return out.sort();
}

describe('traversal trace', () => {
  const a = buildObbTree(sphere(5)), b = buildObbTree(sphere(3));
  const pa = parseRigid([1, 0, 0, 10, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  const pb = parseRigid([0, -1, 0, 16, 1, 0, 0, 1, 0, 0, 1, 0.5, 0, 0, 0, 1]);

  it('finds exactly the pairs of the fast query, among the triangles it tested', () => {
    const trace = traceCollide(a, pa, b, pb);
    const fast = collidePlaced(a, pa, b, pb, 'all');
    expect(sorted(trace.pairs)).toEqual(sorted(fast.pairs));
    expect(trace.pairs.length).toBeGreaterThan(0);
    const testedA = new Set(trace.testedA), testedB = new Set(trace.testedB);
    for (let k = 0; k < trace.pairs.length; k += 2) {
      expect(testedA.has(trace.pairs[k])).toBe(true);
      expect(testedB.has(trace.pairs[k + 1])).toBe(true);
    }
    expect(trace.triTests).toBeGreaterThanOrEqual(trace.pairs.length / 2);
  });

  it('records visited boxes in world coordinates, pruned and descended, to the depth asked', () => {
    const trace = traceCollide(a, pa, b, pb, { maxDepth: 3 });
    const rows = trace.boxes.length / TRACE_BOX_ROW;
    expect(rows).toBeGreaterThan(0);
    let pruned = 0;
    for (let r = 0; r < rows; r++) {
      const o = r * TRACE_BOX_ROW;
      expect(trace.boxes[o + 1]).toBeLessThanOrEqual(3);
      if (trace.boxes[o + 2] === TRACE_PRUNED) pruned++;
    }
    expect(pruned).toBeGreaterThan(0);
    // The root box of A is centred on A's placement (a sphere around its origin).
    expect(trace.boxes[3]).toBeCloseTo(10, 0);
  });

  it('far apart: one pruned root pair, nothing tested', () => {
    const trace = traceCollide(a, pa, b, parseRigid([1, 0, 0, 100, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]));
    expect(trace.boxTests).toBe(1);
    expect(trace.testedA.length).toBe(0);
    expect(trace.pairs.length).toBe(0);
  });
});
