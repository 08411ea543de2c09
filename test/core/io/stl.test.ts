import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseStl, sniffStl, stlImporter, binaryStlCount, isBinaryStlLayout } from '../../../src-core/io/stl.js';
import { ImportError } from '../../../src-core/io/types.js';
import type { ImportErrorCode, ImportResult, ImportedBody, ImportOptions } from '../../../src-core/io/types.js';
import { ensureMeshFile, meshFacts, meshSpec, meshStl } from '../../../bench/generate';

// ---------------------------------------------------------------------------------------------
// Files and helpers

const DATA = path.resolve(process.cwd(), 'test/data');
/** The generated benchmark box (bench/generate.ts), written to bench-data on first use. */
const BOX_48 = ensureMeshFile('box-48');

function read(file: string): Uint8Array {
  return new Uint8Array(readFileSync(file));
}

function stlFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...stlFilesUnder(full));
    else if (entry.toLowerCase().endsWith('.stl')) out.push(full);
  }
  return out;
}

function rel(file: string): string {
  return path.relative(DATA, file);
}

/** The body's triangles as 9 coordinates each, in triangle order (undoes the welding). */
function soupOf(body: ImportedBody): number[] {
  const out: number[] = [];
  for (let t = 0; t < body.triangleCount; t++) {
    for (let k = 0; k < 3; k++) {
      const v = body.indices[3 * t + k];
      out.push(body.positions[3 * v], body.positions[3 * v + 1], body.positions[3 * v + 2]);
    }
  }
  return out;
}

function bboxOf(coords: ArrayLike<number>): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < coords.length; i++) {
    const a = i % 3;
    if (coords[i] < min[a]) min[a] = coords[i];
    if (coords[i] > max[a]) max[a] = coords[i];
  }
  return { min, max };
}

/** -0 → 0: welding merges them, so expected values are compared in this form. */
function plusZero(xs: readonly number[]): number[] {
  return xs.map((x) => x + 0);
}

/** Independent reading of a binary STL: n from the header, every float32 vertex coordinate. */
function rawBinary(bytes: Uint8Array): { n: number; coords: number[] } {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = dv.getUint32(80, true);
  const coords: number[] = [];
  for (let t = 0; t < n; t++) for (let j = 0; j < 9; j++) coords.push(dv.getFloat32(84 + 50 * t + 12 + 4 * j, true));
  return { n, coords };
}

/** Independent reading of an ASCII STL: facet tokens counted, vertex numbers by regex and Number(). */
function rawAscii(bytes: Uint8Array): { n: number; coords: number[] } {
  const text = Buffer.from(bytes).toString('latin1').replace(/#.*$/gm, '');
  const n = (text.match(/(?:^|\s)facet(?=\s)/gi) ?? []).length;
  const coords: number[] = [];
  for (const m of text.matchAll(/(?:^|\s)vertex\s+(\S+)\s+(\S+)\s+(\S+)/gi)) coords.push(Number(m[1]), Number(m[2]), Number(m[3]));
  return { n, coords };
}

function distinctVertices(coords: readonly number[]): number {
  const seen = new Set<string>();
  for (let i = 0; i < coords.length; i += 3) seen.add(`${coords[i] + 0},${coords[i + 1] + 0},${coords[i + 2] + 0}`);
  return seen.size;
}

/** Exact equality of long number lists (one expect, naming the first difference). */
function expectSameNumbers(actual: readonly number[], expected: readonly number[]): void {
  expect(actual.length).toBe(expected.length);
  let i = 0;
  while (i < actual.length && actual[i] === expected[i]) i++;
  if (i < actual.length) {
    expect({ triangle: Math.floor(i / 9), coordinate: i % 9, value: actual[i] })
      .toEqual({ triangle: Math.floor(i / 9), coordinate: i % 9, value: expected[i] });
  }
}

/** Runs `fn`, expects an ImportError with this code whose message starts with the file name. */
function expectImportError(fn: () => unknown, code: ImportErrorCode, fileName: string): ImportError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected ImportError '${code}'`).toBeInstanceOf(ImportError);
  const err = caught as ImportError;
  expect({ code: err.code, message: err.message }).toEqual({ code, message: expect.stringContaining(fileName) as unknown });
  expect(err.message.startsWith(`${fileName}: `)).toBe(true);
  expect(err.fileName).toBe(fileName);
  return err;
}

/** Checks an imported STL against an independent reading of the same bytes. */
function checkAgainstRaw(bytes: Uint8Array, result: ImportResult, scale = 1): void {
  expect(result.bodies).toHaveLength(1);
  const body = result.bodies[0];
  const size = bytes.length;
  const binary = size >= 84 && 84 + 50 * new DataView(bytes.buffer, bytes.byteOffset).getUint32(80, true) === size;
  expect(result.format).toBe(binary ? 'stl-binary' : 'stl-ascii');
  const raw = binary ? rawBinary(bytes) : rawAscii(bytes);
  expect(body.triangleCount).toBe(raw.n);
  expect(body.indices.length).toBe(3 * raw.n);
  expect(raw.coords.length).toBe(9 * raw.n);
  const vertexCount = body.positions.length / 3;
  expect(Number.isInteger(vertexCount)).toBe(true);
  expect(body.indices.every((i) => i < vertexCount)).toBe(true);
  // Same triangles, same order, exactly (welding only renumbers).
  expectSameNumbers(soupOf(body), plusZero(raw.coords.map((x) => (scale === 1 ? x : x * scale))));
  // Welded: one vertex per distinct point.
  expect(vertexCount).toBe(distinctVertices(raw.coords));
  expect(body.faceRanges).toBeNull();
  const box = bboxOf(body.positions);
  for (let a = 0; a < 3; a++) {
    expect(Number.isFinite(box.min[a]) && Number.isFinite(box.max[a])).toBe(true);
    expect(box.min[a]).toBeLessThanOrEqual(box.max[a]);
  }
}

function header(text: string): Uint8Array {
  const h = new Uint8Array(80);
  for (let i = 0; i < text.length && i < 80; i++) h[i] = text.charCodeAt(i);
  return h;
}

/** A binary STL of the given triangles (9 coordinates each); `count` overrides the header count. */
function makeBinary(coords: readonly number[], opts: { header?: Uint8Array | string; count?: number; extraBytes?: number } = {}): Uint8Array {
  const n = coords.length / 9;
  const bytes = new Uint8Array(84 + 50 * n + (opts.extraBytes ?? 0));
  bytes.set(typeof opts.header === 'string' || opts.header === undefined ? header(opts.header ?? 'test part') : opts.header);
  const dv = new DataView(bytes.buffer);
  dv.setUint32(80, opts.count ?? n, true);
  for (let t = 0; t < n; t++) {
    for (let j = 0; j < 9; j++) dv.setFloat32(84 + 50 * t + 12 + 4 * j, coords[9 * t + j], true);
  }
  return bytes;
}

function ascii(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'utf8'));
}

/** An ASCII STL of the given triangles, numbers written by `fmt`. */
function makeAscii(
  coords: readonly number[],
  opts: { name?: string; eol?: string; fmt?: (x: number) => string; indent?: string } = {},
): Uint8Array {
  const eol = opts.eol ?? '\n';
  const ind = opts.indent ?? '  ';
  const fmt = opts.fmt ?? ((x: number) => String(x));
  const lines = [`solid ${opts.name ?? 'part'}`];
  for (let t = 0; t < coords.length / 9; t++) {
    lines.push(`${ind}facet normal 0 0 0`, `${ind}${ind}outer loop`);
    for (let k = 0; k < 3; k++) {
      const o = 9 * t + 3 * k;
      lines.push(`${ind}${ind}${ind}vertex ${fmt(coords[o])} ${fmt(coords[o + 1])} ${fmt(coords[o + 2])}`);
    }
    lines.push(`${ind}${ind}endloop`, `${ind}endfacet`);
  }
  lines.push(`endsolid ${opts.name ?? 'part'}`);
  return ascii(lines.join(eol) + eol);
}

/** A unit right triangle and a second one sharing its hypotenuse. */
const TWO_TRIANGLES = [0, 0, 0, 1, 0, 0, 0, 1, 0, /**/ 1, 0, 0, 1, 1, 0, 0, 1, 0];

// ---------------------------------------------------------------------------------------------
// Real files

const VALID_FILES = [
  ...stlFilesUnder(path.join(DATA, 'stl-models/polytopes')),
  ...stlFilesUnder(path.join(DATA, 'stl-models/objects')),
  path.join(DATA, 'stl-models/misc/multiWordName.ascii.stl'),
  path.join(DATA, 'stl-models/misc/namelessSolid.ascii.stl'),
  ...stlFilesUnder(path.join(DATA, 'stl-online3dviewer')),
  ...stlFilesUnder(path.join(DATA, 'robot-so101/assets')),
  ...stlFilesUnder(path.join(DATA, 'robot-fanuc-m10ia/meshes')),
  BOX_48,
];

describe('STL: every valid file of the shared data matches an independent reading', () => {
  it('finds the files', () => {
    expect(VALID_FILES.length).toBe(13 + 3 + 2 + 8 + 13 + 14 + 1);
  });
  for (const file of VALID_FILES) {
    it(rel(file), () => {
      const bytes = read(file);
      const result = parseStl(bytes, path.basename(file));
      checkAgainstRaw(bytes, result);
      expect(sniffStl(bytes)).toBeGreaterThanOrEqual(0.5);
    });
  }
});

describe('STL: known facts about the shared files', () => {
  it('the Stanford bunny has 69,451 triangles (SOURCES.md), binary, named "bunny"', () => {
    const r = parseStl(read(path.join(DATA, 'stl-models/objects/bunny.bin.stl')), 'bunny.bin.stl');
    expect(r.format).toBe('stl-binary');
    expect(r.bodies[0].triangleCount).toBe(69451);
    expect(r.bodies[0].name).toBe('bunny');
    const box = bboxOf(r.bodies[0].positions);
    for (let a = 0; a < 3; a++) expect(box.max[a] - box.min[a]).toBeGreaterThan(0.01);
  });

  it('the 13 SO-101 meshes hold 322,564 triangles together (SOURCES.md); parts are under 0.3 m', () => {
    let total = 0;
    for (const file of stlFilesUnder(path.join(DATA, 'robot-so101/assets'))) {
      const body = parseStl(read(file), path.basename(file)).bodies[0];
      total += body.triangleCount;
      const box = bboxOf(body.positions);
      for (let a = 0; a < 3; a++) expect(box.max[a] - box.min[a]).toBeLessThan(0.3);
    }
    expect(total).toBe(322564);
  });

  it('the 7 FANUC collision meshes hold 6,934 triangles (assemblies README); COLOR= header colour', () => {
    let total = 0;
    for (const file of stlFilesUnder(path.join(DATA, 'robot-fanuc-m10ia/meshes/collision'))) {
      const bytes = read(file);
      const body = parseStl(bytes, path.basename(file)).bodies[0];
      total += body.triangleCount;
      const box = bboxOf(body.positions);
      for (let a = 0; a < 3; a++) expect(box.max[a] - box.min[a]).toBeLessThan(1.5); // metres
      if (Buffer.from(bytes.subarray(0, 6)).toString('latin1') === 'COLOR=') {
        expect(body.color).toEqual([bytes[6] / 255, bytes[7] / 255, bytes[8] / 255]);
        expect(body.color).toEqual([127 / 255, 127 / 255, 127 / 255]);
        expect(body.name).toBe('');
      } else {
        expect(path.basename(file)).toBe('link_4.stl'); // "VCG" header, no colour
        expect(body.color).toBeNull();
        expect(body.name).toBe('VCG');
      }
    }
    expect(total).toBe(6934);
  });

  it('box-48 is the box [0,10]³ of scenarios.json: 48 triangles, 26 welded vertices', () => {
    const spec = meshSpec('box-48');
    const meta = meshFacts(spec, spec.make(), meshStl('box-48'));
    expect(meta.bbox).toEqual({ min: [0, 0, 0], max: [10, 10, 10] });
    const body = parseStl(read(BOX_48), 'box-48.stl').bodies[0];
    expect(body.triangleCount).toBe(meta.triangles);
    expect(bboxOf(body.positions)).toEqual({ min: meta.bbox.min, max: meta.bbox.max });
    expect(body.positions.length / 3).toBe(26); // 3×3×3 grid minus its centre
  });

  it('reads the box in cm, m and in as the mm coordinates times 10, 1000 and 25.4', () => {
    const bytes = read(BOX_48);
    const mm = soupOf(parseStl(bytes, 'box-48.stl').bodies[0]);
    for (const [units, f] of [['cm', 10], ['m', 1000], ['in', 25.4], ['mm', 1]] as const) {
      const r = parseStl(bytes, 'box-48.stl', { units });
      expect(soupOf(r.bodies[0])).toEqual(mm.map((x) => x * f));
      checkAgainstRaw(bytes, r, f);
    }
    expect(bboxOf(parseStl(bytes, 'box-48.stl', { units: 'in' }).bodies[0].positions).max).toEqual([254, 254, 254]);
  });

  it('ASCII and binary twins of stl-models hold the same triangles (within float32 printing)', () => {
    const pairs = [
      ['polytopes/cube.ascii.stl', 'polytopes/cube.bin.stl'],
      ['polytopes/tetrahedron.ascii.stl', 'polytopes/tetrahedron.bin.stl'],
      ['polytopes/tetrahedronIrregular.ascii.stl', 'polytopes/tetrahedronIrregular.bin.stl'],
      ['polytopes/triangle.ascii.stl', 'polytopes/triangle.bin.stl'],
      ['polytopes/unitCube.ascii.stl', 'polytopes/unitCube.binary.stl'],
      ['objects/gearwheel.ascii.stl', 'objects/gearwheel.bin.stl'],
    ];
    for (const [a, b] of pairs) {
      const A = parseStl(read(path.join(DATA, 'stl-models', a)), a);
      const B = parseStl(read(path.join(DATA, 'stl-models', b)), b);
      expect([A.format, B.format]).toEqual(['stl-ascii', 'stl-binary']);
      const sa = soupOf(A.bodies[0]);
      const sb = soupOf(B.bodies[0]);
      expect(sa.length).toBe(sb.length);
      const scale = Math.max(...sb.map(Math.abs));
      let worst = 0;
      for (let i = 0; i < sa.length; i++) worst = Math.max(worst, Math.abs(sa[i] - sb[i]));
      expect(worst).toBeLessThanOrEqual(1e-6 * scale);
    }
  });

  it('tetrahedronMinusZero: −0 and 0 weld into one vertex (4 vertices)', () => {
    const body = parseStl(read(path.join(DATA, 'stl-models/polytopes/tetrahedronMinusZero.bin.stl')), 't.stl').bodies[0];
    expect(body.positions.length / 3).toBe(4);
    expect(Array.from(body.positions).some((x) => Object.is(x, -0))).toBe(false);
  });

  it('names: ASCII solid names (multi-word, empty, with a # comment), binary header text', () => {
    const name = (f: string): string => parseStl(read(path.join(DATA, f)), f).bodies[0].name;
    expect(name('stl-models/misc/multiWordName.ascii.stl')).toBe('Model with a multi word name');
    expect(name('stl-models/misc/namelessSolid.ascii.stl')).toBe('');
    expect(name('stl-online3dviewer/single_triangle_with_comments.stl')).toBe('MeshName');
    expect(name('stl-models/polytopes/cube.bin.stl')).toBe('cube');
    expect(name('stl-models/broken/wrongHeader.bin.stl')).toBe(''); // header "solid" and NULs
  });

  it('online3dviewer edge cases: no normal, # comments', () => {
    const noNormal = parseStl(read(path.join(DATA, 'stl-online3dviewer/single_triangle_no_normal.stl')), 'n.stl');
    expect(soupOf(noNormal.bodies[0])).toEqual([0, 0, 0, 1, 0, 0, 1, 1, 0]);
    expect(noNormal.warnings.join(' ')).toMatch(/1 facet has a missing.*normal \(first at line 2\)/);
    const comments = parseStl(read(path.join(DATA, 'stl-online3dviewer/single_triangle_with_comments.stl')), 'c.stl');
    expect(soupOf(comments.bodies[0])).toEqual([0, 0, 0, 1, 0, 0, 1, 1, 0]);
    expect(comments.warnings).toEqual([]);
  });
});

describe('STL: the deliberately broken files of stl-models', () => {
  const dir = path.join(DATA, 'stl-models/broken');
  type Expectation =
    | { code: ImportErrorCode; message: RegExp }
    | { triangles: number; format: string; warning?: RegExp };
  // What each file is, and what the importer makes of it. Files that are geometrically readable
  // import: an open mesh, a single face or wrong normals are for mesh validation to report, not
  // the importer (normals are not used).
  const EXPECTED: Record<string, Expectation> = {
    'empty.stl': { code: 'empty-file', message: /the file is empty \(0 bytes\)/ },
    'fourVertices.ascii.stl': { code: 'wrong-vertex-count', message: /line 2: facet 0 .* has 4 vertices; an STL facet must have exactly 3/ },
    'twoVertices.ascii.stl': { code: 'wrong-vertex-count', message: /line 2: facet 0 .* has 2 vertices/ },
    'quad.ascii.stl': { code: 'wrong-vertex-count', message: /line 2: facet 0 .* has 4 vertices/ },
    'incorrectFaceCounter.bin.stl': {
      code: 'count-mismatch',
      message: /header says 66 triangles \(3,384 bytes\) but the file has 284 bytes, room for exactly 4 triangles/,
    },
    'missingEndsolid.ascii.stl': { code: 'truncated', message: /line 30: the file ends without 'endsolid' \(after 4 facets\)/ },
    'missingFace.ascii.stl': { triangles: 3, format: 'stl-ascii' },
    'missingNormal.ascii.stl': { triangles: 4, format: 'stl-ascii', warning: /1 facet has a missing.*\(first at line 23\)/ },
    'notANumberNormal.ascii.stl': { triangles: 4, format: 'stl-ascii', warning: /1 facet has a missing, incomplete or non-finite normal \(first at line 9\)/ },
    'singleFace.ascii.stl': { triangles: 1, format: 'stl-ascii' },
    'solidNameMismatch.ascii.stl': { triangles: 4, format: 'stl-ascii' },
    'wrongHeader.bin.stl': { triangles: 12, format: 'stl-binary', warning: /header begins with 'solid'.*84 \+ 50 × 12 bytes/ },
    'wrongNormal.ascii.stl': { triangles: 4, format: 'stl-ascii' },
    'wrongNormals.ascii.stl': { triangles: 4, format: 'stl-ascii' },
  };

  it('every file in broken/ has an expectation', () => {
    expect(readdirSync(dir).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [file, exp] of Object.entries(EXPECTED)) {
    it(`${file}: ${'code' in exp ? exp.code : `imports (${exp.triangles} triangles)`}`, async () => {
      const bytes = read(path.join(dir, file));
      if ('code' in exp) {
        const err = expectImportError(() => parseStl(bytes, file), exp.code, file);
        expect(err.message).toMatch(exp.message);
        await expect(stlImporter.import(bytes, file)).rejects.toMatchObject({ code: exp.code });
      } else {
        const r = parseStl(bytes, file);
        expect(r.format).toBe(exp.format);
        expect(r.bodies[0].triangleCount).toBe(exp.triangles);
        checkAgainstRaw(bytes, r);
        if (exp.warning) expect(r.warnings.join('\n')).toMatch(exp.warning);
        else expect(r.warnings).toEqual([]);
      }
    });
  }

  it('misc/faceless.ascii.stl (solid … endsolid, no facet): no-triangles', () => {
    const err = expectImportError(() => parseStl(read(path.join(DATA, 'stl-models/misc/faceless.ascii.stl')), 'faceless.ascii.stl'), 'no-triangles', 'faceless.ascii.stl');
    expect(err.message).toContain("solid 'empty' is empty");
  });

  it('misc/multiWordName.bin.stl (binary mangled by a text conversion, 49 bytes too many): count-mismatch', () => {
    const bytes = read(path.join(DATA, 'stl-models/misc/multiWordName.bin.stl'));
    expect(bytes.length).toBe(333);
    const err = expectImportError(() => parseStl(bytes, 'multiWordName.bin.stl'), 'count-mismatch', 'multiWordName.bin.stl');
    expect(err.message).toContain('header says 4 triangles (284 bytes) but the file has 333 bytes (49 bytes more');
    expect(err.message).toContain('converted as text');
  });
});

// ---------------------------------------------------------------------------------------------
// Synthetic files

describe('STL binary: detection by size, not by "solid"', () => {
  it('a binary STL whose header begins with "solid" is read as binary, with a warning', () => {
    const bytes = makeBinary(TWO_TRIANGLES, { header: 'solid looks like ascii' });
    const r = parseStl(bytes, 'sneaky.stl');
    expect(r.format).toBe('stl-binary');
    expect(r.bodies[0].name).toBe('looks like ascii');
    expect(soupOf(r.bodies[0])).toEqual(TWO_TRIANGLES);
    expect(r.warnings).toHaveLength(1);
  });

  it('a "solid" header with a wrong size is a binary error, not an ASCII parse', () => {
    const bytes = makeBinary(TWO_TRIANGLES, { header: 'solid x', count: 3 });
    const err = expectImportError(() => parseStl(bytes, 'cut.stl'), 'count-mismatch', 'cut.stl');
    expect(err.message).toContain('header says 3 triangles (234 bytes) but the file has 184 bytes, room for exactly 2 triangles');
  });

  it('truncated mid-triangle: the precise message', () => {
    const full = makeBinary(new Array(9 * 1200).fill(1), { header: 'bracket' });
    expect(full.length).toBe(60084);
    const bytes = full.subarray(0, 31337);
    const err = expectImportError(() => parseStl(bytes, 'bracket.stl'), 'truncated', 'bracket.stl');
    expect(err.message).toBe(
      'bracket.stl: binary STL is truncated: header says 1,200 triangles (60,084 bytes) but the file has 31,337 bytes',
    );
  });

  it('more bytes than the count allows: count-mismatch', () => {
    const bytes = makeBinary(TWO_TRIANGLES, { extraBytes: 7 });
    const err = expectImportError(() => parseStl(bytes, 'long.stl'), 'count-mismatch', 'long.stl');
    expect(err.message).toContain('(7 bytes more than the count allows)');
  });

  it('fewer than 84 bytes of binary: truncated', () => {
    expectImportError(() => parseStl(new Uint8Array(50), 'tiny.stl'), 'truncated', 'tiny.stl');
  });

  it('header says 2^32−1 triangles in an 84-byte file: rejected by the size check, at once', () => {
    const bytes = new Uint8Array(84);
    bytes.set(header('huge'));
    new DataView(bytes.buffer).setUint32(80, 0xffffffff, true);
    expect(binaryStlCount(bytes)).toBe(4294967295);
    expect(isBinaryStlLayout(bytes)).toBe(false);
    const t0 = performance.now();
    const err = expectImportError(() => parseStl(bytes, 'huge.stl'), 'truncated', 'huge.stl');
    expect(performance.now() - t0).toBeLessThan(50);
    expect(err.message).toContain('header says 4,294,967,295 triangles (214,748,364,834 bytes) but the file has 84 bytes');
  });

  it('0 triangles: no-triangles', () => {
    const err = expectImportError(() => parseStl(makeBinary([]), 'none.stl'), 'no-triangles', 'none.stl');
    expect(err.message).toContain('count is 0');
  });

  it('NaN and ±Infinity coordinates name the triangle', () => {
    for (const bad of [NaN, Infinity, -Infinity]) {
      const coords = [...TWO_TRIANGLES, 0, 0, 5, 1, 0, 5, 0, 1, 5];
      coords[9 * 2 + 4] = bad; // triangle 2, vertex 1, y
      const err = expectImportError(() => parseStl(makeBinary(coords), 'nan.stl'), 'non-finite-coordinate', 'nan.stl');
      expect(err.triangle).toBe(2);
      expect(err.message).toContain(`triangle 2 (counting from 0; bytes 184–233) has a non-finite coordinate: vertex 1 is (1, ${bad}, 5)`);
    }
  });

  it('COLOR= header (Materialise/VisCAM) gives the body colour', () => {
    const h = header('COLOR=    MATERIAL=');
    h.set([255, 128, 0, 255], 6);
    const body = parseStl(makeBinary(TWO_TRIANGLES, { header: h }), 'c.stl').bodies[0];
    expect(body.color).toEqual([1, 128 / 255, 0]);
    expect(body.name).toBe('');
    expect(parseStl(makeBinary(TWO_TRIANGLES), 'plain.stl').bodies[0].color).toBeNull();
  });

  it('maxTriangles: too-large before reading', () => {
    const err = expectImportError(() => parseStl(makeBinary(TWO_TRIANGLES), 'big.stl', { maxTriangles: 1 }), 'too-large', 'big.stl');
    expect(err.message).toContain('2 triangles; at most 1');
  });

  it('keeps degenerate triangles', () => {
    const coords = [0, 0, 0, 1, 1, 1, 2, 2, 2, /**/ 3, 3, 3, 3, 3, 3, 3, 3, 3, /**/ 0, 0, 0, 1, 0, 0, 0, 1, 0];
    const body = parseStl(makeBinary(coords), 'deg.stl').bodies[0];
    expect(body.triangleCount).toBe(3);
    expect(soupOf(body)).toEqual(coords);
    expect(Array.from(body.indices.subarray(3, 6))).toEqual([3, 3, 3]);
  });
});

describe('STL: welding and triangle order', () => {
  it('shared vertices collapse; triangles keep their order', () => {
    for (const bytes of [makeBinary(TWO_TRIANGLES), makeAscii(TWO_TRIANGLES)]) {
      const body = parseStl(bytes, 'w.stl').bodies[0];
      expect(body.positions.length / 3).toBe(4);
      expect(Array.from(body.indices)).toEqual([0, 1, 2, 1, 3, 2]);
      expect(Array.from(body.positions)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]);
    }
    const reversed = [...TWO_TRIANGLES.slice(9), ...TWO_TRIANGLES.slice(0, 9)];
    expect(soupOf(parseStl(makeBinary(reversed), 'r.stl').bodies[0])).toEqual(reversed);
  });
});

describe('STL ASCII: tolerant reading', () => {
  it('CRLF line ends, tabs, upper-case keywords', () => {
    const text = makeAscii(TWO_TRIANGLES, { eol: '\r\n', indent: '\t' });
    expect(soupOf(parseStl(text, 'crlf.stl').bodies[0])).toEqual(TWO_TRIANGLES);
    const upper = ascii(Buffer.from(makeAscii(TWO_TRIANGLES)).toString().replace(/[a-z]+/g, (w) => w.toUpperCase()));
    const r = parseStl(upper, 'upper.stl');
    expect(soupOf(r.bodies[0])).toEqual(TWO_TRIANGLES);
    expect(r.bodies[0].name).toBe('PART');
  });

  it('number forms: 1e-5, -0, 1., .5, +3, 1E+2, 2.5e0, 0001.5000', () => {
    const text = ascii(
      'solid n\nfacet normal 0 0 1\nouter loop\nvertex 1e-5 -0 1.\nvertex .5 +3 1E+2\nvertex 2.5e0 0001.5000 -.25E-1\nendloop\nendfacet\nendsolid n\n',
    );
    expect(soupOf(parseStl(text, 'n.stl').bodies[0])).toEqual([1e-5, 0, 1, 0.5, 3, 100, 2.5, 1.5, -0.025]);
  });

  it('hard decimals read exactly as Number() reads them', () => {
    const texts = [
      '0.1', '0.30000000000000004', '9007199254740993', '9007199254740991', '1234567890123456', '12345678901234567',
      '1e22', '1e23', '8.894156e-18', '4.9406564584124654e-324', '2.2250738585072011e-308', '1.7976931348623157e308',
      '123456789012345678901234567890', '0.000000000000000000000000001', '1000000000000000000000.000000000',
      '3.14159265358979323846264338327950288', '-0.0', '100000000000000000000000000000e-29', '7.0e-22', '7.0e+22',
    ];
    for (let i = 0; i < texts.length; i += 9) {
      const nine = [...texts.slice(i, i + 9), ...new Array(9).fill('1')].slice(0, 9);
      const text = `solid n\nfacet\nouter loop\nvertex ${nine.slice(0, 3).join(' ')}\nvertex ${nine.slice(3, 6).join(' ')}\nvertex ${nine.slice(6).join(' ')}\nendloop\nendfacet\nendsolid\n`;
      expect(soupOf(parseStl(ascii(text), 'h.stl').bodies[0])).toEqual(plusZero(nine.map(Number)));
    }
  });

  it('several solids merge into one body in order; the name is the first solid\'s', () => {
    const a = Buffer.from(makeAscii(TWO_TRIANGLES.slice(0, 9), { name: 'first' })).toString();
    const b = Buffer.from(makeAscii(TWO_TRIANGLES.slice(9), { name: 'second' })).toString();
    const r = parseStl(ascii(a + '\n' + b), 'multi.stl');
    expect(r.bodies).toHaveLength(1);
    expect(r.bodies[0].name).toBe('first');
    expect(soupOf(r.bodies[0])).toEqual(TWO_TRIANGLES);
    expect(r.warnings).toEqual(["the file holds 2 solids ('first', 'second'); they were merged into one body in file order"]);
  });

  it('# comments anywhere a token starts; a UTF-8 BOM; a UTF-8 name', () => {
    const text = ascii('\uFEFF# exported\nsolid Gehäuse # the housing\n# c\nfacet # c\nouter loop\nvertex 0 0 0 # c\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid\n# end');
    const r = parseStl(text, 'c.stl');
    expect(r.bodies[0].name).toBe('Gehäuse');
    expect(soupOf(r.bodies[0])).toEqual(TWO_TRIANGLES.slice(0, 9));
  });

  it('NUL or Ctrl-Z padding after the last endsolid is ignored, with a warning', () => {
    const padded = ascii(Buffer.from(makeAscii(TWO_TRIANGLES)).toString() + '\u0000\u0000\u0000\n\u001a');
    const r = parseStl(padded, 'pad.stl');
    expect(soupOf(r.bodies[0])).toEqual(TWO_TRIANGLES);
    expect(r.warnings).toEqual(["4 padding bytes (NUL or Ctrl-Z) after the last 'endsolid' were ignored"]);
  });

  it('a whole file on one line', () => {
    const text = ascii('solid x facet normal 0 0 1 outer loop vertex 0 0 0 vertex 1 0 0 vertex 0 1 0 endloop endfacet endsolid x');
    const r = parseStl(text, 'one.stl');
    expect(r.bodies[0].name).toBe('x');
    expect(soupOf(r.bodies[0])).toEqual(TWO_TRIANGLES.slice(0, 9));
  });

  it('errors name the line: a misspelt keyword', () => {
    const text = ascii('solid p\nfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertx 1 0 0\n  vertex 0 1 0\n endloop\nendfacet\nendsolid p\n');
    const err = expectImportError(() => parseStl(text, 'part.stl'), 'parse-error', 'part.stl');
    expect(err.message).toBe("part.stl: line 5: expected 'vertex', found 'vertx'");
    expect(err.line).toBe(5);
  });

  it('errors name the line: a bad number, a missing outer loop, junk after endsolid (CRLF counted once)', () => {
    const cases: [string, RegExp][] = [
      ['solid p\r\nfacet\r\nouter loop\r\nvertex 0 0 0\r\nvertex 1 0 0\r\nvertex 0 1.2.3 0\r\nendloop\r\nendfacet\r\nendsolid\r\n',
        /^bad\.stl: line 6: expected a number for coordinate y of vertex 2 of facet 0 \(counting from 0\), found '1\.2\.3'$/],
      ['solid p\nfacet normal 0 0 1\nvertex 0 0 0\n', /^bad\.stl: line 3: expected 'outer loop', found 'vertex'$/],
      ['solid p\nendsolid p\nhello\n', /^bad\.stl: line 3: expected 'solid' or the end of the file after 'endsolid', found 'hello'$/],
      ['solid p\nfacet normal 0 0 1 5\nouter loop\n', /^bad\.stl: line 2: expected 'outer loop' after the three numbers of 'facet normal', found '5'$/],
      ['solid p\nfacet normal 0 zero 1\nouter loop\n', /^bad\.stl: line 2: expected a number or 'outer loop' after 'facet normal', found 'zero'$/],
      ['solid p\nsolid q\n', /^bad\.stl: line 2: expected 'facet' or 'endsolid', found 'solid'$/],
    ];
    for (const [text, re] of cases) {
      const err = expectImportError(() => parseStl(ascii(text), 'bad.stl'), 'parse-error', 'bad.stl');
      expect(err.message).toMatch(re);
    }
  });

  it('non-finite coordinates name the line: nan, inf, -Infinity, 1e400, 1.#INF', () => {
    for (const bad of ['nan', 'NaN', 'inf', '-Infinity', '1e400', '-1e999', '1.#INF']) {
      const text = ascii(`solid p\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 ${bad}\nendloop\nendfacet\nendsolid p\n`);
      const err = expectImportError(() => parseStl(text, 'inf.stl'), 'non-finite-coordinate', 'inf.stl');
      expect(err.message).toBe(`inf.stl: line 6: coordinate z of vertex 2 of facet 0 (counting from 0) is not finite: '${bad}'`);
      expect([err.line, err.triangle]).toEqual([6, 0]);
    }
    // 1e-400 underflows to 0, which is finite.
    const tiny = ascii('solid p\nfacet\nouter loop\nvertex 1e-400 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid\n');
    expect(soupOf(parseStl(tiny, 't.stl').bodies[0])[0]).toBe(0);
  });

  it('cut off inside a facet or before endsolid: truncated', () => {
    const full = Buffer.from(makeAscii(TWO_TRIANGLES)).toString();
    for (const cut of [full.indexOf('vertex 1 1 0'), full.indexOf('endloop'), full.lastIndexOf('endsolid'), 'solid p'.length]) {
      const err = expectImportError(() => parseStl(ascii(full.slice(0, cut)), 'cut.stl'), 'truncated', 'cut.stl');
      expect(err.message).toMatch(/cut off/);
    }
  });

  it('empty, whitespace-only, text that is not STL, a PNG', () => {
    expectImportError(() => parseStl(new Uint8Array(0), 'e.stl'), 'empty-file', 'e.stl');
    const ws = expectImportError(() => parseStl(ascii(' \r\n\t\n  '), 'ws.stl'), 'empty-file', 'ws.stl');
    expect(ws.message).toContain('only whitespace (7 bytes)');
    const txt = expectImportError(() => parseStl(ascii('hello world\n'), 'notes.stl'), 'not-stl', 'notes.stl');
    expect(txt.message).toContain("does not begin with 'solid'");
    const png = new Uint8Array(200);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(expectImportError(() => parseStl(png, 'pic.stl'), 'not-stl', 'pic.stl').message).toContain('a PNG image');
  });

  it('maxTriangles applies to ASCII too', () => {
    const err = expectImportError(() => parseStl(makeAscii(TWO_TRIANGLES), 'a.stl', { maxTriangles: 1 }), 'too-large', 'a.stl');
    expect(err.message).toMatch(/line 9: ASCII STL has more than 1 triangle/);
  });
});

describe('STL: options', () => {
  it('units: cm multiplies the read value by 10 (x * 10), binary and ASCII', () => {
    const coords = [0.1, 0.2, 0.3, 1 / 3, 2 / 3, 1.7, -5.5, 1e-3, 123.456];
    const f32 = coords.map(Math.fround);
    expect(soupOf(parseStl(makeBinary(coords), 'b.stl', { units: 'cm' }).bodies[0])).toEqual(f32.map((x) => x * 10));
    const text = makeAscii(coords, { fmt: (x) => x.toPrecision(17) });
    expect(soupOf(parseStl(text, 'a.stl', { units: 'cm' }).bodies[0])).toEqual(coords.map((x) => x * 10));
    expect(soupOf(parseStl(text, 'a.stl', { units: 'in' }).bodies[0])).toEqual(coords.map((x) => x * 25.4));
  });

  it('an unknown unit is a RangeError (a caller mistake, not a file problem)', () => {
    expect(() => parseStl(makeBinary(TWO_TRIANGLES), 'u.stl', { units: 'ft' } as unknown as ImportOptions)).toThrow(RangeError);
  });

  it('an aborted signal stops the import', async () => {
    await expect(stlImporter.import(makeBinary(TWO_TRIANGLES), 'a.stl', { signal: { aborted: true } }))
      .rejects.toMatchObject({ code: 'aborted', message: 'a.stl: import was cancelled' });
  });

  it('the importer object: id, extensions, async import', async () => {
    expect([stlImporter.id, stlImporter.label, stlImporter.extensions]).toEqual(['stl', 'STL', ['stl']]);
    const r = await stlImporter.import(makeAscii(TWO_TRIANGLES), 'x.stl');
    expect(r.format).toBe('stl-ascii');
  });

  it('sniff: confident for both kinds, weak for damaged binary, 0 for other things', () => {
    expect(sniffStl(makeBinary(TWO_TRIANGLES))).toBe(0.9);
    expect(sniffStl(makeBinary(TWO_TRIANGLES, { header: 'solid x' }))).toBe(0.9);
    expect(sniffStl(makeAscii(TWO_TRIANGLES))).toBe(0.9);
    expect(sniffStl(ascii('solid x\n'))).toBe(0.5);
    expect(sniffStl(makeBinary(TWO_TRIANGLES, { count: 5 }))).toBe(0.1);
    expect(sniffStl(new Uint8Array(0))).toBe(0);
    expect(sniffStl(ascii('ISO-10303-21;\nHEADER;\n'))).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

/** A random triangle soup; about a third of the vertices repeat earlier ones (welding at work). */
function soupArb(coord: fc.Arbitrary<number>): fc.Arbitrary<number[]> {
  return fc
    .tuple(fc.array(fc.tuple(coord, coord, coord), { minLength: 1, maxLength: 60 }), fc.array(fc.nat(), { minLength: 3, maxLength: 90 }))
    .map(([pool, picks]) => {
      const n = Math.floor(picks.length / 3);
      const out: number[] = [];
      for (let i = 0; i < 3 * n; i++) out.push(...pool[picks[i] % pool.length]);
      return out;
    })
    .filter((s) => s.length > 0);
}

describe('STL: properties', () => {
  it('binary round trip: same triangles in the same order (seed 20261129)', () => {
    fc.assert(
      fc.property(soupArb(fc.float({ noNaN: true, noDefaultInfinity: true })), (coords) => {
        const body = parseStl(makeBinary(coords), 'p.stl').bodies[0];
        expect(body.triangleCount).toBe(coords.length / 9);
        expect(soupOf(body)).toEqual(plusZero(coords));
        expect(body.positions.length / 3).toBe(distinctVertices(coords));
      }),
      { seed: 20261129, numRuns: 300 },
    );
  });

  it('ASCII round trip with toPrecision(17): same doubles, same order (seed 4217)', () => {
    const layout = fc.record({ eol: fc.constantFrom('\n', '\r\n'), indent: fc.constantFrom('', ' ', '\t', '   ') });
    fc.assert(
      fc.property(soupArb(fc.double({ noNaN: true, noDefaultInfinity: true })), layout, (coords, { eol, indent }) => {
        const bytes = makeAscii(coords, { eol, indent, fmt: (x) => x.toPrecision(17) });
        const body = parseStl(bytes, 'p.stl').bodies[0];
        expect(soupOf(body)).toEqual(plusZero(coords));
      }),
      { seed: 4217, numRuns: 300 },
    );
  });

  it('short decimals (the fast number path) read exactly as Number() reads them (seed 777)', () => {
    const digits = (max: number): fc.Arbitrary<string> =>
      fc.array(fc.constantFrom(...'00123456789'), { minLength: 0, maxLength: max }).map((a) => a.join(''));
    const numberText = fc
      .tuple(fc.constantFrom('', '-', '+'), digits(12), fc.boolean(), digits(12), fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '-', '+'), fc.integer({ min: 0, max: 40 }))))
      .map(([sign, int, dot, frac, exp]) => {
        let body = int + (dot || frac !== '' ? '.' + frac : '');
        if (!/\d/.test(body)) body = '7';
        return sign + body + (exp ? `${exp[0]}${exp[1]}${exp[2]}` : '');
      });
    fc.assert(
      fc.property(fc.array(numberText, { minLength: 9, maxLength: 9 }), (texts) => {
        const text = `solid n\nfacet\nouter loop\nvertex ${texts.slice(0, 3).join(' ')}\nvertex ${texts.slice(3, 6).join(' ')}\nvertex ${texts.slice(6).join(' ')}\nendloop\nendfacet\nendsolid\n`;
        const body = parseStl(ascii(text), 'n.stl').bodies[0];
        expect(soupOf(body)).toEqual(plusZero(texts.map(Number)));
      }),
      { seed: 777, numRuns: 2000 },
    );
  });
});
