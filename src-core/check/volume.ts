/**
 * Interference volumes with manifold-3d: each part whose mesh is a closed 2-manifold (after
 * manifold-3d's merge of open edges within its tolerance) becomes a Manifold in world
 * coordinates; the overlap of two parts is their boolean intersection. Its volume and centroid are
 * the interference figures; its vertices and triangle centres are the probe points of the
 * penetration depth (how far the overlap reaches into each solid).
 *
 * manifold-3d stores positions as float32: coordinates are taken relative to one assembly-wide
 * origin (the centre of all parts' bounds) so that the rounding stays around 1e-7 of the
 * assembly's size.
 */
import type { ManifoldToplevel, Manifold } from 'manifold-3d';
import type { TriangleMesh } from '../geometry/mesh.js';
import { volumeProps } from '../geometry/meshProps.js';

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

export class OverlapEngine {
  private readonly solids = new Map<string, PartSolid>();

  constructor(
    private readonly wasm: ManifoldToplevel,
    private readonly origin: readonly [number, number, number],
  ) {}

  /** The part as a Manifold (cached), or null with the reason when it is not a closed solid. */
  solid(key: string, mesh: TriangleMesh, transform: ArrayLike<number>): PartSolid {
    const cached = this.solids.get(key);
    if (cached) return cached;
    const { Manifold, Mesh } = this.wasm;
    const P = mesh.positions, n = mesh.vertexCount;
    const vert = new Float32Array(3 * n);
    const [ox, oy, oz] = this.origin;
    for (let v = 0; v < n; v++) {
      const x = P[3 * v], y = P[3 * v + 1], z = P[3 * v + 2];
      vert[3 * v] = transform[0] * x + transform[1] * y + transform[2] * z + transform[3] - ox;
      vert[3 * v + 1] = transform[4] * x + transform[5] * y + transform[6] * z + transform[7] - oy;
      vert[3 * v + 2] = transform[8] * x + transform[9] * y + transform[10] * z + transform[11] - oz;
    }
    let result: PartSolid;
    try {
      const m = new Mesh({ numProp: 3, vertProperties: vert, triVerts: new Uint32Array(mesh.indices) });
      m.merge();
      const manifold = new Manifold(m);
      const status = manifold.status();
      if (status !== 'NoError') {
        manifold.delete();
        result = { manifold: null, reason: `not a closed solid (${status})` };
      } else {
        result = { manifold, reason: null };
      }
    } catch (e) {
      result = { manifold: null, reason: `not a closed solid (${e instanceof Error ? e.message : String(e)})` };
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

  /** Frees the wasm memory of every cached solid. */
  dispose(): void {
    for (const s of this.solids.values()) s.manifold?.delete();
    this.solids.clear();
  }
}
