import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assignPartIds, parseAssembly } from '../../../src-core/assembly/format.js';
import { AssemblyError } from '../../../src-core/assembly/model.js';
import type { AssemblyDoc } from '../../../src-core/assembly/model.js';
import { colorToHex, resolveAssembly, resolveAssemblyText } from '../../../src-core/assembly/resolve.js';
import type { ImportFunction, SourceLoader } from '../../../src-core/assembly/resolve.js';
import { createDefaultRegistry } from '../../../src-core/io/registry.js';
import { DEFAULT_IMPORT_LIMITS } from '../../../src-core/io/limits.js';
import { ImportError } from '../../../src-core/io/types.js';
import type { ImportOptions, ImportedBody } from '../../../src-core/io/types.js';

const ASSEMBLIES = path.resolve(process.cwd(), 'test/data/assemblies');
const registry = createDefaultRegistry();
const stlImport: ImportFunction = (bytes, fileName, options) => registry.import(bytes, fileName, options);

function readShared(name: string): string {
  return readFileSync(path.join(ASSEMBLIES, name), 'utf8');
}

/** A loader reading relative to the shared assemblies folder, counting reads per path. */
function countingLoader(): { loader: SourceLoader; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const loader: SourceLoader = async (rel) => {
    reads.set(rel, (reads.get(rel) ?? 0) + 1);
    return new Uint8Array(readFileSync(path.resolve(ASSEMBLIES, rel)));
  };
  return { loader, reads };
}

/** An importer counting its calls per file name. */
function countingImporter(inner: ImportFunction = stlImport): { importer: ImportFunction; calls: Map<string, ImportOptions | undefined>[] } {
  const calls: Map<string, ImportOptions | undefined>[] = [];
  const importer: ImportFunction = async (bytes, fileName, options) => {
    calls.push(new Map([[fileName, options]]));
    return inner(bytes, fileName, options);
  };
  return { importer, calls };
}

function body(name: string, triangles = 1, color: [number, number, number] | null = null): ImportedBody {
  const positions = new Float64Array(9 * triangles);
  for (let t = 0; t < triangles; t++) positions.set([t, 0, 0, t + 1, 0, 0, t, 1, 0], 9 * t);
  return { name, color, positions, indices: Uint32Array.from({ length: 3 * triangles }, (_, i) => i), triangleCount: triangles, faceRanges: null };
}

/** A fake importer: bodies per file name. */
function fakeImporter(bodiesByFile: Record<string, ImportedBody[]>, warnings: string[] = []): ImportFunction {
  return async (_bytes, fileName) => {
    const bodies = bodiesByFile[fileName];
    if (bodies === undefined) throw new ImportError('unknown-format', fileName, 'not a file this fake reads');
    return { format: 'fake', bodies, warnings };
  };
}

const anyBytes: SourceLoader = async () => new Uint8Array([1, 2, 3]);

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

const TWO_SOURCES = `{
  "format": "interfere-assembly",
  "version": 1,
  "sources": [
    { "id": "a", "path": "a.fake" },
    { "id": "b", "path": "sub/b.fake", "units": "in" }
  ],
  "parts": [
    { "id": "a0", "source": "a", "body": 0 },
    { "id": "b1", "name": "named", "source": "b", "body": 1, "color": "#102030", "visible": false,
      "transform": [0,-1,0,5,  1,0,0,6,  0,0,1,7,  0,0,0,1] },
    { "id": "a1", "source": "a", "body": 1 }
  ]
}
`;

describe('resolveAssembly with the real STL importer', () => {
  const cases = [
    { file: 'stl-gear-polytopes.assembly.json', parts: 4, triangles: 2472, sources: 4 },
    { file: 'fanuc-zero.assembly.json', parts: 7, triangles: 6934, sources: 7 },
    { file: 'so101-zero.assembly.json', parts: 17, triangles: 398_884, sources: 13 },
  ];
  for (const c of cases) {
    it(`${c.file}: ${c.parts} parts, ${c.triangles} triangles, each source read and imported once`, async () => {
      const doc = parseAssembly(readShared(c.file), c.file);
      const { loader, reads } = countingLoader();
      const { importer, calls } = countingImporter();
      const progress: [number, number, string | null][] = [];
      const r = await resolveAssembly(doc, loader, importer, { fileName: c.file, onProgress: (d, t, s) => progress.push([d, t, s]) });
      // The same document, with the names of every source's bodies recorded for the next save.
      expect({ ...r.doc, sources: r.doc.sources.map(({ bodyNames: _, ...s }) => s) }).toEqual(doc);
      expect(r.doc.sources.every((s) => s.bodyNames?.length === 1)).toBe(true);
      expect(r.parts).toHaveLength(c.parts);
      expect(r.parts.reduce((s, p) => s + p.body.triangleCount, 0)).toBe(c.triangles);
      expect(reads.size).toBe(c.sources);
      expect([...reads.values()].every((n) => n === 1)).toBe(true);
      expect(calls).toHaveLength(c.sources);
      expect(progress).toEqual([[0, c.sources, null], ...doc.sources.map((s, i): [number, number, string] => [i + 1, c.sources, s.id])]);
      expect(r.parts.map((p) => p.id)).toEqual(doc.parts?.map((p) => p.id));
      r.parts.forEach((p, i) => {
        const def = doc.parts![i];
        expect(p.sourceId).toBe(def.source);
        expect(p.bodyIndex).toBe(0);
        expect(p.transform).toBeInstanceOf(Float64Array);
        expect([...p.transform]).toEqual(def.transform ?? [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
        expect(p.name).toBe(def.name ?? (p.body.name !== '' ? p.body.name : p.id));
        expect(p.visible).toBe(true);
      });
    });
  }

  it('so101: the servo mesh placed five times is one imported body shared by five parts', async () => {
    const doc = parseAssembly(readShared('so101-zero.assembly.json'), 'so101');
    const r = await resolveAssembly(doc, countingLoader().loader, stlImport);
    const servos = r.parts.filter((p) => p.sourceId === 'sts3215-03a-v1');
    expect(servos).toHaveLength(5);
    expect(new Set(servos.map((p) => p.body)).size).toBe(1);
  });

  it('passes each source its units: the gear case reads cube.ascii.stl as centimetres', async () => {
    const doc = parseAssembly(readShared('stl-gear-polytopes.assembly.json'), 'gear');
    const { importer, calls } = countingImporter();
    const r = await resolveAssembly(doc, countingLoader().loader, importer);
    expect(calls.map((m) => [...m.values()][0]?.units ?? null)).toEqual([null, null, 'cm', null]);
    const block = r.parts.find((p) => p.id === 'block')!.body.positions;
    expect(Math.max(...block) - Math.min(...block)).toBeCloseTo(20, 9); // a 2 cm cube
    expect(r.parts.find((p) => p.id === 'block')!.name).toBe('cube'); // no part name: the body's
  });

  it('body out of range: an STL has only body 0', async () => {
    const text = readShared('stl-gear-polytopes.assembly.json').replace('"id": "base",\n      "source": "base",', '"id": "base",\n      "source": "base",\n      "body": 1,');
    const err = await rejection(resolveAssemblyText(text, 'gear.assembly.json', countingLoader().loader, stlImport));
    expect(err).toBeInstanceOf(AssemblyError);
    const e = err as AssemblyError;
    expect(e.field).toBe('parts[1].body');
    expect(e.line).toBe(text.slice(0, text.indexOf('"body": 1')).split('\n').length);
    expect(e.message).toContain("gear.assembly.json:");
    expect(e.message).toContain("part 'base' uses body 1 of source 'base' (../stl-models/polytopes/cubeLarge.ascii.stl), which has only 1 body (index 0)");
  });
});

describe('resolveAssembly: errors', () => {
  it('a missing file names the source id and path', async () => {
    const text = readShared('as1-oc-214-moved.assembly.json');
    const enoent: SourceLoader = async (rel) => {
      throw Object.assign(new Error(`ENOENT: no such file or directory, open '${rel}'`), { code: 'ENOENT' });
    };
    const err = await rejection(resolveAssemblyText(text, 'moved.assembly.json', enoent, stlImport));
    expect(err).toBeInstanceOf(AssemblyError);
    const e = err as AssemblyError;
    expect(e.problem).toBe("source 'as1' (../cax-if-as1/as1-oc-214.stp): file not found");
    expect(e.field).toBe('sources[0].path');
    expect(e.line).toBe(text.slice(0, text.indexOf('"path"')).split('\n').length);
    expect(e.message).toBe(`moved.assembly.json:${e.line}: sources[0].path: source 'as1' (../cax-if-as1/as1-oc-214.stp): file not found`);
    expect((e.cause as { code?: string }).code).toBe('ENOENT');
  });

  it("a loader error's own problem text is used", async () => {
    const doc = parseAssembly(TWO_SOURCES, 'two');
    const denied: SourceLoader = async () => {
      throw Object.assign(new Error('/abs/a.fake: permission denied'), { problem: 'permission denied', code: 'EACCES' });
    };
    const e = (await rejection(resolveAssembly(doc, denied, fakeImporter({})))) as AssemblyError;
    expect(e.problem).toBe("source 'a' (a.fake): permission denied");
  });

  it('an import error names the source and keeps the importer\'s problem', async () => {
    const doc = parseAssembly(TWO_SOURCES, 'two');
    const e = (await rejection(resolveAssembly(doc, anyBytes, fakeImporter({ 'a.fake': [body('x'), body('y')] }), { fileName: 'two.assembly.json' }))) as AssemblyError;
    expect(e).toBeInstanceOf(AssemblyError);
    expect(e.problem).toBe("source 'b' (sub/b.fake): not a file this fake reads");
    expect(e.field).toBe('sources[1]');
    expect(e.line).toBe(6);
    expect(e.cause).toBeInstanceOf(ImportError);
  });

  it('a real STL import error (an STL file that is not one)', async () => {
    const text = readShared('stl-gear-polytopes.assembly.json');
    const garbage: SourceLoader = async (rel) => (rel.includes('tetra') ? new Uint8Array(100).fill(7) : new Uint8Array(readFileSync(path.resolve(ASSEMBLIES, rel))));
    const e = (await rejection(resolveAssemblyText(text, 'gear', garbage, stlImport))) as AssemblyError;
    expect(e.message).toContain("source 'tetra' (../stl-models/polytopes/tetrahedronIrregular.bin.stl): binary STL");
  });

  it('a non-rigid transform in a document built in code names the part', async () => {
    const doc = parseAssembly(TWO_SOURCES, 'two');
    const bad: AssemblyDoc = { ...doc, parts: doc.parts!.map((p) => (p.id === 'a1' ? { ...p, transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, NaN, 0, 0, 0, 0, 1] } : p)) };
    const e = (await rejection(resolveAssembly(bad, anyBytes, fakeImporter({ 'a.fake': [body('x'), body('y')], 'sub/b.fake': [body('p'), body('q')] })))) as AssemblyError;
    expect(e.field).toBe('parts[2].transform');
    expect(e.message).toContain("part 'a1': transform entry 10 is not a finite number (NaN)");
  });

  it('a part naming a source the document does not list (built in code)', async () => {
    const doc = parseAssembly(TWO_SOURCES, 'two');
    const bad: AssemblyDoc = { ...doc, parts: [{ id: 'bolt-1', source: 'as2', body: 0 }] };
    const e = (await rejection(resolveAssembly(bad, anyBytes, fakeImporter({})))) as AssemblyError;
    expect(e.problem).toBe("part 'bolt-1' refers to source 'as2', which the file does not list");
  });

  it('body out of range with several bodies says how many', async () => {
    const doc = parseAssembly(TWO_SOURCES.replace('"body": 1, "color"', '"body": 7, "color"'), 'two');
    const e = (await rejection(resolveAssembly(doc, anyBytes, fakeImporter({ 'a.fake': [body('x'), body('y')], 'sub/b.fake': [body('p'), body('q'), body('r')] }), { fileName: 'two' }))) as AssemblyError;
    expect(e.message).toBe("two:10: parts[1].body: part 'b1' uses body 7 of source 'b' (sub/b.fake), which has 3 bodies (indices 0 to 2)");
  });

  it('aborts between sources', async () => {
    const doc = parseAssembly(TWO_SOURCES, 'two');
    const signal = { aborted: false };
    let reads = 0;
    const loader: SourceLoader = async () => {
      reads++;
      return new Uint8Array(1);
    };
    const err = await rejection(resolveAssembly(doc, loader, fakeImporter({ 'a.fake': [body('x'), body('y')], 'sub/b.fake': [body('p'), body('q')] }), {
      signal,
      onProgress: (done) => {
        if (done === 1) signal.aborted = true;
      },
    }));
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).code).toBe('aborted');
    expect(reads).toBe(1);
    // the signal reaches the importer too
    let seen: unknown = null;
    await resolveAssembly(doc, loader, async (_b, f, o) => {
      seen = o?.signal;
      return { format: 'fake', bodies: f === 'a.fake' ? [body('x'), body('y')] : [body('p'), body('q')], warnings: [] };
    }, { signal: { aborted: false } });
    expect(seen).toEqual({ aborted: false });
  });

  it('an abort inside the importer propagates unchanged', async () => {
    const doc = parseAssembly(TWO_SOURCES, 'two');
    const aborting: ImportFunction = async (_b, f) => {
      throw new ImportError('aborted', f, 'import was cancelled');
    };
    const err = await rejection(resolveAssembly(doc, anyBytes, aborting));
    expect(err).toBeInstanceOf(ImportError);
  });
});

describe('resolveAssembly: parts, names, colours, warnings', () => {
  it('takes name, colour, visibility and transform from the part, else from the body', async () => {
    const doc = parseAssembly(TWO_SOURCES, 'two');
    const aBodies = [body(''), body('second', 2, [1, 0.5, 0])];
    const r = await resolveAssembly(doc, anyBytes, fakeImporter({
      'a.fake': aBodies,
      'sub/b.fake': [body('p'), body('q', 1, [0, 0, 1])],
    }, ['a warning']));
    expect(r.parts.map((p) => [p.id, p.name, p.sourceId, p.bodyIndex, p.color, p.visible])).toEqual([
      ['a0', 'a0', 'a', 0, null, true],
      ['b1', 'named', 'b', 1, '#102030', false],
      ['a1', 'second', 'a', 1, '#ff8000', true],
    ]);
    expect([...r.parts[1].transform]).toEqual([0, -1, 0, 5, 1, 0, 0, 6, 0, 0, 1, 7, 0, 0, 0, 1]);
    expect(r.parts[2].body.triangleCount).toBe(2);
    expect(r.parts[2].body).toBe(aBodies[1]); // the imported body itself, not a copy
    expect(r.warnings).toEqual(["source 'a' (a.fake): a warning", "source 'b' (sub/b.fake): a warning"]);
  });

  it('a source no part uses is not read, with a warning', async () => {
    const doc = parseAssembly(TWO_SOURCES.replace(/,\n {4}\{ "id": "b1"[\s\S]*?\}\n {6}?/, '').replace(/\{ "id": "b1".*\n.*\n/, ''), 'two');
    expect(doc.parts?.map((p) => p.id)).toEqual(['a0', 'a1']);
    const read: string[] = [];
    const r = await resolveAssembly(doc, async (p) => {
      read.push(p);
      return new Uint8Array(1);
    }, fakeImporter({ 'a.fake': [body('x'), body('y')] }));
    expect(read).toEqual(['a.fake']);
    expect(r.warnings).toEqual(["source 'b' (sub/b.fake) is not used by any part and was not read"]);
  });

  it('no parts list: every body of every source in source order at identity, ids prefixed by source', async () => {
    const text = TWO_SOURCES.replace(/,\n {2}"parts": \[[\s\S]*\]\n/, ',\n  "ignore": [ { "a": "a-gear-0", "b": "b-nothing-9" } ]\n');
    const doc = parseAssembly(text, 'two');
    expect(doc.parts).toBeNull();
    const r = await resolveAssembly(doc, anyBytes, fakeImporter({
      'a.fake': [body('Gear'), body('')],
      'sub/b.fake': [body('p', 1, [0, 1, 0])],
    }));
    expect(r.parts.map((p) => [p.id, p.name, p.sourceId, p.bodyIndex, p.color])).toEqual([
      ['a-gear-0', 'Gear', 'a', 0, null],
      ['a-body-1', 'a-body-1', 'a', 1, null],
      ['b-p-0', 'p', 'b', 0, '#00ff00'],
    ]);
    for (const p of r.parts) expect([...p.transform]).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(r.warnings).toEqual(["the ignore rule a-gear-0/b-nothing-9 names 'b-nothing-9', which is not one of the parts assigned to the bodies"]);
  });

  it('no parts list and one source: ids as for a bare file', async () => {
    const doc = parseAssembly('{"format":"interfere-assembly","version":1,"sources":[{"id":"s","path":"x.fake"}]}', 'one');
    const r = await resolveAssembly(doc, anyBytes, fakeImporter({ 'x.fake': [body('nut'), body('nut'), body('rod')] }));
    expect(r.parts.map((p) => p.id)).toEqual(assignPartIds(['nut', 'nut', 'rod']));
    expect(r.parts.map((p) => p.id)).toEqual(['nut-0', 'nut-1', 'rod-2']);
  });

  it('an empty document resolves to no parts without reading anything', async () => {
    const doc = parseAssembly('{"format":"interfere-assembly","version":1,"sources":[],"parts":[]}', 'empty');
    const r = await resolveAssembly(doc, async () => {
      throw new Error('no read expected');
    }, fakeImporter({}));
    expect(r.parts).toEqual([]);
  });

  it('colorToHex', () => {
    expect(colorToHex([1, 0.5, 0])).toBe('#ff8000');
    expect(colorToHex([2, -1, NaN])).toBe('#ff0000');
  });
});

describe('the triangle limit of an assembly', () => {
  it("holds the sources together to the importer's maxTrianglesPerAssembly, naming the source where it is reached", async () => {
    const files = { 'a.fake': [body('a0', 30), body('a1', 30)], 'sub/b.fake': [body('b0', 30), body('b1', 30)] };
    const limited = (max: number): ImportFunction =>
      Object.assign(fakeImporter(files), { limits: { ...DEFAULT_IMPORT_LIMITS, maxTrianglesPerAssembly: max } });
    // 120 triangles in all: within a limit of 120, beyond one of 119.
    const ok = await resolveAssemblyText(TWO_SOURCES, 'two.assembly.json', anyBytes, limited(120));
    expect(ok.parts).toHaveLength(3);
    const err = await rejection(resolveAssemblyText(TWO_SOURCES, 'two.assembly.json', anyBytes, limited(119)));
    expect(err).toBeInstanceOf(AssemblyError);
    const message = (err as AssemblyError).message;
    expect(message).toContain('two.assembly.json');
    expect(message).toContain("the assembly's sources have 120 triangles in all, more than the limit of 119 triangles per assembly");
    expect(message).toContain('sub/b.fake');
    // Without limits of its own, an importer is held to the default.
    const plain = await resolveAssemblyText(TWO_SOURCES, 'two.assembly.json', anyBytes, fakeImporter(files));
    expect(plain.parts).toHaveLength(3);
  });
});

describe('resolveAssembly onSource', () => {
  it('gives each source its placed bodies and every part placing them, with its transform as written', async () => {
    const doc = parseAssembly(JSON.stringify({
      format: 'interfere-assembly', version: 1,
      sources: [{ id: 'two', path: 'two.stl' }, { id: 'one', path: 'one.stl' }],
      parts: [
        { id: 'p0', source: 'one', body: 0 },
        { id: 'p1', source: 'two', body: 1, transform: [1, 0, 0, 5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] },
        { id: 'p2', source: 'one', body: 0, transform: [1, 0, 0, 0, 0, 1, 0, 7, 0, 0, 1, 0, 0, 0, 0, 1] },
        { id: 'p3', source: 'two', body: 1 },
      ],
    }), 'a.assembly.json');
    const importer = fakeImporter({ 'two.stl': [body('a'), body('b')], 'one.stl': [body('c')] });
    const seen: [string, number[], { body: number; transform: readonly number[] | null }[]][] = [];
    await resolveAssembly(doc, anyBytes, importer, { onSource: (id, _r, placed, placements) => seen.push([id, [...placed], [...placements]]) });
    expect(seen).toEqual([
      ['two', [1], [{ body: 1, transform: [1, 0, 0, 5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] }, { body: 1, transform: null }]],
      ['one', [0], [{ body: 0, transform: null }, { body: 0, transform: [1, 0, 0, 0, 0, 1, 0, 7, 0, 0, 1, 0, 0, 0, 0, 1] }]],
    ]);
  });
});
