/**
 * Which bodies a check will likely need as solids (manifold-3d, for interference volumes), known
 * while a saved assembly is still being read: those of parts whose world bounds overlap another
 * part's. The command line sends them to the volume worker as they arrive (./volumeWorker.ts
 * VolumeSession.prefetch), which converts them on its core while this thread reads the next
 * sources and builds their trees; the check then finds them converted.
 *
 * Only a hint: a body not sent is converted when a volume asks for it, one sent and not needed
 * costs a conversion on the other core. The bounds are the axis-aligned boxes of the placed
 * vertices' box (no tolerance: parts that only touch, face to face, are not sent), each part's
 * compared with every part before it, up to `maxTests` comparisons in all.
 */
import type { TriangleMesh } from '../../src-core/geometry/mesh.js';

/** Comparisons of part bounds one assembly may cost (a few milliseconds). */
export const DEFAULT_PREFETCH_TESTS = 4_000_000;

export class OverlapPrefetch {
  /** World bounds of the parts seen so far: min xyz, max xyz each. */
  private bounds = new Float64Array(6 * 64);
  private readonly meshes: TriangleMesh[] = [];
  private readonly sent = new Set<TriangleMesh>();
  private readonly local = new WeakMap<TriangleMesh, Float64Array>();
  private tests = 0;

  constructor(
    private readonly send: (mesh: TriangleMesh) => void,
    private readonly maxTests = DEFAULT_PREFETCH_TESTS,
  ) {}

  /** A part places `mesh` by `transform` (row-major 4×4 or 3×4; null: the identity). */
  add(mesh: TriangleMesh, transform: ArrayLike<number> | null): void {
    const n = this.meshes.length;
    if (6 * (n + 1) > this.bounds.length) {
      const grown = new Float64Array(2 * this.bounds.length);
      grown.set(this.bounds);
      this.bounds = grown;
    }
    const B = this.bounds, o = 6 * n;
    if (!placedBounds(this.localBounds(mesh), transform, B, o)) return;
    this.meshes.push(mesh);
    if (this.tests + n > this.maxTests) return;
    this.tests += n;
    const x0 = B[o], y0 = B[o + 1], z0 = B[o + 2], x1 = B[o + 3], y1 = B[o + 4], z1 = B[o + 5];
    for (let k = 0, q = 0; k < n; k++, q += 6) {
      if (B[q] < x1 && x0 < B[q + 3] && B[q + 1] < y1 && y0 < B[q + 4] && B[q + 2] < z1 && z0 < B[q + 5]) {
        this.sendOnce(this.meshes[k]);
        this.sendOnce(mesh);
      }
    }
  }

  private sendOnce(mesh: TriangleMesh): void {
    if (this.sent.has(mesh)) return;
    this.sent.add(mesh);
    this.send(mesh);
  }

  private localBounds(mesh: TriangleMesh): Float64Array {
    let b = this.local.get(mesh);
    if (b) return b;
    const P = mesh.positions;
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
    for (let i = 0; i < P.length; i += 3) {
      const x = P[i], y = P[i + 1], z = P[i + 2];
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (z < z0) z0 = z;
      if (z > z1) z1 = z;
    }
    b = Float64Array.of(x0, y0, z0, x1, y1, z1);
    this.local.set(mesh, b);
    return b;
  }
}

/**
 * The world bounds of local bounds `l` placed by `m` (the box of its 8 corners) into out[o..o+5];
 * false for an empty mesh or a transform that is not 12 or 16 finite numbers.
 */
function placedBounds(l: Float64Array, m: ArrayLike<number> | null, out: Float64Array, o: number): boolean {
  if (!(l[0] <= l[3])) return false;
  if (m === null) {
    out.set(l, o);
    return true;
  }
  if (m.length !== 12 && m.length !== 16) return false;
  for (let k = 0; k < 3; k++) {
    const r = 4 * k;
    const a = m[r], b = m[r + 1], c = m[r + 2], t = m[r + 3];
    // Per axis: the translation plus each term's smaller and larger end.
    const lo = t + Math.min(a * l[0], a * l[3]) + Math.min(b * l[1], b * l[4]) + Math.min(c * l[2], c * l[5]);
    const hi = t + Math.max(a * l[0], a * l[3]) + Math.max(b * l[1], b * l[4]) + Math.max(c * l[2], c * l[5]);
    if (!Number.isFinite(lo) || !Number.isFinite(hi)) return false;
    out[o + k] = lo;
    out[o + 3 + k] = hi;
  }
  return true;
}
