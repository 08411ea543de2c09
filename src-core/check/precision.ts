/**
 * Coordinates too large for the check's precision. Every decision is exact for the placed
 * coordinates as doubles (docs/engine.md, Exactness), but placing a vertex rounds it: a placed
 * coordinate is within 2⁻⁴⁷ of its magnitude of the exact placement (the bound the box tests'
 * slack η = 64u·(…) is built from, u = 2⁻⁵³). Where that rounding exceeds the touch tolerance,
 * whether two parts touch or interfere, how deep and how much they overlap, is decided by the
 * rounding rather than by the geometry. At the smallest automatic tolerance, 0.01 mm, that is
 * beyond about 1.4·10¹² mm from the origin; a translation of 10¹⁶ mm rounds by up to 71 mm.
 */

/** The relative rounding of a placed coordinate: 64u = 2⁻⁴⁷. */
export const PLACEMENT_ROUNDING = 2 ** -47;

/** Most parts named one by one; the rest are counted. */
const NAMED = 5;

/**
 * One warning per part (at most five, then a count) whose placed bounds reach so far from the
 * origin that placing its vertices rounds them by more than `toleranceMm`. `bounds` are world
 * bounds, min x y z then max x y z.
 */
export function precisionWarnings(parts: readonly { readonly id: string; readonly bounds: ArrayLike<number> }[], toleranceMm: number): string[] {
  const limit = toleranceMm / PLACEMENT_ROUNDING;
  const far: { id: string; magnitude: number }[] = [];
  for (const p of parts) {
    let magnitude = 0;
    for (let k = 0; k < 6; k++) magnitude = Math.max(magnitude, Math.abs(p.bounds[k]));
    if (magnitude > limit) far.push({ id: p.id, magnitude });
  }
  const out = far.slice(0, NAMED).map(({ id, magnitude }) =>
    `part '${id}' reaches ${magnitude.toExponential(1)} mm from the origin once placed, where its placed vertices are rounded by up to ` +
    `${formatMm(magnitude * PLACEMENT_ROUNDING)} mm, more than the touch tolerance of ${formatMm(toleranceMm)} mm: its contacts, ` +
    `depths and volumes are decided by rounding, not by its geometry; place the assembly nearer the origin (within ${limit.toExponential(1)} mm)`);
  if (far.length > NAMED) out.push(`${far.length - NAMED} more part(s) reach as far from the origin, with the same loss of precision`);
  return out;
}

function formatMm(v: number): string {
  return v >= 1e6 || v < 1e-3 ? v.toExponential(1) : String(Number(v.toPrecision(2)));
}
