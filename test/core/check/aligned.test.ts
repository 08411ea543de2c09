// Closed boxes whose faces lie in each other's planes: every intersection of their surfaces is a
// touch (an edge lying in a face, coplanar faces), none is a transversal crossing, and no vertex of
// one box is strictly inside the other — yet they may share a volume. A CAD box is tessellated
// into two triangles per face exactly like this, so the check must see the overlap from the
// triangles' interiors.
import { describe, expect, it } from 'vitest';
import { createMesh } from '../../../src-core/geometry/mesh';
import { buildObbTree } from '../../../src-core/obbtree/build';
import { runCheck } from '../../../src-core/check/check';
import type { CheckPart, PairResult } from '../../../src-core/check/types';
import { loadManifold } from '../../../src-main/services/manifoldNode';

type Box = readonly [number, number, number, number, number, number];

/** A closed, outward-facing box [x0,x1]×[y0,y1]×[z0,z1]: 8 vertices, 12 triangles. */
function boxPart(id: string, [x0, y0, z0, x1, y1, z1]: Box): CheckPart {
  const positions = Float64Array.of(
    x0, y0, z0, x1, y0, z0, x1, y1, z0, x0, y1, z0,
    x0, y0, z1, x1, y0, z1, x1, y1, z1, x0, y1, z1,
  );
  const indices = Uint32Array.of(
    0, 2, 1, 0, 3, 2, // z0
    4, 5, 6, 4, 6, 7, // z1
    0, 1, 5, 0, 5, 4, // y0
    3, 7, 6, 3, 6, 2, // y1
    0, 4, 7, 0, 7, 3, // x0
    1, 2, 6, 1, 6, 5, // x1
  );
  const mesh = createMesh(positions, indices);
  return { id, name: id, mesh, tree: buildObbTree(mesh), transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0], chordErrorMm: null };
}

async function pairOf(a: Box, b: Box, manifold: boolean): Promise<PairResult | undefined> {
  const result = await runCheck(
    { parts: [boxPart('a', a), boxPart('b', b)], settings: { touchToleranceMm: 0.01, clearanceMm: 0, contactIsInterference: false }, ignore: [] },
    { manifold: manifold ? loadManifold : null },
  );
  return result.results[0];
}

const CUBE: Box = [0, 0, 0, 10, 10, 10];

describe('boxes whose faces share planes', () => {
  for (const manifold of [true, false]) {
    const how = manifold ? 'with volumes' : 'without volumes (depth only)';

    it(`overlapping along one axis, same cross-section: interference (${how})`, async () => {
      for (const b of [[5, 0, 0, 15, 10, 10], [0, 5, 0, 10, 15, 10], [0, 0, 5, 10, 10, 15], [-5, 0, 0, 5, 10, 10]] as Box[]) {
        const r = await pairOf(CUBE, b, manifold);
        expect(r?.kind, JSON.stringify(b)).toBe('interference');
        expect(r?.depthMm, JSON.stringify(b)).toBeGreaterThan(1);
        if (manifold) expect(r?.volumeMm3, JSON.stringify(b)).toBeCloseTo(500, 6);
      }
    });

    it(`a box inside another sharing three faces, and the same box: interference (${how})`, async () => {
      for (const b of [[0, 0, 0, 5, 5, 5], CUBE, [0, 0, 0, 10, 10, 4]] as Box[]) {
        const r = await pairOf(CUBE, b, manifold);
        expect(r?.kind, JSON.stringify(b)).toBe('interference');
      }
    });

    it(`face to face, edge to edge, corner to corner, and face on a larger face: contact (${how})`, async () => {
      for (const b of [[10, 0, 0, 20, 10, 10], [10, 10, 0, 20, 20, 10], [10, 10, 10, 20, 20, 20], [-5, -5, 10, 15, 15, 12], [2, 2, 10, 8, 8, 20]] as Box[]) {
        const r = await pairOf(CUBE, b, manifold);
        expect(r?.kind, JSON.stringify(b)).toBe('contact');
      }
    });
  }
});
