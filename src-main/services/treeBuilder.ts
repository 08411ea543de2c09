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
