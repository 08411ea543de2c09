import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import {
  assemblyFromBodies, assignPartIds, fieldLine, parseAssembly, serializeAssembly, slugify, transformProblem, idProblem,
} from '../../../src-core/assembly/format.js';
import { ASSEMBLY_FORMAT, ASSEMBLY_VERSION, AssemblyError, DEFAULT_SETTINGS } from '../../../src-core/assembly/model.js';
import type { AssemblyDoc, AssemblySettings, IgnoreRule, PartDef, SourceDef } from '../../../src-core/assembly/model.js';
import type { LengthUnit } from '../../../src-core/io/types.js';

const ASSEMBLIES = path.resolve(process.cwd(), 'test/data/assemblies');
const FILES = readdirSync(ASSEMBLIES).filter((f) => f.endsWith('.assembly.json')).sort();

function readShared(name: string): string {
  return readFileSync(path.join(ASSEMBLIES, name), 'utf8');
}

/** 1-based line of the `occurrence`-th appearance of `needle` in `text`. */
function lineOfText(text: string, needle: string, occurrence = 0): number {
  let at = -1;
  for (let k = 0; k <= occurrence; k++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' not found`);
  }
  return text.slice(0, at).split('\n').length;
}

function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0) throw new Error(`'${from}' not found`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

function parseError(text: string, fileName = 'case.assembly.json'): AssemblyError {
  let caught: unknown;
  try {
    parseAssembly(text, fileName);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(AssemblyError);
  const err = caught as AssemblyError;
  expect(err.fileName).toBe(fileName);
  expect(err.message.startsWith(`${fileName}:`)).toBe(true);
  return err;
}

/** Checks an error's field, line (also in the message) and message fragments. */
function expectError(text: string, field: string | null, line: number, ...fragments: string[]): AssemblyError {
  const err = parseError(text);
  expect(err.field).toBe(field);
  expect(err.line).toBe(line);
  expect(err.message).toContain(`case.assembly.json:${line}: `);
  if (field !== null) expect(err.message).toContain(`${field}: `);
  for (const f of fragments) expect(err.message).toContain(f);
  return err;
}

const MOVED = readShared('as1-oc-214-moved.assembly.json');
const FANUC = readShared('fanuc-zero.assembly.json');
const GEAR = readShared('stl-gear-polytopes.assembly.json');

/** A small assembly written out one field per line, for hand-made cases. */
const SMALL = `{
  "format": "interfere-assembly",
  "version": 1,
  "name": "small",
  "units": "mm",
  "sources": [
    { "id": "s1", "path": "a.stl" },
    { "id": "s2", "path": "b.stl", "units": "cm" }
  ],
  "parts": [
    { "id": "p0", "source": "s1" },
    { "id": "p1", "source": "s2", "body": 0 }
  ],
  "settings": { "touchToleranceMm": 0.01, "clearanceMm": 0, "contactIsInterference": false },
  "ignore": [ { "a": "p0", "b": "p1" } ]
}
`;

describe('the shared assemblies', () => {
  const expectedParts: Record<string, number> = {
    'as1-oc-214-asis': 18, 'as1-oc-214-moved': 18, 'as1-oc-214-clearance': 18, 'dm1-id-214-asis': 7,
    'motor-c-asis': 17, 'trackball-asis': 4, 'fanuc-zero': 7, 'fanuc-selfcollision': 7, 'so101-zero': 17,
    'stl-gear-polytopes': 4, 'fits-pins-asis': 6, 'fits-pins-default-tol': 6, 'fits-pin-tilted': 6, 'fits-balls-keys': 6,
  };

  it('are all fourteen present', () => {
    expect(FILES.map((f) => f.replace('.assembly.json', '')).sort()).toEqual(Object.keys(expectedParts).sort());
  });

  for (const file of FILES) {
    it(`${file} parses, and parse → serialize → parse is the identity`, () => {
      const text = readShared(file);
      const doc = parseAssembly(text, file);
      expect(doc.format).toBe(ASSEMBLY_FORMAT);
      expect(doc.version).toBe(1);
      expect(doc.units).toBe('mm');
      expect(doc.parts?.length).toBe(expectedParts[file.replace('.assembly.json', '')]);
      expect(typeof doc.extra.description).toBe('string');
      // fits-pins-default-tol leaves every setting to the checker
      if ('settings' in (JSON.parse(text) as object)) expect(doc.settings.touchToleranceMm).toBeGreaterThan(0);
      const written = serializeAssembly(doc);
      const again = parseAssembly(written, file);
      expect(again).toStrictEqual(doc);
      expect(serializeAssembly(again)).toBe(written);
      // the same content as JSON.parse reads from the original
      const plain = JSON.parse(text) as Record<string, unknown>;
      expect(doc.name).toBe(plain.name);
      expect(doc.sources.map((s) => s.path)).toEqual((plain.sources as { path: string }[]).map((s) => s.path));
      expect(doc.parts?.map((p) => p.transform ?? null)).toEqual(
        (plain.parts as { transform?: number[] }[]).map((p) => p.transform ?? null),
      );
    });
  }

  it('reads fields as the files mean them', () => {
    const gear = parseAssembly(GEAR, 'g');
    expect(gear.sources.map((s) => s.units ?? null)).toEqual([null, null, 'cm', null]);
    expect(gear.parts?.map((p) => p.body)).toEqual([0, 0, 0, 0]); // omitted: 0
    expect(gear.parts?.[0].transform).toBeUndefined();
    expect(gear.parts?.[2].transform?.[3]).toBe(29.860078811645508);
    expect(gear.settings).toEqual({ touchToleranceMm: 0.01, clearanceMm: 0.5, contactIsInterference: false });
    expect(gear.ignore).toEqual([]);

    const fanuc = parseAssembly(FANUC, 'f');
    expect(fanuc.ignore).toHaveLength(10);
    expect(fanuc.ignore[0]).toEqual({ a: 'base_link', b: 'link_1', reason: 'Adjacent in fanuc.srdf (MoveIt)' });
    expect(fanuc.extra.pose).toEqual({ robot: '../robot-fanuc-m10ia/urdf/fanuc.urdf', geometry: 'collision', jointValues: {} });

    const moved = parseAssembly(MOVED, 'm');
    expect(moved.parts?.[14]).toMatchObject({ id: 'nut-14', name: 'nut', source: 'as1', body: 14 });
  });

  it('records the lines of fields for later messages', () => {
    const doc = parseAssembly(MOVED, 'm');
    expect(fieldLine(doc, 'parts[5].body')).toBe(lineOfText(MOVED, '"body": 5'));
    expect(fieldLine(doc, 'sources[0].path')).toBe(lineOfText(MOVED, '"path"'));
    expect(fieldLine({ ...doc }, 'parts[5].body')).toBeNull(); // a copy made in code has no lines
  });
});

describe('serializeAssembly', () => {
  it('writes a stable, readable layout in the order of formats.md', () => {
    const doc = parseAssembly(MOVED, 'm');
    const text = serializeAssembly(doc);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "format": "interfere-assembly",\n  "version": 1,\n');
    expect(text).toContain('      "transform": [1,0,0,0,  0,1,0,-0.5,  0,0,1,0,  0,0,0,1]\n');
    expect(text).toContain('[1,0,0,0,  0,0.9975640502598242,-0.0697564737441253,0.10970543526489962,  0,0.0697564737441253,0.9975640502598242,-6.141552630757735,  0,0,0,1]');
    const keys = [...text.matchAll(/^ {2}"(\w+)":/gm)].map((m) => m[1]);
    expect(keys).toEqual(['format', 'version', 'name', 'units', 'sources', 'parts', 'settings', 'description']);
    const partKeys = [...text.matchAll(/^ {6}"(\w+)":/gm)].map((m) => m[1]).slice(0, 5);
    expect(partKeys).toEqual(['id', 'path', 'id', 'name', 'source']);
  });

  it('writes part fields in order, extras after the known fields', () => {
    const doc: AssemblyDoc = {
      format: ASSEMBLY_FORMAT, version: ASSEMBLY_VERSION, name: 'n', units: 'mm',
      sources: [{ id: 's', path: 'x.stl', units: 'in', extra: { sha1: 'abc' } }],
      parts: [{ extra: { note: [1, { deep: true }] }, color: '#aabbcc', visible: false, transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], body: 0, source: 's', name: 'N', id: 'p' }],
      settings: { touchToleranceMm: null, clearanceMm: 0.25, contactIsInterference: true, extra: { mode: 'fast' } },
      ignore: [],
      extra: { zeta: 1, alpha: 'first' },
    };
    const text = serializeAssembly(doc);
    expect(text).toBe(`{
  "format": "interfere-assembly",
  "version": 1,
  "name": "n",
  "units": "mm",
  "sources": [
    {
      "id": "s",
      "path": "x.stl",
      "units": "in",
      "sha1": "abc"
    }
  ],
  "parts": [
    {
      "id": "p",
      "name": "N",
      "source": "s",
      "body": 0,
      "transform": [1,0,0,0,  0,1,0,0,  0,0,1,0,  0,0,0,1],
      "visible": false,
      "color": "#aabbcc",
      "note": [
        1,
        {
          "deep": true
        }
      ]
    }
  ],
  "settings": {
    "clearanceMm": 0.25,
    "contactIsInterference": true,
    "mode": "fast"
  },
  "zeta": 1,
  "alpha": "first"
}
`);
    expect(parseAssembly(text, 'x')).toStrictEqual(doc);
  });

  it('leaves out parts when null and ignore when empty; they read back the same', () => {
    const doc = parseAssembly('{"format":"interfere-assembly","version":1,"sources":[{"id":"a","path":"a.stl"}]}', 'x');
    expect(doc.parts).toBeNull();
    expect(doc.name).toBe('');
    expect(doc.settings).toEqual(DEFAULT_SETTINGS);
    const text = serializeAssembly(doc);
    expect(text).not.toContain('"parts"');
    expect(text).not.toContain('"ignore"');
    expect(text).not.toContain('touchToleranceMm'); // automatic
    expect(parseAssembly(text, 'x')).toStrictEqual(doc);
  });

  it('refuses numbers JSON cannot hold', () => {
    const doc = parseAssembly(SMALL, 'x');
    expect(() => serializeAssembly({ ...doc, settings: { ...doc.settings, clearanceMm: NaN } })).toThrow(/settings\.clearanceMm: NaN/);
    expect(() => serializeAssembly({ ...doc, extra: { x: [1, Infinity] } })).toThrow(/x\[1\]: Infinity/);
  });

  it('keeps a key named __proto__ as an ordinary field', () => {
    const text = replaceOnce(SMALL, '"name": "small",', '"name": "small", "__proto__": { "polluted": true },');
    const doc = parseAssembly(text, 'x');
    expect(Object.keys(doc.extra)).toEqual(['__proto__']);
    expect((doc.extra as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(parseAssembly(serializeAssembly(doc), 'x')).toStrictEqual(doc);
  });
});

describe('parseAssembly: JSON errors name the line', () => {
  it('a trailing comma', () => {
    const text = replaceOnce(SMALL, '"contactIsInterference": false }', '"contactIsInterference": false, }');
    expectError(text, null, 14, 'invalid JSON at column', "trailing comma before '}'");
  });

  it('a missing comma between fields', () => {
    const text = replaceOnce(SMALL, '"version": 1,', '"version": 1');
    expectError(text, null, 4, "expected ',' or '}' after the value of \"version\"", "found '\"'");
  });

  it('a string left open', () => {
    expectError(replaceOnce(SMALL, '"small"', '"small'), null, 4, 'is not closed on its line');
  });

  it('comments, single quotes, NaN, leading zeros, duplicate keys, numbers out of range', () => {
    expectError(replaceOnce(SMALL, '"units": "mm",', '// metric\n  "units": "mm",'), null, 5, 'comments are not allowed');
    expectError(replaceOnce(SMALL, '"small"', "'small'"), null, 4, 'double quotes');
    expectError(replaceOnce(SMALL, '"clearanceMm": 0,', '"clearanceMm": NaN,'), null, 14, "'NaN' is not a JSON value");
    expectError(replaceOnce(SMALL, '"clearanceMm": 0,', '"clearanceMm": 00,'), null, 14, 'leading zeros');
    expectError(replaceOnce(SMALL, '"units": "mm",', '"units": "mm", "name": "again",'), null, 5, 'the key "name" appears twice', 'first at line 4');
    expectError(replaceOnce(SMALL, '"clearanceMm": 0,', '"clearanceMm": 1e400,'), null, 14, '1e400 is out of range');
  });

  it('a file cut short', () => {
    const cut = SMALL.slice(0, SMALL.indexOf('"settings"'));
    expectError(cut, null, 14, 'unexpected end of file', 'the object opened at line 1 is not closed');
    expectError(SMALL.slice(0, SMALL.indexOf('"p1"') + 3), null, 12, 'unexpected end of file', 'the string that starts at column 13 is not closed');
  });

  it('an empty file, text after the value, and CRLF line ends', () => {
    expectError('   \n  ', null, 2, 'the file is empty');
    expectError(SMALL + '}\n', null, 17, "unexpected '}' after the end of the JSON value");
    const crlf = replaceOnce(SMALL, '"version": 1,', '"version": 1').replace(/\n/g, '\r\n');
    expectError(crlf, null, 4, 'invalid JSON');
  });

  it('accepts a byte order mark and escapes', () => {
    const doc = parseAssembly('\uFEFF' + replaceOnce(SMALL, '"small"', '"sm\\u00e4ll \\"q\\" \\ud83d\\ude00 \\n"'), 'x');
    expect(doc.name).toBe('smäll "q" 😀 \n');
  });

  it('reads -0 as 0 (the same placement)', () => {
    const text = replaceOnce(SMALL, '{ "id": "p0", "source": "s1" }', '{ "id": "p0", "source": "s1", "transform": [1,-0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1] }');
    const t = parseAssembly(text, 'x').parts?.[0].transform as number[];
    expect(Object.is(t[1], 0)).toBe(true);
  });
});

describe('parseAssembly: validation errors name the field, the line and the part', () => {
  it('not an assembly at all', () => {
    expectError('[1, 2]\n', null, 1, 'not an Interfere assembly', 'an array');
    expectError(replaceOnce(SMALL, '"format": "interfere-assembly",\n', ''), 'format', 1, "'format' is missing");
    expectError(replaceOnce(SMALL, '"interfere-assembly"', '"interfere-report"'), 'format', 2, 'check report');
    expectError(replaceOnce(SMALL, '"interfere-assembly"', '"step"'), 'format', 2, 'format is the string "step"');
  });

  it('version: missing, newer, not a whole number', () => {
    expectError(replaceOnce(SMALL, '"version": 1,\n', ''), 'version', 1, "'version' is missing");
    expectError(replaceOnce(SMALL, '"version": 1,', '"version": 2,'), 'version', 3, 'written by a newer version', 'version 2');
    expectError(replaceOnce(SMALL, '"version": 1,', '"version": "1",'), 'version', 3, 'whole number');
    expectError(replaceOnce(SMALL, '"version": 1,', '"version": 0.5,'), 'version', 3, 'whole number');
  });

  it('the assembly units other than mm, a name that is not a string', () => {
    expectError(replaceOnce(SMALL, '"units": "mm",', '"units": "cm",'), 'units', 5, 'units must be "mm"', 'sources[].units');
    expectError(replaceOnce(SMALL, '"name": "small",', '"name": 7,'), 'name', 4, 'must be a string');
  });

  it('sources: missing, not an array, id missing / not a string / empty / duplicate, path, units', () => {
    const s1 = '{ "id": "s1", "path": "a.stl" }';
    expectError(replaceOnce(SMALL, '"sources": [', '"sourcez": [').replace('"parts"', '"partz"').replace(/"ignore".*\n/, '"x": 0\n'), 'sources', 1, "'sources' is missing");
    expectError('{"format":"interfere-assembly","version":1,\n"sources": {}}', 'sources', 2, "'sources' must be an array");
    expectError(replaceOnce(SMALL, s1, '"a.stl"'), 'sources[0]', 7, 'a source must be an object');
    expectError(replaceOnce(SMALL, s1, '{ "path": "a.stl" }'), 'sources[0].id', 7, "the source has no 'id'");
    expectError(replaceOnce(SMALL, s1, '{ "id": 3, "path": "a.stl" }'), 'sources[0].id', 7, 'the source id must be a string, found the number 3');
    expectError(replaceOnce(SMALL, s1, '{ "id": " ", "path": "a.stl" }'), 'sources[0].id', 7, 'the source id is empty');
    expectError(replaceOnce(SMALL, '"id": "s2"', '"id": "s1"'), 'sources[1].id', 8, "the source id 's1' is used twice (first at line 7)");
    expectError(replaceOnce(SMALL, s1, '{ "id": "s1" }'), 'sources[0].path', 7, "source 's1' has no 'path'");
    expectError(replaceOnce(SMALL, s1, '{ "id": "s1", "path": ["a.stl"] }'), 'sources[0].path', 7, "source 's1': 'path' must be a string");
    expectError(replaceOnce(SMALL, '"units": "cm"', '"units": "ft"'), 'sources[1].units', 8, "source 's2': units must be one of mm, cm, m, in", '"ft"');
  });

  it('accepts every source unit', () => {
    for (const u of ['mm', 'cm', 'm', 'in']) {
      expect(parseAssembly(replaceOnce(SMALL, '"units": "cm"', `"units": "${u}"`), 'x').sources[1].units).toBe(u);
    }
  });

  it('parts: id missing / not a string / duplicate, source missing / unknown', () => {
    expectError(replaceOnce(SMALL, '"parts": [', '"parts": {').replace(/\n {2}\],\n {2}"settings"/, '\n  },\n  "settings"'), null, 11, 'property name');
    expectError(replaceOnce(SMALL, '"parts": [\n    { "id": "p0", "source": "s1" },\n    { "id": "p1", "source": "s2", "body": 0 }\n  ],', '"parts": 5,'), 'parts', 10, "'parts' must be an array");
    expectError(replaceOnce(SMALL, '{ "id": "p0", "source": "s1" }', '{ "source": "s1" }'), 'parts[0].id', 11, "the part has no 'id'");
    expectError(replaceOnce(SMALL, '{ "id": "p0", "source": "s1" }', '{ "id": null, "source": "s1" }'), 'parts[0].id', 11, 'the part id must be a string, found null');
    expectError(replaceOnce(SMALL, '"id": "p1"', '"id": "p0"'), 'parts[1].id', 12, "the part id 'p0' is used twice (first at line 11)");
    expectError(replaceOnce(SMALL, '{ "id": "p0", "source": "s1" }', '{ "id": "p0" }'), 'parts[0].source', 11, "part 'p0' has no 'source'");
    // the message of the brief, on a real file
    const moved = replaceOnce(MOVED, '"id": "bolt-3",\n      "name": "bolt",\n      "source": "as1"', '"id": "bolt-3",\n      "name": "bolt",\n      "source": "as2"');
    expectError(moved, 'parts[3].source', lineOfText(moved, '"as2"'), "part 'bolt-3' refers to source 'as2', which the file does not list");
  });

  it('parts: body not a non-negative integer', () => {
    for (const bad of ['-1', '1.5', '"3"', 'null']) {
      expectError(replaceOnce(SMALL, '"body": 0', `"body": ${bad}`), 'parts[1].body', 12, "part 'p1': 'body' must be a whole number ≥ 0");
    }
  });

  describe('transforms', () => {
    const BOLT5 = '"transform": [1,0,0,0,0,1,0,-0.5,0,0,1,0,0,0,0,1]';
    const line = lineOfText(MOVED, BOLT5);
    const withBolt5 = (m: string): string => replaceOnce(MOVED, BOLT5, `"transform": ${m}`);

    it('a scale of 2 on bolt-5 names parts[5].transform, the line and the part', () => {
      const err = expectError(withBolt5('[2,0,0,0, 0,2,0,-0.5, 0,0,2,0, 0,0,0,1]'), 'parts[5].transform', line, "part 'bolt-5'", 'not a rotation plus a translation', 'scales by 2');
      expect(err.message).toContain(`case.assembly.json:${line}: parts[5].transform: part 'bolt-5'`);
    });

    it('a non-uniform scale, a shear, a reflection', () => {
      expectError(withBolt5('[1,0,0,0, 0,1.5,0,0, 0,0,1,0, 0,0,0,1]'), 'parts[5].transform', line, "part 'bolt-5'", 'scales the axes by 1, 1.5, 1');
      expectError(withBolt5('[1,0.2,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]'), 'parts[5].transform', line, "part 'bolt-5'", 'shears');
      expectError(withBolt5('[-1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]'), 'parts[5].transform', line, "part 'bolt-5'", 'mirrors (determinant -1)');
    });

    it('the wrong count, a non-number entry, the last row', () => {
      expectError(withBolt5('[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0]'), 'parts[5].transform', line, "part 'bolt-5'", '16 numbers', 'found 15');
      expectError(withBolt5('[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1,0]'), 'parts[5].transform', line, 'found 17');
      expectError(withBolt5('"identity"'), 'parts[5].transform', line, 'must be an array of 16 numbers');
      expectError(withBolt5('[1,0,0,null, 0,1,0,0, 0,0,1,0, 0,0,0,1]'), 'parts[5].transform[3]', line, "part 'bolt-5'", 'transform entry 3 is not a number: null');
      expectError(withBolt5('[1,0,0,0,\n 0,1,0,"0",\n 0,0,1,0, 0,0,0,1]'), 'parts[5].transform[7]', line + 1, 'entry 7');
      expectError(withBolt5('[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,1,1]'), 'parts[5].transform', line, "last row must be 0 0 0 1, found 0 0 1 1");
    });

    it('tolerance 1e-6: a rotation rounded to 9 digits passes, an error of 1e-5 does not', () => {
      const c = Number(Math.cos(0.3).toFixed(9)), s = Number(Math.sin(0.3).toFixed(9));
      expect(parseAssembly(withBolt5(`[${c},${-s},0,1, ${s},${c},0,2, 0,0,1,3, 0,0,0,1]`), 'x').parts?.[5].transform?.[0]).toBe(c);
      expectError(withBolt5('[1.00001,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]'), 'parts[5].transform', line, "part 'bolt-5'");
    });

    it('transformProblem catches what text cannot hold (NaN, Infinity)', () => {
      const m = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
      expect(transformProblem(m)).toBeNull();
      expect(transformProblem(m.map((x, i) => (i === 5 ? NaN : x)))).toEqual({ problem: 'transform entry 5 is not a finite number (NaN)', entry: 5 });
      expect(transformProblem(m.map((x, i) => (i === 3 ? Infinity : x)))?.entry).toBe(3);
    });
  });

  it('parts: color and visible', () => {
    const p0 = '{ "id": "p0", "source": "s1" }';
    expectError(replaceOnce(SMALL, p0, '{ "id": "p0", "source": "s1", "color": "red" }'), 'parts[0].color', 11, "part 'p0': 'color' must be \"#rrggbb\"");
    expectError(replaceOnce(SMALL, p0, '{ "id": "p0", "source": "s1", "color": "#12345" }'), 'parts[0].color', 11, '#rrggbb');
    expectError(replaceOnce(SMALL, p0, '{ "id": "p0", "source": "s1", "visible": "yes" }'), 'parts[0].visible', 11, "part 'p0': 'visible' must be true or false");
    expectError(replaceOnce(SMALL, p0, '{ "id": "p0", "name": 5, "source": "s1" }'), 'parts[0].name', 11, "part 'p0': 'name' must be a string");
    const ok = parseAssembly(replaceOnce(SMALL, p0, '{ "id": "p0", "source": "s1", "color": "#A0b1C2", "visible": false }'), 'x');
    expect(ok.parts?.[0]).toEqual({ id: 'p0', source: 's1', body: 0, color: '#A0b1C2', visible: false });
  });

  it('settings: tolerance, clearance, contactIsInterference; absent means automatic, 0, false', () => {
    const settings = '"settings": { "touchToleranceMm": 0.01, "clearanceMm": 0, "contactIsInterference": false },';
    const set = (s: string): string => replaceOnce(SMALL, settings, `"settings": ${s},`);
    expectError(set('[]'), 'settings', 14, "'settings' must be an object");
    expectError(set('{ "touchToleranceMm": -0.1 }'), 'settings.touchToleranceMm', 14, 'must be ≥ 0, found -0.1');
    expectError(set('{ "touchToleranceMm": "0.1" }'), 'settings.touchToleranceMm', 14, 'must be a number of millimetres');
    expectError(set('{ "clearanceMm": -1 }'), 'settings.clearanceMm', 14, 'must be ≥ 0');
    expectError(set('{ "contactIsInterference": "no" }'), 'settings.contactIsInterference', 14, 'must be true or false');
    expect(parseAssembly(set('{}'), 'x').settings).toEqual(DEFAULT_SETTINGS);
    expect(parseAssembly(set('{ "touchToleranceMm": null, "clearanceMm": 0.5 }'), 'x').settings).toEqual({ touchToleranceMm: null, clearanceMm: 0.5, contactIsInterference: false });
    expect(parseAssembly(replaceOnce(SMALL, settings, ''), 'x').settings).toEqual(DEFAULT_SETTINGS);
    expect(parseAssembly(set('{ "touchToleranceMm": 0, "contactIsInterference": true }'), 'x').settings).toEqual({ touchToleranceMm: 0, clearanceMm: 0, contactIsInterference: true });
  });

  it('ignore: part ids only, no self pairs', () => {
    const rule = '{ "a": "p0", "b": "p1" }';
    expectError(replaceOnce(SMALL, `[ ${rule} ]`, '{}'), 'ignore', 15, "'ignore' must be an array");
    expectError(replaceOnce(SMALL, rule, '["p0", "p1"]'), 'ignore[0]', 15, 'an ignore rule must be an object');
    expectError(replaceOnce(SMALL, rule, '{ "a": "p0", "b": "bolt-9" }'), 'ignore[0].b', 15, "names part 'bolt-9', which is not a part of this assembly");
    expectError(replaceOnce(SMALL, rule, '{ "a": "p0" }'), 'ignore[0].b', 15, "the ignore rule has no 'b'");
    expectError(replaceOnce(SMALL, rule, '{ "a": 1, "b": "p1" }'), 'ignore[0].a', 15, "'a' must be a part id");
    expectError(replaceOnce(SMALL, rule, '{ "a": "p1", "b": "p1" }'), 'ignore[0]', 15, "pairs part 'p1' with itself");
    expectError(replaceOnce(SMALL, rule, '{ "a": "p0", "b": "p1", "reason": 3 }'), 'ignore[0].reason', 15, 'must be a string');
    // without a parts list the ids are assigned later: any id is accepted here
    const noParts = replaceOnce(SMALL, '"parts": [\n    { "id": "p0", "source": "s1" },\n    { "id": "p1", "source": "s2", "body": 0 }\n  ],\n', '')
      .replace(rule, '{ "a": "a-0", "b": "b-0" }');
    expect(parseAssembly(noParts, 'x').ignore).toEqual([{ a: 'a-0', b: 'b-0' }]);
    expectError(noParts.replace('"b-0"', '"a-0"'), 'ignore[0]', 11, 'with itself');
  });

  it('keeps unknown fields at every level through a round trip', () => {
    const text = SMALL
      .replace('"units": "mm",', '"units": "mm", "description": "d", "pose": { "joints": [0, 1.5] },')
      .replace('{ "id": "s1", "path": "a.stl" }', '{ "id": "s1", "path": "a.stl", "sha1": "00ff" }')
      .replace('{ "id": "p0", "source": "s1" }', '{ "id": "p0", "source": "s1", "material": { "name": "steel" }, "locked": true }')
      .replace('"contactIsInterference": false }', '"contactIsInterference": false, "future": [null] }')
      .replace('{ "a": "p0", "b": "p1" }', '{ "a": "p0", "b": "p1", "until": "2027" }');
    const doc = parseAssembly(text, 'x');
    expect(doc.extra).toEqual({ description: 'd', pose: { joints: [0, 1.5] } });
    expect(doc.sources[0].extra).toEqual({ sha1: '00ff' });
    expect(doc.sources[1].extra).toBeUndefined();
    expect(doc.parts?.[0].extra).toEqual({ material: { name: 'steel' }, locked: true });
    expect(doc.settings.extra).toEqual({ future: [null] });
    expect(doc.ignore[0].extra).toEqual({ until: '2027' });
    const written = serializeAssembly(doc);
    expect(written).toContain('"sha1": "00ff"');
    expect(written).toContain('"locked": true');
    expect(parseAssembly(written, 'x')).toStrictEqual(doc);
  });
});

// ---------------------------------------------------------------------------------------------
// Round trip of generated documents

const SEED = 20261129;

/** Strings with any UTF-16 code unit (lone surrogates, controls, quotes included). */
const anyString = (maxLength = 12): Arbitrary<string> =>
  fc.string({ unit: fc.oneof(fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), fc.constantFrom('"', '\\', '\n', 'é', '😀')), maxLength });
const idString = anyString(8).filter((s) => s.trim() !== '' && idProblem(s) === null); // ids refuse controls and bidi marks
const finite = fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => x + 0); // +0 for -0: parse reads -0 as 0
const nonNegative = fc.double({ min: 0, max: 1e9, noNaN: true }).map((x) => x + 0);

function plainObject(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null), fc.boolean(), finite, anyString(),
    fc.array(tie('json'), { maxLength: 3 }),
    fc.uniqueArray(fc.tuple(fc.oneof(anyString(6), fc.constant('__proto__')), tie('json')), { maxLength: 3, selector: ([k]) => k }).map(plainObject),
  ),
}));

/** Unknown fields for an entry whose known fields are `known`; undefined for none (as parse gives). */
const extrasArb = (known: readonly string[]): Arbitrary<Record<string, unknown> | undefined> =>
  fc.uniqueArray(fc.tuple(anyString(6).filter((k) => !known.includes(k)), json), { maxLength: 3, selector: ([k]) => k })
    .map((entries) => (entries.length === 0 ? undefined : plainObject(entries)));

/** A rotation from a random unit quaternion, and a translation. */
const rigidArb: Arbitrary<number[]> = fc.oneof(
  fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), finite, finite, finite)
    .filter(([w, x, y, z]) => Math.hypot(w, x, y, z) > 0.1)
    .map(([w0, x0, y0, z0, tx, ty, tz]) => {
      const n = Math.hypot(w0, x0, y0, z0);
      const [w, x, y, z] = [w0 / n, x0 / n, y0 / n, z0 / n];
      const m = [
        1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), tx,
        2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), ty,
        2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y), tz,
        0, 0, 0, 1,
      ];
      return m.map((v) => v + 0);
    }),
  fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 })).map(([a, b]) => [0, -1, 0, a, 1, 0, 0, b, 0, 0, 1, 0, 0, 0, 0, 1]),
);

function withOptional<T extends object>(base: T, optional: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) out[k] = v;
  return out as T;
}

const docArb: Arbitrary<AssemblyDoc> = fc
  .uniqueArray(idString, { minLength: 0, maxLength: 4 })
  .chain((sourceIds) => {
    const sources = fc.tuple(...sourceIds.map((id) =>
      fc.tuple(anyString().filter((s) => s.trim() !== ''), fc.option(fc.constantFrom<LengthUnit>('mm', 'cm', 'm', 'in'), { nil: undefined }), extrasArb(['id', 'path', 'units']))
        .map(([p, units, extra]) => withOptional<SourceDef>({ id, path: p }, { units, extra })),
    ));
    const parts: Arbitrary<PartDef[] | null> = sourceIds.length === 0
      ? fc.constant(null)
      : fc.option(fc.uniqueArray(idString, { maxLength: 5 }).chain((partIds) => fc.tuple(...partIds.map((id) =>
        fc.tuple(
          fc.option(anyString(), { nil: undefined }), fc.constantFrom(...sourceIds), fc.nat({ max: 50 }),
          fc.option(rigidArb, { nil: undefined }), fc.option(fc.boolean(), { nil: undefined }),
          fc.option(fc.integer({ min: 0, max: 0xffffff }).map((c) => `#${c.toString(16).padStart(6, '0')}`), { nil: undefined }),
          extrasArb(['id', 'name', 'source', 'body', 'transform', 'visible', 'color']),
        ).map(([name, source, body, transform, visible, color, extra]) =>
          withOptional<PartDef>({ id, source, body }, { name, transform, visible, color, extra })),
      ))), { nil: null });
    return fc.tuple(fc.constant(sourceIds), sources, parts);
  })
  .chain(([, sources, parts]) => {
    const ids = parts?.map((p) => p.id) ?? null;
    const pair: Arbitrary<[string, string]> = ids === null
      ? fc.uniqueArray(idString, { minLength: 2, maxLength: 2 }).map(([a, b]) => [a, b])
      : ids.length < 2
        ? fc.constant(['', ''] as [string, string])
        : fc.uniqueArray(fc.constantFrom(...ids), { minLength: 2, maxLength: 2 }).map(([a, b]) => [a, b]);
    const rule: Arbitrary<IgnoreRule> = fc.tuple(pair, fc.option(anyString(), { nil: undefined }), extrasArb(['a', 'b', 'reason']))
      .map(([[a, b], reason, extra]) => withOptional<IgnoreRule>({ a, b }, { reason, extra }));
    const ignore = ids !== null && ids.length < 2 ? fc.constant([]) : fc.array(rule, { maxLength: 3 });
    const settings: Arbitrary<AssemblySettings> = fc.tuple(fc.option(nonNegative, { nil: null }), nonNegative, fc.boolean(), extrasArb(['touchToleranceMm', 'clearanceMm', 'contactIsInterference']))
      .map(([touchToleranceMm, clearanceMm, contactIsInterference, extra]) =>
        withOptional<AssemblySettings>({ touchToleranceMm, clearanceMm, contactIsInterference }, { extra }));
    const extra = extrasArb(['format', 'version', 'name', 'units', 'sources', 'parts', 'settings', 'ignore']).map((e) => e ?? {});
    return fc.tuple(anyString(), settings, ignore, extra).map(([name, s, ig, ex]): AssemblyDoc => ({
      format: ASSEMBLY_FORMAT, version: ASSEMBLY_VERSION, name, units: 'mm', sources, parts, settings: s, ignore: ig, extra: ex,
    }));
  });

describe('round trip of generated documents', () => {
  it(`parseAssembly(serializeAssembly(d)) deep-equals d (fast-check seed ${SEED})`, () => {
    fc.assert(
      fc.property(docArb, (doc) => {
        const text = serializeAssembly(doc);
        const again = parseAssembly(text, 'generated.assembly.json');
        expect(again).toStrictEqual(doc);
        expect(serializeAssembly(again)).toBe(text);
        expect(JSON.parse(text)).toBeTypeOf('object'); // also valid for any JSON reader
      }),
      { seed: SEED, numRuns: 400 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Bare files

describe('assemblyFromBodies and the assigned ids', () => {
  it('slugs names like the truth files do', () => {
    expect(slugify('nut')).toBe('nut');
    expect(slugify('L-Bracket (Rev 2)')).toBe('l-bracket-rev-2');
    expect(slugify('  __Hex guide__ ')).toBe('hex-guide');
    expect(slugify('Wälzlager №5')).toBe('wälzlager-5');
    expect(slugify('***')).toBe('');
  });

  it('every body a part at identity: <slug>-<index>, body-<index> for no name', () => {
    const names = ['nut', 'nut', 'rod', 'bolt', '', 'l-bracket', '#'];
    const doc = assemblyFromBodies('/data/cax-if-as1/as1-oc-214.stp', names.map((name) => ({ name })));
    expect(doc.parts?.map((p) => p.id)).toEqual(['nut-0', 'nut-1', 'rod-2', 'bolt-3', 'body-4', 'l-bracket-5', 'body-6']);
    expect(doc.parts?.map((p) => p.body)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(doc.parts?.every((p) => p.transform === undefined && p.source === 'as1-oc-214')).toBe(true);
    expect(doc.parts?.[0].name).toBe('nut');
    expect(doc.parts?.[4].name).toBeUndefined();
    expect(doc.sources).toEqual([{ id: 'as1-oc-214', path: 'as1-oc-214.stp' }]);
    expect(doc.name).toBe('as1-oc-214.stp');
    expect(doc.settings).toEqual(DEFAULT_SETTINGS);
    expect(doc.ignore).toEqual([]);
    expect(parseAssembly(serializeAssembly(doc), 'x')).toStrictEqual(doc);
  });

  it('takes a source id and units when given', () => {
    const doc = assemblyFromBodies('C:\\models\\Base Link.STL', [{ name: '' }], { units: 'm' });
    expect(doc.sources).toEqual([{ id: 'base-link', path: 'Base Link.STL', units: 'm' }]);
    expect(assemblyFromBodies('x.stl', [{ name: 'a' }], { sourceId: 'src' }).parts?.[0]).toEqual({ id: 'a-0', name: 'a', source: 'src', body: 0 });
    expect(assemblyFromBodies('.stl', [{ name: 'a' }]).sources[0].id).toBe('stl');
    expect(assemblyFromBodies('###.stl', [{ name: 'a' }]).sources[0].id).toBe('model');
  });

  it('assignPartIds: prefixes and collisions', () => {
    expect(assignPartIds(['gear', ''], 'g')).toEqual(['g-gear-0', 'g-body-1']);
    const taken = new Set<string>();
    expect(assignPartIds(['b-c'], 'a', taken)).toEqual(['a-b-c-0']);
    expect(assignPartIds(['c'], 'a-b', taken)).toEqual(['a-b-c-0_2']);
  });
});
