import { describe, it, expect } from 'vitest';
import { fieldLine, parseAssembly, transformProblem } from '../../../../src-core/assembly/format/validate.js';
import { serializeAssembly } from '../../../../src-core/assembly/format/serialize.js';
import { ASSEMBLY_FORMAT, DEFAULT_SETTINGS } from '../../../../src-core/assembly/model.js';
import { FANUC, FILES, GEAR, MOVED, SMALL, expectError, lineOfText, readShared, replaceOnce } from './helpers.js';

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
