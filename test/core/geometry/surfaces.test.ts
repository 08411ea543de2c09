/**
 * Recovering a face's exact surface from its tessellation (src-core/geometry/surfaces.ts): planes,
 * cylinders and spheres at random sizes and poses are found with their exact parameters and the
 * side the solid lies on; cones, tori and rims alone (which lie on many surfaces) are not taken for
 * a sphere or a cylinder.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  fitFaceSurfaces, SURFACE_CYLINDER, SURFACE_NONE, SURFACE_PLANE, SURFACE_SPHERE, SURFACE_STRIDE,
} from '../../../src-core/geometry/surfaces';

type V3 = [number, number, number];

/** A random rotation (from a unit quaternion) and translation. */
const poses = fc.record({
  q: fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
    .filter(([a, b, c, d]) => Math.hypot(a, b, c, d) > 0.1),
  t: fc.tuple(fc.double({ min: -500, max: 500, noNaN: true }), fc.double({ min: -500, max: 500, noNaN: true }), fc.double({ min: -500, max: 500, noNaN: true })),
});
type Pose = { q: [number, number, number, number]; t: V3 };

function rotate(p: Pose, v: V3): V3 {
  const l = Math.hypot(...p.q);
  const [w, x, y, z] = p.q.map((c) => c / l);
  return [
    (1 - 2 * (y * y + z * z)) * v[0] + 2 * (x * y - w * z) * v[1] + 2 * (x * z + w * y) * v[2],
    2 * (x * y + w * z) * v[0] + (1 - 2 * (x * x + z * z)) * v[1] + 2 * (y * z - w * x) * v[2],
    2 * (x * z - w * y) * v[0] + 2 * (y * z + w * x) * v[1] + (1 - 2 * (x * x + y * y)) * v[2],
  ];
}
const place = (p: Pose, v: V3): V3 => { const r = rotate(p, v); return [r[0] + p.t[0], r[1] + p.t[1], r[2] + p.t[2]]; };

/**
 * A surface of revolution about z, meshed on a grid: rings at heights zs with radii rs, n segments;
 * triangles wound outward when `outward` (normals away from the axis).
 */
function revolution(zs: readonly number[], rs: readonly number[], n: number, outward: boolean, pose: Pose): { positions: number[]; indices: number[] } {
  const positions: number[] = [], indices: number[] = [];
  for (let j = 0; j < zs.length; j++) {
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n;
      positions.push(...place(pose, [rs[j] * Math.cos(a), rs[j] * Math.sin(a), zs[j]]));
    }
  }
  for (let j = 0; j + 1 < zs.length; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * n + i, b = j * n + (i + 1) % n, c = (j + 1) * n + (i + 1) % n, d = (j + 1) * n + i;
      if (outward) indices.push(a, b, c, a, c, d);
      else indices.push(a, c, b, a, d, c);
    }
  }
  return { positions, indices };
}

function fitOne(mesh: { positions: number[]; indices: number[] }): Float64Array {
  const s = fitFaceSurfaces(mesh.positions, mesh.indices, [0, mesh.indices.length / 3 - 1]);
  return s.records.slice(0, SURFACE_STRIDE);
}

describe('surfaces recovered from a face\'s vertices', () => {
  it('cylinders: axis, radius, side and extent, meshed rim to rim or in rings (seed 7)', () => {
    fc.assert(fc.property(
      poses, fc.double({ min: 0.5, max: 200, noNaN: true }), fc.double({ min: 0.5, max: 300, noNaN: true }),
      fc.integer({ min: 8, max: 96 }), fc.integer({ min: 2, max: 5 }), fc.boolean(),
      (pose, r, h, n, rings, outward) => {
        const zs = Array.from({ length: rings }, (_, j) => (h * j) / (rings - 1));
        const rec = fitOne(revolution(zs, zs.map(() => r), n, outward, pose as Pose));
        expect(rec[0]).toBe(SURFACE_CYLINDER);
        expect(rec[7]).toBeCloseTo(outward ? r : -r, 6);
        const axis = rotate(pose as Pose, [0, 0, 1]);
        expect(Math.abs(rec[4] * axis[0] + rec[5] * axis[1] + rec[6] * axis[2])).toBeCloseTo(1, 9);
        expect(rec[9] - rec[8]).toBeCloseTo(h, 5);
        // The axis point lies on the true axis.
        const p: V3 = [rec[1] - pose.t[0], rec[2] - pose.t[1], rec[3] - pose.t[2]];
        const along = p[0] * axis[0] + p[1] * axis[1] + p[2] * axis[2];
        expect(Math.hypot(p[0] - along * axis[0], p[1] - along * axis[1], p[2] - along * axis[2])).toBeLessThan(1e-6);
      },
    ), { numRuns: 200, seed: 7 });
  });

  it('spheres with vertices inside the face: centre, radius and side (seed 8)', () => {
    fc.assert(fc.property(
      poses, fc.double({ min: 0.5, max: 200, noNaN: true }), fc.integer({ min: 8, max: 64 }), fc.integer({ min: 4, max: 16 }), fc.boolean(),
      (pose, r, n, m, outward) => {
        // A zone from 10° to 170° of latitude.
        const th = Array.from({ length: m + 1 }, (_, j) => (Math.PI / 18) * (1 + (16 * j) / m));
        const rec = fitOne(revolution(th.map((t) => r * Math.cos(t)), th.map((t) => r * Math.sin(t)), n, !outward, pose as Pose));
        // (cos decreasing with j flips the winding: wound as the opposite of `outward` above.)
        expect(rec[0]).toBe(SURFACE_SPHERE);
        expect(rec[7]).toBeCloseTo(outward ? r : -r, 6);
        expect(Math.hypot(rec[1] - pose.t[0], rec[2] - pose.t[1], rec[3] - pose.t[2])).toBeLessThan(1e-6 * (1 + r));
      },
    ), { numRuns: 200, seed: 8 });
  });

  it('planes: the outward normal and offset', () => {
    const pose: Pose = { q: [0.3, 0.1, -0.7, 0.2], t: [10, -20, 30] };
    const positions = [[0, 0, 0], [5, 0, 0], [5, 3, 0], [0, 3, 0]].flatMap((v) => place(pose, v as V3));
    const rec = fitOne({ positions, indices: [0, 1, 2, 0, 2, 3] });
    expect(rec[0]).toBe(SURFACE_PLANE);
    const n = rotate(pose, [0, 0, 1]);
    expect(rec[1] * n[0] + rec[2] * n[1] + rec[3] * n[2]).toBeCloseTo(1, 12);
    expect(rec[4]).toBeCloseTo(n[0] * 10 - n[1] * 20 + n[2] * 30, 9);
  });

  it('a cone meshed rim to rim (a chamfer) is no sphere and no cylinder; a torus is none either', () => {
    const pose: Pose = { q: [1, 0, 0, 0], t: [0, 0, 0] };
    const cone = fitOne(revolution([0, 0.5], [12.5, 13], 64, false, pose));
    expect(cone[0]).toBe(SURFACE_NONE);
    const th = Array.from({ length: 9 }, (_, j) => (Math.PI * j) / 8 - Math.PI / 2);
    const torus = fitOne(revolution(th.map((t) => 2 * Math.sin(t)), th.map((t) => 10 + 2 * Math.cos(t)), 48, true, pose));
    expect(torus[0]).toBe(SURFACE_NONE);
  });

  it('vertices off the surface by more than the fit tolerance leave the face without a surface', () => {
    const pose: Pose = { q: [1, 0, 0, 0], t: [0, 0, 0] };
    const mesh = revolution([0, 5, 10], [6, 6, 6], 32, true, pose);
    mesh.positions[3 * 32] += 0.001; // one vertex of the middle ring (at angle 0: x is radial), 1 µm out
    expect(fitOne(mesh)[0]).toBe(SURFACE_NONE);
  });
});
