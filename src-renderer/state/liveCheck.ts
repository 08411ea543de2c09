/**
 * The live check: while a part is dragged, the pairs it forms with the parts near it are checked
 * again and again at its current placement, and (optionally) the part stops at contact.
 *
 *  - **Candidates** come from the renderer's own bounds: the parts whose world boxes come within
 *    the reach of the moving part's world box (`liveCandidates`).
 *  - **One batch in flight**: a batch sends the placement (`doc.update`), then checks each
 *    candidate pair (`check.pair`). Placements arriving meanwhile replace each other; the newest
 *    is checked when the batch ends, at the next animation frame (`LiveChecker`).
 *  - **Stop at contact** (`ContactGuard`): pairs already intersecting when the drag began (a bolt
 *    resting in its hole) do not stop the part until they have been seen apart; any other
 *    intersecting pair does. The part is then shown at the last clear placement, and the checker
 *    halves the step between it and the nearest blocked placement until the part stops within
 *    `refineToleranceMm` of the contact. A clear placement beyond the contact (the pointer pulled
 *    through a thin plate) is not accepted; one backing away frees the part again.
 */
import type { HostApi } from '../../src-main/contract/host';
import {
  aabbGap,
  cornerMotion,
  dot,
  interpolatePlacement,
  largestMotion,
  transformAabb,
  type Aabb,
  type Transform,
  type Vec3,
} from './placement';

/** A part's world box. */
export interface PartBox {
  readonly id: string;
  readonly box: Aabb;
}

/** Candidates checked per batch at most (the nearest). */
export const MAX_LIVE_CANDIDATES = 48;

/** The ids of the parts whose boxes come within `marginMm` of `moving`, nearest first. */
export function liveCandidates(moving: Aabb, others: readonly PartBox[], marginMm: number, limit = MAX_LIVE_CANDIDATES): string[] {
  const near: { id: string; gap: number }[] = [];
  for (const o of others) {
    const gap = aabbGap(moving, o.box);
    if (gap <= marginMm) near.push({ id: o.id, gap });
  }
  near.sort((x, y) => x.gap - y.gap || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  return near.slice(0, limit).map((n) => n.id);
}

// ------------------------------------------------------------------------------------------------
// Stop at contact

export interface ContactGuard {
  /** Parts intersecting the moving part since the drag began and not seen apart since. */
  readonly resting: ReadonlySet<string>;
  /** The last placement found clear of any other contact. */
  readonly lastClear: Transform;
  /** The nearest placement found in a new contact, or null while the part moves freely. */
  readonly blockedAt: Transform | null;
  /** The parts it touches at `blockedAt`. */
  readonly blockers: readonly string[];
}

export function startGuard(start: Transform, resting: Iterable<string>): ContactGuard {
  return { resting: new Set(resting), lastClear: start, blockedAt: null, blockers: [] };
}

/** The guard after the placement `placed` was found intersecting the parts `intersecting`. */
export function updateGuard(g: ContactGuard, placed: Transform, intersecting: readonly string[], box: Aabb): ContactGuard {
  const blockers = intersecting.filter((id) => !g.resting.has(id));
  if (blockers.length > 0) {
    if (g.blockedAt === null || largestMotion(g.lastClear, placed, box) < largestMotion(g.lastClear, g.blockedAt, box)) {
      return { ...g, blockedAt: placed, blockers };
    }
    return g;
  }
  const now = new Set(intersecting);
  const resting = new Set([...g.resting].filter((id) => now.has(id)));
  if (g.blockedAt === null) return { resting, lastClear: placed, blockedAt: null, blockers: [] };
  // Clear while stopped: how far along the blocked motion is it?
  const toBlock = cornerMotion(g.lastClear, g.blockedAt, box);
  const along = dot(cornerMotion(g.lastClear, placed, box), toBlock) / Math.max(dot(toBlock, toBlock), 1e-30);
  if (along >= 1) return g;
  if (along <= 0) return { resting, lastClear: placed, blockedAt: null, blockers: [] };
  return { resting, lastClear: placed, blockedAt: g.blockedAt, blockers: g.blockers };
}

/** The next placement to check to narrow down the contact, or null when it is close enough. */
export function refinementStep(g: ContactGuard, box: Aabb, pivot: Vec3, toleranceMm: number): Transform | null {
  if (g.blockedAt === null) return null;
  if (largestMotion(g.lastClear, g.blockedAt, box) <= toleranceMm) return null;
  return interpolatePlacement(g.lastClear, g.blockedAt, 0.5, pivot);
}

/** Where the part is shown: at the last clear placement while stopped, else where it is dragged. */
export function guardedPlacement(g: ContactGuard | null, candidate: Transform): Transform {
  return g !== null && g.blockedAt !== null ? g.lastClear : candidate;
}

// ------------------------------------------------------------------------------------------------
// The checker

export interface LivePair {
  /** The other part. */
  readonly other: string;
  /** [triangle of the moving part, triangle of the other, …]. */
  readonly trianglePairs: Uint32Array;
  /** The distance when they do not intersect and it is within reach, else null. */
  readonly distanceMm: number | null;
}

export interface LiveReport {
  /** The placement checked. */
  readonly placement: Transform;
  /** Pairs that intersect or come within reach. */
  readonly pairs: readonly LivePair[];
  /** The parts checked. */
  readonly checked: number;
  /** Where the part is to be shown now. */
  readonly shown: Transform;
  /** With stop at contact: the parts it is stopped against (empty while it moves freely). */
  readonly stoppedBy: readonly string[];
  readonly phase: 'start' | 'drag' | 'refine';
}

export interface LiveCheckerOptions {
  readonly host: Pick<HostApi, 'docUpdate' | 'checkPair'>;
  readonly docId: string;
  readonly partId: string;
  /** The placement when the drag began. */
  readonly start: Transform;
  /** The moving part's body box and centre (body frame). */
  readonly box: Aabb;
  readonly pivot: Vec3;
  /** World boxes of the other parts. */
  readonly others: readonly PartBox[];
  /** Reach of the candidates and of the distances reported. */
  readonly withinMm: number;
  readonly stopAtContact: boolean;
  /** Runs a batch at the next animation frame. */
  readonly schedule: (run: () => void) => void;
  readonly onReport: (report: LiveReport) => void;
  readonly onError: (error: unknown) => void;
  readonly refineToleranceMm?: number;
  readonly maxRefineSteps?: number;
}

export class LiveChecker {
  private pending: Transform | null = null;
  private latest: Transform;
  private baselineDone = false;
  private running = false;
  private scheduled = false;
  private stopped = false;
  private guard: ContactGuard | null = null;
  private refineLeft = 0;
  private idle: (() => void)[] = [];

  constructor(private readonly o: LiveCheckerOptions) {
    this.latest = o.start;
    this.kick();
  }

  /** The part is dragged to `placement`: check it when the current batch ends. Returns where to show the part. */
  update(placement: Transform): Transform {
    if (this.stopped) return this.shown();
    this.latest = placement;
    this.pending = placement;
    this.kick();
    return this.shown();
  }

  shown(): Transform {
    return this.o.stopAtContact ? guardedPlacement(this.guard, this.latest) : this.latest;
  }

  /** Checks what is still pending and gives the placement to keep: the last one, or the last clear one when stopped at contact. */
  async finish(): Promise<Transform> {
    while (!this.stopped && (this.running || this.scheduled || this.hasWork())) {
      await new Promise<void>((resolve) => this.idle.push(resolve));
    }
    this.stopped = true;
    return this.shown();
  }

  /** Stops checking (the document went away, or the drag was abandoned). */
  cancel(): void {
    this.stopped = true;
    this.wakeIdle();
  }

  private refinement(): Transform | null {
    if (!this.o.stopAtContact || this.guard === null || this.refineLeft <= 0) return null;
    return refinementStep(this.guard, this.o.box, this.o.pivot, this.o.refineToleranceMm ?? 0.01);
  }

  private hasWork(): boolean {
    return !this.baselineDone || this.pending !== null || this.refinement() !== null;
  }

  private wakeIdle(): void {
    const waiting = this.idle;
    this.idle = [];
    for (const resolve of waiting) resolve();
  }

  private kick(): void {
    if (this.running || this.scheduled) return;
    if (this.stopped || !this.hasWork()) {
      this.wakeIdle();
      return;
    }
    this.scheduled = true;
    this.o.schedule(() => {
      this.scheduled = false;
      if (this.stopped) {
        this.wakeIdle();
        return;
      }
      this.running = true;
      this.runBatch()
        .catch((error: unknown) => {
          this.stopped = true;
          this.o.onError(error);
        })
        .finally(() => {
          this.running = false;
          this.kick();
        });
    });
  }

  private async runBatch(): Promise<void> {
    const { host, docId, partId } = this.o;
    let placement: Transform;
    let phase: LiveReport['phase'];
    const refine = this.refinement();
    if (!this.baselineDone) {
      placement = this.o.start;
      phase = 'start';
    } else if (refine !== null) {
      placement = refine;
      phase = 'refine';
      this.refineLeft--;
    } else if (this.pending !== null) {
      placement = this.pending;
      this.pending = null;
      phase = 'drag';
    } else {
      return;
    }
    // The host checks pairs at the document's placements: send this one first (the start is there already).
    if (phase !== 'start') await host.docUpdate({ docId, transforms: { [partId]: [...placement] } });
    const ids = liveCandidates(transformAabb(this.o.box, placement), this.o.others, this.o.withinMm);
    const checks = await Promise.all(ids.map((b) => host.checkPair({ docId, a: partId, b, withinMm: this.o.withinMm })));
    if (this.stopped) return;
    const pairs: LivePair[] = [];
    const intersecting: string[] = [];
    for (const c of checks) {
      if (c.trianglePairs.length > 0) intersecting.push(c.b);
      if (c.trianglePairs.length > 0 || c.distanceMm !== null) pairs.push({ other: c.b, trianglePairs: c.trianglePairs, distanceMm: c.distanceMm });
    }
    if (phase === 'start') {
      this.baselineDone = true;
      this.guard = startGuard(placement, intersecting);
    } else if (this.guard !== null) {
      const wasFree = this.guard.blockedAt === null;
      this.guard = updateGuard(this.guard, placement, intersecting, this.o.box);
      if (wasFree && this.guard.blockedAt !== null) this.refineLeft = this.o.maxRefineSteps ?? 14;
    }
    const stoppedBy = this.o.stopAtContact && this.guard?.blockedAt ? this.guard.blockers : [];
    this.o.onReport({ placement, pairs, checked: ids.length, shown: this.shown(), stoppedBy, phase });
  }
}
