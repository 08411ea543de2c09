/**
 * What the end-to-end tests share: Debian's Chromium and its flags (software WebGL, no network
 * services), the built renderer, and whether the tests can run here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const ROOT = process.cwd();
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--enable-unsafe-swiftshader',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** The built renderer (vite). */
export const RENDERER = path.join(ROOT, 'dist/renderer');

/** Without Chromium the tests cannot run; on CI (which installs it) a missing browser is a failure. */
export const skipWithoutChromium = !existsSync(CHROMIUM) && !process.env.CI;

/** Newest modification time of the files under the folders. */
function newestMtime(folders: string[]): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const f of folders) if (existsSync(f)) walk(f);
  return newest;
}

/** Builds the renderer when it is missing or older than its sources. */
export function ensureRendererBuilt(): void {
  const index = path.join(RENDERER, 'index.html');
  const newest = Math.max(
    newestMtime([path.join(ROOT, 'src-renderer'), path.join(ROOT, 'src-main/contract'), path.join(ROOT, 'src-core')]),
    statSync(path.join(ROOT, 'vite.config.ts')).mtimeMs,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= newest) return;
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
}
