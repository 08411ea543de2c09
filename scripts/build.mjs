// Builds the Node entry points with esbuild into dist/ (CommonJS bundles: quickhull3d's `debug`
// dependency needs `require`). The WASM-backed packages stay external so that they find their
// .wasm files next to their own JavaScript in node_modules.
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
  'cli/interfere': 'src-main/cli/interfere.ts',
  'compute/treeWorker': 'src-main/compute/treeWorker.ts',
};

rmSync('dist/node', { recursive: true, force: true });
await Promise.all(
  Object.entries(entries).map(([out, entry]) =>
    build({
      ...common,
      entryPoints: [entry],
      outfile: `dist/node/${out}.cjs`,
      banner: out.startsWith('cli/') ? { js: '#!/usr/bin/env node' } : undefined,
    }),
  ),
);
await chmod('dist/node/cli/interfere.cjs', 0o755);
