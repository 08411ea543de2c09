/** Running the built `interfere` command line (dist/node/cli/interfere.cjs) on small inputs in a temporary folder. */
import { execFileSync, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = process.cwd();
export const CLI = path.join(ROOT, 'dist/node/cli/interfere.cjs');
export const DATA = path.resolve(ROOT, 'test/data');
/** A 2 mm cube centred on the origin (ASCII STL, 12 triangles). */
export const CUBE_STL = path.join(DATA, 'stl-models/polytopes/cube.ascii.stl');

export interface RunResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function run(args: readonly string[], options: SpawnSyncOptions = {}): RunResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000, ...options });
  return { status: r.status, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

/** Builds the bundle when this checkout has not (as npm's prepare does). */
export function ensureBuilt(): void {
  if (!existsSync(CLI)) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
}

export function tempDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'interfere-cli-'));
}

export interface CubePart {
  readonly id: string;
  readonly name?: string;
  /** x offset in mm: 0 and 1 overlap (interference), 0 and 30 are clear. */
  readonly x: number;
}

/** Writes a saved assembly of cubes (the cube STL by absolute path) and returns its path. */
export function writeCubeAssembly(file: string, parts: readonly CubePart[], sourcePath: string = CUBE_STL): string {
  const doc = {
    format: 'interfere-assembly',
    version: 1,
    sources: [{ id: 'cube', path: sourcePath }],
    parts: parts.map((p) => ({
      id: p.id,
      ...(p.name !== undefined ? { name: p.name } : {}),
      source: 'cube',
      transform: [1, 0, 0, p.x, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
    })),
    settings: { touchToleranceMm: 0.01 },
  };
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
}

/** Two cubes overlapping by 1 mm: they interfere (status 1). */
export const INTERFERING: readonly CubePart[] = [{ id: 'a', x: 0 }, { id: 'b', x: 1 }];
/** Two cubes 30 mm apart: clear (status 0). */
export const CLEAR: readonly CubePart[] = [{ id: 'a', x: 0 }, { id: 'b', x: 30 }];
