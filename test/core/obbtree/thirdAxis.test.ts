/**
 * An OBB stores two axes; readers form the third as their cross product (layout.ts's obbAxes),
 * and the builders size the third half extent for that axis (build.ts's writeObb). These tests
 * hold the boxes to containment in exact arithmetic: every vertex p of a node satisfies
 * |(p − c) · a_k| ≤ h_k for the three axes as the readers form them, with no rounding anywhere.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { createMesh } from '../../../src-core/geometry/mesh.js';
import { orthonormalFrame } from '../../../src-core/geometry/eigen.js';
import { frameFromPoints } from '../../../src-core/geometry/obbFit.js';
import { buildObbTree, setBuildKernel, writeObb } from '../../../src-core/obbtree/build.js';
import { OBB_STRIDE, obbAxes, type ObbTree } from '../../../src-core/obbtree/layout.js';
import { generatedMesh } from '../../../bench/generate';
import { toScaledIntegers } from '../../support/exact.js';

const U = 2 ** -53;

/** Is |(p − c) · a| ≤ h, exactly? A float evaluation with a rigorous error bound first, BigInts when it cannot tell. */
function insideSlab(px: number, py: number, pz: number, B: Float64Array, o: number, axes: Float64Array, k: number): boolean {
  const h = B[o + 3 + k]!;
  const ax = axes[3 * k]!, ay = axes[3 * k + 1]!, az = axes[3 * k + 2]!;
  const dx = px - B[o]!, dy = py - B[o + 1]!, dz = pz - B[o + 2]!;
  const v = Math.abs(dx * ax + dy * ay + dz * az);
  // Each term carries at most two roundings and the sum two more: |error| ≤ γ4 · Σ|d_k||a_k|, with slack.
  const bound = 8 * U * (Math.abs(dx * ax) + Math.abs(dy * ay) + Math.abs(dz * az)) * (1 + 1e-10) + 1e-320;
  if (v + bound < h) return true;
  if (v - bound > h) return false;
  const { ints: pc, exp: e1 } = toScaledIntegers([px, py, pz, B[o]!, B[o + 1]!, B[o + 2]!]);
  const { ints: a, exp: e2 } = toScaledIntegers([ax, ay, az]);
  let s = (pc[0]! - pc[3]!) * a[0]! + (pc[1]! - pc[4]!) * a[1]! + (pc[2]! - pc[5]!) * a[2]!;
  if (s < 0n) s = -s;
  const { ints: hs, exp: eh } = toScaledIntegers([h]);
  const es = e1 + e2;
  const lhs = es > eh ? s << BigInt(es - eh) : s;
  const rhs = eh > es ? hs[0]! << BigInt(eh - es) : hs[0]!;
  return lhs <= rhs;
}

function containsExactly(B: Float64Array, o: number, x: number, y: number, z: number, axes: Float64Array): boolean {
  obbAxes(B, o, axes);
  return insideSlab(x, y, z, B, o, axes, 0) && insideSlab(x, y, z, B, o, axes, 1) && insideSlab(x, y, z, B, o, axes, 2);
}

/** Node i's slot range [first, end), for every node (children after their parent). */
function slotRanges(t: ObbTree): { first: Int32Array; end: Int32Array } {
  const n = t.nodeCount, N = t.nodes;
  const first = new Int32Array(n), end = new Int32Array(n);
  for (let i = n - 1; i >= 0; i--) {
    if (N[2 * i + 1]! > 0) { first[i] = N[2 * i]!; end[i] = N[2 * i]! + N[2 * i + 1]!; }
    else { first[i] = first[i + 1]!; end[i] = end[N[2 * i]!]!; }
  }
  return { first, end };
}

/** Nodes whose box does not contain, exactly, a vertex of a triangle below it. */
function uncontained(t: ObbTree): string[] {
  const { first, end } = slotRanges(t);
  const P = t.positions, TV = t.triVerts, axes = new Float64Array(9), bad: string[] = [];
  for (let i = 0; i < t.nodeCount && bad.length < 5; i++) {
    for (let k = 3 * first[i]!; k < 3 * end[i]!; k++) {
      const v = 3 * TV[k]!;
      if (!containsExactly(t.boxes, i * OBB_STRIDE, P[v]!, P[v + 1]!, P[v + 2]!, axes)) { bad.push(`node ${i}, vertex ${v / 3}`); break; }
    }
  }
  return bad;
}

describe('the third axis of an OBB', () => {
  it('writeObb: the box contains its points exactly, whichever axis the extents sort last', () => {
    const moved = [0, 0, 0];
    // Spread along each axis: 1.7^i or flat.
    const spreadArb = fc.oneof({ arbitrary: fc.integer({ min: -12, max: 12 }).map((i) => 1.7 ** i), weight: 9 }, { arbitrary: fc.constant(0), weight: 1 });
    const frameArb = fc.tuple(
      fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 6, maxLength: 6 }),
      fc.boolean(),
    );
    fc.assert(
      fc.property(
        frameArb,
        fc.tuple(spreadArb, spreadArb, spreadArb),
        fc.tuple(fc.double({ min: -1e4, max: 1e4, noNaN: true }), fc.double({ min: -1e4, max: 1e4, noNaN: true }), fc.double({ min: -1e4, max: 1e4, noNaN: true })),
        fc.array(fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })), { minLength: 1, maxLength: 12 }),
        ([v, fromPoints], spread, shift, unit) => {
          // A frame as the fits make them: orthonormalFrame, or the eigenvectors of a point set.
          const F = new Float64Array(9);
          const pts = new Float64Array(3 * unit.length);
          const G = new Float64Array(9);
          F.set(v, 0);
          orthonormalFrame(F, 0);
          // Points spread along F's axes by different amounts, so that any axis can sort last.
          unit.forEach(([s, t, w], q) => {
            for (let c = 0; c < 3; c++) {
              pts[3 * q + c] = shift[c]! + s * spread[0] * F[c]! + t * spread[1] * F[3 + c]! + w * spread[2] * F[6 + c]!;
            }
          });
          if (fromPoints) frameFromPoints(pts, unit.length, G, 0);
          const frame = fromPoints ? G : F;
          const E = new Float64Array([Infinity, -Infinity, Infinity, -Infinity, Infinity, -Infinity]);
          for (let q = 0; q < unit.length; q++) {
            const x = pts[3 * q]!, y = pts[3 * q + 1]!, z = pts[3 * q + 2]!;
            for (let k = 0; k < 3; k++) {
              const d = frame[3 * k]! * x + frame[3 * k + 1]! * y + frame[3 * k + 2]! * z;
              if (d < E[2 * k]!) E[2 * k] = d;
              if (d > E[2 * k + 1]!) E[2 * k + 1] = d;
            }
          }
          const B = new Float64Array(OBB_STRIDE);
          writeObb(B, 0, frame, E);
          // Which of the frame's axes is the box's third (by the stored two)?
          const axes = new Float64Array(9);
          obbAxes(B, 0, axes);
          let last = 0;
          for (let k = 0; k < 3; k++) {
            const same = (j: number): boolean => B[6 + 3 * j] === frame[3 * k] && B[7 + 3 * j] === frame[3 * k + 1] && B[8 + 3 * j] === frame[3 * k + 2];
            if (!same(0) && !same(1)) last = k;
          }
          moved[last]!++;
          expect(B[3]).toBeGreaterThanOrEqual(B[4]!);
          for (let q = 0; q < unit.length; q++) {
            expect(containsExactly(B, 0, pts[3 * q]!, pts[3 * q + 1]!, pts[3 * q + 2]!, axes)).toBe(true);
          }
        },
      ),
      { numRuns: 3000, seed: 20261206 },
    );
    // Every axis of the frame was sorted last in some runs (the cross product then differs from it).
    expect(moved[0]).toBeGreaterThan(50);
    expect(moved[1]).toBeGreaterThan(50);
    expect(moved[2]).toBeGreaterThan(50);
  });

  it('whole trees from both builders contain their vertices exactly (meshes where the sort moves the third axis)', () => {
    for (const key of ['torus-20k', 'lumpy-3674']) {
      const g = generatedMesh(key);
      const mesh = createMesh(g.positions, g.indices);
      for (const where of ['ts', 'wasm'] as const) {
        setBuildKernel(where);
        try {
          const t = buildObbTree(mesh);
          expect(uncontained(t), `${key}, ${where} build`).toEqual([]);
        } finally {
          setBuildKernel('wasm');
        }
      }
    }
  });

  it('meshes so small or so large that squared lengths underflow or overflow get boxes that contain them exactly', () => {
    const g = generatedMesh('lumpy-3674');
    for (const e of [-530, 530]) {
      const k = 2 ** e;
      const mesh = createMesh(g.positions.map((x) => x * k), g.indices);
      for (const where of ['ts', 'wasm'] as const) {
        setBuildKernel(where);
        try {
          expect(uncontained(buildObbTree(mesh, { leafSize: 1 })), `2^${e}, ${where} build`).toEqual([]);
        } finally {
          setBuildKernel('wasm');
        }
      }
    }
  });

  it('a box stores two unit axes, and their cross product is the right-handed third', () => {
    const g = generatedMesh('torus-20k');
    const t = buildObbTree(createMesh(g.positions, g.indices));
    expect(t.boxes.length).toBe(12 * t.nodeCount);
    const axes = new Float64Array(9);
    for (let i = 0; i < t.nodeCount; i += 97) {
      obbAxes(t.boxes, i * OBB_STRIDE, axes);
      const dot = (p: number, q: number): number => axes[p]! * axes[q]! + axes[p + 1]! * axes[q + 1]! + axes[p + 2]! * axes[q + 2]!;
      for (const [p, q, want] of [[0, 0, 1], [3, 3, 1], [6, 6, 1], [0, 3, 0], [0, 6, 0], [3, 6, 0]] as const) {
        expect(Math.abs(dot(p, q) - want)).toBeLessThan(1e-14);
      }
    }
  });
});
