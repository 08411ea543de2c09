import { Box3, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { fitBoxes, gridFor, niceStep, partMatrix, partsBounds, screenAxes, viewDirection } from '../../src-renderer/scene/sceneMath';
import { part, translation } from '../support/fakeHost';

describe('placements and bounds', () => {
  it('reads the row-major transform of a part', () => {
    const m = partMatrix(translation(10, 20, 30));
    expect(new Vector3(1, 2, 3).applyMatrix4(m).toArray()).toEqual([11, 22, 33]);
    // A quarter turn about Z, row-major: x → y.
    const r = partMatrix([0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    const v = new Vector3(1, 0, 0).applyMatrix4(r);
    expect(v.x).toBeCloseTo(0);
    expect(v.y).toBeCloseTo(1);
  });

  it('unites the placed bounds of the parts with geometry', () => {
    const unit = new Box3(new Vector3(0, 0, 0), new Vector3(1, 1, 1));
    const parts = [part('a', { bodyKey: 'k' }), part('b', { bodyKey: 'k', transform: translation(5, 0, 0) }), part('c', { bodyKey: 'missing' })];
    const box = partsBounds(parts, (k) => (k === 'k' ? unit : undefined));
    expect(box.min.toArray()).toEqual([0, 0, 0]);
    expect(box.max.toArray()).toEqual([6, 1, 1]);
    expect(partsBounds([], () => unit).isEmpty()).toBe(true);
  });
});

describe('grid', () => {
  it('picks round steps of 1, 2 or 5 × 10ⁿ mm', () => {
    expect(niceStep(120)).toBe(10);
    expect(niceStep(1000)).toBe(100);
    expect(niceStep(2)).toBe(0.2);
    expect(niceStep(0)).toBe(10);
  });
  it('lies under the model on whole steps', () => {
    const g = gridFor(new Box3(new Vector3(-31, -55, -2), new Vector3(399, 55, 266)));
    expect(g.size).toBe(g.step * g.divisions);
    expect(g.size).toBeGreaterThan(430);
    expect(g.center.z).toBeLessThan(-2);
    expect(g.center.x % g.step).toBe(0);
  });
});

describe('views and framing', () => {
  it('looks from the front, right, top and an isometric corner with Z up', () => {
    expect(viewDirection('front').toArray()).toEqual([0, -1, 0]);
    expect(viewDirection('right').toArray()).toEqual([1, 0, 0]);
    expect(viewDirection('top').z).toBeCloseTo(1);
    const { right, up } = screenAxes(viewDirection('front'));
    expect(right.toArray().map((x) => Math.round(x) + 0)).toEqual([1, 0, 0]);
    expect(up.toArray().map((x) => Math.round(x) + 0)).toEqual([0, 0, 1]);
  });

  it('fits a box so that every corner is in view', () => {
    const box = new Box3(new Vector3(-100, -10, -10), new Vector3(100, 10, 10));
    const dir = viewDirection('front');
    const fov = 35;
    const aspect = 1.5;
    const fit = fitBoxes([box], dir, fov, aspect, 1);
    expect(fit.center.toArray().map((x) => Math.round(x) + 0)).toEqual([0, 0, 0]);
    const tanV = Math.tan((fov * Math.PI) / 360);
    // The 200 mm width decides: half width 100 at distance d − 10 (the near face).
    expect(fit.distance).toBeCloseTo(10 + 100 / (tanV * aspect), 6);
    expect(fit.halfWidth).toBeCloseTo(100);
    expect(fit.halfHeight).toBeCloseTo(10);
    // A margin moves the camera back.
    expect(fitBoxes([box], dir, fov, aspect, 1.2).distance).toBeGreaterThan(fit.distance);
  });

  it('fits the parts themselves, not the empty corners of their union', () => {
    // An L: a post and an arm. Seen from the front, both fit; the centre is between them.
    const post = new Box3(new Vector3(0, -5, 0), new Vector3(10, 5, 100));
    const arm = new Box3(new Vector3(0, -5, 90), new Vector3(200, 5, 100));
    const fit = fitBoxes([post, arm], viewDirection('front'), 35, 1.5, 1);
    expect(fit.center.x).toBeCloseTo(100);
    expect(fit.center.z).toBeCloseTo(50);
    expect(fit.halfWidth).toBeCloseTo(100);
    expect(fit.halfHeight).toBeCloseTo(50);
    expect(fitBoxes([], viewDirection('iso'), 35, 1).distance).toBeGreaterThan(0);
  });
});
