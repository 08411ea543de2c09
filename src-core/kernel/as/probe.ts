// Point and ray probes on one OBB tree in the kernel's memory: collide/proximity.ts's
// pointMeshDistance, castRay and pointInMesh, with the same arithmetic in the same order (and
// geometry/triDistance.ts's point–triangle distance), so they return exactly what the TypeScript
// probes return. The check's depth probes and inside tests call them many times per pair; here
// they run compiled from the first call.
//
// The host (src-core/kernel/kernel.ts) points the probes at a tree with `probeTree` (its arrays'
// addresses and a stack of at least nodeCount + 2 slots), then calls a probe. Results that are
// not the return value go to the PROBE block.

const PARAMS: usize = 65536;
/** Results: 0 ray t, 8 closest point (3 doubles), 32 ray triangle, 36 crossings, 40 degenerate (i32). */
const PROBE: usize = PARAMS + 12288;
const OBB_STRIDE: usize = 12 * 8;
/** The three axes of the box being probed (boxAxes), 9 doubles. */
const AXES: usize = PROBE + 256;

let boxes: usize = 0, nodes: usize = 0, triVerts: usize = 0, pos: usize = 0, order: usize = 0, stack: usize = 0;

/** Points the probes at a tree's arrays, with a stack of at least nodeCount + 2 u32 slots. */
export function probeTree(boxesAt: usize, nodesAt: usize, triVertsAt: usize, positionsAt: usize, orderAt: usize, stackAt: usize): void {
  boxes = boxesAt; nodes = nodesAt; triVerts = triVertsAt; pos = positionsAt; order = orderAt; stack = stackAt;
}

@inline function leafCount(i: usize): i32 {
  return load<i32>(nodes + (i << 3), 4);
}
@inline function link(i: usize): u32 {
  return load<u32>(nodes + (i << 3));
}

/** The axes of the box at o into AXES: the two stored and their cross product (obbtree/layout.ts's obbAxes). */
function boxAxes(o: usize): void {
  const ax = load<f64>(o, 48), ay = load<f64>(o, 56), az = load<f64>(o, 64);
  const bx = load<f64>(o, 72), by = load<f64>(o, 80), bz = load<f64>(o, 88);
  store<f64>(AXES, ax); store<f64>(AXES, ay, 8); store<f64>(AXES, az, 16);
  store<f64>(AXES, bx, 24); store<f64>(AXES, by, 32); store<f64>(AXES, bz, 40);
  store<f64>(AXES, ay * bz - az * by, 48);
  store<f64>(AXES, az * bx - ax * bz, 56);
  store<f64>(AXES, ax * by - ay * bx, 64);
}

// ---- Distance from a point ---------------------------------------------------------------------

/** Distance from a point (mesh frame) to the box of node i: 0 inside. */
function pointBoxDistance(i: usize, px: f64, py: f64, pz: f64): f64 {
  const o = boxes + i * OBB_STRIDE;
  const dx = px - load<f64>(o), dy = py - load<f64>(o, 8), dz = pz - load<f64>(o, 16);
  let d2: f64 = 0;
  boxAxes(o);
  for (let k: usize = 0; k < 3; k++) {
    const a = AXES + k * 24;
    const s = abs<f64>(dx * load<f64>(a) + dy * load<f64>(a, 8) + dz * load<f64>(a, 16)) - load<f64>(o + 24 + k * 8);
    if (s > 0) d2 += s * s;
  }
  return sqrt<f64>(d2);
}

// The closest point on the triangle found by pointTriangleDistance2.
let qx: f64 = 0, qy: f64 = 0, qz: f64 = 0;

@inline function clamp01(x: f64): f64 {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/** triDistance.ts's segmentSegmentDistance2 for a point p against segment [a, b]; closest on it to q. */
function pointSegmentDistance2(px: f64, py: f64, pz: f64, ax: f64, ay: f64, az: f64, bx: f64, by: f64, bz: f64): f64 {
  const d2x = bx - ax, d2y = by - ay, d2z = bz - az;
  const rx = px - ax, ry = py - ay, rz = pz - az;
  const e = d2x * d2x + d2y * d2y + d2z * d2z;
  const f = d2x * rx + d2y * ry + d2z * rz;
  // The point is a segment of length 0 (a = 0): s = 0.
  const t: f64 = e <= 0 ? 0 : clamp01(f / e);
  const c1x = px + 0 * 0, c1y = py + 0 * 0, c1z = pz + 0 * 0;
  const c2x = ax + d2x * t, c2y = ay + d2y * t, c2z = az + d2z * t;
  qx = c2x; qy = c2y; qz = c2z;
  const dx = c1x - c2x, dy = c1y - c2y, dz = c1z - c2z;
  return dx * dx + dy * dy + dz * dz;
}

function degenerateTriangleDistance2(px: f64, py: f64, pz: f64, ax: f64, ay: f64, az: f64, bx: f64, by: f64, bz: f64, cx: f64, cy: f64, cz: f64): f64 {
  let best = pointSegmentDistance2(px, py, pz, ax, ay, az, bx, by, bz);
  let bqx = qx, bqy = qy, bqz = qz;
  let d = pointSegmentDistance2(px, py, pz, bx, by, bz, cx, cy, cz);
  if (d < best) { best = d; bqx = qx; bqy = qy; bqz = qz; }
  d = pointSegmentDistance2(px, py, pz, cx, cy, cz, ax, ay, az);
  if (d < best) { best = d; bqx = qx; bqy = qy; bqz = qz; }
  qx = bqx; qy = bqy; qz = bqz;
  return best;
}

/** triDistance.ts's pointTriangleDistance2 (Ericson's region tests); the closest point to q. */
function pointTriangleDistance2(px: f64, py: f64, pz: f64, ax: f64, ay: f64, az: f64, bx: f64, by: f64, bz: f64, cx: f64, cy: f64, cz: f64): f64 {
  const abx = bx - ax, aby = by - ay, abz = bz - az;
  const acx = cx - ax, acy = cy - ay, acz = cz - az;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  let x: f64, y: f64, z: f64;
  if (d1 <= 0 && d2 <= 0) { x = ax; y = ay; z = az; }
  else {
    const bpx = px - bx, bpy = py - by, bpz = pz - bz;
    const d3 = abx * bpx + aby * bpy + abz * bpz;
    const d4 = acx * bpx + acy * bpy + acz * bpz;
    if (d3 >= 0 && d4 <= d3) { x = bx; y = by; z = bz; }
    else {
      const vc = d1 * d4 - d3 * d2;
      if (vc <= 0 && d1 >= 0 && d3 <= 0 && d1 - d3 > 0) {
        const v = d1 / (d1 - d3);
        x = ax + v * abx; y = ay + v * aby; z = az + v * abz;
      } else {
        const cpx = px - cx, cpy = py - cy, cpz = pz - cz;
        const d5 = abx * cpx + aby * cpy + abz * cpz;
        const d6 = acx * cpx + acy * cpy + acz * cpz;
        if (d6 >= 0 && d5 <= d6) { x = cx; y = cy; z = cz; }
        else {
          const vb = d5 * d2 - d1 * d6;
          if (vb <= 0 && d2 >= 0 && d6 <= 0 && d2 - d6 > 0) {
            const w = d2 / (d2 - d6);
            x = ax + w * acx; y = ay + w * acy; z = az + w * acz;
          } else {
            const va = d3 * d6 - d5 * d4;
            if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0 && d4 - d3 + d5 - d6 > 0) {
              const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
              x = bx + w * (cx - bx); y = by + w * (cy - by); z = bz + w * (cz - bz);
            } else {
              const sum = va + vb + vc;
              if (sum > 0) {
                const denom = 1 / sum;
                const v = vb * denom, w = vc * denom;
                x = ax + abx * v + acx * w; y = ay + aby * v + acy * w; z = az + abz * v + acz * w;
              } else {
                return degenerateTriangleDistance2(px, py, pz, ax, ay, az, bx, by, bz, cx, cy, cz);
              }
            }
          }
        }
      }
    }
  }
  qx = x; qy = y; qz = z;
  const dx = px - x, dy = py - y, dz = pz - z;
  return dx * dx + dy * dy + dz * dz;
}

/**
 * Distance from the point (mesh frame) to the mesh's surface, Infinity beyond maxDistance; the
 * closest point to PROBE + 8 when one was found.
 */
export function pointMeshDistance(px: f64, py: f64, pz: f64, maxDistance: f64): f64 {
  let best = maxDistance, best2 = maxDistance * maxDistance;
  let found = false;
  const S = stack;
  let sp: usize = 0;
  store<u32>(S, 0); sp = 4;
  while (sp > 0) {
    sp -= 4;
    const i = <usize>load<u32>(S + sp);
    if (pointBoxDistance(i, px, py, pz) > best) continue;
    const count = leafCount(i);
    if (count > 0) {
      const first = link(i);
      for (let s = first; s < first + <u32>count; s++) {
        const t = triVerts + <usize>s * 12;
        const a = pos + <usize>load<u32>(t) * 24, b = pos + <usize>load<u32>(t, 4) * 24, c = pos + <usize>load<u32>(t, 8) * 24;
        const d2 = pointTriangleDistance2(
          px, py, pz,
          load<f64>(a), load<f64>(a, 8), load<f64>(a, 16),
          load<f64>(b), load<f64>(b, 8), load<f64>(b, 16),
          load<f64>(c), load<f64>(c, 8), load<f64>(c, 16),
        );
        if (d2 <= best2) {
          best2 = d2;
          best = sqrt<f64>(d2);
          found = true;
          store<f64>(PROBE, qx, 8); store<f64>(PROBE, qy, 16); store<f64>(PROBE, qz, 24);
        }
      }
      continue;
    }
    // Nearer child last (popped first).
    const l = <u32>i + 1, r = link(i);
    if (pointBoxDistance(<usize>l, px, py, pz) < pointBoxDistance(<usize>r, px, py, pz)) {
      store<u32>(S + sp, r); store<u32>(S + sp, l, 4);
    } else {
      store<u32>(S + sp, l); store<u32>(S + sp, r, 4);
    }
    sp += 8;
  }
  return found ? best : Infinity;
}

// ---- Rays ----------------------------------------------------------------------------------------

/** Does the ray o + t·d, 0 < t < tMax, meet the box of node i (slab test, with a margin)? */
function rayHitsBox(i: usize, ox: f64, oy: f64, oz: f64, dx: f64, dy: f64, dz: f64, tMax: f64): bool {
  const o = boxes + i * OBB_STRIDE;
  const rx = ox - load<f64>(o), ry = oy - load<f64>(o, 8), rz = oz - load<f64>(o, 16);
  let t0: f64 = 0, t1 = tMax;
  boxAxes(o);
  for (let k: usize = 0; k < 3; k++) {
    const A = AXES + k * 24;
    const ax = load<f64>(A), ay = load<f64>(A, 8), az = load<f64>(A, 16);
    const h = load<f64>(o + 24 + k * 8) * (1 + 1e-9) + 1e-12;
    const s = rx * ax + ry * ay + rz * az;
    const v = dx * ax + dy * ay + dz * az;
    if (v == 0) {
      if (s > h || s < -h) return false;
      continue;
    }
    let ta = (-h - s) / v, tb = (h - s) / v;
    if (ta > tb) { const t = ta; ta = tb; tb = t; }
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (t0 > t1) return false;
  }
  return true;
}

let rayT: f64 = Infinity, rayTriangle: i32 = -1, rayCrossings: i32 = 0, rayDegenerate: bool = false;

function cast(ox: f64, oy: f64, oz: f64, dx: f64, dy: f64, dz: f64, tMin: f64, tMax: f64, skip: i32): void {
  rayT = Infinity;
  rayTriangle = -1;
  rayCrossings = 0;
  rayDegenerate = false;
  const span: f64 = isFinite<f64>(tMax) ? tMax : 1e300;
  const S = stack;
  let sp: usize = 0;
  store<u32>(S, 0); sp = 4;
  while (sp > 0) {
    sp -= 4;
    const i = <usize>load<u32>(S + sp);
    if (!rayHitsBox(i, ox, oy, oz, dx, dy, dz, span)) continue;
    const count = leafCount(i);
    if (count > 0) {
      const first = link(i);
      for (let s = first; s < first + <u32>count; s++) {
        const original = load<u32>(order + (<usize>s << 2));
        if (skip >= 0 && original == <u32>skip) continue;
        const t3 = triVerts + <usize>s * 12;
        const A = pos + <usize>load<u32>(t3) * 24, B = pos + <usize>load<u32>(t3, 4) * 24, C = pos + <usize>load<u32>(t3, 8) * 24;
        const ax = load<f64>(A), ay = load<f64>(A, 8), az = load<f64>(A, 16);
        // Möller–Trumbore.
        const e1x = load<f64>(B) - ax, e1y = load<f64>(B, 8) - ay, e1z = load<f64>(B, 16) - az;
        const e2x = load<f64>(C) - ax, e2y = load<f64>(C, 8) - ay, e2z = load<f64>(C, 16) - az;
        const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
        const det = e1x * px + e1y * py + e1z * pz;
        const scale = sqrt<f64>((e1x * e1x + e1y * e1y + e1z * e1z) * (e2x * e2x + e2y * e2y + e2z * e2z) * (dx * dx + dy * dy + dz * dz));
        if (abs<f64>(det) <= 1e-12 * scale) {
          // Ray parallel to the triangle's plane: harmless unless it lies in it.
          const tx = ox - ax, ty = oy - ay, tz = oz - az;
          const nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
          const nn = sqrt<f64>(nx * nx + ny * ny + nz * nz);
          if (nn > 0 && abs<f64>(tx * nx + ty * ny + tz * nz) <= 1e-9 * nn * (abs<f64>(tx) + abs<f64>(ty) + abs<f64>(tz) + 1e-300)) rayDegenerate = true;
          continue;
        }
        const inv = 1 / det;
        const tx = ox - ax, ty = oy - ay, tz = oz - az;
        const u = (tx * px + ty * py + tz * pz) * inv;
        if (u < -1e-9 || u > 1 + 1e-9) continue;
        const qx = ty * e1z - tz * e1y, qy = tz * e1x - tx * e1z, qz = tx * e1y - ty * e1x;
        const v = (dx * qx + dy * qy + dz * qz) * inv;
        if (v < -1e-9 || u + v > 1 + 1e-9) continue;
        const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
        if (t <= tMin || t >= tMax) continue;
        if (u < 1e-9 || v < 1e-9 || u + v > 1 - 1e-9) rayDegenerate = true;
        rayCrossings++;
        if (t < rayT) { rayT = t; rayTriangle = <i32>original; }
      }
      continue;
    }
    store<u32>(S + sp, link(i)); store<u32>(S + sp, <u32>i + 1, 4);
    sp += 8;
  }
}

/**
 * Casts the ray o + t·d, t in (tMin, tMax), skipping the triangle with original index `skip` (−1:
 * none): the first hit's t at PROBE, its triangle, the crossings and whether a hit grazed an edge
 * or the ray lay in a triangle's plane (PROBE + 32, 36, 40).
 */
export function castRay(ox: f64, oy: f64, oz: f64, dx: f64, dy: f64, dz: f64, tMin: f64, tMax: f64, skip: i32): void {
  cast(ox, oy, oz, dx, dy, dz, tMin, tMax, skip);
  store<f64>(PROBE, rayT);
  store<i32>(PROBE, rayTriangle, 32);
  store<i32>(PROBE, rayCrossings, 36);
  store<i32>(PROBE, rayDegenerate ? 1 : 0, 40);
}

/**
 * Is the point inside the closed mesh? proximity.ts's vote: crossing parity along fixed
 * directions, rays that graze skipped, two agreeing rays decide, else a third.
 */
export function pointInMesh(px: f64, py: f64, pz: f64): i32 {
  let votes: i32 = 0, casts: i32 = 0;
  for (let k = 0; k < 7 && casts < 3; k++) {
    let dx: f64, dy: f64, dz: f64;
    switch (k) {
      case 0: dx = 0.5773502691896258; dy = 0.5773502691896258; dz = 0.5773502691896258; break;
      case 1: dx = -0.2672612419124244; dy = 0.5345224838248488; dz = 0.8017837257372732; break;
      case 2: dx = 0.8164965809277261; dy = -0.4082482904638631; dz = 0.4082482904638631; break;
      case 3: dx = -0.6246950475544243; dy = -0.7808688094430304; dz = 0.0; break;
      case 4: dx = 0.3015113445777636; dy = -0.3015113445777636; dz = -0.9045340337332909; break;
      case 5: dx = -0.8703882797784892; dy = 0.0; dz = -0.4923659639173309; break;
      default: dx = 0.1601281538050871; dy = 0.9607689228305228; dz = -0.2264780787186006;
    }
    cast(px, py, pz, dx, dy, dz, 0, Infinity, -1);
    if (rayDegenerate) continue;
    casts++;
    if (rayCrossings % 2 == 1) votes++;
    if (casts == 2 && votes != 1) break;
  }
  return votes >= 2 || (casts < 3 && votes >= 1 && votes * 2 >= casts) ? 1 : 0;
}
