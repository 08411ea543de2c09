import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildObbTree, createMesh, parseRigid } from '../../../src-core/index';
import { castRay, minDistance, pointInMesh, pointMeshDistance, RAY } from '../../../src-core/collide/proximity';
import { pointTriangleDistance2, triangleDistance2 } from '../../../src-core/geometry/triDistance';
import { triTriIntersect } from '../../../src-core/geometry/triTri';

/** UV sphere of radius r centred at c, outward triangles. */
function sphere(r: number, cx: number, cy: number, cz: number, seg = 24, rings = 12): ReturnType<typeof createMesh> {
  const pos: number[] = [];
  const idx: number[] = [];
  for (let i = 0; i <= rings; i++) {
    const th = (Math.PI * i) / rings;
    for (let j = 0; j < seg; j++) {
      const ph = (2 * Math.PI * j) / seg;
      pos.push(cx + r * Math.sin(th) * Math.cos(ph), cy + r * Math.sin(th) * Math.sin(ph), cz + r * Math.cos(th));
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

/** Brute-force distance between two meshes (B placed by a pure translation t). */
function bruteDistance(a: ReturnType<typeof createMesh>, b: ReturnType<typeof createMesh>, t: number[]): number {
  const ta = new Float64Array(9), tb = new Float64Array(9);
  let best = Infinity;
  for (let i = 0; i < a.triangleCount; i++) {
    for (let k = 0; k < 9; k++) ta[k] = a.positions[3 * a.indices[3 * i + Math.floor(k / 3)] + (k % 3)];
    for (let j = 0; j < b.triangleCount; j++) {
      for (let k = 0; k < 9; k++) tb[k] = b.positions[3 * b.indices[3 * j + Math.floor(k / 3)] + (k % 3)] + t[k % 3];
      if (triTriIntersect(ta, 0, 3, 6, tb, 0, 3, 6)) return 0;
      best = Math.min(best, Math.sqrt(triangleDistance2(ta, 0, tb, 0)));
    }
  }
  return best;
}

describe('distances', () => {
  it('point–triangle distance matches sampling of the triangle (seed 20261131)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 12, maxLength: 12 }), (v) => {
        const d = Math.sqrt(pointTriangleDistance2(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11]));
        let sampled = Infinity;
        for (let i = 0; i <= 40; i++) {
          for (let j = 0; i + j <= 40; j++) {
            const u = i / 40, w = j / 40, s = 1 - u - w;
            const x = s * v[3] + u * v[6] + w * v[9], y = s * v[4] + u * v[7] + w * v[10], z = s * v[5] + u * v[8] + w * v[11];
            sampled = Math.min(sampled, Math.hypot(x - v[0], y - v[1], z - v[2]));
          }
        }
        expect(d).toBeLessThanOrEqual(sampled + 1e-9);
        expect(d).toBeGreaterThan(sampled - 0.5);
      }),
      { seed: 20261131, numRuns: 300 },
    );
  });

  it('tree minimum distance equals brute force for spheres at random offsets (seed 20261132)', () => {
    const a = sphere(5, 0, 0, 0, 12, 6);
    const b = sphere(3, 0, 0, 0, 10, 5);
    const ta = buildObbTree(a), tb = buildObbTree(b);
    fc.assert(
      fc.property(fc.double({ min: 6, max: 14, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true }), (x, y, z) => {
        const t = [x, y, z];
        const exact = bruteDistance(a, b, t);
        const r = minDistance(ta, tb, parseRigid([1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z]));
        expect(r).not.toBeNull();
        expect(r!.distance).toBeCloseTo(exact, 9);
        expect(Math.hypot(r!.pointA[0] - r!.pointB[0], r!.pointA[1] - r!.pointB[1], r!.pointA[2] - r!.pointB[2])).toBeCloseTo(exact, 9);
      }),
      { seed: 20261132, numRuns: 40 },
    );
  });

  it('minDistance returns null beyond the limit', () => {
    const a = sphere(1, 0, 0, 0), b = sphere(1, 0, 0, 0);
    expect(minDistance(buildObbTree(a), buildObbTree(b), parseRigid([1, 0, 0, 5, 0, 1, 0, 0, 0, 0, 1, 0]), 1)).toBeNull();
  });

  it('point–mesh distance matches brute force (seed 20261133)', () => {
    const m = sphere(4, 1, 2, 3);
    const t = buildObbTree(m);
    fc.assert(
      fc.property(fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 3, maxLength: 3 }), ([x, y, z]) => {
        let brute = Infinity;
        for (let i = 0; i < m.triangleCount; i++) {
          const P = m.positions, I = m.indices;
          const a = 3 * I[3 * i], b = 3 * I[3 * i + 1], c = 3 * I[3 * i + 2];
          brute = Math.min(brute, Math.sqrt(pointTriangleDistance2(x, y, z, P[a], P[a + 1], P[a + 2], P[b], P[b + 1], P[b + 2], P[c], P[c + 1], P[c + 2])));
        }
        expect(pointMeshDistance(t, x, y, z)).toBeCloseTo(brute, 10);
      }),
      { seed: 20261133, numRuns: 200 },
    );
  });
});

describe('inside tests and rays', () => {
  it('pointInMesh agrees with the distance to the sphere centre away from the surface (seed 20261134)', () => {
    const m = sphere(4, 0, 0, 0, 32, 16);
    const t = buildObbTree(m);
    fc.assert(
      fc.property(fc.array(fc.double({ min: -6, max: 6, noNaN: true }), { minLength: 3, maxLength: 3 }), ([x, y, z]) => {
        const r = Math.hypot(x, y, z);
        fc.pre(Math.abs(r - 4) > 0.2);
        expect(pointInMesh(t, x, y, z)).toBe(r < 4);
      }),
      { seed: 20261134, numRuns: 300 },
    );
  });

  it('pointInMesh is the majority of three non-degenerate rays, casting the third only when two differ (a sphere with holes, seed 20261205)', () => {
    // The fixed directions of pointInMesh, in its order.
    const dirs = [
      [0.5773502691896258, 0.5773502691896258, 0.5773502691896258],
      [-0.2672612419124244, 0.5345224838248488, 0.8017837257372732],
      [0.8164965809277261, -0.4082482904638631, 0.4082482904638631],
      [-0.6246950475544243, -0.7808688094430304, 0.0],
      [0.3015113445777636, -0.3015113445777636, -0.9045340337332909],
      [-0.8703882797784892, 0.0, -0.4923659639173309],
      [0.1601281538050871, 0.9607689228305228, -0.2264780787186006],
    ];
    const whole = sphere(4, 0, 0, 0, 16, 8);
    // Every 7th triangle left out: rays through the holes disagree with the others.
    const kept: number[] = [];
    for (let t = 0; t < whole.triangleCount; t++) if (t % 7 !== 3) kept.push(whole.indices[3 * t], whole.indices[3 * t + 1], whole.indices[3 * t + 2]);
    const tree = buildObbTree(createMesh(whole.positions, Uint32Array.from(kept)));
    const majority = (x: number, y: number, z: number): { inside: boolean; split: boolean } => {
      const votes: boolean[] = [];
      for (const [dx, dy, dz] of dirs) {
        if (votes.length === 3) break;
        castRay(tree, x, y, z, dx!, dy!, dz!);
        if (!RAY.degenerate) votes.push(RAY.crossings % 2 === 1);
      }
      const yes = votes.filter(Boolean).length;
      return { inside: yes >= 2 || (votes.length < 3 && yes >= 1 && yes * 2 >= votes.length), split: votes.length >= 2 && votes[0] !== votes[1] };
    };
    let split = 0;
    fc.assert(
      fc.property(fc.array(fc.double({ min: -6, max: 6, noNaN: true }), { minLength: 3, maxLength: 3 }), ([x, y, z]) => {
        const want = majority(x!, y!, z!);
        if (want.split) split++;
        expect(pointInMesh(tree, x!, y!, z!)).toBe(want.inside);
      }),
      { seed: 20261205, numRuns: 400 },
    );
    // The sample exercises the third ray.
    expect(split).toBeGreaterThan(10);
  });

  it('castRay finds the first hit and counts crossings', () => {
    const m = sphere(2, 0, 0, 0, 32, 16);
    const t = buildObbTree(m);
    castRay(t, -10, 0.01, 0.02, 1, 0, 0);
    expect(RAY.crossings).toBe(2);
    expect(RAY.t).toBeGreaterThan(7.9);
    expect(RAY.t).toBeLessThan(8.1);
    castRay(t, 0, 0.01, 0.02, 1, 0, 0, 0, 1);
    expect(RAY.crossings).toBe(0);
  });
});
