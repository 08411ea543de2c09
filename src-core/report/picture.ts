/**
 * A picture of one finding for the HTML report: the two parts around where they meet, drawn as
 * an inline SVG of projected triangles, without a GPU or a browser (the command line makes the
 * same pictures as the app).
 *
 * What is drawn, in two views side by side (an isometric one, and the view along the axis in
 * which the region of contact is thinnest):
 *   - the triangles of both parts near the region of contact, flat-shaded by their normals and
 *     drawn far to near (painter's algorithm), part A blue, part B olive;
 *   - the crossing triangles (the result's triangle pairs) in red, in depth order and again on
 *     top, faintly, so that those hidden inside the other part still show;
 *   - the outline of the overlap: the curve where the two surfaces cross (the segments where
 *     each crossing triangle pair meets), and the silhouette of the overlap solid when given;
 *     its centroid as a ring;
 *   - for a clearance, the closest points joined by a line;
 *   - a scale bar in mm.
 *
 * Region: the box of the contact (the crossing curve, else the crossing triangles; the overlap
 * solid, the centroid and the closest points), grown by a margin; a triangle is kept when its
 * box meets the grown box. Never the whole part: at most `maxTriangles` per view, the crossing
 * ones first and then the nearest to the contact; triangles smaller than a fiftieth of a pixel
 * after projection are dropped, and neighbours in depth order with the same shade share one
 * path. Coordinates are rounded to 0.1 px, and a picture larger than `maxBytes` is drawn again
 * with fewer triangles, so the page stays bounded.
 *
 * The SVG uses presentation attributes only (no style attribute, no script, no URL), so it
 * passes the report page's Content-Security-Policy. Pure functions over flat typed arrays.
 */

import type { InterferenceReport, ReportResult } from './model.js';

export type Point3 = readonly [number, number, number];

/** One part's triangles: positions (x, y, z per vertex) and indices (three per triangle). */
export interface PictureBody {
  readonly positions: ArrayLike<number>;
  readonly indices: ArrayLike<number>;
  /** Body → world, row-major 3×4 or 4×4; absent or null: the positions are world coordinates. */
  readonly transform?: ArrayLike<number> | null;
}

export interface PictureInput {
  readonly a: PictureBody;
  readonly b: PictureBody;
  /** Crossing triangle pairs: flat [triangle of a, triangle of b, …] or a list of pairs. */
  readonly trianglePairs: ArrayLike<number> | readonly (readonly [number, number])[];
  /** The overlap solid (world coordinates), when known: its silhouette is outlined. */
  readonly overlap?: { readonly positions: ArrayLike<number>; readonly indices: ArrayLike<number> } | null;
  /** The overlap's centroid (world mm). */
  readonly centroid?: Point3 | null;
  /** The two closest points (world mm), for a clearance. */
  readonly closestPoints?: readonly [Point3, Point3] | null;
}

export interface PictureOptions {
  /** Size of each view in px (default 320 × 240). */
  readonly viewWidth?: number;
  readonly viewHeight?: number;
  /** Most triangles drawn per view (default 800). */
  readonly maxTriangles?: number;
  /** Largest SVG text (default 150,000 bytes); a larger picture is drawn again with fewer triangles. */
  readonly maxBytes?: number;
  /** Text for the SVG's aria-label (escaped here). */
  readonly label?: string;
}

/** An axis-aligned box: [minX, minY, minZ, maxX, maxY, maxZ]. */
export type Box = Float64Array;

export const PICTURE_DEFAULTS = { viewWidth: 320, viewHeight: 240, maxTriangles: 800, maxBytes: 150_000 } as const;

/** Colours (r, g, b) of part A, part B and the crossing triangles. */
const BASE_A: Point3 = [70, 112, 172];
const BASE_B: Point3 = [150, 162, 118];
const BASE_CROSS: Point3 = [228, 28, 28];
const OUTLINE = '#111';
const CLOSEST = '#f08c00';
/** Shades are quantised to this many levels, so that neighbours share paths. */
const SHADES = 16;
/** Triangles smaller than this (px²) after projection are not drawn. */
const MIN_AREA_PX2 = 0.02;

// ---------------------------------------------------------------------------------------------
// Boxes and world coordinates

export function emptyBox(): Box {
  return Float64Array.of(Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity);
}

export function boxIsEmpty(b: Box): boolean {
  return !(b[0]! <= b[3]! && b[1]! <= b[4]! && b[2]! <= b[5]!);
}

export function addPoint(b: Box, x: number, y: number, z: number): void {
  if (x < b[0]!) b[0] = x;
  if (y < b[1]!) b[1] = y;
  if (z < b[2]!) b[2] = z;
  if (x > b[3]!) b[3] = x;
  if (y > b[4]!) b[4] = y;
  if (z > b[5]!) b[5] = z;
}

function boxDiagonal(b: Box): number {
  return boxIsEmpty(b) ? 0 : Math.hypot(b[3]! - b[0]!, b[4]! - b[1]!, b[5]! - b[2]!);
}

/** The body's vertices in world coordinates (the positions themselves when they are, as doubles). */
export function worldPositions(body: PictureBody): Float64Array {
  const p = body.positions;
  const m = body.transform;
  if (!m && p instanceof Float64Array) return p;
  const out = new Float64Array(p.length);
  if (!m) {
    for (let i = 0; i < p.length; i++) out[i] = p[i]!;
    return out;
  }
  for (let i = 0; i + 2 < p.length; i += 3) {
    const x = p[i]!, y = p[i + 1]!, z = p[i + 2]!;
    out[i] = m[0]! * x + m[1]! * y + m[2]! * z + m[3]!;
    out[i + 1] = m[4]! * x + m[5]! * y + m[6]! * z + m[7]!;
    out[i + 2] = m[8]! * x + m[9]! * y + m[10]! * z + m[11]!;
  }
  return out;
}

function boxOfAll(positions: Float64Array): Box {
  const b = emptyBox();
  for (let i = 0; i + 2 < positions.length; i += 3) addPoint(b, positions[i]!, positions[i + 1]!, positions[i + 2]!);
  return b;
}

function flatPairs(pairs: PictureInput['trianglePairs']): Uint32Array {
  if (pairs.length > 0 && Array.isArray(pairs[0])) {
    const list = pairs as readonly (readonly [number, number])[];
    const out = new Uint32Array(list.length * 2);
    list.forEach((p, i) => { out[2 * i] = p[0]; out[2 * i + 1] = p[1]; });
    return out;
  }
  return Uint32Array.from(pairs as ArrayLike<number>);
}

// ---------------------------------------------------------------------------------------------
// Where the surfaces cross

/**
 * The segment where two crossing triangles meet (floating point: for drawing), written to out
 * (x0 y0 z0 x1 y1 z1); false when there is none to draw (coplanar, degenerate or apart).
 */
export function crossingSegment(
  pa: Float64Array, ia: ArrayLike<number>, ta: number,
  pb: Float64Array, ib: ArrayLike<number>, tb: number,
  out: Float64Array,
): boolean {
  const a0 = ia[3 * ta]! * 3, a1 = ia[3 * ta + 1]! * 3, a2 = ia[3 * ta + 2]! * 3;
  const b0 = ib[3 * tb]! * 3, b1 = ib[3 * tb + 1]! * 3, b2 = ib[3 * tb + 2]! * 3;
  const na = normalOf(pa, a0, a1, a2);
  const nb = normalOf(pb, b0, b1, b2);
  const dx = na[1] * nb[2] - na[2] * nb[1];
  const dy = na[2] * nb[0] - na[0] * nb[2];
  const dz = na[0] * nb[1] - na[1] * nb[0];
  const dl = Math.hypot(dx, dy, dz);
  if (!(dl > 1e-9)) return false;
  const sa = planeCut(pa, a0, a1, a2, pb, b0, nb);
  const sb = planeCut(pb, b0, b1, b2, pa, a0, na);
  if (sa === null || sb === null) return false;
  const t = (p: readonly number[], k: number): number => p[k]! * dx + p[k + 1]! * dy + p[k + 2]! * dz;
  let sa0 = t(sa, 0), sa1 = t(sa, 3);
  let flipA = false;
  if (sa0 > sa1) { [sa0, sa1] = [sa1, sa0]; flipA = true; }
  const sb0 = Math.min(t(sb, 0), t(sb, 3)), sb1 = Math.max(t(sb, 0), t(sb, 3));
  const lo = Math.max(sa0, sb0), hi = Math.min(sa1, sb1);
  if (lo > hi) return false;
  const span = sa1 - sa0;
  const from = flipA ? 3 : 0, to = flipA ? 0 : 3;
  for (let k = 0; k < 3; k++) {
    const p = sa[from + k]!, q = sa[to + k]!;
    out[k] = span > 0 ? p + ((q - p) * (lo - sa0)) / span : p;
    out[3 + k] = span > 0 ? p + ((q - p) * (hi - sa0)) / span : p;
  }
  return true;
}

function normalOf(p: Float64Array, i0: number, i1: number, i2: number): [number, number, number] {
  const ux = p[i1]! - p[i0]!, uy = p[i1 + 1]! - p[i0 + 1]!, uz = p[i1 + 2]! - p[i0 + 2]!;
  const vx = p[i2]! - p[i0]!, vy = p[i2 + 1]! - p[i0 + 1]!, vz = p[i2 + 2]! - p[i0 + 2]!;
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const l = Math.hypot(nx, ny, nz);
  return l > 0 ? [nx / l, ny / l, nz / l] : [0, 0, 0];
}

/** Where the triangle (p at i0 i1 i2) meets the plane through q[j] with normal n: two points, or null. */
function planeCut(p: Float64Array, i0: number, i1: number, i2: number, q: Float64Array, j: number, n: readonly number[]): number[] | null {
  const idx = [i0, i1, i2];
  const d = idx.map((i) => (p[i]! - q[j]!) * n[0]! + (p[i + 1]! - q[j + 1]!) * n[1]! + (p[i + 2]! - q[j + 2]!) * n[2]!);
  const pts: number[] = [];
  for (let e = 0; e < 3; e++) {
    const i = idx[e]!, k = idx[(e + 1) % 3]!;
    const di = d[e]!, dk = d[(e + 1) % 3]!;
    if (di === 0) pts.push(p[i]!, p[i + 1]!, p[i + 2]!);
    if ((di < 0 && dk > 0) || (di > 0 && dk < 0)) {
      const s = di / (di - dk);
      pts.push(p[i]! + (p[k]! - p[i]!) * s, p[i + 1]! + (p[k + 1]! - p[i + 1]!) * s, p[i + 2]! + (p[k + 2]! - p[i + 2]!) * s);
    }
  }
  if (pts.length < 6) return pts.length === 3 ? [...pts, ...pts] : null;
  return pts.slice(0, 6);
}

// ---------------------------------------------------------------------------------------------
// Views

/** An orthographic view: world → px (x right, y down) and depth (larger is farther). */
export interface View {
  readonly name: string;
  readonly right: Point3;
  readonly up: Point3;
  /** Towards the viewer. */
  readonly back: Point3;
  readonly scale: number;
  readonly offsetX: number;
  readonly offsetY: number;
  readonly width: number;
  readonly height: number;
}

function normalize(v: readonly number[]): [number, number, number] {
  const l = Math.hypot(v[0]!, v[1]!, v[2]!);
  return [v[0]! / l, v[1]! / l, v[2]! / l];
}

function cross(a: readonly number[], b: readonly number[]): [number, number, number] {
  return [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
}

/** The view's axes for a direction towards the viewer, with world z (or y, looking along z) up. */
export function viewAxes(back: readonly number[]): { right: Point3; up: Point3; back: Point3 } {
  const bk = normalize(back);
  const worldUp = Math.abs(bk[2]) > 0.99 ? [0, 1, 0] : [0, 0, 1];
  const right = normalize(cross(worldUp, bk));
  const up = cross(bk, right);
  return { right, up, back: bk };
}

/** The view of `frame` from direction `back`, scaled so the frame's projection fills width × height less a border. */
export function frameView(name: string, back: readonly number[], frame: Box, width: number, height: number, border = 8): View {
  const { right, up, back: bk } = viewAxes(back);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let c = 0; c < 8; c++) {
    const x = c & 1 ? frame[3]! : frame[0]!, y = c & 2 ? frame[4]! : frame[1]!, z = c & 4 ? frame[5]! : frame[2]!;
    const sx = x * right[0] + y * right[1] + z * right[2];
    const sy = -(x * up[0] + y * up[1] + z * up[2]);
    minX = Math.min(minX, sx); maxX = Math.max(maxX, sx);
    minY = Math.min(minY, sy); maxY = Math.max(maxY, sy);
  }
  const w = maxX - minX, h = maxY - minY;
  const sw = w > 0 ? (width - 2 * border) / w : Infinity;
  const sh = h > 0 ? (height - 2 * border) / h : Infinity;
  let scale = Math.min(sw, sh);
  if (!Number.isFinite(scale) || scale <= 0) scale = 1;
  return {
    name, right, up, back: bk, scale, width, height,
    offsetX: width / 2 - scale * (minX + maxX) / 2,
    offsetY: height / 2 - scale * (minY + maxY) / 2,
  };
}

/** The point's place in the view: [x px, y px, depth (world units, larger is farther)]. */
export function project(v: View, x: number, y: number, z: number): [number, number, number] {
  return [
    v.offsetX + v.scale * (x * v.right[0] + y * v.right[1] + z * v.right[2]),
    v.offsetY - v.scale * (x * v.up[0] + y * v.up[1] + z * v.up[2]),
    -(x * v.back[0] + y * v.back[1] + z * v.back[2]),
  ];
}

/** The isometric direction and the axis along which `contact` is thinnest (towards the viewer). */
export function viewDirections(contact: Box): { name: string; back: Point3; axis: number | null }[] {
  const ext = [contact[3]! - contact[0]!, contact[4]! - contact[1]!, contact[5]! - contact[2]!];
  let k = 0;
  for (let i = 1; i < 3; i++) if (ext[i]! < ext[k]!) k = i;
  const back: [number, number, number] = [0, 0, 0];
  back[k] = 1;
  return [{ name: 'isometric', back: [1, -1, 1], axis: null }, { name: `along ${'xyz'[k]}`, back, axis: k }];
}

// ---------------------------------------------------------------------------------------------
// The scene: the region and the triangles near it

export interface PictureScene {
  /** The box of the contact, before the margin. */
  readonly contact: Box;
  /** The box the views frame. */
  readonly frame: Box;
  readonly worldA: Float64Array;
  readonly worldB: Float64Array;
  /** Kept triangles: body (0 a, 1 b) and index, crossing ones first. */
  readonly keptBody: Uint8Array;
  readonly keptTri: Uint32Array;
  readonly keptCrossing: Uint8Array;
  /** Where the surfaces cross: segments x0 y0 z0 x1 y1 z1. */
  readonly segments: Float64Array;
}

/** Most crossing segments drawn. */
const MAX_SEGMENTS = 4000;

/**
 * The region of contact and the triangles to draw (at most `maxTriangles`). With `openAxis` (0, 1
 * or 2: a view along that axis), the frame does not cut along it: the triangles in front of and
 * behind the region are kept, so the view shows the parts' surfaces as they face the viewer.
 */
export function pictureScene(input: PictureInput, maxTriangles: number = PICTURE_DEFAULTS.maxTriangles, openAxis: number | null = null): PictureScene {
  const worldA = worldPositions(input.a);
  const worldB = worldPositions(input.b);
  const ia = input.a.indices, ib = input.b.indices;
  const nA = Math.floor(ia.length / 3), nB = Math.floor(ib.length / 3);
  const pairs = flatPairs(input.trianglePairs);
  const crossA = new Uint8Array(nA), crossB = new Uint8Array(nB);
  const contact = emptyBox();
  const crossBox = emptyBox();
  const seg = new Float64Array(6);
  const segments: number[] = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const ta = pairs[i]!, tb = pairs[i + 1]!;
    if (ta >= nA || tb >= nB || !inRange(worldA, ia, ta) || !inRange(worldB, ib, tb)) continue;
    if (!crossA[ta]) { crossA[ta] = 1; addTriangle(crossBox, worldA, ia, ta); }
    if (!crossB[tb]) { crossB[tb] = 1; addTriangle(crossBox, worldB, ib, tb); }
    if (segments.length < MAX_SEGMENTS * 6 && crossingSegment(worldA, ia, ta, worldB, ib, tb, seg)) {
      segments.push(...seg);
      addPoint(contact, seg[0]!, seg[1]!, seg[2]!);
      addPoint(contact, seg[3]!, seg[4]!, seg[5]!);
    }
  }
  if (boxIsEmpty(contact) && !boxIsEmpty(crossBox)) contact.set(crossBox);
  const ov = input.overlap;
  if (ov) for (let i = 0; i + 2 < ov.positions.length; i += 3) addPoint(contact, ov.positions[i]!, ov.positions[i + 1]!, ov.positions[i + 2]!);
  if (input.centroid) addPoint(contact, ...input.centroid);
  if (input.closestPoints) for (const p of input.closestPoints) addPoint(contact, ...p);
  const boxA = boxOfAll(worldA), boxB = boxOfAll(worldB);
  if (boxIsEmpty(contact)) {
    // Nothing crosses (a part inside the other, or no figures): where the parts' boxes meet.
    const meet = Float64Array.of(
      Math.max(boxA[0]!, boxB[0]!), Math.max(boxA[1]!, boxB[1]!), Math.max(boxA[2]!, boxB[2]!),
      Math.min(boxA[3]!, boxB[3]!), Math.min(boxA[4]!, boxB[4]!), Math.min(boxA[5]!, boxB[5]!),
    );
    if (!boxIsEmpty(meet)) contact.set(meet);
    else {
      contact.set(boxA);
      addPoint(contact, boxB[0]!, boxB[1]!, boxB[2]!);
      addPoint(contact, boxB[3]!, boxB[4]!, boxB[5]!);
    }
  }
  if (boxIsEmpty(contact)) contact.set([0, 0, 0, 0, 0, 0]);
  const smaller = Math.min(boxDiagonal(boxA) || Infinity, boxDiagonal(boxB) || Infinity);
  const diag = boxDiagonal(contact);
  let margin = Math.max(0.6 * diag, 0.1 * (Number.isFinite(smaller) ? smaller : 0));
  if (!(margin > 0)) margin = 1;
  const frame = Float64Array.of(contact[0]! - margin, contact[1]! - margin, contact[2]! - margin, contact[3]! + margin, contact[4]! + margin, contact[5]! + margin);

  // Candidates: the crossing triangles, then those whose box meets the frame, nearest first.
  const cx = (contact[0]! + contact[3]!) / 2, cy = (contact[1]! + contact[4]!) / 2, cz = (contact[2]! + contact[5]!) / 2;
  const body: number[] = [], tri: number[] = [], crossing: number[] = [], dist: number[] = [];
  const consider = (w: Float64Array, idx: ArrayLike<number>, n: number, flags: Uint8Array, which: number): void => {
    for (let t = 0; t < n; t++) {
      if (!inRange(w, idx, t)) continue;
      const i0 = idx[3 * t]! * 3, i1 = idx[3 * t + 1]! * 3, i2 = idx[3 * t + 2]! * 3;
      const x0 = w[i0]!, y0 = w[i0 + 1]!, z0 = w[i0 + 2]!, x1 = w[i1]!, y1 = w[i1 + 1]!, z1 = w[i1 + 2]!, x2 = w[i2]!, y2 = w[i2 + 1]!, z2 = w[i2 + 2]!;
      if (!flags[t]) {
        if (openAxis !== 0 && (Math.max(x0, x1, x2) < frame[0]! || Math.min(x0, x1, x2) > frame[3]!)) continue;
        if (openAxis !== 1 && (Math.max(y0, y1, y2) < frame[1]! || Math.min(y0, y1, y2) > frame[4]!)) continue;
        if (openAxis !== 2 && (Math.max(z0, z1, z2) < frame[2]! || Math.min(z0, z1, z2) > frame[5]!)) continue;
      }
      body.push(which); tri.push(t); crossing.push(flags[t]!);
      const dx = Math.max(0, Math.min(x0, x1, x2) - cx, cx - Math.max(x0, x1, x2));
      const dy = Math.max(0, Math.min(y0, y1, y2) - cy, cy - Math.max(y0, y1, y2));
      const dz = Math.max(0, Math.min(z0, z1, z2) - cz, cz - Math.max(z0, z1, z2));
      dist.push(dx * dx + dy * dy + dz * dz);
    }
  };
  consider(worldA, ia, nA, crossA, 0);
  consider(worldB, ib, nB, crossB, 1);
  let order: number[] = Array.from(dist.keys());
  if (order.length > maxTriangles) {
    // The crossing triangles first, up to 3/5 of the cap (so that the parts around them show
    // too), then the others; each the nearest to the contact.
    const keep = Math.max(1, maxTriangles);
    const crossingOnes = order.filter((i) => crossing[i] === 1);
    const others = order.filter((i) => crossing[i] === 0);
    const crossingKept = nearest(crossingOnes, dist, Math.min(crossingOnes.length, others.length > 0 ? Math.ceil(0.6 * keep) : keep));
    const othersKept = nearest(others, dist, keep - crossingKept.length);
    order = [...crossingKept, ...othersKept];
    // Frame what is kept: the frame shrinks to the kept triangles' reach (never below the contact).
    const reach = Math.sqrt(Math.max(0, ...[crossingKept, othersKept].map((l) => (l.length > 0 ? dist[l[l.length - 1]!]! : 0))));
    for (let k = 0; k < 3; k++) {
      frame[k] = Math.max(frame[k]!, Math.min(contact[k]!, (k === 0 ? cx : k === 1 ? cy : cz) - reach));
      frame[k + 3] = Math.min(frame[k + 3]!, Math.max(contact[k + 3]!, (k === 0 ? cx : k === 1 ? cy : cz) + reach));
    }
  }
  return {
    contact, frame, worldA, worldB,
    keptBody: Uint8Array.from(order, (i) => body[i]!),
    keptTri: Uint32Array.from(order, (i) => tri[i]!),
    keptCrossing: Uint8Array.from(order, (i) => crossing[i]!),
    segments: Float64Array.from(segments),
  };
}

/** The `count` of `ids` with the smallest `dist`, nearest first. */
function nearest(ids: readonly number[], dist: readonly number[], count: number): number[] {
  if (count <= 0) return [];
  if (ids.length <= count) return [...ids].sort((p, q) => dist[p]! - dist[q]!);
  // A typed sort finds the cut; only the kept ones are sorted by a comparison.
  const cut = Float64Array.from(ids, (i) => dist[i]!).sort()[count - 1]!;
  let atCut = count - ids.reduce((n, i) => n + (dist[i]! < cut ? 1 : 0), 0);
  return ids.filter((i) => dist[i]! < cut || (dist[i] === cut && atCut-- > 0)).sort((p, q) => dist[p]! - dist[q]!);
}

/** Whether triangle t's vertices are all in `w` (a triangle that is not is not drawn). */
function inRange(w: Float64Array, idx: ArrayLike<number>, t: number): boolean {
  const n = w.length / 3;
  return idx[3 * t]! < n && idx[3 * t + 1]! < n && idx[3 * t + 2]! < n;
}

function addTriangle(b: Box, w: Float64Array, idx: ArrayLike<number>, t: number): void {
  for (let k = 0; k < 3; k++) {
    const i = idx[3 * t + k]! * 3;
    addPoint(b, w[i]!, w[i + 1]!, w[i + 2]!);
  }
}

// ---------------------------------------------------------------------------------------------
// SVG

/** A coordinate to 0.1 px, as short as it goes. */
export function px(v: number): string {
  const r = Math.round(v * 10) / 10;
  return r === 0 ? '0' : String(r);
}

/** An integer count of tenths as a number: 123 → "12.3", -5 → "-.5". */
function tenths(t: number): string {
  if (t === 0) return '0';
  const a = Math.abs(t);
  const whole = Math.floor(a / 10), frac = a % 10;
  return `${t < 0 ? '-' : ''}${whole === 0 && frac !== 0 ? '' : whole}${frac !== 0 ? `.${frac}` : ''}`;
}

function hex(c: readonly number[], k: number): string {
  return `#${c.map((x) => Math.max(0, Math.min(255, Math.round(x * k))).toString(16).padStart(2, '0')).join('')}`;
}

function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'));
}

/** A length for the scale bar: 1, 2 or 5 × 10^k mm, about a fifth of the view. */
function scaleBarMm(view: View): number {
  const target = (view.width / 5) / view.scale;
  const p = 10 ** Math.floor(Math.log10(target));
  return [5, 2, 1].map((m) => m * p).find((l) => l <= target) ?? p;
}

function mmText(mm: number): string {
  return mm >= 1 ? String(mm) : mm.toPrecision(1).replace(/^0\./, '0.');
}

/** One view of the scene as SVG elements (inside a nested `<svg>` at x). */
function drawView(scene: PictureScene, input: PictureInput, view: View, x: number, maxSegments: number): string {
  const out: string[] = [];
  out.push(`<svg x="${x}" y="0" width="${view.width}" height="${view.height}" viewBox="0 0 ${view.width} ${view.height}">`);
  out.push(`<rect width="${view.width}" height="${view.height}" fill="#f6f8fa"/>`);
  const n = scene.keptTri.length;
  const sx = new Float64Array(n * 3), sy = new Float64Array(n * 3), depth = new Float64Array(n), shade = new Int32Array(n);
  const light = normalize([view.back[0] + 0.35 * view.up[0] + 0.25 * view.right[0], view.back[1] + 0.35 * view.up[1] + 0.25 * view.right[1], view.back[2] + 0.35 * view.up[2] + 0.25 * view.right[2]]);
  const drawn: number[] = [];
  for (let k = 0; k < n; k++) {
    const w = scene.keptBody[k] === 0 ? scene.worldA : scene.worldB;
    const idx = scene.keptBody[k] === 0 ? input.a.indices : input.b.indices;
    const t = scene.keptTri[k]!;
    const i0 = idx[3 * t]! * 3, i1 = idx[3 * t + 1]! * 3, i2 = idx[3 * t + 2]! * 3;
    let dsum = 0;
    [i0, i1, i2].forEach((i, c) => {
      const p = project(view, w[i]!, w[i + 1]!, w[i + 2]!);
      sx[3 * k + c] = p[0]; sy[3 * k + c] = p[1]; dsum += p[2];
    });
    depth[k] = dsum / 3;
    const area = Math.abs((sx[3 * k + 1]! - sx[3 * k]!) * (sy[3 * k + 2]! - sy[3 * k]!) - (sx[3 * k + 2]! - sx[3 * k]!) * (sy[3 * k + 1]! - sy[3 * k]!)) / 2;
    if (area < MIN_AREA_PX2 && !scene.keptCrossing[k]) continue;
    const nrm = normalOf(w, i0, i1, i2);
    const facing = nrm[0] * view.back[0] + nrm[1] * view.back[1] + nrm[2] * view.back[2];
    const lit = 0.35 + 0.65 * Math.abs(nrm[0] * light[0] + nrm[1] * light[1] + nrm[2] * light[2]);
    const level = Math.round(lit * (facing < 0 ? 0.7 : 1) * SHADES);
    shade[k] = level;
    drawn.push(k);
  }
  drawn.sort((p, q) => depth[q]! - depth[p]! || p - q);
  // Absolute first vertex, then steps between the rounded vertices (no drift: each step is exact in tenths).
  const tri = (k: number): string => {
    const x0 = Math.round(sx[3 * k]! * 10), y0 = Math.round(sy[3 * k]! * 10);
    const x1 = Math.round(sx[3 * k + 1]! * 10), y1 = Math.round(sy[3 * k + 1]! * 10);
    const x2 = Math.round(sx[3 * k + 2]! * 10), y2 = Math.round(sy[3 * k + 2]! * 10);
    return `M${tenths(x0)} ${tenths(y0)}l${tenths(x1 - x0)} ${tenths(y1 - y0)} ${tenths(x2 - x1)} ${tenths(y2 - y1)}z`;
  };
  const fillOf = (k: number): string => hex(scene.keptCrossing[k] ? BASE_CROSS : scene.keptBody[k] === 0 ? BASE_A : BASE_B, shade[k]! / SHADES);
  // Painter's order; a run of the same fill is one path. The stroke in the fill's colour closes
  // the hairline seams between neighbours.
  out.push('<g stroke-width="0.6" stroke-linejoin="round">');
  let run = '', runFill = '';
  const flush = (): void => { if (run !== '') out.push(`<path d="${run}" fill="${runFill}" stroke="${runFill}"/>`); run = ''; };
  for (const k of drawn) {
    const f = fillOf(k);
    if (f !== runFill) { flush(); runFill = f; }
    run += tri(k);
  }
  flush();
  out.push('</g>');
  // The crossing triangles again, faintly on top: those inside the other part still show.
  const crossingOnTop = drawn.filter((k) => scene.keptCrossing[k]).map(tri).join('');
  if (crossingOnTop !== '') out.push(`<path d="${crossingOnTop}" fill="${hex(BASE_CROSS, 1)}" fill-opacity="0.35"/>`);
  // The crossing curve, its segments chained into polylines.
  const ends: number[] = [];
  for (let i = 0; i + 5 < scene.segments.length && i < maxSegments * 6; i += 6) {
    const p = project(view, scene.segments[i]!, scene.segments[i + 1]!, scene.segments[i + 2]!);
    const q = project(view, scene.segments[i + 3]!, scene.segments[i + 4]!, scene.segments[i + 5]!);
    ends.push(Math.round(p[0] * 10), Math.round(p[1] * 10), Math.round(q[0] * 10), Math.round(q[1] * 10));
  }
  const curve = polylines(ends);
  if (curve !== '') out.push(`<path d="${curve}" fill="none" stroke="${OUTLINE}" stroke-width="1.4" stroke-linecap="round"/>`);
  const silhouette = overlapSilhouette(input.overlap ?? null, view, maxSegments);
  if (silhouette !== '') out.push(`<path d="${silhouette}" fill="none" stroke="${OUTLINE}" stroke-width="1.2" stroke-dasharray="4 2"/>`);
  if (input.centroid) {
    const c = project(view, ...input.centroid);
    out.push(`<circle cx="${px(c[0])}" cy="${px(c[1])}" r="4" fill="none" stroke="#fff" stroke-width="3"/><circle cx="${px(c[0])}" cy="${px(c[1])}" r="4" fill="none" stroke="${OUTLINE}" stroke-width="1.4"/>`);
  }
  if (input.closestPoints) {
    const p = project(view, ...input.closestPoints[0]), q = project(view, ...input.closestPoints[1]);
    out.push(
      `<path d="M${px(p[0])} ${px(p[1])}L${px(q[0])} ${px(q[1])}" stroke="${CLOSEST}" stroke-width="2.2" stroke-linecap="round"/>`,
      `<circle cx="${px(p[0])}" cy="${px(p[1])}" r="3" fill="${CLOSEST}"/><circle cx="${px(q[0])}" cy="${px(q[1])}" r="3" fill="${CLOSEST}"/>`,
    );
  }
  // Scale bar and the view's name.
  const bar = scaleBarMm(view);
  const barPx = bar * view.scale;
  const by = view.height - 10;
  out.push(
    `<rect x="${px(view.width - 16 - Math.max(barPx, 44))}" y="${by - 18}" width="${px(Math.max(barPx, 44) + 12)}" height="24" fill="#fff" fill-opacity="0.8"/>`,
    `<path d="M${px(view.width - 10 - barPx)} ${by}h${px(barPx)}" stroke="#333" stroke-width="2"/>`,
    `<text x="${px(view.width - 10 - barPx / 2)}" y="${by - 5}" font-family="sans-serif" font-size="11" fill="#333" text-anchor="middle">${escapeXml(mmText(bar))} mm</text>`,
    `<rect x="2" y="${view.height - 22}" width="${8 + 6.5 * view.name.length}" height="18" fill="#fff" fill-opacity="0.8"/>`,
    `<text x="8" y="${view.height - 8}" font-family="sans-serif" font-size="11" fill="#333">${escapeXml(view.name)}</text>`,
    `<rect x="0.5" y="0.5" width="${view.width - 1}" height="${view.height - 1}" fill="none" stroke="#d0d7de"/>`,
    '</svg>',
  );
  return out.join('');
}

/**
 * Segments (x0 y0 x1 y1 in tenths of a px, four per segment) as path data: those of zero length
 * dropped, duplicates drawn once, and segments that meet end to end chained into one polyline.
 */
export function polylines(ends: readonly number[]): string {
  const key = (x: number, y: number): string => `${x},${y}`;
  const at = new Map<string, number[]>();
  const seen = new Set<string>();
  const live: number[] = [];
  for (let s = 0; s + 3 < ends.length; s += 4) {
    const [x0, y0, x1, y1] = [ends[s]!, ends[s + 1]!, ends[s + 2]!, ends[s + 3]!];
    if (x0 === x1 && y0 === y1) continue;
    const id = x0 < x1 || (x0 === x1 && y0 < y1) ? `${x0},${y0},${x1},${y1}` : `${x1},${y1},${x0},${y0}`;
    if (seen.has(id)) continue;
    seen.add(id);
    live.push(s);
    for (const k of [key(x0, y0), key(x1, y1)]) {
      const list = at.get(k);
      if (list) list.push(s); else at.set(k, [s]);
    }
  }
  const used = new Set<number>();
  let d = '';
  for (const first of live) {
    if (used.has(first)) continue;
    used.add(first);
    let x = ends[first + 2]!, y = ends[first + 3]!;
    d += `M${tenths(ends[first]!)} ${tenths(ends[first + 1]!)}l${tenths(x - ends[first]!)} ${tenths(y - ends[first + 1]!)}`;
    for (;;) {
      const next = at.get(key(x, y))?.find((s) => !used.has(s));
      if (next === undefined) break;
      used.add(next);
      const forward = ends[next] === x && ends[next + 1] === y;
      const nx = forward ? ends[next + 2]! : ends[next]!, ny = forward ? ends[next + 3]! : ends[next + 1]!;
      d += ` ${tenths(nx - x)} ${tenths(ny - y)}`;
      x = nx; y = ny;
    }
  }
  return d;
}

/** Edges of the overlap solid on its outline in this view: between a face towards the viewer and one away, or bounding one face. */
function overlapSilhouette(ov: PictureInput['overlap'], view: View, maxSegments: number): string {
  if (!ov || ov.indices.length < 3) return '';
  const pos = Float64Array.from(ov.positions);
  const idx = ov.indices;
  const nt = Math.floor(idx.length / 3);
  const vc = pos.length / 3;
  const facing = new Int8Array(nt);
  for (let t = 0; t < nt; t++) {
    const n = normalOf(pos, idx[3 * t]! * 3, idx[3 * t + 1]! * 3, idx[3 * t + 2]! * 3);
    facing[t] = n[0] * view.back[0] + n[1] * view.back[1] + n[2] * view.back[2] >= 0 ? 1 : -1;
  }
  // Per undirected edge: the sum of its faces' facing signs and how many faces it has.
  const sum = new Map<number, number>(), count = new Map<number, number>();
  for (let t = 0; t < nt; t++) {
    for (let e = 0; e < 3; e++) {
      const u = idx[3 * t + e]!, v = idx[3 * t + ((e + 1) % 3)]!;
      const key = Math.min(u, v) * vc + Math.max(u, v);
      sum.set(key, (sum.get(key) ?? 0) + facing[t]!);
      count.set(key, (count.get(key) ?? 0) + 1);
    }
  }
  const ends: number[] = [];
  for (const [key, c] of count) {
    const s = sum.get(key)!;
    if (!(c === 1 || Math.abs(s) !== c)) continue;
    if (ends.length >= maxSegments * 4) break;
    const u = Math.floor(key / vc), v = key - u * vc;
    const p = project(view, pos[3 * u]!, pos[3 * u + 1]!, pos[3 * u + 2]!);
    const q = project(view, pos[3 * v]!, pos[3 * v + 1]!, pos[3 * v + 2]!);
    ends.push(Math.round(p[0] * 10), Math.round(p[1] * 10), Math.round(q[0] * 10), Math.round(q[1] * 10));
  }
  return polylines(ends);
}

/** The input with both bodies in world coordinates (transformed once). */
function inWorld(input: PictureInput): PictureInput {
  if (!input.a.transform && !input.b.transform) return input;
  return {
    ...input,
    a: { positions: worldPositions(input.a), indices: input.a.indices },
    b: { positions: worldPositions(input.b), indices: input.b.indices },
  };
}

/** Bytes of the text in UTF-8. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? 2 : c >= 0xdc00 && c < 0xe000 ? 2 : 3;
  }
  return n;
}

/** The views of a scene, framed on it. */
export function pictureViews(scene: PictureScene, options: PictureOptions = {}): View[] {
  const w = options.viewWidth ?? PICTURE_DEFAULTS.viewWidth, h = options.viewHeight ?? PICTURE_DEFAULTS.viewHeight;
  return viewDirections(scene.contact).map((d) => frameView(d.name, d.back, scene.frame, w, h));
}

/**
 * The scene of each view: both views cut the parts at the frame (a cut-away of where they
 * cross) when surfaces cross; for a pair that does not cross, the view along an axis keeps what
 * lies in front of and behind the frame, so that it shows the faces across the gap.
 */
export function viewScenes(given: PictureInput, maxTriangles: number, options: PictureOptions = {}): { scene: PictureScene; view: View }[] {
  const input = inWorld(given);
  const w = options.viewWidth ?? PICTURE_DEFAULTS.viewWidth, h = options.viewHeight ?? PICTURE_DEFAULTS.viewHeight;
  const cut = pictureScene(input, maxTriangles);
  const crossing = cut.keptCrossing.some((c) => c === 1);
  return viewDirections(cut.contact).map((d) => {
    const scene = crossing || d.axis === null ? cut : pictureScene(input, maxTriangles, d.axis);
    return { scene, view: frameView(d.name, d.back, cut.frame, w, h) };
  });
}

/**
 * The picture of one pair (see the module comment): an SVG element, two views side by side, at
 * most `maxBytes` long.
 */
export function pairPicture(given: PictureInput, options: PictureOptions = {}): string {
  const input = inWorld(given);
  const maxBytes = options.maxBytes ?? PICTURE_DEFAULTS.maxBytes;
  let maxTriangles = options.maxTriangles ?? PICTURE_DEFAULTS.maxTriangles;
  for (;;) {
    const scenes = viewScenes(input, maxTriangles, options);
    const views = scenes.map((s) => s.view);
    const gap = 12;
    const width = views.reduce((s, v) => s + v.width, 0) + gap * (views.length - 1);
    const height = Math.max(...views.map((v) => v.height));
    const label = escapeXml(options.label ?? 'the two parts where they meet');
    const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">`];
    let x = 0;
    for (const { scene, view } of scenes) {
      // Lines are bounded with the triangles, so that a smaller cap makes a smaller picture.
      parts.push(drawView(scene, input, view, x, Math.min(MAX_SEGMENTS, 3 * maxTriangles)));
      x += view.width + gap;
    }
    parts.push('</svg>');
    const svg = parts.join('');
    const bytes = utf8Length(svg);
    if (bytes <= maxBytes || maxTriangles <= 16) return svg;
    maxTriangles = Math.floor(maxTriangles * Math.min(0.8, maxBytes / bytes));
  }
}

// ---------------------------------------------------------------------------------------------
// The pictures of a report

/** Most pictures in one report (the first findings, most severe first). */
export const MAX_PICTURES = 50;

/** The kinds of result that get a picture. */
export function hasPicture(r: Pick<ReportResult, 'kind'>): boolean {
  return r.kind === 'interference' || r.kind === 'clearance';
}

export interface ReportPicturesOptions extends PictureOptions {
  /** Most pictures (default MAX_PICTURES). */
  readonly maxPictures?: number;
  /** Overlap solids (world coordinates) by result index, where known: their silhouettes are outlined. */
  readonly overlaps?: ReadonlyMap<number, NonNullable<PictureInput['overlap']>>;
}

/**
 * A picture of each interference and clearance violation of the report (at most `maxPictures`,
 * interferences first), by the index of its result in `report.results`. `bodyOf` gives a part's
 * triangles as checked (its body and placement), or null when they are not at hand (that result
 * gets no picture, as does one whose picture cannot be drawn).
 */
export function reportPictures(
  report: Pick<InterferenceReport, 'results' | 'parts'>,
  bodyOf: (partId: string) => PictureBody | null,
  options: ReportPicturesOptions = {},
): Map<number, string> {
  const names = new Map(report.parts.map((p) => [p.id, p.name || p.id] as const));
  const max = options.maxPictures ?? MAX_PICTURES;
  const order = report.results
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => hasPicture(r))
    .sort((p, q) => (p.r.kind === q.r.kind ? p.i - q.i : p.r.kind === 'interference' ? -1 : 1));
  const out = new Map<number, string>();
  // A part in several pictures is moved to world coordinates once.
  const world = new Map<string, PictureBody | null>();
  const worldOf = (id: string): PictureBody | null => {
    if (!world.has(id)) {
      const body = bodyOf(id);
      world.set(id, body === null ? null : { positions: worldPositions(body), indices: body.indices });
    }
    return world.get(id)!;
  };
  for (const { r, i } of order) {
    if (out.size >= max) break;
    const a = worldOf(r.a), b = worldOf(r.b);
    if (a === null || b === null) continue;
    const label = `${r.kind === 'clearance' ? 'Clearance violation' : 'Interference'} of ${names.get(r.a) ?? r.a} and ${names.get(r.b) ?? r.b}`;
    try {
      out.set(i, pairPicture({
        a, b, trianglePairs: r.trianglePairs,
        centroid: r.centroidMm, closestPoints: r.kind === 'clearance' ? r.closestPointsMm : null,
        overlap: options.overlaps?.get(i) ?? null,
      }, { ...options, label }));
    } catch {
      // A picture that cannot be drawn (triangles that do not match the result) is left out:
      // the report itself must still be written; the page says how many are pictured.
    }
  }
  return out;
}
