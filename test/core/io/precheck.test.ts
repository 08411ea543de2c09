// ImporterRegistry.precheck decides from a file's first 64 KiB and its size only what the import
// of the whole file would decide: whenever it refuses, the full import refuses with the same code
// and message (the STL detection of stl.ts unchanged); when it cannot tell, it returns null.
import { describe, expect, it } from 'vitest';
import { createOcctImporters } from '../../../src-core/io/occt';
import { ImporterRegistry } from '../../../src-core/io/registry';
import { stlImporter } from '../../../src-core/io/stl';
import { ImportError } from '../../../src-core/io/types';

const HEAD = 64 * 1024;
const SIZE = HEAD + 50 * 1000 + 84 - 7; // more than the head; not 84 + 50·n for the counts below

/** STL plus the OpenCascade formats' sniffers (their import is never reached here). */
const registry = new ImporterRegistry([stlImporter, ...createOcctImporters(async () => { throw new Error('not loaded in this test'); })]);

function file(start: Uint8Array | string, size = SIZE, fill = 0): Uint8Array {
  const bytes = new Uint8Array(size).fill(fill);
  bytes.set(typeof start === 'string' ? new TextEncoder().encode(start) : start);
  return bytes;
}

async function fullImport(bytes: Uint8Array, name: string): Promise<ImportError | 'imported'> {
  try {
    await registry.import(bytes, name);
    return 'imported';
  } catch (e) {
    if (e instanceof ImportError) return e;
    throw e;
  }
}

const binaryCount = (n: number): Uint8Array => { const h = new Uint8Array(84); new DataView(h.buffer).setUint32(80, n, true); return h; };
const random = (n: number, seed: number): Uint8Array => { const b = new Uint8Array(n); let s = seed; for (let i = 0; i < n; i++) { s = (s * 1103515245 + 12345) >>> 0; b[i] = s >>> 24; } return b; };

const CASES: [string, Uint8Array, string][] = [
  ['zeros', file(new Uint8Array(0)), 'z.stl'],
  ['zeros, no extension', file(new Uint8Array(0)), 'z'],
  ['zeros, .bin', file(new Uint8Array(0)), 'z.bin'],
  ['zeros, .step (the STEP importer explains)', file(new Uint8Array(0)), 'z.step'],
  ['count 1000, 7 bytes short', file(binaryCount(1000)), 'short.stl'],
  ['random bytes', random(SIZE, 7), 'r.stl'],
  ['random bytes, no extension', random(SIZE, 9), 'r'],
  ['a PNG', file(Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)), 'img.stl'],
  ['text not beginning with solid', file('hello world\n'.repeat(10), SIZE, 0x20), 'text.stl'],
  ['solid then NULs (maybe ASCII: read)', file('solid x\n'), 'maybe.stl'],
  ['blanks then solid beyond the head', file(`${' '.repeat(HEAD + 10)}solid x\n`, SIZE, 0x20), 'late.stl'],
  ['STEP magic', file('ISO-10303-21;\n'), 'a.stl'],
  ['a comment first', file('/* a comment */'), 'c.stl'],
  ['binary STL, count fits the size', (() => { const n = 1400; const b = file(binaryCount(n), 84 + 50 * n); return b; })(), 'ok.stl'],
  ['binary STL beyond the triangle limit', file(binaryCount(2000)), 'many.stl'],
];

describe('ImporterRegistry.precheck', () => {
  it('refuses only what the full import refuses, with the same code and message', async () => {
    let refused = 0;
    for (const [label, bytes, name] of CASES) {
      const early = registry.precheck(bytes.subarray(0, HEAD), bytes.length, name, label.includes('limit') ? { maxTriangles: 1000 } : {});
      if (early === null) continue;
      refused++;
      const full = label.includes('limit') ? await registry.import(bytes, name, { maxTriangles: 1000 }).catch((e: unknown) => e) : await fullImport(bytes, name);
      expect(full, label).toBeInstanceOf(ImportError);
      expect([early.code, early.message], label).toEqual([(full as ImportError).code, (full as ImportError).message]);
    }
    expect(refused).toBeGreaterThanOrEqual(8);
  });

  it('cannot tell (null) where only the whole file can: possible ASCII, other formats, a fitting binary count', () => {
    const undecided = ['solid then NULs (maybe ASCII: read)', 'blanks then solid beyond the head', 'STEP magic', 'a comment first',
      'binary STL, count fits the size', 'zeros, .step (the STEP importer explains)'];
    for (const [label, bytes, name] of CASES.filter(([l]) => undecided.includes(l))) {
      expect(registry.precheck(bytes.subarray(0, HEAD), bytes.length, name), label).toBeNull();
    }
    // The whole file in hand: the import decides.
    const [, zeros] = CASES[0];
    expect(registry.precheck(zeros, zeros.length, 'z.stl')).toBeNull();
  });

  it('refuses a file beyond the size limit by its size alone', () => {
    const e = registry.precheck(new Uint8Array(100), 3 * 1024 ** 3, 'big.stl');
    expect(e?.code).toBe('too-large');
    expect(e?.message).toBe("big.stl: the file has 3 GiB (3,221,225,472 bytes), more than the limit of 2 GiB; raise it with the import limit 'maxFileBytes'");
  });
});
