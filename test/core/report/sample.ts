/** Small hand-made reports for the report tests: every kind, a coincident group, an undecided pair. */
import type { CheckResult, PairResult } from '../../../src-core/check/types.js';
import { buildReport, type InterferenceReport, type ReportPartInput } from '../../../src-core/report/model.js';

export function pair(p: Partial<PairResult> & Pick<PairResult, 'a' | 'b' | 'kind'>): PairResult {
  return {
    geometricKind: p.kind === 'ignored' ? 'clear' : p.kind,
    trianglePairs: new Uint32Array(0),
    volumeMm3: null,
    centroidMm: null,
    contained: false,
    containedPart: null,
    distanceMm: null,
    closestPointsMm: null,
    depthMm: null,
    toleranceMm: 0.01,
    reason: null,
    resolutionMm: null,
    refinedDeflectionMm: null,
    separationRangeMm: null,
    possibleKinds: null,
    ...p,
  };
}

/** Parts p0 … p{n-1} of one STL source, or the given ids. */
export function parts(ids: readonly string[]): ReportPartInput[] {
  return ids.map((id, i) => ({ id, name: `part ${id}`, source: 'parts.stl', body: i, triangles: 12, closed: true }));
}

export const IDS = ['plate', 'bolt-1', 'nut-2', 'pin', 'gear', 'tet', 'c1', 'c2', 'c3'];

/** One result of every kind, a refined pair and a coincident group (c1, c2, c3). */
export const RESULTS: readonly PairResult[] = [
  pair({ a: 'plate', b: 'bolt-1', kind: 'interference', trianglePairs: Uint32Array.of(412, 97, 413, 97),
    volumeMm3: 3.52, centroidMm: [12.1, 40.5, 3], distanceMm: 0, depthMm: 0.5, resolutionMm: 0.01 }),
  pair({ a: 'plate', b: 'nut-2', kind: 'contact', trianglePairs: Uint32Array.of(1, 2), distanceMm: 0, depthMm: 0.004 }),
  pair({ a: 'plate', b: 'pin', kind: 'undecided', possibleKinds: ['interference', 'contact'], separationRangeMm: [-0.005, 0],
    resolutionMm: 0.0005, refinedDeflectionMm: 0.0005 }),
  pair({ a: 'bolt-1', b: 'nut-2', kind: 'ignored', reason: 'press fit by design' }),
  pair({ a: 'gear', b: 'tet', kind: 'clearance', distanceMm: 0.3, closestPointsMm: [[1, 2, 3], [1.3, 2, 3]], toleranceMm: 0.05 }),
  pair({ a: 'c1', b: 'c2', kind: 'interference', volumeMm3: 8, centroidMm: [0, 0, 0], contained: true, containedPart: 'c2',
    coincident: ['c1', 'c2', 'c3'] }),
];

export function checkOf(results: readonly PairResult[], partCount = IDS.length): CheckResult {
  return {
    settings: { touchToleranceMm: 0.01, touchToleranceAuto: false, clearanceMm: 0.5, contactIsInterference: false },
    summary: {
      parts: partCount, triangles: partCount * 12, interferences: 0, contacts: 0, clearanceViolations: 0, ignored: 0,
      elapsedMs: 85, undecided: 0, refinedPairs: 0, finestDeflectionMm: null,
    },
    results: [...results],
    candidatePairs: results.length,
    phaseMs: { broadPhase: 0, collide: 0, classify: 0 },
    warnings: ['3 coincident copies: c1, c2, c3'],
  };
}

/** A report of `results` among the parts `ids` (by default every kind, among IDS). */
export function sampleReport(results: readonly PairResult[] = RESULTS, ids: readonly string[] = IDS, name = 'sample.assembly.json'): InterferenceReport {
  return buildReport({
    assemblyName: name,
    title: 'A sample',
    check: checkOf(results, ids.length),
    parts: parts(ids),
    generatedAt: new Date('2026-11-29T12:00:00Z'),
    generator: { name: 'Interfere', version: '0.1.0' },
  });
}
