import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allPairsOverlap, sweepAndPrune } from '../../../src-core/broadphase/sweepAndPrune';

function pairs(a: Uint32Array): string[] {
  const out: string[] = [];
  for (let i = 0; i < a.length; i += 2) out.push(`${a[i]},${a[i + 1]}`);
  return out.sort();
}

const boxArb = fc
  .tuple(
    fc.integer({ min: -20, max: 20 }), fc.integer({ min: -20, max: 20 }), fc.integer({ min: -20, max: 20 }),
    fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 8 }),
  )
  .map(([x, y, z, w, h, d]) => [x, y, z, x + w, y + h, z + d]);

describe('sweep and prune', () => {
  it('finds exactly the overlapping pairs of the all-pairs oracle (seed 20261130)', () => {
    fc.assert(
      fc.property(fc.array(boxArb, { minLength: 0, maxLength: 60 }), (list) => {
        const boxes = Float64Array.from(list.flat());
        expect(pairs(sweepAndPrune(boxes))).toEqual(pairs(allPairsOverlap(boxes)));
      }),
      { seed: 20261130, numRuns: 400 },
    );
  });

  it('counts boxes that touch at a face, an edge or a corner as overlapping', () => {
    const boxes = Float64Array.from([0, 0, 0, 1, 1, 1, 1, 0, 0, 2, 1, 1, 1, 1, 0, 2, 2, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]);
    expect(pairs(sweepAndPrune(boxes))).toEqual(['0,1', '0,2', '0,3', '1,2', '1,3', '2,3']);
  });
});
