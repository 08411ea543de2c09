// The Node OpenCascade provider: memoised, quiet, recovering from failures, and working from an
// esbuild bundle built the way scripts/build.mjs builds ours (occt-import-js external).
import { describe, it, expect, afterAll, vi } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import type { OcctFactory, OcctFactoryOptions, OcctReader, OcctResult } from 'occt-import-js';
import { createNodeOcctProvider, nodeOcctProvider } from '../../../src-main/services/occtNode.js';

const REPO = process.cwd();
const DATA = path.resolve(REPO, 'test/data');

function read(rel: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(DATA, rel)));
}

function triangleCounts(r: OcctResult): number[] {
  return (r.meshes ?? []).map((m) => m.index.array.length / 3);
}

async function realFactory(): Promise<OcctFactory> {
  const mod = (await import('occt-import-js')) as unknown as { default: OcctFactory };
  return mod.default;
}

/** A factory whose readers answer `result` (or throw it), recording the options it was given. */
function fakeFactory(result: () => OcctResult, seen: OcctFactoryOptions[] = []): OcctFactory {
  return async (options) => {
    seen.push(options ?? {});
    const reader: OcctReader = { ReadStepFile: result, ReadIgesFile: result, ReadBrepFile: result };
    return reader;
  };
}

describe('node OpenCascade provider', () => {
  it('initialises once per process and reads twice in a row with the same result', async () => {
    const t0 = performance.now();
    const [a, b] = await Promise.all([nodeOcctProvider(), nodeOcctProvider()]);
    const c = await nodeOcctProvider();
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(nodeOcctProvider.stats.initialisations).toBe(1);
    expect(nodeOcctProvider.stats.lastInitMs).toBeGreaterThan(0);
    expect(nodeOcctProvider.stats.lastInitMs).toBeLessThanOrEqual(performance.now() - t0 + 1);

    const bytes = read('cax-if-dm1/dm1-id-214.stp');
    const first = a.ReadStepFile(bytes, null);
    const second = a.ReadStepFile(bytes, null);
    expect(first.success).toBe(true);
    expect(triangleCounts(first)).toEqual([484, 236, 236, 236, 128, 128, 128]);
    expect(triangleCounts(second)).toEqual(triangleCounts(first));
    expect(second.meshes![0].attributes.position.array).toEqual(first.meshes![0].attributes.position.array);
    expect(nodeOcctProvider.stats.initialisations).toBe(1);
  });

  it('concurrent first calls share one initialisation (counted at the factory)', async () => {
    let loads = 0;
    let inits = 0;
    const provider = createNodeOcctProvider({
      loadFactory: async () => {
        loads++;
        const f = await realFactory();
        return (options) => {
          inits++;
          return f(options);
        };
      },
    });
    const modules = await Promise.all([provider(), provider(), provider()]);
    expect(new Set(modules).size).toBe(1);
    expect(await provider()).toBe(modules[0]);
    expect([loads, inits, provider.stats.initialisations]).toEqual([1, 1, 1]);
  });

  it("keeps OpenCascade's output off stdout and hands it over once", async () => {
    const m = await nodeOcctProvider();
    m.takeOutput!();
    const log = vi.spyOn(console, 'log');
    const error = vi.spyOn(console, 'error');
    const write = vi.spyOn(process.stdout, 'write');
    try {
      const r = m.ReadIgesFile(read('iges-sunglasses-lens/sunglasses_lens.igs'), null);
      expect(r.success).toBe(true);
      expect(log).not.toHaveBeenCalled();
      expect(error).not.toHaveBeenCalled();
      expect(write).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
      error.mockRestore();
      write.mockRestore();
    }
    expect(m.takeOutput!()).toContain('Total number of loaded entities 9.');
    expect(m.takeOutput!()).toEqual([]);
    const failed = m.ReadStepFile(new TextEncoder().encode('ISO-10303-21;\nHEADER;\n'), null);
    expect(failed.success).toBe(false);
    expect(m.takeOutput!().join('\n')).toMatch(/ERR StepFile/);
  });

  it('keeps only the last lines of output', async () => {
    const provider = createNodeOcctProvider({ maxOutputLines: 2, loadFactory: realFactory });
    const m = await provider();
    m.ReadStepFile(new TextEncoder().encode('ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n'), null);
    expect(m.takeOutput!().length).toBeLessThanOrEqual(2);
  });

  it('a failed initialisation is not kept: the next call tries again', async () => {
    let attempt = 0;
    const provider = createNodeOcctProvider({
      loadFactory: async () => {
        if (attempt++ === 0) throw new Error('no wasm here');
        return fakeFactory(() => ({ success: false }));
      },
    });
    await expect(provider()).rejects.toThrow('no wasm here');
    const m = await provider();
    expect(m.ReadStepFile(new Uint8Array(1), null)).toEqual({ success: false });
    expect(provider.stats.initialisations).toBe(1);
  });

  it('a reader that throws retires its module; the next call gets a fresh one', async () => {
    let calls = 0;
    const provider = createNodeOcctProvider({
      loadFactory: async () => fakeFactory(() => {
        if (calls++ === 0) throw new Error('Aborted(OOM)');
        return { success: true, meshes: [] };
      }),
    });
    const first = await provider();
    expect(() => first.ReadBrepFile(new Uint8Array(1), null)).toThrow('Aborted(OOM)');
    const second = await provider();
    expect(second).not.toBe(first);
    expect(second.ReadBrepFile(new Uint8Array(1), null).success).toBe(true);
    expect(provider.stats.initialisations).toBe(2);
    expect(await provider()).toBe(second);
  });

  it('wasmPath points the factory at the .wasm', async () => {
    const seen: OcctFactoryOptions[] = [];
    const fake = createNodeOcctProvider({ wasmPath: '/opt/x/occt.wasm', loadFactory: async () => fakeFactory(() => ({ success: false }), seen) });
    await fake();
    expect(seen[0].locateFile!('occt-import-js.wasm', '/somewhere/')).toBe('/opt/x/occt.wasm');
    expect(typeof seen[0].print).toBe('function');
    expect(typeof seen[0].printErr).toBe('function');

    const real = createNodeOcctProvider({ wasmPath: path.join(REPO, 'node_modules/occt-import-js/dist/occt-import-js.wasm') });
    const m = await real();
    expect(triangleCounts(m.ReadBrepFile(read('cax-if-as1/as1_pe_203.brep'), null)).length).toBe(18);
  });
});

describe('node OpenCascade provider, bundled', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'interfere-occt-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('works from an esbuild CommonJS bundle with occt-import-js external, printing nothing of its own', async () => {
    const entry = path.join(out, 'entry.ts');
    const rel = (p: string): string => JSON.stringify(path.join(REPO, p));
    writeFileSync(entry, [
      `import { readFileSync } from 'node:fs';`,
      `import { nodeOcctProvider } from ${rel('src-main/services/occtNode.ts')};`,
      `import { createDefaultRegistry } from ${rel('src-core/io/registry.ts')};`,
      `const registry = createDefaultRegistry({ occt: nodeOcctProvider });`,
      `void (async () => {`,
      `  const files = process.argv.slice(2);`,
      `  for (const f of files) {`,
      `    const r = await registry.import(new Uint8Array(readFileSync(f)), f);`,
      `    console.log(JSON.stringify({ format: r.format, bodies: r.bodies.length, triangles: r.bodies.reduce((a, b) => a + b.triangleCount, 0) }));`,
      `  }`,
      `  console.log(JSON.stringify(nodeOcctProvider.stats.initialisations));`,
      `})();`,
    ].join('\n'));
    // The options of scripts/build.mjs.
    await build({
      entryPoints: [entry], outfile: path.join(out, 'node/cli/occt-probe.cjs'),
      bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true,
      external: ['occt-import-js', 'manifold-3d', 'electron'], logLevel: 'silent',
    });
    // dist/node/… finds occt-import-js in the repository's node_modules; so does this bundle.
    symlinkSync(path.join(REPO, 'node_modules'), path.join(out, 'node_modules'), 'dir');
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [
      path.join(out, 'node/cli/occt-probe.cjs'),
      path.join(DATA, 'iges-sunglasses-lens/sunglasses_lens.igs'),
      path.join(DATA, 'cax-if-dm1/dm1-id-214.stp'),
    ], { timeout: 60_000 });
    expect(stderr).toBe('');
    expect(stdout.trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([
      { format: 'iges', bodies: 9, triangles: 7136 },
      { format: 'step', bodies: 7, triangles: 1576 },
      1,
    ]);
  }, 90_000);
});
