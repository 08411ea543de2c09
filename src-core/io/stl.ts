/**
 * STL importer, binary and ASCII. One file is one body (formats.md): several `solid … endsolid`
 * blocks in an ASCII file are merged into one body in file order.
 *
 * Binary or ASCII is decided by content, never by the extension or by the word `solid` alone
 * (binary headers often begin with "solid"):
 *   1. binary when the file is at least 84 bytes and 84 + 50·n equals its size (n = uint32 at 80);
 *   2. else ASCII when it is text (no control bytes in the first 4 KB) beginning with `solid`
 *      (after blanks and `#` comment lines);
 *   3. else, if it looks binary, an error saying exactly how its size disagrees with its count.
 *
 * Triangles keep the file's order; vertices are welded by exact equality (−0 equals 0); degenerate
 * triangles are kept; normals are ignored (geometry comes from the vertices only). Coordinates are
 * multiplied by the unit scale after reading (float32 → double, then × scale).
 */
import { LIMIT_HINTS, checkBodyTriangles, checkFileSize, limitsOf, maxBodyTriangles } from './limits.js';
import type { EffectiveLimits } from './limits.js';
import { runSteps, runStepsAsync } from './steps.js';
import type { Steps } from './steps.js';
import { weldSteps } from '../geometry/weld.js';
import type { Welded } from '../geometry/weld.js';
import {
  ImportError,
  checkAborted,
  decodeText,
  describeKnownFormat,
  fileStem,
  groupDigits,
  hasUtf8Bom,
  isBlankFile,
  looksLikeText,
  plural,
  unitScale,
} from './types.js';
import type { ImportOptions, ImportResult, Importer } from './types.js';

const HEADER_BYTES = 80;
const BINARY_PREFIX_BYTES = 84;
const BINARY_TRIANGLE_BYTES = 50;
/** Binary triangles between two checkpoints (3.3 MB, about 15 ms). */
const BINARY_STRIDE = 1 << 16;
/** ASCII facets between two checkpoints (about 4 MB, 30 ms). */
const ASCII_STRIDE = 1 << 14;

// ---------------------------------------------------------------------------------------------
// Detection

/**
 * Space, tab, LF, VT, FF, CR. Defined here rather than imported: module loaders (vitest, tsx) turn
 * imported bindings into property reads, which cost a lot in the per-byte loops.
 */
function isBlankByte(b: number): boolean {
  return b === 0x20 || (b >= 0x09 && b <= 0x0d);
}

/** The triangle count a binary header claims, or -1 when the file is shorter than 84 bytes. */
export function binaryStlCount(bytes: Uint8Array): number {
  if (bytes.length < BINARY_PREFIX_BYTES) return -1;
  return (bytes[80] | (bytes[81] << 8) | (bytes[82] << 16) | (bytes[83] << 24)) >>> 0;
}

/** The binary layout rule: at least 84 bytes and 84 + 50·n equals the file size. */
export function isBinaryStlLayout(bytes: Uint8Array): boolean {
  const n = binaryStlCount(bytes);
  return n >= 0 && BINARY_PREFIX_BYTES + BINARY_TRIANGLE_BYTES * n === bytes.length;
}

/** Offset of the first byte after the BOM, blanks and `#` comment lines. */
function firstContentByte(bytes: Uint8Array): number {
  let p = hasUtf8Bom(bytes) ? 3 : 0;
  const n = bytes.length;
  while (p < n) {
    const c = bytes[p];
    if (isBlankByte(c)) p++;
    else if (c === 0x23) while (p < n && bytes[p] !== 0x0a && bytes[p] !== 0x0d) p++;
    else break;
  }
  return p;
}

/** Whether the keyword (lower-case letters) is at `p`, case-insensitively, as a whole token. */
function keywordAt(bytes: Uint8Array, p: number, kw: Uint8Array): boolean {
  if (p + kw.length > bytes.length) return false;
  for (let k = 0; k < kw.length; k++) if ((bytes[p + k] | 0x20) !== kw[k]) return false;
  const after = p + kw.length;
  return after === bytes.length || isBlankByte(bytes[after]);
}

/**
 * Text (no control bytes in the first 4 KB, not counting NUL or Ctrl-Z padding at the end of the
 * file) that begins with `solid`: read as ASCII STL when the size does not fit the binary rule.
 */
function looksLikeAsciiStl(bytes: Uint8Array): boolean {
  return looksLikeStlText(bytes) && keywordAt(bytes, firstContentByte(bytes), KW_SOLID);
}

function looksLikeStlText(bytes: Uint8Array): boolean {
  let end = bytes.length;
  while (end > 0 && (bytes[end - 1] === 0x00 || bytes[end - 1] === 0x1a || isBlankByte(bytes[end - 1]))) end--;
  return looksLikeText(bytes.subarray(0, end));
}

/** Whether a `facet` or `endsolid` token occurs in the first `limit` bytes. */
function hasStlTokens(bytes: Uint8Array, limit: number): boolean {
  const end = Math.min(bytes.length, limit);
  for (let p = 0; p < end; p++) {
    if (p > 0 && !isBlankByte(bytes[p - 1])) continue;
    const c = bytes[p] | 0x20;
    if ((c === 0x66 && keywordAt(bytes, p, KW_FACET)) || (c === 0x65 && keywordAt(bytes, p, KW_ENDSOLID))) return true;
  }
  return false;
}

/**
 * Content confidence: 0.9 for a binary STL whose size matches its count or ASCII STL text with
 * facets; 0.5 for text beginning with `solid` but no facet in sight; 0.1 for non-text of at least
 * 84 bytes whose size does not match (possibly a damaged binary STL); else 0.
 */
export function sniffStl(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  if (isBinaryStlLayout(bytes)) return binaryStlCount(bytes) > 0 ? 0.9 : 0.6;
  if (looksLikeStlText(bytes)) {
    if (!keywordAt(bytes, firstContentByte(bytes), KW_SOLID)) return 0;
    return hasStlTokens(bytes, 1 << 16) ? 0.9 : 0.5;
  }
  if (describeKnownFormat(bytes) !== null) return 0;
  return bytes.length >= BINARY_PREFIX_BYTES ? 0.1 : 0.05;
}

// ---------------------------------------------------------------------------------------------
// Entry points

/**
 * Reads an STL file synchronously. Throws ImportError. The signal is checked and progress reported
 * every few MB, but a synchronous parse cannot see an abort requested by the host's event loop:
 * the importer (stlImporter.import) uses parseStlAsync, which lets the host run in between.
 */
export function parseStl(bytes: Uint8Array, fileName: string, options: ImportOptions = {}): ImportResult {
  return runSteps(stlSteps(bytes, fileName, options), progressTotal(bytes), fileName, options);
}

/**
 * Reads an STL file, awaiting options.yieldToHost at every checkpoint (every 65,536 binary or
 * 16,384 ASCII triangles and every 262,144 welded vertices, a few MB or a few tens of milliseconds
 * each), so that aborting takes effect within one checkpoint. Throws ImportError.
 */
export function parseStlAsync(bytes: Uint8Array, fileName: string, options: ImportOptions = {}): Promise<ImportResult> {
  let steps: Steps<ImportResult>;
  try {
    steps = stlSteps(bytes, fileName, options);
  } catch (err) {
    return Promise.reject(err);
  }
  return runStepsAsync(steps, progressTotal(bytes), fileName, options);
}

/** Progress units of an STL: its bytes read, then its bytes again for welding. */
function progressTotal(bytes: Uint8Array): number {
  return 2 * bytes.length;
}

/** Validates the options and the file, then returns the parser's steps. */
function stlSteps(bytes: Uint8Array, fileName: string, options: ImportOptions): Steps<ImportResult> {
  const scale = unitScale(options.units);
  const limits = limitsOf(options);
  checkAborted(options.signal, fileName);
  if (bytes.length === 0) throw new ImportError('empty-file', fileName, 'the file is empty (0 bytes)');
  checkFileSize(bytes.length, fileName, limits);
  if (isBlankFile(bytes)) {
    throw new ImportError('empty-file', fileName, `the file holds only whitespace (${plural(bytes.length, 'byte')})`);
  }
  if (isBinaryStlLayout(bytes)) return readBinary(bytes, fileName, scale, limits);
  if (looksLikeAsciiStl(bytes)) return readAscii(bytes, fileName, scale, limits);
  throw notStlError(bytes, fileName);
}

export const stlImporter: Importer = {
  id: 'stl',
  label: 'STL',
  extensions: ['stl'],
  sniff: sniffStl,
  import(bytes: Uint8Array, fileName: string, options?: ImportOptions): Promise<ImportResult> {
    return parseStlAsync(bytes, fileName, options);
  },
};

/**
 * The error the importer certainly gives a file of `size` bytes that begins with `head`, told
 * before the rest is read; null when only the whole file can tell (or `head` is all of it). A file
 * of at least 84 bytes whose size does not fit its binary count (84 + 50·n) and whose first token
 * is not `solid` is neither binary nor ASCII STL, whatever follows: the same detection as
 * stlSteps, decided from the first 4 KB (at least) and the size. The message is notStlError's,
 * except that UTF-8 replacement characters are looked for in `head` only. A binary STL whose
 * count is beyond `limits` gets readBinary's 'too-large' error.
 */
export function stlHeadProblem(head: Uint8Array, size: number, fileName: string, limits: EffectiveLimits = limitsOf()): ImportError | null {
  if (head.length >= size || size < BINARY_PREFIX_BYTES || head.length < Math.min(size, TEXT_SNIFF_BYTES)) return null;
  const n = binaryStlCount(head);
  if (BINARY_PREFIX_BYTES + BINARY_TRIANGLE_BYTES * n === size) {
    // A binary STL: its count alone says whether it is within the triangle limits.
    try {
      checkBodyTriangles(n, fileName, limits, 'binary STL');
    } catch (err) {
      if (err instanceof ImportError) return err;
      throw err;
    }
    return null;
  }
  const p = firstContentByte(head);
  // Only a first token of `solid` makes ASCII possible; it must end inside the head to tell.
  if (p + KW_SOLID.length >= head.length || keywordAt(head, p, KW_SOLID)) return null;
  return notStlError(head, fileName, size);
}

/** Bytes looksLikeText looks at (its default). */
const TEXT_SNIFF_BYTES = 4096;

/**
 * The error for a file that is neither a size-consistent binary STL nor ASCII STL text. `bytes`
 * may be the first bytes of a file of `size` bytes (stlHeadProblem).
 */
function notStlError(bytes: Uint8Array, fileName: string, size = bytes.length): ImportError {
  const known = describeKnownFormat(bytes);
  if (known !== null) return new ImportError('not-stl', fileName, `not an STL file: it looks like ${known}`);
  if (looksLikeText(bytes)) {
    return new ImportError(
      'not-stl',
      fileName,
      "not an STL file: it is text but does not begin with 'solid' (ASCII STL), and its size does not fit a binary STL",
    );
  }
  if (size < BINARY_PREFIX_BYTES) {
    return new ImportError(
      'truncated',
      fileName,
      `binary STL is truncated: the file has ${plural(size, 'byte')}, fewer than the 84-byte header and triangle count`,
    );
  }
  const n = binaryStlCount(bytes);
  const expected = BINARY_PREFIX_BYTES + BINARY_TRIANGLE_BYTES * n;
  const claim = `header says ${plural(n, 'triangle')} (${groupDigits(expected)} bytes) but the file has ${groupDigits(size)} bytes`;
  const wholeTriangles = (size - BINARY_PREFIX_BYTES) % BINARY_TRIANGLE_BYTES === 0;
  const room = (size - BINARY_PREFIX_BYTES) / BINARY_TRIANGLE_BYTES;
  const mangled = hasReplacementCharacters(bytes)
    ? '; it contains UTF-8 replacement characters (EF BF BD), so it was probably converted as text and is damaged'
    : '';
  // Cut off mid-triangle, or nothing after the header: truncated. Whole triangles but a different
  // number than the header says: the count is wrong (or whole triangles are missing).
  if (size < expected && (!wholeTriangles || room === 0)) {
    return new ImportError('truncated', fileName, `binary STL is truncated: ${claim}${mangled}`);
  }
  const detail = size < expected
    ? `, room for exactly ${plural(room, 'triangle')}`
    : ` (${plural(size - expected, 'byte')} more than the count allows)`;
  return new ImportError('count-mismatch', fileName, `binary STL triangle count does not match the file size: ${claim}${detail}${mangled}`);
}

function hasReplacementCharacters(bytes: Uint8Array): boolean {
  for (let i = 0; i + 2 < bytes.length; i++) {
    if (bytes[i] === 0xef && bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Binary

function* readBinary(bytes: Uint8Array, fileName: string, scale: number, limits: EffectiveLimits): Steps<ImportResult> {
  const n = binaryStlCount(bytes);
  if (n === 0) throw new ImportError('no-triangles', fileName, 'binary STL has no triangles (its triangle count is 0)');
  checkBodyTriangles(n, fileName, limits, 'binary STL');
  const warnings: string[] = [];
  if (startsWithSolidBytes(bytes)) {
    warnings.push(
      `binary STL whose header begins with 'solid' like an ASCII STL; read as binary because its size is exactly 84 + 50 × ${groupDigits(n)} bytes`,
    );
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const soup = new Float64Array(9 * n);
  // Per triangle: 12 bytes normal (ignored), 36 bytes vertices, 2 bytes attribute. The attribute
  // word may carry a per-facet colour (VisCAM / Materialise conventions); per-facet colours are
  // ignored, only the header's body colour is read.
  for (let t = 0; t < n; t += BINARY_STRIDE) {
    if (t > 0) yield BINARY_PREFIX_BYTES + 12 + t * BINARY_TRIANGLE_BYTES;
    const bad = readBinaryRange(dv, soup, t, Math.min(n, t + BINARY_STRIDE), scale);
    if (bad >= 0) {
      const off = BINARY_PREFIX_BYTES + 12 + bad * BINARY_TRIANGLE_BYTES;
      const v: number[] = [];
      for (let k = 0; k < 9; k++) v.push(dv.getFloat32(off + 4 * k, true));
      throw binaryNonFinite(fileName, bad, v);
    }
  }
  yield bytes.length;
  const welded = yield* weldWithProgress(soup, bytes.length);
  return {
    format: 'stl-binary',
    bodies: [{
      name: binaryHeaderName(bytes),
      color: binaryHeaderColor(bytes),
      positions: welded.positions,
      indices: welded.indices,
      triangleCount: n,
      faceRanges: null,
      path: [fileStem(fileName)],
    }],
    warnings,
  };
}

/**
 * Triangles from..to of a binary STL into the soup (a plain function, not the generator's body:
 * V8 optimises a long loop while it runs only outside generators). Returns the first triangle
 * with a non-finite coordinate, or −1.
 */
function readBinaryRange(dv: DataView, soup: Float64Array, from: number, to: number, scale: number): number {
  let off = BINARY_PREFIX_BYTES + 12 + from * BINARY_TRIANGLE_BYTES;
  for (let t = from; t < to; t++, off += BINARY_TRIANGLE_BYTES) {
    const x0 = dv.getFloat32(off, true), y0 = dv.getFloat32(off + 4, true), z0 = dv.getFloat32(off + 8, true);
    const x1 = dv.getFloat32(off + 12, true), y1 = dv.getFloat32(off + 16, true), z1 = dv.getFloat32(off + 20, true);
    const x2 = dv.getFloat32(off + 24, true), y2 = dv.getFloat32(off + 28, true), z2 = dv.getFloat32(off + 32, true);
    const s = x0 + y0 + z0 + x1 + y1 + z1 + x2 + y2 + z2; // float32 magnitudes cannot overflow a double sum
    if (s - s !== 0) return t;
    const o = 9 * t;
    // float32 × at most 1000 (m) stays far below the double range: no overflow check needed.
    if (scale === 1) {
      soup[o] = x0; soup[o + 1] = y0; soup[o + 2] = z0;
      soup[o + 3] = x1; soup[o + 4] = y1; soup[o + 5] = z1;
      soup[o + 6] = x2; soup[o + 7] = y2; soup[o + 8] = z2;
    } else {
      soup[o] = x0 * scale; soup[o + 1] = y0 * scale; soup[o + 2] = z0 * scale;
      soup[o + 3] = x1 * scale; soup[o + 4] = y1 * scale; soup[o + 5] = z1 * scale;
      soup[o + 6] = x2 * scale; soup[o + 7] = y2 * scale; soup[o + 8] = z2 * scale;
    }
  }
  return -1;
}

/** Welds the soup, yielding progress from `size` (reading done) to 2 × size. */
function* weldWithProgress(soup: Float64Array, size: number): Steps<Welded> {
  const vertices = soup.length / 3;
  const steps = weldSteps(soup);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    yield size + Math.floor((size * r.value) / vertices);
  }
}

/** The first five bytes spell `solid` (any case), whatever follows. */
function startsWithSolidBytes(bytes: Uint8Array): boolean {
  for (let k = 0; k < KW_SOLID.length; k++) if ((bytes[k] | 0x20) !== KW_SOLID[k]) return false;
  return true;
}

function binaryNonFinite(fileName: string, t: number, v: readonly number[]): ImportError {
  let k = 0;
  while (k < 9 && Number.isFinite(v[k])) k++;
  const vertex = Math.floor(k / 3);
  const coords = v.slice(3 * vertex, 3 * vertex + 3).map((x) => String(x)).join(', ');
  const at = BINARY_PREFIX_BYTES + BINARY_TRIANGLE_BYTES * t;
  return new ImportError(
    'non-finite-coordinate',
    fileName,
    `triangle ${groupDigits(t)} (counting from 0; bytes ${groupDigits(at)}–${groupDigits(at + 49)}) has a non-finite coordinate: vertex ${vertex} is (${coords})`,
    { triangle: t },
  );
}

/**
 * Body name from the 80-byte header: its printable text up to the first NUL, without a leading
 * `solid` keyword; '' when the header is not plain text or holds colour/material fields.
 */
function binaryHeaderName(bytes: Uint8Array): string {
  let end = 0;
  while (end < HEADER_BYTES && bytes[end] !== 0) end++;
  for (let i = 0; i < end; i++) if (bytes[i] < 0x20 || bytes[i] > 0x7e) return '';
  let text = decodeText(bytes, 0, end).trim();
  if (/COLOR=|MATERIAL=/.test(text)) return '';
  if (/^solid(\s|$)/i.test(text)) text = text.slice(5).trim();
  return text;
}

/** Body colour from a header `COLOR=` field followed by 4 bytes R G B A (Materialise / VisCAM). */
function binaryHeaderColor(bytes: Uint8Array): [number, number, number] | null {
  for (let i = 0; i + 10 <= HEADER_BYTES; i++) {
    if (
      bytes[i] === 0x43 && bytes[i + 1] === 0x4f && bytes[i + 2] === 0x4c && bytes[i + 3] === 0x4f &&
      bytes[i + 4] === 0x52 && bytes[i + 5] === 0x3d
    ) {
      return [bytes[i + 6] / 255, bytes[i + 7] / 255, bytes[i + 8] / 255];
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// ASCII
//
// One pass over the bytes with plain functions of (bytes, position): no per-token strings, no
// line counter in the hot loop (an error's line is counted from the start when it is reported),
// coordinates written into a Float64Array that doubles when full.

function kw(s: string): Uint8Array {
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}
const KW_SOLID = kw('solid');
const KW_ENDSOLID = kw('endsolid');
const KW_FACET = kw('facet');
const KW_NORMAL = kw('normal');
const KW_OUTER = kw('outer');
const KW_LOOP = kw('loop');
const KW_VERTEX = kw('vertex');
const KW_ENDLOOP = kw('endloop');
const KW_ENDFACET = kw('endfacet');

/** Exact powers of ten representable as doubles. */
const POW10 = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
  1e20, 1e21, 1e22,
];

const NUM_OK = 0;
const NUM_SYNTAX = 1;
const NUM_NON_FINITE = 2;
/** While the mantissa is at most this, mant × 10 + 9 < 2^53: every digit is added exactly. */
const MANT_LIMIT = 900719925474098;
/** Outcome of the last scanNumber call. */
let numStatus = NUM_OK;
/** Where the last scanNumber call stopped. */
let numEnd = 0;

/**
 * Reads the number token at bytes[s]: [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?,
 * which must end at a blank or the end of the file. Sets numStatus and numEnd.
 *
 * Correctly rounded: a mantissa below 2^53 (15–16 significant digits, trailing zeros dropped) with
 * a decimal exponent within ±22 is one exact multiplication or division of two exact doubles (a
 * single rounding); anything else goes through Number() on the validated text. With `needValue` false only the syntax is checked (normals).
 */
function scanNumber(b: Uint8Array, s: number, needValue: boolean): number {
  const n = b.length;
  let p = s;
  let neg = false;
  const c = b[p];
  if (c === 0x2d) { neg = true; p++; } else if (c === 0x2b) p++;
  let mant = 0;
  let exp10 = 0;
  let digits = 0;
  let slow = false;
  while (p < n) {
    const d = b[p] - 0x30;
    if (d < 0 || d > 9) break;
    digits++;
    if (mant <= MANT_LIMIT) mant = mant * 10 + d;
    else if (d === 0) exp10++; // a dropped trailing zero keeps the value exact
    else slow = true;
    p++;
  }
  if (p < n && b[p] === 0x2e) {
    p++;
    while (p < n) {
      const d = b[p] - 0x30;
      if (d < 0 || d > 9) break;
      digits++;
      if (mant <= MANT_LIMIT) { mant = mant * 10 + d; exp10--; }
      else if (d !== 0) slow = true; // (a dropped trailing zero after the point changes nothing)
      p++;
    }
  }
  numEnd = p;
  if (digits === 0) { numStatus = NUM_SYNTAX; return NaN; }
  if (p < n && (b[p] | 0x20) === 0x65) {
    p++;
    let eneg = false;
    if (p < n && (b[p] === 0x2d || b[p] === 0x2b)) { eneg = b[p] === 0x2d; p++; }
    let ev = 0;
    const e0 = p;
    while (p < n) {
      const d = b[p] - 0x30;
      if (d < 0 || d > 9) break;
      if (ev < 100000) ev = ev * 10 + d;
      p++;
    }
    numEnd = p;
    if (p === e0) { numStatus = NUM_SYNTAX; return NaN; }
    exp10 += eneg ? -ev : ev;
  }
  if (p < n && !isBlankByte(b[p])) { numStatus = NUM_SYNTAX; return NaN; }
  if (!needValue) { numStatus = NUM_OK; return 0; }
  let v: number;
  if (mant === 0) {
    v = 0; // slow is only set once the mantissa is full, so mant > 0 there
  } else if (!slow && exp10 >= -22 && exp10 <= 22) {
    v = exp10 >= 0 ? mant * POW10[exp10] : mant / POW10[-exp10];
  } else {
    let text = '';
    for (let i = s; i < p; i++) text += String.fromCharCode(b[i]);
    v = Math.abs(Number(text)); // the sign is applied below, as on the fast path
  }
  if (neg) v = -v;
  numStatus = v - v === 0 ? NUM_OK : NUM_NON_FINITE;
  return v;
}

/** Non-numbers that spell a non-finite value: nan, inf, infinity, and C runtime forms like 1.#INF. */
const NON_FINITE_WORD = /^[+-]?(nan|inf|infinity|\d*\.?#(inf|ind|qnan|snan)\w*)$/i;

/** Skips blanks and `#` comments (a `#` that starts a token runs to the end of the line). */
function skipBlank(b: Uint8Array, p: number): number {
  const n = b.length;
  while (p < n) {
    const c = b[p];
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) p++;
    else if (c === 0x23) { while (p < n && b[p] !== 0x0a && b[p] !== 0x0d) p++; }
    else break;
  }
  return p;
}

function tokenEnd(b: Uint8Array, p: number): number {
  while (p < b.length && !isBlankByte(b[p])) p++;
  return p;
}

/** The 1-based line of byte `pos` (LF, CRLF and lone CR all end a line). */
function lineAt(b: Uint8Array, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < b.length; i++) {
    const c = b[i];
    if (c === 0x0a || (c === 0x0d && b[i + 1] !== 0x0a)) line++;
  }
  return line;
}

/** The token at `p` for messages: at most 40 characters, control and non-ASCII bytes as \xNN. */
function tokenText(b: Uint8Array, p: number): string {
  const end = tokenEnd(b, p);
  let s = '';
  for (let i = p; i < end && i < p + 40; i++) {
    const c = b[i];
    s += c >= 0x20 && c <= 0x7e ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return end - p > 40 ? s + '…' : s;
}

/**
 * The rest of the line after `solid`/`endsolid`, without a `#` comment, trimmed. Sets numEnd to
 * where reading should resume.
 */
function readName(b: Uint8Array, p: number): string {
  const n = b.length;
  while (p < n && (b[p] === 0x20 || b[p] === 0x09)) p++;
  const start = p;
  let end = p;
  while (p < n && b[p] !== 0x0a && b[p] !== 0x0d) {
    const tokenStart = p === start || b[p - 1] === 0x20 || b[p - 1] === 0x09;
    if (tokenStart && b[p] === 0x23) break; // a comment
    // A whole file on one line: the name stops where the structure resumes.
    if (tokenStart && (keywordAt(b, p, KW_FACET) || keywordAt(b, p, KW_ENDSOLID))) break;
    p++;
    if (!isBlankByte(b[p - 1])) end = p;
  }
  numEnd = end;
  return decodeText(b, start, end);
}

/**
 * When everything from `p` on is NUL, Ctrl-Z (a DOS end-of-file mark) or blank, the number of
 * NUL and Ctrl-Z bytes; else 0.
 */
function paddingBytes(b: Uint8Array, p: number): number {
  let count = 0;
  for (let i = p; i < b.length; i++) {
    const c = b[i];
    if (c === 0x00 || c === 0x1a) count++;
    else if (!isBlankByte(c)) return 0;
  }
  return count;
}

interface AsciiContext {
  readonly b: Uint8Array;
  readonly fileName: string;
}

function parseError(ctx: AsciiContext, p: number, expected: string): ImportError {
  const line = lineAt(ctx.b, p);
  const found = p >= ctx.b.length ? 'the end of the file' : `'${tokenText(ctx.b, p)}'`;
  return new ImportError('parse-error', ctx.fileName, `line ${line}: expected ${expected}, found ${found}`, { line });
}

function endOfFile(ctx: AsciiContext, p: number, expected: string, facet: number): ImportError {
  const line = lineAt(ctx.b, p);
  return new ImportError(
    'truncated',
    ctx.fileName,
    `line ${line}: the file ends where ${expected} was expected (in facet ${groupDigits(facet)}, counting from 0); it appears to be cut off`,
    { line, triangle: facet },
  );
}

/** `p` must hold the keyword (after blanks); returns the position after it. */
function expectKeyword(ctx: AsciiContext, p: number, word: Uint8Array, expected: string, facet: number): number {
  p = skipBlank(ctx.b, p);
  if (p >= ctx.b.length) throw endOfFile(ctx, p, expected, facet);
  if (!keywordAt(ctx.b, p, word)) throw parseError(ctx, p, expected);
  return p + word.length;
}

function badCoordinate(ctx: AsciiContext, p: number, facet: number, vertex: number, axis: number): ImportError {
  const line = lineAt(ctx.b, p);
  const text = tokenText(ctx.b, p);
  const what = `coordinate ${'xyz'[axis]} of vertex ${vertex} of facet ${groupDigits(facet)} (counting from 0)`;
  if (numStatus === NUM_NON_FINITE || NON_FINITE_WORD.test(text)) {
    return new ImportError('non-finite-coordinate', ctx.fileName, `line ${line}: ${what} is not finite: '${text}'`, { line, triangle: facet });
  }
  return new ImportError('parse-error', ctx.fileName, `line ${line}: expected a number for ${what}, found '${text}'`, { line, triangle: facet });
}

function asciiTooLarge(ctx: AsciiContext, facetAt: number, limits: EffectiveLimits): ImportError {
  const line = lineAt(ctx.b, facetAt);
  const max = maxBodyTriangles(limits);
  const why = max === limits.callerMaxTriangles
    ? 'the most allowed'
    : `the limit per body; raise it with ${max === limits.maxTrianglesPerBody ? LIMIT_HINTS.maxTrianglesPerBody : LIMIT_HINTS.maxTrianglesPerAssembly}`;
  return new ImportError('too-large', ctx.fileName, `line ${line}: ASCII STL has more than ${plural(max, 'triangle')}, ${why}`, { line });
}

/** A finite coordinate that overflows when converted to millimetres (1e308 in inches). */
function scaledOverflow(fileName: string, i: number, value: number, scale: number): ImportError {
  const facet = Math.floor(i / 9);
  const vertex = Math.floor((i % 9) / 3);
  return new ImportError(
    'non-finite-coordinate',
    fileName,
    `coordinate ${'xyz'[i % 3]} of vertex ${vertex} of facet ${groupDigits(facet)} (counting from 0), ${String(value)}, ` +
    `is beyond the range of numbers once converted to millimetres (× ${scale})`,
    { triangle: facet },
  );
}

function* readAscii(b: Uint8Array, fileName: string, scale: number, limits: EffectiveLimits): Steps<ImportResult> {
  const ctx: AsciiContext = { b, fileName };
  const maxTriangles = maxBodyTriangles(limits);
  const n = b.length;
  // The caller checked that the first token is `solid`.
  let p = skipBlank(b, hasUtf8Bom(b) ? 3 : 0) + KW_SOLID.length;
  const names = [readName(b, p)];
  p = numEnd;
  // A facet written tightly takes about 100 bytes, typically 200–300: start at one facet per
  // 256 bytes and double when full.
  let soup = new Float64Array(9 * (Math.floor(n / 256) + 4));
  let count = 0;
  let badNormals = 0;
  let firstBadNormal = -1;
  const warnings: string[] = [];
  for (;;) {
    p = skipBlank(b, p);
    if (p >= n) {
      const line = lineAt(b, p);
      throw new ImportError(
        'truncated',
        fileName,
        `line ${line}: the file ends without 'endsolid' (after ${plural(count, 'facet')}); it appears to be cut off`,
        { line },
      );
    }
    if (keywordAt(b, p, KW_FACET)) {
      const facetAt = p;
      p = skipBlank(b, p + KW_FACET.length);
      // Normal: optional and unused; count the facets whose normal is not three finite numbers.
      let normalOk = false;
      if (keywordAt(b, p, KW_NORMAL)) {
        p += KW_NORMAL.length;
        let numbers = 0;
        let finite = true;
        for (;;) {
          p = skipBlank(b, p);
          if (p >= n) throw endOfFile(ctx, p, "'outer loop'", count);
          const c = b[p];
          const numberLike = (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e;
          if (!numberLike) {
            if ((c | 0x20) === 0x6f || numbers === 3) break; // 'outer' (else reported below)
            if (!NON_FINITE_WORD.test(tokenText(b, p))) throw parseError(ctx, p, "a number or 'outer loop' after 'facet normal'");
          }
          if (numbers === 3) throw parseError(ctx, p, "'outer loop' after the three numbers of 'facet normal'");
          scanNumber(b, p, false);
          if (numStatus !== NUM_OK) {
            if (!NON_FINITE_WORD.test(tokenText(b, p))) throw parseError(ctx, p, "a number or 'outer loop' after 'facet normal'");
            finite = false;
          }
          numbers++;
          p = tokenEnd(b, p);
        }
        normalOk = numbers === 3 && finite;
      }
      if (!normalOk) {
        if (badNormals === 0) firstBadNormal = facetAt;
        badNormals++;
      }
      p = expectKeyword(ctx, p, KW_OUTER, "'outer loop'", count);
      p = expectKeyword(ctx, p, KW_LOOP, "'loop' after 'outer'", count);

      if (count >= maxTriangles) throw asciiTooLarge(ctx, facetAt, limits);
      if (9 * count + 9 > soup.length) {
        const grown = new Float64Array(2 * soup.length);
        grown.set(soup);
        soup = grown;
      }
      if ((count & (ASCII_STRIDE - 1)) === 0 && count > 0) yield p;
      const base = 9 * count;
      let vertices = 0;
      for (;;) {
        p = skipBlank(b, p);
        if (p >= n) throw endOfFile(ctx, p, vertices < 3 ? "'vertex'" : "'endloop'", count);
        if (keywordAt(b, p, KW_VERTEX)) {
          p += KW_VERTEX.length;
          for (let k = 0; k < 3; k++) {
            p = skipBlank(b, p);
            if (p >= n) throw endOfFile(ctx, p, "a coordinate after 'vertex'", count);
            const v = scanNumber(b, p, true);
            if (numStatus !== NUM_OK) throw badCoordinate(ctx, p, count, vertices, k);
            if (vertices < 3) soup[base + 3 * vertices + k] = v;
            p = numEnd;
          }
          vertices++;
          continue;
        }
        if (keywordAt(b, p, KW_ENDLOOP)) {
          p += KW_ENDLOOP.length;
          break;
        }
        throw parseError(ctx, p, vertices < 3 ? "'vertex'" : "'endloop'");
      }
      if (vertices !== 3) {
        const line = lineAt(b, facetAt);
        throw new ImportError(
          'wrong-vertex-count',
          fileName,
          `line ${line}: facet ${groupDigits(count)} (counting from 0) has ${vertices} ${vertices === 1 ? 'vertex' : 'vertices'}; an STL facet must have exactly 3`,
          { line, triangle: count },
        );
      }
      p = expectKeyword(ctx, p, KW_ENDFACET, "'endfacet'", count);
      count++;
      continue;
    }
    if (keywordAt(b, p, KW_ENDSOLID)) {
      // Exporters often repeat another name here (MeshLab writes 'endsolid vcg'): not checked.
      readName(b, p + KW_ENDSOLID.length);
      p = skipBlank(b, numEnd);
      if (p >= n) break;
      const padding = paddingBytes(b, p);
      if (padding > 0) {
        warnings.push(`${plural(padding, 'padding byte')} (NUL or Ctrl-Z) after the last 'endsolid' ${padding === 1 ? 'was' : 'were'} ignored`);
        break;
      }
      if (keywordAt(b, p, KW_SOLID)) {
        names.push(readName(b, p + KW_SOLID.length));
        p = numEnd;
        continue;
      }
      throw parseError(ctx, p, "'solid' or the end of the file after 'endsolid'");
    }
    throw parseError(ctx, p, "'facet' or 'endsolid'");
  }
  yield n;
  if (count === 0) {
    const which = names.length === 1 ? `solid '${names[0]}' is empty` : `its ${names.length} solids are empty`;
    throw new ImportError('no-triangles', fileName, `ASCII STL has no facets (${which})`);
  }
  if (names.length > 1) {
    const list = names.slice(0, 5).map((s) => `'${s}'`).join(', ') + (names.length > 5 ? ', …' : '');
    warnings.push(`the file holds ${names.length} solids (${list}); they were merged into one body in file order`);
  }
  if (badNormals > 0) {
    warnings.push(
      `${plural(badNormals, 'facet')} ${badNormals === 1 ? 'has' : 'have'} a missing, incomplete or non-finite normal ` +
      `(first at line ${lineAt(b, firstBadNormal)}); normals are not used, geometry comes from the vertices`,
    );
  }
  const used = soup.subarray(0, 9 * count);
  if (scale !== 1) {
    for (let i = 0; i < used.length; i++) {
      const v = used[i] * scale;
      if (v - v !== 0) throw scaledOverflow(fileName, i, used[i], scale);
      used[i] = v;
    }
  }
  const welded = yield* weldWithProgress(used, n);
  return {
    format: 'stl-ascii',
    bodies: [{
      name: names[0],
      color: null,
      positions: welded.positions,
      indices: welded.indices,
      triangleCount: count,
      faceRanges: null,
      path: [fileStem(fileName)],
    }],
    warnings,
  };
}
