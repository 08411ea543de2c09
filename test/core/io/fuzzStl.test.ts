/**
 * Fuzzing the STL importer: real files from test/data mutated (truncated, bytes flipped,
 * spliced, triangle counts changed, hostile numbers, garbage behind a valid header, repeated
 * tokens, line-ending mixes, NUL bytes) and imported through the registry. Every case must either
 * succeed with valid meshes or fail with an ImportError of a documented code naming the file,
 * within a time bound (STL_CASE_MS) and the memory bound of fuzzHelpers.ts
 * (MEMORY_FACTOR × file size + MEMORY_SLACK). Seeds are in the titles; a failing case prints its
 * mutation records, and inputs that ever broke something live in test/fixtures/regressions.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createDefaultRegistry } from '../../../src-core/io/registry.js';
import { parseStl, parseStlAsync } from '../../../src-core/io/stl.js';
import { DEFAULT_IMPORT_LIMITS } from '../../../src-core/io/limits.js';
import { ImportError } from '../../../src-core/io/types.js';
import type { LengthUnit } from '../../../src-core/io/types.js';
import { WELD_STEP_VERTICES, weld, weldSteps } from '../../../src-core/geometry/weld.js';
import { HOSTILE_NUMBERS, REPEATED_TOKENS, Tally, checkImport, fraction, mutateAll, mutationArb, readData } from './fuzzHelpers.js';

const STL_CASE_MS = 10_000;
const registry = createDefaultRegistry();

const SMALL = [
  'stl-models/polytopes/cube.ascii.stl',
  'stl-models/polytopes/cube.bin.stl',
  'stl-models/polytopes/tetrahedron.min.ascii.stl',
  'stl-models/polytopes/tetrahedronMinusZero.bin.stl',
  'stl-models/polytopes/unitCube.ascii.stl',
  'stl-models/misc/multiWordName.ascii.stl',
  'stl-models/misc/multiWordName.bin.stl',
  'stl-models/misc/namelessSolid.ascii.stl',
  'stl-models/broken/missingNormal.ascii.stl',
  'stl-models/broken/solidNameMismatch.ascii.stl',
  'stl-online3dviewer/cube_meshlab_ascii.stl',
  'robot-fanuc-m10ia/meshes/collision/link_6.stl',
  'stl-models/objects/gearwheel.bin.stl',
];
const LARGE = ['stl-models/objects/gearwheel.ascii.stl', 'stl-models/objects/bunny.bin.stl', 'robot-so101/assets/base_so101_v2.stl'];
const UNITS: readonly (LengthUnit | undefined)[] = [undefined, 'mm', 'cm', 'm', 'in'];

const smallBytes = SMALL.map(readData);
const largeBytes = LARGE.map(readData);
const allBytes = [...smallBytes, ...largeBytes];

function nameOf(rel: string): string {
  return rel.slice(rel.lastIndexOf('/') + 1);
}

const ascii = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));

function binaryStl(count: number, triangles: number, fill: (dv: DataView, t: number) => void = () => undefined): Uint8Array {
  const out = new Uint8Array(84 + 50 * triangles);
  const dv = new DataView(out.buffer);
  dv.setUint32(80, count >>> 0, true);
  for (let t = 0; t < triangles; t++) fill(dv, t);
  return out;
}

describe('STL fuzzing: mutated real files', () => {
  it('small files, 1–3 mutations each, every unit (seed 6001)', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: SMALL.length - 1 }),
        fc.array(mutationArb(allBytes.length, { stl: true }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...UNITS),
        async (f, mutations, units) => {
          const input = mutateAll(smallBytes[f], mutations, allBytes);
          const name = nameOf(SMALL[f]);
          tally.add(await checkImport(() => registry.import(input, name, units ? { units } : {}), name, input.length, STL_CASE_MS));
        },
      ),
      { seed: 6001, numRuns: 1000 },
    );
    console.log(`STL small-file mutations: ${tally}`);
    expect(tally.cases).toBe(1000);
  });

  it('larger files (600 kB ASCII, 3.4 MB binary), one mutation each (seed 6002)', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: LARGE.length - 1 }), mutationArb(allBytes.length, { stl: true }), async (f, mutation) => {
        const input = mutateAll(largeBytes[f], [mutation], allBytes);
        const name = nameOf(LARGE[f]);
        tally.add(await checkImport(() => registry.import(input, name), name, input.length, STL_CASE_MS));
      }),
      { seed: 6002, numRuns: 60 },
    );
    console.log(`STL large-file mutations: ${tally}`);
  });
});

describe('STL fuzzing: targeted hostile inputs', () => {
  it('huge triangle counts in tiny files are refused before any allocation (seed 6003)', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(0xffffffff, 0xfffffffe, 0x80000000, 0x40000000, 50_000_001, 1), fc.nat()),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 49 }),
        async (count, triangles, extra) => {
          const input = binaryStl(count, triangles);
          const padded = extra === 0 ? input : new Uint8Array([...input, ...new Uint8Array(extra)]);
          const outcome = await checkImport(() => registry.import(padded, 'tiny.stl'), 'tiny.stl', padded.length, 1000);
          tally.add(outcome);
          if (outcome.ok) expect(count).toBe(triangles); // only an honest count reads
        },
      ),
      { seed: 6003, numRuns: 300 },
    );
    // 2^32 − 1 triangles claimed by a 134-byte file: the size rule refuses it as a count mismatch.
    const claim = binaryStl(0xffffffff, 1);
    const err = await registry.import(claim, 'claims-4G.stl').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).code).toBe('count-mismatch');
    expect((err as ImportError).message).toMatch(/^claims-4G\.stl: .*4,294,967,295 triangles/);
    console.log(`STL huge counts: ${tally}`);
  });

  it('hostile numbers in ASCII coordinates and normals, every unit (seed 6004)', async () => {
    const tally = new Tally();
    const bases = [0, 2, 4, 5, 7, 10].map((i) => smallBytes[i]);
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: bases.length - 1 }),
        fc.array(fc.tuple(fraction(), fc.constantFrom(...HOSTILE_NUMBERS)), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...UNITS),
        async (f, edits, units) => {
          const input = mutateAll(bases[f], edits.map(([which, value]) => ({ kind: 'number' as const, which, value })), []);
          tally.add(await checkImport(() => registry.import(input, 'numbers.stl', units ? { units } : {}), 'numbers.stl', input.length, 1000));
        },
      ),
      { seed: 6004, numRuns: 800 },
    );
    console.log(`STL hostile numbers: ${tally}`);
  });

  it('a coordinate that overflows once converted to millimetres is non-finite, not Infinity in the mesh', async () => {
    const text = 'solid big\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1e308 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid big\n';
    expect(parseStl(ascii(text), 'big.stl').bodies[0].positions).toContain(1e308);
    for (const units of ['cm', 'm', 'in'] as const) {
      const err = await registry.import(ascii(text), 'big.stl', { units }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportError);
      expect((err as ImportError).code).toBe('non-finite-coordinate');
      expect((err as ImportError).message).toMatch(/^big\.stl: coordinate x of vertex 1 of facet 0 .*1e\+308.*millimetres/);
    }
  });

  it('random garbage behind a valid binary header and count, or after "solid" (seed 6005)', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 400 }), fc.nat(), fc.boolean(), async (triangles, seed, asText) => {
        let input: Uint8Array;
        if (asText) {
          const garbage = mutateAll(ascii('solid garbage\n'), [{ kind: 'garbage', keep: 14, length: triangles * 10, seed }], []);
          input = garbage;
        } else {
          // Every float bit pattern is possible: NaNs, infinities, subnormals, huge values.
          let s = seed >>> 0;
          input = binaryStl(triangles, triangles, (dv, t) => {
            for (let k = 0; k < 12; k++) {
              s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
              dv.setUint32(84 + 50 * t + 4 * k, s, true);
            }
          });
        }
        tally.add(await checkImport(() => registry.import(input, 'garbage.stl'), 'garbage.stl', input.length, 1000));
      }),
      { seed: 6005, numRuns: 400 },
    );
    console.log(`STL garbage: ${tally}`);
  });

  it('deeply repeated tokens stay linear (seed 6006)', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...REPEATED_TOKENS, 'facet normal 0 0 1 outer loop ', 'vertex 1e300 -0 1e-400 ', 'solid\nendsolid\n'),
        fc.integer({ min: 1000, max: 200_000 }),
        fc.constantFrom('', 'solid x\n', 'solid x\nfacet normal 0 0 1\nouter loop\n'),
        async (token, times, prefix) => {
          const input = ascii(prefix + token.repeat(times));
          tally.add(await checkImport(() => registry.import(input, 'repeated.stl'), 'repeated.stl', input.length, 5000));
        },
      ),
      { seed: 6006, numRuns: 60 },
    );
    console.log(`STL repeated tokens: ${tally}`);
  });

  it('line endings (CRLF, LF, CR, mixed) and NUL padding change nothing in valid ASCII STL (seed 6007)', async () => {
    const bases = [0, 2, 4, 5, 7, 10].map((i) => smallBytes[i]);
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: bases.length - 1 }),
        fc.constantFrom('crlf' as const, 'lf' as const, 'cr' as const, 'mixed' as const),
        fc.nat(),
        fc.integer({ min: 0, max: 100 }),
        async (f, mode, seed, nuls) => {
          const base = await registry.import(bases[f], 'base.stl');
          const changed = mutateAll(bases[f], [{ kind: 'eol', mode, seed }], []);
          const input = nuls === 0 ? changed : new Uint8Array([...changed, ...new Uint8Array(nuls)]);
          const result = await registry.import(input, 'eol.stl');
          expect(Array.from(result.bodies[0].positions)).toEqual(Array.from(base.bodies[0].positions));
          expect(Array.from(result.bodies[0].indices)).toEqual(Array.from(base.bodies[0].indices));
        },
      ),
      { seed: 6007, numRuns: 200 },
    );
  });

  it('NUL bytes inside the text are refused with a message, never a crash (seed 6008)', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: smallBytes.length - 1 }), fraction(), fc.integer({ min: 1, max: 64 }), async (f, at, count) => {
        const input = mutateAll(smallBytes[f], [{ kind: 'nul', at, count }], []);
        tally.add(await checkImport(() => registry.import(input, 'nul.stl'), 'nul.stl', input.length, 1000));
      }),
      { seed: 6008, numRuns: 300 },
    );
    console.log(`STL NUL bytes: ${tally}`);
  });
});

describe('STL limits, progress and cancellation', () => {
  const cube = smallBytes[1];
  const cubeAscii = smallBytes[0];

  it('maxFileBytes: too-large naming the file, the limit and how to raise it', async () => {
    const err = await registry.import(cube, 'cube.stl', { limits: { maxFileBytes: 100 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).code).toBe('too-large');
    expect((err as ImportError).message).toBe("cube.stl: the file has 684 bytes, more than the limit of 100 bytes; raise it with the import limit 'maxFileBytes'");
  });

  it('maxTrianglesPerBody (binary and ASCII) and maxTrianglesPerAssembly', async () => {
    const bin = await registry.import(cube, 'cube.stl', { limits: { maxTrianglesPerBody: 11 } }).catch((e: unknown) => e as ImportError);
    expect(bin).toBeInstanceOf(ImportError);
    expect((bin as ImportError).message).toBe(
      "cube.stl: binary STL has 12 triangles, more than the limit of 11 triangles per body; raise it with 'interfere check --max-triangles N', or the import limit 'maxTrianglesPerBody'",
    );
    const text = await registry.import(cubeAscii, 'cube.stl', { limits: { maxTrianglesPerBody: 11 } }).catch((e: unknown) => e as ImportError);
    expect((text as ImportError).code).toBe('too-large');
    expect((text as ImportError).message).toMatch(/^cube\.stl: line \d+: ASCII STL has more than 11 triangles, the limit per body; raise it with 'interfere check --max-triangles N'/);
    const total = await registry.import(cube, 'cube.stl', { limits: { maxTrianglesPerAssembly: 5 } }).catch((e: unknown) => e as ImportError);
    expect((total as ImportError).message).toMatch(/^cube\.stl: the file has 12 triangles in all, more than the limit of 5 triangles per assembly/);
    expect((await registry.import(cube, 'cube.stl', { limits: { maxTrianglesPerBody: 12 } })).bodies[0].triangleCount).toBe(12);
    await expect(registry.import(cube, 'cube.stl', { limits: { maxTrianglesPerBody: 0 } })).rejects.toThrow(RangeError);
    await expect(registry.import(cube, 'cube.stl', { limits: { cadTimeoutMs: Number.NaN } })).rejects.toThrow(RangeError);
    expect(DEFAULT_IMPORT_LIMITS).toEqual({ maxFileBytes: 2 ** 31, maxTrianglesPerBody: 50_000_000, maxTrianglesPerAssembly: 100_000_000, cadTimeoutMs: 300_000 });
  });

  it('progress moves through a large binary STL and ends at total; cancelling stops it within one checkpoint', async () => {
    const n = 300_000;
    const input = binaryStl(n, n, (dv, t) => {
      const o = 84 + 50 * t + 12;
      const x = t % 1000, y = Math.floor(t / 1000);
      dv.setFloat32(o, x, true); dv.setFloat32(o + 4, y, true);
      dv.setFloat32(o + 12, x + 1, true); dv.setFloat32(o + 16, y, true);
      dv.setFloat32(o + 24, x, true); dv.setFloat32(o + 28, y + 1, true);
    });
    const seen: [number, number][] = [];
    const result = await parseStlAsync(input, 'grid.stl', { onProgress: (d, t) => seen.push([d, t]), yieldToHost: () => new Promise((r) => setImmediate(r)) });
    expect(result.bodies[0].triangleCount).toBe(n);
    expect(seen.length).toBeGreaterThan(5);
    for (let i = 1; i < seen.length; i++) expect(seen[i][0]).toBeGreaterThanOrEqual(seen[i - 1][0]);
    expect(seen.at(-1)).toEqual([seen[0][1], seen[0][1]]);
    // Abort from the event loop (a timer) while the parse runs: it stops at the next checkpoint.
    const controller = new AbortController();
    let checkpoints = 0;
    const parse = parseStlAsync(input, 'grid.stl', {
      signal: controller.signal,
      onProgress: () => {
        if (++checkpoints === 2) setTimeout(() => controller.abort(), 0);
      },
      yieldToHost: () => new Promise((r) => setImmediate(r)),
    });
    const err = await parse.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).code).toBe('aborted');
    expect(checkpoints).toBeLessThan(8);
  });

  it('welding in steps equals a keyed oracle, also across checkpoints (seed 6009)', () => {
    /** First occurrence of each exact coordinate triple (−0 as 0), triangles as given. */
    const oracle = (positions: Float64Array): { positions: number[]; indices: number[] } => {
      const seen = new Map<string, number>();
      const out: number[] = [];
      const indices: number[] = [];
      for (let v = 0; v < positions.length / 3; v++) {
        const p = [positions[3 * v] + 0, positions[3 * v + 1] + 0, positions[3 * v + 2] + 0];
        const key = p.join(',');
        let w = seen.get(key);
        if (w === undefined) {
          w = seen.size;
          seen.set(key, w);
          out.push(...p);
        }
        indices.push(w);
      }
      return { positions: out, indices };
    };
    fc.assert(
      fc.property(fc.array(fc.constantFrom(0, -0, 1, 2, 0.5, 1e300, -3), { minLength: 0, maxLength: 120 }), (xs) => {
        const positions = Float64Array.from(xs.slice(0, xs.length - (xs.length % 3)));
        const a = weld(positions);
        const b = oracle(positions);
        expect(Array.from(a.positions)).toEqual(b.positions);
        expect(Array.from(a.indices)).toEqual(b.indices);
      }),
      { seed: 6009, numRuns: 500 },
    );
    // More vertices than one step: the checkpoint comes, and the hash table carries across it.
    const n = WELD_STEP_VERTICES + 1234;
    const positions = new Float64Array(3 * n);
    for (let i = 0; i < 3 * n; i++) positions[i] = (Math.imul(i + 1, 2654435761) >>> 0) % 61;
    const steps = weldSteps(positions);
    const checkpoints: number[] = [];
    let r = steps.next();
    while (!r.done) {
      checkpoints.push(r.value);
      r = steps.next();
    }
    expect(checkpoints).toEqual([WELD_STEP_VERTICES]);
    const b = oracle(positions);
    expect(Array.from(r.value.indices)).toEqual(b.indices);
    expect(Array.from(r.value.positions)).toEqual(b.positions);
  });
});
