/**
 * Debug check of a bounding-volume tree: structure, and containment of every triangle in every
 * box on its path from the root (its leaf and all the leaf's ancestors), up to a tolerance.
 *
 * "Every child inside its parent" is checked on contents: each node's box must contain all the
 * triangles of the node's subtree. The boxes themselves need not nest — an OBB fitted to a child
 * group can poke out of its parent box at a corner where there is no geometry — and the traversal
 * only relies on the triangles being inside every box it prunes with.
 */
import { OBB_STRIDE, AABB_STRIDE, SPHERE_STRIDE, obbAxes, type BvTree } from './layout.js';

const AXES = new Float64Array(9);

export interface TreeValidation {
  readonly ok: boolean;
  /** First problems found (at most 20), human-readable. */
  readonly errors: readonly string[];
  /** Largest amount by which a vertex lies outside a box (≤ 0 when inside everywhere). */
  readonly worstExcess: number;
  readonly nodesChecked: number;
}

const MAX_ERRORS = 20;

/**
 * Validates a tree. `tolerance` (default 1e-9 of the mesh's largest coordinate, at least 1e-12)
 * is how far outside a box a vertex may lie before it counts as an error.
 */
export function validateTree(tree: BvTree, tolerance?: number): TreeValidation {
  const errors: string[] = [];
  const tol = tolerance ?? Math.max(1e-12, 1e-9 * tree.maxAbsCoordinate);
  const N = tree.nodes, n = tree.nodeCount, T = tree.triangleCount;
  const report = (msg: string): void => {
    if (errors.length < MAX_ERRORS) errors.push(msg);
  };

  // Structure: ranges per node, each slot in exactly one leaf.
  const first = new Int32Array(n).fill(-1);
  const end = new Int32Array(n).fill(-1);
  const covered = new Uint8Array(T);
  const order: number[] = [];
  const stack: number[] = [0];
  const seen = new Uint8Array(n);
  while (stack.length > 0) {
    const i = stack.pop() as number;
    if (i < 0 || i >= n) { report(`node index ${i} out of range (tree has ${n} nodes)`); continue; }
    if (seen[i]) { report(`node ${i} is reachable twice`); continue; }
    seen[i] = 1;
    order.push(i);
    const count = N[2 * i + 1];
    if (count > 0) {
      const f = N[2 * i];
      if (f < 0 || f + count > T) { report(`leaf ${i} covers slots ${f}..${f + count - 1}, outside 0..${T - 1}`); continue; }
      if (count > tree.leafSize) report(`leaf ${i} holds ${count} triangles, more than the leaf size ${tree.leafSize}`);
      for (let s = f; s < f + count; s++) {
        if (covered[s]) report(`slot ${s} is in two leaves`);
        covered[s] = 1;
      }
      first[i] = f; end[i] = f + count;
    } else if (count === 0) {
      const right = N[2 * i];
      if (!(right > i + 1 && right < n)) { report(`internal node ${i} has right child ${right}`); continue; }
      stack.push(right, i + 1);
    } else {
      report(`node ${i} has a negative triangle count`);
    }
  }
  for (let s = 0; s < T; s++) if (!covered[s]) { report(`slot ${s} is in no leaf`); break; }
  if (order.length !== n) report(`${n - order.length} nodes are unreachable from the root`);
  // Ranges of internal nodes from their children (post-order: reverse of pre-order).
  for (let k = order.length - 1; k >= 0; k--) {
    const i = order[k];
    if (N[2 * i + 1] === 0) {
      const l = i + 1, r = N[2 * i];
      if (first[l] < 0 || first[r] < 0 || end[l] !== first[r]) { report(`node ${i}: children do not cover one contiguous slot range`); continue; }
      first[i] = first[l]; end[i] = end[r];
    }
  }
  const seenOrder = new Uint8Array(tree.triangleCount);
  for (let s = 0; s < T; s++) {
    const t = tree.triOrder[s];
    if (t >= T || seenOrder[t]) { report(`triangle order is not a permutation (slot ${s} → ${t})`); break; }
    seenOrder[t] = 1;
  }
  if (tree.kind === 'hybrid') {
    const count = tree.spheres.length / SPHERE_STRIDE;
    for (let i = 0; i < n; i++) {
      const k = tree.sphereOf[i];
      if (k < -1 || k >= count || !Number.isInteger(count)) report(`node ${i} refers to sphere ${k}, but the tree has ${count} spheres`);
    }
  }
  for (let i = 0; i < tree.boxes.length; i++) {
    if (!Number.isFinite(tree.boxes[i])) { report(`box data entry ${i} is not a finite number`); break; }
  }
  if (tree.kind === 'hybrid') {
    for (let i = 0; i < tree.spheres.length; i++) {
      if (!Number.isFinite(tree.spheres[i])) { report(`sphere data entry ${i} is not a finite number`); break; }
    }
  }
  if (errors.length > 0) return { ok: false, errors, worstExcess: NaN, nodesChecked: order.length };

  // Containment: every vertex of a node's slot range inside the node's volume.
  const P = tree.positions, TV = tree.triVerts, B = tree.boxes;
  let worst = -Infinity;
  for (let i = 0; i < n; i++) {
    let excessMax = -Infinity;
    for (let s = first[i]; s < end[i]; s++) {
      for (let k = 0; k < 3; k++) {
        const v = 3 * TV[3 * s + k];
        const x = P[v], y = P[v + 1], z = P[v + 2];
        let excess: number;
        if (tree.kind === 'aabb') {
          const o = i * AABB_STRIDE;
          excess = Math.max(Math.abs(x - B[o]) - B[o + 3], Math.abs(y - B[o + 1]) - B[o + 4], Math.abs(z - B[o + 2]) - B[o + 5]);
        } else {
          const o = i * OBB_STRIDE;
          const dx = x - B[o], dy = y - B[o + 1], dz = z - B[o + 2];
          obbAxes(B, o, AXES);
          excess = Math.max(
            Math.abs(dx * AXES[0] + dy * AXES[1] + dz * AXES[2]) - B[o + 3],
            Math.abs(dx * AXES[3] + dy * AXES[4] + dz * AXES[5]) - B[o + 4],
            Math.abs(dx * AXES[6] + dy * AXES[7] + dz * AXES[8]) - B[o + 5],
          );
          if (tree.kind === 'hybrid' && tree.sphereOf[i] >= 0) {
            const so = tree.sphereOf[i] * SPHERE_STRIDE, S = tree.spheres;
            const d = Math.hypot(x - S[so], y - S[so + 1], z - S[so + 2]) - S[so + 3];
            if (d > tol) report(`vertex ${v / 3} (slot ${s}) is ${d.toExponential(2)} outside the sphere of node ${i}`);
            excess = Math.max(excess, d);
          }
        }
        if (excess > excessMax) excessMax = excess;
        if (excess > tol) report(`vertex ${v / 3} of slot ${s} (triangle ${tree.triOrder[s]}) is ${excess.toExponential(2)} outside the box of node ${i}`);
      }
    }
    if (excessMax > worst) worst = excessMax;
  }
  return { ok: errors.length === 0, errors, worstExcess: worst, nodesChecked: n };
}
