// Packages the app with electron-builder (`--linux dir`) in a temporary copy of the project, against
// a stand-in Electron (no Electron binary exists here, and none is downloaded), and checks what
// the archive holds. The repository itself is not touched: the bundles are built into the copy.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { extractFile, listPackage, statFile } from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPreloadInSandbox } from './sandboxPreload.js';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../../..');
const ELECTRON_VERSION = '45.3.4';

let work = '';
let resources = '';
let entries: string[] = [];
let rendererSource = '';

/** Runs a Node script, with its output kept for the failure message. */
async function node(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
    return `${stdout}${stderr}`;
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${args.join(' ')} failed: ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`, { cause: e });
  }
}

/** The renderer into the copy: the repository's build, or a fresh vite build, or a placeholder page. */
async function provideRenderer(target: string): Promise<string> {
  const built = path.join(REPO, 'dist', 'renderer');
  if (existsSync(path.join(built, 'index.html'))) {
    await cp(built, target, { recursive: true });
    return 'the repository\'s dist/renderer';
  }
  const config = ['vite.config.ts', 'vite.config.mts', 'vite.config.js', 'vite.config.mjs'].find((f) => existsSync(path.join(REPO, f)));
  if (config) {
    await node([path.join(REPO, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', target, '--emptyOutDir', '--logLevel', 'warn'], REPO);
    return `vite build (${config})`;
  }
  await mkdir(target, { recursive: true });
  await writeFile(path.join(target, 'index.html'), '<!doctype html><title>Interfere</title><div id="root"></div>\n');
  return 'a placeholder index.html (no vite config yet)';
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'interfere-package-'));
  const project = path.join(work, 'project');
  await mkdir(project);
  // What electron-builder reads, copied; the sources and dependencies, linked.
  for (const f of ['package.json', 'electron-builder.yml']) await cp(path.join(REPO, f), path.join(project, f));
  await cp(path.join(REPO, 'assets'), path.join(project, 'assets'), { recursive: true });
  const sources = (await readdir(REPO)).filter((f) => f.startsWith('src-'));
  for (const f of ['node_modules', 'tsconfig.base.json', ...sources]) {
    await symlink(path.join(REPO, f), path.join(project, f));
  }
  await node([path.join(REPO, 'scripts', 'build.mjs')], project);
  rendererSource = await provideRenderer(path.join(project, 'dist', 'renderer'));

  // The stand-in Electron: an executable named electron and the version it claims to be.
  const electronDist = path.join(work, 'electron-dist');
  await mkdir(electronDist);
  await writeFile(path.join(electronDist, 'electron'), '#!/bin/sh\necho "stand-in Electron: cannot run"\nexit 1\n');
  await chmod(path.join(electronDist, 'electron'), 0o755);
  await writeFile(path.join(electronDist, 'version'), ELECTRON_VERSION);

  const out = path.join(work, 'release');
  const cache = path.join(work, 'builder-cache');
  await mkdir(cache);
  await node([
    path.join(REPO, 'node_modules', 'electron-builder', 'cli.js'),
    '--linux', 'dir',
    '--projectDir', project,
    `-c.electronDist=${electronDist}`,
    '-c.npmRebuild=false',
    `-c.directories.output=${out}`,
  ], project, { ELECTRON_BUILDER_CACHE: cache, CSC_IDENTITY_AUTO_DISCOVERY: 'false' });
  // Nothing was downloaded.
  expect(await readdir(cache)).toEqual([]);

  resources = path.join(out, 'linux-unpacked', 'resources');
  entries = listPackage(path.join(resources, 'app.asar'), { isPack: false }).map((e) => e.split(path.sep).join('/'));
  const archive = path.join(resources, 'app.asar');
  const files = entries.filter((e) => !('files' in statFile(archive, e.slice(1))));
  const unpacked = files.filter((e) => (statFile(archive, e.slice(1)) as { unpacked?: boolean }).unpacked);
  console.log(`app.asar (renderer from ${rendererSource}): ${files.length} files, ${unpacked.length} unpacked\n  ${files.map((f) => (unpacked.includes(f) ? `${f} (unpacked)` : f)).join('\n  ')}`);
}, 180_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

const asarFile = (name: string): Buffer => extractFile(path.join(resources, 'app.asar'), name);

describe('the packaged app (linux dir, stand-in Electron)', () => {
  it('holds the main, preload, tree worker, check worker and renderer bundles', () => {
    for (const f of ['/package.json', '/dist/node/main/main.cjs', '/dist/node/main/preload.cjs', '/dist/node/compute/treeWorker.cjs', '/dist/node/compute/checkWorker.cjs', '/dist/renderer/index.html']) {
      expect(entries, f).toContain(f);
    }
  });

  it("starts at package.json's main, which finds the tree worker where the pool looks for it", () => {
    const pkg = JSON.parse(asarFile('package.json').toString('utf8')) as { main: string };
    expect(pkg.main).toBe('dist/node/main/main.cjs');
    // services/treePool.ts: findComputeEntry looks at ../compute/<name>.cjs from the bundle.
    expect(entries).toContain(path.posix.resolve('/', path.posix.dirname(pkg.main), '../compute/treeWorker.cjs'));
    expect(entries).toContain(path.posix.resolve('/', path.posix.dirname(pkg.main), '../compute/checkWorker.cjs'));
  });

  it("keeps occt-import-js's wasm (and manifold's) outside the archive", async () => {
    for (const wasm of ['node_modules/occt-import-js/dist/occt-import-js.wasm', 'node_modules/manifold-3d/manifold.wasm']) {
      const bytes = await readFile(path.join(resources, 'app.asar.unpacked', wasm));
      expect(bytes.subarray(0, 4), wasm).toEqual(Buffer.from([0, 0x61, 0x73, 0x6d]));
    }
  });

  it('has nothing from test/ or the sources, no source maps, no TypeScript', () => {
    const offending = entries.filter((e) => /^\/(test|src-[^/]+|scratch|bench|scripts|tools|docs)(\/|$)/.test(e) || /\.(map|ts|tsx)$/.test(e));
    expect(offending).toEqual([]);
    expect(entries.filter((e) => e.startsWith('/dist/node/') && !/^\/dist\/node\/(main|compute)(\/|$)/.test(e))).toEqual([]);
  });

  it('ships only the runtime packages the bundles leave external, without their tests or C++ sources', () => {
    const packages = new Set(entries.filter((e) => e.startsWith('/node_modules/')).map((e) => e.split('/')[2]));
    expect([...packages].sort()).toEqual(['manifold-3d', 'occt-import-js']);
    const occt = entries.filter((e) => e.startsWith('/node_modules/occt-import-js/'));
    expect(occt.filter((e) => /\/(test|tests|occt|emsdk|examples|tools)\/|\.(cpp|hpp|h|c|cxx|bat|txt\.in)$|CMakeLists/.test(e))).toEqual([]);
    expect(occt).toContain('/node_modules/occt-import-js/dist/occt-import-js.js');
  });

  it('has every package the main bundle loads at run time', () => {
    const code = asarFile('dist/node/main/main.cjs').toString('utf8');
    const specifiers = new Set([...code.matchAll(/\b(?:require|import)\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]));
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    const packaged = new Set(entries.filter((e) => e.startsWith('/node_modules/')).map((e) => e.split('/')[2]));
    const missing = [...specifiers].filter((s) => !builtins.has(s) && s !== 'electron' && !packaged.has(s));
    expect(missing).toEqual([]);
    expect(specifiers.has('electron')).toBe(true);
  });

  it('ships a preload that runs sandboxed', () => {
    const { exposed, required } = runPreloadInSandbox(asarFile('dist/node/main/preload.cjs').toString('utf8'), {
      ipcRenderer: { invoke: async () => ({ ok: true, result: null }), on() {}, removeListener() {} },
      webUtils: { getPathForFile: () => '' },
    });
    expect(required).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['interfereHost', 'interfereShell']);
  });

  it('ships the icon and the bundled sample', () => {
    expect(entries).toContain('/assets/icon.png');
    expect(entries).toContain('/assets/samples/as1-oc-214.stp');
  });
});
