// The renderer's build: src-renderer → dist/renderer, relative asset URLs (the page is loaded
// from a file in Electron and from the loopback bridge in a browser). Tests use vitest.config.ts.
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = path.resolve(import.meta.dirname, 'src-renderer');

/**
 * The page's Content-Security-Policy (index.html) holds for the built page. The dev server
 * injects an inline script for React's hot reload, which that policy refuses, so in `vite dev`
 * only the meta element is left out.
 */
function devWithoutCsp(): Plugin {
  return {
    name: 'interfere-dev-without-csp',
    apply: 'serve',
    transformIndexHtml(html) {
      return html.replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>/i, '');
    },
  };
}

export default defineConfig({
  root,
  base: './',
  plugins: [react(), devWithoutCsp()],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/renderer'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // three and React make one large chunk; it is loaded from disk or loopback, never a network.
    chunkSizeWarningLimit: 2500,
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
