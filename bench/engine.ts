// The engine's bounding-volume strategies as benchmark adapters.

import { collide, createMesh, releaseTree, setBuildKernel, setQueryKernel, STRATEGIES, treeBytes, type BvTree, type QueryKernel } from '../src-core/index';
import type { PreparedMesh, QueryMode, QueryResult, StrategyRun } from './strategies';
import pkg from '../package.json' with { type: 'json' };
import { compileKernelOptimised } from '../src-main/services/wasmTiers';

// The kernel compiled as the product's processes compile it (the command line, the check and tree
// children): optimised throughout, before its first build.
compileKernelOptimised();

interface EngineState {
  a: BvTree;
  b: BvTree;
}

function engineStrategy(name: (typeof STRATEGIES)[number], kernel: QueryKernel = 'wasm'): StrategyRun {
  return {
    impl: 'interfere',
    variant: kernel === 'wasm' ? name.name : `${name.name}-ts`,
    version: pkg.version,
    build(meshA: PreparedMesh, meshB: PreparedMesh): EngineState {
      setBuildKernel(kernel);
      return {
        a: name.build(createMesh(meshA.positions, meshA.indices)),
        b: name.build(createMesh(meshB.positions, meshB.indices)),
      };
    },
    query(state: unknown, pose: Float64Array, mode: QueryMode): QueryResult {
      const s = state as EngineState;
      setQueryKernel(kernel);
      const r = collide(s.a, s.b, pose, mode);
      return { count: mode === 'all' ? r.pairCount : r.hit ? 1 : 0, boxTests: r.boxTests, triTests: r.triTests };
    },
    pairs(state: unknown, pose: Float64Array): Uint32Array {
      const s = state as EngineState;
      setQueryKernel(kernel);
      return collide(s.a, s.b, pose, 'all').pairs;
    },
    dispose(state: unknown): void {
      const s = state as EngineState;
      releaseTree(s.a);
      releaseTree(s.b);
    },
    modelBytes(state: unknown) {
      const s = state as EngineState;
      return {
        bytes: treeBytes(s.a) + treeBytes(s.b),
        note:
          'both trees: boxes, node links, triangle vertex indices in tree order, original triangle order, ' +
          'and the welded float64 vertex positions (the meshes\u2019 own index arrays are not needed by a query)',
      };
    },
  };
}

/** obb-hull is measured on request only: its hull fits take minutes on the 500k-triangle meshes. */
export const engineStrategies: StrategyRun[] = [
  ...STRATEGIES.filter((s) => s.name !== 'obb-hull').map((s) => engineStrategy(s)),
  // The OBB strategy built and queried in TypeScript instead of the WebAssembly kernel.
  engineStrategy(STRATEGIES.find((s) => s.name === 'obb')!, 'ts'),
];
export const optInEngineStrategies: StrategyRun[] = STRATEGIES.filter((s) => s.name === 'obb-hull').map((s) => engineStrategy(s));
