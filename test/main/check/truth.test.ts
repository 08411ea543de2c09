/**
 * The whole pipeline (open → trees → check → report) on ten assemblies of test/data, against their
 * ground truth (test/data/truth, fields explained in test/data/README.md).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFile, type CheckFileResult } from '../../../src-main/services/checkService';
import { createImporter } from '../../../src-main/services/importers';
import { exitCode } from '../../../src-core/report/index';

const DATA = path.resolve(process.cwd(), 'test/data');
const importer = createImporter();

interface TruthPair {
  a: string;
  b: string;
  kind: string;
  volumeMm3: number | null;
  distanceMm: number | null;
  contained: boolean;
  triPairCount: number;
  triPairs: [number, number, number][];
}
interface Truth {
  expected: { exitCode: number; interferences: number; contacts: number; clearanceViolations: number; ignored: number; contained: number; results: string[][] };
  totals: { triangles: number };
  pairs: TruthPair[];
  settings: { touchToleranceMm: number };
}

function truthOf(name: string): Truth {
  return JSON.parse(readFileSync(path.join(DATA, 'truth', `${name}.truth.json`), 'utf8')) as Truth;
}

const key = (a: string, b: string): string => [a, b].sort().join(' | ');

/** Pairs of a result as "i j" strings with i on part `first`'s side. */
function pairSet(flat: readonly (readonly [number, number])[], swapped: boolean): string[] {
  return flat.map(([i, j]) => (swapped ? `${j} ${i}` : `${i} ${j}`)).sort();
}

/**
 * Compares a check with its truth. A pair the triangles could not decide even refined (within the
 * refinement's limits) must list the truth's kind among its possible kinds; every other pair must
 * have the truth's kind. Returns how many pairs were undecided.
 */
function compare(name: string, result: CheckFileResult, truth: Truth): number {
  const report = result.report;
  expect(report.summary.triangles, 'triangle count (tessellation)').toBe(truth.totals.triangles);
  const got = new Map(report.results.map((r) => [key(r.a, r.b), r]));
  const expected = new Map(truth.expected.results.map((r) => [key(r[0], r[1]), r]));
  // Same set of listed pairs, same kinds (or an honest 'undecided' that allows it), same containment.
  expect([...got.keys()].sort(), `${name}: listed pairs`).toEqual([...expected.keys()].sort());
  const undecided = { interference: 0, contact: 0, clearance: 0 } as Record<string, number>;
  for (const [k, e] of expected) {
    const r = got.get(k)!;
    if (r.kind === 'undecided') {
      expect(r.possibleKinds, `${name}: ${k} undecided, its possible kinds`).toContain(e[2]);
      undecided[e[2]]++;
      continue;
    }
    expect(r.kind, `${name}: ${k}`).toBe(e[2]);
    expect(r.contained, `${name}: ${k} contained`).toBe(e[3] === 'contained');
  }
  // Triangle pairs identical to the truth's exact test, for every pair that is not ignored.
  for (const tp of truth.pairs) {
    const r = got.get(key(tp.a, tp.b));
    if (!r || r.kind === 'ignored') continue;
    const swapped = r.a !== tp.a;
    expect(pairSet(r.trianglePairs, swapped), `${name}: ${key(tp.a, tp.b)} triangle pairs`).toEqual(tp.triPairs.map(([i, j]) => `${i} ${j}`).sort());
  }
  // Volumes of interferences near the truth's (B-rep for CAD: the mesh differs by its tessellation).
  for (const tp of truth.pairs) {
    const r = got.get(key(tp.a, tp.b));
    if (!r || r.kind !== 'interference' || tp.volumeMm3 === null || r.volumeMm3 === null) continue;
    expect(Math.abs(r.volumeMm3 - tp.volumeMm3), `${name}: ${key(tp.a, tp.b)} volume ${r.volumeMm3} vs ${tp.volumeMm3}`).toBeLessThanOrEqual(Math.max(0.25, 0.02 * tp.volumeMm3));
  }
  // Summary and exit status (undecided pairs fail the check unless allowed).
  const s = report.summary;
  expect([s.interferences + undecided.interference, s.contacts + undecided.contact, s.clearanceViolations + undecided.clearance, s.ignored]).toEqual([
    truth.expected.interferences, truth.expected.contacts, truth.expected.clearanceViolations, truth.expected.ignored,
  ]);
  expect(exitCode(report, 'pass'), `${name}: exit status with undecided pairs allowed`).toBe(s.undecided > 0 && s.interferences + s.clearanceViolations === 0 ? 0 : truth.expected.exitCode);
  expect(exitCode(report)).toBe(s.undecided > 0 ? 1 : truth.expected.exitCode);
  return s.undecided;
}

/**
 * Every case, and how many of its pairs may stay undecided: the AS1 mates, the fits and the meshes
 * are all decided; in dm1 (threaded bolts in nuts), Motor-c (a section model: the halves' cut
 * faces lie in one plane, which no face's surface bounds) and the trackball (printed shells), the
 * faces where the parts meet are not planes, cylinders or spheres facing each other, chords keep
 * crossing down to the finest deflection the refinement's budget allows, and such a mate stays
 * 'interference or contact' — never a wrong kind. The counts are those undecided on the files' own
 * tessellation, which refinement can only lower.
 */
const CASES: Record<string, number> = {
  'as1-oc-214-asis': 0, 'as1-oc-214-moved': 0, 'as1-oc-214-clearance': 0, 'dm1-id-214-asis': 2, 'motor-c-asis': 18,
  'trackball-asis': 1, 'fanuc-zero': 0, 'fanuc-selfcollision': 0, 'so101-zero': 0, 'stl-gear-polytopes': 0,
  'fits-pins-asis': 0, 'fits-pins-default-tol': 0, 'fits-pin-tilted': 0, 'fits-balls-keys': 0,
};

describe('checks of the assemblies of the test data agree with their truth', () => {
  for (const [name, mayStayUndecided] of Object.entries(CASES)) {
    it(`${name}, at the file's own settings`, async () => {
      const result = await checkFile(path.join(DATA, 'assemblies', `${name}.assembly.json`), { importer });
      const undecided = compare(name, result, truthOf(name));
      expect(undecided, `${name}: undecided pairs`).toBeLessThanOrEqual(mayStayUndecided);
    }, 300_000);
  }

  for (const name of ['as1-oc-214-asis', 'as1-oc-214-moved', 'fits-pin-tilted', 'fits-balls-keys']) {
    it(`${name}, with the default tolerance (no tolerance given)`, async () => {
      const result = await checkFile(path.join(DATA, 'assemblies', `${name}.assembly.json`), { importer, settings: { touchToleranceMm: null } });
      expect(result.report.settings.touchToleranceAuto).toBe(true);
      expect(compare(name, result, truthOf(name)), `${name}: undecided pairs`).toBe(0);
    }, 300_000);
  }
});

describe('the AS1 sample as a bare STEP file', () => {
  it('classes every mate (bolts in holes, nuts on bolts and rod) as contact by default', async () => {
    const result = await checkFile(path.resolve(process.cwd(), 'assets/samples/as1-oc-214.stp'), { importer });
    const r = result.report;
    expect(r.summary.parts).toBe(18);
    expect(r.summary.interferences).toBe(0);
    expect(r.summary.contacts).toBe(32);
    expect(exitCode(r)).toBe(0);
    // The chord overlaps of mated cylinders are there, and were judged shallower than the tolerance.
    expect(r.results.filter((x) => x.trianglePairs.length > 0).length).toBeGreaterThanOrEqual(22);
  }, 60_000);
});

describe('specific findings', () => {
  it('the shifted bolt, the tilted nut and the nut inside the plate', async () => {
    const result = await checkFile(path.join(DATA, 'assemblies', 'as1-oc-214-moved.assembly.json'), { importer });
    const byPair = new Map(result.report.results.map((r) => [key(r.a, r.b), r]));
    const bolt = byPair.get(key('bolt-5', 'plate-10'))!;
    expect(bolt.kind).toBe('interference');
    expect(bolt.volumeMm3).toBeGreaterThan(99);
    expect(bolt.volumeMm3).toBeLessThan(101);
    const inside = byPair.get(key('plate-10', 'nut-12'))!;
    expect(inside.kind).toBe('interference');
    expect(inside.contained).toBe(true);
    expect(inside.trianglePairs).toEqual([]);
    expect(inside.volumeMm3).toBeCloseTo(665.6, 0);
    const thin = byPair.get(key('bolt-13', 'nut-14'))!;
    expect(thin.kind).toBe('interference');
    expect(thin.depthMm).toBeGreaterThan(0.05);
  }, 60_000);

  it('the backed-off nut is a clearance violation with its distance and closest points', async () => {
    const result = await checkFile(path.join(DATA, 'assemblies', 'as1-oc-214-clearance.assembly.json'), { importer });
    const r = result.report.results.find((x) => key(x.a, x.b) === key('nut-1', 'l-bracket-9'))!;
    expect(r.kind).toBe('clearance');
    expect(r.distanceMm).toBeCloseTo(0.2, 3);
    const [p, q] = r.closestPointsMm!;
    expect(Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2])).toBeCloseTo(r.distanceMm!, 9);
  }, 60_000);
});
