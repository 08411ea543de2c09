/**
 * What a tessellation can decide, and how finely it must be made to decide the rest.
 *
 * A CAD body's triangles are OpenCascade's chords of its exact faces: every vertex lies on the
 * exact surface, and every triangle lies within its chordal error `e` of it. So a depth or a gap
 * measured between two tessellated bodies differs from the exact solids' by at most the sum of the
 * two chordal errors where they meet, the pair's *resolution*. The pair's kind is a function of the
 * exact signed separation s (negative: how deep the solids overlap; positive: the gap):
 *
 *     s < −LINE_TO_LINE_MM                      interference
 *     −LINE_TO_LINE_MM ≤ s ≤ touch tolerance    contact
 *     touch tolerance < s < clearance           clearance violation
 *     otherwise                                 clear
 *
 * The touch tolerance decides gaps only: for CAD bodies an overlap of the solids is an
 * interference at any depth. LINE_TO_LINE_MM is the finest fit the checker resolves: two chord
 * polygons of one circle (a pin in its hole, line to line) cross by up to their chordal error at
 * any tessellation, so an exact line-to-line fit can never be told from a press fit of a few tenths
 * of a micrometre by triangles; fits within ±LINE_TO_LINE_MM of line to line are contact.
 *
 * Which side the exact face lies on is known too (occt/chord.ts estimateChordSides): over a convex face
 * (a pin) the exact solid is larger than its mesh, over a concave one (its hole) smaller. So the
 * exact separation lies in [s − grow, s + shrink], with grow the convex chordal errors where the
 * parts meet and shrink the concave ones (./tolerance.ts pairBounds); a nut's flat face on a plate
 * is exact however coarse the rims of their holes.
 *
 * A measurement decides the kind when every value in its range has one kind; otherwise
 * the pair is *undecided at this tessellation* and its bodies are re-tessellated finer
 * (./refine.ts), down to MIN_DEFLECTION_MM, which resolves every fit outside the line-to-line band.
 * Meshes given as such (STL) have no chordal error: they are the geometry, decided exactly with the
 * touch tolerance as stated (an overlap no deeper than the tolerance is contact there, since such
 * overlaps cannot be told from tessellation).
 */

/** Fits within this of line to line (mm) are contact: the finest fit the checker resolves. */
export const LINE_TO_LINE_MM = 0.0015;

/**
 * The finest linear deflection refinement asks OpenCascade for (mm). At it, a pair's resolution is
 * at most 2 × MIN_DEFLECTION_MM, and every fit outside the line-to-line band is decided.
 */
export const MIN_DEFLECTION_MM = 0.0005;

export type GeometricKind = 'interference' | 'contact' | 'clearance' | 'clear';

export interface KindBounds {
  readonly touchToleranceMm: number;
  readonly clearanceMm: number;
}

/** The kind of an exact signed separation s (mm). */
export function kindOfSeparation(s: number, b: KindBounds): GeometricKind {
  if (s < -LINE_TO_LINE_MM) return 'interference';
  if (s <= b.touchToleranceMm) return 'contact';
  if (b.clearanceMm > 0 && s < b.clearanceMm) return 'clearance';
  return 'clear';
}

/** The kind boundaries on s, in increasing order. */
function boundaries(b: KindBounds): number[] {
  const out = [-LINE_TO_LINE_MM, b.touchToleranceMm];
  if (b.clearanceMm > b.touchToleranceMm) out.push(b.clearanceMm);
  return out;
}

export interface Decision {
  /** The kind at the measured value. */
  readonly nominal: GeometricKind;
  /** Every kind the exact solids may have, given the resolution (one: decided). */
  readonly possible: readonly GeometricKind[];
  /**
   * How close the measured value lies to the nearest kind boundary inside [s − r, s + r] (mm): a
   * resolution below it decides the pair; 0 when decided.
   */
  readonly margin: number;
}

/**
 * What a measurement decides: the exact separation lies in [lo, hi] (mm) around the measured
 * value s.
 */
export function decide(s: number, lo: number, hi: number, b: KindBounds): Decision {
  const nominal = kindOfSeparation(s, b);
  const possible: GeometricKind[] = [];
  const add = (k: GeometricKind): void => {
    if (!possible.includes(k)) possible.push(k);
  };
  add(kindOfSeparation(lo, b));
  let margin = Infinity;
  for (const x of boundaries(b)) {
    // Kinds change just above each boundary that lies inside the interval ('contact' includes its
    // upper bound, the touch tolerance; 'interference' ends just below −LINE_TO_LINE_MM).
    const inside = x === -LINE_TO_LINE_MM ? lo < x && hi >= x : lo <= x && hi > x;
    if (!inside) continue;
    add(kindOfSeparation(x === -LINE_TO_LINE_MM ? x : x + Math.max(1e-12, Math.abs(x) * 1e-12), b));
    margin = Math.min(margin, Math.abs(s - x));
  }
  add(kindOfSeparation(hi, b));
  const order: GeometricKind[] = ['interference', 'contact', 'clearance', 'clear'];
  possible.sort((x, y) => order.indexOf(x) - order.indexOf(y));
  return { nominal, possible, margin: possible.length > 1 ? margin : 0 };
}
