import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { parseAssembly, idProblem } from '../../../../src-core/assembly/format/validate.js';
import { serializeAssembly } from '../../../../src-core/assembly/format/serialize.js';
import { ASSEMBLY_FORMAT, ASSEMBLY_VERSION, DEFAULT_SETTINGS } from '../../../../src-core/assembly/model.js';
import type { AssemblyDoc, AssemblySettings, IgnoreRule, PartDef, SourceDef } from '../../../../src-core/assembly/model.js';
import type { LengthUnit } from '../../../../src-core/io/types.js';
import { MOVED, SMALL, replaceOnce } from './helpers.js';

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
