// The builders' per-triangle slot (src-core/obbtree/slots.ts): the moments' scale, and trees that
// do not depend on the mesh's units. The moments are kept as floats after a power-of-two scale;
// were a moment to overflow or flush to zero, a tree of the same mesh in other units would be
// fitted differently. Scaling by a power of two is exact, so both builders must give the same
// tree, its boxes scaled by the same power, on meshes from 2⁻⁴⁰⁰ to 2⁴⁰⁰ of their size. (Further
// out, a single triangle's frame, taken from its edges' squared lengths, under- or overflows
// before the moments do.)
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createMesh } from '../../../src-core/geometry/mesh.js';
import { buildObbTree, setBuildKernel, type BuildKernel } from '../../../src-core/obbtree/build.js';
import type { ObbTree } from '../../../src-core/obbtree/layout.js';
import { validateTree } from '../../../src-core/obbtree/validate.js';
import { releaseTree } from '../../../src-core/kernel/kernel.js';
import { momentScale } from '../../../src-core/obbtree/slots.js';
import { generatedMesh } from '../../../bench/generate';
import { MESH_PAIR_ARBS, type MeshData } from '../../support/meshArbitraries.js';

afterEach(() => setBuildKernel('wasm'));

function tree(d: { positions: Float64Array; indices: Uint32Array }, where: BuildKernel, factor = 1): ObbTree {
  setBuildKernel(where);
  try {
    return buildObbTree(createMesh(d.positions.map((x) => x * factor), d.indices), { leafSize: 4 });
  } finally {
    setBuildKernel('wasm');
  }
}

/** `scaled` is `base` over the mesh scaled by `factor` (a power of two): the same tree, every box number times `factor` but the axes. */
function expectScaledTree(base: ObbTree, scaled: ObbTree, factor: number): void {
  expect(scaled.nodeCount).toBe(base.nodeCount);
  expect(Array.from(scaled.nodes)).toEqual(Array.from(base.nodes));
  expect(Array.from(scaled.triOrder)).toEqual(Array.from(base.triOrder));
  const stride = base.boxes.length / base.nodeCount;
  const off: string[] = [];
  for (let k = 0; k < base.boxes.length && off.length < 5; k++) {
    // Centre and half extents scale; the two stored axes (from offset 6) do not. The half
    // extents' padding of 1e-300 is absolute, so they are compared relatively.
    const expected = k % stride < 6 ? base.boxes[k]! * factor : base.boxes[k]!;
    if (!(Math.abs(scaled.boxes[k]! - expected) <= Math.abs(expected) * 1e-15)) off.push(`box number ${k}: ${scaled.boxes[k]} for ${expected}`);
  }
  expect(off).toEqual([]);
  expect(validateTree(scaled).errors).toEqual([]);
}

describe('the slot moments\' scale', () => {
  it('brings a half extent into [1, 2) with a power of two, and is 1 for zero and non-finite extents', () => {
    for (const e of [1e-300, 3e-30, 1e-3, 0.75, 1, 1.5, 2, 3, 1234.5, 1e9, 1e30, 1e300, Number.MAX_VALUE]) {
      const s = momentScale(e);
      expect(Number.isInteger(Math.log2(s))).toBe(true);
      const scaled = e * s;
      if (s > 2 ** -1000 && s < 2 ** 1000) {
        expect(scaled).toBeGreaterThanOrEqual(1);
        expect(scaled).toBeLessThan(2);
      }
    }
    expect(momentScale(Number.MIN_VALUE)).toBe(2 ** 1000);
    for (const e of [0, -1, Number.NaN, Infinity]) expect(momentScale(e)).toBe(1);
  });

  it('keeps a tree the same whatever the units: meshes scaled by powers of two from 2⁻⁴⁰⁰ to 2⁴⁰⁰ (both builders)', () => {
    const torus = generatedMesh('torus-20k');
    for (const where of ['wasm', 'ts'] as const) {
      const base = tree(torus, where);
      for (const e of [-400, -300, -40, 37, 300, 400]) {
        const scaled = tree(torus, where, 2 ** e);
        expectScaledTree(base, scaled, 2 ** e);
        releaseTree(scaled);
      }
      releaseTree(base);
    }
  });

  it('keeps a tree the same whatever the units, on every mesh family (both builders)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.values(MESH_PAIR_ARBS)).chain((arb) => arb), fc.integer({ min: -300, max: 300 }), fc.constantFrom('wasm', 'ts'), (pair, e, where) => {
        const d: MeshData = pair.a;
        const base = tree(d, where), scaled = tree(d, where, 2 ** e);
        expectScaledTree(base, scaled, 2 ** e);
        releaseTree(base);
        releaseTree(scaled);
      }),
      { numRuns: 60 },
    );
  });
});
