/**
 * Where checks run: one interface, CheckRunner, for the whole check of a document (the broad
 * phase, triangle pairs, classification, volumes and refinement rounds, src-core/check) and the
 * queries of one pair (`check.pair`, `check.trace`, `check.overlap`), with two implementations:
 *
 * - `InProcessCheckRunner` (this file): in the caller's process. The command line checks here (it
 *   has no window to keep responsive), and tests may;
 * - `ChildCheckRunner` (./checkChild.ts): in a compute child (compute/checkWorker.ts; a Node child
 *   process, or Electron's utilityProcess in the app), which keeps each document's bodies so they
 *   cross once. The host service uses it, so the Electron main process never computes a check.
 *
 * Both run the same code (`checkWithRefinement`, `pairHits`, `pairTrace`, `overlapSolid` below);
 * the child runs it on the bodies it was sent. Refinement reads CAD files again: that stays with
 * the caller's Refiner (./refiner.ts, which reads and builds trees in the host), which the child
 * asks for each finer body it needs.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { runCheck } from '../../src-core/check/check.js';
import { crossingDepth } from '../../src-core/check/depth.js';
import { edgeReport } from '../../src-core/geometry/meshProps.js';
import { refineCheck, type RefineLimits, type Refiner } from '../../src-core/check/refine.js';
import type { CheckPart, CheckProgress, CheckRequest, CheckResult, CheckSettings, IgnorePair } from '../../src-core/check/types.js';
import type { ManifoldToplevel } from 'manifold-3d';
import { OverlapEngine, type SolidCache } from '../../src-core/check/volume.js';
import { collidePlaced } from '../../src-core/collide/collide.js';
import { minDistance } from '../../src-core/collide/proximity.js';
import { traceCollide } from '../../src-core/collide/trace.js';
import { parseRigid, relative } from '../../src-core/geometry/rigid.js';
import type { TriangleMesh } from '../../src-core/geometry/mesh.js';
import type { ObbTree } from '../../src-core/obbtree/layout.js';
import type { OverlapSolid, PairHits, PairTrace } from '../contract/compute.js';
import type { Body } from './bodies.js';
import { loadManifold } from './manifoldNode.js';
import { workerVolumes, type VolumeSession } from './volumeWorker.js';

/** A distinct body as a check needs it (./bodies.ts Body). */
export type CheckBody = Pick<Body, 'key' | 'mesh' | 'tree' | 'chordErrorMm' | 'chordSide' | 'faceRanges' | 'surfaces'>;

/** A body placed: a part as a pair query sees it. */
export interface PlacedBody {
  readonly id: string;
  readonly body: CheckBody;
  /** Body → world, row-major 4×4 (or 3×4). */
  readonly transform: Float64Array;
}

export interface RunnerPart extends PlacedBody {
  readonly name: string;
  /** Which CAD source's body it places, when it can be read again finer. */
  readonly refine: { readonly sourceKey: string; readonly bodyIndex: number } | null;
}

/** A check of one document (its bodies are named by key, the same key for the same body). */
export interface RunCheckInput {
  /** The document: a runner that keeps bodies keeps them under this id until `forget`. */
  readonly docId: string;
  readonly parts: readonly RunnerPart[];
  readonly settings: CheckSettings;
  readonly ignore: readonly IgnorePair[];
  readonly scope?: CheckRequest['scope'];
}

export interface RunCheckOptions {
  /** Aborting rejects with an error named 'AbortError'. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: CheckProgress) => void;
  /** Refines undecided CAD pairs when given (src-core/check/refine.ts). */
  readonly refiner?: Refiner | null;
  readonly refineLimits?: Partial<RefineLimits>;
  /**
   * The document's bodies in the volume worker, sent (and converted) before the check
   * (./volumeWorker.ts): the in-process runner's volumes use it; a child runner ignores it.
   */
  readonly volumeSession?: VolumeSession;
}

export interface CheckRunner {
  readonly kind: 'in-process' | 'child';
  /** The whole check, refinement rounds included. */
  runCheck(input: RunCheckInput, options?: RunCheckOptions): Promise<CheckResult>;
  /** `check.pair`: intersecting triangle pairs, and the distance within `withinMm` when there are none. */
  /** With `depth`, how deep crossing surfaces reach into each other (src-core/check/depth.ts). */
  pairHits(docId: string, a: PlacedBody, b: PlacedBody, withinMm: number | null, depth?: boolean): Promise<PairHits>;
  /** `check.trace`: what the tree query of the pair visited and tested. */
  pairTrace(docId: string, a: PlacedBody, b: PlacedBody, limits: { maxDepth?: number; maxBoxes?: number }): Promise<PairTrace>;
  /** `check.overlap`: the overlap solid (manifold-3d), null when there is none. */
  overlap(docId: string, a: PlacedBody, b: PlacedBody): Promise<OverlapSolid>;
  /** The document is closed: its bodies are dropped. */
  forget(docId: string): void;
  dispose(): Promise<void>;
}

// ------------------------------------------------------------------------------------------------
// The computations, wherever they run

/** The check parts of a run: a body's arrays, shared, and the part's placement. */
export function checkPartsOf(parts: readonly RunnerPart[]): CheckPart[] {
  return parts.map((p) => {
    const b = p.body;
    return {
      id: p.id, name: p.name, mesh: b.mesh, tree: b.tree, transform: p.transform,
      chordErrorMm: b.chordErrorMm, chordSide: b.chordSide, faceRanges: b.faceRanges, surfaces: b.surfaces, refine: p.refine,
    };
  });
}

/** runCheck, then refinement rounds for what it left undecided (when a refiner is given). */
export async function checkWithRefinement(
  request: CheckRequest,
  options: {
    readonly signal?: { readonly aborted: boolean };
    readonly onProgress?: (p: CheckProgress) => void;
    readonly refiner?: Refiner | null;
    readonly refineLimits?: Partial<RefineLimits>;
    readonly yieldToHost?: () => Promise<void>;
    /** The document's bodies' solids, kept for its later checks (src-core/check/volume.ts). */
    readonly solids?: (wasm: ManifoldToplevel) => SolidCache;
    /**
     * Interference volumes in a worker thread while the pairs are tested (./volumeWorker.ts), for
     * a check whose solids are not kept (`solids` absent): the command line's.
     */
    readonly volumesInWorker?: boolean;
    /** With `volumesInWorker`: the document's bodies there, sent before the check. */
    readonly volumeSession?: VolumeSession;
  },
): Promise<CheckResult> {
  const session = options.volumeSession;
  const checkOptions = {
    manifold: loadManifold,
    ...(options.solids ? { solids: options.solids }
      : options.volumesInWorker ? { volumes: session ? (origin: [number, number, number]) => session.volumes(origin) : workerVolumes } : {}),
    signal: options.signal,
    onProgress: options.onProgress,
    now: () => performance.now(),
    ...(options.yieldToHost ? { yieldToHost: options.yieldToHost } : {}),
  };
  const first = await runCheck(request, checkOptions);
  if (!options.refiner || !first.results.some((r) => r.kind === 'undecided')) return first;
  return refineCheck(request, first, options.refiner, { ...checkOptions, ...(options.refineLimits ? { limits: options.refineLimits } : {}) });
}

const closedness = new WeakMap<TriangleMesh, boolean>();
const isClosed = (m: TriangleMesh): boolean => {
  let c = closedness.get(m);
  if (c === undefined) { c = edgeReport(m).closed; closedness.set(m, c); }
  return c;
};

/**
 * Intersecting triangle pairs of two placed bodies; with `depth`, how deep they cross (the deepest
 * point of either surface inside the other); their distance within `withinMm` when none cross.
 */
export function pairHits(
  a: Pick<CheckBody, 'mesh' | 'tree' | 'chordErrorMm'>, placementA: Float64Array,
  b: Pick<CheckBody, 'mesh' | 'tree' | 'chordErrorMm'>, placementB: Float64Array,
  withinMm: number | null, depth = false,
): PairHits {
  const ma = parseRigid(placementA), mb = parseRigid(placementB);
  const hits = collidePlaced(a.tree, ma, b.tree, mb, 'all');
  let distanceMm: number | null = null, depthMm: number | null = null;
  if (hits.pairCount > 0 && depth) {
    const part = (x: typeof a, id: string, transform: Float64Array): CheckPart =>
      ({ id, name: id, mesh: x.mesh, tree: x.tree, transform, chordErrorMm: x.chordErrorMm });
    depthMm = crossingDepth(part(a, 'a', placementA), part(b, 'b', placementB), relative(ma, mb), hits.pairs, 0, isClosed(a.mesh) && isClosed(b.mesh));
  } else if (hits.pairCount === 0 && withinMm !== null) {
    distanceMm = minDistance(a.tree, b.tree, relative(ma, mb), withinMm)?.distance ?? null;
  }
  return { trianglePairs: hits.pairs, distanceMm, depthMm };
}

export function pairTrace(ta: ObbTree, placementA: Float64Array, tb: ObbTree, placementB: Float64Array, limits: { maxDepth?: number; maxBoxes?: number }): PairTrace {
  const trace = traceCollide(ta, parseRigid(placementA), tb, parseRigid(placementB), limits);
  return {
    trianglePairs: trace.pairs, testedA: trace.testedA, testedB: trace.testedB, boxes: trace.boxes,
    boxesOmitted: trace.boxesOmitted, boxTests: trace.boxTests, triTests: trace.triTests,
  };
}

/**
 * The overlap solid of two placed closed meshes (manifold-3d), null when there is none; `solids`
 * gives the document's kept solids of its bodies, so that they are converted once.
 */
export async function overlapSolid(
  meshA: TriangleMesh, ma: Float64Array, meshB: TriangleMesh, mb: Float64Array,
  solids?: (wasm: ManifoldToplevel) => SolidCache,
): Promise<OverlapSolid> {
  const wasm = await loadManifold();
  // A local origin between the two parts keeps manifold-3d's float32 positions precise.
  const origin: [number, number, number] = [(ma[3] + mb[3]) / 2, (ma[7] + mb[7]) / 2, (ma[11] + mb[11]) / 2];
  const engine = new OverlapEngine(wasm, origin, solids?.(wasm));
  try {
    const sa = engine.solid('a', meshA, ma);
    const sb = engine.solid('b', meshB, mb);
    const overlap = engine.overlap(sa, sb);
    if (!overlap || overlap.indices.length === 0) return null;
    return { positions: Float32Array.from(overlap.positions), indices: overlap.indices, volumeMm3: overlap.volume };
  } finally {
    engine.dispose();
  }
}

// ------------------------------------------------------------------------------------------------
// In this process

export interface InProcessCheckRunnerOptions {
  /**
   * Let the event loop run between pairs (every 16 ms), so that a host in this process stays
   * answering and a cancel arrives while a long check runs (default false: the command line).
   */
  readonly yieldToHost?: boolean;
  /** Interference volumes in a worker thread, beside the pair tests (default true). */
  readonly volumesInWorker?: boolean;
}

/** Checks in the caller's process, on the caller's bodies (nothing is kept). */
export class InProcessCheckRunner implements CheckRunner {
  readonly kind = 'in-process';
  constructor(private readonly options: InProcessCheckRunnerOptions = {}) {}

  runCheck(input: RunCheckInput, options: RunCheckOptions = {}): Promise<CheckResult> {
    return checkWithRefinement(
      { parts: checkPartsOf(input.parts), settings: input.settings, ignore: input.ignore, ...(input.scope ? { scope: input.scope } : {}) },
      { ...options, volumesInWorker: this.options.volumesInWorker ?? true, ...(this.options.yieldToHost ? { yieldToHost: nextTurn } : {}) },
    );
  }

  async pairHits(_docId: string, a: PlacedBody, b: PlacedBody, withinMm: number | null, depth = false): Promise<PairHits> {
    return pairHits(a.body, a.transform, b.body, b.transform, withinMm, depth);
  }

  async pairTrace(_docId: string, a: PlacedBody, b: PlacedBody, limits: { maxDepth?: number; maxBoxes?: number }): Promise<PairTrace> {
    return pairTrace(a.body.tree, a.transform, b.body.tree, b.transform, limits);
  }

  overlap(_docId: string, a: PlacedBody, b: PlacedBody): Promise<OverlapSolid> {
    return overlapSolid(a.body.mesh, a.transform, b.body.mesh, b.transform);
  }

  forget(): void {}

  async dispose(): Promise<void> {}
}
