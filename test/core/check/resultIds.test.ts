import { describe, it, expect } from 'vitest';
import { assignResultIds, readResultIds, resultIdsObject, resultNumber } from '../../../src-core/check/resultIds.js';
import { pairKey, splitPairKey } from '../../../src-core/check/status.js';

describe('result ids', () => {
  it('numbers pairs the first time they are found, in report order', () => {
    const first = assignResultIds(new Map(), [{ a: 'b', b: 'a' }, { a: 'c', b: 'a' }]);
    expect(first.resultIds).toEqual(['R1', 'R2']);
    expect(first.ids.get(pairKey('a', 'b'))).toBe('R1');
  });

  it('keeps the number of a pair for good and numbers new pairs after the highest', () => {
    const before = new Map([[pairKey('a', 'b'), 'R1'], [pairKey('a', 'c'), 'R7']]);
    // a|b is gone (resolved) and a|c found the other way round; two new pairs come after R7.
    const next = assignResultIds(before, [{ a: 'd', b: 'e' }, { a: 'c', b: 'a' }, { a: 'b', b: 'd' }]);
    expect(next.resultIds).toEqual(['R8', 'R7', 'R9']);
    expect(next.ids.get(pairKey('a', 'b'))).toBe('R1');
    expect(before.size).toBe(2); // not changed
    // A resolved pair that comes back keeps its number.
    expect(assignResultIds(next.ids, [{ a: 'a', b: 'b' }]).resultIds).toEqual(['R1']);
  });

  it('reads saved ids, dropping entries that name no pair, are no id or repeat one', () => {
    const parts = new Set(['a', 'b', 'c', 'x|y']);
    const split = (key: string) => splitPairKey(key, parts);
    const read = readResultIds({ 'a|b': 'R2', 'a|c': 'R2', 'a|zz': 'R3', 'b|c': 'R0', 'c|x|y': 'R12', 'a|x|y': 5 }, split);
    expect(read.ids).toEqual(new Map([['a|b', 'R2'], ['c|x|y', 'R12']]));
    expect(read.dropped).toBe(4);
    expect(readResultIds(undefined, split)).toEqual({ ids: new Map(), dropped: 0 });
    expect(readResultIds([1], split).dropped).toBe(1);
    expect(resultIdsObject(read.ids)).toEqual({ 'a|b': 'R2', 'c|x|y': 'R12' });
    expect(Object.keys(resultIdsObject(new Map([['b|c', 'R1'], ['a|b', 'R2']])))).toEqual(['a|b', 'b|c']);
  });

  it('knows an id by its form', () => {
    expect(resultNumber('R1')).toBe(1);
    expect(resultNumber('R120')).toBe(120);
    for (const bad of ['R0', 'R01', 'r1', 'R', 'R1.5', ' R1', 'R99999999999999999']) expect(resultNumber(bad)).toBeNull();
  });
});
