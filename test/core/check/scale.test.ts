// The check at scale: coincident copies of a part are one finding per group (not n² pairs), the
// candidate pairs after the broad phase are bounded with an error naming the count and the limit,
// and 130,000 parts with the automatic tolerance do not overflow the stack.
import { describe, expect, it } from 'vitest';
import { CheckLimitError, DEFAULT_MAX_CANDIDATE_PAIRS, runCheck } from '../../../src-core/check/check.js';
import type { CheckPart, CheckRequest, CheckResult, PairResult } from '../../../src-core/check/types.js';
import { createMesh, type TriangleMesh } from '../../../src-core/geometry/mesh.js';
import { buildObbTree } from '../../../src-core/obbtree/build.js';
import type { ObbTree } from '../../../src-core/obbtree/layout.js';
import { buildReport, parseReport, reportToCsv, reportToHtml, reportToJson } from '../../../src-core/report/index.js';
import { boxMesh } from '../../support/meshArbitraries.js';

const AUTO = { touchToleranceMm: null, clearanceMm: 0, contactIsInterference: false } as const;

const cubeData = boxMesh([-1, -1, -1], [1, 1, 1]);
const CUBE = createMesh(cubeData.positions, cubeData.indices);
const CUBE_TREE = buildObbTree(CUBE);
const plateData = boxMesh([-5, -5, 0.5], [5, 5, 3]);
const PLATE = createMesh(plateData.positions, plateData.indices);
const PLATE_TREE = buildObbTree(PLATE);

function at(x: number, y = 0, z = 0): number[] {
  return [1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z];
}

function part(id: string, transform: number[], mesh: TriangleMesh = CUBE, tree: ObbTree = CUBE_TREE, chordErrorMm: Float32Array | null = null): CheckPart {
  return { id, name: id, mesh, tree, transform, chordErrorMm };
}

function copies(n: number, prefix = 'c'): CheckPart[] {
  return Array.from({ length: n }, (_, i) => part(`${prefix}${i}`, at(0)));
}

function check(parts: CheckPart[], more: Partial<CheckRequest> = {}, maxCandidatePairs?: number): Promise<CheckResult> {
  return runCheck({ parts, settings: AUTO, ignore: [], ...more }, maxCandidatePairs === undefined ? {} : { maxCandidatePairs });
}

function reportOf(parts: CheckPart[], result: CheckResult): ReturnType<typeof buildReport> {
  return buildReport({
    assemblyName: 'scale.assembly.json',
    check: result,
    parts: parts.map((p) => ({ id: p.id, name: p.name, source: 'cube.stl', body: 0, triangles: p.mesh.triangleCount, closed: true })),
    generatedAt: new Date('2026-12-01T00:00:00Z'),
  });
}

/** What a result says about geometry, without the part ids. */
function geometry(r: PairResult): unknown {
  return { kind: r.kind, geometricKind: r.geometricKind, pairs: Array.from(r.trianglePairs), depthMm: r.depthMm, distanceMm: r.distanceMm, contained: r.contained, toleranceMm: r.toleranceMm };
}

describe('coincident copies', () => {
  it('2,000 copies of one part at one placement: one interference listing every copy, in well under a few seconds', async () => {
    const parts = copies(2000);
    const t0 = performance.now();
    const result = await check(parts);
    const ms = performance.now() - t0;
    expect(ms).toBeLessThan(3000);
    expect(result.results).toHaveLength(1);
    const [group] = result.results;
    expect(group).toMatchObject({ a: 'c0', b: 'c1', kind: 'interference', geometricKind: 'interference' });
    expect(group.coincident).toEqual(parts.map((p) => p.id));
    // The finding is the exact result of two coincident copies.
    const two = await check(copies(2));
    expect(geometry(group)).toEqual(geometry(two.results[0]));
    expect(two.results[0].coincident).toEqual(['c0', 'c1']);
    expect(result.summary).toMatchObject({ parts: 2000, interferences: 1, contacts: 0 });
    expect(result.candidatePairs).toBe(1);
    expect(result.warnings).toEqual(['2,000 parts are coincident copies — the same triangles at the same placement (c0, c1, c2, … c1999): reported as one finding for the pair c0/c1, which stands for all 1,999,000 pairs among them']);

    // The report validates, reads back with the group, and says it in every rendering.
    const report = reportOf(parts, result);
    const back = parseReport(reportToJson(report));
    expect(back.results[0].coincident).toHaveLength(2000);
    expect(back.summary.interferences).toBe(1);
    expect(reportToCsv(report)).toContain('"2,000 coincident copies (same triangles, same placement), one finding for every pair among them: c0, c1, c2, c3, c4, c5, c6, c7, c8, … c1999"');
    expect(reportToHtml(report)).toContain('2,000 coincident copies (same triangles, same placement), one finding for every pair among them');
    const broken = JSON.parse(reportToJson(report)) as { results: { coincident: string[] }[] };
    broken.results[0].coincident = ['c5', 'c6'];
    expect(() => parseReport(JSON.stringify(broken))).toThrow(/results\[0\]\.coincident: does not list the result's parts "c0" and "c1"/);
    broken.results[0].coincident = ['c0', 'c1', 'nobody'];
    expect(() => parseReport(JSON.stringify(broken))).toThrow(/results\[0\]\.coincident\[2\]: names part "nobody", which is not in parts/);
  });

  it('groups equal triangles of distinct meshes, and only bit-identical placements', async () => {
    const twin = createMesh(CUBE.positions.slice(), CUBE.indices.slice());
    const other = createMesh(CUBE.positions.map((v, i) => (i === 0 ? v + 1e-9 : v)), CUBE.indices.slice());
    const parts = [
      part('a', at(0)), part('b', at(0), twin, buildObbTree(twin)), part('c', at(1e-12)), part('d', at(0), other, buildObbTree(other)),
      part('e', at(0), CUBE, CUBE_TREE, new Float32Array(CUBE.triangleCount).fill(0.001)),
    ];
    const result = await check(parts);
    const groups = result.results.filter((r) => r.coincident !== undefined);
    expect(groups.map((r) => r.coincident)).toEqual([['a', 'b']]);
    // Every other pair is its own result (they all interfere).
    expect(result.results).toHaveLength(1 + (5 * 4) / 2 - 1);
  });

  it('pairs of copies with another part: computed once, one result per pair, each as if computed alone', async () => {
    // Copies before and after the plate in part order (the result's a is the earlier part).
    const parts = [part('c0', at(0)), part('c1', at(0)), part('plate', at(0), PLATE, PLATE_TREE), part('c2', at(0)), part('c3', at(0))];
    const result = await check(parts);
    expect(result.results.map((r) => [r.a, r.b, r.coincident?.length ?? null])).toEqual([
      ['c0', 'c1', 4], ['c0', 'plate', null], ['c1', 'plate', null], ['plate', 'c2', null], ['plate', 'c3', null],
    ]);
    for (const r of result.results.slice(1)) {
      const alone = await check([parts.find((p) => p.id === r.a)!, parts.find((p) => p.id === r.b)!]);
      expect(geometry(r), `${r.a}/${r.b}`).toEqual(geometry(alone.results[0]));
    }
    expect(result.summary.interferences).toBe(5);
    expect(() => reportOf(parts, result)).not.toThrow();
  });

  it('follows ignore rules and the scope: the finding is the first pair asked for and not ignored', async () => {
    const parts = copies(8);
    const ignored = await check(parts, { ignore: [{ a: 'c0', b: 'c1', reason: 'known' }, { a: 'c2', b: 'c0' }] });
    expect(ignored.results.map((r) => [r.a, r.b, r.kind, r.coincident?.length ?? null])).toEqual([
      ['c0', 'c1', 'ignored', null], ['c0', 'c2', 'ignored', null], ['c0', 'c3', 'interference', 8],
    ]);
    const sets = await check(parts, { scope: { kind: 'sets', a: ['c5'], b: ['c7', 'c6'] } });
    expect(sets.results.map((r) => [r.a, r.b, r.coincident?.length])).toEqual([['c5', 'c6', 8]]);
    const none = await check(parts, { scope: { kind: 'sets', a: ['c5'], b: ['c5'] } });
    expect(none.results).toEqual([]);
    const selection = await check([...parts, part('far', at(100))], { scope: { kind: 'selection', ids: ['far'] } });
    expect(selection.results).toEqual([]);
  });
});

describe('bounded candidate pairs', () => {
  it('refuses 2,000 overlapping parts (1,999,000 pairs) with the count and the limit, before computing any pair', async () => {
    const parts = Array.from({ length: 2000 }, (_, i) => part(`s${i}`, at(1e-3 * i)));
    const t0 = performance.now();
    const e = await check(parts).catch((x: unknown) => x);
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(e).toBeInstanceOf(CheckLimitError);
    expect((e as CheckLimitError).message).toBe(
      'the broad phase found 1,999,000 candidate pairs of parts whose bounds overlap, more than the limit of 1,000,000 pairs one check computes; ' +
      'nothing was checked. Check a selection of the parts, or look for parts stacked on one another',
    );
    expect(DEFAULT_MAX_CANDIDATE_PAIRS).toBe(1_000_000);
    // A scope asking for few of them is checked: only pairs in scope count.
    const few = await check(parts, { scope: { kind: 'sets', a: ['s5'], b: ['s7', 's6'] } });
    expect(few.candidatePairs).toBe(2);
    expect(few.results.map((r) => [r.a, r.b, r.kind])).toEqual([['s5', 's6', 'interference'], ['s5', 's7', 'interference']]);
  });

  it('counts pairs exactly (up to 100 times the limit), the copies of coincident parts each', async () => {
    const parts = Array.from({ length: 40 }, (_, i) => part(`s${i}`, at(1e-3 * i)));
    const e = await check(parts, {}, 779).catch((x: unknown) => x);
    expect((e as CheckLimitError).message).toMatch(/^the broad phase found 780 candidate pairs .* more than the limit of 779 /);
    expect(await check(parts, {}, 780).then((r) => r.candidatePairs)).toBe(780);
    expect((await check(parts, {}, 5).catch((x: unknown) => x) as CheckLimitError).message).toMatch(/^the broad phase found more than 500 candidate pairs .* limit of 5 /);
    // 150 copies at one place overlapping 100 copies at another: 15,000 pairs of parts.
    const stacked = [...copies(150, 'x'), ...Array.from({ length: 100 }, (_, i) => part(`y${i}`, at(0.5)))];
    const over = await check(stacked, {}, 15_001).catch((x: unknown) => x);
    expect((over as CheckLimitError).message).toMatch(/^the broad phase found 15,002 candidate pairs .* more than the limit of 15,001/);
    const fits = await check(stacked, {}, 15_002);
    expect(fits.results.filter((r) => r.coincident === undefined)).toHaveLength(15_000);
    expect(fits.results.filter((r) => r.coincident !== undefined).map((r) => r.coincident!.length)).toEqual([150, 100]);
  });
});

describe('many parts', () => {
  it('checks 130,000 parts with the automatic tolerance (chordal errors known) without overflowing the stack', async () => {
    const chord = new Float32Array(CUBE.triangleCount).fill(0.02);
    // (a long grid: the sweep along x keeps few boxes open at a time)
    const n = 130_000, side = 2000;
    const parts = Array.from({ length: n }, (_, i) => part(`g${i}`, at(3 * (i % side), 3 * Math.floor(i / side)), CUBE, CUBE_TREE, chord));
    // Two of them moved into each other.
    parts[7] = part('g7', at(3 * 6 + 1.5), CUBE, CUBE_TREE, chord);
    const result = await check(parts);
    expect(result.summary.parts).toBe(n);
    expect(result.results.map((r) => [r.a, r.b, r.kind])).toEqual([['g6', 'g7', 'interference']]);
    // The tolerance is the default: chordal errors decide resolutions, not the tolerance.
    expect(result.settings.touchToleranceMm).toBe(0.01);
    expect(result.results[0].resolutionMm).not.toBeNull();
  }, 60_000);
});
