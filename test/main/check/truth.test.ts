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

function compare(name: string, result: CheckFileResult, truth: Truth): void {
  const report = result.report;
  expect(report.summary.triangles, 'triangle count (tessellation)').toBe(truth.totals.triangles);
  const got = new Map(report.results.map((r) => [key(r.a, r.b), r]));
  const expected = new Map(truth.expected.results.map((r) => [key(r[0], r[1]), r]));
  // Same set of listed pairs, same kinds, same containment.
  expect([...got.keys()].sort(), `${name}: listed pairs`).toEqual([...expected.keys()].sort());
  for (const [k, e] of expected) {
    const r = got.get(k)!;
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
  // Summary and exit status.
  const s = report.summary;
  expect([s.interferences, s.contacts, s.clearanceViolations, s.ignored]).toEqual([
    truth.expected.interferences, truth.expected.contacts, truth.expected.clearanceViolations, truth.expected.ignored,
  ]);
  expect(exitCode(report)).toBe(truth.expected.exitCode);
}

const CASES = [
  'as1-oc-214-asis', 'as1-oc-214-moved', 'as1-oc-214-clearance', 'dm1-id-214-asis', 'motor-c-asis',
  'trackball-asis', 'fanuc-zero', 'fanuc-selfcollision', 'so101-zero', 'stl-gear-polytopes',
];

describe('checks of the shared assemblies agree with their truth', () => {
  for (const name of CASES) {
    it(`${name}, at the file's own settings`, async () => {
      const result = await checkFile(path.join(DATA, 'assemblies', `${name}.assembly.json`), { importer });
      compare(name, result, truthOf(name));
    }, 180_000);
  }

  for (const name of ['as1-oc-214-asis', 'as1-oc-214-moved', 'motor-c-asis', 'trackball-asis']) {
    it(`${name}, with the automatic tolerance (no tolerance given)`, async () => {
      const result = await checkFile(path.join(DATA, 'assemblies', `${name}.assembly.json`), { importer, settings: { touchToleranceMm: null } });
      expect(result.report.settings.touchToleranceAuto).toBe(true);
      compare(name, result, truthOf(name));
    }, 180_000);
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
