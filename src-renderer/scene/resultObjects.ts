/**
 * The three objects of a result's finding — its overlap solid (fill, edges, cap material) and its
 * intersection curves (thick lines, patches) — built once per result of a check and reused when
 * its row is selected again. Objects built for other placements of the result's parts replace
 * the old ones (disposed by `sweep` once they are no longer drawn); a new check or another
 * document (or none) disposes them all (`bindResultObjects`). Each geometry and material is
 * disposed exactly once.
 *
 * The code that computes and builds them runs once ahead, on a made-up pair, when the page is first
 * idle (`warmResultCode`): the first selection no longer waits for it to be compiled. After a
 * check, the curves of the first results in the table are built while the page is idle
 * (`prepareResultCurves`), so that selecting a row finds them ready.
 */
import { BufferAttribute, BufferGeometry, DoubleSide, EdgesGeometry, MeshBasicMaterial } from 'three';
import { LineMaterial } from 'three/examples/jsm/lines/LineMaterial.js';
import { LineSegments2 } from 'three/examples/jsm/lines/LineSegments2.js';
import { LineSegmentsGeometry } from 'three/examples/jsm/lines/LineSegmentsGeometry.js';
import type { OverlapSolidInfo, PairResultInfo, PartInfo } from '../../src-main/contract/host';
import { resultKey, sortResults } from '../state/results';
import type { AppState } from '../state/types';
import { intersectionCurves, type IntersectionCurves } from './intersectionCurves';
import { KIND_CLEARANCE, KIND_CONTACT, KIND_INTERFERENCE, KIND_UNDECIDED, OVERLAP_CAP, OVERLAP_EDGE, OVERLAP_FILL } from './palette';
import { resultCurves } from './resultCurves';
import { makeCapMaterial } from './section';

/**
 * Objects kept per result key, each built for one `variant` (what it was built from, compared by
 * identity): asked for another variant, the key's objects are built again and the old ones wait
 * in `retired` until `sweep`.
 */
export class ResultObjectCache<T> {
  private readonly entries = new Map<string, { variant: unknown; value: T }>();
  private readonly retired: T[] = [];

  constructor(private readonly disposeValue: (value: T) => void) {}

  /** The objects of `key` built from `variant`, built by `make` when there are none yet. */
  get(key: string, variant: unknown, make: () => T): T {
    const entry = this.entries.get(key);
    if (entry && entry.variant === variant) return entry.value;
    const value = make();
    if (entry) this.retired.push(entry.value);
    this.entries.set(key, { variant, value });
    return value;
  }

  /** Whether `key` has objects built from `variant`. */
  has(key: string, variant: unknown): boolean {
    return this.entries.get(key)?.variant === variant;
  }

  /** How many results have objects. */
  get size(): number {
    return this.entries.size;
  }

  /** Disposes the objects `get` replaced (call once they are no longer drawn). */
  sweep(): void {
    for (const value of this.retired.splice(0)) this.disposeValue(value);
  }

  /** Disposes every object (the results they belong to are gone). */
  clear(): void {
    const values = [...this.entries.values()].map((e) => e.value);
    this.entries.clear();
    for (const value of values) this.disposeValue(value);
    this.sweep();
  }
}

// ------------------------------------------------------------------------------------------------
// The overlap solid

/** Edges between faces meeting at more than this angle (degrees) are drawn. */
const EDGE_ANGLE_DEG = 25;
const EDGE_WIDTH_PX = 2.5;

export interface OverlapObjects {
  readonly geometry: BufferGeometry;
  readonly lines: LineSegments2;
  readonly lineGeometry: LineSegmentsGeometry;
  readonly edgeMaterial: LineMaterial;
  readonly fill: MeshBasicMaterial;
  readonly cap: MeshBasicMaterial;
}

/** The fill, the thick dark edges and the section cap's material of an overlap solid. */
export function buildOverlapObjects(solid: OverlapSolidInfo): OverlapObjects {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(solid.positions, 3));
  geometry.setIndex(new BufferAttribute(solid.indices, 1));
  geometry.computeBoundingSphere();
  const edges = new EdgesGeometry(geometry, EDGE_ANGLE_DEG);
  const lineGeometry = new LineSegmentsGeometry().fromEdgesGeometry(edges);
  edges.dispose();
  const edgeMaterial = new LineMaterial({ color: OVERLAP_EDGE, linewidth: EDGE_WIDTH_PX, transparent: true, opacity: 0.95, depthTest: false, depthWrite: false, toneMapped: false });
  const lines = new LineSegments2(lineGeometry, edgeMaterial);
  lines.renderOrder = 8;
  lines.raycast = noRaycast;
  const fill = new MeshBasicMaterial({ color: OVERLAP_FILL, side: DoubleSide, transparent: true, opacity: 0.55, depthTest: false, depthWrite: false, toneMapped: false });
  const cap = makeCapMaterial(new MeshBasicMaterial({ color: OVERLAP_CAP, side: DoubleSide, toneMapped: false }));
  return { geometry, lines, lineGeometry, edgeMaterial, fill, cap };
}

function disposeOverlapObjects(o: OverlapObjects): void {
  o.geometry.dispose();
  o.lineGeometry.dispose();
  o.edgeMaterial.dispose();
  o.fill.dispose();
  o.cap.dispose();
}

// ------------------------------------------------------------------------------------------------
// The intersection curves

/** Line widths in CSS pixels: visible, and through the parts. */
export const CURVE_WIDTH = 3.5;
export const CURVE_WIDTH_THROUGH = 2;

export function curveColor(kind: string): string {
  return kind === 'interference' ? KIND_INTERFERENCE : kind === 'clearance' ? KIND_CLEARANCE : kind === 'undecided' ? KIND_UNDECIDED : KIND_CONTACT;
}

export interface CurveObjects {
  /** The curves drawn solid where visible and fainter through the parts, on one geometry. */
  readonly lines: { readonly front: LineSegments2; readonly through: LineSegments2; readonly geometry: LineSegmentsGeometry } | null;
  readonly patches: { readonly geometry: BufferGeometry; readonly material: MeshBasicMaterial } | null;
}

/** The thick lines and patches of a result's curves (null when there are none). */
export function buildCurveObjects(curves: IntersectionCurves | null, kind: string): CurveObjects | null {
  if (!curves || (curves.segments.length === 0 && curves.patches.length === 0)) return null;
  const color = curveColor(kind);
  let lines: CurveObjects['lines'] = null;
  if (curves.segments.length > 0) {
    const geometry = new LineSegmentsGeometry();
    geometry.setPositions(curves.segments);
    const front = new LineSegments2(geometry, new LineMaterial({ color, linewidth: CURVE_WIDTH, toneMapped: false }));
    const through = new LineSegments2(geometry, new LineMaterial({ color, linewidth: CURVE_WIDTH_THROUGH, transparent: true, opacity: 0.55, depthTest: false, depthWrite: false, toneMapped: false }));
    front.renderOrder = 9;
    through.renderOrder = 10;
    for (const l of [front, through]) {
      l.raycast = noRaycast;
      l.computeLineDistances();
    }
    lines = { front, through, geometry };
  }
  let patches: CurveObjects['patches'] = null;
  if (curves.patches.length > 0) {
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(curves.patches, 3));
    geometry.computeBoundingSphere();
    const material = new MeshBasicMaterial({ color, side: DoubleSide, transparent: true, opacity: 0.6, depthTest: false, depthWrite: false, toneMapped: false });
    patches = { geometry, material };
  }
  return { lines, patches };
}

function disposeCurveObjects(o: CurveObjects | null): void {
  if (!o) return;
  if (o.lines) {
    o.lines.geometry.dispose();
    (o.lines.front.material as LineMaterial).dispose();
    (o.lines.through.material as LineMaterial).dispose();
  }
  if (o.patches) {
    o.patches.geometry.dispose();
    o.patches.material.dispose();
  }
}

// ------------------------------------------------------------------------------------------------
// The window's caches

/** The overlap solids' objects, by result key; variant: the solid (OverlapSolidInfo). */
export const overlapObjects = new ResultObjectCache<OverlapObjects>(disposeOverlapObjects);
/** The curves' objects, by result key; variant: the curves (resultCurves' IntersectionCurves). */
export const curveObjects = new ResultObjectCache<CurveObjects | null>(disposeCurveObjects);

/** The curve objects of `result` between its parts as placed in `parts` (null: none, or a body not loaded). */
export function curveObjectsOf(result: PairResultInfo, parts: readonly PartInfo[], geometryVersion: number): CurveObjects | null {
  const curves = resultCurves(result, parts, geometryVersion);
  if (!curves) return null;
  return curveObjects.get(resultKey(result), curves, () => buildCurveObjects(curves, result.kind));
}

interface StoreLike {
  getState(): AppState;
  subscribe(listener: (state: AppState, prev: AppState) => void): () => void;
}

/**
 * Disposes the results' objects when a check's outcome replaces them, or the document closes or
 * another opens. The selected result's components re-render from the new state before the next
 * frame (a store change renders synchronously), so nothing disposed is drawn again.
 */
export function bindResultObjects(store: StoreLike, caches: readonly { clear(): void }[] = [overlapObjects, curveObjects]): () => void {
  return store.subscribe((s, prev) => {
    if (s.check.outcome !== prev.check.outcome || s.doc?.id !== prev.doc?.id) for (const c of caches) c.clear();
  });
}

// ------------------------------------------------------------------------------------------------
// Prepared while idle

/** How many results of a check (in the table's order) get their curves built ahead. */
const PREPARE_RESULTS = 40;
/**
 * How long (ms) after the check the preparation waits: a row clicked at once is not kept waiting
 * behind it (its code has run ahead, warmResultCode); one clicked later finds its curves built.
 */
const PREPARE_DELAY_MS = 300;
/**
 * Time (ms) an idle slice must have left to start on another result, and the most it spends: a
 * click that comes meanwhile waits for no more than that (and the result in hand).
 */
const PREPARE_SLICE_MS = 6;

interface IdleDeadline {
  timeRemaining(): number;
}

/** The page's idle callbacks (absent in Node, where tests run this). */
const idle = globalThis as unknown as {
  requestIdleCallback?: (run: (deadline: IdleDeadline) => void, options?: { timeout: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
};

/**
 * Builds the curve objects of the outcome's first results, in the table's order, one at a time
 * while the page is idle; stops when the outcome, the placements or the geometry change, or a
 * part is dragged. Returns a function that stops it.
 */
export function prepareResultCurves(store: StoreLike): () => void {
  const start = store.getState();
  const outcome = start.check.outcome;
  if (!outcome || !start.doc || outcome.results.length === 0) return () => {};
  const queue = sortResults(outcome.results, start.partNames, start.resultSort)
    .filter((r) => r.kind !== 'ignored' && r.trianglePairs.length > 0)
    .slice(0, PREPARE_RESULTS);
  let handle: number | null = null;
  let stopped = false;
  const step = (deadline: IdleDeadline) => {
    handle = null;
    const s = store.getState();
    if (stopped || s.check.outcome !== outcome || !s.doc || s.doc.parts !== start.doc?.parts || s.geometry.version !== start.geometry.version) return;
    if (s.drag === null) {
      const until = performance.now() + PREPARE_SLICE_MS;
      while (queue.length > 0 && deadline.timeRemaining() >= PREPARE_SLICE_MS && performance.now() < until) {
        const result = queue.shift() as PairResultInfo;
        curveObjectsOf(result, s.doc.parts, s.geometry.version);
      }
    }
    if (queue.length > 0) schedule();
  };
  const schedule = () => {
    if (idle.requestIdleCallback) handle = idle.requestIdleCallback(step, { timeout: 2000 });
    else handle = setTimeout(() => step({ timeRemaining: () => 50 }), 50) as unknown as number;
  };
  const delay = setTimeout(schedule, PREPARE_DELAY_MS);
  return () => {
    stopped = true;
    clearTimeout(delay);
    if (handle === null) return;
    if (idle.cancelIdleCallback) idle.cancelIdleCallback(handle);
    else clearTimeout(handle);
  };
}

// ------------------------------------------------------------------------------------------------
// The code, run ahead

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
let codeWarmed = false;

/**
 * Runs the code a selected result needs once, on a small made-up pair, so that the first
 * selection does not wait for it to be compiled (and run cold): the curves of a few hundred
 * triangle pairs (crossing and coplanar), their thick lines and patches, an overlap solid's fill
 * and edges — all built and disposed (never drawn). Called once, when the page is idle.
 */
export function warmResultCode(): void {
  if (codeWarmed) return;
  codeWarmed = true;
  const a = { positions: new Float32Array([0, 0, 0, 10, 0, 0, 0, 10, 0]), indices: new Uint32Array([0, 1, 2]) };
  // Triangle 0 of b crosses a's plane; triangle 1 lies on it.
  const b = { positions: new Float32Array([2, 1, -1, 2, 4, 1, 2, 6, -1, 1, 1, 0, 3, 1, 0, 1, 3, 0]), indices: new Uint32Array([0, 1, 2, 3, 4, 5]) };
  const pairs = new Uint32Array(400);
  for (let i = 0; i < pairs.length; i += 4) pairs.set([0, 0, 0, 1], i);
  disposeCurveObjects(buildCurveObjects(intersectionCurves(pairs, a, IDENTITY, b, IDENTITY), 'contact'));
  const tetra: OverlapSolidInfo = {
    a: 'a',
    b: 'b',
    positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
    indices: new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]),
    volumeMm3: 1 / 6,
  };
  disposeOverlapObjects(buildOverlapObjects(tetra));
}

function noRaycast(): void {
  // Findings are not picked: the parts under them are.
}
