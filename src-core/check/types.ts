/** Inputs and results of a whole-assembly check (see ./check.ts). */
import type { TriangleMesh } from '../geometry/mesh.js';
import type { ObbTree } from '../obbtree/layout.js';
import type { FaceSurfaces } from '../geometry/surfaces.js';

/** A part ready to be checked: its body's mesh and tree (body coordinates) and its placement. */
export interface CheckPart {
  readonly id: string;
  readonly name: string;
  readonly mesh: TriangleMesh;
  readonly tree: ObbTree;
  /** Rigid placement, body → world: row-major 3×4 or 4×4. */
  readonly transform: ArrayLike<number>;
  /**
   * Largest distance between the tessellation and the exact surface it approximates, per
   * triangle (mm), when the importer knows it (CAD); null for meshes that are the geometry (STL).
   */
  readonly chordErrorMm: Float32Array | null;
  /**
   * The linear deflection the body was tessellated with (mm), when it was asked for one (a
   * refined body): OpenCascade keeps every triangle within it of the exact surface, so a
   * triangle's chordal error is at most this. Null or absent: the file's default tessellation.
   */
  readonly deflectionMm?: number | null;
  /**
   * Per triangle, on which side its exact face lies: +1 convex (the exact solid is larger than
   * the mesh there), −1 concave (smaller), 0 either. Absent: either, everywhere.
   */
  readonly chordSide?: Int8Array | null;
  /**
   * The body's B-rep faces as inclusive [first, last] triangle ranges, and their recovered exact
   * surfaces (../geometry/surfaces.ts), for the closed-form bounds of ./analytic.ts. Absent: the
   * check decides on the triangles and their chordal errors alone.
   */
  readonly faceRanges?: Uint32Array | null;
  readonly surfaces?: FaceSurfaces | null;
  /**
   * Which re-tessellable body this part places (a CAD source's body), for refinement
   * (./refine.ts); null or absent for meshes that are the geometry (STL) and bodies that cannot be
   * re-read.
   */
  readonly refine?: { readonly sourceKey: string; readonly bodyIndex: number } | null;
}

/**
 * 'undecided': a CAD pair whose kind the triangles could not decide (./resolution.ts) even after
 * refinement reached its limit; `possibleKinds` and `separationRangeMm` say what it may be.
 */
export type ResultKind = 'interference' | 'contact' | 'clearance' | 'undecided' | 'ignored';

/** A kind the exact geometry can have. */
export type GeometryKind = 'interference' | 'contact' | 'clearance' | 'clear';

export interface CheckSettings {
  /** null: the default, DEFAULT_TOUCH_TOLERANCE_MM (./tolerance.ts). */
  readonly touchToleranceMm: number | null;
  readonly clearanceMm: number;
  readonly contactIsInterference: boolean;
}

export interface IgnorePair {
  readonly a: string;
  readonly b: string;
  readonly reason?: string;
}

export interface CheckRequest {
  readonly parts: readonly CheckPart[];
  readonly settings: CheckSettings;
  readonly ignore: readonly IgnorePair[];
  /**
   * Which pairs to check: all pairs (default), one set against the rest, or set A against set B
   * (part ids).
   */
  readonly scope?:
    | { readonly kind: 'all' }
    | { readonly kind: 'selection'; readonly ids: readonly string[] }
    | { readonly kind: 'sets'; readonly a: readonly string[]; readonly b: readonly string[] }
    | { readonly kind: 'pairs'; readonly pairs: readonly (readonly [string, string])[] };
}

export interface PairResult {
  readonly a: string;
  readonly b: string;
  readonly kind: ResultKind;
  /** Kind by geometry alone, before ignore rules and contactIsInterference ('clear' if none). */
  readonly geometricKind: ResultKind | 'clear';
  /** Intersecting triangle pairs [triangle of a, triangle of b, …] in each body's import order. */
  readonly trianglePairs: Uint32Array;
  /** Interference volume (mm³) and its centroid (world mm), when both bodies are closed; else null. */
  readonly volumeMm3: number | null;
  readonly centroidMm: readonly [number, number, number] | null;
  /** One body lies wholly inside the other (no surfaces cross). */
  readonly contained: boolean;
  /** The id of the part that is inside, when contained. */
  readonly containedPart: string | null;
  /** Minimum distance between the surfaces (0 when they touch or cross), when measured. */
  readonly distanceMm: number | null;
  /** The two closest points (world mm) for clearance results. */
  readonly closestPointsMm: readonly [readonly [number, number, number], readonly [number, number, number]] | null;
  /** How far the surfaces reach into each other (mm), when they cross. */
  readonly depthMm: number | null;
  /** The touch tolerance applied to this pair (mm). */
  readonly toleranceMm: number;
  /** The ignore rule's reason, for ignored pairs. */
  readonly reason: string | null;
  /**
   * How finely the triangles where the parts meet follow the exact surfaces (mm): the sum of the
   * two parts' chordal errors there, the ± of the depth or distance. Null for meshes that are the
   * geometry (STL on both sides): decided on the triangles as given.
   */
  readonly resolutionMm: number | null;
  /**
   * The finest linear deflection the pair's CAD bodies were re-tessellated with to decide it (mm),
   * or null when it was decided on the file's own tessellation. The figures (depth, distance,
   * volume, centroid, closest points) come from the finest meshes; `trianglePairs` stay those of
   * the file's tessellation, the triangles that are shown.
   */
  readonly refinedDeflectionMm: number | null;
  /** The exact signed separation lies within this range (mm: −depth … distance), for CAD pairs. */
  readonly separationRangeMm: readonly [number, number] | null;
  /** For undecided pairs, every kind the exact solids may have; else null. */
  readonly possibleKinds: readonly GeometryKind[] | null;
  /**
   * Set on the one result of a group of coincident copies (the same triangles at the same
   * placement, check.ts): the ids of every part of the group, in part order. `a` and `b` are two
   * of them, and the result stands for every pair among them.
   */
  readonly coincident?: readonly string[];
}

export interface CheckSummary {
  readonly parts: number;
  readonly triangles: number;
  readonly interferences: number;
  readonly contacts: number;
  readonly clearanceViolations: number;
  readonly ignored: number;
  /** Pairs the triangles could not decide, even refined (kind 'undecided'). */
  readonly undecided: number;
  /** Pairs decided on re-tessellated bodies, and the finest deflection used (mm; null if none). */
  readonly refinedPairs: number;
  readonly finestDeflectionMm: number | null;
  readonly elapsedMs: number;
}

export interface CheckResult {
  /** The settings as applied: touchToleranceMm is the value used where one value applies to all. */
  readonly settings: {
    readonly touchToleranceMm: number;
    readonly touchToleranceAuto: boolean;
    readonly clearanceMm: number;
    readonly contactIsInterference: boolean;
  };
  readonly summary: CheckSummary;
  /** One per unordered part pair that is not clear, in part order. */
  readonly results: readonly PairResult[];
  /**
   * Pairs of parts whose bounds came within reach (each tested exactly, or as a copy of a
   * coincident part whose pair was), with each group of coincident copies counted once.
   */
  readonly candidatePairs: number;
  /**
   * Milliseconds per phase: the broad phase, the exact triangle pairs of every candidate pair
   * (together the all-pairs collision phase), and the classification (depth, containment,
   * distances, volumes).
   */
  readonly phaseMs: { readonly broadPhase: number; readonly collide: number; readonly classify: number };
  readonly warnings: readonly string[];
}

export interface CheckProgress {
  readonly phase: 'broadphase' | 'pairs' | 'volumes' | 'refine';
  readonly done: number;
  readonly total: number;
}
