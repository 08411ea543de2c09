/**
 * Bounds on a CAD pair's exact separation from the exact surfaces of its faces, where the
 * triangles are too coarse to give them.
 *
 * The faces of a pin and its bore, a ball and its socket, or two flat faces seated on each other
 * are planes, cylinders and spheres whose exact form the importer recovers (../geometry/surfaces.ts).
 * Between two such faces the exact separation follows in closed form, whatever the tessellation:
 *
 *   plane facing plane              s = the planes' offset (exact)
 *   convex in concave, cylinders    s ∈ r_bore − r_pin ± e   (e: the axes' offset; both faces
 *   or spheres, or a ball in a bore                            overlapping along the axis for the
 *                                                              upper bound)
 *   convex against convex, or a     s ≥ the complete surfaces' separation (a lower bound: the
 *   convex face against a plane                                faces may not reach the witness)
 *   a cylinder and any other face   s ≥ how far the face's vertices keep from the cylinder's axis,
 *                                                              less the radius (a pin) or the radius
 *                                                              less that (a bore), less the face's
 *                                                              chordal error between its vertices
 *   a cylinder across a plane       s ≥ its lower end's height over the plane; and for a pin across
 *                                                              a face around its bore (or a bore
 *                                                              across a pin's end face), s ≥ the
 *                                                              pin's bound against the bore
 *
 * (the last: a bolt head standing on a plate, its side's chords crossing the plate's face's; and
 * where a pin passes a plate's face, chords of the pin crossing chords of the hole's rim). A bound of each face pair that meets in
 * the pair's triangle pairs (crossing, or the closest) bounds the pair: its least lower bound,
 * when every face pair has one, and its least upper bound, are exact bounds on the separation. The
 * check intersects them with the bounds of the chordal errors (./tolerance.ts pairBounds), so a
 * recovered surface can only narrow what the triangles already allow.
 */
import {
  SURFACE_CYLINDER, SURFACE_NONE, SURFACE_PLANE, SURFACE_SPHERE, SURFACE_STRIDE,
} from '../geometry/surfaces.js';
import { outwardSign } from './depth.js';
import type { CheckPart } from './types.js';

/**
 * Axes parallel to within this (|sin| of the angle between them); a remaining tilt is taken into
 * the axes' offset, measured at both ends of the faces' common length.
 */
const PARALLEL = 1e-4;
/** A pin tilted in its bore by up to this (|sin|) is bounded with its tilt taken into account. */
const TILTED = 0.05;
/** Planes facing each other to within this (1 + n_a·n_b); their offset is then measured at … */
const FACING = 1e-9;
/** Offsets of axes and centres at most this fraction of the smaller radius count as "inside". */
const INSIDE_FRACTION = 0.5;

export interface SeparationBounds {
  /** A lower bound on the exact separation (mm), −Infinity when some face pair has none. */
  readonly lo: number;
  /** An upper bound (mm), +Infinity when none is known. */
  readonly hi: number;
}

/** A face's surface in a common frame, its radius signed by the mesh's outward side. */
interface Surface {
  type: number;
  /** plane: normal; cylinder: axis direction. */
  nx: number; ny: number; nz: number;
  /** plane: offset d (n·x = d); cylinder: point on axis; sphere: centre. */
  d: number; px: number; py: number; pz: number;
  r: number; t0: number; t1: number;
  residual: number;
}

const blank = (): Surface => ({ type: SURFACE_NONE, nx: 0, ny: 0, nz: 0, d: 0, px: 0, py: 0, pz: 0, r: 0, t0: 0, t1: 0, residual: 0 });

/** The face of triangle t: the index of the range holding it (binary search), or −1. */
export function faceOfTriangle(ranges: ArrayLike<number>, t: number): number {
  let lo = 0, hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const m = (lo + hi) >> 1;
    if (t < ranges[2 * m]) hi = m - 1;
    else if (t > ranges[2 * m + 1]) lo = m + 1;
    else return m;
  }
  return -1;
}

/** Face f of part p, placed by rows (row-major 3×4; null: the part's own frame). */
function surfaceOf(p: CheckPart, f: number, rows: ArrayLike<number> | null, out: Surface): Surface {
  const s = p.surfaces!;
  const o = f * SURFACE_STRIDE, R = s.records;
  out.type = R[o];
  out.residual = s.residualMm[f];
  const sign = outwardSign(p.mesh);
  const rot = (x: number, y: number, z: number, k: number): number =>
    rows ? rows[4 * k] * x + rows[4 * k + 1] * y + rows[4 * k + 2] * z : k === 0 ? x : k === 1 ? y : z;
  const pt = (x: number, y: number, z: number, k: number): number => rot(x, y, z, k) + (rows ? rows[4 * k + 3] : 0);
  if (out.type === SURFACE_PLANE) {
    const nx = sign * R[o + 1], ny = sign * R[o + 2], nz = sign * R[o + 3];
    out.nx = rot(nx, ny, nz, 0); out.ny = rot(nx, ny, nz, 1); out.nz = rot(nx, ny, nz, 2);
    out.d = sign * R[o + 4] + (rows ? out.nx * rows[3] + out.ny * rows[7] + out.nz * rows[11] : 0);
  } else if (out.type === SURFACE_CYLINDER || out.type === SURFACE_SPHERE) {
    out.px = pt(R[o + 1], R[o + 2], R[o + 3], 0); out.py = pt(R[o + 1], R[o + 2], R[o + 3], 1); out.pz = pt(R[o + 1], R[o + 2], R[o + 3], 2);
    out.r = sign * R[o + 7];
    if (out.type === SURFACE_CYLINDER) {
      out.nx = rot(R[o + 4], R[o + 5], R[o + 6], 0); out.ny = rot(R[o + 4], R[o + 5], R[o + 6], 1); out.nz = rot(R[o + 4], R[o + 5], R[o + 6], 2);
      out.t0 = R[o + 8]; out.t1 = R[o + 9];
    }
  }
  return out;
}

const lineOffset = (a: Surface, x: number, y: number, z: number): number => {
  const wx = x - a.px, wy = y - a.py, wz = z - a.pz;
  const t = wx * a.nx + wy * a.ny + wz * a.nz;
  return Math.hypot(wx - t * a.nx, wy - t * a.ny, wz - t * a.nz);
};

/** |sin| of the angle between two surfaces' directions (axes or normals). */
const sinBetween = (a: Surface, b: Surface): number =>
  Math.hypot(a.ny * b.nz - a.nz * b.ny, a.nz * b.nx - a.nx * b.nz, a.nx * b.ny - a.ny * b.nx);

const parallel = (a: Surface, b: Surface): boolean => sinBetween(a, b) <= PARALLEL;

/** [lo, hi] for one face pair, or null when no closed form applies (the rim case is handled by the caller). */
function facePairBounds(a: Surface, b: Surface): [number, number] | null {
  const res = a.residual + b.residual;
  if (a.type === SURFACE_PLANE && b.type === SURFACE_PLANE) {
    // Facing each other: a's solid lies at n·x ≤ d_a, b's at n·x ≥ −d_b.
    const dot = a.nx * b.nx + a.ny * b.ny + a.nz * b.nz;
    if (dot > -1 + FACING) return null;
    const s = -b.d - a.d;
    return [s - res, s + res];
  }
  if (a.type === SURFACE_PLANE || b.type === SURFACE_PLANE) {
    const p = a.type === SURFACE_PLANE ? a : b, c = a.type === SURFACE_PLANE ? b : a;
    if (c.r <= 0) return null;
    if (c.type === SURFACE_SPHERE) {
      return [p.nx * c.px + p.ny * c.py + p.nz * c.pz - p.d - c.r - res, Infinity];
    }
    if (c.type === SURFACE_CYLINDER && Math.abs(p.nx * c.nx + p.ny * c.ny + p.nz * c.nz) <= PARALLEL) {
      // The axis's nearer end.
      const h0 = p.nx * (c.px + c.t0 * c.nx) + p.ny * (c.py + c.t0 * c.ny) + p.nz * (c.pz + c.t0 * c.nz);
      const h1 = p.nx * (c.px + c.t1 * c.nx) + p.ny * (c.py + c.t1 * c.ny) + p.nz * (c.pz + c.t1 * c.nz);
      return [Math.min(h0, h1) - p.d - c.r - res, Infinity];
    }
    return null;
  }
  if (a.type === SURFACE_NONE || b.type === SURFACE_NONE) return null;
  // Two curved faces.
  if (a.r > 0 && b.r > 0) {
    if (a.type === SURFACE_SPHERE && b.type === SURFACE_SPHERE) {
      return [Math.hypot(a.px - b.px, a.py - b.py, a.pz - b.pz) - a.r - b.r - res, Infinity];
    }
    if (a.type === SURFACE_CYLINDER && b.type === SURFACE_CYLINDER && parallel(a, b)) {
      // The least offset of b's axis ends from a's bounds the offset anywhere between from below
      // only for parallel axes; a tilt of sin θ over the face's length L moves it by at most L·sin θ.
      const tilt = sinBetween(a, b) * (b.t1 - b.t0);
      return [lineOffset(a, b.px + b.t0 * b.nx, b.py + b.t0 * b.ny, b.pz + b.t0 * b.nz) - tilt - a.r - b.r - res, Infinity];
    }
    if (a.type !== b.type) {
      const s = a.type === SURFACE_SPHERE ? a : b, c = a.type === SURFACE_SPHERE ? b : a;
      return [lineOffset(c, s.px, s.py, s.pz) - s.r - c.r - res, Infinity];
    }
    return null;
  }
  if (!(a.r > 0) && !(b.r > 0)) return null;
  const pin = a.r > 0 ? a : b, bore = a.r > 0 ? b : a;
  const gap = -bore.r - pin.r;
  const inside = INSIDE_FRACTION * Math.min(pin.r, -bore.r);
  if (pin.type === SURFACE_CYLINDER && bore.type === SURFACE_CYLINDER) {
    const sin = sinBetween(pin, bore);
    if (sin > TILTED) return null;
    // The faces' extents along the bore's axis, and the pin's axis against the bore's at both
    // ends of their common length (of the pin's face when they have none).
    const dir = pin.nx * bore.nx + pin.ny * bore.ny + pin.nz * bore.nz > 0 ? 1 : -1;
    const base = (pin.px - bore.px) * bore.nx + (pin.py - bore.py) * bore.ny + (pin.pz - bore.pz) * bore.nz;
    const p0 = base + dir * pin.t0, p1 = base + dir * pin.t1;
    const from = Math.max(bore.t0, Math.min(p0, p1)), to = Math.min(bore.t1, Math.max(p0, p1));
    const overlap = to - from;
    const ends = overlap > 0 ? [dir * (from - base), dir * (to - base)] : [pin.t0, pin.t1];
    const e0 = lineOffset(bore, pin.px + ends[0] * pin.nx, pin.py + ends[0] * pin.ny, pin.pz + ends[0] * pin.nz);
    const e1 = lineOffset(bore, pin.px + ends[1] * pin.nx, pin.py + ends[1] * pin.ny, pin.pz + ends[1] * pin.nz);
    // A tilt θ also makes the pin's section across the bore's axis an ellipse, r/cos θ wide, and
    // shifts where along the pin a point of the bore's axis lies (by at most L·(1/cos θ − 1)).
    const sec = 1 / Math.sqrt(Math.max(1e-12, 1 - sin * sin)) - 1;
    const e = Math.max(e0, e1) + (pin.r + Math.abs(ends[1] - ends[0]) * sin) * sec;
    if (e > inside) return null;
    return [gap - e - res, overlap > 0 ? gap + e + res : Infinity];
  }
  if (pin.type === SURFACE_SPHERE && bore.type === SURFACE_SPHERE) {
    const e = Math.hypot(pin.px - bore.px, pin.py - bore.py, pin.pz - bore.pz);
    if (e > inside) return null;
    // Concentric to within e, the surfaces are gap ± e apart in every direction, so wherever
    // their triangles meet.
    return [gap - e - res, gap + e + res];
  }
  if (pin.type === SURFACE_SPHERE && bore.type === SURFACE_CYLINDER) {
    const e = lineOffset(bore, pin.px, pin.py, pin.pz);
    if (e > inside) return null;
    const t = (pin.px - bore.px) * bore.nx + (pin.py - bore.py) * bore.ny + (pin.pz - bore.pz) * bore.nz;
    return [gap - e - res, t >= bore.t0 && t <= bore.t1 ? gap + e + res : Infinity];
  }
  return null;
}

/**
 * A cylinder face `cyl` (of one part) across plane face `planeFace` of part `owner`, the plane
 * perpendicular to the cylinder's axis. Two lower bounds hold, and the larger is taken:
 * - heights along the plane's normal are positions along the axis, so the cylinder's points lie
 *   no lower under the plane than its lower end (a bolt head standing on a plate);
 * - when the plane's face lies wholly outside a bore of its own part coaxial with the cylinder (a
 *   plate's face around its hole: every vertex at least the bore's radius from its axis, the
 *   nearest ones on it) and the cylinder is a pin in it, or wholly inside a pin of its own part
 *   (a pin's end face) and the cylinder is a bore around it, the two are apart at least as far as
 *   the pin and the bore: the bound of the cylinder against that bore or pin.
 */
function acrossPlaneBound(cyl: Surface, plane: Surface, owner: CheckPart, ownerRows: ArrayLike<number> | null, planeFace: number): [number, number] | null {
  if (Math.abs(plane.nx * cyl.nx + plane.ny * cyl.ny + plane.nz * cyl.nz) < 1 - PARALLEL * PARALLEL) return null;
  const res = cyl.residual + plane.residual;
  const height = (t: number): number =>
    plane.nx * (cyl.px + t * cyl.nx) + plane.ny * (cyl.py + t * cyl.ny) + plane.nz * (cyl.pz + t * cyl.nz) - plane.d;
  let best = Math.min(height(cyl.t0), height(cyl.t1)) - res;

  const ranges = owner.faceRanges!, faces = ranges.length / 2;
  const other = blank(), own = blank();
  const P = owner.mesh.positions, I = owner.mesh.indices;
  const first = ranges[2 * planeFace], last = ranges[2 * planeFace + 1];
  for (let f = 0; f < faces; f++) {
    if (owner.surfaces!.records[f * SURFACE_STRIDE] !== SURFACE_CYLINDER) continue;
    surfaceOf(owner, f, ownerRows, other);
    if (!parallel(cyl, other) || Math.sign(other.r) === Math.sign(cyl.r)) continue;
    if (lineOffset(other, cyl.px, cyl.py, cyl.pz) > INSIDE_FRACTION * Math.min(Math.abs(cyl.r), Math.abs(other.r))) continue;
    // The plane face's vertices against that cylinder's radius (in the owner's frame).
    surfaceOf(owner, f, null, own);
    const R = Math.abs(own.r);
    const tol = 2 * own.residual + 2e-5 + 1e-9 * R;
    let min = Infinity, max = 0;
    for (let t = first; t <= last; t++) {
      for (let k = 0; k < 3; k++) {
        const v = 3 * I[3 * t + k];
        const rho = lineOffset(own, P[v], P[v + 1], P[v + 2]);
        min = Math.min(min, rho); max = Math.max(max, rho);
      }
    }
    const outside = own.r < 0 && Math.abs(min - R) <= tol; // around a bore, the pin in it
    const inside = own.r > 0 && Math.abs(max - R) <= tol; // a pin's end, the bore around it
    if (!outside && !inside) continue;
    const b = facePairBounds(cyl, other);
    if (b) best = Math.max(best, b[0]);
  }
  return [best, Infinity];
}

/**
 * Any face `face` of part `owner` against cylinder `cyl` of the other part, by how far the face
 * lies from the cylinder's axis: a pin (convex) is apart from a face whose points all lie at least
 * ρ from its axis by at least ρ − r; a bore (concave) from a face within ρ of its axis by at least
 * r − ρ. ρ is taken over the face's vertices; between them the exact face may come closer to the
 * axis by its chordal error, except when every vertex lies on one of two circles about the axis
 * (a chamfer's or a counterbore's rims: OpenCascade meshes a cone or a cylinder in strips from rim
 * to rim, and between coaxial circles such a face keeps between their radii).
 */
function radialBound(cyl: Surface, owner: CheckPart, ownerRows: ArrayLike<number> | null, face: number, ownResidual: number): [number, number] | null {
  const ranges = owner.faceRanges!;
  const first = ranges[2 * face], last = ranges[2 * face + 1];
  const P = owner.mesh.positions, I = owner.mesh.indices;
  const R = ownerRows;
  let min = Infinity, max = 0, chord = 0;
  const levels: number[] = []; // t, ρ of up to two circles
  let twoCircles = true;
  const tol = 2e-5 + 1e-9 * Math.abs(cyl.r) + ownResidual;
  const c = owner.chordErrorMm;
  for (let t = first; t <= last; t++) {
    if (c) chord = Math.max(chord, owner.deflectionMm != null ? Math.min(c[t], owner.deflectionMm) : c[t]);
    for (let k = 0; k < 3; k++) {
      const v = 3 * I[3 * t + k];
      let x = P[v], y = P[v + 1], z = P[v + 2];
      if (R) {
        const X = R[0] * x + R[1] * y + R[2] * z + R[3], Y = R[4] * x + R[5] * y + R[6] * z + R[7], Z = R[8] * x + R[9] * y + R[10] * z + R[11];
        x = X; y = Y; z = Z;
      }
      const wx = x - cyl.px, wy = y - cyl.py, wz = z - cyl.pz;
      const along = wx * cyl.nx + wy * cyl.ny + wz * cyl.nz;
      const rho = Math.hypot(wx - along * cyl.nx, wy - along * cyl.ny, wz - along * cyl.nz);
      min = Math.min(min, rho); max = Math.max(max, rho);
      if (twoCircles) {
        let found = false;
        for (let j = 0; j < levels.length; j += 2) {
          if (Math.abs(levels[j] - along) <= tol) {
            found = true;
            if (Math.abs(levels[j + 1] - rho) > tol) twoCircles = false;
            break;
          }
        }
        if (!found) {
          if (levels.length === 4) twoCircles = false;
          else levels.push(along, rho);
        }
      }
    }
  }
  const slack = (twoCircles ? 0 : chord) + ownResidual + cyl.residual;
  if (cyl.r > 0) return [min - slack - cyl.r, Infinity];
  return [-cyl.r - max - slack, Infinity];
}

/**
 * Bounds on the exact separation of parts a and b (B placed in A's frame by relRows, row-major
 * 3×4) from the surfaces of the faces that meet at triangle pairs [ia, ib, …]; null when neither
 * part has recovered surfaces.
 */
export function surfaceBounds(a: CheckPart, b: CheckPart, relRows: ArrayLike<number>, pairs: ArrayLike<number>): SeparationBounds | null {
  if (!a.surfaces || !b.surfaces || !a.faceRanges || !b.faceRanges) return null;
  // The distinct face pairs, with the triangles of each side that meet there.
  const groups = new Map<number, { fa: number; fb: number; ta: number[]; tb: number[] }>();
  const nb = b.faceRanges.length / 2;
  for (let k = 0; k < pairs.length; k += 2) {
    const fa = faceOfTriangle(a.faceRanges, pairs[k]), fb = faceOfTriangle(b.faceRanges, pairs[k + 1]);
    if (fa < 0 || fb < 0) return { lo: -Infinity, hi: Infinity };
    const key = fa * nb + fb;
    let g = groups.get(key);
    if (!g) { g = { fa, fb, ta: [], tb: [] }; groups.set(key, g); }
    g.ta.push(pairs[k]); g.tb.push(pairs[k + 1]);
  }
  let lo = Infinity, hi = Infinity, allKnown = true;
  const sa = blank(), sb = blank();
  for (const g of groups.values()) {
    surfaceOf(a, g.fa, null, sa);
    surfaceOf(b, g.fb, relRows, sb);
    let bound = facePairBounds(sa, sb);
    if (!bound && sa.type === SURFACE_CYLINDER && sb.type === SURFACE_PLANE) bound = acrossPlaneBound(sa, sb, b, relRows, g.fb);
    if (!bound && sb.type === SURFACE_CYLINDER && sa.type === SURFACE_PLANE) bound = acrossPlaneBound(sb, sa, a, null, g.fa);
    if (!bound && sa.type === SURFACE_CYLINDER) bound = radialBound(sa, b, relRows, g.fb, sb.residual);
    if (!bound && sb.type === SURFACE_CYLINDER) bound = radialBound(sb, a, null, g.fa, sa.residual);
    if (!bound) { allKnown = false; continue; }
    lo = Math.min(lo, bound[0]);
    hi = Math.min(hi, bound[1]);
  }
  return { lo: allKnown ? lo : -Infinity, hi };
}
