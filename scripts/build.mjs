// Builds the Node and Electron entry points with esbuild into dist/node/ (CommonJS bundles:
// quickhull3d's `debug` dependency needs `require`, and Electron's sandboxed preload must be
// CommonJS). The WASM-backed packages stay external so that they find their .wasm files next to
// their own JavaScript in node_modules; `electron` is external (the runtime provides it).
//
// Layout (package.json's `main` is dist/node/main/main.cjs):
//   dist/node/cli/interfere.cjs       the command line's entry (cli/launch.ts), which loads
//   dist/node/cli/interfere-main.cjs  the command line
//   dist/node/compute/treeWorker.cjs  the tree-building child (child process or utilityProcess)
//   dist/node/compute/checkWorker.cjs the check child: checks, pair queries, volumes (likewise)
//   dist/node/compute/occtWorker.cjs  the OpenCascade worker thread (services/occtWorker.ts)
//   dist/node/compute/volumeWorker.cjs the interference volumes' worker thread (services/volumeWorker.ts)
//   dist/node/main/main.cjs           the Electron main process
//   dist/node/main/preload.cjs        the window's preload (sandboxed: only `electron` may be required)
//   dist/node/bridge/cli.cjs          `npm run dev:web`: the renderer in a browser over the loopback bridge
// The main bundle finds the tree worker at ../compute/treeWorker.cjs and the check worker at
// ../compute/checkWorker.cjs (services/treePool.ts findComputeEntry), the
// preload next to itself, and the renderer (built by vite) at dist/renderer/.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  external: ['occt-import-js', 'manifold-3d', 'electron'],
  logLevel: 'warning',
};

const entries = {
  'cli/interfere': 'src-main/cli/launch.ts',
  'cli/interfere-main': 'src-main/cli/interfere.ts',
  'compute/treeWorker': 'src-main/compute/treeWorker.ts',
  'compute/checkWorker': 'src-main/compute/checkWorker.ts',
  'compute/occtWorker': 'src-main/services/occtWorkerThread.ts',
  'compute/volumeWorker': 'src-main/services/volumeWorkerThread.ts',
  'bridge/cli': 'src-main/bridge/cli.ts',
  'main/main': 'src-main/main/main.ts',
};

/** The preload runs in the renderer's sandbox (Chromium 140 in Electron 45), not in Node. */
const preload = {
  ...common,
  platform: 'browser',
  target: 'chrome140',
  external: ['electron'],
  // Loaded by every page load of the window: zod makes it large unminified.
  minify: true,
  entryPoints: ['src-main/preload/preload.ts'],
  outfile: 'dist/node/main/preload.cjs',
};

rmSync('dist/node', { recursive: true, force: true });
await Promise.all([
  ...Object.entries(entries).map(([out, entry]) =>
    build({
      ...common,
      entryPoints: [entry],
      outfile: `dist/node/${out}.cjs`,
      banner: out === 'cli/interfere' ? { js: '#!/usr/bin/env node' } : undefined,
    }),
  ),
  build(preload),
]);
await chmod('dist/node/cli/interfere.cjs', 0o755);
