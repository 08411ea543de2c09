// The broad phase's pair limit and filter: the pairs kept are the oracle's accepted ones, and more
// than the limit throw PairLimitError with the exact count (or a lower bound past 100 × the limit).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allPairsOverlap, PairLimitError, sweepAndPrune } from '../../../src-core/broadphase/sweepAndPrune';

const boxArb = fc
  .tuple(fc.integer({ min: -10, max: 10 }), fc.integer({ min: -10, max: 10 }), fc.integer({ min: -10, max: 10 }), fc.integer({ min: 0, max: 8 }))
  .map(([x, y, z, w]) => [x, y, z, x + w, y + w, z + w]);

function keys(a: Uint32Array): string[] {
  const out: string[] = [];
  for (let i = 0; i < a.length; i += 2) out.push(`${a[i]},${a[i + 1]}`);
  return out.sort();
}

describe('sweep and prune with a limit and a filter', () => {
  it('keeps the accepted pairs of the oracle, and throws past the limit with the exact count (seed 20261201)', () => {
    fc.assert(
      fc.property(fc.array(boxArb, { maxLength: 50 }), fc.integer({ min: 0, max: 200 }), (list, limit) => {
        const boxes = Float64Array.from(list.flat());
        const accept = (i: number, j: number): boolean => (i + j) % 3 !== 0;
        const oracle = keys(allPairsOverlap(boxes)).filter((k) => accept(...(k.split(',').map(Number) as [number, number])));
        if (oracle.length <= limit) {
          expect(keys(sweepAndPrune(boxes, limit, accept))).toEqual(oracle);
        } else {
          const e = (() => { try { sweepAndPrune(boxes, limit, accept); } catch (x) { return x; } return null; })();
          expect(e).toBeInstanceOf(PairLimitError);
          const { pairs, exact } = e as PairLimitError;
          if (exact) expect(pairs).toBe(oracle.length);
          else expect(pairs).toBeGreaterThanOrEqual(100 * limit);
        }
      }),
      { seed: 20261201, numRuns: 300 },
    );
  });

  it('stores nothing past the limit: 20,000 boxes at one place (about 200 million pairs) stop at 100 × the limit', () => {
    const n = 20_000;
    const boxes = new Float64Array(6 * n);
    for (let i = 0; i < n; i++) boxes.set([0, 0, 0, 1, 1, 1], 6 * i);
    const t0 = performance.now();
    const e = (() => { try { sweepAndPrune(boxes, 10_000); } catch (x) { return x; } return null; })() as PairLimitError;
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(e).toMatchObject({ name: 'PairLimitError', pairs: 1_000_000, limit: 10_000, exact: false });
    expect(e.message).toBe('more than 1000000 overlapping pairs, more than the limit of 10000');
  });
});
