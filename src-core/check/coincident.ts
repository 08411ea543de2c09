/**
 * Coincident tessellations: two CAD bodies whose meshes touch without crossing, triangle on
 * triangle, vertex on vertex — a pin seated line to line in its hole whose chord polygons line up,
 * a face lying on a face. Every mesh vertex lies on its body's exact surface; where the touching
 * triangles of each side have their vertices at vertices of the other side, both exact surfaces pass
 * through the same points along the whole contact, so they are the same surface there: the pair is
 * in contact at distance 0, whatever the chordal error. (Touching planar triangles, chordal error
 * 0, are exact as they stand.) A facet lying on a plane with its vertices anywhere else is not
 * coincident: the exact curved face bulges from that facet into the plane by its chordal error.
 */
import type { CheckPart } from './types.js';

/** Vertices closer than this (mm) count as one. */
const SAME_POINT_MM = 1e-6;

function cell(x: number): number {
  return Math.round(x / SAME_POINT_MM);
}

/** A set of points, by grid cells of SAME_POINT_MM, that finds a point within that distance. */
class PointSet {
  private readonly cells = new Map<string, number[]>();
  add(x: number, y: number, z: number): void {
    const k = `${cell(x)},${cell(y)},${cell(z)}`;
    const list = this.cells.get(k);
    if (list) list.push(x, y, z);
    else this.cells.set(k, [x, y, z]);
  }
  has(x: number, y: number, z: number): boolean {
    const cx = cell(x), cy = cell(y), cz = cell(z);
    for (let i = -1; i <= 1; i++) for (let j = -1; j <= 1; j++) for (let k = -1; k <= 1; k++) {
      const list = this.cells.get(`${cx + i},${cy + j},${cz + k}`);
      if (!list) continue;
      for (let m = 0; m < list.length; m += 3) {
        if (Math.abs(list[m] - x) <= SAME_POINT_MM && Math.abs(list[m + 1] - y) <= SAME_POINT_MM && Math.abs(list[m + 2] - z) <= SAME_POINT_MM) return true;
      }
    }
    return false;
  }
}

/**
 * Whether the touching triangle pairs [ia, ib, …] of parts a and b (B placed in A's frame by `rel`,
 * row-major 3×4 rows) are coincident tessellations, as the module comment defines. Only meaningful
 * for pairs whose surfaces do not cross (depth 0).
 */
export function coincidentTessellations(a: CheckPart, b: CheckPart, rel: ArrayLike<number>, pairs: ArrayLike<number>): boolean {
  if (pairs.length === 0) return false;
  const PA = a.mesh.positions, IA = a.mesh.indices, PB = b.mesh.positions, IB = b.mesh.indices;
  const ca = a.chordErrorMm, cb = b.chordErrorMm;
  const va = new PointSet(), vb = new PointSet();
  const bx = (v: number): [number, number, number] => {
    const x = PB[3 * v], y = PB[3 * v + 1], z = PB[3 * v + 2];
    return [
      rel[0] * x + rel[1] * y + rel[2] * z + rel[3],
      rel[4] * x + rel[5] * y + rel[6] * z + rel[7],
      rel[8] * x + rel[9] * y + rel[10] * z + rel[11],
    ];
  };
  for (let k = 0; k < pairs.length; k += 2) {
    for (let c = 0; c < 3; c++) {
      const v = IA[3 * pairs[k] + c];
      va.add(PA[3 * v], PA[3 * v + 1], PA[3 * v + 2]);
      const [x, y, z] = bx(IB[3 * pairs[k + 1] + c]);
      vb.add(x, y, z);
    }
  }
  for (let k = 0; k < pairs.length; k += 2) {
    const ia = pairs[k], ib = pairs[k + 1];
    const planar = (ca === null || ca[ia] === 0) && (cb === null || cb[ib] === 0);
    if (planar) continue;
    for (let c = 0; c < 3; c++) {
      const v = IA[3 * ia + c];
      if (!vb.has(PA[3 * v], PA[3 * v + 1], PA[3 * v + 2])) return false;
      const [x, y, z] = bx(IB[3 * ib + c]);
      if (!va.has(x, y, z)) return false;
    }
  }
  return true;
}
