/**
 * The loopback bridge's binary message codec (../bridge/server.ts ⇄ src-renderer/host/bridgeClient.ts).
 * Pure TypeScript with no Node API, so the browser client uses the same file.
 *
 * A frame is one WebSocket binary message:
 *
 *   bytes 0..3   magic 'IFW1'
 *   bytes 4..7   byte length J of the JSON header (uint32, little endian)
 *   bytes 8..    the header: UTF-8 JSON `{ "m": <message>, "b": [[path, type, offset, length], …] }`
 *   then zero padding to a multiple of 8, then the binary section.
 *
 * Every typed array in the message is lifted out of the JSON into the binary section (each at an
 * 8-byte aligned offset) and its place in the JSON holds `null`; `b` lists where it goes (`path`:
 * the keys and indices from the message root), its type, and its byte offset and element count
 * in the binary section. Paths rather than in-band markers: no JSON value can be mistaken for an
 * array. Decoding restores each typed array as the same type, as a view into the received
 * buffer (no copy when the buffer is aligned).
 *
 * Decoding validates the framing completely (magic, lengths, alignment, bounds, types, paths);
 * anything wrong throws WireError, never anything else. `parseWireMessage` then checks the shape
 * of a request, response or event.
 */
import type { HostError } from './host.js';

export type WireMessage =
  | { readonly type: 'request'; readonly id: number; readonly channel: string; readonly payload: unknown }
  | { readonly type: 'response'; readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly type: 'response'; readonly id: number; readonly ok: false; readonly error: HostError }
  | { readonly type: 'event'; readonly event: string; readonly payload: unknown };

/** A frame that cannot be encoded or decoded, or a message of the wrong shape. */
export class WireError extends Error {
  override readonly name = 'WireError';
}

const MAGIC = [0x49, 0x46, 0x57, 0x31]; // 'IFW1'
const PREFIX_BYTES = 8;
const ALIGN = 8;
/** Deepest nesting accepted (encoding and decoding), far beyond any host message. */
const MAX_DEPTH = 64;
/** Longest path segment (a key) accepted in the binary table. */
const MAX_KEY_LENGTH = 4096;

type TypedArrayCtor =
  | Float32ArrayConstructor | Float64ArrayConstructor | Uint32ArrayConstructor | Int32ArrayConstructor
  | Uint8ArrayConstructor | Int8ArrayConstructor | Uint16ArrayConstructor | Int16ArrayConstructor
  | Uint8ClampedArrayConstructor;
type AnyTypedArray =
  | Float32Array | Float64Array | Uint32Array | Int32Array | Uint8Array | Int8Array | Uint16Array | Int16Array
  | Uint8ClampedArray;

/** Type codes of the binary table; the codes are part of the format. */
const TYPES: readonly { readonly code: string; readonly ctor: TypedArrayCtor }[] = [
  { code: 'f32', ctor: Float32Array },
  { code: 'f64', ctor: Float64Array },
  { code: 'u32', ctor: Uint32Array },
  { code: 'i32', ctor: Int32Array },
  { code: 'u8', ctor: Uint8Array },
  { code: 'i8', ctor: Int8Array },
  { code: 'u16', ctor: Uint16Array },
  { code: 'i16', ctor: Int16Array },
  { code: 'u8c', ctor: Uint8ClampedArray },
];

function typeOf(value: unknown): { code: string; ctor: TypedArrayCtor } | null {
  for (const t of TYPES) if (value instanceof t.ctor) return t;
  return null;
}

function align(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}

type PathSegment = string | number;
type BinaryEntry = [PathSegment[], string, number, number];

const encoder = new TextEncoder();

// ------------------------------------------------------------------------------------------------
// Encoding

/**
 * Encodes a message (any JSON value, with typed arrays anywhere) as one frame. JSON rules apply
 * to everything else: `undefined` and functions are left out of objects (null in arrays),
 * non-finite numbers become null, `toJSON` is honoured. Throws WireError for cycles, BigInt,
 * DataView or BigInt64 arrays, and nesting deeper than 64.
 */
export function encodeMessage(value: unknown): ArrayBuffer {
  const arrays: { path: PathSegment[]; array: AnyTypedArray; code: string }[] = [];
  const seen = new Set<object>();
  const path: PathSegment[] = [];

  const lift = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : null;
    if (typeof v === 'bigint') throw new WireError(`cannot encode a BigInt at ${describePath(path)}`);
    if (typeof v !== 'object') return undefined; // undefined, functions, symbols
    const t = typeOf(v);
    if (t !== null) {
      arrays.push({ path: [...path], array: v as AnyTypedArray, code: t.code });
      return null;
    }
    if (ArrayBuffer.isView(v)) throw new WireError(`cannot encode a ${v.constructor.name} at ${describePath(path)}`);
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return lift((toJSON as () => unknown).call(v), depth);
    if (depth >= MAX_DEPTH) throw new WireError(`the message is nested deeper than ${MAX_DEPTH} levels`);
    if (seen.has(v)) throw new WireError(`the message has a cycle at ${describePath(path)}`);
    seen.add(v);
    let out: unknown;
    if (Array.isArray(v)) {
      const arr: unknown[] = new Array(v.length);
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        const x = lift(v[i], depth + 1);
        path.pop();
        arr[i] = x === undefined ? null : x;
      }
      out = arr;
    } else {
      const obj: Record<string, unknown> = {};
      for (const key of Object.keys(v)) {
        path.push(key);
        const x = lift((v as Record<string, unknown>)[key], depth + 1);
        path.pop();
        if (x !== undefined) defineOwn(obj, key, x);
      }
      out = obj;
    }
    seen.delete(v);
    return out;
  };

  const lifted = lift(value, 0);
  const table: BinaryEntry[] = [];
  let binaryBytes = 0;
  for (const a of arrays) {
    const offset = align(binaryBytes);
    table.push([a.path, a.code, offset, a.array.length]);
    binaryBytes = offset + a.array.byteLength;
  }
  const header = encoder.encode(JSON.stringify({ m: lifted === undefined ? null : lifted, b: table }));
  const binaryStart = align(PREFIX_BYTES + header.length);
  const buffer = new ArrayBuffer(binaryStart + binaryBytes);
  const bytes = new Uint8Array(buffer);
  bytes.set(MAGIC, 0);
  new DataView(buffer).setUint32(4, header.length, true);
  bytes.set(header, PREFIX_BYTES);
  for (let i = 0; i < arrays.length; i++) {
    const a = arrays[i].array;
    bytes.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), binaryStart + table[i][2]);
  }
  return buffer;
}

function describePath(path: readonly PathSegment[]): string {
  return path.length === 0 ? 'the root' : path.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('');
}

/** Sets an own data property (a key such as `__proto__` stays a plain key). */
function defineOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

// ------------------------------------------------------------------------------------------------
// Decoding

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes one frame. Typed arrays come back as views into `frame` (copied once first when the
 * frame is not 8-byte aligned). Throws WireError for anything that is not a well-formed frame.
 */
export function decodeMessage(frame: ArrayBuffer | ArrayBufferView): unknown {
  let buffer: ArrayBuffer;
  let base: number;
  let length: number;
  if (frame instanceof ArrayBuffer) {
    buffer = frame;
    base = 0;
    length = frame.byteLength;
  } else if (ArrayBuffer.isView(frame) && frame.buffer instanceof ArrayBuffer) {
    length = frame.byteLength;
    if (frame.byteOffset % ALIGN === 0) {
      buffer = frame.buffer;
      base = frame.byteOffset;
    } else {
      buffer = new ArrayBuffer(length);
      new Uint8Array(buffer).set(new Uint8Array(frame.buffer, frame.byteOffset, length));
      base = 0;
    }
  } else {
    throw new WireError('a frame must be binary data');
  }
  if (length < PREFIX_BYTES) throw new WireError(`the frame is too short (${length} bytes)`);
  const bytes = new Uint8Array(buffer, base, length);
  for (let i = 0; i < MAGIC.length; i++) {
    if (bytes[i] !== MAGIC[i]) throw new WireError('the frame does not start with the bridge magic');
  }
  const headerLength = new DataView(buffer, base, length).getUint32(4, true);
  if (headerLength > length - PREFIX_BYTES) throw new WireError(`the frame's header length ${headerLength} exceeds the frame`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoder.decode(bytes.subarray(PREFIX_BYTES, PREFIX_BYTES + headerLength)));
  } catch (e) {
    throw new WireError(`the frame's header is not valid UTF-8 JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!isPlainObject(parsed) || !Object.prototype.hasOwnProperty.call(parsed, 'm') || !Array.isArray(parsed.b)) {
    throw new WireError('the frame\'s header must be an object with "m" and "b"');
  }
  const binaryStart = align(PREFIX_BYTES + headerLength);
  const binaryLength = length - binaryStart;
  const root = { m: parsed.m };
  const table = parsed.b as unknown[];
  for (let k = 0; k < table.length; k++) {
    const entry = table[k];
    if (!Array.isArray(entry) || entry.length !== 4) throw new WireError(`binary entry ${k} is not [path, type, offset, length]`);
    const [path, code, offset, count] = entry as unknown[];
    const type = TYPES.find((t) => t.code === code);
    if (type === undefined) throw new WireError(`binary entry ${k} has an unknown type ${JSON.stringify(code)?.slice(0, 20)}`);
    if (!isCount(offset) || offset % ALIGN !== 0) throw new WireError(`binary entry ${k} has a bad offset`);
    if (!isCount(count)) throw new WireError(`binary entry ${k} has a bad length`);
    const byteLength = count * type.ctor.BYTES_PER_ELEMENT;
    if (binaryLength < 0 || offset + byteLength > binaryLength) throw new WireError(`binary entry ${k} lies outside the frame`);
    const array = new type.ctor(buffer, base + binaryStart + offset, count);
    place(root, path, array, k);
  }
  return root.m;
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Puts a typed array at `path` below root.m, where the JSON must hold null. */
function place(root: { m: unknown }, path: unknown, array: AnyTypedArray, k: number): void {
  if (!Array.isArray(path) || path.length > MAX_DEPTH) throw new WireError(`binary entry ${k} has a bad path`);
  let holder: unknown = root;
  let key: PathSegment = 'm';
  for (const segment of path as unknown[]) {
    const next = child(holder, key);
    if (typeof segment === 'number') {
      if (!Array.isArray(next) || !Number.isInteger(segment) || segment < 0 || segment >= next.length) {
        throw new WireError(`binary entry ${k}: its path does not lead to an array element`);
      }
    } else if (typeof segment === 'string') {
      if (!isPlainObject(next) || segment.length > MAX_KEY_LENGTH || !Object.prototype.hasOwnProperty.call(next, segment)) {
        throw new WireError(`binary entry ${k}: its path does not lead to an object field`);
      }
    } else {
      throw new WireError(`binary entry ${k} has a bad path segment`);
    }
    holder = next;
    key = segment;
  }
  if (child(holder, key) !== null) throw new WireError(`binary entry ${k}: its place in the message is not empty`);
  if (Array.isArray(holder)) holder[key as number] = array;
  else defineOwn(holder as Record<string, unknown>, key as string, array);
}

function child(holder: unknown, key: PathSegment): unknown {
  if (Array.isArray(holder)) return holder[key as number];
  return Object.prototype.hasOwnProperty.call(holder, key) ? (holder as Record<string, unknown>)[key as string] : undefined;
}

// ------------------------------------------------------------------------------------------------
// Message shapes

function isId(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function isName(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= 256;
}

/** Checks a decoded value is a bridge message; throws WireError naming what is wrong. */
export function parseWireMessage(value: unknown): WireMessage {
  if (!isPlainObject(value)) throw new WireError('a message must be an object');
  switch (value.type) {
    case 'request':
      if (!isId(value.id)) throw new WireError('a request needs a numeric id');
      if (!isName(value.channel)) throw new WireError('a request needs a channel name');
      return { type: 'request', id: value.id, channel: value.channel, payload: value.payload ?? {} };
    case 'response':
      if (!isId(value.id)) throw new WireError('a response needs a numeric id');
      if (value.ok === true) return { type: 'response', id: value.id, ok: true, result: value.result ?? null };
      if (value.ok === false) {
        const e = value.error;
        if (!isPlainObject(e) || typeof e.code !== 'string' || typeof e.message !== 'string') {
          throw new WireError('an error response needs an error with a code and a message');
        }
        const path = typeof e.path === 'string' ? e.path : null;
        return { type: 'response', id: value.id, ok: false, error: { code: e.code, message: e.message, path } };
      }
      throw new WireError('a response needs ok: true or false');
    case 'event':
      if (!isName(value.event)) throw new WireError('an event needs an event name');
      return { type: 'event', event: value.event, payload: value.payload ?? null };
    default:
      throw new WireError(`unknown message type ${JSON.stringify(value.type)?.slice(0, 40) ?? 'undefined'}`);
  }
}
