/**
 * Recognising STEP, IGES and BREP files by their content (detectOcctFormat), and the byte-level
 * reading the checks around the read (checks.ts) share: ASCII search, Latin-1 excerpts, IGES records.
 */
import { hasUtf8Bom, looksLikeText } from '../types.js';
import type { OcctFormat } from './provider.js';

// ---------------------------------------------------------------------------------------------
// Byte helpers

/** Space, tab, LF, VT, FF, CR (local copy: see the note in stl.ts about imported bindings in loops). */
function isBlank(b: number): boolean {
  return b === 0x20 || (b >= 0x09 && b <= 0x0d);
}

function asciiAt(bytes: Uint8Array, p: number, s: string): boolean {
  if (p + s.length > bytes.length) return false;
  for (let k = 0; k < s.length; k++) if (bytes[p + k] !== s.charCodeAt(k)) return false;
  return true;
}

/** Offset of the first byte after the BOM and blanks. */
function skipBlanks(bytes: Uint8Array, from = hasUtf8Bom(bytes) ? 3 : 0): number {
  let p = from;
  while (p < bytes.length && isBlank(bytes[p])) p++;
  return p;
}

/** Whether the ASCII string occurs in bytes[start, end). */
export function containsAscii(bytes: Uint8Array, s: string, start = 0, end = bytes.length): boolean {
  const first = s.charCodeAt(0);
  const last = Math.min(end, bytes.length) - s.length;
  for (let p = Math.max(0, start); p <= last; p++) if (bytes[p] === first && asciiAt(bytes, p, s)) return true;
  return false;
}

/** Bytes [start, end) as Latin-1 (for short excerpts in messages and header checks). */
export function latin1(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = Math.max(0, start); i < Math.min(end, bytes.length); i++) s += String.fromCharCode(bytes[i]);
  return s;
}

/** Whether the start and the end of the file look like text (a CAD text format). */
export function textAtBothEnds(bytes: Uint8Array): boolean {
  return looksLikeText(bytes, 4096) && looksLikeText(bytes.subarray(Math.max(0, bytes.length - 4096)), 4096);
}
// ---------------------------------------------------------------------------------------------
// STEP

const STEP_MAGIC = 'ISO-10303-21';
export const STEP_END = 'END-ISO-10303-21';

/** Offset after the BOM, blanks and `/* … *\/` comments. */
function stepContentStart(bytes: Uint8Array): number {
  let p = skipBlanks(bytes);
  while (asciiAt(bytes, p, '/*')) {
    let q = p + 2;
    while (q < bytes.length && !(bytes[q] === 0x2a && bytes[q + 1] === 0x2f)) q++;
    if (q >= bytes.length) return bytes.length;
    p = skipBlanks(bytes, q + 2);
  }
  return p;
}

/**
 * 0.95 when the file begins with `ISO-10303-21;` (after a BOM, blanks or comments); 0.7 for the
 * magic without its semicolon; 0.3 for text with STEP header keywords in its first 4 KB but not at
 * the start (possibly a damaged STEP file); else 0.
 */
export function sniffStep(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  const p = stepContentStart(bytes);
  if (asciiAt(bytes, p, STEP_MAGIC)) {
    const q = skipBlanks(bytes, p + STEP_MAGIC.length);
    return bytes[q] === 0x3b ? 0.95 : 0.7;
  }
  if (!looksLikeText(bytes)) return 0;
  const head = 4096;
  if (containsAscii(bytes, STEP_MAGIC, 0, head)) return 0.3;
  if (containsAscii(bytes, 'HEADER;', 0, head) && containsAscii(bytes, 'FILE_SCHEMA', 0, head)) return 0.3;
  return 0;
}

// ---------------------------------------------------------------------------------------------
// IGES

/** Column 73 (0-based 72) holds the section letter; columns 74–80 the sequence number. */
export const IGES_LETTER_COLUMN = 72;
const IGES_RECORD = 80;

/** Whether bytes[at, at+7) is a sequence number field: blanks or zeros, then digits, at least one digit. */
function isSequenceField(bytes: Uint8Array, at: number): boolean {
  if (at + 7 > bytes.length) return false;
  let digits = 0;
  for (let k = 0; k < 7; k++) {
    const c = bytes[at + k];
    if (c >= 0x30 && c <= 0x39) digits++;
    else if (c !== 0x20 || digits > 0) return false;
  }
  return digits > 0;
}

/**
 * Calls `record(start, end)` for every record of an IGES file: lines ended by LF, CR LF or CR, or,
 * when the first line is longer than 80 columns and holds no line break, fixed 80-byte records.
 * Stops when `record` returns false.
 */
export function forEachIgesRecord(bytes: Uint8Array, record: (start: number, end: number) => boolean): void {
  const n = bytes.length;
  let p = hasUtf8Bom(bytes) ? 3 : 0;
  let firstEnd = p;
  while (firstEnd < n && bytes[firstEnd] !== 0x0a && bytes[firstEnd] !== 0x0d) firstEnd++;
  if (firstEnd - p > IGES_RECORD && bytes[p + IGES_LETTER_COLUMN] === 0x53) {
    for (; p < n; p += IGES_RECORD) if (!record(p, Math.min(n, p + IGES_RECORD))) return;
    return;
  }
  while (p < n) {
    let e = p;
    while (e < n && bytes[e] !== 0x0a && bytes[e] !== 0x0d) e++;
    if (!record(p, e)) return;
    p = e;
    if (p < n && bytes[p] === 0x0d) p++;
    if (p < n && bytes[p] === 0x0a) p++;
  }
}

/** The section letter of a record ('S', 'G', 'D', 'P', 'T'), or '' when it has none. */
export function igesLetter(bytes: Uint8Array, start: number, end: number): string {
  if (end - start < IGES_LETTER_COLUMN + 1) return '';
  const c = bytes[start + IGES_LETTER_COLUMN];
  if (c !== 0x53 && c !== 0x47 && c !== 0x44 && c !== 0x50 && c !== 0x54 && c !== 0x43 && c !== 0x46) return '';
  return isSequenceField(bytes, start + IGES_LETTER_COLUMN + 1) ? String.fromCharCode(c) : '';
}

/**
 * 0.95 when the first record is a Start ('S') record and a Global ('G') record follows the Start
 * section; 0.6 for the Start record alone; 0.3 for text with an IGES record (section letter in
 * column 73 followed by a sequence number) in its first 4 KB; else 0.
 */
export function sniffIges(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let index = 0;
  let score = 0;
  // The first record is a Start record only with 'S' in column 73 and a sequence number after it:
  // without them the records are not walked (a binary STL may hold no line break for megabytes).
  const first = hasUtf8Bom(bytes) ? 3 : 0;
  if (bytes[first + IGES_LETTER_COLUMN] === 0x53 && isSequenceField(bytes, first + IGES_LETTER_COLUMN + 1)) forEachIgesRecord(bytes, (start, end) => {
    const letter = igesLetter(bytes, start, end);
    if (index++ === 0) {
      if (letter !== 'S') return false;
      score = 0.6;
      return true;
    }
    if (letter === 'S' && index < 1000) return true;
    if (letter === 'G') score = 0.95;
    return false;
  });
  if (score > 0) return score;
  if (!looksLikeText(bytes)) return 0;
  let found = false;
  let seen = 0;
  forEachIgesRecord(bytes.subarray(0, Math.min(bytes.length, 4096)), (start, end) => {
    if (igesLetter(bytes, start, end) !== '') found = true;
    return !found && ++seen < 64;
  });
  return found ? 0.3 : 0;
}

// ---------------------------------------------------------------------------------------------
// BREP

const BREP_HEADERS = ['DBRep_DrawableShape', 'CASCADE Topology V'];

/**
 * 0.95 when the file begins with `DBRep_DrawableShape` or `CASCADE Topology V…` (after blanks);
 * 0.3 for text holding `CASCADE Topology V` in its first 4 KB; else 0.
 */
export function sniffBrep(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  const p = skipBlanks(bytes);
  if (BREP_HEADERS.some((h) => asciiAt(bytes, p, h))) return 0.95;
  if (looksLikeText(bytes) && containsAscii(bytes, BREP_HEADERS[1], 0, 4096)) return 0.3;
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Detection

const SNIFFERS: readonly (readonly [OcctFormat, (bytes: Uint8Array) => number])[] = [
  ['step', sniffStep],
  ['iges', sniffIges],
  ['brep', sniffBrep],
];

/** The CAD format the bytes are in (sniff ≥ 0.5), or null. */
export function detectOcctFormat(bytes: Uint8Array): OcctFormat | null {
  let best: OcctFormat | null = null;
  let score = 0;
  for (const [format, sniff] of SNIFFERS) {
    const s = sniff(bytes);
    if (s >= 0.5 && s > score) {
      best = format;
      score = s;
    }
  }
  return best;
}
