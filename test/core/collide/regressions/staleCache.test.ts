import { describe, expect, it } from 'vitest';
import { buildObbTree, collide, collideBruteForce, createMesh } from '../../../../src-core/index';

/** A closed box mesh [0, s]³ tessellated k × k per face, translated by o. */
function boxMesh(s: number, k: number, ox: number): ReturnType<typeof createMesh> {
  const pos: number[] = [];
  const idx: number[] = [];
  const add = (o: number[], u: number[], v: number[]): void => {
    const base = pos.length / 3;
    for (let i = 0; i <= k; i++) {
      for (let j = 0; j <= k; j++) {
        pos.push(o[0] + (u[0] * i + v[0] * j) / k + ox, o[1] + (u[1] * i + v[1] * j) / k, o[2] + (u[2] * i + v[2] * j) / k);
      }
    }
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) {
        const a = base + i * (k + 1) + j;
        idx.push(a, a + k + 1, a + 1, a + 1, a + k + 1, a + k + 2);
      }
    }
  };
  add([0, 0, 0], [0, s, 0], [s, 0, 0]);
  add([0, 0, s], [s, 0, 0], [0, s, 0]);
  add([0, 0, 0], [s, 0, 0], [0, 0, s]);
  add([0, s, 0], [0, 0, s], [s, 0, 0]);
  add([0, 0, 0], [0, 0, s], [0, s, 0]);
  add([s, 0, 0], [0, s, 0], [0, 0, s]);
  return createMesh(Float64Array.from(pos), Uint32Array.from(idx));
}

function sorted(pairs: Uint32Array): string[] {
  const out: string[] = [];
  for (let i = 0; i < pairs.length; i += 2) out.push(`${pairs[i]} ${pairs[i + 1]}`);
  return out.sort();
}

/** The mesh's triangles repeated `times` times (same vertices, many more tree nodes). */
function repeated(m: ReturnType<typeof createMesh>, times: number): ReturnType<typeof createMesh> {
  const idx = new Uint32Array(m.indices.length * times);
  for (let r = 0; r < times; r++) idx.set(m.indices, r * m.indices.length);
  return createMesh(m.positions, idx);
}

describe('query scratch reused across trees of different sizes', () => {
  it('a B tree with more nodes but fewer vertices than the last one sees no stale vertices', () => {
    const a = boxMesh(10, 3, 0);
    const ta = buildObbTree(a);
    const pose = [1, 0, 0, 4, 0, 1, 0, 4, 0, 0, 1, 4, 0, 0, 0, 1];
    const first = boxMesh(10, 9, 0.5); // many vertices
    expect(sorted(collide(ta, buildObbTree(first), pose, 'all').pairs)).toEqual(sorted(collideBruteForce(a, first, pose)));
    const second = repeated(boxMesh(10, 2, 0.25), 60); // few vertices, more nodes
    expect(sorted(collide(ta, buildObbTree(second), pose, 'all').pairs)).toEqual(sorted(collideBruteForce(a, second, pose)));
  });

  it('never reads vertices mapped by an earlier query', () => {
    // The per-query caches grow for larger trees; a later query with a smaller B must not see
    // entries stamped by earlier queries.
    const a = boxMesh(10, 3, 0);
    const sizes = [2, 6, 1, 9, 3, 1];
    const pose = [1, 0, 0, 4, 0, 1, 0, 4, 0, 0, 1, 4, 0, 0, 0, 1];
    const ta = buildObbTree(a);
    for (const k of sizes) {
      const b = boxMesh(10, k, 0.5);
      const tb = buildObbTree(b);
      expect(sorted(collide(ta, tb, pose, 'all').pairs)).toEqual(sorted(collideBruteForce(a, b, pose)));
    }
  });
});
