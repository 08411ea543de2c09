// Stop at contact: the search along the drag for where the part first touches, on a fake distance
// function (a unit cube over a 1 mm plate), and the checker that drives it while a part is dragged.
import { describe, expect, it } from 'vitest';
import type { PairCheck } from '../../src-main/contract/host';
import { advanceTowards, clearanceOf, LiveChecker, pathLength, type Anchor, type LiveReport, type Probe } from '../../src-renderer/state/liveCheck';
import { rotationFromEulerDeg, type Aabb, type Transform } from '../../src-renderer/state/placement';

const BOX: Aabb = { min: [0, 0, 0], max: [1, 1, 1] };
const PIVOT = [0.5, 0.5, 0.5] as const;
/** The plate's top and bottom (world z); it spans every x and y. */
const TOP = -9;
const BOTTOM = -10;
const WITHIN = 2;
const TOL = 0.01;

function at(z: number, x = 0): number[] {
  return [1, 0, 0, x, 0, 1, 0, 0, 0, 0, 1, z, 0, 0, 0, 1];
}

/** The cube placed at `t` against the plate: crossing, or its distance within reach (translations along z only matter). */
function plateCheck(t: Transform, withinMm = WITHIN): Omit<PairCheck, 'a' | 'b'> {
  const z = t[11];
  const above = z - TOP;
  const below = BOTTOM - (z + 1);
  if (above < 0 && below < 0) return { trianglePairs: Uint32Array.of(0, 0), distanceMm: null, depthMm: Math.min(-above, -below) };
  const d = Math.max(above, below);
  return { trianglePairs: new Uint32Array(0), distanceMm: d <= withinMm ? d : null, depthMm: null };
}

function fakeProbe(log: number[] = []): (t: Transform) => Promise<Probe> {
  return async (t) => {
    log.push(t[11]);
    const c = plateCheck(t);
    const pairs = c.trianglePairs.length > 0 || c.distanceMm !== null ? [{ other: 'plate', ...c }] : [];
    return { placement: t, pairs, checked: 1 };
  };
}

async function anchorAt(z: number, resting: ReadonlySet<string> = new Set()): Promise<Anchor> {
  const p = await fakeProbe()(at(z));
  return { placement: p.placement, clearance: clearanceOf(p, resting, WITHIN), probe: p };
}

const OPTIONS = { box: BOX, pivot: PIVOT, resting: new Set<string>(), withinMm: WITHIN, toleranceMm: TOL, maxProbes: 40 };

describe('the path of a drag', () => {
  it('is as long as the farthest point of the part travels', () => {
    expect(pathLength(at(0), at(3), BOX, PIVOT)).toBeCloseTo(3, 12);
    const r = rotationFromEulerDeg([0, 0, 90]);
    const turned = [r[0], r[1], r[2], 0, r[3], r[4], r[5], 0, r[6], r[7], r[8], 0, 0, 0, 0, 1];
    // A quarter turn about the origin: the centre travels 1 mm, and the corners (√0.75 from it) a quarter circle more at most.
    expect(pathLength(at(0), turned, BOX, PIVOT)).toBeCloseTo(1 + (Math.PI / 2) * Math.sqrt(0.75), 9);
  });
});

describe('searching the contact along a drag', () => {
  it('moves freely where the clearances cover the path, with one probe', async () => {
    const log: number[] = [];
    const r = await advanceTowards(await anchorAt(5), at(2), fakeProbe(log), OPTIONS);
    expect(r.blockers).toEqual([]);
    expect(r.reached.placement[11]).toBe(2);
    expect(log).toEqual([2]);
  });

  it('stops within the tolerance of the contact when the pointer goes into the plate, in few probes', async () => {
    const log: number[] = [];
    const r = await advanceTowards(await anchorAt(-7), at(-9.5), fakeProbe(log), OPTIONS);
    expect(r.blockers).toEqual(['plate']);
    const z = r.reached.placement[11];
    expect(z).toBeGreaterThanOrEqual(TOP);
    expect(z).toBeLessThanOrEqual(TOP + TOL);
    // Every probe but the crossing ones is clear, and none is shown: only `reached` is.
    expect(log.length).toBeLessThanOrEqual(6);
  });

  it('does not pass through the plate to a clear placement beyond it', async () => {
    const r = await advanceTowards(await anchorAt(-7), at(-14), fakeProbe(), OPTIONS);
    expect(r.blockers).toEqual(['plate']);
    expect(r.reached.placement[11]).toBeGreaterThanOrEqual(TOP);
    expect(r.reached.placement[11]).toBeLessThanOrEqual(TOP + TOL);
  });

  it('finds a contact along a long drag by bisection, without stepping', async () => {
    const log: number[] = [];
    // Sideways and down through the plate: the clearances cover little of the path.
    const r = await advanceTowards(await anchorAt(-5), at(-30, 10), fakeProbe(log), OPTIONS);
    expect(r.blockers).toEqual(['plate']);
    expect(r.reached.placement[11]).toBeGreaterThanOrEqual(TOP);
    expect(r.reached.placement[11]).toBeLessThanOrEqual(TOP + TOL);
    expect(log.length).toBeLessThanOrEqual(16);
  });

  it('goes no farther than it knows clear when the probes run out, and goes on from there', async () => {
    let from = await anchorAt(40);
    let partial = 0;
    for (let i = 0; i < 10; i++) {
      const r = await advanceTowards(from, at(-30, 25), fakeProbe(), { ...OPTIONS, maxProbes: 10 });
      expect(r.reached.placement[11]).toBeGreaterThanOrEqual(TOP);
      from = r.reached;
      if (r.partial) partial++;
      else {
        expect(r.blockers).toEqual(['plate']);
        break;
      }
    }
    expect(partial).toBeGreaterThan(0);
    expect(from.placement[11]).toBeLessThanOrEqual(TOP + TOL);
  });

  it('stays at the contact while the pointer stays beyond it, and pulling back frees it', async () => {
    const stop = await advanceTowards(await anchorAt(-7), at(-9.5), fakeProbe(), OPTIONS);
    const held = await advanceTowards(stop.reached, at(-9.8), fakeProbe(), OPTIONS);
    expect(held.blockers).toEqual(['plate']);
    expect(Math.abs(held.reached.placement[11] - stop.reached.placement[11])).toBeLessThanOrEqual(TOL);
    const back = await advanceTowards(held.reached, at(-6), fakeProbe(), OPTIONS);
    expect(back.blockers).toEqual([]);
    expect(back.reached.placement[11]).toBe(-6);
  });

  it('slides past a part it only comes near, to the one it would cross', async () => {
    // A wall 0.004 mm beside the cube's path all the way down: near, never crossed.
    const beside = (log: number[]) => {
      const plate = fakeProbe(log);
      return async (t: Transform): Promise<Probe> => {
        const p = await plate(t);
        return { ...p, pairs: [...p.pairs, { other: 'wall', trianglePairs: new Uint32Array(0), distanceMm: 0.004, depthMm: null }], checked: 2 };
      };
    };
    const log: number[] = [];
    const from = await beside([])(at(-5));
    const r = await advanceTowards({ placement: from.placement, clearance: clearanceOf(from, new Set(), WITHIN), probe: from }, at(-9.5), beside(log), OPTIONS);
    expect(r.blockers).toEqual(['plate']);
    expect(r.reached.placement[11]).toBeGreaterThanOrEqual(TOP);
    expect(r.reached.placement[11]).toBeLessThanOrEqual(TOP + TOL);
    expect(log.length).toBeLessThanOrEqual(12);
  });

  it('lets a resting part through', async () => {
    const resting = new Set(['plate']);
    const r = await advanceTowards(await anchorAt(-9.5, resting), at(-9.7), fakeProbe(), { ...OPTIONS, resting });
    expect(r.blockers).toEqual([]);
    expect(r.reached.placement[11]).toBe(-9.7);
  });
});

describe('the live checker with stop at contact', () => {
  /** A host with the cube (part 'm') and the plate, at the placements the checker sends. */
  function fakeHost() {
    let placed: Transform = at(-5);
    const host = {
      async docUpdate(req: { transforms?: Record<string, number[]> }) {
        placed = req.transforms?.m ?? placed;
        return Promise.resolve({} as never);
      },
      async checkPair(req: { b: string; withinMm?: number; depth?: boolean }) {
        const c = plateCheck(placed, req.withinMm);
        return Promise.resolve({ a: 'm', b: req.b, ...c, depthMm: req.depth ? c.depthMm : null });
      },
    };
    return host;
  }

  function checker(reports: LiveReport[]): LiveChecker {
    const frames: (() => void)[] = [];
    const c = new LiveChecker({
      host: fakeHost(),
      docId: 'doc-1',
      partId: 'm',
      start: at(-5),
      box: BOX,
      pivot: PIVOT,
      others: [{ id: 'plate', box: { min: [-100, -100, BOTTOM], max: [100, 100, TOP] } }],
      withinMm: WITHIN,
      touchMm: 0.05,
      stopAtContact: true,
      schedule: (run) => {
        frames.push(run);
        queueMicrotask(() => frames.shift()?.());
      },
      onReport: (r) => reports.push(r),
      onError: (e) => {
        throw e;
      },
    });
    return c;
  }

  async function settle(): Promise<void> {
    for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 0));
  }

  it('never shows the part past the contact, reports where it stopped, and keeps it on release', async () => {
    const reports: LiveReport[] = [];
    const c = checker(reports);
    const shown: number[] = [];
    for (let z = -5; z >= -14; z -= 0.7) {
      shown.push(c.update(at(z))[11]);
      await settle();
    }
    shown.push(...reports.map((r) => r.shown[11]));
    for (const z of shown) expect(z).toBeGreaterThanOrEqual(TOP);
    const last = reports.at(-1)!;
    expect(last.stoppedBy).toEqual(['plate']);
    // What the report lists is where the part is shown.
    expect(last.placement).toEqual(last.shown);
    expect(last.shown[11]).toBeLessThanOrEqual(TOP + 0.01);
    const kept = await c.finish();
    expect(kept).toEqual(last.shown);
  });

  it('is freed by pulling back', async () => {
    const reports: LiveReport[] = [];
    const c = checker(reports);
    c.update(at(-12));
    await settle();
    expect(reports.at(-1)?.stoppedBy).toEqual(['plate']);
    c.update(at(-6));
    await settle();
    expect(reports.at(-1)?.stoppedBy).toEqual([]);
    expect(await c.finish()).toEqual(at(-6));
  });
});
