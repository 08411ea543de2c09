/**
 * Eigen-decomposition of a symmetric 3×3 matrix (the covariance matrices of box fitting).
 *
 * Closed form without transcendental functions, so that the WebAssembly tree builder
 * (kernel/as/build.ts), which evaluates the same expressions, fits the same boxes bit for bit:
 * A = q I + p B with B of trace 0 and ‖B‖² = 6, whose eigenvalues are the roots of
 * β³ − 3β − 2r (r = det B / 2, in [−1, 1]; O. K. Smith, CACM 1961). The root farthest from the
 * middle one (the largest when r ≥ 0, else the smallest) lies in [√3, 2] in magnitude, where the
 * cubic is steep: Newton's method from ±2 reaches it monotonically in a handful of steps. Its
 * eigenvector is the longest cross product of two rows of A − λI; the other two eigenvalues and
 * the second eigenvector come from the 2×2 problem in the plane orthogonal to it, the third
 * eigenvector is the cross product of the first two. The result is always a right-handed orthonormal frame; repeated
 * eigenvalues (flat or collinear groups) yield some orthonormal frame of the eigenspace, which is
 * all box fitting needs.
 */

const V = new Float64Array(3);

/**
 * Input: the six unique entries (a00, a01, a02, a11, a12, a22). Output (into `out`, length 12):
 * eigenvalues at 0..2 in decreasing order, then the matching unit eigenvectors at 3..5, 6..8,
 * 9..11.
 */
export function symmetricEigen3(
  a00: number, a01: number, a02: number, a11: number, a12: number, a22: number,
  out: Float64Array,
): void {
  // Scale for range safety.
  const s = Math.max(Math.abs(a00), Math.abs(a01), Math.abs(a02), Math.abs(a11), Math.abs(a12), Math.abs(a22));
  if (!(s > 0) || !Number.isFinite(s)) {
    out.fill(0, 0, 12);
    out[3] = 1; out[7] = 1; out[11] = 1;
    return;
  }
  if (s > 1e-300) {
    const inv = 1 / s;
    a00 *= inv; a01 *= inv; a02 *= inv; a11 *= inv; a12 *= inv; a22 *= inv;
  } else {
    a00 /= s; a01 /= s; a02 /= s; a11 /= s; a12 /= s; a22 /= s; // 1 / s would overflow
  }
  // The farthest eigenvalue: A = q I + p B with B of trace 0 and ‖B‖² = 6 (see the file comment).
  const q = (a00 + a11 + a22) / 3;
  const off = a01 * a01 + a02 * a02 + a12 * a12;
  const b00 = a00 - q, b11 = a11 - q, b22 = a22 - q;
  const p2 = (b00 * b00 + b11 * b11 + b22 * b22 + 2 * off) / 6;
  if (p2 <= 1e-30) {
    // Isotropic to rounding: every frame is an eigenbasis.
    out[0] = out[1] = out[2] = q * s;
    out.fill(0, 3, 12);
    out[3] = 1; out[7] = 1; out[11] = 1;
    return;
  }
  const p = Math.sqrt(p2);
  const det = b00 * (b11 * b22 - a12 * a12) - a01 * (a01 * b22 - a12 * a02) + a02 * (a01 * a12 - b11 * a02);
  let r = det / (2 * p2 * p);
  r = r <= -1 ? -1 : r >= 1 ? 1 : r;
  // The roots' product is 2r and their sum 0, so the middle root is ≤ 0 exactly when r ≥ 0: the
  // largest eigenvalue is then the one farthest from the middle one (l0 − l1 ≥ l1 − l2).
  const firstIsLargest = r >= 0;
  const far = firstIsLargest ? q + p * cubicFarRoot(r) : q - p * cubicFarRoot(-r);

  // Its eigenvector u, and an orthonormal basis (w, x) of the plane orthogonal to u.
  eigenvectorOf(a00, a01, a02, a11, a12, a22, far);
  const ux = V[0], uy = V[1], uz = V[2];
  let wx: number, wy: number, wz: number;
  if (Math.abs(ux) > Math.abs(uy)) {
    const inv = 1 / Math.sqrt(ux * ux + uz * uz);
    wx = -uz * inv; wy = 0; wz = ux * inv;
  } else {
    const inv = 1 / Math.sqrt(uy * uy + uz * uz);
    wx = 0; wy = uz * inv; wz = -uy * inv;
  }
  const xx = uy * wz - uz * wy, xy = uz * wx - ux * wz, xz = ux * wy - uy * wx;
  // The 2×2 restriction of A to span(w, x): [[m00, m01], [m01, m11]]. Its eigenvalues are the
  // other two, well conditioned even when they nearly coincide (unlike the cubic's roots).
  const Awx = a00 * wx + a01 * wy + a02 * wz, Awy = a01 * wx + a11 * wy + a12 * wz, Awz = a02 * wx + a12 * wy + a22 * wz;
  const Axx = a00 * xx + a01 * xy + a02 * xz, Axy = a01 * xx + a11 * xy + a12 * xz, Axz = a02 * xx + a12 * xy + a22 * xz;
  const m00 = wx * Awx + wy * Awy + wz * Awz;
  const m01 = xx * Awx + xy * Awy + xz * Awz;
  const m11 = xx * Axx + xy * Axy + xz * Axz;
  // Eigenvector (c, sn) of the larger 2×2 eigenvalue: the angle θ with tan 2θ = 2 m01 / (m00 − m11),
  // |θ| ≤ π/2, from the half-angle formulas. The difference and the off-diagonal term are scaled
  // by the larger first: squares of small entries would underflow.
  const g = Math.max(Math.abs(m00 - m11), Math.abs(2 * m01));
  let c = 1, sn = 0, half = 0;
  if (g > 0) {
    const d = (m00 - m11) / g, e = (2 * m01) / g;
    const h = Math.sqrt(d * d + e * e);
    half = 0.5 * g * h;
    if (d >= 0) {
      c = Math.sqrt(0.5 * (1 + d / h)); sn = e / (2 * h * c);
    } else {
      sn = Math.sqrt(0.5 * (1 - d / h));
      if (e < 0) sn = -sn;
      c = e / (2 * h * sn);
    }
  }
  const mean = 0.5 * (m00 + m11);
  let l0: number, l1: number, l2: number;
  if (firstIsLargest) {
    l0 = far; l1 = mean + half; l2 = mean - half;
  } else {
    l0 = mean + half; l1 = mean - half; l2 = far;
  }
  if (l1 > l0) l1 = l0;
  if (l1 < l2) l1 = l2;
  out[0] = l0 * s; out[1] = l1 * s; out[2] = l2 * s;
  const vx = c * wx + sn * xx, vy = c * wy + sn * xy, vz = c * wz + sn * xz; // larger of the two
  if (firstIsLargest) {
    out[3] = ux; out[4] = uy; out[5] = uz;
    out[6] = vx; out[7] = vy; out[8] = vz;
  } else {
    out[3] = vx; out[4] = vy; out[5] = vz;
    out[6] = -sn * wx + c * xx; out[7] = -sn * wy + c * xy; out[8] = -sn * wz + c * xz;
  }
  out[9] = out[4] * out[8] - out[5] * out[7];
  out[10] = out[5] * out[6] - out[3] * out[8];
  out[11] = out[3] * out[7] - out[4] * out[6];
}

/**
 * The root of β³ − 3β − 2r (0 ≤ r ≤ 1) in [√3, 2]: Newton's method from just above it, where the
 * cubic is convex and increasing, so the iterates decrease to the root; it stops when they no
 * longer do.
 */
function cubicFarRoot(r: number): number {
  // The start: a quadratic fit of the root over [0, 1] (within 0.0011 of it) raised by 0.004, or 2
  // should that not lie above the root.
  let b = 1.7360508 + r * (0.3213884 - 0.0534392 * r);
  if ((b * b - 3) * b - 2 * r < 0) b = 2;
  for (let k = 0; k < 32; k++) {
    const next = b - ((b * b - 3) * b - 2 * r) / (3 * b * b - 3);
    if (!(next < b)) break;
    b = next;
  }
  return b;
}

/** Unit eigenvector of λ into V: the longest cross product of two rows of A − λI. */
function eigenvectorOf(a00: number, a01: number, a02: number, a11: number, a12: number, a22: number, l: number): void {
  const r00 = a00 - l, r11 = a11 - l, r22 = a22 - l;
  // rows: (r00, a01, a02), (a01, r11, a12), (a02, a12, r22)
  const c0x = a01 * a12 - a02 * r11, c0y = a02 * a01 - r00 * a12, c0z = r00 * r11 - a01 * a01;
  const c1x = a01 * r22 - a02 * a12, c1y = a02 * a02 - r00 * r22, c1z = r00 * a12 - a01 * a02;
  const c2x = r11 * r22 - a12 * a12, c2y = a12 * a02 - a01 * r22, c2z = a01 * a12 - r11 * a02;
  // Compared by their largest component, and scaled by it before the length is taken: the
  // products of small rows would underflow when squared.
  const n0 = Math.max(Math.abs(c0x), Math.abs(c0y), Math.abs(c0z));
  const n1 = Math.max(Math.abs(c1x), Math.abs(c1y), Math.abs(c1z));
  const n2 = Math.max(Math.abs(c2x), Math.abs(c2y), Math.abs(c2z));
  if (n0 >= n1 && n0 >= n2 && n0 > 0) { const k = 1 / n0; unitInto(c0x * k, c0y * k, c0z * k); return; }
  if (n1 >= n2 && n1 > 0) { const k = 1 / n1; unitInto(c1x * k, c1y * k, c1z * k); return; }
  if (n2 > 0) { const k = 1 / n2; unitInto(c2x * k, c2y * k, c2z * k); return; }
  // A − λI has rank ≤ 1: any unit vector orthogonal to its nonzero row, or any vector at all.
  const rx = Math.abs(r00) + Math.abs(a01) + Math.abs(a02) >= Math.abs(a01) + Math.abs(r11) + Math.abs(a12);
  let x = rx ? r00 : a01, y = rx ? a01 : r11, z = rx ? a02 : a12;
  if (Math.abs(a02) + Math.abs(a12) + Math.abs(r22) > Math.abs(x) + Math.abs(y) + Math.abs(z)) { x = a02; y = a12; z = r22; }
  if (x === 0 && y === 0 && z === 0) { V[0] = 1; V[1] = 0; V[2] = 0; return; }
  // perpendicular to (x, y, z)
  let px: number, py: number, pz: number;
  if (Math.abs(x) <= Math.abs(y) && Math.abs(x) <= Math.abs(z)) { px = 0; py = z; pz = -y; }
  else if (Math.abs(y) <= Math.abs(z)) { px = -z; py = 0; pz = x; }
  else { px = y; py = -x; pz = 0; }
  const m = Math.max(Math.abs(px), Math.abs(py), Math.abs(pz));
  unitInto(px / m, py / m, pz / m);
}

/** (x, y, z), whose largest component is about ±1, made a unit vector into V. */
function unitInto(x: number, y: number, z: number): void {
  const k = 1 / Math.sqrt(x * x + y * y + z * z);
  V[0] = x * k; V[1] = y * k; V[2] = z * k;
}

/**
 * 1, or a power of two that brings the largest |component| of (x, y, z) into [2⁻⁴⁷⁴, 2¹⁰⁰] when
 * it lies below 2⁻⁵⁰⁰ or above 2⁵⁰⁰ (zero and non-finite vectors: 1).
 */
function powerOfTwoScale(x: number, y: number, z: number): number {
  const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
  if (m > 0 && m < 2 ** -500) return 2 ** 600;
  if (m > 2 ** 500 && m < Infinity) return 2 ** -600;
  return 1;
}

/**
 * Makes out[o..o+2] a unit vector, out[o+3..o+5] a unit vector orthogonal to it (Gram–Schmidt),
 * and writes their cross product to out[o+6..o+8]: a right-handed orthonormal frame to rounding.
 * Degenerate inputs (zero or parallel vectors) are completed with arbitrary perpendiculars.
 */
export function orthonormalFrame(out: Float64Array, o: number): void {
  // Vectors whose squares would underflow or overflow are first scaled by a power of two (exact;
  // the direction is all that matters). Others are left as they are, to the bit.
  let k = powerOfTwoScale(out[o], out[o + 1], out[o + 2]);
  let ax = out[o] * k, ay = out[o + 1] * k, az = out[o + 2] * k;
  k = powerOfTwoScale(out[o + 3], out[o + 4], out[o + 5]);
  const b0x = out[o + 3] * k, b0y = out[o + 4] * k, b0z = out[o + 5] * k;
  let len = Math.sqrt(ax * ax + ay * ay + az * az);
  if (!(len > 0) || !Number.isFinite(len)) { ax = 1; ay = 0; az = 0; len = 1; }
  ax /= len; ay /= len; az /= len;
  let bx = b0x, by = b0y, bz = b0z;
  let d = ax * bx + ay * by + az * bz;
  bx -= d * ax; by -= d * ay; bz -= d * az;
  len = Math.sqrt(bx * bx + by * by + bz * bz);
  if (!(len > 1e-8 * Math.sqrt(b0x * b0x + b0y * b0y + b0z * b0z)) || !Number.isFinite(len)) {
    // Any vector perpendicular to a: cross a with the coordinate axis it is least aligned with.
    const x = Math.abs(ax), y = Math.abs(ay), z = Math.abs(az);
    if (x <= y && x <= z) { bx = 0; by = az; bz = -ay; }
    else if (y <= z) { bx = -az; by = 0; bz = ax; }
    else { bx = ay; by = -ax; bz = 0; }
    len = Math.sqrt(bx * bx + by * by + bz * bz);
  }
  bx /= len; by /= len; bz /= len;
  // One more Gram–Schmidt pass keeps the pair orthogonal to rounding.
  d = ax * bx + ay * by + az * bz;
  bx -= d * ax; by -= d * ay; bz -= d * az;
  len = Math.sqrt(bx * bx + by * by + bz * bz);
  bx /= len; by /= len; bz /= len;
  out[o] = ax; out[o + 1] = ay; out[o + 2] = az;
  out[o + 3] = bx; out[o + 4] = by; out[o + 5] = bz;
  out[o + 6] = ay * bz - az * by;
  out[o + 7] = az * bx - ax * bz;
  out[o + 8] = ax * by - ay * bx;
}
