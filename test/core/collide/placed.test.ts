import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildObbTree, collideBruteForce, collidePlaced, createMesh, parseRigid } from '../../../src-core/index';

/** A closed box mesh tessellated k × k per face. */
function box(sx: number, sy: number, sz: number, k: number): ReturnType<typeof createMesh> {
  const pos: number[] = [];
  const idx: number[] = [];
  const face = (o: number[], u: number[], v: number[]): void => {
    const base = pos.length / 3;
    for (let i = 0; i <= k; i++) for (let j = 0; j <= k; j++) pos.push(o[0] + (u[0] * i + v[0] * j) / k, o[1] + (u[1] * i + v[1] * j) / k, o[2] + (u[2] * i + v[2] * j) / k);
    for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) {
      const a = base + i * (k + 1) + j;
      idx.push(a, a + k + 1, a + 1, a + 1, a + k + 1, a + k + 2);
    }
  };
  face([0, 0, 0], [0, sy, 0], [sx, 0, 0]); face([0, 0, sz], [sx, 0, 0], [0, sy, 0]);
  face([0, 0, 0], [sx, 0, 0], [0, 0, sz]); face([0, sy, 0], [0, 0, sz], [sx, 0, 0]);
  face([0, 0, 0], [0, 0, sz], [0, sy, 0]); face([sx, 0, 0], [0, sy, 0], [0, 0, sz]);
  return createMesh(Float64Array.from(pos), Uint32Array.from(idx));
}

/** The mesh's vertices placed in the world, each coordinate as r0·x + r1·y + r2·z + t. */
function placed(m: ReturnType<typeof createMesh>, t: number[]): ReturnType<typeof createMesh> {
  const P = m.positions, out = new Float64Array(P.length);
  for (let o = 0; o < P.length; o += 3) {
    const x = P[o], y = P[o + 1], z = P[o + 2];
    out[o] = t[0] * x + t[1] * y + t[2] * z + t[3];
    out[o + 1] = t[4] * x + t[5] * y + t[6] * z + t[7];
    out[o + 2] = t[8] * x + t[9] * y + t[10] * z + t[11];
  }
  return createMesh(out, m.indices);
}

function rotation(q: number[], t: number[]): number[] {
  const n = Math.hypot(...q);
  const [w, x, y, z] = q.map((v) => v / n);
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), t[0],
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), t[1],
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y), t[2],
    0, 0, 0, 1,
  ];
}

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

function sorted(p: Uint32Array): string[] {
  const out: string[] = [];
  for (let i = 0; i < p.length; i += 2) out.push(`${p[i]} ${p[i + 1]}`);
  return out.sort();
}

describe('placed queries', () => {
  it('equal brute force on the world-placed triangles (seed 20261135)', () => {
    const a = box(10, 6, 4, 3), b = box(5, 5, 5, 2);
    const ta = buildObbTree(a), tb = buildObbTree(b);
    const quat = fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 4, maxLength: 4 }).filter((q) => Math.hypot(...q) > 0.1);
    const vec = (r: number) => fc.array(fc.double({ min: -r, max: r, noNaN: true }), { minLength: 3, maxLength: 3 });
    fc.assert(
      fc.property(quat, vec(100), quat, vec(8), (qa, tA, qb, dt) => {
        const pa = rotation(qa, tA);
        // B near A: its placement relative to A's, plus a small offset.
        const pb = rotation(qb, [tA[0] + dt[0], tA[1] + dt[1], tA[2] + dt[2]]);
        const got = sorted(collidePlaced(ta, parseRigid(pa), tb, parseRigid(pb), 'all').pairs);
        const want = sorted(collideBruteForce(placed(a, pa), placed(b, pb), IDENTITY));
        expect(got).toEqual(want);
      }),
      { seed: 20261135, numRuns: 150 },
    );
  });

  it('with A at the identity, a placed query is the ordinary query', () => {
    const a = box(10, 6, 4, 3), b = box(5, 5, 5, 2);
    const pose = rotation([0.9, 0.1, 0.3, -0.2], [4, 2, 1]);
    expect(sorted(collidePlaced(buildObbTree(a), parseRigid(IDENTITY), buildObbTree(b), parseRigid(pose), 'all').pairs)).toEqual(sorted(collideBruteForce(a, b, pose)));
  });
});
