/**
 * The brute-force oracle: every triangle of A against every triangle of B with the exact test,
 * B's vertices mapped exactly as the tree queries map them. Quadratic; for tests and validation.
 */
import { triTriIntersect } from '../geometry/triTri.js';
import type { TriangleMesh } from '../geometry/mesh.js';
import { parseRigid } from '../geometry/rigid.js';
import type { CollideMode, RigidTransform } from './types.js';

/** Intersecting pairs [iA, iB, …] in (iA, iB) lexicographic order ('any': at most one pair). */
export function collideBruteForce(a: TriangleMesh, b: TriangleMesh, transform: RigidTransform, mode: CollideMode = 'all'): Uint32Array {
  const m = parseRigid(transform);
  const PB = b.positions;
  const X = new Float64Array(PB.length);
  for (let o = 0; o < PB.length; o += 3) {
    const x = PB[o], y = PB[o + 1], z = PB[o + 2];
    X[o] = m[0] * x + m[1] * y + m[2] * z + m[3];
    X[o + 1] = m[4] * x + m[5] * y + m[6] * z + m[7];
    X[o + 2] = m[8] * x + m[9] * y + m[10] * z + m[11];
  }
  const IA = a.indices, IB = b.indices;
  const out: number[] = [];
  for (let i = 0; i < a.triangleCount; i++) {
    const a0 = 3 * IA[3 * i], a1 = 3 * IA[3 * i + 1], a2 = 3 * IA[3 * i + 2];
    for (let j = 0; j < b.triangleCount; j++) {
      if (triTriIntersect(a.positions, a0, a1, a2, X, 3 * IB[3 * j], 3 * IB[3 * j + 1], 3 * IB[3 * j + 2])) {
        out.push(i, j);
        if (mode === 'any') return Uint32Array.from(out);
      }
    }
  }
  return Uint32Array.from(out);
}
