/**
 * Every strategy against brute force on real meshes from test/data: robot collision hulls,
 * the gear wheel, polytopes with exact coordinates — at random rigid placements near contact and
 * at the exact face-on-face placement of the gear on its block.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collide, collideBruteForce, createMesh, STRATEGIES, type TriangleMesh } from '../../../src-core/index';
import { parseStl } from '../../../src-core/io/stl';

const DATA = path.resolve(process.cwd(), 'test/data');

function load(rel: string, units: 'mm' | 'm' | 'cm' = 'mm'): TriangleMesh {
  const body = parseStl(new Uint8Array(readFileSync(path.join(DATA, rel))), rel, { units }).bodies[0];
  return createMesh(body.positions, body.indices);
}

function sorted(p: Uint32Array): string[] {
  const out: string[] = [];
  for (let i = 0; i < p.length; i += 2) out.push(`${p[i]} ${p[i + 1]}`);
  return out.sort();
}

/** Centre and half size of a mesh's bounds. */
function bounds(m: TriangleMesh): { centre: number[]; half: number[] } {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < m.vertexCount; v++) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], m.positions[3 * v + k]); hi[k] = Math.max(hi[k], m.positions[3 * v + k]); }
  return { centre: lo.map((l, k) => (l + hi[k]) / 2), half: lo.map((l, k) => (hi[k] - l) / 2) };
}

function pose(q: number[], t: number[]): number[] {
  const n = Math.hypot(...q);
  const [w, x, y, z] = q.map((v) => v / n);
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), t[0],
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), t[1],
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y), t[2],
    0, 0, 0, 1,
  ];
}

const PAIRS: [string, string, string, 'mm' | 'm' | 'cm'][] = [
  ['FANUC link 2 against link 3', 'robot-fanuc-m10ia/meshes/collision/link_2.stl', 'robot-fanuc-m10ia/meshes/collision/link_3.stl', 'm'],
  ['the gear wheel against a 20 mm cube', 'stl-models/objects/gearwheel.bin.stl', 'stl-models/polytopes/cube.bin.stl', 'cm'],
];

describe('strategies against brute force on the shared STL meshes', () => {
  for (const [title, fa, fb, units] of PAIRS) {
    it(`${title}, random placements around A's centre (seed 20261136)`, () => {
      const a = load(fa, units === 'cm' ? 'mm' : units), b = load(fb, units);
      const trees = STRATEGIES.filter((s) => s.name !== 'obb-hull').map((s) => ({ name: s.name, a: s.build(a), b: s.build(b) }));
      const ba = bounds(a), cb = bounds(b).centre, ca = ba.centre;
      let hits = 0;
      fc.assert(
        fc.property(
          fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 4, maxLength: 4 }).filter((q) => Math.hypot(...q) > 0.2),
          fc.array(fc.double({ min: -0.4, max: 0.4, noNaN: true }), { minLength: 3, maxLength: 3 }),
          (q, d) => {
            // B's centre near A's centre (offsets up to 40 % of A's half size along each axis).
            const r = pose(q, [0, 0, 0]);
            const rc = [r[0] * cb[0] + r[1] * cb[1] + r[2] * cb[2], r[4] * cb[0] + r[5] * cb[1] + r[6] * cb[2], r[8] * cb[0] + r[9] * cb[1] + r[10] * cb[2]];
            const t = [0, 1, 2].map((k) => ca[k] - rc[k] + d[k] * ba.half[k]);
            const m = pose(q, t);
            const want = sorted(collideBruteForce(a, b, m));
            if (want.length > 0) hits++;
            for (const tr of trees) expect(sorted(collide(tr.a, tr.b, m, 'all').pairs), tr.name).toEqual(want);
          },
        ),
        { seed: 20261136, numRuns: 12 },
      );
      expect(hits).toBeGreaterThan(0);
    }, 120_000);
  }

  it('the gear resting face-on-face on the large cube: every coplanar touching pair, no more', () => {
    // As in the shared stl-gear-polytopes assembly: the cube's top face in the plane of the gear's bottom.
    const gear = load('stl-models/objects/gearwheel.bin.stl');
    const cube = load('stl-models/polytopes/cubeLarge.ascii.stl');
    const m = [1, 0, 0, -50, 0, 1, 0, -50, 0, 0, 1, -100, 0, 0, 0, 1];
    const want = sorted(collideBruteForce(gear, cube, m));
    expect(want.length).toBe(1822);
    for (const s of STRATEGIES.filter((x) => x.name !== 'obb-hull')) {
      expect(sorted(collide(s.build(gear), s.build(cube), m, 'all').pairs), s.name).toEqual(want);
    }
  }, 120_000);
});
