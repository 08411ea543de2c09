/**
 * Interference volumes with manifold-3d: each part whose mesh is a closed 2-manifold (after
 * manifold-3d's merge of open edges within its tolerance) becomes a Manifold in world
 * coordinates; the overlap of two parts is their boolean intersection. Its volume and centroid are
 * the interference figures; its vertices and triangle centres are the probe points of the
 * penetration depth (how far the overlap reaches into each solid).
 *
 * A body becomes a Manifold once, in its own frame (`SolidCache`), and each part that places it is
 * that solid transformed (manifold-3d applies a transform without rebuilding the solid): the parts
 * of one body share it, and a cache kept with an open document (the check process keeps one per
 * document) serves every later check and overlap query of it, so that only bodies not seen
 * before are converted.
 *
 * manifold-3d takes positions as float32: a body's are taken relative to the centre of its bounds,
 * and placed parts relative to one assembly-wide origin (the centre of all parts' bounds), so
 * that the rounding stays around 1e-7 of the body's and the assembly's size.
 */
import type { ManifoldToplevel, Manifold } from 'manifold-3d';
import type { TriangleMesh } from '../geometry/mesh.js';
import { edgeReport, volumeProps } from '../geometry/meshProps.js';

/**
 * Closed (every edge used once each way, ./meshProps.ts) with no triangle repeating a vertex, so
 * that manifold-3d's merge() finds no open edge to join either.
 */
function closedWithoutRepeats(mesh: TriangleMesh): boolean {
  if (!edgeReport(mesh).closed) return false;
  const I = mesh.indices;
  for (let t = 0; t < I.length; t += 3) if (I[t] === I[t + 1] || I[t + 1] === I[t + 2] || I[t] === I[t + 2]) return false;
  return true;
}

/** Initialises manifold-3d (the host locates its wasm). */
export type ManifoldProvider = () => Promise<ManifoldToplevel>;

export interface OverlapSolid {
  readonly volume: number;
  /** World millimetres. */
  readonly centroid: [number, number, number];
  /** Vertices and triangle centres of the overlap solid, world millimetres, 3 per point. */
  readonly probes: Float64Array;
  /** The overlap solid's mesh (world millimetres). */
  readonly positions: Float64Array;
  readonly indices: Uint32Array;
}

interface PartSolid {
  manifold: Manifold | null;
  reason: string | null;
}

/** A body's solid in its own frame, about `centre`; null with the reason when it is not a closed solid. */
interface BodySolid {
  readonly manifold: Manifold | null;
  readonly reason: string | null;
  readonly centre: readonly [number, number, number];
}

/**
 * Bodies as Manifolds in their own frames, by mesh, for one manifold-3d instance: kept for as long
 * as the cache (an open document's), freed by `dispose`.
 */
export class SolidCache {
  private readonly bodies = new Map<TriangleMesh, BodySolid>();
  /** Bodies converted (a new mesh each), for tests and diagnostics. */
  built = 0;

  constructor(readonly wasm: ManifoldToplevel) {}

  /** The body's solid (converted on first use). */
  of(mesh: TriangleMesh): BodySolid {
    const cached = this.bodies.get(mesh);
    if (cached) return cached;
    const { Manifold, Mesh } = this.wasm;
    const P = mesh.positions, n = mesh.vertexCount;
    let lo0 = Infinity, lo1 = Infinity, lo2 = Infinity, hi0 = -Infinity, hi1 = -Infinity, hi2 = -Infinity;
    for (let v = 0; v < n; v++) {
      const x = P[3 * v], y = P[3 * v + 1], z = P[3 * v + 2];
      if (x < lo0) lo0 = x; if (x > hi0) hi0 = x;
      if (y < lo1) lo1 = y; if (y > hi1) hi1 = y;
      if (z < lo2) lo2 = z; if (z > hi2) hi2 = z;
    }
    const centre: [number, number, number] = n > 0 ? [(lo0 + hi0) / 2, (lo1 + hi1) / 2, (lo2 + hi2) / 2] : [0, 0, 0];
    const vert = new Float32Array(3 * n);
    for (let v = 0; v < n; v++) {
      vert[3 * v] = P[3 * v] - centre[0];
      vert[3 * v + 1] = P[3 * v + 1] - centre[1];
      vert[3 * v + 2] = P[3 * v + 2] - centre[2];
    }
    let result: BodySolid;
    try {
      const m = new Mesh({ numProp: 3, vertProperties: vert, triVerts: new Uint32Array(mesh.indices) });
      // merge() joins the vertices of open edges; a closed mesh has none (it would change nothing).
      if (!closedWithoutRepeats(mesh)) m.merge();
      const manifold = new Manifold(m);
      const status = manifold.status();
      if (status !== 'NoError') {
        manifold.delete();
        result = { manifold: null, reason: `not a closed solid (${status})`, centre };
      } else {
        result = { manifold, reason: null, centre };
      }
    } catch (e) {
      result = { manifold: null, reason: `not a closed solid (${e instanceof Error ? e.message : String(e)})`, centre };
    }
    this.built++;
    this.bodies.set(mesh, result);
    return result;
  }

  /** Drops the solids of bodies not in `keep` (a document whose parts changed). */
  retain(keep: ReadonlySet<TriangleMesh>): void {
    for (const [mesh, solid] of this.bodies) {
      if (keep.has(mesh)) continue;
      solid.manifold?.delete();
      this.bodies.delete(mesh);
    }
  }

  /** Frees the wasm memory of every solid. */
  dispose(): void {
    for (const s of this.bodies.values()) s.manifold?.delete();
    this.bodies.clear();
  }
}

/** The figures a check reports of an overlap: its volume and centroid (world millimetres). */
export interface OverlapFigures {
  readonly volume: number;
  readonly centroid: [number, number, number];
}

/** A body placed by a part, as an overlap service receives it. */
export interface PlacedSolid {
  /** The part's id (its placed solid is kept under it for the check). */
  readonly key: string;
  readonly mesh: TriangleMesh;
  /** Body → world, row-major 3×4 (or 4×4). */
  readonly transform: ArrayLike<number>;
}

/**
 * Overlap volumes computed away from the caller's thread (a worker thread with its own
 * manifold-3d, src-main/services/volumeWorker.ts), so that the check goes on with the next pairs
 * while a boolean runs. It must give exactly what `overlapFigures` on an OverlapEngine of the same
 * origin gives. Null: a part is not a closed solid.
 */
export interface OverlapVolumes {
  overlap(a: PlacedSolid, b: PlacedSolid): Promise<OverlapFigures | null>;
  dispose(): void;
}

/** The overlap figures of two placed bodies on `engine` (null: either is not a closed solid). */
export function overlapFigures(engine: OverlapEngine, a: PlacedSolid, b: PlacedSolid): OverlapFigures | null {
  const o = engine.overlap(engine.solid(a.key, a.mesh, a.transform), engine.solid(b.key, b.mesh, b.transform));
  return o === null ? null : { volume: o.volume, centroid: o.centroid };
}

export class OverlapEngine {
  /** The placed parts of this engine (transformed copies of the cache's solids), by key. */
  private readonly solids = new Map<string, PartSolid>();
  private readonly cache: SolidCache;
  private readonly ownsCache: boolean;

  /**
   * `cache`: the bodies' solids to use and add to (kept by the caller, for later checks of the
   * same document); without one, the engine converts the bodies it needs and frees them with itself.
   */
  constructor(
    wasm: ManifoldToplevel,
    private readonly origin: readonly [number, number, number],
    cache?: SolidCache,
  ) {
    this.ownsCache = cache === undefined || cache.wasm !== wasm;
    this.cache = this.ownsCache ? new SolidCache(wasm) : cache!;
  }

  /** The part as a Manifold (cached), or null with the reason when it is not a closed solid. */
  solid(key: string, mesh: TriangleMesh, transform: ArrayLike<number>): PartSolid {
    const cached = this.solids.get(key);
    if (cached) return cached;
    const body = this.cache.of(mesh);
    let result: PartSolid;
    if (!body.manifold) {
      result = { manifold: null, reason: body.reason };
    } else {
      // x_world − origin = R (x_body_rel + centre) + t − origin: a column-major 4×3 for manifold-3d.
      const T = transform, [cx, cy, cz] = body.centre, [ox, oy, oz] = this.origin;
      const tx = T[0] * cx + T[1] * cy + T[2] * cz + T[3] - ox;
      const ty = T[4] * cx + T[5] * cy + T[6] * cz + T[7] - oy;
      const tz = T[8] * cx + T[9] * cy + T[10] * cz + T[11] - oz;
      const m: [number, number, number, number, number, number, number, number, number, number, number, number, number, number, number, number] =
        [T[0], T[4], T[8], 0, T[1], T[5], T[9], 0, T[2], T[6], T[10], 0, tx, ty, tz, 1];
      result = { manifold: body.manifold.transform(m), reason: null };
    }
    this.solids.set(key, result);
    return result;
  }

  /** The overlap of two solids, or null if either is not a solid. */
  overlap(a: PartSolid, b: PartSolid): OverlapSolid | null {
    if (!a.manifold || !b.manifold) return null;
    const common = a.manifold.intersect(b.manifold);
    try {
      const mesh = common.getMesh();
      const np = mesh.numProp, V = mesh.vertProperties, T = mesh.triVerts;
      const nv = V.length / np, nt = T.length / 3;
      const [ox, oy, oz] = this.origin;
      const positions = new Float64Array(3 * nv);
      for (let v = 0; v < nv; v++) {
        positions[3 * v] = V[np * v] + ox;
        positions[3 * v + 1] = V[np * v + 1] + oy;
        positions[3 * v + 2] = V[np * v + 2] + oz;
      }
      const indices = new Uint32Array(T);
      const props = volumeProps({ positions, indices, vertexCount: nv, triangleCount: nt });
      const probes = new Float64Array(3 * (nv + nt));
      probes.set(positions);
      for (let t = 0; t < nt; t++) {
        const a0 = 3 * indices[3 * t], a1 = 3 * indices[3 * t + 1], a2 = 3 * indices[3 * t + 2];
        for (let k = 0; k < 3; k++) probes[3 * nv + 3 * t + k] = (positions[a0 + k] + positions[a1 + k] + positions[a2 + k]) / 3;
      }
      return { volume: Math.max(0, common.volume()), centroid: props.centroid, probes, positions, indices };
    } finally {
      common.delete();
    }
  }

  /** Frees the wasm memory of the placed parts, and of the bodies' solids unless the caller keeps them. */
  dispose(): void {
    for (const s of this.solids.values()) s.manifold?.delete();
    this.solids.clear();
    if (this.ownsCache) this.cache.dispose();
  }
}
