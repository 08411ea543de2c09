import { describe, expect, it } from 'vitest';
import {
  filterResults,
  filterRows,
  KIND_LABEL,
  nextSort,
  possibleKindsText,
  refinedSummaryText,
  refinedTagText,
  resolutionCellText,
  resolutionSummary,
  resolutionTitle,
  RESULT_KINDS,
  resultKey,
  resultRowTestId,
  separationRangeText,
  sideTriangles,
  sortResults,
  sortRows,
  summaryText,
  tableRows,
  trianglePairCount,
  undecidedText,
} from '../../src-renderer/state/results';
import { checkOutcome, pairResult } from '../support/fakeHost';

const names = new Map([
  ['a', 'alpha'],
  ['b', 'bravo'],
  ['c', 'charlie'],
  ['d', 'delta'],
]);

const results = [
  pairResult('a', 'b', { kind: 'contact', trianglePairs: new Uint32Array([1, 2]) }),
  pairResult('a', 'c', { kind: 'interference', volumeMm3: 2, depthMm: 0.5, trianglePairs: new Uint32Array([1, 2, 3, 4, 5, 6]) }),
  pairResult('b', 'd', { kind: 'interference', volumeMm3: 10, depthMm: 1.5, trianglePairs: new Uint32Array([1, 2, 3, 4]) }),
  pairResult('c', 'd', { kind: 'clearance', distanceMm: 0.3, trianglePairs: new Uint32Array(0) }),
  pairResult('b', 'c', { kind: 'interference', volumeMm3: null, depthMm: 0.1, trianglePairs: new Uint32Array([7, 8]) }),
];

const order = (list: { a: string; b: string }[]) => list.map((r) => `${r.a}${r.b}`);

describe('sortResults', () => {
  it('puts the most severe first by default, the biggest volume first within a kind', () => {
    expect(order(sortResults(results, names, { key: 'kind', descending: false }))).toEqual(['bd', 'ac', 'bc', 'cd', 'ab']);
  });
  it('sorts numbers with unknown values last in both directions', () => {
    expect(order(sortResults(results, names, { key: 'volume', descending: true })).slice(0, 2)).toEqual(['bd', 'ac']);
    expect(order(sortResults(results, names, { key: 'volume', descending: false })).slice(0, 2)).toEqual(['ac', 'bd']);
    expect(order(sortResults(results, names, { key: 'distance', descending: false })).at(-1)).toBe('cd');
    expect(order(sortResults(results, names, { key: 'distance', descending: true }))[0]).toBe('cd');
  });
  it('sorts by part labels and by triangle pairs', () => {
    expect(order(sortResults(results, names, { key: 'b', descending: true }))[0]).toMatch(/d$/);
    expect(order(sortResults(results, names, { key: 'triangles', descending: true }))[0]).toBe('ac');
  });
  it('does not change its input', () => {
    const copy = [...results];
    sortResults(results, names, { key: 'depth', descending: true });
    expect(results).toEqual(copy);
  });
});

describe('table rows', () => {
  it('name the parts of every pair in the assembly order, whichever way round the check does', () => {
    const flipped = [pairResult('b', 'a', { kind: 'contact' }), pairResult('a', 'c', { kind: 'contact' }), pairResult('d', 'c', { kind: 'contact' })];
    const rows = tableRows(checkOutcome('doc-1', flipped), {}, new Set(['a', 'b', 'c', 'd']));
    expect(rows.map((r) => `${r.a}${r.b}`)).toEqual(['ab', 'ac', 'cd']);
    expect(rows[0].result?.a).toBe('b');
    expect(tableRows(null, { 'c|d': 'active' }, new Set(['d', 'c'])).map((r) => `${r.a}${r.b}`)).toEqual(['dc']);
  });

  it("carry the document's result numbers, and sort by them as numbers", () => {
    const found = [pairResult('a', 'b', { kind: 'contact' }), pairResult('a', 'c', { kind: 'contact' }), pairResult('c', 'd', { kind: 'contact' })];
    const rows = tableRows(checkOutcome('doc-1', found), {}, new Set(['a', 'b', 'c', 'd']), { 'a|b': 'R10', 'a|c': 'R9' });
    expect(rows.map((r) => r.id)).toEqual(['R10', 'R9', null]);
    const sorted = sortRows(rows, new Map(), { key: 'id', descending: false });
    expect(sorted.map((r) => r.id)).toEqual(['R9', 'R10', null]);
    expect(sortRows(rows, new Map(), { key: 'id', descending: true }).map((r) => r.id)).toEqual(['R10', 'R9', null]);
    // Before any check: the saved review's pairs, with their saved numbers.
    expect(tableRows(null, { 'c|d': 'resolved' }, new Set(['c', 'd']), { 'c|d': 'R4' })[0].id).toBe('R4');
  });
});

describe('filterResults', () => {
  it('filters by kind and by part label or id', () => {
    expect(filterResults(results, names, { kind: 'interference', text: '' })).toHaveLength(3);
    expect(order(filterResults(results, names, { kind: 'all', text: 'CHAR' }))).toEqual(['ac', 'cd', 'bc']);
    expect(order(filterResults(results, names, { kind: 'interference', text: 'delta' }))).toEqual(['bd']);
  });
});

describe('results helpers', () => {
  it('flips the sort on the same column and starts sizes biggest first', () => {
    expect(nextSort({ key: 'kind', descending: false }, 'kind')).toEqual({ key: 'kind', descending: true });
    expect(nextSort({ key: 'kind', descending: false }, 'volume')).toEqual({ key: 'volume', descending: true });
    expect(nextSort({ key: 'volume', descending: true }, 'a')).toEqual({ key: 'a', descending: false });
  });
  it('keys results by unordered pair and names their rows by ordered pair', () => {
    expect(resultKey({ a: 'z', b: 'k' })).toBe('k|z');
    expect(resultRowTestId({ a: 'nut-0', b: 'rod-2' })).toBe('result-row-nut-0-rod-2');
  });
  it('takes the distinct triangles of each side of the pairs', () => {
    const pairs = new Uint32Array([5, 1, 3, 1, 5, 2, 0, 9]);
    expect([...sideTriangles(pairs, 0)]).toEqual([0, 3, 5]);
    expect([...sideTriangles(pairs, 1)]).toEqual([1, 2, 9]);
    expect(trianglePairCount({ trianglePairs: pairs })).toBe(4);
    expect(sideTriangles(new Uint32Array(0), 0)).toHaveLength(0);
  });
  it('summarises counts', () => {
    expect(summaryText({ interferences: 1, contacts: 32, clearanceViolations: 0, ignored: 2 })).toBe(
      '1 interference · 0 clearance violations · 32 contacts · 2 ignored',
    );
    expect(summaryText({ interferences: 1, contacts: 32, clearanceViolations: 0, ignored: 2, undecided: 0 })).toBe(
      '1 interference · 0 clearance violations · 32 contacts · 2 ignored',
    );
    expect(summaryText({ interferences: 3, contacts: 1200, clearanceViolations: 1, ignored: 0, undecided: 2 })).toBe(
      '3 interferences · 2 undecided · 1 clearance violation · 1,200 contacts · 0 ignored',
    );
  });
  it('summarises refinement only when some pair was refined', () => {
    expect(refinedSummaryText({ refinedPairs: 4, finestDeflectionMm: 0.0005 })).toBe('4 pairs refined to 0.0005 mm');
    expect(refinedSummaryText({ refinedPairs: 1, finestDeflectionMm: 0.002 })).toBe('1 pair refined to 0.002 mm');
    expect(refinedSummaryText({ refinedPairs: 0, finestDeflectionMm: null })).toBeNull();
  });
});

// A fit the triangles could not decide even refined, a press fit decided after refinement, a CAD
// contact on the file's tessellation, an STL pair, a contained part and an ignored pair.
const undecided = pairResult('a', 'b', {
  kind: 'undecided',
  depthMm: 0.004,
  resolutionMm: 0.008,
  refinedDeflectionMm: 0.0005,
  separationRangeMm: [-0.012, 0.003],
  possibleKinds: ['interference', 'contact'],
});
const pressFit = pairResult('a', 'c', { kind: 'interference', volumeMm3: 0.2, depthMm: 0.02, resolutionMm: 0.0011, refinedDeflectionMm: 0.001, separationRangeMm: [-0.0211, -0.0189] });
const cadContact = pairResult('b', 'c', { kind: 'contact' });
const stlClearance = pairResult('c', 'd', { kind: 'clearance', distanceMm: 0.3, trianglePairs: new Uint32Array(0), resolutionMm: null, separationRangeMm: null });
const inside = pairResult('b', 'd', { kind: 'interference', contained: true, containedPart: 'd', volumeMm3: 4, resolutionMm: null, separationRangeMm: null });
const ignored = pairResult('a', 'd', { kind: 'ignored', reason: 'press fit', trianglePairs: new Uint32Array(0), distanceMm: null, resolutionMm: null, separationRangeMm: null });
const decided = [cadContact, ignored, stlClearance, undecided, inside, pressFit];

describe('undecided pairs', () => {
  it('is a kind of its own, between interference and clearance in severity', () => {
    expect(RESULT_KINDS).toEqual(['interference', 'undecided', 'clearance', 'contact', 'ignored']);
    expect(KIND_LABEL.undecided).toBe('Undecided');
    const rows = tableRows(checkOutcome('doc-1', decided, { resolved: [{ a: 'x', b: 'y' }] }), {}, new Set());
    expect(sortRows(rows, names, { key: 'kind', descending: false }).map((r) => r.key)).toEqual(['b|d', 'a|c', 'a|b', 'c|d', 'b|c', 'a|d', 'x|y']);
    expect(sortRows(rows, names, { key: 'kind', descending: true }).map((r) => r.key).slice(0, 3)).toEqual(['x|y', 'a|d', 'b|c']);
    expect(filterRows(rows, names, { kind: 'undecided' }).map((r) => r.key)).toEqual(['a|b']);
  });
  it('says what an undecided pair may be, and in what range its exact separation lies', () => {
    expect(undecidedText(undecided)).toBe('interference or contact: −0.012 … +0.003 mm');
    expect(undecidedText(pairResult('a', 'b', { kind: 'undecided', separationRangeMm: [0.004, 0.0071], possibleKinds: ['contact', 'clearance', 'clear'] }))).toBe(
      'contact, clearance violation or clear: +0.004 … +0.0071 mm',
    );
    expect(undecidedText(pressFit)).toBeNull();
    expect(possibleKindsText(['clearance', 'clear'])).toBe('clearance violation or clear');
    expect(separationRangeText([-0.5, 0])).toBe('−0.5 … 0 mm');
  });
});

describe('how finely a pair was decided', () => {
  it('shows the resolution, "as given" for meshes, and nothing where none applies', () => {
    expect(decided.map(resolutionCellText)).toEqual(['±0.001', '—', 'as given', '±0.008', '—', '±0.0011']);
  });
  it('marks refined pairs with the deflection they were decided at', () => {
    expect(decided.map(refinedTagText)).toEqual([null, null, null, 'refined 0.0005 mm', null, 'refined 0.001 mm']);
  });
  it('explains it in a tooltip and in the selected pair bar', () => {
    expect(resolutionTitle(pressFit)).toBe('Decided on bodies re-tessellated to a deflection of 0.001 mm: depth and distance ±0.0011 mm of the exact surfaces');
    expect(resolutionTitle(cadContact)).toBe("Decided on the file's own tessellation: depth and distance ±0.001 mm of the exact surfaces");
    expect(resolutionTitle(undecided)).toBe('Not decided even on bodies re-tessellated to a deflection of 0.0005 mm: depth and distance ±0.008 mm of the exact surfaces');
    expect(resolutionTitle({ ...undecided, refinedDeflectionMm: null })).toBe("Not decided on the file's own tessellation: depth and distance ±0.008 mm of the exact surfaces");
    expect(resolutionTitle(stlClearance)).toMatch(/^Decided on the triangles as given/);
    expect(resolutionTitle(inside)).toMatch(/inside/);
    expect(resolutionTitle(ignored)).toMatch(/^Ignored/);
    expect(decided.map(resolutionSummary)).toEqual([
      'resolution ±0.001 mm',
      null,
      'mesh as given',
      'resolution ±0.008 mm, refined to 0.0005 mm',
      null,
      'resolution ±0.0011 mm, refined to 0.001 mm',
    ]);
  });
  it('sorts by resolution with pairs without one last', () => {
    const rows = tableRows(checkOutcome('doc-1', decided), {}, new Set());
    expect(sortRows(rows, names, { key: 'resolution', descending: false }).map((r) => r.key).slice(0, 3)).toEqual(['b|c', 'a|c', 'a|b']);
    expect(sortRows(rows, names, { key: 'resolution', descending: true }).map((r) => r.key).slice(0, 3)).toEqual(['a|b', 'a|c', 'b|c']);
  });
});
