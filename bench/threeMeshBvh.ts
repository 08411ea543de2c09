// Peer adapter: three-mesh-bvh (AABB BVH over three.js BufferGeometry), in the three
// configurations listed in peers.json.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { BufferAttribute, BufferGeometry, Matrix4 } from 'three';
import { MeshBVH, SAH } from 'three-mesh-bvh';
import type { BVHOptions, ExtendedTriangle } from 'three-mesh-bvh';
import type { PreparedMesh, QueryMode, QueryResult, StrategyRun } from './strategies';

function packageVersion(name: string): string {
  // Both packages expose a CommonJS entry under <package>/build/, so the package root is one up.
  const entry = createRequire(import.meta.url).resolve(name);
  let dir = path.dirname(entry);
  for (let i = 0; i < 4; i++) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name && pkg.version) return pkg.version;
    } catch {
      // no package.json at this level; keep walking up
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}

const VERSION = `${packageVersion('three-mesh-bvh')} (three ${packageVersion('three')})`;

interface Side {
  geometry: BufferGeometry;
  bvh: MeshBVH;
  /** The input triangles, in file order. */
  original: Uint32Array;
  /**
   * The build reorders the geometry's index buffer in place, so the triangle indices the BVH
   * reports are slots in that reordered buffer. Filled on first use (pairs only): slot → file index.
   */
  slotToTriangle: Uint32Array | null;
}

interface State {
  a: Side;
  b: Side;
  /** Scratch pose matrix, meshB → meshA. */
  matrix: Matrix4;
}

function buildSide(mesh: PreparedMesh, options: BVHOptions): Side {
  const geometry = new BufferGeometry();
  // The STL coordinates are float32 values, so narrowing them back to float32 is exact.
  geometry.setAttribute('position', new BufferAttribute(Float32Array.from(mesh.positions), 3));
  // A copy: the BVH build permutes the index buffer.
  geometry.setIndex(new BufferAttribute(mesh.indices.slice(), 1));
  const bvh = new MeshBVH(geometry, options);
  // intersectsGeometry (the 'any' query) traverses the other geometry's boundsTree when present.
  geometry.boundsTree = bvh;
  return { geometry, bvh, original: mesh.indices, slotToTriangle: null };
}

function slotMap(side: Side): Uint32Array {
  if (side.slotToTriangle) return side.slotToTriangle;
  const index = side.geometry.index;
  if (!index) throw new Error('three-mesh-bvh: geometry lost its index');
  const built = index.array;
  const original = side.original;
  const triangles = original.length / 3;
  // Whole triangles are moved as units, so each slot's vertex triple identifies its file triangle.
  const byTriple = new Map<string, number[]>();
  for (let t = triangles - 1; t >= 0; t--) {
    const key = `${original[3 * t]},${original[3 * t + 1]},${original[3 * t + 2]}`;
    const list = byTriple.get(key);
    if (list) list.push(t);
    else byTriple.set(key, [t]);
  }
  const map = new Uint32Array(triangles);
  for (let s = 0; s < triangles; s++) {
    const key = `${built[3 * s]},${built[3 * s + 1]},${built[3 * s + 2]}`;
    const t = byTriple.get(key)?.pop();
    if (t === undefined) throw new Error(`three-mesh-bvh: triangle slot ${s} has no source triangle`);
    map[s] = t;
  }
  side.slotToTriangle = map;
  return map;
}

function setPose(matrix: Matrix4, p: Float64Array): Matrix4 {
  // Matrix4.set takes its arguments in row-major order, like the pose.
  return matrix.set(
    p[0], p[1], p[2], p[3],
    p[4], p[5], p[6], p[7],
    p[8], p[9], p[10], p[11],
    p[12], p[13], p[14], p[15],
  );
}

function sideBytes(side: Side): number {
  // serialize without cloning hands back the live node buffers and index array.
  const serialized = MeshBVH.serialize(side.bvh, { cloneBuffers: false });
  let bytes = 0;
  for (const root of serialized.roots) bytes += root.byteLength;
  if (serialized.index) bytes += serialized.index.byteLength;
  if (serialized.indirectBuffer) bytes += serialized.indirectBuffer.byteLength;
  bytes += side.geometry.attributes.position.array.byteLength;
  return bytes;
}

function makeStrategy(variant: string, options: BVHOptions): StrategyRun {
  return {
    impl: 'three-mesh-bvh',
    variant,
    version: VERSION,

    build(meshA: PreparedMesh, meshB: PreparedMesh): State {
      return { a: buildSide(meshA, options), b: buildSide(meshB, options), matrix: new Matrix4() };
    },

    query(state: unknown, pose: Float64Array, mode: QueryMode): QueryResult {
      const s = state as State;
      const matrix = setPose(s.matrix, pose);
      if (mode === 'any') {
        return { count: s.a.bvh.intersectsGeometry(s.b.geometry, matrix) ? 1 : 0 };
      }
      let count = 0;
      let triTests = 0;
      // bvhcast hands each candidate pair as (triangle of A in A's frame, triangle of B mapped by
      // `matrix` into A's frame); returning false keeps the traversal going.
      s.a.bvh.bvhcast(s.b.bvh, matrix, {
        intersectsTriangles(triA: ExtendedTriangle, triB: ExtendedTriangle): boolean {
          triTests++;
          if (triA.intersectsTriangle(triB)) count++;
          return false;
        },
      });
      return { count, triTests };
    },

    pairs(state: unknown, pose: Float64Array): Uint32Array {
      const s = state as State;
      const matrix = setPose(s.matrix, pose);
      const mapA = slotMap(s.a);
      const mapB = slotMap(s.b);
      const out: number[] = [];
      s.a.bvh.bvhcast(s.b.bvh, matrix, {
        intersectsTriangles(triA: ExtendedTriangle, triB: ExtendedTriangle, slotA: number, slotB: number): boolean {
          if (triA.intersectsTriangle(triB)) out.push(mapA[slotA], mapB[slotB]);
          return false;
        },
      });
      return Uint32Array.from(out);
    },

    modelBytes(state: unknown): { bytes: number; note: string } {
      const s = state as State;
      return {
        bytes: sideBytes(s.a) + sideBytes(s.b),
        note:
          'both meshes: BVH node buffers (32 B/node) + Uint32 triangle index + Float32 xyz of the ' +
          'exactly welded vertices; JS object overhead not counted',
      };
    },
  };
}

/** The peers.json configurations: defaults, SAH splits, and one triangle per leaf. */
export const threeMeshBvhStrategies: StrategyRun[] = [
  makeStrategy('default', {}),
  makeStrategy('sah', { strategy: SAH }),
  // targetLeafSize is what the deprecated maxLeafSize option maps to.
  makeStrategy('leaf1', { targetLeafSize: 1 }),
];
