// One `interfere check` of 50 saved assemblies (the bundled dist/node/cli/interfere.cjs, as
// installed), one of them corrupt: every file gets its status line, the corrupt one is named with
// its problem, the files after it are still checked, the exit status is 2, and every good file
// has its report under reports/{name}.json.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReport } from '../../../src-core/report/index';
import { boxMesh, uvSphereMesh } from '../../support/meshArbitraries';
import { binaryStl } from '../../support/stlFiles';

const ROOT = process.cwd();
const CLI = path.join(ROOT, 'dist/node/cli/interfere.cjs');
const COUNT = 50;
/** The corrupt one (1-based). */
const BAD = 27;

const CUBE = boxMesh([0, 0, 0], [10, 10, 10], 2);
const BALL = uvSphereMesh(4, 12, 8);
/** Triangles of an assembly: two cubes and a ball. */
const TRIANGLES = (2 * CUBE.indices.length + BALL.indices.length) / 3;

const nameOf = (i: number): string => `asm-${String(i).padStart(2, '0')}`;
/** Every third assembly has two cubes that cross; the others are clear. */
const interferes = (i: number): boolean => i % 3 === 0;

function translation(x: number, y: number, z: number): number[] {
  return [1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z, 0, 0, 0, 1];
}

/** Writes the meshes and the 50 assemblies; returns the assembly paths in order. */
function writeAssemblies(dir: string): string[] {
  mkdirSync(path.join(dir, 'meshes'));
  writeFileSync(path.join(dir, 'meshes', 'cube.stl'), binaryStl(CUBE));
  writeFileSync(path.join(dir, 'meshes', 'ball.stl'), binaryStl(BALL));
  const files: string[] = [];
  for (let i = 1; i <= COUNT; i++) {
    const file = path.join(dir, `${nameOf(i)}.assembly.json`);
    files.push(file);
    if (i === BAD) {
      // Cut off in the middle of the parts list.
      writeFileSync(file, '{\n  "format": "interfere-assembly",\n  "version": 1,\n  "sources": [ { "id": "cube", "path": "meshes/cube.stl" } ],\n  "parts": [ { "id": "a", "source": "cube" ,\n');
      continue;
    }
    writeFileSync(file, JSON.stringify({
      format: 'interfere-assembly',
      version: 1,
      name: `assembly ${i}`,
      units: 'mm',
      sources: [{ id: 'cube', path: 'meshes/cube.stl' }, { id: 'ball', path: 'meshes/ball.stl' }],
      parts: [
        { id: 'base', source: 'cube' },
        { id: 'block', source: 'cube', transform: interferes(i) ? translation(6, 3, 2 + i / 100) : translation(20 + i, 0, 0) },
        { id: 'ball', source: 'ball', transform: translation(-20 - i / 10, 5, 5) },
      ],
    }, null, 2));
  }
  return files;
}

describe('interfere check with 50 saved assemblies, one corrupt', () => {
  let dir = '';
  let files: string[] = [];

  beforeAll(() => {
    // The bundle is built on install (npm's prepare); build it if this checkout has not.
    if (!existsSync(CLI)) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
    dir = mkdtempSync(path.join(os.tmpdir(), 'interfere-batch50-'));
    // reports/ is not made here: the command line makes a report path's folders.
    files = writeAssemblies(dir);
  }, 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('checks every file in one run, names the corrupt one, and exits 2', () => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [CLI, 'check', ...files, '--report', path.join(dir, 'reports', '{name}.json'), '--no-progress'], {
      cwd: dir, encoding: 'utf8', timeout: 60_000,
    });
    const elapsed = performance.now() - t0;
    expect(r.error).toBeUndefined();
    expect(r.status, r.stderr).toBe(2);

    // The corrupt file: named on standard error with its problem (JSON cut short), and no report.
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('interfere: '));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`${nameOf(BAD)}.assembly.json`);
    expect(errors[0]).toMatch(/JSON|end of (the )?(file|input)|unexpected/i);
    expect(existsSync(path.join(dir, 'reports', `${nameOf(BAD)}.json`))).toBe(false);

    // Every other file: its status line, its summary, its report — those after the corrupt one too.
    const lines = r.stdout.split('\n');
    const statusLines = lines.filter((l) => /^asm-\d\d\.assembly\.json: /.test(l));
    expect(statusLines).toHaveLength(COUNT - 1);
    let position = -1;
    for (let i = 1; i <= COUNT; i++) {
      if (i === BAD) continue;
      const name = `${nameOf(i)}.assembly.json`;
      const at = lines.findIndex((l) => l.startsWith(`${name}: `));
      expect(at, name).toBeGreaterThan(position); // in the order given
      position = at;
      expect(lines[at], name).toContain(`: 3 parts, ${TRIANGLES.toLocaleString('en-US')} triangles`);
      expect(lines[at + 1], name).toMatch(new RegExp(`^  ${interferes(i) ? 1 : 0} interference\\(s\\), 0 clearance violation\\(s\\)`));
      const target = path.join(dir, 'reports', `${nameOf(i)}.json`);
      expect(lines.slice(at, at + 8).some((l) => l.includes(`report: ${target}`)), name).toBe(true);
      const report = parseReport(readFileSync(target, 'utf8'));
      expect(report.assembly, name).toBe(name);
      expect(report.summary.parts, name).toBe(3);
      expect(report.summary.triangles, name).toBe(TRIANGLES);
      expect(report.summary.interferences, name).toBe(interferes(i) ? 1 : 0);
      expect(report.results.filter((x) => x.kind === 'interference').map((x) => [x.a, x.b]), name).toEqual(interferes(i) ? [['base', 'block']] : []);
    }
    console.log(`interfere check of ${COUNT} assemblies: ${(elapsed / 1000).toFixed(1)} s`);
    expect(elapsed).toBeLessThan(60_000);
  }, 90_000);
});
