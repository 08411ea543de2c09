// The kernel's point and ray probes (as/probe.ts) against the TypeScript ones in proximity.ts:
// the same ray hits (t, triangle, crossings, grazing), the same distances and closest points and
// the same inside answers, bit for bit, on every mesh family of the property tests (with their
// degenerate extras), from points on, near and away from the surfaces, along rays through
// vertices, along edges and in the faces' planes; for trees built in the kernel's memory and
// trees in ordinary buffers (copied in on their first probe).
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createMesh } from '../../../src-core/geometry/mesh.js';
import { buildObbTree } from '../../../src-core/obbtree/build.js';
import type { ObbTree } from '../../../src-core/obbtree/layout.js';
import { setQueryKernel } from '../../../src-core/collide/collide.js';
import { castRay, pointInMesh, pointMeshDistance, RAY } from '../../../src-core/collide/proximity.js';
import { limitKernelMemory, releaseTree } from '../../../src-core/kernel/kernel.js';
import { MESH_PAIR_ARBS, boxMesh, mapPositions, uvSphereMesh } from '../../support/meshArbitraries.js';
import type { MeshData } from '../../support/meshArbitraries.js';
import { copiedTree } from '../../support/trees.js';

const tree = (d: MeshData, leafSize?: number): ObbTree => buildObbTree(createMesh(d.positions, d.indices), leafSize ? { leafSize } : {});
const copied = copiedTree;

function withKernel<T>(kernel: 'wasm' | 'ts', f: () => T): T {
  setQueryKernel(kernel);
  try {
    return f();
  } finally {
    setQueryKernel('wasm');
  }
}

interface Probe {
  ray: { t: number; triangle: number; crossings: number; degenerate: boolean }[];
  distance: number[];
  closest: number[];
  inside: boolean[];
}

/** Every probe from the points along the directions, on one kernel. */
function probeAll(t: ObbTree, points: readonly number[], dirs: readonly number[], kernel: 'wasm' | 'ts'): Probe {
  return withKernel(kernel, () => {
    const out: Probe = { ray: [], distance: [], closest: [], inside: [] };
    const c = new Float64Array(3);
    for (let p = 0; p < points.length; p += 3) {
      const [x, y, z] = [points[p]!, points[p + 1]!, points[p + 2]!];
      for (let d = 0; d < dirs.length; d += 3) {
        const [dx, dy, dz] = [dirs[d]!, dirs[d + 1]!, dirs[d + 2]!];
        castRay(t, x, y, z, dx, dy, dz);
        out.ray.push({ ...RAY });
        // A bounded ray from a small tMin, skipping the triangle the unbounded one hit first.
        castRay(t, x, y, z, dx, dy, dz, 1e-9, Number.isFinite(RAY.t) ? 2 * RAY.t : 10, RAY.triangle);
        out.ray.push({ ...RAY });
      }
      c.fill(NaN);
      out.distance.push(pointMeshDistance(t, x, y, z, Infinity, c));
      out.closest.push(...c);
      c.fill(NaN);
      out.distance.push(pointMeshDistance(t, x, y, z, 0.05, c));
      out.closest.push(...c);
      out.inside.push(pointInMesh(t, x, y, z));
    }
    return out;
  });
}

/** Bitwise comparison (Object.is: NaN equals NaN, 0 differs from −0). */
function expectIdentical(w: Probe, s: Probe): void {
  expect(w.ray.length).toBe(s.ray.length);
  for (let k = 0; k < w.ray.length; k++) {
    const a = w.ray[k]!, b = s.ray[k]!;
    if (!Object.is(a.t, b.t) || a.triangle !== b.triangle || a.crossings !== b.crossings || a.degenerate !== b.degenerate) {
      expect({ k, ...a }).toEqual({ k, ...b });
    }
  }
  for (let k = 0; k < w.distance.length; k++) if (!Object.is(w.distance[k], s.distance[k])) expect({ k, d: w.distance[k] }).toEqual({ k, d: s.distance[k] });
  for (let k = 0; k < w.closest.length; k++) if (!Object.is(w.closest[k], s.closest[k])) expect({ k, c: w.closest[k] }).toEqual({ k, c: s.closest[k] });
  expect(w.inside).toEqual(s.inside);
}

/** Query points for mesh a: its vertices, edge midpoints, the other mesh's vertices (placed), and jittered copies. */
function pointsFor(a: MeshData, b: MeshData, pose: Float64Array): number[] {
  const pts: number[] = [];
  const A = a.positions, I = a.indices;
  for (let v = 0; v < Math.min(A.length, 60); v++) pts.push(A[v]!);
  for (let t = 0; t < Math.min(I.length, 30); t += 3) {
    const p = 3 * I[t]!, q = 3 * I[t + 1]!;
    pts.push(0.5 * (A[p]! + A[q]!), 0.5 * (A[p + 1]! + A[q + 1]!), 0.5 * (A[p + 2]! + A[q + 2]!));
  }
  const B = mapPositions(b.positions, pose);
  for (let v = 0; v < Math.min(B.length, 60); v++) pts.push(B[v]!);
  const n = pts.length;
  for (let k = 0; k < n; k += 3) pts.push(pts[k]! + 1e-7, pts[k + 1]! - 3e-8, pts[k + 2]! + 0.013);
  return pts;
}

/** Directions: oblique, axis-aligned (in the planes of axis-aligned faces), and towards a's vertices. */
function dirsFor(a: MeshData, from: readonly number[]): number[] {
  const dirs = [0.6, -0.48, 0.64, 1, 0, 0, 0, 0, -1, 0, 1, 0];
  const A = a.positions;
  if (A.length >= 6 && from.length >= 3) {
    for (let v = 0; v < 6; v += 3) {
      const dx = A[v]! - from[0]!, dy = A[v + 1]! - from[1]!, dz = A[v + 2]! - from[2]!;
      if (dx !== 0 || dy !== 0 || dz !== 0) dirs.push(dx, dy, dz);
    }
  }
  return dirs;
}

afterEach(() => {
  setQueryKernel('wasm');
  limitKernelMemory(null);
});

describe('kernel point and ray probes', () => {
  for (const [family, arb] of Object.entries(MESH_PAIR_ARBS)) {
    it(`match the TypeScript probes bit for bit: ${family}`, () => {
      fc.assert(
        fc.property(arb, fc.constantFrom(1, 4), (pair, leafSize) => {
          const t = tree(pair.a, leafSize);
          const pts = pointsFor(pair.a, pair.b, pair.pose);
          const dirs = dirsFor(pair.a, pts.slice(-3));
          const s = probeAll(t, pts, dirs, 'ts');
          expectIdentical(probeAll(t, pts, dirs, 'wasm'), s);
          expectIdentical(probeAll(copied(t), pts, dirs, 'wasm'), s);
          releaseTree(t);
        }),
        { numRuns: 40 },
      );
    });
  }

  it('answer inside and outside a closed box and sphere as the TypeScript probes, with the true answers', () => {
    const box = tree(boxMesh([0, 0, 0], [2, 2, 2], 3));
    const sphere = tree(uvSphereMesh(1, 24, 12));
    const grid: number[] = [];
    for (let x = -0.5; x <= 2.5; x += 0.25) for (let y = -0.5; y <= 2.5; y += 0.5) for (let z = -0.5; z <= 2.5; z += 0.5) grid.push(x, y, z);
    for (const t of [box, sphere]) {
      const dirs = [0.36, 0.48, 0.8, 1, 0, 0];
      expectIdentical(probeAll(t, grid, dirs, 'wasm'), probeAll(t, grid, dirs, 'ts'));
    }
    const inBox = (x: number, y: number, z: number): boolean => withKernel('wasm', () => pointInMesh(box, x, y, z));
    expect(inBox(1, 1, 1)).toBe(true);
    expect(inBox(0.3, 1.7, 0.9)).toBe(true);
    expect(inBox(3, 1, 1)).toBe(false);
    expect(inBox(-0.1, 1, 1)).toBe(false);
    // The distance from the centre to the box is 1, with a closest point on a face.
    const c = new Float64Array(3);
    expect(withKernel('wasm', () => pointMeshDistance(box, 1, 1, 1, Infinity, c))).toBe(1);
    expect(Math.min(...Array.from(c, (v) => Math.min(Math.abs(v), Math.abs(v - 2))))).toBe(0);
    // Beyond maxDistance: Infinity, and the closest point untouched.
    c.fill(7);
    expect(withKernel('wasm', () => pointMeshDistance(box, 1, 1, 1, 0.5, c))).toBe(Infinity);
    expect(Array.from(c)).toEqual([7, 7, 7]);
    // A ray from the centre along +x leaves through x = 2.
    withKernel('wasm', () => castRay(box, 1, 1, 1.1, 1, 0, 0));
    expect(RAY.t).toBeCloseTo(1, 12);
    expect(RAY.crossings).toBe(1);
  });

  it('probe two trees in turn, and fall back to TypeScript when the kernel memory is full', () => {
    const a = tree(boxMesh([0, 0, 0], [1, 1, 1], 4));
    const b = tree(uvSphereMesh(2, 16, 8));
    const pts = [0.5, 0.5, 0.5, 0.2, 0.9, 0.1, 3, 0, 0];
    const dirs = [0.6, -0.48, 0.64];
    const sa = probeAll(a, pts, dirs, 'ts'), sb = probeAll(b, pts, dirs, 'ts');
    for (let k = 0; k < 3; k++) {
      expectIdentical(probeAll(a, pts, dirs, 'wasm'), sa);
      expectIdentical(probeAll(b, pts, dirs, 'wasm'), sb);
    }
    // A tree in ordinary buffers that cannot be copied in: the TypeScript probes answer.
    limitKernelMemory(0);
    const big = copied(tree(uvSphereMesh(3, 400, 200)));
    const bigPts = [0, 0, 0, 1, 2, 0.5];
    expectIdentical(probeAll(big, bigPts, dirs, 'wasm'), probeAll(big, bigPts, dirs, 'ts'));
  });

  it('refuse a released tree', () => {
    const t = tree(boxMesh([0, 0, 0], [1, 1, 1]));
    releaseTree(t);
    expect(() => pointInMesh(t, 0.5, 0.5, 0.5)).toThrow();
    expect(() => castRay(t, 0.5, 0.5, 0.5, 1, 0, 0)).toThrow();
    expect(() => pointMeshDistance(t, 0.5, 0.5, 0.5)).toThrow();
  });
});
