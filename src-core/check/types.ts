/** Inputs and results of a whole-assembly check (see ./check.ts). */
import type { TriangleMesh } from '../geometry/mesh.js';
import type { ObbTree } from '../obbtree/layout.js';

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
}

export type ResultKind = 'interference' | 'contact' | 'clearance' | 'ignored';

export interface CheckSettings {
  /** null: automatic, from the parts' chordal error (check/tolerance.ts). */
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
  readonly scope?: { readonly kind: 'all' } | { readonly kind: 'selection'; readonly ids: readonly string[] } | { readonly kind: 'sets'; readonly a: readonly string[]; readonly b: readonly string[] };
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
  readonly phase: 'broadphase' | 'pairs' | 'volumes';
  readonly done: number;
  readonly total: number;
}
