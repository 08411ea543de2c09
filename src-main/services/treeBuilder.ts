/**
 * The tree builder a check uses: the process pool (one child per core) for large inputs, this
 * process for small ones or with `jobs: 1`.
 */
import { TreePool } from './treePool.js';
import { buildTreesInProcess, type TreeBuilder } from './bodies.js';

export interface TreeBuilderHandle {
  readonly build: TreeBuilder;
  /** Stops the pool's children (if any were started). */
  dispose(): Promise<void>;
}

/** A pool as a tree builder: the meshes (validated already) go by their keys. */
export function poolTreeBuilder(pool: Pick<TreePool, 'buildTrees'>): TreeBuilder {
  return (meshes, options) => pool.buildTrees(
    meshes.map((m) => ({ meshId: m.key, positions: m.mesh.positions, indices: m.mesh.indices, mesh: m.mesh })),
    { onProgress: options.onProgress, signal: options.signal },
  );
}

/**
 * The command line's default number of tree-building processes on a machine of `cores` cores:
 * none (this process builds) on one or two cores, else one per core. With two cores the other
 * one is the volume worker's (manifold-3d, ./volumeWorker.ts), and children cost more than they
 * save there: each takes 100–150 ms to start and compiles its code cold, the meshes go out and
 * the trees come back serialised, and a tree built elsewhere is copied into the query kernel's
 * memory at its first query, where one built here is built in it (SO-101, 398,884 triangles in
 * 13 meshes: 2.2 s in this process against 2.85 s with two children, on a quiet 2-core machine).
 */
export function defaultTreeJobs(cores: number): number {
  return cores <= 2 ? 1 : cores;
}

export function createTreeBuilder(options: { jobs?: number } = {}): TreeBuilderHandle {
  if (options.jobs === 1) return { build: buildTreesInProcess, dispose: async () => {} };
  let pool: TreePool | null = null;
  return {
    build: (meshes, opts) => {
      pool ??= new TreePool({ size: options.jobs });
      return poolTreeBuilder(pool)(meshes, opts);
    },
    dispose: async () => {
      await pool?.dispose();
    },
  };
}
