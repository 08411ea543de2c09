/**
 * The intersection curves of a result: for each pair of triangles the check found crossing, the
 * segment where they cut each other (src-core/geometry/triSegment.ts), in world millimetres; for
 * pairs lying on each other (a face resting on a face), the polygon they share, as triangles.
 * Computed from the two bodies' display triangles (the host's vertices, in the same triangle
 * order) placed by their parts' transforms. Plain typed arrays, no three.
 */
import { coplanarOverlap, TRI_COPLANAR, TRI_SEGMENT, triTriSegment } from '../../src-core/geometry/triSegment';

export interface BodyTriangles {
  readonly positions: ArrayLike<number>;
  readonly indices: ArrayLike<number>;
}

export interface IntersectionCurves {
  /** Segments, 6 numbers each (x y z, x y z). */
  readonly segments: Float32Array;
  /** Triangles of coplanar patches, 9 numbers each. */
  readonly patches: Float32Array;
  /** Bounds of the segments and patches ([min x y z, max x y z]), or null when there are none. */
  readonly bounds: readonly [number, number, number, number, number, number] | null;
}

/** Places triangle `t` of a body by a row-major 4×4 transform into `out` (9 numbers). */
function placeTriangle(body: BodyTriangles, t: number, m: readonly number[], out: Float64Array): boolean {
  const { positions: p, indices: ix } = body;
  if (3 * t + 2 >= ix.length) return false;
  for (let c = 0; c < 3; c++) {
    const v = 3 * ix[3 * t + c];
    const x = p[v], y = p[v + 1], z = p[v + 2];
    out[3 * c] = m[0] * x + m[1] * y + m[2] * z + m[3];
    out[3 * c + 1] = m[4] * x + m[5] * y + m[6] * z + m[7];
    out[3 * c + 2] = m[8] * x + m[9] * y + m[10] * z + m[11];
  }
  return true;
}

/**
 * The curves of the triangle pairs [triangle of a, triangle of b, …] of bodies `a` and `b` placed
 * by `ma` and `mb` (row-major 4×4).
 */
export function intersectionCurves(trianglePairs: Uint32Array, a: BodyTriangles, ma: readonly number[], b: BodyTriangles, mb: readonly number[]): IntersectionCurves {
  const ta = new Float64Array(9);
  const tb = new Float64Array(9);
  const seg = new Float64Array(6);
  const poly = new Float64Array(18);
  const segments: number[] = [];
  const patches: number[] = [];
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  const grow = (x: number, y: number, z: number) => {
    if (x < lo[0]) lo[0] = x;
    if (y < lo[1]) lo[1] = y;
    if (z < lo[2]) lo[2] = z;
    if (x > hi[0]) hi[0] = x;
    if (y > hi[1]) hi[1] = y;
    if (z > hi[2]) hi[2] = z;
  };
  for (let i = 0; i + 1 < trianglePairs.length; i += 2) {
    if (!placeTriangle(a, trianglePairs[i], ma, ta) || !placeTriangle(b, trianglePairs[i + 1], mb, tb)) continue;
    const kind = triTriSegment(ta, tb, seg);
    if (kind === TRI_SEGMENT) {
      for (let k = 0; k < 6; k++) segments.push(seg[k]);
      grow(seg[0], seg[1], seg[2]);
      grow(seg[3], seg[4], seg[5]);
    } else if (kind === TRI_COPLANAR) {
      const n = coplanarOverlap(ta, tb, poly);
      for (let v = 1; v + 1 < n; v++) {
        for (const c of [0, v, v + 1]) {
          patches.push(poly[3 * c], poly[3 * c + 1], poly[3 * c + 2]);
          grow(poly[3 * c], poly[3 * c + 1], poly[3 * c + 2]);
        }
      }
    }
  }
  const bounds = lo[0] <= hi[0] ? ([lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]] as const) : null;
  return { segments: Float32Array.from(segments), patches: Float32Array.from(patches), bounds };
}
