import { describe, expect, it } from 'vitest';
import {
  filterResults,
  nextSort,
  resultKey,
  resultRowTestId,
  sideTriangles,
  sortResults,
  summaryText,
  trianglePairCount,
} from '../../src-renderer/state/results';
import { pairResult } from '../support/fakeHost';

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
  });
});
