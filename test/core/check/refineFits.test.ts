/**
 * Refinement against the analytic answer: pins in bores and balls in spherical seats at random
 * radii, fits and offsets, tessellated as OpenCascade does (every vertex on the exact surface,
 * exact normals, a deflection), refined by a refiner that tessellates the exact shapes again.
 * Whatever the tessellation, a fit that is an interference is never reported as contact or clear,
 * and a decided kind is always the exact one — on the triangles alone, and with the exact surfaces
 * the importer recovers from them (src-core/geometry/surfaces.ts, src-core/check/analytic.ts).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createMesh } from '../../../src-core/geometry/mesh';
import { weld } from '../../../src-core/geometry/weld';
import { buildObbTree } from '../../../src-core/obbtree/build';
import { estimateChordErrors, estimateChordSides } from '../../../src-core/io/occt';
import { fitFaceSurfaces } from '../../../src-core/geometry/surfaces';
import { runCheck } from '../../../src-core/check/check';
import { refineCheck, type Refiner, type RefinedBody } from '../../../src-core/check/refine';
import { kindOfSeparation, LINE_TO_LINE_MM } from '../../../src-core/check/resolution';
import type { CheckPart, CheckSettings } from '../../../src-core/check/types';

/** A tessellated solid: soup positions with per-face normals, as OpenCascade gives them. */
interface Soup { positions: number[]; normals: number[]; indices: number[] }

function add(s: Soup, p: readonly number[], n: readonly number[]): number {
  s.positions.push(p[0], p[1], p[2]);
  s.normals.push(n[0], n[1], n[2]);
  return s.positions.length / 3 - 1;
}

/**
 * Segments of a circle of radius r such that every triangle stays within d of the exact surface,
 * as OpenCascade's deflection promises (a quad's diagonal of a sphere strays about twice as far as
 * its edges: the edges are kept within d/3).
 */
function segments(r: number, d: number): number {
  return Math.max(8, Math.ceil(Math.PI / Math.acos(Math.max(-1, 1 - d / (3 * r)))));
}

/**
 * A cylindrical side of radius r from z0 to z1 (normals outward when `outward`, else towards the
 * axis), its vertices at angles phase + 2πi/n.
 */
function side(s: Soup, r: number, z0: number, z1: number, n: number, phase: number, outward: boolean): void {
  const ring: number[][] = [];
  for (let i = 0; i < n; i++) {
    const a = phase + (2 * Math.PI * i) / n, c = Math.cos(a), sn = Math.sin(a);
    const nrm = outward ? [c, sn, 0] : [-c, -sn, 0];
    ring.push([add(s, [r * c, r * sn, z0], nrm), add(s, [r * c, r * sn, z1], nrm)]);
  }
  for (let i = 0; i < n; i++) {
    const [a0, a1] = ring[i], [b0, b1] = ring[(i + 1) % n];
    if (outward) s.indices.push(a0, b0, b1, a0, b1, a1);
    else s.indices.push(a0, b1, b0, a0, a1, b1);
  }
}

/** An annulus (or a disc when rIn = 0) at height z facing +z (up) or −z. */
function cap(s: Soup, rIn: number, rOut: number, z: number, n: number, phaseIn: number, phaseOut: number, nIn: number, up: boolean): void {
  const nrm = [0, 0, up ? 1 : -1];
  const outer: number[] = [], inner: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = phaseOut + (2 * Math.PI * i) / n;
    outer.push(add(s, [rOut * Math.cos(a), rOut * Math.sin(a), z], nrm));
  }
  const tri = (a: number, b: number, c: number): void => {
    if (up) s.indices.push(a, b, c);
    else s.indices.push(a, c, b);
  };
  if (rIn === 0) {
    const c = add(s, [0, 0, z], nrm);
    for (let i = 0; i < n; i++) tri(c, outer[i], outer[(i + 1) % n]);
    return;
  }
  for (let i = 0; i < nIn; i++) {
    const a = phaseIn + (2 * Math.PI * i) / nIn;
    inner.push(add(s, [rIn * Math.cos(a), rIn * Math.sin(a), z], nrm));
  }
  // Strip between the rings by angle (they have different counts and phases).
  const angle = (p: number): number => Math.atan2(s.positions[3 * p + 1], s.positions[3 * p]);
  const seq = [...outer.map((v) => ({ v, outer: true })), ...inner.map((v) => ({ v, outer: false }))]
    .sort((x, y) => angle(x.v) - angle(y.v));
  let lastOuter = seq.filter((x) => x.outer).at(-1)!.v, lastInner = seq.filter((x) => !x.outer).at(-1)!.v;
  for (const x of seq) {
    if (x.outer) { tri(lastInner, lastOuter, x.v); lastOuter = x.v; }
    else { tri(lastInner, lastOuter, x.v); lastInner = x.v; }
  }
}

/** Sphere of radius r (outward normals, or inward for a seat's surface), UV-tessellated within d. */
function sphere(s: Soup, r: number, d: number, phase: number, outward: boolean): void {
  const n = segments(r, d), m = Math.max(4, Math.ceil(n / 2));
  const idx: number[][] = [];
  for (let j = 0; j <= m; j++) {
    const t = (Math.PI * j) / m, row: number[] = [];
    for (let i = 0; i < n; i++) {
      const a = phase + (2 * Math.PI * i) / n;
      const p = [Math.sin(t) * Math.cos(a), Math.sin(t) * Math.sin(a), Math.cos(t)];
      row.push(add(s, [r * p[0], r * p[1], r * p[2]], outward ? p : [-p[0], -p[1], -p[2]]));
    }
    idx.push(row);
  }
  for (let j = 0; j < m; j++) for (let i = 0; i < n; i++) {
    const a = idx[j][i], b = idx[j][(i + 1) % n], c = idx[j + 1][(i + 1) % n], e = idx[j + 1][i];
    if (j > 0) s.indices.push(...(outward ? [a, e, b] : [a, b, e]));
    if (j < m - 1) s.indices.push(...(outward ? [b, e, c] : [b, c, e]));
  }
}

interface Fit { shape: 'pin' | 'ball'; radius: number; fitMm: number; offsetMm: number; phase: number }

/** The two bodies of a fit at deflection d: the outer part (a tube or a hollow ball) and the inner one. */
function tessellate(f: Fit, body: 0 | 1, d: number, withSurfaces = false): RefinedBody {
  const s: Soup = { positions: [], normals: [], indices: [] };
  // Each side, cap and sphere is one B-rep face.
  const ranges: number[] = [];
  const face = (make: () => void): void => {
    const first = s.indices.length / 3;
    make();
    ranges.push(first, s.indices.length / 3 - 1);
  };
  const rHole = f.radius, rIn = f.radius + f.fitMm, wall = 2, L = 6;
  const ph = f.phase + body * 0.37 + d * 1000;
  if (f.shape === 'pin') {
    if (body === 0) {
      const nIn = segments(rHole, d), nOut = segments(rHole + wall, d);
      face(() => side(s, rHole, 0, L, nIn, ph, false));
      face(() => side(s, rHole + wall, 0, L, nOut, ph, true));
      face(() => cap(s, rHole, rHole + wall, L, nOut, ph, ph, nIn, true));
      face(() => cap(s, rHole, rHole + wall, 0, nOut, ph, ph, nIn, false));
    } else {
      const n = segments(rIn, d);
      face(() => side(s, rIn, -1, L + 1, n, ph, true));
      face(() => cap(s, 0, rIn, L + 1, n, 0, ph, 0, true));
      face(() => cap(s, 0, rIn, -1, n, 0, ph, 0, false));
    }
  } else if (body === 0) {
    face(() => sphere(s, rHole, d, ph, false));
    face(() => sphere(s, rHole + wall, d, ph, true));
  } else {
    face(() => sphere(s, rIn, d, ph, true));
  }
  const positions = Float64Array.from(s.positions), normals = Float64Array.from(s.normals), indices = Uint32Array.from(s.indices);
  // The inner part sits off the axis by the offset.
  if (body === 1) for (let i = 0; i < positions.length; i += 3) positions[i] += f.offsetMm;
  const chordErrorMm = estimateChordErrors(positions, normals, indices);
  const chordSide = estimateChordSides(positions, normals, indices);
  const w = weld(positions, indices);
  const mesh = createMesh(w.positions, w.indices);
  const faceRanges = Uint32Array.from(ranges);
  const surfaces = withSurfaces ? fitFaceSurfaces(positions, indices, faceRanges) : null;
  return { mesh, tree: buildObbTree(mesh), chordErrorMm, chordSide, faceRanges: withSurfaces ? faceRanges : null, surfaces, deflectionMm: d };
}

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const SETTINGS: CheckSettings = { touchToleranceMm: 0.002, clearanceMm: 0.02, contactIsInterference: false };

async function checkFit(f: Fit, withSurfaces = false): Promise<{ kind: string; possible: readonly string[] | null; exact: string; refined: number | null }> {
  const parts: CheckPart[] = ([0, 1] as const).map((b) => {
    // The file's own tessellation: a coarse deflection, chordal errors estimated (no deflection known).
    const body = tessellate(f, b, 0.04, withSurfaces);
    return {
      id: b === 0 ? 'seat' : 'inner', name: '', mesh: body.mesh, tree: body.tree, transform: IDENTITY,
      chordErrorMm: body.chordErrorMm, chordSide: body.chordSide, faceRanges: body.faceRanges, surfaces: body.surfaces,
      refine: { sourceKey: 'fit', bodyIndex: b },
    };
  });
  const refiner: Refiner = { body: async (_src, i, d) => tessellate(f, i as 0 | 1, d, withSurfaces) };
  const request = { parts, settings: SETTINGS, ignore: [] };
  const first = await runCheck(request);
  const result = await refineCheck(request, first, refiner, { limits: { timeBudgetMs: 60_000 } });
  const r = result.results[0];
  const exactSeparation = -f.fitMm - f.offsetMm; // the gap on the near side (negative: overlap)
  return {
    kind: r ? r.kind : 'clear',
    possible: r?.possibleKinds ?? null,
    exact: kindOfSeparation(exactSeparation, SETTINGS as { touchToleranceMm: number; clearanceMm: number }),
    refined: r?.refinedDeflectionMm ?? null,
  };
}

// (No exact separation within 1e-6 mm of a kind boundary: there every finite resolution is blind.)
const BOUNDARIES = [-LINE_TO_LINE_MM, SETTINGS.touchToleranceMm!, SETTINGS.clearanceMm];
const fits = fc.record({
  shape: fc.constantFrom('pin' as const, 'ball' as const),
  radius: fc.double({ min: 2, max: 8, noNaN: true }),
  fitMm: fc.double({ min: -0.03, max: 0.03, noNaN: true }),
  offsetMm: fc.double({ min: 0, max: 0.01, noNaN: true }),
  phase: fc.double({ min: 0, max: 1, noNaN: true }),
}).filter((f) => BOUNDARIES.every((b) => Math.abs(-f.fitMm - f.offsetMm - b) > 1e-6));

describe.each([
  ['on their triangles', false],
  ['with their faces\' recovered surfaces', true],
])('refinement against the analytic answer, %s', (_label, withSurfaces) => {
  it('never turns an interference into contact, and decides as the exact geometry (seed 20261201)', async () => {
    await fc.assert(
      fc.asyncProperty(fits, async (f) => {
        const got = await checkFit(f, withSurfaces);
        const exactSep = -f.fitMm - f.offsetMm;
        if (exactSep < -LINE_TO_LINE_MM) {
          // A real interference: never contact or clear; undecided only with interference possible.
          expect(got.kind === 'interference' || (got.kind === 'undecided' && got.possible!.includes('interference')), JSON.stringify({ f, got })).toBe(true);
        }
        if (got.kind !== 'undecided') expect(got.kind, JSON.stringify({ f, got })).toBe(got.exact);
        else expect(got.possible, JSON.stringify({ f, got })).toContain(got.exact);
      }),
      { numRuns: 16, seed: 20261201 },
    );
  }, 240_000);

  it('decides a 0.003 mm press fit, a 0.004 mm clearance and line to line, which the coarse triangles cannot', async () => {
    const base = { shape: 'pin' as const, radius: 6, offsetMm: 0, phase: 0.2 };
    const press = await checkFit({ ...base, fitMm: 0.003 }, withSurfaces);
    expect(press).toMatchObject({ kind: 'interference', exact: 'interference' });
    // An interference's volume comes from finer triangles, surfaces or not.
    expect(press.refined).not.toBeNull();
    const gap = await checkFit({ ...base, fitMm: -0.004 }, withSurfaces);
    expect(gap).toMatchObject({ kind: 'clearance', exact: 'clearance' });
    const flush = await checkFit({ ...base, fitMm: 0 }, withSurfaces);
    expect(flush).toMatchObject({ kind: 'contact', exact: 'contact' });
    if (withSurfaces) {
      // The surfaces decide the clearance and the line-to-line fit on the file's own triangles.
      expect(gap.refined).toBeNull();
      expect(flush.refined).toBeNull();
    }
  }, 120_000);
});
