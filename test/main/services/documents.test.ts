import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAssembly } from '../../../src-core/assembly/format.js';
import { AssemblyError } from '../../../src-core/assembly/model.js';
import type { AssemblyDoc } from '../../../src-core/assembly/model.js';
import type { ImportFunction } from '../../../src-core/assembly/resolve.js';
import { ImportError } from '../../../src-core/io/types.js';
import type { ImportedBody } from '../../../src-core/io/types.js';
import {
  defaultImporter, inputsInDocumentOrder, isAssemblyFile, openAny, openAssemblyFile, openModelFile, rebaseSourcePaths, saveAssemblyFile,
} from '../../../src-main/services/documents.js';
import { FileError, type FileRead } from '../../../src-main/services/files.js';

const DATA = path.resolve(process.cwd(), 'test/data');
const ASSEMBLIES = path.join(DATA, 'assemblies');
const GEAR_ASSEMBLY = path.join(ASSEMBLIES, 'stl-gear-polytopes.assembly.json');
const GEAR_STL = path.join(DATA, 'stl-models/objects/gearwheel.bin.stl');
const CUBE_STL = path.join(DATA, 'stl-models/polytopes/cube.ascii.stl');

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'interfere-documents-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

function triangles(r: { parts: { body: { triangleCount: number } }[] }): number {
  return r.parts.reduce((s, p) => s + p.body.triangleCount, 0);
}

function countingImporter(): { importer: ImportFunction; names: string[] } {
  const inner = defaultImporter();
  const names: string[] = [];
  return {
    names,
    importer: (bytes, fileName, options) => {
      names.push(fileName);
      return inner(bytes, fileName, options);
    },
  };
}

describe('openAssemblyFile', () => {
  it('the STL assemblies: sources relative to the assembly folder, each imported once', async () => {
    const cases: [string, number, number, number][] = [
      ['stl-gear-polytopes', 4, 2472, 4],
      ['fanuc-zero', 7, 6934, 7],
      ['so101-zero', 17, 398_884, 13],
    ];
    let allParts = 0;
    for (const [name, parts, tris, sources] of cases) {
      const { importer, names } = countingImporter();
      const progress: number[] = [];
      const r = await openAssemblyFile(path.join(ASSEMBLIES, `${name}.assembly.json`), { importer, onProgress: (d) => progress.push(d) });
      expect(r.parts).toHaveLength(parts);
      expect(triangles(r)).toBe(tris);
      expect(names).toHaveLength(sources);
      expect(new Set(names).size).toBe(sources);
      expect(progress).toEqual(Array.from({ length: sources + 1 }, (_, i) => i));
      expect(r.warnings).toEqual([]);
      allParts += parts;
    }
    expect(allParts).toBe(28);
  });

  it('takes a path relative to the working folder', async () => {
    const r = await openAssemblyFile(path.relative(process.cwd(), GEAR_ASSEMBLY));
    expect(r.parts.map((p) => p.id)).toEqual(['gear', 'base', 'block', 'tetra']);
  });

  it('a source file that is not there: the assembly file, line, source id and path', async () => {
    const copy = path.join(dir, 'gear.assembly.json');
    copyFileSync(GEAR_ASSEMBLY, copy);
    const err = await rejection(openAssemblyFile(copy));
    expect(err).toBeInstanceOf(AssemblyError);
    const e = err as AssemblyError;
    const text = readFileSync(copy, 'utf8');
    const line = text.slice(0, text.indexOf('"path"')).split('\n').length;
    expect(e.message).toBe(`${copy}:${line}: sources[0].path: source 'gear' (../stl-models/objects/gearwheel.bin.stl): file not found`);
    expect(e.cause).toBeInstanceOf(FileError);
  });

  it('the assembly file itself missing, or invalid', async () => {
    const missing = path.join(dir, 'none.assembly.json');
    const err = await rejection(openAssemblyFile(missing));
    expect(err).toBeInstanceOf(FileError);
    expect((err as FileError).message).toBe(`${missing}: file not found`);

    const newer = path.join(dir, 'newer.assembly.json');
    writeFileSync(newer, readFileSync(GEAR_ASSEMBLY, 'utf8').replace('"version": 1', '"version": 2'));
    const e = (await rejection(openAssemblyFile(newer))) as AssemblyError;
    expect(e).toBeInstanceOf(AssemblyError);
    expect(e.message).toContain(`${newer}:3: version: written by a newer version of Interfere`);
  });

  it('aborts', async () => {
    const err = await rejection(openAssemblyFile(GEAR_ASSEMBLY, { signal: { aborted: true } }));
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).code).toBe('aborted');
  });
});

describe('openModelFile', () => {
  it('a bare STL: one part at identity with the id the checker assigns', async () => {
    const { importer, names } = countingImporter();
    const r = await openModelFile(GEAR_STL, { importer });
    expect(names).toEqual([GEAR_STL]); // imported once
    expect(r.parts).toHaveLength(1);
    const [p] = r.parts;
    expect(p.id).toBe('gearwheel-0');
    expect(p.name).toBe('gearwheel');
    expect(p.body.triangleCount).toBe(2444);
    expect([...p.transform]).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(r.doc.sources).toEqual([{ id: 'gearwheel-bin', path: 'gearwheel.bin.stl', bodyNames: ['gearwheel'] }]);
    expect(r.doc.parts).toEqual([{ id: 'gearwheel-0', name: 'gearwheel', source: 'gearwheel-bin', body: 0 }]);
    expect(r.doc.settings).toEqual({ touchToleranceMm: null, clearanceMm: 0, contactIsInterference: false });
  });

  it('units for a bare STL', async () => {
    const r = await openModelFile(CUBE_STL, { units: 'cm' });
    const pos = r.parts[0].body.positions;
    expect(Math.max(...pos) - Math.min(...pos)).toBeCloseTo(20, 9);
    expect(r.doc.sources[0].units).toBe('cm');
  });

  it('several bodies from an injected importer (the OpenCascade one plugs in the same way)', async () => {
    const body = (name: string): ImportedBody => ({ name, color: null, positions: new Float64Array(9), indices: new Uint32Array([0, 1, 2]), triangleCount: 1, faceRanges: null });
    let calls = 0;
    const importer: ImportFunction = async () => {
      calls++;
      return { format: 'step', bodies: [body('nut'), body('nut'), body('rod'), body('')], warnings: ['one face skipped'] };
    };
    const file = path.join(dir, 'as1.stp');
    writeFileSync(file, 'ISO-10303-21;');
    const r = await openModelFile(file, { importer });
    expect(calls).toBe(1);
    expect(r.parts.map((p) => [p.id, p.name, p.bodyIndex])).toEqual([['nut-0', 'nut', 0], ['nut-1', 'nut', 1], ['rod-2', 'rod', 2], ['body-3', 'body-3', 3]]);
    expect(r.warnings).toEqual(["source 'as1' (as1.stp): one face skipped"]);
  });

  it('a broken STL: the import error names the file', async () => {
    const file = path.join(dir, 'broken.stl');
    writeFileSync(file, Buffer.alloc(200, 1));
    const err = await rejection(openModelFile(file));
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).message.startsWith(`${file}: `)).toBe(true);
  });
});

describe('openAny', () => {
  it('decides by extension, then by content', async () => {
    const a = await openAny(GEAR_ASSEMBLY);
    expect(a.kind).toBe('assembly');
    expect(a.path).toBe(GEAR_ASSEMBLY);
    expect(a.assembly.parts).toHaveLength(4);

    const m = await openAny(GEAR_STL);
    expect(m.kind).toBe('model');
    expect(m.assembly.parts).toHaveLength(1);

    // no telling extension: JSON content is an assembly, STL content a model
    const noExt = path.join(dir, 'assembly-without-extension');
    const toShared = path.relative(dir, ASSEMBLIES).split(path.sep).join('/');
    writeFileSync(noExt, readFileSync(GEAR_ASSEMBLY, 'utf8').replace(/"\.\.\//g, `"${toShared}/../`));
    const j = await openAny(noExt);
    expect(j.kind).toBe('assembly');
    expect(triangles(j.assembly)).toBe(2472);

    const stlNoExt = path.join(dir, 'cube');
    copyFileSync(CUBE_STL, stlNoExt);
    expect((await openAny(stlNoExt)).kind).toBe('model');
  });

  it('lists its input files in one order: the opened file, then the sources as the document lists them', async () => {
    const a = await openAny(GEAR_ASSEMBLY);
    const sources = (JSON.parse(readFileSync(GEAR_ASSEMBLY, 'utf8')) as { sources: { path: string }[] }).sources;
    expect(a.inputs.map((f) => f.path)).toEqual([GEAR_ASSEMBLY, ...sources.map((s) => path.resolve(ASSEMBLIES, s.path))]);
    expect(a.inputs.map((f) => f.role)).toEqual(['assembly', 'source', 'source', 'source', 'source']);
  });

  it('orders reads that finished in any order (parallel reads) by the document', () => {
    const doc = { sources: [{ id: 's1', path: 'a.stl' }, { id: 's2', path: 'b.stp' }, { id: 's3', path: 'c.stl' }] } as unknown as AssemblyDoc;
    const read = (p: string): FileRead => ({ path: `/w/${p}`, sizeBytes: 1, modifiedAt: '2026-01-01T00:00:00.000Z', sha256: '0'.repeat(64) });
    const reads: [FileRead, string | null][] = [
      [read('c.stl'), 'c.stl'], [read('unlisted-2.stl'), 'unlisted-2.stl'], [read('a.stl'), 'a.stl'],
      [read('x.assembly.json'), null], [read('unlisted-1.stl'), 'unlisted-1.stl'], [read('b.stp'), 'b.stp'],
    ];
    const inputs = inputsInDocumentOrder(reads, doc);
    expect(inputs.map((f) => f.path)).toEqual(['/w/x.assembly.json', '/w/a.stl', '/w/b.stp', '/w/c.stl', '/w/unlisted-2.stl', '/w/unlisted-1.stl']);
    expect(inputs.map((f) => f.sourceId)).toEqual([null, 's1', 's2', 's3', 'unlisted-2.stl', 'unlisted-1.stl']);
    // A bare model: the file alone.
    expect(inputsInDocumentOrder([[read('m.stl'), null]], null).map((f) => f.role)).toEqual(['assembly']);
  });

  it('isAssemblyFile', () => {
    const text = (s: string): Uint8Array => new Uint8Array(Buffer.from(s));
    expect(isAssemblyFile('a.assembly.json', text('solid x'))).toBe(true);
    expect(isAssemblyFile('A.JSON', text(''))).toBe(true);
    expect(isAssemblyFile('a.stl', text('{'))).toBe(false);
    expect(isAssemblyFile('a.STEP', text('{'))).toBe(false);
    expect(isAssemblyFile('noext', text('\uFEFF \n\t{ "format": 1 }'))).toBe(true);
    expect(isAssemblyFile('noext', text('solid cube'))).toBe(false);
    expect(isAssemblyFile('dir.v2/noext', text('{}'))).toBe(true);
    expect(isAssemblyFile('x.txt', new Uint8Array(0))).toBe(false);
  });
});

describe('saveAssemblyFile', () => {
  it('Save As into another folder rewrites the source paths; the saved file opens with the same parts', async () => {
    const opened = await openAssemblyFile(GEAR_ASSEMBLY);
    const target = path.join(dir, 'deep', 'er', 'gear copy.assembly.json');
    mkdirSync(path.dirname(target), { recursive: true });
    const saved = await saveAssemblyFile(target, opened.doc, { fromPath: GEAR_ASSEMBLY });
    for (const [i, s] of saved.sources.entries()) {
      expect(path.isAbsolute(s.path)).toBe(false);
      expect(s.path).not.toContain('\\');
      expect(path.resolve(path.dirname(target), s.path)).toBe(path.resolve(ASSEMBLIES, opened.doc.sources[i].path));
      expect(s.units).toBe(opened.doc.sources[i].units);
    }
    expect(saved.parts).toBe(opened.doc.parts);
    expect(parseAssembly(readFileSync(target, 'utf8'), target)).toStrictEqual(saved);
    const reopened = await openAssemblyFile(target);
    expect(reopened.parts.map((p) => p.id)).toEqual(opened.parts.map((p) => p.id));
    expect(triangles(reopened)).toBe(2472);
    expect(readdirSync(path.dirname(target))).toEqual(['gear copy.assembly.json']);
  });

  it('Save in place keeps the paths and replaces the file', async () => {
    const copy = path.join(dir, 'a.assembly.json');
    const doc = parseAssembly(readFileSync(GEAR_ASSEMBLY, 'utf8'), 'x');
    writeFileSync(copy, 'old content');
    const saved = await saveAssemblyFile(copy, doc);
    expect(saved).toBe(doc);
    expect(parseAssembly(readFileSync(copy, 'utf8'), copy)).toStrictEqual(doc);
    // and again, from its own path
    expect(await saveAssemblyFile(copy, doc, { fromPath: copy })).toBe(doc);
    expect(readdirSync(dir)).toEqual(['a.assembly.json']);
  });

  it('a bare model saved as an assembly elsewhere points back at the model file', async () => {
    const model = await openModelFile(GEAR_STL);
    const target = path.join(dir, 'gear.assembly.json');
    const saved = await saveAssemblyFile(target, model.doc, { fromPath: GEAR_STL });
    expect(path.resolve(dir, saved.sources[0].path)).toBe(GEAR_STL);
    const reopened = await openAssemblyFile(target);
    expect(reopened.parts.map((p) => p.id)).toEqual(['gearwheel-0']);
    expect(reopened.parts[0].body.triangleCount).toBe(2444);
  });

  it('a folder that does not exist: FileError naming the target', async () => {
    const doc = parseAssembly(readFileSync(GEAR_ASSEMBLY, 'utf8'), 'x');
    const target = path.join(dir, 'missing', 'a.assembly.json');
    const err = await rejection(saveAssemblyFile(target, doc));
    expect(err).toBeInstanceOf(FileError);
    expect((err as FileError).message).toBe(`${target}: the folder does not exist`);
  });
});

describe('rebaseSourcePaths', () => {
  const doc: AssemblyDoc = parseAssembly(JSON.stringify({
    format: 'interfere-assembly', version: 1,
    sources: [
      { id: 'a', path: 'meshes/a.stl', units: 'm', note: 1 },
      { id: 'b', path: '../other/b.stl' },
      { id: 'c', path: '/abs/c.stl' },
      { id: 'd', path: 'C:\\models\\d.stl' },
    ],
  }), 'x');

  it('rewrites relative paths, keeps absolute ones and the other fields', () => {
    const out = rebaseSourcePaths(doc, '/p/q/r', '/p/s');
    expect(out.sources).toEqual([
      { id: 'a', path: '../q/r/meshes/a.stl', units: 'm', extra: { note: 1 } },
      { id: 'b', path: '../q/other/b.stl' },
      { id: 'c', path: '/abs/c.stl' },
      { id: 'd', path: 'C:\\models\\d.stl' },
    ]);
    expect(out.sources[2]).toBe(doc.sources[2]);
    expect(rebaseSourcePaths(out, '/p/s', '/p/q/r').sources).toEqual(doc.sources);
  });

  it('the same folder: the same document', () => {
    expect(rebaseSourcePaths(doc, '/p/q', '/p/q/')).toBe(doc);
    expect(rebaseSourcePaths(doc, '/p/q/r', '/p/q/r/meshes').sources[0].path).toBe('a.stl');
  });
});
