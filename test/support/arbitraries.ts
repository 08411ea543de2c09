/**
 * fast-check generators of triangle pairs and predicate inputs for the differential tests of the
 * geometry kernel against the exact oracle in `./exact.ts`.
 *
 * A triangle is a `Float64Array(9)`: x, y, z of p, q, r. Configurations that must be exact
 * (touching, coplanar, collinear) are built from small integers and dyadic fractions so that every
 * coordinate is computed without rounding; where a construction involves rounding the oracle still
 * decides the truth for the doubles actually produced, so nothing relies on the construction being
 * exact, it only makes the interesting cases frequent.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

export type Vec3 = readonly [number, number, number];
export type TriPair = readonly [Float64Array, Float64Array];

// ---------------------------------------------------------------------------------------------
// Small numeric helpers.

const bits = new DataView(new ArrayBuffer(8));

/** The next double above `x` (towards +∞). */
export function nextUp(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === 0) return Number.MIN_VALUE;
  bits.setFloat64(0, x);
  const b = bits.getBigUint64(0);
  bits.setBigUint64(0, x > 0 ? b + 1n : b - 1n);
  return bits.getFloat64(0);
}

/** The next double below `x` (towards −∞). */
export function nextDown(x: number): number {
  return -nextUp(-x);
}

/** `x` moved by `k` representable steps (positive: up, negative: down). */
export function nudgeUlps(x: number, k: number): number {
  let y = x;
  for (let i = 0; i < k; i++) y = nextUp(y);
  for (let i = 0; i > k; i--) y = nextDown(y);
  return y;
}

const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const neg = (a: Vec3): Vec3 => [-a[0], -a[1], -a[2]];
const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** Packs three points into a triangle. */
export function tri(p: Vec3, q: Vec3, r: Vec3): Float64Array {
  return Float64Array.from([p[0], p[1], p[2], q[0], q[1], q[2], r[0], r[1], r[2]]);
}

/** Vertex `i` (0, 1 or 2) of a triangle. */
export function vertex(t: ArrayLike<number>, i: number): Vec3 {
  return [t[3 * i] as number, t[3 * i + 1] as number, t[3 * i + 2] as number];
}

/** The six orderings of three vertices: the three rotations, then the three reversals. */
export const VERTEX_ORDERS: readonly (readonly [number, number, number])[] = [
  [0, 1, 2],
  [1, 2, 0],
  [2, 0, 1],
  [0, 2, 1],
  [2, 1, 0],
  [1, 0, 2],
];

/** The triangle with its vertices in the order `order` (an entry of {@link VERTEX_ORDERS}). */
export function reorder(t: ArrayLike<number>, order: readonly [number, number, number]): Float64Array {
  return tri(vertex(t, order[0]), vertex(t, order[1]), vertex(t, order[2]));
}

/** Applies `x ↦ x·s + shift` to every coordinate. */
export function transformTri(t: ArrayLike<number>, s: number, shift: Vec3): Float64Array {
  const out = new Float64Array(9);
  for (let i = 0; i < 9; i++) out[i] = (t[i] as number) * s + (shift[i % 3] as number);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Coordinate and point generators.

/** Uniform-ish doubles in [-1, 1] with a full 53-bit significand (not clustered near zero). */
export const unitCoordArb: Arbitrary<number> = fc
  .tuple(fc.integer({ min: -(2 ** 26), max: 2 ** 26 }), fc.integer({ min: 0, max: 2 ** 26 - 1 }))
  .map(([h, l]) => (h * 2 ** 26 + (h < 0 ? -l : l)) / 2 ** 52);

const gridCoord = (r: number): Arbitrary<number> => fc.integer({ min: -r, max: r });
const point = (c: Arbitrary<number>): Arbitrary<Vec3> => fc.tuple(c, c, c);
const triangle = (p: Arbitrary<Vec3>): Arbitrary<Float64Array> => fc.tuple(p, p, p).map(([a, b, c]) => tri(a, b, c));
/** Dyadic fractions `n / 2^k` in [-range, range], exactly representable. */
const dyadicCoord = (range: number, k: number): Arbitrary<number> =>
  fc.integer({ min: -range * 2 ** k, max: range * 2 ** k }).map((n) => n / 2 ** k);

/** Randomly swaps the triangles and reorders each one's vertices. */
function shuffled(pair: Arbitrary<TriPair>): Arbitrary<TriPair> {
  return fc
    .tuple(pair, fc.boolean(), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }))
    .map(([[a, b], swap, oa, ob]) => {
      const a2 = reorder(a, VERTEX_ORDERS[oa] as [number, number, number]);
      const b2 = reorder(b, VERTEX_ORDERS[ob] as [number, number, number]);
      return swap ? ([b2, a2] as const) : ([a2, b2] as const);
    });
}

// ---------------------------------------------------------------------------------------------
// Triangle-pair generators.

/** Two general triangles in the box [-1, 1]³ (they intersect a fair share of the time). */
export const generalPairArb: Arbitrary<TriPair> = fc.oneof(
  fc.tuple(triangle(point(unitCoordArb)), triangle(point(unitCoordArb))),
  // The second triangle is spread around the first one's centroid, so that crossings are common.
  fc
    .tuple(triangle(point(unitCoordArb)), point(unitCoordArb), point(unitCoordArb), point(unitCoordArb))
    .map(([a, u, v, w]): TriPair => {
      const c = scale(add(add(vertex(a, 0), vertex(a, 1)), vertex(a, 2)), 1 / 3);
      return [a, tri(add(c, u), add(c, v), add(c, w))];
    }),
);

/** Coordinates that are small integers in [-3, 3]: exact coplanarity, collinearity, shared points. */
export const gridPairArb: Arbitrary<TriPair> = fc.tuple(
  triangle(point(gridCoord(3))),
  triangle(point(gridCoord(3))),
);

/**
 * Six vertices picked from a pool of three to six grid points: shared vertices, shared edges,
 * duplicate triangles, repeated vertices (zero-area triangles) and single points.
 */
export const pooledGridPairArb: Arbitrary<TriPair> = fc
  .tuple(
    fc.array(point(gridCoord(2)), { minLength: 6, maxLength: 6 }),
    fc.integer({ min: 3, max: 6 }),
    fc.array(fc.nat(5), { minLength: 6, maxLength: 6 }),
  )
  .map(([pool, size, idx]): TriPair => {
    const pick = (i: number): Vec3 => pool[(idx[i] as number) % size] as Vec3;
    return [tri(pick(0), pick(1), pick(2)), tri(pick(3), pick(4), pick(5))];
  });

/** A degenerate triangle: a point, a segment with a repeated end, or three collinear points. */
const degenerateTriArb: Arbitrary<Float64Array> = fc
  .tuple(
    point(gridCoord(3)),
    point(gridCoord(2)),
    fc.constantFrom(-1, -0.5, 0, 0.25, 0.5, 1, 2),
    fc.constantFrom(-1, 0, 0.5, 0.75, 1, 1.5),
    fc.constantFrom('point', 'repeated', 'collinear'),
  )
  .map(([p, d, s, t, kind]) => {
    if (kind === 'point') return tri(p, p, p);
    if (kind === 'repeated') return tri(p, add(p, d), p);
    return tri(add(p, scale(d, s)), add(p, scale(d, t)), p);
  });

/**
 * A degenerate triangle (point, segment, collinear triple) placed relative to the triangle `t`: its
 * anchor is a dyadic affine combination of t's vertices (on its plane, usually inside it, sometimes
 * just outside), sometimes lifted off the plane by a quarter step.
 */
const anchoredDegenerateArb = (t: Float64Array): Arbitrary<Float64Array> =>
  fc
    .record({
      w: fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })),
      outside: fc.constantFrom(0, 0, 0, -1, 1),
      lift: fc.oneof(
        { arbitrary: fc.constant<Vec3>([0, 0, 0]), weight: 3 },
        { arbitrary: point(fc.constantFrom(-0.25, 0, 0.25)), weight: 1 },
      ),
      d: point(gridCoord(2)),
      s: fc.constantFrom(0, 0.5, 1, 2),
      u: fc.constantFrom(-1, -0.5, 0, 0.25, 1),
      kind: fc.constantFrom('point', 'segment', 'collinear'),
    })
    .map(({ w, outside, lift, d, s, u, kind }) => {
      const [p, q, r] = [vertex(t, 0), vertex(t, 1), vertex(t, 2)];
      const [i, j] = w[0] + w[1] > 4 ? [4 - w[0], 4 - w[1]] : w;
      const a = (i + outside) / 4;
      const b = j / 4;
      const x = add(add(add(scale(p, 1 - a - b), scale(q, a)), scale(r, b)), lift);
      if (kind === 'point') return tri(x, x, x);
      if (kind === 'segment') return tri(x, add(x, scale(d, s)), x);
      return tri(add(x, scale(d, u)), add(x, scale(d, s)), x);
    });

/** At least one triangle degenerate (point, segment, collinear); the other grid or degenerate. */
export const degeneratePairArb: Arbitrary<TriPair> = shuffled(
  fc.oneof(
    fc.tuple(degenerateTriArb, fc.oneof(degenerateTriArb, triangle(point(gridCoord(3))))),
    // A grid triangle and a degenerate one anchored on it.
    triangle(point(gridCoord(2))).chain((t) => anchoredDegenerateArb(t).map((d): TriPair => [t, d])),
    // Two degenerate triangles anchored on the same grid triangle.
    triangle(point(gridCoord(2))).chain((t) => fc.tuple(anchoredDegenerateArb(t), anchoredDegenerateArb(t))),
  ),
);

// Touching constructions: t1 has integer vertices; the contact point is a dyadic combination
// (a·p + b·q + c·r) / 2^K with a + b + c = 2^K, which is exact.
const K = 10;
const ONE = 2 ** K;

type TouchKind = 'vertex-face' | 'vertex-edge' | 'vertex-vertex' | 'edge-cross-edge' | 'collinear-edges' | 'edge-face';

interface TouchSetup {
  t1: Float64Array;
  /** Second triangle; its vertex 0 lies exactly on t1's plane (it is the contact point where there is one). */
  t2: Float64Array;
}

const barycentricArb: Arbitrary<readonly [number, number, number]> = fc
  .tuple(fc.integer({ min: 0, max: ONE }), fc.integer({ min: 0, max: ONE }))
  .map(([a, b]) => {
    const [x, y] = a + b > ONE ? [ONE - a, ONE - b] : [a, b];
    return [x, y, ONE - x - y] as const;
  });

function combine(p: Vec3, q: Vec3, r: Vec3, w: readonly [number, number, number]): Vec3 {
  const m = add(add(scale(p, w[0]), scale(q, w[1])), scale(r, w[2]));
  return scale(m, 1 / ONE);
}

const touchSetupArb: Arbitrary<TouchSetup> = fc
  .record({
    kind: fc.constantFrom<TouchKind>(
      'vertex-face',
      'vertex-edge',
      'vertex-vertex',
      'edge-cross-edge',
      'collinear-edges',
      'edge-face',
    ),
    p: point(gridCoord(16)),
    q: point(gridCoord(16)),
    r: point(gridCoord(16)),
    w: barycentricArb,
    along: fc.tuple(fc.integer({ min: -ONE / 2, max: (3 * ONE) / 2 }), fc.integer({ min: -ONE / 2, max: (3 * ONE) / 2 })),
    u: point(gridCoord(16)),
    v: point(gridCoord(16)),
    sameSide: fc.boolean(),
    stretch: fc.constantFrom(0.25, 0.5, 1, 2),
  })
  .map(({ kind, p, q, r, w, along, u, v, sameSide, stretch }): TouchSetup => {
    const t1 = tri(p, q, r);
    const n = cross(sub(q, p), sub(r, p));
    // Keep the free vertices on the normal's side when asked, so the contact is a touch only.
    const side = (x: Vec3): Vec3 => (sameSide && dot(x, n) < 0 ? neg(x) : x);
    const onFace = combine(p, q, r, w);
    const onEdge = combine(p, q, r, [w[0] + w[2], w[1], 0]);
    switch (kind) {
      case 'vertex-face':
        return { t1, t2: tri(onFace, add(onFace, side(u)), add(onFace, side(v))) };
      case 'vertex-edge':
        return { t1, t2: tri(onEdge, add(onEdge, side(u)), add(onEdge, side(v))) };
      case 'vertex-vertex':
        return { t1, t2: tri(p, add(p, side(u)), add(p, side(v))) };
      case 'edge-cross-edge':
        // An edge of t2 passes through a point of t1's edge pq.
        return { t1, t2: tri(onEdge, add(onEdge, u), sub(onEdge, scale(u, stretch))) };
      case 'collinear-edges': {
        // An edge of t2 lies on the line pq; it may overlap pq, touch it at an end, or miss it.
        const x = combine(p, q, r, [ONE - along[0], along[0], 0]);
        const y = combine(p, q, r, [ONE - along[1], along[1], 0]);
        return { t1, t2: tri(x, y, add(x, side(u))) };
      }
      case 'edge-face': {
        // An edge of t2 lies in t1's plane and passes through a point of its face.
        const d = scale(sub(r, p), stretch);
        return { t1, t2: tri(sub(onFace, d), add(onFace, d), add(onFace, side(u))) };
      }
    }
  });

/** Pairs built to touch at a vertex, along an edge, a vertex on a face, or crossing edges. */
export const touchingPairArb: Arbitrary<TriPair> = shuffled(touchSetupArb.map(({ t1, t2 }): TriPair => [t1, t2]));

/** The touching constructions with the contact vertex moved by a few ulps: near misses and near hits. */
export const nearMissPairArb: Arbitrary<TriPair> = shuffled(
  fc
    .tuple(
      touchSetupArb,
      fc.integer({ min: -3, max: 3 }).filter((k) => k !== 0),
      fc.constantFrom<'x' | 'y' | 'z' | 'all' | 'triangle'>('x', 'y', 'z', 'all', 'triangle'),
    )
    .map(([{ t1, t2 }, k, how]): TriPair => {
      const out = Float64Array.from(t2);
      const coords =
        how === 'x' ? [0] : how === 'y' ? [1] : how === 'z' ? [2] : how === 'all' ? [0, 1, 2] : [0, 1, 2, 3, 4, 5, 6, 7, 8];
      for (const i of coords) out[i] = nudgeUlps(out[i] as number, k);
      return [t1, out];
    }),
);

/** Maps 2D coordinates (s, t) into a plane: axis-aligned, or tilted with an integer basis. */
const planeArb: Arbitrary<(s: number, t: number) => Vec3> = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 2 }), fc.oneof(gridCoord(4), dyadicCoord(4, 8), unitCoordArb))
    .map(([axis, c]) => (s: number, t: number): Vec3 => (axis === 0 ? [c, s, t] : axis === 1 ? [s, c, t] : [s, t, c])),
  fc
    .tuple(point(gridCoord(8)), point(gridCoord(4)), point(gridCoord(4)))
    .map(([o, u, v]) => (s: number, t: number): Vec3 => add(add(o, scale(u, s)), scale(v, t))),
);

type Vec2 = readonly [number, number];

/** Pairs of 2D triangles that overlap, touch or miss in interesting ways. */
const planarPairArb: Arbitrary<readonly [readonly Vec2[], readonly Vec2[]]> = fc.oneof(
  // Grid triangles: many shared vertices, collinear edges, vertices on edges.
  fc.tuple(
    fc.array(fc.tuple(gridCoord(3), gridCoord(3)), { minLength: 3, maxLength: 3 }),
    fc.array(fc.tuple(gridCoord(3), gridCoord(3)), { minLength: 3, maxLength: 3 }),
  ),
  // Dyadic coordinates: general overlaps and near-touches.
  fc.tuple(
    fc.array(fc.tuple(dyadicCoord(4, 10), dyadicCoord(4, 10)), { minLength: 3, maxLength: 3 }),
    fc.array(fc.tuple(dyadicCoord(4, 10), dyadicCoord(4, 10)), { minLength: 3, maxLength: 3 }),
  ),
  // A vertex of the second exactly on an edge of the first (or on its line), the rest anywhere.
  fc
    .tuple(
      fc.array(fc.tuple(gridCoord(4), gridCoord(4)), { minLength: 3, maxLength: 3 }),
      fc.integer({ min: -ONE / 4, max: ONE + ONE / 4 }),
      fc.array(fc.tuple(gridCoord(4), gridCoord(4)), { minLength: 2, maxLength: 2 }),
    )
    .map(([a, t, rest]) => {
      const [p, q] = [a[0] as Vec2, a[1] as Vec2];
      const x: Vec2 = [(p[0] * (ONE - t) + q[0] * t) / ONE, (p[1] * (ONE - t) + q[1] * t) / ONE];
      const b = [x, ...rest.map((d): Vec2 => [x[0] + d[0], x[1] + d[1]])];
      return [a, b] as const;
    }),
);

/**
 * Full-precision slivers a few ulps off the diagonal s = t, against other slivers, triangles that
 * share the diagonal edge, or small grid triangles. Embedded in an axis-aligned plane, coplanarity
 * stays exact while floating-point normals of the slivers round badly, sometimes to zero.
 */
const planarSliverPairArb: Arbitrary<readonly [readonly Vec2[], readonly Vec2[]]> = fc
  .record({
    ij: fc.tuple(fc.integer({ min: -64, max: 64 }), fc.integer({ min: -64, max: 64 })),
    kl: fc.tuple(fc.integer({ min: -64, max: 64 }), fc.integer({ min: -64, max: 64 })),
    base: fc.constantFrom<readonly [number, number, number]>([0.5, 12, 24], [0.5, 17.300000000000001, 24.00000000000005], [3.5, 7.75, 1e3]),
    other: fc.constantFrom('sliver', 'shared-edge', 'grid'),
    g: fc.array(fc.tuple(fc.integer({ min: -2, max: 30 }), fc.integer({ min: -2, max: 30 })), { minLength: 3, maxLength: 3 }),
  })
  .map(({ ij, kl, base: [p, q, r], other, g }) => {
    const ulp = 2 ** (Math.floor(Math.log2(p)) - 52);
    const a: Vec2[] = [[p + ij[0] * ulp, p + ij[1] * ulp], [q, q], [r, r]];
    if (other === 'sliver') return [a, [[p + kl[0] * ulp, p + kl[1] * ulp], [r, r], [q, q]]] as const;
    if (other === 'shared-edge') return [a, [[q, q], [r, r], g[0] as Vec2]] as const;
    return [a, g] as const;
  });

const axisPlaneArb: Arbitrary<(s: number, t: number) => Vec3> = fc
  .tuple(fc.integer({ min: 0, max: 2 }), fc.oneof(gridCoord(4), unitCoordArb))
  .map(([axis, c]) => (s: number, t: number): Vec3 => (axis === 0 ? [c, s, t] : axis === 1 ? [s, c, t] : [s, t, c]));

/** Coplanar pairs, in axis-aligned planes and in tilted planes where coplanarity is exact. */
export const coplanarPairArb: Arbitrary<TriPair> = shuffled(
  fc
    .oneof(
      { arbitrary: fc.tuple(planeArb, planarPairArb), weight: 4 },
      { arbitrary: fc.tuple(axisPlaneArb, planarSliverPairArb), weight: 1 },
    )
    .map(([embed, [a, b]]): TriPair => {
      const lift = (ts: readonly Vec2[]): Float64Array =>
        tri(...(ts.map(([s, t]) => embed(s, t)) as [Vec3, Vec3, Vec3]));
      return [lift(a), lift(b)];
    }),
);

/** Needle-shaped triangles (nearly or exactly collinear), against other needles or general triangles. */
export const sliverPairArb: Arbitrary<TriPair> = shuffled(
  fc
    .record({
      p: point(unitCoordArb),
      dir: point(unitCoordArb),
      alpha: dyadicCoord(1, 12),
      eps: fc.integer({ min: 0, max: 60 }),
      w: point(unitCoordArb),
      beta: dyadicCoord(1, 12),
      dir2: point(unitCoordArb),
      other: triangle(point(unitCoordArb)),
      kind: fc.constantFrom('needle-needle', 'needle-triangle', 'needle-through'),
    })
    .map(({ p, dir, alpha, eps, w, beta, dir2, other, kind }): TriPair => {
      const q = add(p, scale(dir, 4));
      // eps = 0 gives an exactly collinear third vertex only when the arithmetic is exact; the
      // oracle decides either way.
      const r = add(add(p, scale(sub(q, p), alpha)), scale(w, eps === 0 ? 0 : 2 ** -eps));
      const needle = tri(p, q, r);
      if (kind === 'needle-triangle') return [needle, other];
      const m = add(p, scale(sub(q, p), beta));
      if (kind === 'needle-through') {
        // A general triangle around a point of the needle.
        return [needle, tri(add(m, dir2), sub(m, scale(dir2, 0.5)), add(m, w))];
      }
      const a = sub(m, dir2);
      const b = add(m, dir2);
      return [needle, tri(a, b, add(add(a, scale(sub(b, a), alpha)), scale(w, 2 ** -(eps + 1))))];
    }),
);

/** The exact constructions scaled by powers of two (~1e-6 and ~1e6): exactness is preserved. */
export const pow2ScaledPairArb: Arbitrary<TriPair> = fc
  .tuple(
    fc.oneof(gridPairArb, pooledGridPairArb, touchingPairArb, coplanarPairArb, degeneratePairArb, nearMissPairArb),
    fc.constantFrom(2 ** -20, 2 ** 20, 2 ** -40, 2 ** 40),
  )
  .map(([[a, b], s]): TriPair => [transformTri(a, s, [0, 0, 0]), transformTri(b, s, [0, 0, 0])]);

/**
 * The constructions translated far from the origin (dyadic shifts around ±1e6, which keep the
 * integer and dyadic constructions exact), and general pairs scaled by 1e-6 / 1e6 with rounding.
 */
export const farPairArb: Arbitrary<TriPair> = fc.oneof(
  fc
    .tuple(
      fc.oneof(gridPairArb, pooledGridPairArb, touchingPairArb, coplanarPairArb, degeneratePairArb, nearMissPairArb),
      fc.constantFrom(1, 2 ** -20, 2 ** 10),
      fc.constantFrom<Vec3>([2 ** 20, 0, 0], [1e6, -1e6, 1e6], [-(2 ** 20), 2 ** 21, 3 * 2 ** 19], [1e6, 1e6, 1e6]),
    )
    .map(([[a, b], s, shift]): TriPair => [transformTri(a, s, shift), transformTri(b, s, shift)]),
  fc
    .tuple(
      fc.oneof(generalPairArb, sliverPairArb, touchingPairArb, coplanarPairArb),
      fc.constantFrom(1e-6, 1e6),
      fc.constantFrom<Vec3>([0, 0, 0], [1e6, 1e6, 1e6], [-1e6, 0.5, 2e6]),
    )
    .map(([[a, b], s, shift]): TriPair => [transformTri(a, s, shift), transformTri(b, s, shift)]),
);

/**
 * The exact constructions under an independent power-of-two scale per axis, from 2^-1000 to 2^1000.
 * A diagonal linear map preserves every incidence, so touching stays touching unless a coordinate
 * is rounded into the subnormal range; the pairs mix huge and tiny coordinates, whose products can
 * overflow or underflow in floating point. Not part of {@link triPairArb}: it probes the extreme
 * range only.
 */
export const extremeScaledPairArb: Arbitrary<TriPair> = fc
  .tuple(
    fc.oneof(gridPairArb, pooledGridPairArb, touchingPairArb, coplanarPairArb, degeneratePairArb, nearMissPairArb),
    point(fc.integer({ min: -1000, max: 1000 })),
  )
  .map(([[a, b], k]): TriPair => {
    const f = (t: Float64Array): Float64Array => t.map((x, i) => x * 2 ** (k[i % 3] as number));
    return [f(a), f(b)];
  });

/** Everything above, mixed. */
export const triPairArb: Arbitrary<TriPair> = fc.oneof(
  { arbitrary: generalPairArb, weight: 2 },
  { arbitrary: gridPairArb, weight: 2 },
  { arbitrary: pooledGridPairArb, weight: 2 },
  { arbitrary: degeneratePairArb, weight: 1 },
  { arbitrary: touchingPairArb, weight: 3 },
  { arbitrary: nearMissPairArb, weight: 2 },
  { arbitrary: coplanarPairArb, weight: 3 },
  { arbitrary: sliverPairArb, weight: 1 },
  { arbitrary: pow2ScaledPairArb, weight: 1 },
  { arbitrary: farPairArb, weight: 1 },
);

/** The named generators, for tests that run one property per family. */
export const TRI_PAIR_ARBS: Readonly<Record<string, Arbitrary<TriPair>>> = {
  general: generalPairArb,
  grid: gridPairArb,
  pooledGrid: pooledGridPairArb,
  degenerate: degeneratePairArb,
  touching: touchingPairArb,
  nearMiss: nearMissPairArb,
  coplanar: coplanarPairArb,
  sliver: sliverPairArb,
  pow2Scaled: pow2ScaledPairArb,
  far: farPairArb,
};

// ---------------------------------------------------------------------------------------------
// Orientation-predicate inputs.

export type Orient2dInput = readonly [number, number, number, number, number, number];
export type Orient3dInput = readonly [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
];

/** Powers of two between about 1e-30 and 1e30. */
const magnitudeArb: Arbitrary<number> = fc.integer({ min: -100, max: 100 }).map((k) => 2 ** k);
const ulpNudgeArb: Arbitrary<number> = fc.integer({ min: -2, max: 2 });

type Pt2 = readonly [number, number];

/** Reorders three 2D points (any of the six orders) and flattens them. */
function flat2(pts: readonly [Pt2, Pt2, Pt2], order: number): Orient2dInput {
  const o = VERTEX_ORDERS[order] as readonly [number, number, number];
  const [a, b, c] = [pts[o[0]] as Pt2, pts[o[1]] as Pt2, pts[o[2]] as Pt2];
  return [a[0], a[1], b[0], b[1], c[0], c[1]];
}

const orderArb = fc.integer({ min: 0, max: 5 });

/** Random points, all at one magnitude between 1e-30 and 1e30, or each at its own. */
export const orient2dRandomArb: Arbitrary<Orient2dInput> = fc
  .tuple(fc.array(unitCoordArb, { minLength: 6, maxLength: 6 }), fc.array(magnitudeArb, { minLength: 3, maxLength: 3 }), fc.boolean())
  .map(([c, m, shared]): Orient2dInput => {
    const s = (i: number): number => (shared ? (m[0] as number) : (m[i >> 1] as number));
    return c.map((x, i) => x * s(i)) as unknown as Orient2dInput;
  });

/** c = a + t·(b − a) rounded, then moved by a couple of ulps per coordinate: nearly collinear. */
export const orient2dNearCollinearArb: Arbitrary<Orient2dInput> = fc
  .tuple(
    fc.tuple(unitCoordArb, unitCoordArb),
    fc.tuple(unitCoordArb, unitCoordArb),
    fc.oneof(unitCoordArb, dyadicCoord(4, 8)),
    fc.tuple(ulpNudgeArb, ulpNudgeArb),
    magnitudeArb,
    fc.constantFrom(0, 1, 2 ** 20, 1e6, -3e15),
    orderArb,
  )
  .map(([a, b, t, [k0, k1], s, shift, order]) => {
    const A: Pt2 = [a[0] * s + shift, a[1] * s + shift];
    const B: Pt2 = [b[0] * s + shift, b[1] * s - shift];
    const C: Pt2 = [nudgeUlps(A[0] + t * (B[0] - A[0]), k0), nudgeUlps(A[1] + t * (B[1] - A[1]), k1)];
    return flat2([A, B, C], order);
  });

/**
 * The classic example that defeats naive evaluation: a point a few ulps off the diagonal y = x,
 * against two points on it, at several magnitudes (only powers of two, so the truth is known).
 */
export const orient2dDiagonalArb: Arbitrary<Orient2dInput> = fc
  .tuple(
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
    fc.constantFrom<readonly [number, number, number]>([0.5, 12, 24], [0.5, 17.300000000000001, 24.00000000000005], [3.5, 7.75, 1e3]),
    fc.integer({ min: -80, max: 80 }).map((k) => 2 ** k),
    orderArb,
  )
  .map(([i, j, [p, q, r], s, order]) => {
    const ulp = 2 ** (Math.floor(Math.log2(p)) - 52);
    const A: Pt2 = [(p + i * ulp) * s, (p + j * ulp) * s];
    return flat2([A, [q * s, q * s], [r * s, r * s]], order);
  });

/** Exactly collinear integer points with coordinates up to 2^40 (products exceed 53 bits). */
export const orient2dExactCollinearArb: Arbitrary<Orient2dInput> = fc
  .tuple(
    fc.tuple(fc.integer({ min: -(2 ** 30), max: 2 ** 30 }), fc.integer({ min: -(2 ** 30), max: 2 ** 30 })),
    fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 })),
    fc.integer({ min: -8, max: 8 }),
    fc.integer({ min: -8, max: 8 }),
    ulpNudgeArb,
    magnitudeArb,
    orderArb,
  )
  .map(([a, d, m, n, k, s, order]) => {
    const A: Pt2 = [a[0] * 1024 * s, a[1] * 1024 * s];
    const at = (t: number): Pt2 => [(a[0] * 1024 + t * d[0]) * s, (a[1] * 1024 + t * d[1]) * s];
    const C = at(n);
    return flat2([A, at(m), [nudgeUlps(C[0], k), C[1]]], order);
  });

export const orient2dInputArb: Arbitrary<Orient2dInput> = fc.oneof(
  orient2dRandomArb,
  orient2dNearCollinearArb,
  orient2dDiagonalArb,
  orient2dExactCollinearArb,
);

/** Reorders four 3D points (a, b, c by `order`, then d) and flattens them. */
function flat3(pts: readonly [Vec3, Vec3, Vec3, Vec3], order: number, dFirst: boolean): Orient3dInput {
  const o = VERTEX_ORDERS[order] as readonly [number, number, number];
  const list = [pts[o[0]] as Vec3, pts[o[1]] as Vec3, pts[o[2]] as Vec3, pts[3]];
  // Optionally give the constructed point d the first role instead of the last.
  const seq = dFirst ? [list[3], list[0], list[1], list[2]] : list;
  return seq.flatMap((p) => [...(p as Vec3)]) as unknown as Orient3dInput;
}

/** Random points, all at one magnitude between 1e-30 and 1e30, or each at its own. */
export const orient3dRandomArb: Arbitrary<Orient3dInput> = fc
  .tuple(fc.array(unitCoordArb, { minLength: 12, maxLength: 12 }), fc.array(magnitudeArb, { minLength: 4, maxLength: 4 }), fc.boolean())
  .map(([c, m, shared]): Orient3dInput => {
    const s = (i: number): number => (shared ? (m[0] as number) : (m[Math.floor(i / 3)] as number));
    return c.map((x, i) => x * s(i)) as unknown as Orient3dInput;
  });

/** d = a + s·(b − a) + t·(c − a) rounded, then moved by a couple of ulps per coordinate. */
export const orient3dNearCoplanarArb: Arbitrary<Orient3dInput> = fc
  .tuple(
    fc.tuple(point(unitCoordArb), point(unitCoordArb), point(unitCoordArb)),
    fc.tuple(fc.oneof(unitCoordArb, dyadicCoord(4, 8)), fc.oneof(unitCoordArb, dyadicCoord(4, 8))),
    point(ulpNudgeArb),
    magnitudeArb,
    fc.constantFrom(0, 1, 2 ** 20, 1e6, -3e15),
    orderArb,
    fc.boolean(),
  )
  .map(([[a, b, c], [s, t], k, m, shift, order, dFirst]) => {
    const tr = (p: Vec3): Vec3 => [p[0] * m + shift, p[1] * m - shift, p[2] * m + shift];
    const [A, B, C] = [tr(a), tr(b), tr(c)];
    const D0 = add(add(A, scale(sub(B, A), s)), scale(sub(C, A), t));
    const D: Vec3 = [nudgeUlps(D0[0], k[0]), nudgeUlps(D0[1], k[1]), nudgeUlps(D0[2], k[2])];
    return flat3([A, B, C, D], order, dFirst);
  });

/** A point a few ulps off the vertical plane y = x against three points on it (naive evaluation fails). */
export const orient3dDiagonalArb: Arbitrary<Orient3dInput> = fc
  .tuple(
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
    fc.constantFrom(0.3, -7.1, 1e3),
    fc.integer({ min: -80, max: 80 }).map((k) => 2 ** k),
    orderArb,
    fc.boolean(),
  )
  .map(([i, j, z, s, order, dFirst]) => {
    const u = 2 ** -53;
    const A: Vec3 = [(0.5 + i * u) * s, (0.5 + j * u) * s, z * s];
    const pts: [Vec3, Vec3, Vec3, Vec3] = [[12 * s, 12 * s, 1.3 * s], [24 * s, 24 * s, 0.7 * s], [17.3 * s, 17.3 * s, 9.1 * s], A];
    return flat3(pts, order, dFirst);
  });

/** Exactly coplanar integer points with coordinates up to about 2^40, sometimes nudged by ulps. */
export const orient3dExactCoplanarArb: Arbitrary<Orient3dInput> = fc
  .tuple(
    point(fc.integer({ min: -(2 ** 30), max: 2 ** 30 })),
    point(fc.integer({ min: -1000, max: 1000 })),
    point(fc.integer({ min: -1000, max: 1000 })),
    fc.array(fc.integer({ min: -8, max: 8 }), { minLength: 6, maxLength: 6 }),
    ulpNudgeArb,
    magnitudeArb,
    orderArb,
    fc.boolean(),
  )
  .map(([o, u, v, w, k, s, order, dFirst]) => {
    const at = (i: number, j: number): Vec3 => scale(add(add(scale(o, 1024), scale(u, i)), scale(v, j)), s);
    const D = at(w[4] as number, w[5] as number);
    const pts: [Vec3, Vec3, Vec3, Vec3] = [
      at(0, 0),
      at(w[0] as number, w[1] as number),
      at(w[2] as number, w[3] as number),
      [D[0], nudgeUlps(D[1], k), D[2]],
    ];
    return flat3(pts, order, dFirst);
  });

export const orient3dInputArb: Arbitrary<Orient3dInput> = fc.oneof(
  orient3dRandomArb,
  orient3dNearCoplanarArb,
  orient3dDiagonalArb,
  orient3dExactCoplanarArb,
);
