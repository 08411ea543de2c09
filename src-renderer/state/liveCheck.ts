/**
 * The live check: while a part is dragged, the pairs it forms with the parts near it are checked
 * again and again at its current placement, and (optionally) the part stops at contact.
 *
 *  - **Candidates** come from the renderer's own bounds: the parts whose world boxes come within
 *    the reach of the moving part's world box (`liveCandidates`).
 *  - **A probe** sends a placement (`doc.update`), then checks each candidate pair there
 *    (`check.pair`): the pairs that cross (with their depth) or come within reach (their distance).
 *  - **One batch in flight**: placements arriving meanwhile replace each other; the newest is
 *    checked when the batch ends, at the next animation frame (`LiveChecker`).
 *  - **Stop at contact**: parts in contact when the drag began (a bolt resting in its hole: they
 *    cross or are within the touch tolerance) do not stop the part until they have been seen
 *    apart; any other crossing does. The part is only ever shown at placements known to be clear:
 *    probed, or within the clearance of a probed one (the distance to every other part bounds how
 *    far any point of the part may move without touching). Each move goes from where the part is
 *    shown towards the pointer (`advanceTowards`): the path is split until each piece is covered
 *    by the clearances at its ends, and where a probe crosses a part, the contact between the last
 *    clear probe and it is searched along the path — a step by the clearance when it covers half
 *    of what is left, else by halving — until it is within `toleranceMm`, or the part is within
 *    `toleranceMm` of a part it would cross (a part it only slides past does not stop it). The part stops there; a
 *    placement beyond the contact (the pointer pulled through a thin plate) is never reached, and
 *    pulling back frees the part.
 */
import type { HostApi } from '../../src-main/contract/host';
import { applyPoint } from '../../src-core/geometry/rigid';
import { aabbCorners, aabbGap, interpolatePlacement, transformAabb, type Aabb, type Transform, type Vec3 } from './placement';

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
// Probes

export interface LivePair {
  /** The other part. */
  readonly other: string;
  /** [triangle of the moving part, triangle of the other, …]. */
  readonly trianglePairs: Uint32Array;
  /** The distance when they do not intersect and it is within reach, else null. */
  readonly distanceMm: number | null;
  /** How deep they cross when they intersect and it was measured, else null. */
  readonly depthMm: number | null;
}

/** What a probe found at one placement. */
export interface Probe {
  readonly placement: Transform;
  /** Pairs that intersect or come within reach. */
  readonly pairs: readonly LivePair[];
  /** The parts checked. */
  readonly checked: number;
}

/** Checks the moving part at a placement. */
export type ProbeFn = (placement: Transform) => Promise<Probe>;

/** The parts other than `resting` the probe's placement crosses. */
export function blockersOf(probe: Probe, resting: ReadonlySet<string>): string[] {
  return probe.pairs.filter((p) => p.trianglePairs.length > 0 && !resting.has(p.other)).map((p) => p.other);
}

/**
 * A lower bound of the distance from the part at the probe's placement to every part other than
 * `resting` (0 when it crosses one): parts farther than `withinMm` (not checked, or no distance
 * within reach) count as `withinMm` away.
 */
export function clearanceOf(probe: Probe, resting: ReadonlySet<string>, withinMm: number): number {
  let c = withinMm;
  for (const p of probe.pairs) {
    if (resting.has(p.other)) continue;
    if (p.trianglePairs.length > 0) return 0;
    if (p.distanceMm !== null) c = Math.min(c, p.distanceMm);
  }
  return Math.max(0, c);
}

/** The distance from the part at the probe to the nearest of `ids` (0 crossing; Infinity beyond reach). */
export function distanceTo(probe: Probe, ids: readonly string[]): number {
  let d = Infinity;
  for (const p of probe.pairs) {
    if (!ids.includes(p.other)) continue;
    if (p.trianglePairs.length > 0) return 0;
    if (p.distanceMm !== null) d = Math.min(d, p.distanceMm);
  }
  return d;
}

/** The parts in contact at a probe: crossing, or within `touchMm`. */
export function contactsOf(probe: Probe, touchMm: number): string[] {
  return probe.pairs.filter((p) => p.trianglePairs.length > 0 || (p.distanceMm !== null && p.distanceMm <= touchMm)).map((p) => p.other);
}

// ------------------------------------------------------------------------------------------------
// Paths

/**
 * The longest path any point of the part (within its body box) travels from placement `a` to
 * `b` along `interpolatePlacement` (its centre on a line, its rotation slerped about `pivot`):
 * at most the centre's travel plus the turn angle times the farthest corner's distance from the
 * pivot. Exact for a translation.
 */
export function pathLength(a: Transform, b: Transform, box: Aabb, pivot: Vec3): number {
  const ca = applyPoint(a, pivot[0], pivot[1], pivot[2]), cb = applyPoint(b, pivot[0], pivot[1], pivot[2]);
  const travel = Math.hypot(cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]);
  // The angle of Raᵀ·Rb: trace = Σ (column i of Ra) · (column i of Rb).
  let trace = 0;
  for (let i = 0; i < 3; i++) trace += a[i] * b[i] + a[4 + i] * b[4 + i] + a[8 + i] * b[8 + i];
  const angle = Math.acos(Math.min(1, Math.max(-1, (trace - 1) / 2)));
  if (angle === 0) return travel;
  let r = 0;
  for (const c of aabbCorners(box)) r = Math.max(r, Math.hypot(c[0] - pivot[0], c[1] - pivot[1], c[2] - pivot[2]));
  return travel + angle * r;
}

/** A placement known to be clear, with a lower bound of its distance to the parts that stop the part. */
export interface Anchor {
  readonly placement: Transform;
  readonly clearance: number;
  /** What was found there; null for a placement known clear from another's clearance (not probed). */
  readonly probe: Probe | null;
}

export interface AdvanceOptions {
  /** The moving part's body box and the pivot its rotation is interpolated about (body frame). */
  readonly box: Aabb;
  readonly pivot: Vec3;
  /** Parts that do not stop it. */
  readonly resting: ReadonlySet<string>;
  /** Reach of the distances the probes report. */
  readonly withinMm: number;
  /** How close to the contact the part stops. */
  readonly toleranceMm: number;
  /** Probes per move at most. */
  readonly maxProbes: number;
}

export interface AdvanceResult {
  /**
   * Where the part may be shown: the target, the last clear placement before the first contact,
   * or — when the probes ran out before the path was known clear — the last placement known clear.
   */
  readonly reached: Anchor;
  /** The parts it would cross beyond `reached`; empty when it reached the target (or ran out of probes before a crossing). */
  readonly blockers: readonly string[];
  /** The probes ran out: `reached` is short of the target or of the contact, and the rest is still to search. */
  readonly partial: boolean;
  /** Probes made. */
  readonly probes: number;
}

interface Node extends Anchor {
  readonly blockers: readonly string[];
}

/**
 * Moves the part from `from` (clear) towards `target` along `interpolatePlacement`, as far as it
 * goes without crossing a part other than the resting ones (see the file comment).
 */
export async function advanceTowards(from: Anchor, target: Transform, probe: ProbeFn, o: AdvanceOptions): Promise<AdvanceResult> {
  let probes = 0;
  const measure = async (placement: Transform): Promise<Node> => {
    probes++;
    const p = await probe(placement);
    return { placement, probe: p, clearance: clearanceOf(p, o.resting, o.withinMm), blockers: blockersOf(p, o.resting) };
  };
  const length = (a: Transform, b: Transform) => pathLength(a, b, o.box, o.pivot);

  /**
   * The first crossing between a (clear) and b: the last clear node before it and the crossing
   * node (null when the probes ran out before the path from `clear` on was known clear); null
   * when the path is clear.
   */
  const firstBlock = async (a: Node, b: Node): Promise<{ clear: Node; blocked: Node | null } | null> => {
    if (b.blockers.length > 0) return { clear: a, blocked: b };
    // Touching a part on the way would take at least its distance from either end.
    if (length(a.placement, b.placement) <= a.clearance + b.clearance) return null;
    if (probes >= o.maxProbes) return { clear: a, blocked: null };
    const mid = await measure(interpolatePlacement(a.placement, b.placement, 0.5, o.pivot));
    return (await firstBlock(a, mid)) ?? (await firstBlock(mid, b));
  };

  const start: Node = { ...from, blockers: [] };
  const end = await measure(target);
  const hit = await firstBlock(start, end);
  if (hit === null) return { reached: end, blockers: [], partial: false, probes };
  if (hit.blocked === null) return { reached: hit.clear, blockers: [], partial: true, probes };

  // The contact between the last clear node and the first crossing one.
  let clear = hit.clear;
  let blocked: Node = hit.blocked;
  for (;;) {
    const left = length(clear.placement, blocked.placement);
    // Close enough, or touching a part it would cross (a part it only passes by does not stop it).
    if (left <= o.toleranceMm || (clear.probe !== null && distanceTo(clear.probe, blocked.blockers) <= o.toleranceMm)) break;
    if (probes >= o.maxProbes) return { reached: clear, blockers: blocked.blockers, partial: true, probes };
    // The clearance covers this fraction of what is left for sure: step by it when it is more than half.
    const safe = clear.clearance / left;
    const f = safe >= 0.5 ? Math.min(safe, 1 - o.toleranceMm / (2 * left)) : 0.5;
    const next = await measure(interpolatePlacement(clear.placement, blocked.placement, f, o.pivot));
    if (next.blockers.length > 0) blocked = next;
    else clear = next;
  }
  return { reached: clear, blockers: blocked.blockers, partial: false, probes };
}

// ------------------------------------------------------------------------------------------------
// The checker

export interface LiveReport {
  /** The placement the pairs were checked at (where the part is shown once it settles). */
  readonly placement: Transform;
  /** Pairs that intersect or come within reach there. */
  readonly pairs: readonly LivePair[];
  /** The parts checked. */
  readonly checked: number;
  /** Where the part is to be shown now. */
  readonly shown: Transform;
  /** With stop at contact: the parts it is stopped against (empty while it moves freely). */
  readonly stoppedBy: readonly string[];
  readonly phase: 'start' | 'drag';
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
  /** Surfaces closer than this are in contact (the document's touch tolerance). */
  readonly touchMm: number;
  readonly stopAtContact: boolean;
  /** Runs a batch at the next animation frame. */
  readonly schedule: (run: () => void) => void;
  readonly onReport: (report: LiveReport) => void;
  readonly onError: (error: unknown) => void;
  /** How close to the contact the part stops (default 0.01 mm). */
  readonly toleranceMm?: number;
  /** Probes per move at most (default 40). */
  readonly maxProbes?: number;
}

export class LiveChecker {
  private pending: Transform | null = null;
  private latest: Transform;
  private shownAt: Transform;
  /** Where the part is shown, as a clear anchor for the next move (stop at contact). */
  private from: Anchor | null = null;
  /** Where the host's document has the part. */
  private hostAt: Transform;
  private resting = new Set<string>();
  private stoppedBy: readonly string[] = [];
  private baselineDone = false;
  private running = false;
  private scheduled = false;
  private stopped = false;
  /** Bumped when the part is shown somewhere new without a probe (a batch's answer then is stale). */
  private moves = 0;
  private idle: (() => void)[] = [];

  constructor(private readonly o: LiveCheckerOptions) {
    this.latest = o.start;
    this.shownAt = o.start;
    this.hostAt = o.start;
    this.kick();
  }

  /** The part is dragged to `placement`: check it when the current batch ends. Returns where to show the part. */
  update(placement: Transform): Transform {
    if (this.stopped) return this.shown();
    this.latest = placement;
    this.pending = placement;
    if (!this.o.stopAtContact) {
      this.shownAt = placement;
    } else if (this.from !== null) {
      // Within the clearance of where it is shown, the part cannot touch anything: show it there now.
      const travel = pathLength(this.from.placement, placement, this.o.box, this.o.pivot);
      if (travel < this.from.clearance) {
        this.from = { placement, clearance: this.from.clearance - travel, probe: null };
        this.shownAt = placement;
        this.moves++;
      }
    }
    this.kick();
    return this.shown();
  }

  shown(): Transform {
    return this.shownAt;
  }

  /** Checks what is still pending and gives the placement to keep: the last one, or where it stopped at contact. */
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

  private hasWork(): boolean {
    return !this.baselineDone || this.pending !== null;
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

  /** Checks the candidate pairs at a placement (sent to the host first: it checks at the document's placements). */
  private async probe(placement: Transform, depth: boolean): Promise<Probe> {
    const { host, docId, partId, withinMm } = this.o;
    if (this.hostAt !== placement) {
      await host.docUpdate({ docId, transforms: { [partId]: [...placement] } });
      this.hostAt = placement;
    }
    const ids = liveCandidates(transformAabb(this.o.box, placement), this.o.others, withinMm);
    const checks = await Promise.all(ids.map((b) => host.checkPair({ docId, a: partId, b, withinMm, ...(depth ? { depth: true } : {}) })));
    const pairs: LivePair[] = [];
    for (const c of checks) {
      if (c.trianglePairs.length > 0 || c.distanceMm !== null) pairs.push({ other: c.b, trianglePairs: c.trianglePairs, distanceMm: c.distanceMm, depthMm: c.depthMm });
    }
    return { placement, pairs, checked: ids.length };
  }

  /** The probe with the depths of its crossing pairs measured (only those are asked again). */
  private async withDepths(p: Probe): Promise<Probe> {
    const crossing = p.pairs.filter((q) => q.trianglePairs.length > 0 && q.depthMm === null);
    if (crossing.length === 0) return p;
    const { host, docId, partId, withinMm } = this.o;
    if (this.hostAt !== p.placement) {
      await host.docUpdate({ docId, transforms: { [partId]: [...p.placement] } });
      this.hostAt = p.placement;
    }
    const again = await Promise.all(crossing.map((q) => host.checkPair({ docId, a: partId, b: q.other, withinMm, depth: true })));
    const depth = new Map(again.map((c) => [c.b, c.depthMm]));
    return { ...p, pairs: p.pairs.map((q) => (depth.has(q.other) ? { ...q, depthMm: depth.get(q.other) ?? null } : q)) };
  }

  private report(p: Probe, phase: LiveReport['phase']): void {
    this.o.onReport({ placement: p.placement, pairs: p.pairs, checked: p.checked, shown: this.shown(), stoppedBy: this.stoppedBy, phase });
  }

  private async runBatch(): Promise<void> {
    const { stopAtContact, withinMm, touchMm } = this.o;
    if (!this.baselineDone) {
      const p = await this.probe(this.o.start, true);
      if (this.stopped) return;
      this.baselineDone = true;
      this.resting = new Set(contactsOf(p, touchMm));
      if (this.moves === 0) this.from = { placement: this.o.start, clearance: clearanceOf(p, this.resting, withinMm), probe: p };
      this.report(p, 'start');
      return;
    }
    const target = this.pending;
    if (target === null) return;
    this.pending = null;
    if (!stopAtContact || this.from === null) {
      const p = await this.probe(target, true);
      if (this.stopped) return;
      this.report(p, 'drag');
      return;
    }
    const moves = this.moves;
    const result = await advanceTowards(this.from, target, (t) => this.probe(t, false), {
      box: this.o.box,
      pivot: this.o.pivot,
      resting: this.resting,
      withinMm,
      toleranceMm: this.o.toleranceMm ?? 0.01,
      maxProbes: this.o.maxProbes ?? 40,
    });
    if (this.stopped) return;
    let reached = result.reached.probe ?? (await this.probe(result.reached.placement, false));
    if (this.stopped) return;
    reached = await this.withDepths(reached);
    if (this.stopped) return;
    if (this.moves !== moves && this.from !== null) {
      // Shown meanwhile somewhere known clear: that stands (with the better of the two bounds of its
      // clearance), and the newest placement is checked from there.
      const via = clearanceOf(reached, this.resting, withinMm) - pathLength(reached.placement, this.from.placement, this.o.box, this.o.pivot);
      if (via > this.from.clearance) this.from = { ...this.from, clearance: via };
      if (this.pending === null) this.pending = this.latest;
      this.stoppedBy = [];
      this.report(reached, 'drag');
      return;
    }
    // Resting parts seen apart stop the part from now on.
    const touching = new Set(contactsOf(reached, touchMm));
    this.resting = new Set([...this.resting].filter((id) => touching.has(id)));
    this.from = { placement: reached.placement, clearance: clearanceOf(reached, this.resting, withinMm), probe: reached };
    this.shownAt = reached.placement;
    this.stoppedBy = result.blockers;
    // The rest of a long path is checked at the next batch.
    if (result.partial && this.pending === null) this.pending = target;
    this.report(reached, 'drag');
  }
}
