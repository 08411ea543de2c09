// OBBTree construction in the kernel: a port of the OBB path of src-core/obbtree/build.ts, with
// the fits of geometry/obbFit.ts (surface moments, one triangle's frame, a zero-area group's
// vertex covariance) and geometry/eigen.ts's eigen-decomposition. The expressions are the same
// and are evaluated in the same order, and eigen.ts uses no transcendental function, so the tree
// built here equals the TypeScript builder's bit for bit (test/core/obbtree/kernelBuild.test.ts).
//
// The host (src-core/kernel/kernel.ts) has the tree's own block first, copies the mesh's
// positions into it and its indices into a scratch block, and passes the addresses of the
// build's arrays: in the scratch, per triangle slot its nine vertex coordinates (tv), its moments
// and vertex sum (ts: obbtree/slots.ts's 64-byte slot, ten scaled floats then three doubles) and
// its triangle (perm); the projections of a group being split and the slots it exchanges
// (PAIRED_SLOTS of each); the stack of pending groups with their sums and, when their parent's
// split fitted them, their frames; the nodes' links. The boxes are written straight into the
// tree's block. `buildObb` returns the node count, or −1 when the node store is too small and −2
// when the stack is (the host then retries with the bounds 2n − 1 and n). `finishObb` copies the
// links after the boxes and writes the triangles in tree order.

const PARAMS: usize = 65536;
/** Both children's sums after a split (2 × TRI doubles), in page 1 past the query's buffers. */
const SIDES: usize = PARAMS + 16384;
/** The frame's nine numbers, for writeObb to read its axes by index. */
const FRAME: usize = PARAMS + 16384 + 512;
/** Doubles per group sum: area, first moment (3), second moment (6), vertex sum (3). */
const TRI: usize = 13;
const TRI_BYTES: usize = TRI * 8;
/**
 * Bytes per triangle slot in ts (obbtree/slots.ts): the ten moments as floats, then the vertex
 * sum's three doubles at SLOT_SUM.
 */
const SLOT_BYTES: usize = 64;
const SLOT_SUM: usize = 40;
/**
 * Per pending group (stack entry): its TRI sums, then its frame's nine numbers when its parent's
 * split fitted it already (pairFit), then 1 if it did (else 0).
 */
const ENTRY_BYTES: usize = TRI_BYTES + 10 * 8;
const ENTRY_FRAME: usize = TRI_BYTES;
const ENTRY_READY: usize = TRI_BYTES + 72;
const BOX_BYTES: usize = 12 * 8;
/** Relative inflation of box half extents (2⁻⁴⁷), as obbtree/build.ts. */
const INFLATE: f64 = 1.0 / 140737488355328.0;
const THIRD: f64 = 1.0 / 3.0;
const TWELFTH: f64 = 1.0 / 12.0;

let tv: usize = 0, ts: usize = 0, perm: usize = 0, proj: usize = 0;

// The frame being fitted (axes 0, 1, 2 as rows) and the vertex projections' ranges on it.
let f0: f64 = 0, f1: f64 = 0, f2: f64 = 0, f3: f64 = 0, f4: f64 = 0, f5: f64 = 0, f6: f64 = 0, f7: f64 = 0, f8: f64 = 0;
let lo0: f64 = 0, hi0: f64 = 0, lo1: f64 = 0, hi1: f64 = 0, lo2: f64 = 0, hi2: f64 = 0;
// eigenvectorOf's result.
let v0: f64 = 0, v1: f64 = 0, v2: f64 = 0;

@inline function tvAt(slot: usize, k: usize): f64 {
  return load<f64>(tv + (slot * 9 + k) * 8);
}

/** Bounds of the vertices the triangles use, into SIDES[0..5] (min x y z, max x y z). */
export function meshBounds(pos: usize, idx: usize, n: i32): void {
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  const m = <usize>n * 3;
  for (let i: usize = 0; i < m; i++) {
    const v = pos + <usize>load<u32>(idx + i * 4) * 24;
    const x = load<f64>(v), y = load<f64>(v, 8), z = load<f64>(v, 16);
    minX = min(minX, x); maxX = max(maxX, x);
    minY = min(minY, y); maxY = max(maxY, y);
    minZ = min(minZ, z); maxZ = max(maxZ, z);
  }
  store<f64>(SIDES, minX); store<f64>(SIDES, minY, 8); store<f64>(SIDES, minZ, 16);
  store<f64>(SIDES, maxX, 24); store<f64>(SIDES, maxY, 32); store<f64>(SIDES, maxZ, 40);
}

function fillSlots(pos: usize, idx: usize, n: usize, rx: f64, ry: f64, rz: f64, scale: f64): void {
  for (let t: usize = 0; t < n; t++) {
    const a = pos + <usize>load<u32>(idx + t * 12) * 24;
    const b = pos + <usize>load<u32>(idx + t * 12, 4) * 24;
    const c = pos + <usize>load<u32>(idx + t * 12, 8) * 24;
    const o = tv + t * 72, u = ts + t * SLOT_BYTES;
    const Px = load<f64>(a), Py = load<f64>(a, 8), Pz = load<f64>(a, 16);
    const Qx = load<f64>(b), Qy = load<f64>(b, 8), Qz = load<f64>(b, 16);
    const Wx = load<f64>(c), Wy = load<f64>(c, 8), Wz = load<f64>(c, 16);
    store<f64>(o, Px); store<f64>(o, Py, 8); store<f64>(o, Pz, 16);
    store<f64>(o, Qx, 24); store<f64>(o, Qy, 32); store<f64>(o, Qz, 40);
    store<f64>(o, Wx, 48); store<f64>(o, Wy, 56); store<f64>(o, Wz, 64);
    const ux = (Qx - Px) * scale, uy = (Qy - Py) * scale, uz = (Qz - Pz) * scale;
    const vx = (Wx - Px) * scale, vy = (Wy - Py) * scale, vz = (Wz - Pz) * scale;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const m = 0.5 * sqrt<f64>(nx * nx + ny * ny + nz * nz);
    const px = (Px - rx) * scale, py = (Py - ry) * scale, pz = (Pz - rz) * scale;
    const qx = (Qx - rx) * scale, qy = (Qy - ry) * scale, qz = (Qz - rz) * scale;
    const wx = (Wx - rx) * scale, wy = (Wy - ry) * scale, wz = (Wz - rz) * scale;
    const sx = px + qx + wx, sy = py + qy + wy, sz = pz + qz + wz;
    const m3 = m * THIRD, k = m * TWELFTH;
    store<f32>(u, <f32>m); store<f32>(u, <f32>(m3 * sx), 4); store<f32>(u, <f32>(m3 * sy), 8); store<f32>(u, <f32>(m3 * sz), 12);
    store<f32>(u, <f32>(k * (sx * sx + px * px + qx * qx + wx * wx)), 16);
    store<f32>(u, <f32>(k * (sx * sy + px * py + qx * qy + wx * wy)), 20);
    store<f32>(u, <f32>(k * (sx * sz + px * pz + qx * qz + wx * wz)), 24);
    store<f32>(u, <f32>(k * (sy * sy + py * py + qy * qy + wy * wy)), 28);
    store<f32>(u, <f32>(k * (sy * sz + py * pz + qy * qz + wy * wz)), 32);
    store<f32>(u, <f32>(k * (sz * sz + pz * pz + qz * qz + wz * wz)), 36);
    store<f64>(u, Px + Qx + Wx, SLOT_SUM); store<f64>(u, Py + Qy + Wy, SLOT_SUM + 8); store<f64>(u, Pz + Qz + Wz, SLOT_SUM + 16);
  }
}

/**
 * The sums of slots [first, end) into out (TRI doubles): each sum in slot order, as the scalar
 * loop adds them, two sums to a vector (a lane's additions are the scalar ones; the moments are
 * widened from floats first).
 */
function sumSlots(first: usize, end: usize, out: usize): void {
  let s01 = f64x2.splat(0), s23 = f64x2.splat(0), s45 = f64x2.splat(0), s67 = f64x2.splat(0);
  let s89 = f64x2.splat(0), s1011 = f64x2.splat(0);
  let s12: f64 = 0;
  for (let u = ts + first * SLOT_BYTES, e = ts + end * SLOT_BYTES; u < e; u += SLOT_BYTES) {
    s01 = f64x2.add(s01, f64x2.promote_low_f32x4(v128.load64_zero(u)));
    s23 = f64x2.add(s23, f64x2.promote_low_f32x4(v128.load64_zero(u, 8)));
    s45 = f64x2.add(s45, f64x2.promote_low_f32x4(v128.load64_zero(u, 16)));
    s67 = f64x2.add(s67, f64x2.promote_low_f32x4(v128.load64_zero(u, 24)));
    s89 = f64x2.add(s89, f64x2.promote_low_f32x4(v128.load64_zero(u, 32)));
    s1011 = f64x2.add(s1011, v128.load(u, SLOT_SUM));
    s12 += load<f64>(u, SLOT_SUM + 16);
  }
  v128.store(out, s01); v128.store(out, s23, 16); v128.store(out, s45, 32);
  v128.store(out, s67, 48); v128.store(out, s89, 64); v128.store(out, s1011, 80);
  store<f64>(out, s12, 96);
}

/** The children's sums into SIDES (left, right): the smaller summed, the larger by difference. */
function childSums(first: usize, mid: usize, end: usize, parent: usize): void {
  const leftSmaller = mid - first <= end - mid;
  const small: usize = leftSmaller ? SIDES : SIDES + TRI_BYTES;
  const large: usize = leftSmaller ? SIDES + TRI_BYTES : SIDES;
  if (leftSmaller) sumSlots(first, mid, SIDES);
  else sumSlots(mid, end, SIDES + TRI_BYTES);
  for (let k: usize = 0; k < TRI; k++) store<f64>(large + k * 8, load<f64>(parent + k * 8) - load<f64>(small + k * 8));
  if (!(load<f64>(large) > 1e-9 * load<f64>(parent))) {
    if (leftSmaller) sumSlots(mid, end, SIDES + TRI_BYTES);
    else sumSlots(first, mid, SIDES);
  }
}

function swapSlots(i: usize, j: usize): void {
  const pi = perm + i * 4, pj = perm + j * 4;
  const t = load<u32>(pi); store<u32>(pi, load<u32>(pj)); store<u32>(pj, t);
  // Nine doubles two at a time, then the last one; the 64-byte slot four vectors at a time.
  let o = tv + i * 72, q = tv + j * 72;
  for (let k: usize = 0; k < 64; k += 16) {
    const x = v128.load(o + k); v128.store(o + k, v128.load(q + k)); v128.store(q + k, x);
  }
  const x = load<f64>(o, 64); store<f64>(o, load<f64>(q, 64), 64); store<f64>(q, x, 64);
  o = ts + i * SLOT_BYTES; q = ts + j * SLOT_BYTES;
  for (let k: usize = 0; k < SLOT_BYTES; k += 16) {
    const y = v128.load(o + k); v128.store(o + k, v128.load(q + k)); v128.store(q + k, y);
  }
}

// The extents passes work on axes 0 and 1 together in the two lanes of a vector, and on axis 2 in
// both lanes of another (branch-free); per lane the products, sums and comparisons are the scalar
// ones (pmin(l, p) is `p < l ? p : l`, pmax(h, p) is `h < p ? p : h`), so the results are the
// TypeScript builder's.

/** Ranges of the vertices of slots [first, end) on the frame's axes. */
function extentsPass(first: usize, end: usize): void {
  const ax = f64x2(f0, f3), ay = f64x2(f1, f4), az = f64x2(f2, f5);
  const bx = f64x2.splat(f6), by = f64x2.splat(f7), bz = f64x2.splat(f8);
  let lo = f64x2.splat(Infinity), hi = f64x2.splat(-Infinity), l2 = f64x2.splat(Infinity), h2 = f64x2.splat(-Infinity);
  for (let v = tv + first * 72, e = tv + end * 72; v < e; v += 24) {
    const x = f64x2.splat(load<f64>(v)), y = f64x2.splat(load<f64>(v, 8)), z = f64x2.splat(load<f64>(v, 16));
    const d = f64x2.add(f64x2.add(f64x2.mul(ax, x), f64x2.mul(ay, y)), f64x2.mul(az, z));
    lo = f64x2.pmin(lo, d); hi = f64x2.pmax(hi, d);
    const d2 = f64x2.add(f64x2.add(f64x2.mul(bx, x), f64x2.mul(by, y)), f64x2.mul(bz, z));
    l2 = f64x2.pmin(l2, d2); h2 = f64x2.pmax(h2, d2);
  }
  lo0 = f64x2.extract_lane(lo, 0); hi0 = f64x2.extract_lane(hi, 0);
  lo1 = f64x2.extract_lane(lo, 1); hi1 = f64x2.extract_lane(hi, 1);
  lo2 = f64x2.extract_lane(l2, 0); hi2 = f64x2.extract_lane(h2, 0);
}

/**
 * One pass over slots [first, end): the ranges of their vertices on the frame's axes (as
 * extentsPass), and a Hoare partition by `proj < threshold`, where proj is a slot's vertex
 * projections on axis 0, summed. Each slot is measured when the partition first looks at it (a
 * slot moves only after that), so the comparisons and swaps are obbtree/build.ts's
 * (`extentsAndProjections` then `partitionByProjection`), and the ranges are its ranges but for
 * the sign of a zero (the order differs; writeObb makes its zeros positive). A swap finds both
 * slots in the cache. Returns the split position.
 */
function extentsAndPartition(first: usize, end: usize, threshold: f64): usize {
  const ax = f64x2(f0, f3), ay = f64x2(f1, f4), az = f64x2(f2, f5);
  const bx = f64x2.splat(f6), by = f64x2.splat(f7), bz = f64x2.splat(f8);
  let lo = f64x2.splat(Infinity), hi = f64x2.splat(-Infinity), l2 = f64x2.splat(Infinity), h2 = f64x2.splat(-Infinity);
  // The measuring is written out in both scans, each a tight loop with the ranges in locals: as
  // one loop with a direction flag, builds were 4–10 % slower (cylinder 200k, torus-500k).
  let i = first, j = end - 1;
  while (true) {
    while (i <= j) {
      const o = tv + i * 72;
      const Px = load<f64>(o), Py = load<f64>(o, 8), Pz = load<f64>(o, 16);
      const Qx = load<f64>(o, 24), Qy = load<f64>(o, 32), Qz = load<f64>(o, 40);
      const Wx = load<f64>(o, 48), Wy = load<f64>(o, 56), Wz = load<f64>(o, 64);
      const p = f64x2.add(f64x2.add(f64x2.mul(ax, f64x2.splat(Px)), f64x2.mul(ay, f64x2.splat(Py))), f64x2.mul(az, f64x2.splat(Pz)));
      const q = f64x2.add(f64x2.add(f64x2.mul(ax, f64x2.splat(Qx)), f64x2.mul(ay, f64x2.splat(Qy))), f64x2.mul(az, f64x2.splat(Qz)));
      const w = f64x2.add(f64x2.add(f64x2.mul(ax, f64x2.splat(Wx)), f64x2.mul(ay, f64x2.splat(Wy))), f64x2.mul(az, f64x2.splat(Wz)));
      lo = f64x2.pmin(f64x2.pmin(f64x2.pmin(lo, p), q), w);
      hi = f64x2.pmax(f64x2.pmax(f64x2.pmax(hi, p), q), w);
      const p2 = f64x2.add(f64x2.add(f64x2.mul(bx, f64x2.splat(Px)), f64x2.mul(by, f64x2.splat(Py))), f64x2.mul(bz, f64x2.splat(Pz)));
      const q2 = f64x2.add(f64x2.add(f64x2.mul(bx, f64x2.splat(Qx)), f64x2.mul(by, f64x2.splat(Qy))), f64x2.mul(bz, f64x2.splat(Qz)));
      const w2 = f64x2.add(f64x2.add(f64x2.mul(bx, f64x2.splat(Wx)), f64x2.mul(by, f64x2.splat(Wy))), f64x2.mul(bz, f64x2.splat(Wz)));
      l2 = f64x2.pmin(f64x2.pmin(f64x2.pmin(l2, p2), q2), w2);
      h2 = f64x2.pmax(f64x2.pmax(f64x2.pmax(h2, p2), q2), w2);
      if (!(f64x2.extract_lane(f64x2.add(f64x2.add(p, q), w), 0) < threshold)) break;
      i++;
    }
    while (i < j) {
      const o = tv + j * 72;
      const Px = load<f64>(o), Py = load<f64>(o, 8), Pz = load<f64>(o, 16);
      const Qx = load<f64>(o, 24), Qy = load<f64>(o, 32), Qz = load<f64>(o, 40);
      const Wx = load<f64>(o, 48), Wy = load<f64>(o, 56), Wz = load<f64>(o, 64);
      const p = f64x2.add(f64x2.add(f64x2.mul(ax, f64x2.splat(Px)), f64x2.mul(ay, f64x2.splat(Py))), f64x2.mul(az, f64x2.splat(Pz)));
      const q = f64x2.add(f64x2.add(f64x2.mul(ax, f64x2.splat(Qx)), f64x2.mul(ay, f64x2.splat(Qy))), f64x2.mul(az, f64x2.splat(Qz)));
      const w = f64x2.add(f64x2.add(f64x2.mul(ax, f64x2.splat(Wx)), f64x2.mul(ay, f64x2.splat(Wy))), f64x2.mul(az, f64x2.splat(Wz)));
      lo = f64x2.pmin(f64x2.pmin(f64x2.pmin(lo, p), q), w);
      hi = f64x2.pmax(f64x2.pmax(f64x2.pmax(hi, p), q), w);
      const p2 = f64x2.add(f64x2.add(f64x2.mul(bx, f64x2.splat(Px)), f64x2.mul(by, f64x2.splat(Py))), f64x2.mul(bz, f64x2.splat(Pz)));
      const q2 = f64x2.add(f64x2.add(f64x2.mul(bx, f64x2.splat(Qx)), f64x2.mul(by, f64x2.splat(Qy))), f64x2.mul(bz, f64x2.splat(Qz)));
      const w2 = f64x2.add(f64x2.add(f64x2.mul(bx, f64x2.splat(Wx)), f64x2.mul(by, f64x2.splat(Wy))), f64x2.mul(bz, f64x2.splat(Wz)));
      l2 = f64x2.pmin(f64x2.pmin(f64x2.pmin(l2, p2), q2), w2);
      h2 = f64x2.pmax(f64x2.pmax(f64x2.pmax(h2, p2), q2), w2);
      if (f64x2.extract_lane(f64x2.add(f64x2.add(p, q), w), 0) < threshold) break;
      j--;
    }
    if (i >= j) break;
    swapSlots(i, j);
    i++;
    j--;
  }
  lo0 = f64x2.extract_lane(lo, 0); hi0 = f64x2.extract_lane(hi, 0);
  lo1 = f64x2.extract_lane(lo, 1); hi1 = f64x2.extract_lane(hi, 1);
  lo2 = f64x2.extract_lane(l2, 0); hi2 = f64x2.extract_lane(h2, 0);
  return i;
}

/** Groups of at most this many slots are measured two slots at a time, then partitioned. */
const PAIRED_SLOTS: usize = 4096;

/**
 * The ranges of the vertices of slots [first, end) on the frame's axes, two slots at a time (slot
 * i in lane 0, slot i + 1 in lane 1; an odd last slot in both), and each slot's vertex
 * projections on axis 0, summed, into proj[slot − first]. Per lane the products, sums and
 * comparisons are extentsAndPartition's; a vector's lanes all do useful work here, where there
 * the third axis fills both lanes of one.
 */
function extentsPaired(first: usize, end: usize): void {
  const a0x = f64x2.splat(f0), a0y = f64x2.splat(f1), a0z = f64x2.splat(f2);
  const a1x = f64x2.splat(f3), a1y = f64x2.splat(f4), a1z = f64x2.splat(f5);
  const a2x = f64x2.splat(f6), a2y = f64x2.splat(f7), a2z = f64x2.splat(f8);
  const inf = f64x2.splat(Infinity), ninf = f64x2.splat(-Infinity);
  let l0 = inf, h0 = ninf, l1 = inf, h1 = ninf, l2 = inf, h2 = ninf;
  for (let i = first; i < end; i += 2) {
    const oa = tv + i * 72, ob = i + 1 < end ? oa + 72 : oa;
    const Px = v128.load64_lane(ob, v128.load64_splat(oa), 1), Py = v128.load64_lane(ob, v128.load64_splat(oa, 8), 1, 8);
    const Pz = v128.load64_lane(ob, v128.load64_splat(oa, 16), 1, 16), Qx = v128.load64_lane(ob, v128.load64_splat(oa, 24), 1, 24);
    const Qy = v128.load64_lane(ob, v128.load64_splat(oa, 32), 1, 32), Qz = v128.load64_lane(ob, v128.load64_splat(oa, 40), 1, 40);
    const Wx = v128.load64_lane(ob, v128.load64_splat(oa, 48), 1, 48), Wy = v128.load64_lane(ob, v128.load64_splat(oa, 56), 1, 56);
    const Wz = v128.load64_lane(ob, v128.load64_splat(oa, 64), 1, 64);
    const p0 = f64x2.add(f64x2.add(f64x2.mul(a0x, Px), f64x2.mul(a0y, Py)), f64x2.mul(a0z, Pz));
    const q0 = f64x2.add(f64x2.add(f64x2.mul(a0x, Qx), f64x2.mul(a0y, Qy)), f64x2.mul(a0z, Qz));
    const w0 = f64x2.add(f64x2.add(f64x2.mul(a0x, Wx), f64x2.mul(a0y, Wy)), f64x2.mul(a0z, Wz));
    l0 = f64x2.pmin(f64x2.pmin(f64x2.pmin(l0, p0), q0), w0); h0 = f64x2.pmax(f64x2.pmax(f64x2.pmax(h0, p0), q0), w0);
    const p1 = f64x2.add(f64x2.add(f64x2.mul(a1x, Px), f64x2.mul(a1y, Py)), f64x2.mul(a1z, Pz));
    const q1 = f64x2.add(f64x2.add(f64x2.mul(a1x, Qx), f64x2.mul(a1y, Qy)), f64x2.mul(a1z, Qz));
    const w1 = f64x2.add(f64x2.add(f64x2.mul(a1x, Wx), f64x2.mul(a1y, Wy)), f64x2.mul(a1z, Wz));
    l1 = f64x2.pmin(f64x2.pmin(f64x2.pmin(l1, p1), q1), w1); h1 = f64x2.pmax(f64x2.pmax(f64x2.pmax(h1, p1), q1), w1);
    const p2 = f64x2.add(f64x2.add(f64x2.mul(a2x, Px), f64x2.mul(a2y, Py)), f64x2.mul(a2z, Pz));
    const q2 = f64x2.add(f64x2.add(f64x2.mul(a2x, Qx), f64x2.mul(a2y, Qy)), f64x2.mul(a2z, Qz));
    const w2 = f64x2.add(f64x2.add(f64x2.mul(a2x, Wx), f64x2.mul(a2y, Wy)), f64x2.mul(a2z, Wz));
    l2 = f64x2.pmin(f64x2.pmin(f64x2.pmin(l2, p2), q2), w2); h2 = f64x2.pmax(f64x2.pmax(f64x2.pmax(h2, p2), q2), w2);
    // Unaligned: proj + 8k. An odd last slot writes one number past the group, inside the scratch.
    v128.store(proj + (i - first) * 8, f64x2.add(f64x2.add(p0, q0), w0));
  }
  lo0 = min2(l0); hi0 = max2(h0); lo1 = min2(l1); hi1 = max2(h1); lo2 = min2(l2); hi2 = max2(h2);
}

@inline function min2(v: v128): f64 {
  const a = f64x2.extract_lane(v, 0), b = f64x2.extract_lane(v, 1);
  return b < a ? b : a;
}
@inline function max2(v: v128): f64 {
  const a = f64x2.extract_lane(v, 0), b = f64x2.extract_lane(v, 1);
  return a < b ? b : a;
}

/**
 * The partition of slots [first, end) by proj[slot − first] < threshold that Hoare's scans make
 * (extentsAndPartition's, obbtree/build.ts's): the k-th slot at or above the threshold from the
 * left is exchanged with the k-th below it from the right, as long as the first lies left of the
 * second. Those are exactly the slots at or above it left of the split position (first + the
 * number below it) and the slots below it right of it, so they are listed by two branch-free
 * passes (into the scratch past the projections) and exchanged in pairs: no scan stops on a
 * comparison the processor cannot predict.
 */
function partitionByProjection(first: usize, end: usize, threshold: f64): usize {
  const n = end - first;
  let below: usize = 0;
  for (let k: usize = 0; k < n; k++) below += <usize>(load<f64>(proj + k * 8) < threshold);
  const mid = first + below;
  if (below == 0 || below == n) return mid;
  const high = proj + PAIRED_SLOTS * 8 + 16, low = high + PAIRED_SLOTS * 4;
  let h: usize = 0;
  for (let k: usize = 0; k < below; k++) {
    store<u32>(high + h * 4, <u32>k);
    h += <usize>!(load<f64>(proj + k * 8) < threshold);
  }
  let l: usize = 0;
  for (let k = n - 1; k >= below; k--) {
    store<u32>(low + l * 4, <u32>k);
    l += <usize>(load<f64>(proj + k * 8) < threshold);
  }
  for (let k: usize = 0; k < h; k++) swapSlots(first + <usize>load<u32>(high + k * 4), first + <usize>load<u32>(low + k * 4));
  return mid;
}

function splitPass(first: usize, end: usize, cx: f64, cy: f64, cz: f64, parent: usize): usize {
  const threshold = 3 * (f0 * cx + f1 * cy + f2 * cz);
  let mid: usize;
  if (end - first <= PAIRED_SLOTS) {
    extentsPaired(first, end);
    mid = partitionByProjection(first, end, threshold);
  } else {
    mid = extentsAndPartition(first, end, threshold);
  }
  if (mid > first && mid < end) childSums(first, mid, end, parent);
  return mid;
}

/** Partition only, along (ax, ay, az), for the fallback axes. */
function partitionPass(first: usize, end: usize, ax: f64, ay: f64, az: f64, centreProj: f64, parent: usize): usize {
  const threshold = 3 * centreProj;
  let i = first, j = end;
  while (i < j) {
    const o = tv + i * 72;
    const p = (load<f64>(o) + load<f64>(o, 24) + load<f64>(o, 48)) * ax +
      (load<f64>(o, 8) + load<f64>(o, 32) + load<f64>(o, 56)) * ay +
      (load<f64>(o, 16) + load<f64>(o, 40) + load<f64>(o, 64)) * az;
    if (p < threshold) { i++; continue; }
    j--;
    swapSlots(i, j);
  }
  if (i > first && i < end) childSums(first, i, end, parent);
  return i;
}

/** The box from the frame and the ranges: axes by decreasing extent, kept right-handed. */
function writeObb(B: usize): void {
  const scale = max(max(max(abs(lo0), abs(hi0)), max(abs(lo1), abs(hi1))), max(abs(lo2), abs(hi2)));
  const pad = INFLATE * scale + 1e-300;
  const H0 = 0.5 * (hi0 - lo0) + pad, H1 = 0.5 * (hi1 - lo1) + pad, H2 = 0.5 * (hi2 - lo2) + pad;
  // + 0: a zero range's centre is +0, whichever zero the passes met first.
  const m0 = 0.5 * (lo0 + hi0) + 0, m1 = 0.5 * (lo1 + hi1) + 0, m2 = 0.5 * (lo2 + hi2) + 0;
  store<f64>(B, m0 * f0 + m1 * f3 + m2 * f6);
  store<f64>(B, m0 * f1 + m1 * f4 + m2 * f7, 8);
  store<f64>(B, m0 * f2 + m1 * f5 + m2 * f8, 16);
  let i0 = 0, i1 = 1, i2 = 2, t = 0, odd = false;
  let h0 = H0, h1 = H1, h2 = H2, x: f64 = 0;
  if (h0 < h1) { t = i0; i0 = i1; i1 = t; x = h0; h0 = h1; h1 = x; odd = !odd; }
  if (h1 < h2) { t = i1; i1 = i2; i2 = t; x = h1; h1 = h2; h2 = x; odd = !odd; }
  if (h0 < h1) { t = i0; i0 = i1; i1 = t; x = h0; h0 = h1; h1 = x; odd = !odd; }
  store<f64>(FRAME, f0); store<f64>(FRAME, f1, 8); store<f64>(FRAME, f2, 16);
  store<f64>(FRAME, f3, 24); store<f64>(FRAME, f4, 32); store<f64>(FRAME, f5, 40);
  store<f64>(FRAME, f6, 48); store<f64>(FRAME, f7, 56); store<f64>(FRAME, f8, 64);
  const a = FRAME + <usize>i0 * 24, b = FRAME + <usize>i1 * 24, c = FRAME + <usize>i2 * 24;
  const ax = load<f64>(a), ay = load<f64>(a, 8), az = load<f64>(a, 16);
  const bx = load<f64>(b), by = load<f64>(b, 8), bz = load<f64>(b, 16);
  // Only two axes are stored; the third half extent covers the cross product's drift from the
  // measured axis (obbtree/build.ts's writeObb says why 8 · scale · drift).
  const s: f64 = odd ? -1 : 1;
  const nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
  const drift = abs(nx - s * load<f64>(c)) + abs(ny - s * load<f64>(c, 8)) + abs(nz - s * load<f64>(c, 16));
  store<f64>(B, h0, 24); store<f64>(B, h1, 32); store<f64>(B, h2 + 8 * scale * drift, 40);
  store<f64>(B, ax, 48); store<f64>(B, ay, 56); store<f64>(B, az, 64);
  store<f64>(B, bx, 72); store<f64>(B, by, 80); store<f64>(B, bz, 88);
}

// ---- Fits (geometry/obbFit.ts, geometry/eigen.ts) -------------------------------------------

/** eigen.ts's powerOfTwoScale. */
function powerOfTwoScale(x: f64, y: f64, z: f64): f64 {
  const m = max(max(abs(x), abs(y)), abs(z));
  if (m > 0 && m < 3.054936363499605e-151) return 4.149515568880993e+180; // 2⁻⁵⁰⁰, 2⁶⁰⁰
  if (m > 3.273390607896142e+150 && m < Infinity) return 2.409919865102884e-181; // 2⁵⁰⁰, 2⁻⁶⁰⁰
  return 1;
}

/** orthonormalFrame on the frame's first two rows (f0..f5): the frame, right-handed. */
function orthonormalFrame(): void {
  let k = powerOfTwoScale(f0, f1, f2);
  let ax = f0 * k, ay = f1 * k, az = f2 * k;
  k = powerOfTwoScale(f3, f4, f5);
  const b0x = f3 * k, b0y = f4 * k, b0z = f5 * k;
  let len = sqrt<f64>(ax * ax + ay * ay + az * az);
  if (!(len > 0) || !isFinite(len)) { ax = 1; ay = 0; az = 0; len = 1; }
  ax /= len; ay /= len; az /= len;
  let bx = b0x, by = b0y, bz = b0z;
  let d = ax * bx + ay * by + az * bz;
  bx -= d * ax; by -= d * ay; bz -= d * az;
  len = sqrt<f64>(bx * bx + by * by + bz * bz);
  if (!(len > 1e-8 * sqrt<f64>(b0x * b0x + b0y * b0y + b0z * b0z)) || !isFinite(len)) {
    const x = abs(ax), y = abs(ay), z = abs(az);
    if (x <= y && x <= z) { bx = 0; by = az; bz = -ay; }
    else if (y <= z) { bx = -az; by = 0; bz = ax; }
    else { bx = ay; by = -ax; bz = 0; }
    len = sqrt<f64>(bx * bx + by * by + bz * bz);
  }
  bx /= len; by /= len; bz /= len;
  d = ax * bx + ay * by + az * bz;
  bx -= d * ax; by -= d * ay; bz -= d * az;
  len = sqrt<f64>(bx * bx + by * by + bz * bz);
  bx /= len; by /= len; bz /= len;
  f0 = ax; f1 = ay; f2 = az;
  f3 = bx; f4 = by; f5 = bz;
  f6 = ay * bz - az * by;
  f7 = az * bx - ax * bz;
  f8 = ax * by - ay * bx;
}

/** triangleFrame: axis 0 along the longest edge, axis 1 the next edge made orthogonal. */
function triangleFrame(slot: usize): void {
  const o = tv + slot * 72;
  const px = load<f64>(o), py = load<f64>(o, 8), pz = load<f64>(o, 16);
  const qx = load<f64>(o, 24), qy = load<f64>(o, 32), qz = load<f64>(o, 40);
  const rx = load<f64>(o, 48), ry = load<f64>(o, 56), rz = load<f64>(o, 64);
  const ex0 = qx - px, ey0 = qy - py, ez0 = qz - pz;
  const ex1 = rx - qx, ey1 = ry - qy, ez1 = rz - qz;
  const ex2 = px - rx, ey2 = py - ry, ez2 = pz - rz;
  const l0 = ex0 * ex0 + ey0 * ey0 + ez0 * ez0;
  const l1 = ex1 * ex1 + ey1 * ey1 + ez1 * ez1;
  const l2 = ex2 * ex2 + ey2 * ey2 + ez2 * ez2;
  if (l0 >= l1 && l0 >= l2) { f0 = ex0; f1 = ey0; f2 = ez0; f3 = ex1; f4 = ey1; f5 = ez1; }
  else if (l1 >= l2) { f0 = ex1; f1 = ey1; f2 = ez1; f3 = ex2; f4 = ey2; f5 = ez2; }
  else { f0 = ex2; f1 = ey2; f2 = ez2; f3 = ex0; f4 = ey0; f5 = ez0; }
  orthonormalFrame();
}

/** (x, y, z), whose largest component is about ±1, made a unit vector into v0..v2. */
function unitInto(x: f64, y: f64, z: f64): void {
  const k = 1 / sqrt<f64>(x * x + y * y + z * z);
  v0 = x * k; v1 = y * k; v2 = z * k;
}

function eigenvectorOf(a00: f64, a01: f64, a02: f64, a11: f64, a12: f64, a22: f64, l: f64): void {
  const r00 = a00 - l, r11 = a11 - l, r22 = a22 - l;
  const c0x = a01 * a12 - a02 * r11, c0y = a02 * a01 - r00 * a12, c0z = r00 * r11 - a01 * a01;
  const c1x = a01 * r22 - a02 * a12, c1y = a02 * a02 - r00 * r22, c1z = r00 * a12 - a01 * a02;
  const c2x = r11 * r22 - a12 * a12, c2y = a12 * a02 - a01 * r22, c2z = a01 * a12 - r11 * a02;
  const n0 = max(max(abs(c0x), abs(c0y)), abs(c0z));
  const n1 = max(max(abs(c1x), abs(c1y)), abs(c1z));
  const n2 = max(max(abs(c2x), abs(c2y)), abs(c2z));
  if (n0 >= n1 && n0 >= n2 && n0 > 0) { const k = 1 / n0; unitInto(c0x * k, c0y * k, c0z * k); return; }
  if (n1 >= n2 && n1 > 0) { const k = 1 / n1; unitInto(c1x * k, c1y * k, c1z * k); return; }
  if (n2 > 0) { const k = 1 / n2; unitInto(c2x * k, c2y * k, c2z * k); return; }
  const rx = abs(r00) + abs(a01) + abs(a02) >= abs(a01) + abs(r11) + abs(a12);
  let x = rx ? r00 : a01, y = rx ? a01 : r11, z = rx ? a02 : a12;
  if (abs(a02) + abs(a12) + abs(r22) > abs(x) + abs(y) + abs(z)) { x = a02; y = a12; z = r22; }
  if (x == 0 && y == 0 && z == 0) { v0 = 1; v1 = 0; v2 = 0; return; }
  let px: f64, py: f64, pz: f64;
  if (abs(x) <= abs(y) && abs(x) <= abs(z)) { px = 0; py = z; pz = -y; }
  else if (abs(y) <= abs(z)) { px = -z; py = 0; pz = x; }
  else { px = y; py = -x; pz = 0; }
  const m = max(max(abs(px), abs(py)), abs(pz));
  unitInto(px / m, py / m, pz / m);
}

function cubicFarRoot(r: f64): f64 {
  let b: f64 = 1.7360508 + r * (0.3213884 - 0.0534392 * r);
  if ((b * b - 3) * b - 2 * r < 0) b = 2;
  for (let k = 0; k < 32; k++) {
    const next = b - ((b * b - 3) * b - 2 * r) / (3 * b * b - 3);
    if (!(next < b)) break;
    b = next;
  }
  return b;
}

/** symmetricEigen3's eigenvectors, as the frame's rows (the eigenvalues are not needed here). */
function symmetricEigen3(a00: f64, a01: f64, a02: f64, a11: f64, a12: f64, a22: f64): void {
  const s = max(max(max(abs(a00), abs(a01)), max(abs(a02), abs(a11))), max(abs(a12), abs(a22)));
  if (!(s > 0) || !isFinite(s)) {
    f0 = 1; f1 = 0; f2 = 0; f3 = 0; f4 = 1; f5 = 0; f6 = 0; f7 = 0; f8 = 1;
    return;
  }
  if (s > 1e-300) {
    const inv = 1 / s;
    a00 *= inv; a01 *= inv; a02 *= inv; a11 *= inv; a12 *= inv; a22 *= inv;
  } else {
    a00 /= s; a01 /= s; a02 /= s; a11 /= s; a12 /= s; a22 /= s; // 1 / s would overflow
  }
  const q = (a00 + a11 + a22) / 3;
  const off = a01 * a01 + a02 * a02 + a12 * a12;
  const b00 = a00 - q, b11 = a11 - q, b22 = a22 - q;
  const p2 = (b00 * b00 + b11 * b11 + b22 * b22 + 2 * off) / 6;
  if (p2 <= 1e-30) {
    f0 = 1; f1 = 0; f2 = 0; f3 = 0; f4 = 1; f5 = 0; f6 = 0; f7 = 0; f8 = 1;
    return;
  }
  const p = sqrt<f64>(p2);
  const det = b00 * (b11 * b22 - a12 * a12) - a01 * (a01 * b22 - a12 * a02) + a02 * (a01 * a12 - b11 * a02);
  let r = det / (2 * p2 * p);
  r = r <= -1 ? -1 : r >= 1 ? 1 : r;
  const firstIsLargest = r >= 0;
  const far = firstIsLargest ? q + p * cubicFarRoot(r) : q - p * cubicFarRoot(-r);
  eigenvectorOf(a00, a01, a02, a11, a12, a22, far);
  const ux = v0, uy = v1, uz = v2;
  let wx: f64, wy: f64, wz: f64;
  if (abs(ux) > abs(uy)) {
    const inv = 1 / sqrt<f64>(ux * ux + uz * uz);
    wx = -uz * inv; wy = 0; wz = ux * inv;
  } else {
    const inv = 1 / sqrt<f64>(uy * uy + uz * uz);
    wx = 0; wy = uz * inv; wz = -uy * inv;
  }
  const xx = uy * wz - uz * wy, xy = uz * wx - ux * wz, xz = ux * wy - uy * wx;
  const Awx = a00 * wx + a01 * wy + a02 * wz, Awy = a01 * wx + a11 * wy + a12 * wz, Awz = a02 * wx + a12 * wy + a22 * wz;
  const Axx = a00 * xx + a01 * xy + a02 * xz, Axy = a01 * xx + a11 * xy + a12 * xz, Axz = a02 * xx + a12 * xy + a22 * xz;
  const m00 = wx * Awx + wy * Awy + wz * Awz;
  const m01 = xx * Awx + xy * Awy + xz * Awz;
  const m11 = xx * Axx + xy * Axy + xz * Axz;
  const g = max(abs(m00 - m11), abs(2 * m01));
  let c: f64 = 1, sn: f64 = 0;
  if (g > 0) {
    const d = (m00 - m11) / g, e = (2 * m01) / g;
    const h = sqrt<f64>(d * d + e * e);
    if (d >= 0) {
      c = sqrt<f64>(0.5 * (1 + d / h)); sn = e / (2 * h * c);
    } else {
      sn = sqrt<f64>(0.5 * (1 - d / h));
      if (e < 0) sn = -sn;
      c = e / (2 * h * sn);
    }
  }
  const vx = c * wx + sn * xx, vy = c * wy + sn * xy, vz = c * wz + sn * xz;
  if (firstIsLargest) {
    f0 = ux; f1 = uy; f2 = uz;
    f3 = vx; f4 = vy; f5 = vz;
  } else {
    f0 = vx; f1 = vy; f2 = vz;
    f3 = -sn * wx + c * xx; f4 = -sn * wy + c * xy; f5 = -sn * wz + c * xz;
  }
  f6 = f1 * f5 - f2 * f4;
  f7 = f2 * f3 - f0 * f5;
  f8 = f0 * f4 - f1 * f3;
}

/** frameFromMoments on a group's sums; false when its area is zero. */
function frameFromMoments(sum: usize): bool {
  const M = load<f64>(sum);
  if (!(M > 0)) return false;
  const mx = load<f64>(sum, 8) / M, my = load<f64>(sum, 16) / M, mz = load<f64>(sum, 24) / M;
  symmetricEigen3(
    load<f64>(sum, 32) / M - mx * mx, load<f64>(sum, 40) / M - mx * my, load<f64>(sum, 48) / M - mx * mz,
    load<f64>(sum, 56) / M - my * my, load<f64>(sum, 64) / M - my * mz, load<f64>(sum, 72) / M - mz * mz,
  );
  return true;
}

/** The frame's nine numbers from memory. */
function loadFrame(at: usize): void {
  f0 = load<f64>(at); f1 = load<f64>(at, 8); f2 = load<f64>(at, 16);
  f3 = load<f64>(at, 24); f4 = load<f64>(at, 32); f5 = load<f64>(at, 40);
  f6 = load<f64>(at, 48); f7 = load<f64>(at, 56); f8 = load<f64>(at, 64);
}

@inline function sel(yes: v128, no: v128, mask: v128): v128 {
  return v128.bitselect(yes, no, mask);
}

/**
 * frameFromMoments on two groups' sums at once, lane 0 the group at sa, lane 1 the one at sb: the
 * same operations in the same order per lane, each branch of the scalar code computed in both
 * lanes and chosen lane by lane, so each frame is the scalar fit's to the bit. The nine numbers
 * go to fa and fb. False, writing nothing, when either group leaves the common path (zero area,
 * a degenerate or tiny covariance, no nonzero cross product): the scalar fit then takes each.
 */
function pairFit(sa: usize, sb: usize, fa: usize, fb: usize): bool {
  const M = f64x2(load<f64>(sa), load<f64>(sb));
  if (!v128.all_true<i64>(f64x2.gt(M, f64x2.splat(0)))) return false;
  const mx = f64x2.div(f64x2(load<f64>(sa, 8), load<f64>(sb, 8)), M);
  const my = f64x2.div(f64x2(load<f64>(sa, 16), load<f64>(sb, 16)), M);
  const mz = f64x2.div(f64x2(load<f64>(sa, 24), load<f64>(sb, 24)), M);
  let a00 = f64x2.sub(f64x2.div(f64x2(load<f64>(sa, 32), load<f64>(sb, 32)), M), f64x2.mul(mx, mx));
  let a01 = f64x2.sub(f64x2.div(f64x2(load<f64>(sa, 40), load<f64>(sb, 40)), M), f64x2.mul(mx, my));
  let a02 = f64x2.sub(f64x2.div(f64x2(load<f64>(sa, 48), load<f64>(sb, 48)), M), f64x2.mul(mx, mz));
  let a11 = f64x2.sub(f64x2.div(f64x2(load<f64>(sa, 56), load<f64>(sb, 56)), M), f64x2.mul(my, my));
  let a12 = f64x2.sub(f64x2.div(f64x2(load<f64>(sa, 64), load<f64>(sb, 64)), M), f64x2.mul(my, mz));
  let a22 = f64x2.sub(f64x2.div(f64x2(load<f64>(sa, 72), load<f64>(sb, 72)), M), f64x2.mul(mz, mz));

  // symmetricEigen3: the common path needs 1e-300 < s < ∞ (s finite: s − s is 0).
  const s = f64x2.max(
    f64x2.max(f64x2.max(f64x2.abs(a00), f64x2.abs(a01)), f64x2.max(f64x2.abs(a02), f64x2.abs(a11))),
    f64x2.max(f64x2.abs(a12), f64x2.abs(a22)),
  );
  if (!v128.all_true<i64>(v128.and(f64x2.gt(s, f64x2.splat(1e-300)), f64x2.eq(f64x2.sub(s, s), f64x2.splat(0))))) return false;
  const inv = f64x2.div(f64x2.splat(1), s);
  a00 = f64x2.mul(a00, inv); a01 = f64x2.mul(a01, inv); a02 = f64x2.mul(a02, inv);
  a11 = f64x2.mul(a11, inv); a12 = f64x2.mul(a12, inv); a22 = f64x2.mul(a22, inv);
  const q = f64x2.div(f64x2.add(f64x2.add(a00, a11), a22), f64x2.splat(3));
  const off = f64x2.add(f64x2.add(f64x2.mul(a01, a01), f64x2.mul(a02, a02)), f64x2.mul(a12, a12));
  const b00 = f64x2.sub(a00, q), b11 = f64x2.sub(a11, q), b22 = f64x2.sub(a22, q);
  const p2 = f64x2.div(
    f64x2.add(f64x2.add(f64x2.add(f64x2.mul(b00, b00), f64x2.mul(b11, b11)), f64x2.mul(b22, b22)), f64x2.mul(f64x2.splat(2), off)),
    f64x2.splat(6),
  );
  if (!v128.all_true<i64>(f64x2.gt(p2, f64x2.splat(1e-30)))) return false;
  const p = f64x2.sqrt(p2);
  const det = f64x2.add(
    f64x2.sub(
      f64x2.mul(b00, f64x2.sub(f64x2.mul(b11, b22), f64x2.mul(a12, a12))),
      f64x2.mul(a01, f64x2.sub(f64x2.mul(a01, b22), f64x2.mul(a12, a02))),
    ),
    f64x2.mul(a02, f64x2.sub(f64x2.mul(a01, a12), f64x2.mul(b11, a02))),
  );
  let r = f64x2.div(det, f64x2.mul(f64x2.mul(f64x2.splat(2), p2), p));
  const one = f64x2.splat(1), minusOne = f64x2.splat(-1);
  r = sel(minusOne, sel(one, r, f64x2.ge(r, one)), f64x2.le(r, minusOne));
  const firstIsLargest = f64x2.ge(r, f64x2.splat(0));
  // cubicFarRoot(±r), lane by lane: each lane stops where the scalar loop stops.
  const rr = sel(r, f64x2.neg(r), firstIsLargest);
  const two = f64x2.splat(2), three = f64x2.splat(3);
  const twoR = f64x2.mul(two, rr);
  let b = f64x2.add(f64x2.splat(1.7360508), f64x2.mul(rr, f64x2.sub(f64x2.splat(0.3213884), f64x2.mul(f64x2.splat(0.0534392), rr))));
  b = sel(two, b, f64x2.lt(f64x2.sub(f64x2.mul(f64x2.sub(f64x2.mul(b, b), three), b), twoR), f64x2.splat(0)));
  let active = f64x2.eq(b, b);
  for (let k = 0; k < 32; k++) {
    const next = f64x2.sub(b, f64x2.div(
      f64x2.sub(f64x2.mul(f64x2.sub(f64x2.mul(b, b), three), b), twoR),
      f64x2.sub(f64x2.mul(f64x2.mul(three, b), b), three),
    ));
    active = v128.and(active, f64x2.lt(next, b));
    if (!v128.any_true(active)) break;
    b = sel(next, b, active);
  }
  const pb = f64x2.mul(p, b);
  const far = sel(f64x2.add(q, pb), f64x2.sub(q, pb), firstIsLargest);

  // eigenvectorOf(a, far): the longest cross product of two rows of A − far·I, by its largest component.
  const r00 = f64x2.sub(a00, far), r11 = f64x2.sub(a11, far), r22 = f64x2.sub(a22, far);
  const c0x = f64x2.sub(f64x2.mul(a01, a12), f64x2.mul(a02, r11)), c0y = f64x2.sub(f64x2.mul(a02, a01), f64x2.mul(r00, a12)), c0z = f64x2.sub(f64x2.mul(r00, r11), f64x2.mul(a01, a01));
  const c1x = f64x2.sub(f64x2.mul(a01, r22), f64x2.mul(a02, a12)), c1y = f64x2.sub(f64x2.mul(a02, a02), f64x2.mul(r00, r22)), c1z = f64x2.sub(f64x2.mul(r00, a12), f64x2.mul(a01, a02));
  const c2x = f64x2.sub(f64x2.mul(r11, r22), f64x2.mul(a12, a12)), c2y = f64x2.sub(f64x2.mul(a12, a02), f64x2.mul(a01, r22)), c2z = f64x2.sub(f64x2.mul(a01, a12), f64x2.mul(r11, a02));
  const n0 = f64x2.max(f64x2.max(f64x2.abs(c0x), f64x2.abs(c0y)), f64x2.abs(c0z));
  const n1 = f64x2.max(f64x2.max(f64x2.abs(c1x), f64x2.abs(c1y)), f64x2.abs(c1z));
  const n2 = f64x2.max(f64x2.max(f64x2.abs(c2x), f64x2.abs(c2y)), f64x2.abs(c2z));
  const zero = f64x2.splat(0);
  const pick0 = v128.and(v128.and(f64x2.ge(n0, n1), f64x2.ge(n0, n2)), f64x2.gt(n0, zero));
  const pick1 = v128.andnot(v128.and(f64x2.ge(n1, n2), f64x2.gt(n1, zero)), pick0);
  const pick2 = v128.andnot(v128.andnot(f64x2.gt(n2, zero), pick0), pick1);
  if (!v128.all_true<i64>(v128.or(v128.or(pick0, pick1), pick2))) return false;
  const nn = sel(n0, sel(n1, n2, pick1), pick0);
  const cx = sel(c0x, sel(c1x, c2x, pick1), pick0);
  const cy = sel(c0y, sel(c1y, c2y, pick1), pick0);
  const cz = sel(c0z, sel(c1z, c2z, pick1), pick0);
  const kn = f64x2.div(one, nn);
  const ex = f64x2.mul(cx, kn), ey = f64x2.mul(cy, kn), ez = f64x2.mul(cz, kn);
  const ku = f64x2.div(one, f64x2.sqrt(f64x2.add(f64x2.add(f64x2.mul(ex, ex), f64x2.mul(ey, ey)), f64x2.mul(ez, ez))));
  const ux = f64x2.mul(ex, ku), uy = f64x2.mul(ey, ku), uz = f64x2.mul(ez, ku);

  // (w, x): an orthonormal basis of the plane orthogonal to u.
  const xBig = f64x2.gt(f64x2.abs(ux), f64x2.abs(uy));
  const t = sel(ux, uy, xBig);
  const winv = f64x2.div(one, f64x2.sqrt(f64x2.add(f64x2.mul(t, t), f64x2.mul(uz, uz))));
  const wx = sel(f64x2.mul(f64x2.neg(uz), winv), zero, xBig);
  const wy = sel(zero, f64x2.mul(uz, winv), xBig);
  const wz = sel(f64x2.mul(ux, winv), f64x2.mul(f64x2.neg(uy), winv), xBig);
  const xx = f64x2.sub(f64x2.mul(uy, wz), f64x2.mul(uz, wy));
  const xy = f64x2.sub(f64x2.mul(uz, wx), f64x2.mul(ux, wz));
  const xz = f64x2.sub(f64x2.mul(ux, wy), f64x2.mul(uy, wx));
  const Awx = f64x2.add(f64x2.add(f64x2.mul(a00, wx), f64x2.mul(a01, wy)), f64x2.mul(a02, wz));
  const Awy = f64x2.add(f64x2.add(f64x2.mul(a01, wx), f64x2.mul(a11, wy)), f64x2.mul(a12, wz));
  const Awz = f64x2.add(f64x2.add(f64x2.mul(a02, wx), f64x2.mul(a12, wy)), f64x2.mul(a22, wz));
  const Axx = f64x2.add(f64x2.add(f64x2.mul(a00, xx), f64x2.mul(a01, xy)), f64x2.mul(a02, xz));
  const Axy = f64x2.add(f64x2.add(f64x2.mul(a01, xx), f64x2.mul(a11, xy)), f64x2.mul(a12, xz));
  const Axz = f64x2.add(f64x2.add(f64x2.mul(a02, xx), f64x2.mul(a12, xy)), f64x2.mul(a22, xz));
  const m00 = f64x2.add(f64x2.add(f64x2.mul(wx, Awx), f64x2.mul(wy, Awy)), f64x2.mul(wz, Awz));
  const m01 = f64x2.add(f64x2.add(f64x2.mul(xx, Awx), f64x2.mul(xy, Awy)), f64x2.mul(xz, Awz));
  const m11 = f64x2.add(f64x2.add(f64x2.mul(xx, Axx), f64x2.mul(xy, Axy)), f64x2.mul(xz, Axz));
  // The 2×2 rotation: both of the scalar code's branches, then the one it takes.
  const dm = f64x2.sub(m00, m11), em = f64x2.mul(two, m01);
  const g = f64x2.max(f64x2.abs(dm), f64x2.abs(em));
  const d = f64x2.div(dm, g), e = f64x2.div(em, g);
  const h = f64x2.sqrt(f64x2.add(f64x2.mul(d, d), f64x2.mul(e, e)));
  const half = f64x2.splat(0.5);
  const cPos = f64x2.sqrt(f64x2.mul(half, f64x2.add(one, f64x2.div(d, h))));
  const sPos = f64x2.div(e, f64x2.mul(f64x2.mul(two, h), cPos));
  let sNeg = f64x2.sqrt(f64x2.mul(half, f64x2.sub(one, f64x2.div(d, h))));
  sNeg = sel(f64x2.neg(sNeg), sNeg, f64x2.lt(e, zero));
  const cNeg = f64x2.div(e, f64x2.mul(f64x2.mul(two, h), sNeg));
  const dPos = f64x2.ge(d, zero), rotate = f64x2.gt(g, zero);
  const c = sel(sel(cPos, cNeg, dPos), one, rotate);
  const sn = sel(sel(sPos, sNeg, dPos), zero, rotate);
  const vx = f64x2.add(f64x2.mul(c, wx), f64x2.mul(sn, xx));
  const vy = f64x2.add(f64x2.mul(c, wy), f64x2.mul(sn, xy));
  const vz = f64x2.add(f64x2.mul(c, wz), f64x2.mul(sn, xz));
  const nsn = f64x2.neg(sn);
  const g0 = sel(ux, vx, firstIsLargest), g1 = sel(uy, vy, firstIsLargest), g2 = sel(uz, vz, firstIsLargest);
  const g3 = sel(vx, f64x2.add(f64x2.mul(nsn, wx), f64x2.mul(c, xx)), firstIsLargest);
  const g4 = sel(vy, f64x2.add(f64x2.mul(nsn, wy), f64x2.mul(c, xy)), firstIsLargest);
  const g5 = sel(vz, f64x2.add(f64x2.mul(nsn, wz), f64x2.mul(c, xz)), firstIsLargest);
  const g6 = f64x2.sub(f64x2.mul(g1, g5), f64x2.mul(g2, g4));
  const g7 = f64x2.sub(f64x2.mul(g2, g3), f64x2.mul(g0, g5));
  const g8 = f64x2.sub(f64x2.mul(g0, g4), f64x2.mul(g1, g3));
  v128.store_lane<f64>(fa, g0, 0); v128.store_lane<f64>(fb, g0, 1);
  v128.store_lane<f64>(fa + 8, g1, 0); v128.store_lane<f64>(fb + 8, g1, 1);
  v128.store_lane<f64>(fa + 16, g2, 0); v128.store_lane<f64>(fb + 16, g2, 1);
  v128.store_lane<f64>(fa + 24, g3, 0); v128.store_lane<f64>(fb + 24, g3, 1);
  v128.store_lane<f64>(fa + 32, g4, 0); v128.store_lane<f64>(fb + 32, g4, 1);
  v128.store_lane<f64>(fa + 40, g5, 0); v128.store_lane<f64>(fb + 40, g5, 1);
  v128.store_lane<f64>(fa + 48, g6, 0); v128.store_lane<f64>(fb + 48, g6, 1);
  v128.store_lane<f64>(fa + 56, g7, 0); v128.store_lane<f64>(fb + 56, g7, 1);
  v128.store_lane<f64>(fa + 64, g8, 0); v128.store_lane<f64>(fb + 64, g8, 1);
  return true;
}

/** A zero-area group: the covariance of its vertices (relative to the reference point). */
function pointFrame(first: usize, count: usize, rx: f64, ry: f64, rz: f64): void {
  const m = count * 3;
  const base = tv + first * 72;
  let mx: f64 = 0, my: f64 = 0, mz: f64 = 0;
  for (let i: usize = 0; i < m; i++) {
    const o = base + i * 24;
    mx += load<f64>(o) - rx; my += load<f64>(o, 8) - ry; mz += load<f64>(o, 16) - rz;
  }
  const cnt = <f64>m;
  mx /= cnt; my /= cnt; mz /= cnt;
  let xx: f64 = 0, xy: f64 = 0, xz: f64 = 0, yy: f64 = 0, yz: f64 = 0, zz: f64 = 0;
  for (let i: usize = 0; i < m; i++) {
    const o = base + i * 24;
    const x = (load<f64>(o) - rx) - mx, y = (load<f64>(o, 8) - ry) - my, z = (load<f64>(o, 16) - rz) - mz;
    xx += x * x; xy += x * y; xz += x * z; yy += y * y; yz += y * z; zz += z * z;
  }
  symmetricEigen3(xx, xy, xz, yy, yz, zz);
}

// ---- The build --------------------------------------------------------------------------------

/**
 * Builds the OBB tree of triangles `idx` (n of them) over vertices `pos` into the node store
 * (`boxes`, `nodes`, capacity nodeCap). Returns the node count, −1 if the store is too small, −2 if
 * the stack (stackCap entries of three i32 at `stack`, ENTRY_BYTES each at `sums`) is.
 */
export function buildObb(
  pos: usize, idx: usize, n: i32, leafSize: i32, rx: f64, ry: f64, rz: f64, scale: f64,
  tvAt_: usize, tsAt: usize, permAt: usize, projAt: usize,
  stack: usize, sums: usize, stackCap: i32, boxes: usize, nodes: usize, nodeCap: i32,
): i32 {
  tv = tvAt_; ts = tsAt; perm = permAt; proj = projAt;
  const N = <usize>n;
  for (let t: usize = 0; t < N; t++) store<u32>(perm + t * 4, <u32>t);
  fillSlots(pos, idx, N, rx, ry, rz, scale);
  sumSlots(0, N, sums);
  let size = 1;
  store<i32>(stack, 0); store<i32>(stack, n, 4); store<i32>(stack, -1, 8);
  store<f64>(sums, 0, ENTRY_READY);
  let count = 0;
  const leaf = <usize>leafSize;
  while (size > 0) {
    const entry = size - 1;
    const e = stack + <usize>entry * 12;
    const first = <usize>load<i32>(e), end = <usize>load<i32>(e, 4), parent = load<i32>(e, 8);
    size--;
    if (count >= nodeCap) return -1;
    const node = count++;
    if (parent >= 0) store<i32>(nodes + <usize>parent * 8, node);
    const cnt = end - first;
    const so = sums + <usize>entry * ENTRY_BYTES;

    if (load<f64>(so, ENTRY_READY) != 0) loadFrame(so + ENTRY_FRAME);
    else if (cnt == 1) triangleFrame(first);
    else if (!frameFromMoments(so)) pointFrame(first, cnt, rx, ry, rz);

    const B = boxes + <usize>node * BOX_BYTES, L = nodes + <usize>node * 8;
    if (cnt <= leaf) {
      extentsPass(first, end);
      writeObb(B);
      store<i32>(L, <i32>first);
      store<i32>(L, <i32>cnt, 4);
      continue;
    }
    const inv = 1 / <f64>(3 * cnt);
    const cx = load<f64>(so, 80) * inv, cy = load<f64>(so, 88) * inv, cz = load<f64>(so, 96) * inv;
    let mid = splitPass(first, end, cx, cy, cz, so);
    writeObb(B);
    for (let axis = 1; axis < 3 && !(mid > first && mid < end); axis++) {
      const ax = axis == 1 ? f3 : f6, ay = axis == 1 ? f4 : f7, az = axis == 1 ? f5 : f8;
      mid = partitionPass(first, end, ax, ay, az, ax * cx + ay * cy + az * cz, so);
    }
    if (!(mid > first && mid < end)) {
      mid = first + (cnt >> 1);
      childSums(first, mid, end, so);
    }
    if (entry + 2 > stackCap) return -2;
    store<i32>(L, 0, 4);
    // Children: right at stack entry `entry`, left at `entry + 1` (popped next: node + 1).
    for (let k: usize = 0; k < TRI_BYTES; k += 8) {
      store<f64>(so + k, load<f64>(SIDES + TRI_BYTES + k));
      store<f64>(so + ENTRY_BYTES + k, load<f64>(SIDES + k));
    }
    // Both children's fits at once when both are fitted from their moments (most splits): the
    // two eigen-decompositions are chains of divisions and roots, run side by side in a vector's
    // lanes they take the time of one.
    const fitted: f64 = mid - first > 1 && end - mid > 1 && pairFit(so + ENTRY_BYTES, so, so + ENTRY_BYTES + ENTRY_FRAME, so + ENTRY_FRAME) ? 1 : 0;
    store<f64>(so, fitted, ENTRY_READY);
    store<f64>(so + ENTRY_BYTES, fitted, ENTRY_READY);
    store<i32>(e, <i32>mid); store<i32>(e, <i32>end, 4); store<i32>(e, node, 8);
    store<i32>(e, <i32>first, 12); store<i32>(e, <i32>mid, 16); store<i32>(e, -1, 20);
    size += 2;
  }
  return count;
}

/** Completes a built tree's own block: the links (copied after the boxes), the triangles in tree order and their original numbers. */
export function finishObb(
  count: i32, n: i32, nodes: usize, permAt: usize, idx: usize, toNodes: usize, toTriVerts: usize, toOrder: usize,
): void {
  memory.copy(toNodes, nodes, <usize>count * 8);
  const N = <usize>n;
  for (let s: usize = 0; s < N; s++) {
    const t = load<u32>(permAt + s * 4);
    const from = idx + <usize>t * 12, to = toTriVerts + s * 12;
    store<u32>(to, load<u32>(from)); store<u32>(to, load<u32>(from, 4), 4); store<u32>(to, load<u32>(from, 8), 8);
    store<u32>(toOrder + s * 4, t);
  }
}
