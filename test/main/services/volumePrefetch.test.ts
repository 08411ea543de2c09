// Which bodies the command line sends to the volume worker while an assembly is read
// (src-main/services/volumePrefetch.ts): those of parts whose placed bounds overlap another's.
import { describe, expect, it } from 'vitest';
import { createMesh, type TriangleMesh } from '../../../src-core/geometry/mesh';
import { OverlapPrefetch } from '../../../src-main/services/volumePrefetch';

/** An axis-aligned box mesh from lo to hi (8 vertices, 12 triangles). */
function box(lo: readonly [number, number, number], hi: readonly [number, number, number]): TriangleMesh {
  const p: number[] = [];
  for (let i = 0; i < 8; i++) p.push(i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]);
  const t = [0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5];
  return createMesh(Float64Array.from(p), Uint32Array.from(t));
}

/** Row-major 4×4: a turn about z by `deg` degrees, then a shift. */
function placed(deg: number, dx: number, dy: number, dz: number): number[] {
  const c = Math.cos((deg * Math.PI) / 180), s = Math.sin((deg * Math.PI) / 180);
  return [c, -s, 0, dx, s, c, 0, dy, 0, 0, 1, dz, 0, 0, 0, 1];
}

describe('OverlapPrefetch', () => {
  it('sends the bodies of overlapping parts once each, not those of parts that touch face to face or keep apart', () => {
    const cube = box([0, 0, 0], [10, 10, 10]);
    const other = box([0, 0, 0], [10, 10, 10]);
    const far = box([0, 0, 0], [1, 1, 1]);
    const sent: TriangleMesh[] = [];
    const p = new OverlapPrefetch((m) => sent.push(m));
    p.add(cube, null);
    p.add(other, placed(0, 10, 0, 0)); // face to face with cube: not sent
    expect(sent).toEqual([]);
    p.add(far, placed(0, 30, 30, 30)); // apart from both
    expect(sent).toEqual([]);
    p.add(cube, placed(0, 15, 0.5, 0.5)); // the cube again, overlapping `other` by 5 mm
    expect(sent).toEqual([other, cube]);
    p.add(other, placed(0, 25, 0, 0)); // overlaps the second cube: both sent already
    expect(sent).toEqual([other, cube]);
  });

  it('bounds a turned part by its turned box (its corners reach farther than the box did)', () => {
    const bar = box([-10, -1, -1], [10, 1, 1]);
    const post = box([-1, -1, -5], [1, 1, 5]);
    const sent: TriangleMesh[] = [];
    const p = new OverlapPrefetch((m) => sent.push(m));
    p.add(post, placed(0, 0, 8, 0)); // 7 to 9 along y
    p.add(bar, null); // −1 to 1 along y: apart
    expect(sent).toEqual([]);
    p.add(bar, placed(90, 0, 0, 0)); // now −10 to 10 along y: reaches the post
    expect(sent).toEqual([post, bar]);
  });

  it('stops comparing after its budget, and skips meshes without vertices and malformed placements', () => {
    const a = box([0, 0, 0], [1, 1, 1]);
    const sent: TriangleMesh[] = [];
    const p = new OverlapPrefetch((m) => sent.push(m), 2);
    p.add(a, [1, 0, 0]); // not 12 or 16 numbers
    p.add(a, placed(0, Number.NaN, 0, 0));
    p.add(a, null);
    p.add(box([5, 5, 5], [6, 6, 6]), null); // one comparison
    p.add(box([0.5, 0.5, 0.5], [2, 2, 2]), null); // two more: over the budget of 2
    expect(sent).toEqual([]);
    const q = new OverlapPrefetch((m) => sent.push(m));
    q.add({ positions: new Float64Array(0), indices: new Uint32Array(0), vertexCount: 0, triangleCount: 0 }, null);
    q.add(a, null);
    expect(sent).toEqual([]);
  });
});
