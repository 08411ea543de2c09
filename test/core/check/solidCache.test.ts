// Interference volumes from solids kept between checks (src-core/check/volume.ts SolidCache): a
// body is converted for manifold-3d once, the parts that place it share it, a moved part only
// places it anew, and the volumes are those of fresh solids.
import { describe, expect, it } from 'vitest';
import type { ManifoldToplevel } from 'manifold-3d';
import { createMesh, type TriangleMesh } from '../../../src-core/geometry/mesh';
import { buildObbTree } from '../../../src-core/obbtree/build';
import { runCheck } from '../../../src-core/check/check';
import { SolidCache } from '../../../src-core/check/volume';
import type { CheckPart, CheckResult } from '../../../src-core/check/types';
import { loadManifold } from '../../../src-main/services/manifoldNode';
import { overlapSolid } from '../../../src-main/services/checkRunner';

/** A closed box [0,w]×[0,h]×[0,d] far from the origin (its float32 solid must stay exact). */
function box(w: number, h: number, d: number, at = 5000): TriangleMesh {
  const x0 = at, y0 = at, z0 = at, x1 = at + w, y1 = at + h, z1 = at + d;
  return createMesh(
    Float64Array.of(x0, y0, z0, x1, y0, z0, x1, y1, z0, x0, y1, z0, x0, y0, z1, x1, y0, z1, x1, y1, z1, x0, y1, z1),
    Uint32Array.of(0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 3, 7, 6, 3, 6, 2, 0, 4, 7, 0, 7, 3, 1, 2, 6, 1, 6, 5),
  );
}

const cube = box(10, 10, 10);
const slab = box(30, 30, 2);
const trees = new Map([[cube, buildObbTree(cube)], [slab, buildObbTree(slab)]]);

/** A part placing `mesh`, turned 90° about z (about the box's corner) and shifted by (dx, dy, dz). */
function part(id: string, mesh: TriangleMesh, dx: number, dy: number, dz: number, turned = false): CheckPart {
  // x' = R (x − c) + c + d with c = (5000, 5000, 5000): R = Rz(90°) when turned.
  const c = 5000;
  const transform = turned
    ? [0, -1, 0, c + c + dx, 1, 0, 0, c - c + dy, 0, 0, 1, dz]
    : [1, 0, 0, dx, 0, 1, 0, dy, 0, 0, 1, dz];
  return { id, name: id, mesh, tree: trees.get(mesh)!, transform, chordErrorMm: null };
}

const settings = { touchToleranceMm: 0.01, clearanceMm: 0, contactIsInterference: false };

async function check(parts: CheckPart[], cache?: SolidCache): Promise<CheckResult> {
  return runCheck({ parts, settings, ignore: [] }, { manifold: loadManifold, ...(cache ? { solids: (w: ManifoldToplevel) => (expect(w).toBe(cache.wasm), cache) } : {}) });
}

const volumes = (r: CheckResult): Record<string, number | null> =>
  Object.fromEntries(r.results.map((x) => [`${x.a}|${x.b}`, x.volumeMm3 === null ? null : Math.round(x.volumeMm3 * 1e6) / 1e6]));

describe('solids kept between checks', () => {
  it('gives the volumes of fresh solids, converting each body once across checks and moves', async () => {
    const wasm = await loadManifold();
    const cache = new SolidCache(wasm);
    // Two cubes (one body) reaching 1 and 1.5 mm into the 2 mm slab from below, the second turned.
    const first = [part('slab', slab, 0, 0, 0), part('c1', cube, 2, 2, -9), part('c2', cube, 30, 2, -8.5, true)];
    const fresh = await check(first);
    const kept = await check(first, cache);
    expect(volumes(kept)).toEqual(volumes(fresh));
    expect(volumes(kept)).toEqual({ 'slab|c1': 100, 'slab|c2': 150 });
    expect(cache.built).toBe(2); // the slab, and the cube for both cubes

    // c1 moves up 0.5 mm: no body is converted again, and its volume follows.
    const moved = [first[0], part('c1', cube, 2, 2, -8.5), first[2]];
    const again = await check(moved, cache);
    expect(cache.built).toBe(2);
    expect(volumes(again)).toEqual(volumes(await check(moved)));
    expect(volumes(again)['slab|c1']).toBe(150);

    // An overlap query of the same document reuses them too, and matches the check's volume.
    const solid = await overlapSolid(slab, Float64Array.from(first[0].transform), cube, Float64Array.from(moved[1].transform), () => cache);
    expect(cache.built).toBe(2);
    expect(solid?.volumeMm3).toBeCloseTo(150, 6);

    // Dropping bodies the document no longer has frees their solids; a later use converts again.
    cache.retain(new Set([slab]));
    await check(moved, cache);
    expect(cache.built).toBe(3);
    cache.dispose();
  });
});

describe('a closed body is converted without merge()', () => {
  it('gives the solid merge() would: same status, counts, volume and surface area, for closed and open meshes', async () => {
    const wasm = await loadManifold();
    // The box, a box with a slit opened (two vertices doubled, as STL welding may leave), and the
    // box with a triangle repeating a vertex (degenerate).
    const open = box(10, 10, 10);
    const pos = Float64Array.from([...open.positions, ...open.positions.slice(0, 3)]);
    const slit = createMesh(pos, Uint32Array.from(open.indices, (v, i) => (v === 0 && i < 6 ? 8 : v)));
    const repeat = createMesh(Float64Array.from(open.positions), Uint32Array.from([...open.indices, 1, 1, 2]));
    for (const mesh of [cube, slab, slit, repeat]) {
      const cache = new SolidCache(wasm);
      const kept = cache.of(mesh);
      const m = new wasm.Mesh({ numProp: 3, vertProperties: Float32Array.from(mesh.positions, (x, i) => x - kept.centre[i % 3]!), triVerts: new Uint32Array(mesh.indices) });
      m.merge();
      const merged = new wasm.Manifold(m);
      try {
        expect(kept.manifold?.status() ?? 'not a solid').toBe(merged.status() === 'NoError' ? 'NoError' : 'not a solid');
        if (kept.manifold) {
          expect(kept.manifold.numTri()).toBe(merged.numTri());
          expect(kept.manifold.numVert()).toBe(merged.numVert());
          expect(kept.manifold.volume()).toBe(merged.volume());
          expect(kept.manifold.surfaceArea()).toBe(merged.surfaceArea());
        }
      } finally {
        merged.delete();
        cache.dispose();
      }
    }
  });
});
