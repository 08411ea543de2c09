import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { edgeReport, type EdgeReport } from '../../../src-core/geometry/meshProps';
import type { TriangleMesh } from '../../../src-core/geometry/mesh';

/** The edge report by brute force: every undirected edge's uses counted in a Map. */
function oracle(indices: Uint32Array): EdgeReport {
  const uses = new Map<string, { fwd: number; bwd: number }>();
  for (let t = 0; t < indices.length / 3; t++) {
    for (let k = 0; k < 3; k++) {
      const u = indices[3 * t + k]!, v = indices[3 * t + ((k + 1) % 3)]!;
      if (u === v) continue;
      const key = `${Math.min(u, v)}-${Math.max(u, v)}`;
      const e = uses.get(key) ?? { fwd: 0, bwd: 0 };
      if (u < v) e.fwd++;
      else e.bwd++;
      uses.set(key, e);
    }
  }
  let boundaryEdges = 0, nonManifoldEdges = 0, misorientedEdges = 0;
  for (const { fwd, bwd } of uses.values()) {
    if (fwd + bwd === 1) boundaryEdges++;
    else if (fwd + bwd > 2) nonManifoldEdges++;
    else if (fwd !== 1) misorientedEdges++;
  }
  return { boundaryEdges, nonManifoldEdges, misorientedEdges, closed: boundaryEdges + nonManifoldEdges + misorientedEdges === 0 };
}

function meshOf(indices: Uint32Array, vertexCount: number): TriangleMesh {
  return { positions: new Float64Array(3 * vertexCount), indices, vertexCount, triangleCount: indices.length / 3 };
}

/** A closed, consistently oriented fan-capped tube: `segments` around, both ends fans on a centre vertex. */
function cappedTube(segments: number, rows: number): Uint32Array {
  const ring = (r: number, s: number): number => 2 + r * segments + (s % segments);
  const t: number[] = [];
  for (let r = 0; r + 1 < rows; r++) {
    for (let s = 0; s < segments; s++) {
      t.push(ring(r, s), ring(r, s + 1), ring(r + 1, s + 1), ring(r, s), ring(r + 1, s + 1), ring(r + 1, s));
    }
  }
  for (let s = 0; s < segments; s++) {
    t.push(0, ring(0, s + 1), ring(0, s));
    t.push(1, ring(rows - 1, s), ring(rows - 1, s + 1));
  }
  return Uint32Array.from(t);
}

describe('edgeReport', () => {
  it('equals a brute-force count on random index lists, degenerate and repeated triangles included (seed 20261204)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(fc.nat(), { minLength: 3, maxLength: 300 }), (n, picks) => {
        const indices = Uint32Array.from(picks.slice(0, picks.length - (picks.length % 3)).map((k) => k % n));
        expect(edgeReport(meshOf(indices, n))).toEqual(oracle(indices));
      }),
      { seed: 20261204, numRuns: 400 },
    );
  });

  it('equals the brute force on closed tubes with long fans, and on them opened, flipped and doubled', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 80 }), fc.integer({ min: 2, max: 5 }), fc.nat(), fc.constantFrom('as is', 'drop', 'flip', 'double'), (segments, rows, pick, change) => {
        const base = cappedTube(segments, rows);
        const n = 2 + rows * segments;
        let indices = base;
        const t = pick % (base.length / 3);
        if (change === 'drop') indices = Uint32Array.from([...base.slice(0, 3 * t), ...base.slice(3 * t + 3)]);
        if (change === 'flip') {
          indices = base.slice();
          [indices[3 * t + 1], indices[3 * t + 2]] = [indices[3 * t + 2]!, indices[3 * t + 1]!];
        }
        if (change === 'double') indices = Uint32Array.from([...base, ...base.slice(3 * t, 3 * t + 3)]);
        const report = edgeReport(meshOf(indices, n));
        expect(report).toEqual(oracle(indices));
        if (change === 'as is') expect(report.closed).toBe(true);
        else expect(report.closed).toBe(false);
      }),
      { seed: 20261205, numRuns: 200 },
    );
  });
});
