import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ImporterRegistry, createDefaultRegistry, CONFIDENT } from '../../../src-core/io/registry.js';
import { stlImporter } from '../../../src-core/io/stl.js';
import { ImportError, describeKnownFormat, fileExtension, groupDigits } from '../../../src-core/io/types.js';
import type { ImportErrorCode, ImportResult, Importer } from '../../../src-core/io/types.js';

const DATA = path.resolve(process.cwd(), 'test/data');

function read(rel: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(DATA, rel)));
}

function text(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, 'utf8'));
}

async function expectRejects(p: Promise<unknown>, code: ImportErrorCode, fileName: string): Promise<ImportError> {
  let caught: unknown;
  try {
    await p;
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ImportError);
  const err = caught as ImportError;
  expect(err.code).toBe(code);
  expect(err.message.startsWith(`${fileName}: `)).toBe(true);
  expect(err.fileName).toBe(fileName);
  return err;
}

function expectThrows(fn: () => unknown, code: ImportErrorCode, fileName: string): ImportError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ImportError);
  const err = caught as ImportError;
  expect(err.code).toBe(code);
  expect(err.message.startsWith(`${fileName}: `)).toBe(true);
  return err;
}

/** A stand-in importer: claims files that start with its magic word. */
function fakeImporter(id: string, magic: string, confidence: number, extensions: string[], result?: Partial<ImportResult>): Importer {
  return {
    id,
    label: id.toUpperCase(),
    extensions,
    sniff: (bytes) => (Buffer.from(bytes.subarray(0, magic.length)).toString('latin1') === magic ? confidence : 0),
    async import(): Promise<ImportResult> {
      return { format: id, bodies: [], warnings: [], ...result };
    },
  };
}

const PNG = (() => {
  const b = new Uint8Array(300);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  return b;
})();

describe('registry: detection by content', () => {
  const registry = createDefaultRegistry();

  it('holds the STL importer; extensions for file dialogs', () => {
    expect(registry.importers.map((i) => i.id)).toEqual(['stl']);
    expect(registry.extensions()).toEqual(['stl']);
  });

  it('picks the STL importer for binary and ASCII STL, whatever the name', () => {
    for (const [file, name] of [
      ['stl-models/polytopes/cube.bin.stl', 'cube.bin.stl'],
      ['stl-models/polytopes/cube.ascii.stl', 'cube.ascii.stl'],
      ['stl-models/broken/wrongHeader.bin.stl', 'wrongHeader.bin.stl'], // binary beginning with "solid"
      ['stl-online3dviewer/single_triangle_with_comments.stl', 'c.stl'], // begins with a # comment
      ['robot-fanuc-m10ia/meshes/collision/link_1.stl', 'link_1.stl'],
      ['stl-models/polytopes/cube.bin.stl', 'cube.step'], // misleading name: content decides
      ['stl-models/polytopes/cube.ascii.stl', 'no-extension'],
    ]) {
      const found = registry.detect(read(file), name);
      expect(found?.importer.id, file).toBe('stl');
      expect(found!.confidence).toBeGreaterThanOrEqual(CONFIDENT);
      expect(registry.choose(read(file), name)).toBe(stlImporter);
    }
  });

  it('imports through the chosen importer', async () => {
    const r = await registry.import(read('stl-models/objects/gearwheel.bin.stl'), 'gearwheel.bin.stl', { units: 'cm' });
    expect(r.format).toBe('stl-binary');
    expect(r.bodies[0].triangleCount).toBe(2444);
    const ascii = await registry.import(read('stl-models/polytopes/cube.ascii.stl'), 'cube.txt');
    expect(ascii.format).toBe('stl-ascii');
  });

  it('STL errors come through unchanged (broken files)', async () => {
    await expectRejects(registry.import(read('stl-models/broken/fourVertices.ascii.stl'), 'fourVertices.ascii.stl'), 'wrong-vertex-count', 'fourVertices.ascii.stl');
    await expectRejects(registry.import(read('stl-models/misc/faceless.ascii.stl'), 'faceless.ascii.stl'), 'no-triangles', 'faceless.ascii.stl');
    await expectRejects(registry.import(read('stl-models/broken/empty.stl'), 'empty.stl'), 'empty-file', 'empty.stl');
  });

  it('a damaged binary STL is explained by the STL importer when the name says .stl, else unknown-format', async () => {
    const bytes = read('stl-models/broken/incorrectFaceCounter.bin.stl');
    const named = await expectRejects(registry.import(bytes, 'incorrectFaceCounter.bin.stl'), 'count-mismatch', 'incorrectFaceCounter.bin.stl');
    expect(named.message).toContain('header says 66 triangles');
    await expectRejects(registry.import(bytes, 'incorrectFaceCounter.dat'), 'unknown-format', 'incorrectFaceCounter.dat');
    const upper = await expectRejects(registry.import(bytes, 'C:\\parts\\BRACKET.STL'), 'count-mismatch', 'C:\\parts\\BRACKET.STL');
    expect(upper.fileName).toBe('C:\\parts\\BRACKET.STL');
  });

  it('a PNG is an unknown format that says what it looks like', async () => {
    const err = await expectRejects(registry.import(PNG, 'photo.png'), 'unknown-format', 'photo.png');
    expect(err.message).toBe('photo.png: unknown file format: it looks like a PNG image, which no importer reads (supported: STL)');
    // Named .stl, the STL importer explains instead.
    const asStl = await expectRejects(registry.import(PNG, 'photo.stl'), 'not-stl', 'photo.stl');
    expect(asStl.message).toContain('a PNG image');
  });

  it('STEP, IGES and BREP files are unknown formats until their importer is registered', async () => {
    for (const [file, looks] of [
      ['cax-if-as1/as1-oc-214.stp', 'a STEP file'],
      ['endgame-trackball/SLA.step', 'a STEP file'],
      ['iges-sunglasses-lens/sunglasses_lens.igs', 'an IGES file'],
      ['occt-motor-brep/Motor-c.brep', 'an OpenCascade BREP file'],
      ['cax-if-as1/as1_pe_203.brep', 'an OpenCascade BREP file'],
    ]) {
      const name = path.basename(file);
      const bytes = read(file);
      expect(describeKnownFormat(bytes)).toBe(looks);
      expect(stlImporter.sniff(bytes)).toBe(0);
      const err = await expectRejects(registry.import(bytes, name), 'unknown-format', name);
      expect(err.message).toContain(`it looks like ${looks}`);
    }
    await expectRejects(registry.import(text('ISO-10303-21;\nHEADER;\nENDSEC;\n'), 'part.stp'), 'unknown-format', 'part.stp');
  });

  it('random bytes are an unknown format (seed 99)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 400 }), async (bytes) => {
        fc.pre(bytes.some((b) => b !== 0x20 && (b < 0x09 || b > 0x0d)));
        const err = await expectRejects(registry.import(bytes, 'noise.bin'), 'unknown-format', 'noise.bin');
        expect(err.message).toContain('noise.bin: unknown file format');
      }),
      { seed: 99, numRuns: 300 },
    );
  });

  it('empty and whitespace-only files: empty-file, before any sniffing', async () => {
    await expectRejects(registry.import(new Uint8Array(0), 'nothing.step'), 'empty-file', 'nothing.step');
    const ws = await expectRejects(registry.import(text('\n\n  \t\r\n'), 'blank.igs'), 'empty-file', 'blank.igs');
    expect(ws.message).toBe('blank.igs: the file holds only whitespace (7 bytes)');
  });

  it('a file without a name still gets a message that says so', async () => {
    let caught: unknown;
    try {
      await registry.import(PNG, '');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ImportError);
    expect((caught as ImportError).fileName).toBe('');
    expect((caught as ImportError).message.startsWith('(unnamed file): unknown file format')).toBe(true);
  });

  it('an unknown unit is a RangeError', async () => {
    await expect(registry.import(read('stl-models/polytopes/cube.bin.stl'), 'c.stl', { units: 'furlong' as never })).rejects.toThrow(RangeError);
  });
});

describe('registry: several importers (the CAD importer joins later)', () => {
  const cadBody = {
    name: 'plate', color: [0.5, 0.5, 0.5] as [number, number, number],
    positions: new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]),
    triangleCount: 1, faceRanges: new Uint32Array([0, 0]),
  };

  it('a confident claim wins over the file name', () => {
    const reg = new ImporterRegistry([stlImporter, fakeImporter('cad', 'ISO-10303-21', 1, ['stp', 'step'])]);
    expect(reg.detect(text('ISO-10303-21;\n'), 'part.stl')?.importer.id).toBe('cad');
    expect(reg.detect(read('stl-models/polytopes/cube.bin.stl'), 'part.step')?.importer.id).toBe('stl');
  });

  it('equal confidence: the extension breaks the tie, then registration order', () => {
    const a = fakeImporter('a', 'MAGIC', 0.8, ['aaa']);
    const b = fakeImporter('b', 'MAGIC', 0.8, ['bbb']);
    const reg = new ImporterRegistry([a, b]);
    expect(reg.detect(text('MAGIC data'), 'x.bbb')?.importer.id).toBe('b');
    expect(reg.detect(text('MAGIC data'), 'x.aaa')?.importer.id).toBe('a');
    expect(reg.detect(text('MAGIC data'), 'x.zzz')?.importer.id).toBe('a');
    expect(reg.rank(text('MAGIC data'), 'x.bbb').map((d) => [d.importer.id, d.confidence, d.extensionMatches]))
      .toEqual([['b', 0.8, true], ['a', 0.8, false]]);
  });

  it('a weak claim counts only with a matching extension', () => {
    const reg = new ImporterRegistry([fakeImporter('w', 'WEAK', 0.2, ['wk'])]);
    expect(reg.detect(text('WEAK'), 'f.wk')?.importer.id).toBe('w');
    expect(reg.detect(text('WEAK'), 'f.other')).toBeNull();
    expectThrows(() => reg.choose(text('WEAK'), 'f.other'), 'unknown-format', 'f.other');
  });

  it('bodies with names, colours and B-rep face ranges pass through', async () => {
    const reg = new ImporterRegistry([stlImporter, fakeImporter('cad', 'ISO-10303-21', 1, ['stp'], { bodies: [cadBody] })]);
    const r = await reg.import(text('ISO-10303-21;\n'), 'plate.stp');
    expect(r.bodies[0]).toBe(cadBody);
    expect(Array.from(r.bodies[0].faceRanges!)).toEqual([0, 0]);
  });

  it('an importer that returns no bodies: no-bodies', async () => {
    const reg = new ImporterRegistry([fakeImporter('cad', 'ISO-10303-21', 1, ['stp'])]);
    const err = await expectRejects(reg.import(text('ISO-10303-21;\n'), 'hollow.stp'), 'no-bodies', 'hollow.stp');
    expect(err.message).toBe('hollow.stp: the CAD file holds no bodies');
  });

  it('an importer that throws something else: wrapped as an ImportError naming the file', async () => {
    const broken: Importer = {
      ...fakeImporter('cad', 'ISO-10303-21', 1, ['stp']),
      import: () => Promise.reject(new Error('wasm out of memory')),
    };
    const err = await expectRejects(new ImporterRegistry([broken]).import(text('ISO-10303-21;\n'), 'big.stp'), 'parse-error', 'big.stp');
    expect(err.message).toBe('big.stp: CAD import failed: wasm out of memory');
    expect((err.cause as Error).message).toBe('wasm out of memory');
  });

  it('a sniffer that throws makes no claim', () => {
    const bad: Importer = { ...fakeImporter('bad', 'X', 1, ['x']), sniff: () => { throw new Error('boom'); } };
    const reg = new ImporterRegistry([bad, stlImporter]);
    expect(reg.detect(read('stl-models/polytopes/cube.bin.stl'), 'c.x')?.importer.id).toBe('stl');
  });

  it('duplicate ids are refused; the cancel signal is honoured', async () => {
    expect(() => new ImporterRegistry([stlImporter, stlImporter])).toThrow(/already registered/);
    await expectRejects(createDefaultRegistry().import(PNG, 'p.png', { signal: { aborted: true } }), 'aborted', 'p.png');
  });
});

describe('io helpers', () => {
  it('groupDigits and fileExtension', () => {
    expect([0, 999, 1000, 60084, 4294967295, -1234].map(groupDigits)).toEqual(['0', '999', '1,000', '60,084', '4,294,967,295', '-1,234']);
    expect(['a.STL', 'dir.v2/part', 'x/y.tar.gz', '.hidden', 'C:\\a\\b.Step', ''].map(fileExtension)).toEqual(['stl', '', 'gz', '', 'step', '']);
  });
});
