import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // quickhull3d ships extensionless ESM imports that Node cannot resolve; let vite transform it.
    server: { deps: { inline: ['quickhull3d'] } },
    reporters: ['default', './test/support/closingLineReporter.ts'],
  },
});
