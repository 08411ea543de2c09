/**
 * The tree builder a check uses: the process pool (one child per core) for large inputs, this
 * process for small ones or with `jobs: 1`.
 */
import { TreePool } from './treePool.js';
import { buildTreesInProcess, type TreeBuilder } from './checkService.js';

export interface TreeBuilderHandle {
  readonly build: TreeBuilder;
  /** Stops the pool's children (if any were started). */
  dispose(): Promise<void>;
}

export function createTreeBuilder(options: { jobs?: number } = {}): TreeBuilderHandle {
  if (options.jobs === 1) return { build: buildTreesInProcess, dispose: async () => {} };
  let pool: TreePool | null = null;
  return {
    build: async (meshes, opts) => {
      pool ??= new TreePool({ size: options.jobs });
      const trees = await pool.buildTrees(
        meshes.map((m) => ({ meshId: m.key, positions: m.mesh.positions, indices: m.mesh.indices })),
        { onProgress: opts.onProgress, signal: opts.signal },
      );
      return trees;
    },
    dispose: async () => {
      await pool?.dispose();
    },
  };
}
