/**
 * Closest points between triangles, points and segments (floating point; distances are metric
 * figures for clearance and depth, not topological decisions, so no exact arithmetic here).
 * Closed-form region tests as in Ericson, "Real-Time Collision Detection", sections 5.1.5 and 5.1.9.
 */

/** Output of the closest-point routines: point on the first primitive (0..2), on the second (3..5). */
export const CLOSEST = new Float64Array(6);

/**
 * Squared distance from point p to triangle (a, b, c); the closest point on the triangle goes to
 * CLOSEST[3..5] (and p to CLOSEST[0..2]).
 */
export function pointTriangleDistance2(
  px: number, py: number, pz: number,
  ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number,
): number {
  const abx = bx - ax, aby = by - ay, abz = bz - az;
  const acx = cx - ax, acy = cy - ay, acz = cz - az;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  let qx: number, qy: number, qz: number;
  if (d1 <= 0 && d2 <= 0) { qx = ax; qy = ay; qz = az; }
  else {
    const bpx = px - bx, bpy = py - by, bpz = pz - bz;
    const d3 = abx * bpx + aby * bpy + abz * bpz;
    const d4 = acx * bpx + acy * bpy + acz * bpz;
    if (d3 >= 0 && d4 <= d3) { qx = bx; qy = by; qz = bz; }
    else {
      const vc = d1 * d4 - d3 * d2;
      if (vc <= 0 && d1 >= 0 && d3 <= 0 && d1 - d3 > 0) {
        const v = d1 / (d1 - d3);
        qx = ax + v * abx; qy = ay + v * aby; qz = az + v * abz;
      } else {
        const cpx = px - cx, cpy = py - cy, cpz = pz - cz;
        const d5 = abx * cpx + aby * cpy + abz * cpz;
        const d6 = acx * cpx + acy * cpy + acz * cpz;
        if (d6 >= 0 && d5 <= d6) { qx = cx; qy = cy; qz = cz; }
        else {
          const vb = d5 * d2 - d1 * d6;
          if (vb <= 0 && d2 >= 0 && d6 <= 0 && d2 - d6 > 0) {
            const w = d2 / (d2 - d6);
            qx = ax + w * acx; qy = ay + w * acy; qz = az + w * acz;
          } else {
            const va = d3 * d6 - d5 * d4;
            if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0 && d4 - d3 + d5 - d6 > 0) {
              const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
              qx = bx + w * (cx - bx); qy = by + w * (cy - by); qz = bz + w * (cz - bz);
            } else {
              const sum = va + vb + vc;
              if (sum > 0) {
                const denom = 1 / sum;
                const v = vb * denom, w = vc * denom;
                qx = ax + abx * v + acx * w; qy = ay + aby * v + acy * w; qz = az + abz * v + acz * w;
              } else {
                // Degenerate triangle: the closest of its three edges.
                return degenerateTriangleDistance2(px, py, pz, ax, ay, az, bx, by, bz, cx, cy, cz);
              }
            }
          }
        }
      }
    }
  }
  CLOSEST[0] = px; CLOSEST[1] = py; CLOSEST[2] = pz;
  CLOSEST[3] = qx; CLOSEST[4] = qy; CLOSEST[5] = qz;
  const dx = px - qx, dy = py - qy, dz = pz - qz;
  return dx * dx + dy * dy + dz * dz;
}

function degenerateTriangleDistance2(
  px: number, py: number, pz: number,
  ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number,
): number {
  let best = segmentSegmentDistance2(px, py, pz, px, py, pz, ax, ay, az, bx, by, bz);
  let qx = CLOSEST[3], qy = CLOSEST[4], qz = CLOSEST[5];
  let d = segmentSegmentDistance2(px, py, pz, px, py, pz, bx, by, bz, cx, cy, cz);
  if (d < best) { best = d; qx = CLOSEST[3]; qy = CLOSEST[4]; qz = CLOSEST[5]; }
  d = segmentSegmentDistance2(px, py, pz, px, py, pz, cx, cy, cz, ax, ay, az);
  if (d < best) { best = d; qx = CLOSEST[3]; qy = CLOSEST[4]; qz = CLOSEST[5]; }
  CLOSEST[0] = px; CLOSEST[1] = py; CLOSEST[2] = pz;
  CLOSEST[3] = qx; CLOSEST[4] = qy; CLOSEST[5] = qz;
  return best;
}

/**
 * Squared distance between segments [p1, q1] and [p2, q2] (either may be a point); closest points
 * to CLOSEST[0..2] (first segment) and CLOSEST[3..5] (second).
 */
export function segmentSegmentDistance2(
  p1x: number, p1y: number, p1z: number, q1x: number, q1y: number, q1z: number,
  p2x: number, p2y: number, p2z: number, q2x: number, q2y: number, q2z: number,
): number {
  const d1x = q1x - p1x, d1y = q1y - p1y, d1z = q1z - p1z;
  const d2x = q2x - p2x, d2y = q2y - p2y, d2z = q2z - p2z;
  const rx = p1x - p2x, ry = p1y - p2y, rz = p1z - p2z;
  const a = d1x * d1x + d1y * d1y + d1z * d1z;
  const e = d2x * d2x + d2y * d2y + d2z * d2z;
  const f = d2x * rx + d2y * ry + d2z * rz;
  let s: number, t: number;
  if (a <= 0 && e <= 0) { s = 0; t = 0; }
  else if (a <= 0) { s = 0; t = clamp01(f / e); }
  else {
    const c = d1x * rx + d1y * ry + d1z * rz;
    if (e <= 0) { t = 0; s = clamp01(-c / a); }
    else {
      const b = d1x * d2x + d1y * d2y + d1z * d2z;
      const denom = a * e - b * b;
      s = denom > 0 ? clamp01((b * f - c * e) / denom) : 0;
      t = (b * s + f) / e;
      if (t < 0) { t = 0; s = clamp01(-c / a); }
      else if (t > 1) { t = 1; s = clamp01((b - c) / a); }
    }
  }
  const c1x = p1x + d1x * s, c1y = p1y + d1y * s, c1z = p1z + d1z * s;
  const c2x = p2x + d2x * t, c2y = p2y + d2y * t, c2z = p2z + d2z * t;
  CLOSEST[0] = c1x; CLOSEST[1] = c1y; CLOSEST[2] = c1z;
  CLOSEST[3] = c2x; CLOSEST[4] = c2y; CLOSEST[5] = c2z;
  const dx = c1x - c2x, dy = c1y - c2y, dz = c1z - c2z;
  return dx * dx + dy * dy + dz * dz;
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

const BEST = new Float64Array(6);

/**
 * Squared distance between two triangles given as 9 coordinates each at ta[oa..] and tb[ob..],
 * for triangles that do not intersect (the caller decides intersection exactly); closest points
 * to CLOSEST (first triangle 0..2, second 3..5). The minimum is attained at a vertex of one
 * triangle against the other, or between two edges.
 */
export function triangleDistance2(ta: Float64Array, oa: number, tb: Float64Array, ob: number): number {
  let best = Infinity;
  // Vertices of A against B.
  for (let k = 0; k < 3; k++) {
    const v = oa + 3 * k;
    const d = pointTriangleDistance2(ta[v], ta[v + 1], ta[v + 2], tb[ob], tb[ob + 1], tb[ob + 2], tb[ob + 3], tb[ob + 4], tb[ob + 5], tb[ob + 6], tb[ob + 7], tb[ob + 8]);
    if (d < best) { best = d; BEST.set(CLOSEST); }
  }
  // Vertices of B against A (points swapped into order A, B).
  for (let k = 0; k < 3; k++) {
    const v = ob + 3 * k;
    const d = pointTriangleDistance2(tb[v], tb[v + 1], tb[v + 2], ta[oa], ta[oa + 1], ta[oa + 2], ta[oa + 3], ta[oa + 4], ta[oa + 5], ta[oa + 6], ta[oa + 7], ta[oa + 8]);
    if (d < best) {
      best = d;
      BEST[0] = CLOSEST[3]; BEST[1] = CLOSEST[4]; BEST[2] = CLOSEST[5];
      BEST[3] = CLOSEST[0]; BEST[4] = CLOSEST[1]; BEST[5] = CLOSEST[2];
    }
  }
  // Edge pairs.
  for (let i = 0; i < 3; i++) {
    const p = oa + 3 * i, q = oa + 3 * ((i + 1) % 3);
    for (let j = 0; j < 3; j++) {
      const r = ob + 3 * j, s = ob + 3 * ((j + 1) % 3);
      const d = segmentSegmentDistance2(ta[p], ta[p + 1], ta[p + 2], ta[q], ta[q + 1], ta[q + 2], tb[r], tb[r + 1], tb[r + 2], tb[s], tb[s + 1], tb[s + 2]);
      if (d < best) { best = d; BEST.set(CLOSEST); }
    }
  }
  CLOSEST.set(BEST);
  return best;
}
