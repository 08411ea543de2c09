// The engine's OBBTree query kernel, in AssemblyScript, compiled ahead of time to WebAssembly
// (scripts/buildKernel.mjs). It does what src-core/collide/collide.ts does for OBB trees — the
// tree-vs-tree traversal with the 15-axis separating-axis test, and the leaf pairs' triangle
// tests — with the same arithmetic in the same order, so it reports exactly the same pairs.
//
// Exactness: most pairs are decided by the floating-point filter alone (the same bound as
// geometry/predicates.ts: |det| > O3D_ERR_A · permanent + underflow slack). A pair with a
// determinant within rounding of zero — touching, coplanar or degenerate triangles — goes through
// the exact path below, a port of predicates.ts's expansion arithmetic and of triTri.ts's complete
// test; inputs beyond the expansions' safe range go to the TypeScript test (`exactPair`,
// imported, with its BigInt path). WebAssembly f64 arithmetic is IEEE 754 binary64 with
// round-to-nearest and no fused multiply-add, so every value computed here equals the TypeScript one.
//
// Memory: the host (src-core/kernel/kernel.ts) owns the layout. It writes a parameter block at
// PARAMS (matrices, tolerances, pointers to the trees' arrays and the scratch), calls `query`, and
// reads the results back from the block and from the pair list (which the host moves to a larger
// block when it fills up: `growPairs`).

// The tree builder (./build.ts) and the point and ray probes (./probe.ts) share the module and its memory.
export { buildObb, finishObb, meshBounds } from './build';
export { probeTree, castRay, pointInMesh, pointMeshDistance } from './probe';

@external("env", "exactPair")
declare function exactPair(a0: usize, a1: usize, a2: usize, b0: usize, b1: usize, b2: usize): i32;
/** Moves the pair list to a larger block holding its first `count` pairs; the block's address. */
@external("env", "growPairs")
declare function growPairs(count: i32): usize;

// ---- The parameter block (byte offsets from PARAMS; the host mirrors these numbers) ----------
const PARAMS: usize = 65536;
/** B → A, row-major 3×4: boxes are mapped with it. */
const P_M: usize = 0;
/** The matrix B's vertices are mapped with for triangle tests (M, or B → world when placed). */
const P_VB: usize = 96;
/** A → world (placed queries only). */
const P_MA: usize = 192;
/** The box tests' slack η, computed by `queryPose`. */
const P_ETA: usize = 288;
/** The pose as given (12 or 16 numbers), for `queryPose` to check and read. */
const P_POSE: usize = 304;
/** The trees' largest coordinate magnitudes (ObbTree.maxAbsCoordinate): A's, then B's. */
const P_MAX_A: usize = 432;
const P_MAX_B: usize = 440;
const P_INT: usize = 512;
// i32 slots, at P_INT + 4 · k
const I_A_BOXES = 0;
const I_A_NODES = 1;
const I_A_TRIVERTS = 2;
const I_A_POS = 3;
const I_A_ORDER = 4;
const I_B_BOXES = 5;
const I_B_NODES = 6;
const I_B_TRIVERTS = 7;
const I_B_POS = 8;
const I_B_ORDER = 9;
const I_NODE_CACHE = 10;
const I_VERT_CACHE_B = 11;
const I_VERT_STAMP_B = 12;
const I_VERT_CACHE_A = 13;
const I_VERT_STAMP_A = 14;
const I_STACK = 15;
const I_PAIRS = 17;
const I_PAIR_CAP = 18;
const I_EPOCH = 19;
const I_ANY = 20;
const I_PLACED = 21;
const I_OUT_PAIRS = 22;
const I_OUT_BOX = 23;
const I_OUT_TRI = 24;
const I_OUT_EXACT = 25;

const OBB_STRIDE: usize = 12 * 8;
const NC_STRIDE: usize = 16 * 8;

// Shewchuk's o3derrboundA and the slack terms of geometry/predicates.ts.
const EPS: f64 = 1.1102230246251565e-16;
const O3D_ERR_A: f64 = (7.0 + 56.0 * EPS) * EPS;
const FILTER_TINY: f64 = 1e-290;
const FILTER_UNDERFLOW: f64 = 1e-300;

@inline function pi(k: i32): i32 {
  return load<i32>(PARAMS + P_INT + (<usize>k << 2));
}
@inline function setPi(k: i32, v: i32): void {
  store<i32>(PARAMS + P_INT + (<usize>k << 2), v);
}

// ---- Query state (globals: read once from the block by `query`) -----------------------------
let aBoxes: usize = 0, aNodes: usize = 0, aTriVerts: usize = 0, aPos: usize = 0, aOrder: usize = 0;
let bBoxes: usize = 0, bNodes: usize = 0, bTriVerts: usize = 0, bPos: usize = 0, bOrder: usize = 0;
let nodeCache: usize = 0, vertB: usize = 0, stampB: usize = 0, vertA: usize = 0, stampA: usize = 0;
let stackPtr: usize = 0, pairsPtr: usize = 0;
let pairCap: i32 = 0, pairCount: i32 = 0, triTests: i32 = 0, exactCalls: i32 = 0;
let epoch: f64 = 0;
let epochU: u32 = 0;
let stopAtFirst: bool = false, placed: bool = false;

/** Maps B's vertex v for triangle tests (once per query). */
@inline function mapVertexB(v: u32): void {
  const s = stampB + (<usize>v << 2);
  if (load<u32>(s) == epochU) return;
  store<u32>(s, epochU);
  const p = bPos + <usize>v * 24, o = vertB + <usize>v * 24, T = PARAMS + P_VB;
  const x = load<f64>(p), y = load<f64>(p, 8), z = load<f64>(p, 16);
  store<f64>(o, load<f64>(T) * x + load<f64>(T, 8) * y + load<f64>(T, 16) * z + load<f64>(T, 24));
  store<f64>(o, load<f64>(T, 32) * x + load<f64>(T, 40) * y + load<f64>(T, 48) * z + load<f64>(T, 56), 8);
  store<f64>(o, load<f64>(T, 64) * x + load<f64>(T, 72) * y + load<f64>(T, 80) * z + load<f64>(T, 88), 16);
}

/** Maps A's vertex v into the world (placed queries, once per query). */
@inline function mapVertexA(v: u32): void {
  const s = stampA + (<usize>v << 2);
  if (load<u32>(s) == epochU) return;
  store<u32>(s, epochU);
  const p = aPos + <usize>v * 24, o = vertA + <usize>v * 24, T = PARAMS + P_MA;
  const x = load<f64>(p), y = load<f64>(p, 8), z = load<f64>(p, 16);
  store<f64>(o, load<f64>(T) * x + load<f64>(T, 8) * y + load<f64>(T, 16) * z + load<f64>(T, 24));
  store<f64>(o, load<f64>(T, 32) * x + load<f64>(T, 40) * y + load<f64>(T, 48) * z + load<f64>(T, 56), 8);
  store<f64>(o, load<f64>(T, 64) * x + load<f64>(T, 72) * y + load<f64>(T, 80) * z + load<f64>(T, 88), 16);
}

/** Maps B's node j into A's frame (once per query): stamp, centre, half extents, axes. */
function mapNode(j: usize): void {
  const o = bBoxes + j * OBB_STRIDE, c = nodeCache + j * NC_STRIDE, M = PARAMS + P_M;
  const r00 = load<f64>(M), r01 = load<f64>(M, 8), r02 = load<f64>(M, 16), t0 = load<f64>(M, 24);
  const r10 = load<f64>(M, 32), r11 = load<f64>(M, 40), r12 = load<f64>(M, 48), t1 = load<f64>(M, 56);
  const r20 = load<f64>(M, 64), r21 = load<f64>(M, 72), r22 = load<f64>(M, 80), t2 = load<f64>(M, 88);
  store<f64>(c, epoch);
  let x = load<f64>(o), y = load<f64>(o, 8), z = load<f64>(o, 16);
  store<f64>(c, r00 * x + r01 * y + r02 * z + t0, 8);
  store<f64>(c, r10 * x + r11 * y + r12 * z + t1, 16);
  store<f64>(c, r20 * x + r21 * y + r22 * z + t2, 24);
  store<f64>(c, load<f64>(o, 24), 32);
  store<f64>(c, load<f64>(o, 32), 40);
  store<f64>(c, load<f64>(o, 40), 48);
  const ax = load<f64>(o, 48), ay = load<f64>(o, 56), az = load<f64>(o, 64);
  const bx = load<f64>(o, 72), by = load<f64>(o, 80), bz = load<f64>(o, 88);
  store<f64>(c, r00 * ax + r01 * ay + r02 * az, 56);
  store<f64>(c, r10 * ax + r11 * ay + r12 * az, 64);
  store<f64>(c, r20 * ax + r21 * ay + r22 * az, 72);
  store<f64>(c, r00 * bx + r01 * by + r02 * bz, 80);
  store<f64>(c, r10 * bx + r11 * by + r12 * bz, 88);
  store<f64>(c, r20 * bx + r21 * by + r22 * bz, 96);
  // The third axis, as obbtree/layout.ts's obbAxes forms it.
  x = ay * bz - az * by; y = az * bx - ax * bz; z = ax * by - ay * bx;
  store<f64>(c, r00 * x + r01 * y + r02 * z, 104);
  store<f64>(c, r10 * x + r11 * y + r12 * z, 112);
  store<f64>(c, r20 * x + r21 * y + r22 * z, 120);
}

/** 15-axis separating-axis test of A's box i against B's mapped box j (see collide.ts). */
function disjoint(i: usize, j: usize, eta: f64): bool {
  const o = aBoxes + i * OBB_STRIDE, c = nodeCache + j * NC_STRIDE;
  const dx = load<f64>(c, 8) - load<f64>(o), dy = load<f64>(c, 16) - load<f64>(o, 8), dz = load<f64>(c, 24) - load<f64>(o, 16);
  const a0 = load<f64>(o, 24), a1 = load<f64>(o, 32), a2 = load<f64>(o, 40);
  const b0 = load<f64>(c, 32), b1 = load<f64>(c, 40), b2 = load<f64>(c, 48);
  const e0x = load<f64>(c, 56), e0y = load<f64>(c, 64), e0z = load<f64>(c, 72);
  const e1x = load<f64>(c, 80), e1y = load<f64>(c, 88), e1z = load<f64>(c, 96);
  const e2x = load<f64>(c, 104), e2y = load<f64>(c, 112), e2z = load<f64>(c, 120);

  // A's axes: the two stored, then their cross product (obbtree/layout.ts's obbAxes).
  const px = load<f64>(o, 48), py = load<f64>(o, 56), pz = load<f64>(o, 64);
  const T0 = px * dx + py * dy + pz * dz;
  const R00 = px * e0x + py * e0y + pz * e0z, R01 = px * e1x + py * e1y + pz * e1z, R02 = px * e2x + py * e2y + pz * e2z;
  const Q00 = abs<f64>(R00), Q01 = abs<f64>(R01), Q02 = abs<f64>(R02);
  if (abs<f64>(T0) > a0 + b0 * Q00 + b1 * Q01 + b2 * Q02 + eta) return true;
  const qx = load<f64>(o, 72), qy = load<f64>(o, 80), qz = load<f64>(o, 88);
  const T1 = qx * dx + qy * dy + qz * dz;
  const R10 = qx * e0x + qy * e0y + qz * e0z, R11 = qx * e1x + qy * e1y + qz * e1z, R12 = qx * e2x + qy * e2y + qz * e2z;
  const Q10 = abs<f64>(R10), Q11 = abs<f64>(R11), Q12 = abs<f64>(R12);
  if (abs<f64>(T1) > a1 + b0 * Q10 + b1 * Q11 + b2 * Q12 + eta) return true;
  const ux = py * qz - pz * qy, uy = pz * qx - px * qz, uz = px * qy - py * qx;
  const T2 = ux * dx + uy * dy + uz * dz;
  const R20 = ux * e0x + uy * e0y + uz * e0z, R21 = ux * e1x + uy * e1y + uz * e1z, R22 = ux * e2x + uy * e2y + uz * e2z;
  const Q20 = abs<f64>(R20), Q21 = abs<f64>(R21), Q22 = abs<f64>(R22);
  if (abs<f64>(T2) > a2 + b0 * Q20 + b1 * Q21 + b2 * Q22 + eta) return true;
  if (abs<f64>(T0 * R00 + T1 * R10 + T2 * R20) > a0 * Q00 + a1 * Q10 + a2 * Q20 + b0 + eta) return true;
  if (abs<f64>(T0 * R01 + T1 * R11 + T2 * R21) > a0 * Q01 + a1 * Q11 + a2 * Q21 + b1 + eta) return true;
  if (abs<f64>(T0 * R02 + T1 * R12 + T2 * R22) > a0 * Q02 + a1 * Q12 + a2 * Q22 + b2 + eta) return true;
  if (abs<f64>(T2 * R10 - T1 * R20) > a1 * Q20 + a2 * Q10 + b1 * Q02 + b2 * Q01 + eta) return true;
  if (abs<f64>(T2 * R11 - T1 * R21) > a1 * Q21 + a2 * Q11 + b0 * Q02 + b2 * Q00 + eta) return true;
  if (abs<f64>(T2 * R12 - T1 * R22) > a1 * Q22 + a2 * Q12 + b0 * Q01 + b1 * Q00 + eta) return true;
  if (abs<f64>(T0 * R20 - T2 * R00) > a0 * Q20 + a2 * Q00 + b1 * Q12 + b2 * Q11 + eta) return true;
  if (abs<f64>(T0 * R21 - T2 * R01) > a0 * Q21 + a2 * Q01 + b0 * Q12 + b2 * Q10 + eta) return true;
  if (abs<f64>(T0 * R22 - T2 * R02) > a0 * Q22 + a2 * Q02 + b0 * Q11 + b1 * Q10 + eta) return true;
  if (abs<f64>(T1 * R00 - T0 * R10) > a0 * Q10 + a1 * Q00 + b1 * Q22 + b2 * Q21 + eta) return true;
  if (abs<f64>(T1 * R01 - T0 * R11) > a0 * Q11 + a1 * Q01 + b0 * Q22 + b2 * Q20 + eta) return true;
  if (abs<f64>(T1 * R02 - T0 * R12) > a0 * Q12 + a1 * Q02 + b0 * Q21 + b1 * Q20 + eta) return true;
  return false;
}

// ---- The filtered triangle test ----------------------------------------------------------------
// Returns 0 (disjoint), 1 (intersecting) or 2 (a determinant is within rounding of zero: the exact
// test decides). Vertices are read from G, as in geometry/triTri.ts: T1 = p1 q1 r1 at 0, 24, 48 and
// T2 = p2 q2 r2 at 72, 96, 120 (bytes).
const G: usize = PARAMS + 1024;
const UNSURE: i32 = 2;

/** Filtered orient3d of the points at byte offsets a, b, c, d of G; NaN when uncertain. */
function o3d(a: usize, b: usize, c: usize, d: usize): f64 {
  const ax = load<f64>(G + a), ay = load<f64>(G + a, 8), az = load<f64>(G + a, 16);
  const ux = load<f64>(G + b) - ax, uy = load<f64>(G + b, 8) - ay, uz = load<f64>(G + b, 16) - az;
  const vx = load<f64>(G + c) - ax, vy = load<f64>(G + c, 8) - ay, vz = load<f64>(G + c, 16) - az;
  const wx = load<f64>(G + d) - ax, wy = load<f64>(G + d, 8) - ay, wz = load<f64>(G + d, 16) - az;
  const m0a = uy * vz, m0b = uz * vy;
  const m1a = uz * vx, m1b = ux * vz;
  const m2a = ux * vy, m2b = uy * vx;
  const det = wx * (m0a - m0b) + wy * (m1a - m1b) + wz * (m2a - m2b);
  const awx = abs<f64>(wx), awy = abs<f64>(wy), awz = abs<f64>(wz);
  const perm = awx * (abs<f64>(m0a) + abs<f64>(m0b)) + awy * (abs<f64>(m1a) + abs<f64>(m1b)) + awz * (abs<f64>(m2a) + abs<f64>(m2b));
  const bound = O3D_ERR_A * perm + (awx + awy + awz) * FILTER_UNDERFLOW + FILTER_TINY;
  if (det > bound || -det > bound) return det;
  return NaN;
}

/** CHECK_MIN_MAX with certified signs; UNSURE when either determinant is not certified. */
function checkMinMax(p1: usize, q1: usize, r1: usize, p2: usize, q2: usize, r2: usize): i32 {
  const d1 = o3d(q1, p2, p1, q2);
  if (d1 != d1) return UNSURE;
  if (d1 > 0) return 0;
  const d2 = o3d(p1, p2, r1, r2);
  if (d2 != d2) return UNSURE;
  return d2 > 0 ? 0 : 1;
}

/** The paper's second permutation step (triTri.ts); the signs are certified, so none is zero. */
function triTri3d(p1: usize, q1: usize, r1: usize, p2: usize, q2: usize, r2: usize, dp2: f64, dq2: f64, dr2: f64): i32 {
  if (dp2 > 0) {
    if (dq2 > 0) return checkMinMax(p1, r1, q1, r2, p2, q2);
    if (dr2 > 0) return checkMinMax(p1, r1, q1, q2, r2, p2);
    return checkMinMax(p1, q1, r1, p2, q2, r2);
  }
  if (dq2 < 0) return checkMinMax(p1, q1, r1, r2, p2, q2);
  if (dr2 < 0) return checkMinMax(p1, q1, r1, q2, r2, p2);
  return checkMinMax(p1, r1, q1, p2, q2, r2);
}

/**
 * The filtered test of the triangle at A-side byte offsets a0 a1 a2 (in memory X) against B's at
 * b0 b1 b2 (in memory Y): the vertices are copied to G first.
 */
function triTriFiltered(pa: usize, a0: usize, a1: usize, a2: usize, pb: usize, b0: usize, b1: usize, b2: usize): i32 {
  const p1x = load<f64>(pa + a0), p1y = load<f64>(pa + a0, 8), p1z = load<f64>(pa + a0, 16);
  const q1x = load<f64>(pa + a1), q1y = load<f64>(pa + a1, 8), q1z = load<f64>(pa + a1, 16);
  const r1x = load<f64>(pa + a2), r1y = load<f64>(pa + a2, 8), r1z = load<f64>(pa + a2, 16);
  const p2x = load<f64>(pb + b0), p2y = load<f64>(pb + b0, 8), p2z = load<f64>(pb + b0, 16);
  const q2x = load<f64>(pb + b1), q2y = load<f64>(pb + b1, 8), q2z = load<f64>(pb + b1, 16);
  const r2x = load<f64>(pb + b2), r2y = load<f64>(pb + b2, 8), r2z = load<f64>(pb + b2, 16);

  // T1's vertices against T2's plane (the plane's minors shared, as in triTri.ts).
  let ux = q2x - p2x, uy = q2y - p2y, uz = q2z - p2z;
  let vx = r2x - p2x, vy = r2y - p2y, vz = r2z - p2z;
  let ma = uy * vz, mb = uz * vy;
  let nx = ma - mb, sx = abs<f64>(ma) + abs<f64>(mb);
  ma = uz * vx; mb = ux * vz;
  let ny = ma - mb, sy = abs<f64>(ma) + abs<f64>(mb);
  ma = ux * vy; mb = uy * vx;
  let nz = ma - mb, sz = abs<f64>(ma) + abs<f64>(mb);

  let wx = p1x - p2x, wy = p1y - p2y, wz = p1z - p2z;
  const dp1 = wx * nx + wy * ny + wz * nz;
  let aw = abs<f64>(wx) + abs<f64>(wy) + abs<f64>(wz);
  let bound = O3D_ERR_A * (abs<f64>(wx) * sx + abs<f64>(wy) * sy + abs<f64>(wz) * sz) + aw * FILTER_UNDERFLOW + FILTER_TINY;
  if (!(dp1 > bound || -dp1 > bound)) return UNSURE;
  wx = q1x - p2x; wy = q1y - p2y; wz = q1z - p2z;
  const dq1 = wx * nx + wy * ny + wz * nz;
  aw = abs<f64>(wx) + abs<f64>(wy) + abs<f64>(wz);
  bound = O3D_ERR_A * (abs<f64>(wx) * sx + abs<f64>(wy) * sy + abs<f64>(wz) * sz) + aw * FILTER_UNDERFLOW + FILTER_TINY;
  if (!(dq1 > bound || -dq1 > bound)) return UNSURE;
  wx = r1x - p2x; wy = r1y - p2y; wz = r1z - p2z;
  const dr1 = wx * nx + wy * ny + wz * nz;
  aw = abs<f64>(wx) + abs<f64>(wy) + abs<f64>(wz);
  bound = O3D_ERR_A * (abs<f64>(wx) * sx + abs<f64>(wy) * sy + abs<f64>(wz) * sz) + aw * FILTER_UNDERFLOW + FILTER_TINY;
  if (!(dr1 > bound || -dr1 > bound)) return UNSURE;
  if ((dp1 > 0 && dq1 > 0 && dr1 > 0) || (dp1 < 0 && dq1 < 0 && dr1 < 0)) return 0;

  // T2's vertices against T1's plane.
  ux = q1x - p1x; uy = q1y - p1y; uz = q1z - p1z;
  vx = r1x - p1x; vy = r1y - p1y; vz = r1z - p1z;
  ma = uy * vz; mb = uz * vy;
  nx = ma - mb; sx = abs<f64>(ma) + abs<f64>(mb);
  ma = uz * vx; mb = ux * vz;
  ny = ma - mb; sy = abs<f64>(ma) + abs<f64>(mb);
  ma = ux * vy; mb = uy * vx;
  nz = ma - mb; sz = abs<f64>(ma) + abs<f64>(mb);

  wx = p2x - p1x; wy = p2y - p1y; wz = p2z - p1z;
  const dp2 = wx * nx + wy * ny + wz * nz;
  aw = abs<f64>(wx) + abs<f64>(wy) + abs<f64>(wz);
  bound = O3D_ERR_A * (abs<f64>(wx) * sx + abs<f64>(wy) * sy + abs<f64>(wz) * sz) + aw * FILTER_UNDERFLOW + FILTER_TINY;
  if (!(dp2 > bound || -dp2 > bound)) return UNSURE;
  wx = q2x - p1x; wy = q2y - p1y; wz = q2z - p1z;
  const dq2 = wx * nx + wy * ny + wz * nz;
  aw = abs<f64>(wx) + abs<f64>(wy) + abs<f64>(wz);
  bound = O3D_ERR_A * (abs<f64>(wx) * sx + abs<f64>(wy) * sy + abs<f64>(wz) * sz) + aw * FILTER_UNDERFLOW + FILTER_TINY;
  if (!(dq2 > bound || -dq2 > bound)) return UNSURE;
  wx = r2x - p1x; wy = r2y - p1y; wz = r2z - p1z;
  const dr2 = wx * nx + wy * ny + wz * nz;
  aw = abs<f64>(wx) + abs<f64>(wy) + abs<f64>(wz);
  bound = O3D_ERR_A * (abs<f64>(wx) * sx + abs<f64>(wy) * sy + abs<f64>(wz) * sz) + aw * FILTER_UNDERFLOW + FILTER_TINY;
  if (!(dr2 > bound || -dr2 > bound)) return UNSURE;
  if ((dp2 > 0 && dq2 > 0 && dr2 > 0) || (dp2 < 0 && dq2 < 0 && dr2 < 0)) return 0;

  store<f64>(G, p1x); store<f64>(G, p1y, 8); store<f64>(G, p1z, 16);
  store<f64>(G, q1x, 24); store<f64>(G, q1y, 32); store<f64>(G, q1z, 40);
  store<f64>(G, r1x, 48); store<f64>(G, r1y, 56); store<f64>(G, r1z, 64);
  store<f64>(G, p2x, 72); store<f64>(G, p2y, 80); store<f64>(G, p2z, 88);
  store<f64>(G, q2x, 96); store<f64>(G, q2y, 104); store<f64>(G, q2z, 112);
  store<f64>(G, r2x, 120); store<f64>(G, r2y, 128); store<f64>(G, r2z, 136);

  // Every sign is certified and nonzero: the paper's permutations as in triTri.ts.
  if (dp1 > 0) {
    if (dq1 > 0) return triTri3d(48, 0, 24, 72, 120, 96, dp2, dr2, dq2);
    if (dr1 > 0) return triTri3d(24, 48, 0, 72, 120, 96, dp2, dr2, dq2);
    return triTri3d(0, 24, 48, 72, 96, 120, dp2, dq2, dr2);
  }
  if (dq1 < 0) return triTri3d(48, 0, 24, 72, 96, 120, dp2, dq2, dr2);
  if (dr1 < 0) return triTri3d(24, 48, 0, 72, 96, 120, dp2, dq2, dr2);
  return triTri3d(0, 24, 48, 72, 120, 96, dp2, dr2, dq2);
}

// ---- The exact path, for the pairs the filter leaves undecided ----------------------------------
// A port of geometry/predicates.ts (expansion arithmetic: error-free TwoSum and TwoProduct) and of
// geometry/triTri.ts's complete test (zero signs, coplanar and degenerate triangles). Inputs with a
// magnitude outside [1e-60, 1e60], where expansions could underflow, set `bail`: the TypeScript
// test (its BigInt path) decides those pairs.

const SPLITTER: f64 = 134217729.0; // 2^27 + 1
const CCW_ERR_A: f64 = (3.0 + 16.0 * EPS) * EPS;
const SAFE_MAX: f64 = 1e60;
const SAFE_MIN: f64 = 1e-60;
/** Two expansion buffers of 256 doubles; a determinant here needs at most 96 components. */
const EXP_0: usize = PARAMS + 4096;
const EXP_1: usize = PARAMS + 6144;
let expCur: usize = EXP_0;
let expNext: usize = EXP_1;
let expLen: i32 = 0;
let bail: bool = false;

/** Adds b to the running expansion exactly (Grow-Expansion, zero-eliminated). */
function grow(b: f64): void {
  if (b == 0) return;
  let q = b;
  let n: i32 = 0;
  for (let i: i32 = 0; i < expLen; i++) {
    const e = load<f64>(expCur + (<usize>i << 3));
    const x = q + e;
    const bv = x - q;
    const av = x - bv;
    const lo = (q - av) + (e - bv);
    q = x;
    if (lo != 0) store<f64>(expNext + (<usize>(n++) << 3), lo);
  }
  if (q != 0) store<f64>(expNext + (<usize>(n++) << 3), q);
  const t = expCur;
  expCur = expNext;
  expNext = t;
  expLen = n;
}

/** Adds s·x·y·z exactly (the four doubles of two TwoProducts). */
function growTripleProduct(s: f64, x: f64, y: f64, z: f64): void {
  const p1 = x * y;
  let c = SPLITTER * x;
  const xhi = c - (c - x);
  const xlo = x - xhi;
  c = SPLITTER * y;
  const yhi = c - (c - y);
  const ylo = y - yhi;
  const p0 = xlo * ylo - (((p1 - xhi * yhi) - xlo * yhi) - xhi * ylo);
  c = SPLITTER * z;
  const zhi = c - (c - z);
  const zlo = z - zhi;
  const q1 = z * p1;
  c = SPLITTER * p1;
  let hi = c - (c - p1);
  let lo = p1 - hi;
  const q0 = zlo * lo - (((q1 - zhi * hi) - zlo * hi) - zhi * lo);
  const r1 = z * p0;
  c = SPLITTER * p0;
  hi = c - (c - p0);
  lo = p0 - hi;
  const r0 = zlo * lo - (((r1 - zhi * hi) - zlo * hi) - zhi * lo);
  grow(s * q0);
  grow(s * r0);
  grow(s * q1);
  grow(s * r1);
}

/** Adds s·x·y exactly. */
function growProduct(s: f64, x: f64, y: f64): void {
  const p1 = x * y;
  let c = SPLITTER * x;
  const xhi = c - (c - x);
  const xlo = x - xhi;
  c = SPLITTER * y;
  const yhi = c - (c - y);
  const ylo = y - yhi;
  const p0 = xlo * ylo - (((p1 - xhi * yhi) - xlo * yhi) - xhi * ylo);
  grow(s * p0);
  grow(s * p1);
}

function expansionSign(): f64 {
  return expLen == 0 ? 0 : load<f64>(expCur + (<usize>(expLen - 1) << 3)) > 0 ? 1 : -1;
}

/** Error of the subtraction a − b whose rounded value is x: zero exactly when a − b is exact. */
@inline function diffTail(a: f64, b: f64, x: f64): f64 {
  const bv = a - x;
  const av = x + bv;
  return (a - av) + (bv - b);
}

@inline function safe(v: f64): bool {
  const m = abs<f64>(v);
  return m == 0 || (m <= SAFE_MAX && m >= SAFE_MIN);
}

function orient2dExact(ax: f64, ay: f64, bx: f64, by: f64, cx: f64, cy: f64): f64 {
  if ((ax == bx && bx == cx) || (ay == by && by == cy)) return 0;
  if (!(safe(ax) && safe(ay) && safe(bx) && safe(by) && safe(cx) && safe(cy))) {
    bail = true;
    return 0;
  }
  const ux = bx - ax, uy = by - ay, vx = cx - ax, vy = cy - ay;
  expLen = 0;
  if (diffTail(bx, ax, ux) == 0 && diffTail(by, ay, uy) == 0 && diffTail(cx, ax, vx) == 0 && diffTail(cy, ay, vy) == 0) {
    growProduct(1, ux, vy);
    growProduct(-1, uy, vx);
  } else {
    growProduct(1, ax, by);
    growProduct(-1, bx, ay);
    growProduct(1, bx, cy);
    growProduct(-1, cx, by);
    growProduct(1, cx, ay);
    growProduct(-1, ax, cy);
  }
  return expansionSign();
}

function orient3dExact(ax: f64, ay: f64, az: f64, bx: f64, by: f64, bz: f64, cx: f64, cy: f64, cz: f64, dx: f64, dy: f64, dz: f64): f64 {
  if ((az == bz && bz == cz && cz == dz) || (ax == bx && bx == cx && cx == dx) || (ay == by && by == cy && cy == dy)) return 0;
  if (!(safe(ax) && safe(ay) && safe(az) && safe(bx) && safe(by) && safe(bz) && safe(cx) && safe(cy) && safe(cz) && safe(dx) && safe(dy) && safe(dz))) {
    bail = true;
    return 0;
  }
  const ux = bx - ax, uy = by - ay, uz = bz - az;
  const vx = cx - ax, vy = cy - ay, vz = cz - az;
  const wx = dx - ax, wy = dy - ay, wz = dz - az;
  expLen = 0;
  if (
    diffTail(bx, ax, ux) == 0 && diffTail(by, ay, uy) == 0 && diffTail(bz, az, uz) == 0 &&
    diffTail(cx, ax, vx) == 0 && diffTail(cy, ay, vy) == 0 && diffTail(cz, az, vz) == 0 &&
    diffTail(dx, ax, wx) == 0 && diffTail(dy, ay, wy) == 0 && diffTail(dz, az, wz) == 0
  ) {
    growTripleProduct(1, wx, uy, vz);
    growTripleProduct(-1, wx, uz, vy);
    growTripleProduct(1, wy, uz, vx);
    growTripleProduct(-1, wy, ux, vz);
    growTripleProduct(1, wz, ux, vy);
    growTripleProduct(-1, wz, uy, vx);
    return expansionSign();
  }
  growTripleProduct(-1, az, bx, cy);
  growTripleProduct(1, az, cx, by);
  growTripleProduct(1, az, bx, dy);
  growTripleProduct(-1, az, dx, by);
  growTripleProduct(-1, az, cx, dy);
  growTripleProduct(1, az, dx, cy);
  growTripleProduct(1, bz, ax, cy);
  growTripleProduct(-1, bz, cx, ay);
  growTripleProduct(-1, bz, ax, dy);
  growTripleProduct(1, bz, dx, ay);
  growTripleProduct(1, bz, cx, dy);
  growTripleProduct(-1, bz, dx, cy);
  growTripleProduct(-1, cz, ax, by);
  growTripleProduct(1, cz, bx, ay);
  growTripleProduct(1, cz, ax, dy);
  growTripleProduct(-1, cz, dx, ay);
  growTripleProduct(-1, cz, bx, dy);
  growTripleProduct(1, cz, dx, by);
  growTripleProduct(1, dz, ax, by);
  growTripleProduct(-1, dz, bx, ay);
  growTripleProduct(-1, dz, ax, cy);
  growTripleProduct(1, dz, cx, ay);
  growTripleProduct(1, dz, bx, cy);
  growTripleProduct(-1, dz, cx, by);
  return expansionSign();
}

/** orient2d with an exact sign (filter, then exact). */
function orient2d(ax: f64, ay: f64, bx: f64, by: f64, cx: f64, cy: f64): f64 {
  const l = (bx - ax) * (cy - ay);
  const r = (by - ay) * (cx - ax);
  const det = l - r;
  const bound = CCW_ERR_A * (abs<f64>(l) + abs<f64>(r)) + FILTER_TINY;
  if (det > bound || -det > bound) return det;
  return orient2dExact(ax, ay, bx, by, cx, cy);
}

/** orient3d of the points at byte offsets a, b, c, d of G, with an exact sign. */
function orientG(a: usize, b: usize, c: usize, d: usize): f64 {
  const r = o3d(a, b, c, d);
  if (r == r) return r;
  return orient3dExact(
    load<f64>(G + a), load<f64>(G + a, 8), load<f64>(G + a, 16),
    load<f64>(G + b), load<f64>(G + b, 8), load<f64>(G + b, 16),
    load<f64>(G + c), load<f64>(G + c, 8), load<f64>(G + c, 16),
    load<f64>(G + d), load<f64>(G + d, 8), load<f64>(G + d, 16),
  );
}

@inline function gx(p: usize, k: i32): f64 {
  return load<f64>(G + p + (<usize>k << 3));
}

function isDegenerate(p: usize, q: usize, r: usize): bool {
  return (
    orient2d(gx(p, 0), gx(p, 1), gx(q, 0), gx(q, 1), gx(r, 0), gx(r, 1)) == 0 &&
    orient2d(gx(p, 1), gx(p, 2), gx(q, 1), gx(q, 2), gx(r, 1), gx(r, 2)) == 0 &&
    orient2d(gx(p, 2), gx(p, 0), gx(q, 2), gx(q, 0), gx(r, 2), gx(r, 0)) == 0
  );
}

/** 2D orientation of three points of G in the coordinate plane that drops axis k. */
function orientProj(k: i32, a: usize, b: usize, c: usize): f64 {
  const i = k == 0 ? 1 : 0;
  const j = k == 2 ? 1 : 2;
  return orient2d(gx(a, i), gx(a, j), gx(b, i), gx(b, j), gx(c, i), gx(c, j));
}

function projectionAxis(p: usize, q: usize, r: usize): i32 {
  const ux = gx(q, 0) - gx(p, 0), uy = gx(q, 1) - gx(p, 1), uz = gx(q, 2) - gx(p, 2);
  const vx = gx(r, 0) - gx(p, 0), vy = gx(r, 1) - gx(p, 1), vz = gx(r, 2) - gx(p, 2);
  const nx = abs<f64>(uy * vz - uz * vy), ny = abs<f64>(uz * vx - ux * vz), nz = abs<f64>(ux * vy - uy * vx);
  const first = nx >= ny && nx >= nz ? 0 : ny >= nz ? 1 : 2;
  if (orientProj(first, p, q, r) != 0) return first;
  for (let k = 0; k < 3; k++) if (k != first && orientProj(k, p, q, r) != 0) return k;
  return first;
}

function pointInTriangle2d(k: i32, x: usize, p: usize, q: usize, r: usize): bool {
  const s: f64 = orientProj(k, p, q, r) > 0 ? 1 : -1;
  return s * orientProj(k, p, q, x) >= 0 && s * orientProj(k, q, r, x) >= 0 && s * orientProj(k, r, p, x) >= 0;
}

function collinearOverlap(a: usize, b: usize, c: usize, d: usize): bool {
  for (let k = 0; k < 3; k++) {
    const va = gx(a, k), vb = gx(b, k), vc = gx(c, k), vd = gx(d, k);
    const lo1 = va < vb ? va : vb, hi1 = va < vb ? vb : va;
    const lo2 = vc < vd ? vc : vd, hi2 = vc < vd ? vd : vc;
    const lo = lo1 < lo2 ? lo1 : lo2, hi = hi1 > hi2 ? hi1 : hi2;
    if (lo != hi) return lo1 <= hi2 && lo2 <= hi1;
  }
  return true;
}

function segSeg2d(k: i32, a: usize, b: usize, c: usize, d: usize): bool {
  const o1 = orientProj(k, a, b, c), o2 = orientProj(k, a, b, d);
  const o3 = orientProj(k, c, d, a), o4 = orientProj(k, c, d, b);
  if (o1 != 0 || o2 != 0 || o3 != 0 || o4 != 0) {
    return !((o1 > 0 && o2 > 0) || (o1 < 0 && o2 < 0) || (o3 > 0 && o4 > 0) || (o3 < 0 && o4 < 0));
  }
  return collinearOverlap(a, b, c, d);
}

function segSeg3d(a: usize, b: usize, c: usize, d: usize): bool {
  if (orientG(a, b, c, d) != 0) return false;
  for (let k = 0; k < 3; k++) {
    if (orientProj(k, a, b, c) != 0 || orientProj(k, a, b, d) != 0 || orientProj(k, c, d, a) != 0 || orientProj(k, c, d, b) != 0) {
      return segSeg2d(k, a, b, c, d);
    }
  }
  return collinearOverlap(a, b, c, d);
}

function segTri(a: usize, b: usize, p: usize, q: usize, r: usize): bool {
  const oa = orientG(p, q, r, a);
  const ob = orientG(p, q, r, b);
  if ((oa > 0 && ob > 0) || (oa < 0 && ob < 0)) return false;
  if (oa == 0 && ob == 0) {
    const k = projectionAxis(p, q, r);
    return (
      pointInTriangle2d(k, a, p, q, r) ||
      pointInTriangle2d(k, b, p, q, r) ||
      segSeg2d(k, a, b, p, q) ||
      segSeg2d(k, a, b, q, r) ||
      segSeg2d(k, a, b, r, p)
    );
  }
  const s1 = orientG(a, b, p, q);
  const s2 = orientG(a, b, q, r);
  const s3 = orientG(a, b, r, p);
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
}

function segAnyTri(a: usize, b: usize, p: usize, q: usize, r: usize, degenerate: bool): bool {
  if (!degenerate) return segTri(a, b, p, q, r);
  return segSeg3d(a, b, p, q) || segSeg3d(a, b, q, r) || segSeg3d(a, b, r, p);
}

function separatesProj(k: i32, s: f64, a: usize, b: usize, t: usize): bool {
  return s * orientProj(k, a, b, t) < 0 && s * orientProj(k, a, b, t + 24) < 0 && s * orientProj(k, a, b, t + 48) < 0;
}

/** triTri.ts's triTriGeneral: every configuration, for coplanar and degenerate pairs. */
function triTriGeneral(): bool {
  const deg1 = isDegenerate(0, 24, 48);
  const deg2 = isDegenerate(72, 96, 120);
  if (deg1) {
    return segAnyTri(0, 24, 72, 96, 120, deg2) || segAnyTri(24, 48, 72, 96, 120, deg2) || segAnyTri(48, 0, 72, 96, 120, deg2);
  }
  if (deg2) {
    return segTri(72, 96, 0, 24, 48) || segTri(96, 120, 0, 24, 48) || segTri(120, 72, 0, 24, 48);
  }
  const k = projectionAxis(0, 24, 48);
  const s1: f64 = orientProj(k, 0, 24, 48) > 0 ? 1 : -1;
  const s2: f64 = orientProj(k, 72, 96, 120) > 0 ? 1 : -1;
  return !(
    separatesProj(k, s1, 0, 24, 72) || separatesProj(k, s1, 24, 48, 72) || separatesProj(k, s1, 48, 0, 72) ||
    separatesProj(k, s2, 72, 96, 0) || separatesProj(k, s2, 96, 120, 0) || separatesProj(k, s2, 120, 72, 0)
  );
}

/** CHECK_MIN_MAX with exact signs. */
function checkMinMaxExact(p1: usize, q1: usize, r1: usize, p2: usize, q2: usize, r2: usize): bool {
  if (orientG(q1, p2, p1, q2) > 0) return false;
  if (orientG(p1, p2, r1, r2) > 0) return false;
  return true;
}

function triTri3dExact(p1: usize, q1: usize, r1: usize, p2: usize, q2: usize, r2: usize, dp2: f64, dq2: f64, dr2: f64): bool {
  if (dp2 > 0) {
    if (dq2 > 0) return checkMinMaxExact(p1, r1, q1, r2, p2, q2);
    if (dr2 > 0) return checkMinMaxExact(p1, r1, q1, q2, r2, p2);
    return checkMinMaxExact(p1, q1, r1, p2, q2, r2);
  }
  if (dp2 < 0) {
    if (dq2 < 0) return checkMinMaxExact(p1, q1, r1, r2, p2, q2);
    if (dr2 < 0) return checkMinMaxExact(p1, q1, r1, q2, r2, p2);
    return checkMinMaxExact(p1, r1, q1, p2, q2, r2);
  }
  if (dq2 < 0) {
    if (dr2 >= 0) return checkMinMaxExact(p1, r1, q1, q2, r2, p2);
    return checkMinMaxExact(p1, q1, r1, p2, q2, r2);
  }
  if (dq2 > 0) {
    if (dr2 > 0) return checkMinMaxExact(p1, r1, q1, p2, q2, r2);
    return checkMinMaxExact(p1, q1, r1, q2, r2, p2);
  }
  if (dr2 > 0) return checkMinMaxExact(p1, q1, r1, r2, p2, q2);
  if (dr2 < 0) return checkMinMaxExact(p1, r1, q1, r2, p2, q2);
  return triTriGeneral();
}

/**
 * triTri.ts's complete test on the pair at pa[a0..], pb[b0..]: 0 or 1, or UNSURE when an input is
 * outside the expansions' safe range (`bail`).
 */
function triTriExact(pa: usize, a0: usize, a1: usize, a2: usize, pb: usize, b0: usize, b1: usize, b2: usize): i32 {
  bail = false;
  for (let k: usize = 0; k < 24; k += 8) {
    store<f64>(G + k, load<f64>(pa + a0 + k));
    store<f64>(G + 24 + k, load<f64>(pa + a1 + k));
    store<f64>(G + 48 + k, load<f64>(pa + a2 + k));
    store<f64>(G + 72 + k, load<f64>(pb + b0 + k));
    store<f64>(G + 96 + k, load<f64>(pb + b1 + k));
    store<f64>(G + 120 + k, load<f64>(pb + b2 + k));
  }
  const dp1 = orientG(72, 96, 120, 0), dq1 = orientG(72, 96, 120, 24), dr1 = orientG(72, 96, 120, 48);
  if (bail) return UNSURE;
  if ((dp1 > 0 && dq1 > 0 && dr1 > 0) || (dp1 < 0 && dq1 < 0 && dr1 < 0)) return 0;
  const dp2 = orientG(0, 24, 48, 72), dq2 = orientG(0, 24, 48, 96), dr2 = orientG(0, 24, 48, 120);
  if (bail) return UNSURE;
  if ((dp2 > 0 && dq2 > 0 && dr2 > 0) || (dp2 < 0 && dq2 < 0 && dr2 < 0)) return 0;
  let hit: bool;
  if ((dp1 == 0 && dq1 == 0 && dr1 == 0) || (dp2 == 0 && dq2 == 0 && dr2 == 0)) hit = triTriGeneral();
  else if (dp1 > 0) {
    if (dq1 > 0) hit = triTri3dExact(48, 0, 24, 72, 120, 96, dp2, dr2, dq2);
    else if (dr1 > 0) hit = triTri3dExact(24, 48, 0, 72, 120, 96, dp2, dr2, dq2);
    else hit = triTri3dExact(0, 24, 48, 72, 96, 120, dp2, dq2, dr2);
  } else if (dp1 < 0) {
    if (dq1 < 0) hit = triTri3dExact(48, 0, 24, 72, 96, 120, dp2, dq2, dr2);
    else if (dr1 < 0) hit = triTri3dExact(24, 48, 0, 72, 96, 120, dp2, dq2, dr2);
    else hit = triTri3dExact(0, 24, 48, 72, 120, 96, dp2, dr2, dq2);
  } else if (dq1 < 0) {
    if (dr1 >= 0) hit = triTri3dExact(24, 48, 0, 72, 120, 96, dp2, dr2, dq2);
    else hit = triTri3dExact(0, 24, 48, 72, 96, 120, dp2, dq2, dr2);
  } else if (dq1 > 0) {
    if (dr1 > 0) hit = triTri3dExact(0, 24, 48, 72, 120, 96, dp2, dr2, dq2);
    else hit = triTri3dExact(24, 48, 0, 72, 96, 120, dp2, dq2, dr2);
  } else if (dr1 > 0) hit = triTri3dExact(48, 0, 24, 72, 96, 120, dp2, dq2, dr2);
  else hit = triTri3dExact(48, 0, 24, 72, 120, 96, dp2, dr2, dq2);
  return bail ? UNSURE : hit ? 1 : 0;
}

function pushPair(ia: u32, ib: u32): void {
  if (pairCount >= pairCap) {
    pairsPtr = growPairs(pairCount);
    pairCap = pi(I_PAIR_CAP);
  }
  const p = pairsPtr + (<usize>pairCount << 3);
  store<u32>(p, ia);
  store<u32>(p, ib, 4);
  pairCount++;
}

/** Triangle tests between A's leaf and B's leaf; true when an 'any' query is over. */
function leafPair(aFirst: u32, aCount: u32, bFirst: u32, bCount: u32): bool {
  for (let j = bFirst; j < bFirst + bCount; j++) {
    const t = bTriVerts + <usize>j * 12;
    mapVertexB(load<u32>(t)); mapVertexB(load<u32>(t, 4)); mapVertexB(load<u32>(t, 8));
  }
  let PA = aPos;
  if (placed) {
    for (let i = aFirst; i < aFirst + aCount; i++) {
      const t = aTriVerts + <usize>i * 12;
      mapVertexA(load<u32>(t)); mapVertexA(load<u32>(t, 4)); mapVertexA(load<u32>(t, 8));
    }
    PA = vertA;
  }
  for (let i = aFirst; i < aFirst + aCount; i++) {
    const ta = aTriVerts + <usize>i * 12;
    const a0 = <usize>load<u32>(ta) * 24, a1 = <usize>load<u32>(ta, 4) * 24, a2 = <usize>load<u32>(ta, 8) * 24;
    for (let j = bFirst; j < bFirst + bCount; j++) {
      const tb = bTriVerts + <usize>j * 12;
      const b0 = <usize>load<u32>(tb) * 24, b1 = <usize>load<u32>(tb, 4) * 24, b2 = <usize>load<u32>(tb, 8) * 24;
      triTests++;
      let hit = triTriFiltered(PA, a0, a1, a2, vertB, b0, b1, b2);
      if (hit == UNSURE) hit = triTriExact(PA, a0, a1, a2, vertB, b0, b1, b2);
      if (hit == UNSURE) {
        exactCalls++;
        hit = exactPair(PA + a0, PA + a1, PA + a2, vertB + b0, vertB + b1, vertB + b2);
      }
      if (hit != 0) {
        pushPair(load<u32>(aOrder + (<usize>i << 2)), load<u32>(bOrder + (<usize>j << 2)));
        if (stopAtFirst) return true;
      }
    }
  }
  return false;
}

// ---- A query's placement and slack ------------------------------------------------------------
// geometry/rigid.ts and collide/collide.ts's beginQuery, expression for expression, so that the
// matrices and η equal the TypeScript ones bit for bit; here so that a query costs the host one
// call and no floating-point arithmetic of its own (JavaScript not yet optimised boxes every
// intermediate double, and a process's first queries run such code).

const RIGID_TOLERANCE: f64 = 1e-6;
/** 64u, u = 2⁻⁵³. */
const SLACK_ULPS: f64 = 64.0 * 1.1102230246251565e-16;

/** rigid.ts's rigidError: max |RᵀR − I| and |det R − 1| of the rotation of the 3×4 or 4×4 at m. */
function rigidError(m: usize): f64 {
  const r00 = load<f64>(m), r01 = load<f64>(m, 8), r02 = load<f64>(m, 16);
  const r10 = load<f64>(m, 32), r11 = load<f64>(m, 40), r12 = load<f64>(m, 48);
  const r20 = load<f64>(m, 64), r21 = load<f64>(m, 72), r22 = load<f64>(m, 80);
  const e00 = Math.abs(r00 * r00 + r10 * r10 + r20 * r20 - 1);
  const e11 = Math.abs(r01 * r01 + r11 * r11 + r21 * r21 - 1);
  const e22 = Math.abs(r02 * r02 + r12 * r12 + r22 * r22 - 1);
  const e01 = Math.abs(r00 * r01 + r10 * r11 + r20 * r21);
  const e02 = Math.abs(r00 * r02 + r10 * r12 + r20 * r22);
  const e12 = Math.abs(r01 * r02 + r11 * r12 + r21 * r22);
  const det = r00 * (r11 * r22 - r12 * r21) - r01 * (r10 * r22 - r12 * r20) + r02 * (r10 * r21 - r11 * r20);
  const ed = Math.abs(det - 1);
  // f64.max propagates NaN, as Math.max does in JavaScript.
  return max(max(max(max(max(max(e00, e11), e22), e01), e02), e12), ed);
}

/**
 * rigid.ts's parseRigid for doubles: the pose of `len` numbers (12 or 16) at P_POSE, checked
 * (finite, last row 0 0 0 1, a rotation within RIGID_TOLERANCE), into M and VB. False when it is
 * not a rigid placement (the host's parseRigid then says why).
 */
function readPose(len: i32): bool {
  const m = PARAMS + P_POSE;
  let zero: f64 = 0;
  for (let k = 0; k < len; k++) zero += load<f64>(m + (<usize>k << 3)) * 0;
  if (zero != 0) return false; // NaN: an entry is NaN or infinite
  if (len == 16 && (load<f64>(m, 96) != 0 || load<f64>(m, 104) != 0 || load<f64>(m, 112) != 0 || load<f64>(m, 120) != 1)) return false;
  if (!(rigidError(m) <= RIGID_TOLERANCE)) return false;
  memory.copy(PARAMS + P_M, m, 96);
  memory.copy(PARAMS + P_VB, m, 96);
  return true;
}

/** rigid.ts's relative: M = MA⁻¹ · MB (rotation Raᵀ Rb, translation Raᵀ (tb − ta)). */
function relativePlacement(): void {
  const a = PARAMS + P_MA, b = PARAMS + P_VB, out = PARAMS + P_M;
  const tx = load<f64>(b, 24) - load<f64>(a, 24), ty = load<f64>(b, 56) - load<f64>(a, 56), tz = load<f64>(b, 88) - load<f64>(a, 88);
  for (let i: usize = 0; i < 3; i++) {
    const r0 = load<f64>(a + (i << 3)), r1 = load<f64>(a + ((4 + i) << 3)), r2 = load<f64>(a + ((8 + i) << 3));
    const o = out + (i << 5);
    store<f64>(o, r0 * load<f64>(b) + r1 * load<f64>(b, 32) + r2 * load<f64>(b, 64));
    store<f64>(o, r0 * load<f64>(b, 8) + r1 * load<f64>(b, 40) + r2 * load<f64>(b, 72), 8);
    store<f64>(o, r0 * load<f64>(b, 16) + r1 * load<f64>(b, 48) + r2 * load<f64>(b, 80), 16);
    store<f64>(o, r0 * tx + r1 * ty + r2 * tz, 24);
  }
}

/**
 * One OBB query, its placement read here. `len` 12 or 16: B's pose in A's frame at P_POSE (M and
 * VB), checked as parseRigid checks it. `len` 0: a placed query, A → world at P_MA and B → world
 * at P_VB (both checked already), M = MA⁻¹ · MB. The trees' coordinate bounds are at P_MAX_A and
 * P_MAX_B. Returns the number of pairs found, or -1 when the pose is not a rigid placement. Box
 * and triangle test counts and exact fallbacks go back to the block.
 */
export function queryPose(len: i32, any: i32, epochValue: u32): i32 {
  let worldSlack: f64 = 0;
  if (len == 0) {
    relativePlacement();
    const a = PARAMS + P_MA, b = PARAMS + P_VB;
    worldSlack = load<f64>(PARAMS + P_MAX_A) + load<f64>(PARAMS + P_MAX_B) +
      2 * (Math.abs(load<f64>(a, 24)) + Math.abs(load<f64>(a, 56)) + Math.abs(load<f64>(a, 88)) +
        Math.abs(load<f64>(b, 24)) + Math.abs(load<f64>(b, 56)) + Math.abs(load<f64>(b, 88)));
  } else if (!readPose(len)) {
    return -1;
  }
  const m = PARAMS + P_M;
  store<f64>(PARAMS + P_ETA, SLACK_ULPS * (load<f64>(PARAMS + P_MAX_A) + 2 * load<f64>(PARAMS + P_MAX_B) +
    Math.abs(load<f64>(m, 24)) + Math.abs(load<f64>(m, 56)) + Math.abs(load<f64>(m, 88)) + worldSlack) + 1e-300);
  setPi(I_PLACED, len == 0 ? 1 : 0);
  setPi(I_ANY, any);
  setPi(I_EPOCH, <i32>epochValue);
  return run();
}

/**
 * Runs one query described by the parameter block; returns the number of pairs found. Box and
 * triangle test counts, exact fallbacks and the pair list's capacity go back to the block.
 */
function run(): i32 {
  aBoxes = pi(I_A_BOXES); aNodes = pi(I_A_NODES); aTriVerts = pi(I_A_TRIVERTS); aPos = pi(I_A_POS); aOrder = pi(I_A_ORDER);
  bBoxes = pi(I_B_BOXES); bNodes = pi(I_B_NODES); bTriVerts = pi(I_B_TRIVERTS); bPos = pi(I_B_POS); bOrder = pi(I_B_ORDER);
  nodeCache = pi(I_NODE_CACHE); vertB = pi(I_VERT_CACHE_B); stampB = pi(I_VERT_STAMP_B);
  vertA = pi(I_VERT_CACHE_A); stampA = pi(I_VERT_STAMP_A);
  stackPtr = pi(I_STACK); pairsPtr = pi(I_PAIRS); pairCap = pi(I_PAIR_CAP);
  epochU = <u32>pi(I_EPOCH); epoch = <f64>epochU;
  stopAtFirst = pi(I_ANY) != 0; placed = pi(I_PLACED) != 0;
  pairCount = 0; triTests = 0; exactCalls = 0;
  const eta = load<f64>(PARAMS + P_ETA);

  let boxTests: i32 = 0;
  let sp: usize = 0;
  const S = stackPtr;
  store<u32>(S, 0); store<u32>(S, 0, 4); sp = 8;
  while (sp > 0) {
    sp -= 8;
    const i = <usize>load<u32>(S + sp), j = <usize>load<u32>(S + sp, 4);
    if (load<f64>(nodeCache + j * NC_STRIDE) != epoch) mapNode(j);
    boxTests++;
    if (disjoint(i, j, eta)) continue;
    const aCount = load<u32>(aNodes + (i << 3), 4), bCount = load<u32>(bNodes + (j << 3), 4);
    if (aCount > 0 && bCount > 0) {
      if (leafPair(load<u32>(aNodes + (i << 3)), aCount, load<u32>(bNodes + (j << 3)), bCount)) break;
      continue;
    }
    // Descend into B when A is a leaf, or when B's box is larger (longest half extent). An `any`
    // query visits the child whose centre is nearer the other box's first (collide.ts childNearer:
    // the same expressions).
    if (aCount > 0 || (bCount == 0 && load<f64>(nodeCache + j * NC_STRIDE, 32) > load<f64>(aBoxes + i * OBB_STRIDE, 24))) {
      const r = <usize>load<u32>(bNodes + (j << 3)), l = j + 1;
      let first = l, second = r;
      if (stopAtFirst) {
        if (load<f64>(nodeCache + l * NC_STRIDE) != epoch) mapNode(l);
        if (load<f64>(nodeCache + r * NC_STRIDE) != epoch) mapNode(r);
        const a = aBoxes + i * OBB_STRIDE, cl = nodeCache + l * NC_STRIDE, cr = nodeCache + r * NC_STRIDE;
        const ax = load<f64>(a), ay = load<f64>(a, 8), az = load<f64>(a, 16);
        const lx = load<f64>(cl, 8) - ax, ly = load<f64>(cl, 16) - ay, lz = load<f64>(cl, 24) - az;
        const rx = load<f64>(cr, 8) - ax, ry = load<f64>(cr, 16) - ay, rz = load<f64>(cr, 24) - az;
        if (rx * rx + ry * ry + rz * rz < lx * lx + ly * ly + lz * lz) { first = r; second = l; }
      }
      store<u32>(S + sp, <u32>i); store<u32>(S + sp, <u32>second, 4);
      store<u32>(S + sp, <u32>i, 8); store<u32>(S + sp, <u32>first, 12);
    } else {
      const r = <usize>load<u32>(aNodes + (i << 3)), l = i + 1;
      let first = l, second = r;
      if (stopAtFirst) {
        const c = nodeCache + j * NC_STRIDE, al = aBoxes + l * OBB_STRIDE, ar = aBoxes + r * OBB_STRIDE;
        const bx = load<f64>(c, 8), by = load<f64>(c, 16), bz = load<f64>(c, 24);
        const lx = load<f64>(al) - bx, ly = load<f64>(al, 8) - by, lz = load<f64>(al, 16) - bz;
        const rx = load<f64>(ar) - bx, ry = load<f64>(ar, 8) - by, rz = load<f64>(ar, 16) - bz;
        if (rx * rx + ry * ry + rz * rz < lx * lx + ly * ly + lz * lz) { first = r; second = l; }
      }
      store<u32>(S + sp, <u32>second); store<u32>(S + sp, <u32>j, 4);
      store<u32>(S + sp, <u32>first, 8); store<u32>(S + sp, <u32>j, 12);
    }
    sp += 16;
  }
  setPi(I_OUT_PAIRS, pairCount);
  setPi(I_OUT_BOX, boxTests);
  setPi(I_OUT_TRI, triTests);
  setPi(I_OUT_EXACT, exactCalls);
  setPi(I_PAIR_CAP, pairCap);
  return pairCount;
}
