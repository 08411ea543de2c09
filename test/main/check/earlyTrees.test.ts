/**
 * A saved assembly's trees start as each source arrives (services/checkService.ts prepareCheck,
 * services/bodies.ts EarlyTrees): the first source's trees are under way while the second is read,
 * each distinct body is built once, and a source that fails stops the builds already started.
 */
import { mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFile } from '../../../src-main/services/checkService.js';
import { buildTreesInProcess, type TreeBuilder } from '../../../src-main/services/bodies.js';
import { createImporter } from '../../../src-main/services/importers.js';

const CUBE = path.resolve('test/data/stl-models/polytopes/cube.ascii.stl');
const dir = mkdtempSync(path.join(os.tmpdir(), 'interfere-early-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function assembly(name: string, sources: string[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify({
    format: 'interfere-assembly', version: 1,
    sources: sources.map((p, i) => ({ id: `s${i}`, path: p })),
    parts: [
      { id: 'a', source: 's0', transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] },
      { id: 'a2', source: 's0', transform: [1, 0, 0, 10, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] },
      { id: 'b', source: 's1', transform: [1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] },
    ],
  }));
  return file;
}

describe('trees built while the sources are read', () => {
  it('starts the first source before the second is imported, and builds each body once', async () => {
    copyFileSync(CUBE, path.join(dir, 'one.stl'));
    copyFileSync(CUBE, path.join(dir, 'two.stl'));
    const file = assembly('two.assembly.json', ['one.stl', 'two.stl']);
    const events: string[] = [];
    const base = createImporter();
    const importer = Object.assign(async (bytes: Uint8Array, fileName: string, options?: Parameters<typeof base>[2]) => {
      events.push(`import ${fileName}`);
      return base(bytes, fileName, options);
    }, { limits: base.limits, concurrency: 1 });
    const builder: TreeBuilder = async (meshes, options) => {
      events.push(`build ${meshes.map((m) => m.key).join(',')}`);
      return buildTreesInProcess(meshes, options);
    };
    const result = await checkFile(file, { importer, buildTrees: builder, refine: false });
    expect(events).toEqual(['import one.stl', 'build s0#0', 'import two.stl', 'build s1#0', 'build ']);
    expect(result.report.summary.interferences).toBe(1); // a and b overlap by 1 mm; a2 is clear
  });

  it('stops the trees under way when a later source cannot be read', async () => {
    copyFileSync(CUBE, path.join(dir, 'good.stl'));
    const file = assembly('broken.assembly.json', ['good.stl', 'missing.stl']);
    let aborted = false;
    const builder: TreeBuilder = (meshes, options) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve(buildTreesInProcess(meshes, options)), 5_000);
      options.signal?.addEventListener('abort', () => {
        aborted = true;
        clearTimeout(timer);
        const e = new Error('cancelled');
        e.name = 'AbortError';
        reject(e);
      });
    });
    await expect(checkFile(file, { buildTrees: builder, refine: false })).rejects.toThrow(/missing\.stl/);
    expect(aborted).toBe(true);
  });
});
