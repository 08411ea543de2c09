import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { decodeMessage, encodeMessage, parseWireMessage, WireError } from '../../../src-main/contract/wire.js';

/** What a value reads back as: JSON's view of everything but typed arrays (which stay). */
function jsonView(v: unknown): unknown {
  if (ArrayBuffer.isView(v)) return v;
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : jsonView(x)));
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) Object.defineProperty(out, k, { value: jsonView(x), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return v === undefined ? null : JSON.parse(JSON.stringify(v));
}

const typedArrayArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.float32Array({ maxLength: 40 }),
  fc.float64Array({ maxLength: 40 }),
  fc.uint32Array({ maxLength: 40 }),
  fc.int32Array({ maxLength: 40 }),
  fc.uint8Array({ maxLength: 41 }),
  fc.int16Array({ maxLength: 9 }),
  // Views into a larger buffer (only the view travels).
  fc.tuple(fc.float64Array({ minLength: 4, maxLength: 20 }), fc.nat(3)).map(([a, k]) => a.subarray(k, a.length - 1)),
);

const valueArb = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.constant(null), fc.boolean(), fc.double(), fc.integer(), fc.string()),
    typedArrayArb,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 5 }),
  ),
})).value;

function validFrame(): ArrayBuffer {
  return encodeMessage({ type: 'response', id: 3, ok: true, result: { positions: new Float32Array([1, 2, 3]), nested: [new Uint32Array([7])] } });
}

/** The frame with its JSON header replaced (same framing rules). */
function withHeader(header: unknown, binary: Uint8Array = new Uint8Array(0)): ArrayBuffer {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const start = Math.ceil((8 + json.length) / 8) * 8;
  const out = new Uint8Array(start + binary.length);
  out.set([0x49, 0x46, 0x57, 0x31]);
  new DataView(out.buffer).setUint32(4, json.length, true);
  out.set(json, 8);
  out.set(binary, start);
  return out.buffer;
}

describe('wire codec', () => {
  it('round-trips random JSON with typed arrays anywhere (seed 20261129)', () => {
    fc.assert(
      fc.property(valueArb, (value) => {
        const back = decodeMessage(encodeMessage(value));
        expect(back).toEqual(jsonView(value));
      }),
      { seed: 20261129, numRuns: 300 },
    );
  });

  it('restores each typed array as its own type, 8-byte aligned, with exactly its view', () => {
    const base = new Float64Array([9, 1.5, -2.25, 9]);
    const msg = {
      a: new Uint8Array([1, 2, 3]),
      b: new Float64Array([Math.PI, -0, NaN, Infinity]),
      c: [new Float32Array([0.1]), new Int32Array([-5, 6])],
      d: base.subarray(1, 3),
      e: new Uint32Array(0),
    };
    const back = decodeMessage(encodeMessage(msg)) as typeof msg;
    expect(back.a).toBeInstanceOf(Uint8Array);
    expect(back.b).toBeInstanceOf(Float64Array);
    expect(back.c[0]).toBeInstanceOf(Float32Array);
    expect(back.c[1]).toBeInstanceOf(Int32Array);
    expect(back.e).toBeInstanceOf(Uint32Array);
    expect(Array.from(back.a)).toEqual([1, 2, 3]);
    expect(Object.is(back.b[1], -0)).toBe(true);
    expect(Number.isNaN(back.b[2])).toBe(true);
    expect(back.b[3]).toBe(Infinity);
    expect(Array.from(back.d)).toEqual([1.5, -2.25]);
    for (const arr of [back.a, back.b, back.c[0], back.c[1], back.d, back.e]) expect(arr.byteOffset % 8).toBe(0);
  });

  it('decodes a frame from an unaligned view (a Buffer slice) by copying it once', () => {
    const frame = new Uint8Array(encodeMessage({ x: new Float64Array([1, 2]) }));
    const host = Buffer.alloc(frame.length + 3);
    host.set(frame, 3);
    const back = decodeMessage(host.subarray(3)) as { x: Float64Array };
    expect(Array.from(back.x)).toEqual([1, 2]);
  });

  it('keeps keys such as __proto__ as plain data (no prototype pollution)', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "k": [1]}') as Record<string, unknown>;
    const back = decodeMessage(encodeMessage(value)) as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(['__proto__', 'k']);
    // A binary entry whose path goes through __proto__ must find an own field.
    const evil = withHeader({ m: { a: null }, b: [[['__proto__'], 'u8', 0, 1]] }, new Uint8Array(8));
    expect(() => decodeMessage(evil)).toThrow(WireError);
  });

  it('refuses what JSON cannot carry: cycles, BigInt, DataView, absurd nesting', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => encodeMessage(cyclic)).toThrow(WireError);
    expect(() => encodeMessage({ n: 1n })).toThrow(WireError);
    expect(() => encodeMessage({ v: new DataView(new ArrayBuffer(4)) })).toThrow(WireError);
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(() => encodeMessage(deep)).toThrow(WireError);
    // Shared (non-cyclic) references are fine.
    const shared = { x: 1 };
    expect(decodeMessage(encodeMessage([shared, shared]))).toEqual([{ x: 1 }, { x: 1 }]);
  });

  it('throws WireError, never anything else, on random bytes and on truncated or corrupted frames (seed 4242)', () => {
    const valid = new Uint8Array(validFrame());
    const onlyWireErrors = (bytes: Uint8Array): void => {
      try {
        decodeMessage(bytes.slice().buffer);
      } catch (e) {
        expect(e).toBeInstanceOf(WireError);
      }
    };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), onlyWireErrors), { seed: 4242, numRuns: 300 });
    fc.assert(
      fc.property(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 }), (at, byte) => {
        const corrupted = valid.slice();
        corrupted[at] = byte;
        onlyWireErrors(corrupted);
      }),
      { seed: 4242, numRuns: 300 },
    );
    for (let n = 0; n < valid.length; n++) {
      const cut = valid.slice(0, n);
      expect(() => decodeMessage(cut.buffer), `truncated to ${n}`).toThrow(WireError);
    }
  });

  it('names what is wrong with a malformed frame', () => {
    const bin = new Uint8Array(16);
    const cases: [ArrayBuffer, RegExp][] = [
      [new ArrayBuffer(3), /too short/],
      [new Uint8Array([1, 2, 3, 4, 0, 0, 0, 0]).buffer, /magic/],
      [(() => { const f = new Uint8Array(validFrame()); new DataView(f.buffer).setUint32(4, 1e9, true); return f.buffer; })(), /header length/],
      [withHeader('just a string'), /"m" and "b"/],
      [withHeader({ m: { a: null }, b: [[['a'], 'f80', 0, 1]] }, bin), /unknown type/],
      [withHeader({ m: { a: null }, b: [[['a'], 'f64', 4, 1]] }, bin), /bad offset/],
      [withHeader({ m: { a: null }, b: [[['a'], 'f64', 0, 3]] }, bin), /outside the frame/],
      [withHeader({ m: { a: null }, b: [[['a'], 'f64', 0, -1]] }, bin), /bad length/],
      [withHeader({ m: { a: 5 }, b: [[['a'], 'u8', 0, 1]] }, bin), /not empty/],
      [withHeader({ m: { a: null }, b: [[['a'], 'u8', 0, 1], [['a'], 'u8', 8, 1]] }, bin), /not empty/],
      [withHeader({ m: { a: [null] }, b: [[['a', 1], 'u8', 0, 1]] }, bin), /array element/],
      [withHeader({ m: { a: null }, b: [[['zz'], 'u8', 0, 1]] }, bin), /object field/],
      [withHeader({ m: null, b: [['x', 'u8', 0, 1]] }, bin), /bad path/],
    ];
    for (const [frame, message] of cases) expect(() => decodeMessage(frame)).toThrow(message);
    const badUtf8 = new Uint8Array(withHeader({ m: 'xx', b: [] }));
    badUtf8[14] = 0xff;
    expect(() => decodeMessage(badUtf8.buffer)).toThrow(/UTF-8 JSON/);
    expect(() => decodeMessage('text' as unknown as ArrayBuffer)).toThrow(WireError);
  });

  it('checks the shape of requests, responses and events', () => {
    expect(parseWireMessage({ type: 'request', id: 1, channel: 'app.info', payload: {} })).toEqual({ type: 'request', id: 1, channel: 'app.info', payload: {} });
    expect(parseWireMessage({ type: 'response', id: 1, ok: true, result: null })).toMatchObject({ ok: true, result: null });
    expect(parseWireMessage({ type: 'response', id: 2, ok: false, error: { code: 'x', message: 'm' } })).toEqual({ type: 'response', id: 2, ok: false, error: { code: 'x', message: 'm', path: null } });
    expect(parseWireMessage({ type: 'event', event: 'job.progress', payload: { a: 1 } })).toMatchObject({ event: 'job.progress' });
    const bad: unknown[] = [
      null, [], 'request', { type: 'nope' },
      { type: 'request', id: -1, channel: 'x' }, { type: 'request', id: 1.5, channel: 'x' }, { type: 'request', id: 1, channel: '' },
      { type: 'request', id: 1, channel: 'x'.repeat(300) }, { type: 'response', id: 1 }, { type: 'response', id: 1, ok: false, error: 'boom' },
      { type: 'event', event: 7 },
    ];
    for (const b of bad) expect(() => parseWireMessage(b), JSON.stringify(b)).toThrow(WireError);
  });
});
