/**
 * STEP, IGES and BREP importers through OpenCascade (occt-import-js 0.0.23).
 *
 * The core never loads the WASM module itself: the host injects an OcctProvider, a function that
 * returns the initialised module (Node: src-main/services/occtNode.ts; a browser host passes
 * `locateFile`). Every file is tessellated with occt's DEFAULT parameters (`params` null) because the
 * ground truth does exactly that, so our triangles are occt's triangles, bit for bit.
 *
 * Output: one body per entry of `result.meshes`, in that order (an assembly refers to bodies by this
 * index). occt places every solid instance in world coordinates and converts the file's declared
 * unit to millimetres (STEP, IGES); a BREP has no unit and its numbers are taken as millimetres,
 * OpenCascade's convention. Nothing is rescaled here (`options.units` applies to STL only).
 * Observed on the test data (test/data):
 *   - as1-oc-214.stp (AP214, mm): bounding box −10…190 × 0…150 × −4…80 mm, as in the file;
 *   - as1_pe_203.stp (AP203, declares INCH): −3810…1270 × −685.8…1524 × −1905…1905, i.e. the
 *     file's numbers × 25.4 (the exporter wrote millimetre-sized numbers under an inch unit);
 *   - as1_pe_203.brep: exactly the same coordinates as as1_pe_203.stp (the BREP holds the already
 *     converted millimetres; occt does not scale BREP);
 *   - sunglasses_lens.igs (unit flag 2HIN, max coordinate 14.0134 in): −355.9…−293.0 mm, i.e. ×25.4.
 *
 * occt repeats vertices for every B-rep face; they are welded by exact equality (weldVertices) so
 * that faces share edges, keeping triangle order. `faceRanges` are occt's `brep_faces`; a face occt
 * could not tessellate (no triangles) is left out, with a warning.
 *
 * Before welding, a chordal-error estimate is computed per triangle from occt's vertex normals
 * (see estimateChordErrors).
 *
 * Robustness: occt reports failure only as `{ success: false }` (its messages go to the host's
 * print/printErr, handed over through `takeOutput`), a STEP whose parts live in external files
 * reads as success with no meshes, a truncated IGES reads as success with the surfaces before the
 * cut, and a BREP cut off inside its shape section makes the WASM reader loop forever. Hence the
 * checks before (IGES Terminate record, BREP shape count and root line) and after (STEP end line,
 * mesh structure, finiteness) the call. Every failure is an ImportError naming the file.
 *
 * Bodies never go missing silently. occt drops, as a success and without a word, a STEP solid that
 * refers to an entity the file does not define, a solid measured in an absurd unit, a root shape
 * whose bounding box is void, and an IGES entity it cannot translate; an assembly that refers to
 * bodies by index would then bind every later part to the next body. So the file is counted
 * independently: for STEP, the solids its product tree places (stepCensus.ts), by product name;
 * for IGES, its independent surface and solid entities (igesBodyEntities). When occt returns
 * fewer meshes, a warning names what is missing (the product, its solid's entity number, and why
 * when known: the entity it refers to that the file lacks, or its unit). A STEP length unit that
 * is not a positive size (occt would mirror or collapse the solids) is an ImportError; one outside
 * 1 nm to 10 km is a warning. An IGES file whose unit flag and unit name disagree is read in the
 * flag's unit (as occt does), with a warning naming both. A BREP is not counted: occt reads its
 * shape whole or not at all (the layout checks above stop a damaged one) and makes a mesh of every
 * solid and shell in it, even one without triangles (then named in a warning below).
 */
import type { OcctMesh, OcctReader, OcctResult } from 'occt-import-js';
import { checkBodyTriangles, checkFileSize, checkFileTriangles, limitsOf } from './limits.js';
import type { EffectiveLimits, ImportLimits } from './limits.js';
import { weld } from '../geometry/weld.js';
import { fitFaceSurfaces } from '../geometry/surfaces.js';
import { missingBodyWarnings, PLAUSIBLE_UNIT_TEXT, stepCensus, unitLabel, unitSize, unitVerdict } from './stepCensus.js';
import type { StepCensus } from './stepCensus.js';
import {
  ImportError,
  checkAborted,
  describeKnownFormat,
  groupDigits,
  hasUtf8Bom,
  isBlankFile,
  looksLikeText,
  plural,
} from './types.js';
import { tessellationParams } from './types.js';
import type { AbortSignalLike, ImportOptions, ImportResult, ImportedBody, Importer, TessellationParams } from './types.js';

// ---------------------------------------------------------------------------------------------
// Provider

/**
 * The initialised occt-import-js module as a host provides it. `takeOutput`, when the host collects
 * OpenCascade's print/printErr lines, returns the lines printed since its last call and forgets
 * them; the importer uses them in error messages.
 */
export interface OcctModule extends OcctReader {
  takeOutput?(): string[];
}

/** What a remote read is told about the file it reads. */
export interface OcctReadContext {
  /** For messages (ImportError 'timeout' and 'aborted' name it). */
  readonly fileName: string;
  /** 'STEP', 'IGES' or 'BREP', for messages. */
  readonly label: string;
  /** Aborting stops OpenCascade (the host ends its worker) and rejects with ImportError 'aborted'. */
  readonly signal?: AbortSignalLike;
  /** The import's limits: cadTimeoutMs bounds the read (ImportError 'timeout'). */
  readonly limits: ImportLimits;
  /** Warnings for the import result (e.g. that the read could not be bounded in time). */
  readonly warnings: string[];
  /** Triangulation parameters (null: OpenCascade's defaults). */
  readonly params?: TessellationParams | null;
}

/** What a remote read returns: occt's result and what OpenCascade printed meanwhile. */
export interface OcctRemoteRead {
  readonly result: OcctResult;
  readonly output: readonly string[];
}

/**
 * OpenCascade running away from the caller's thread (a Node worker thread, a web worker), so that
 * a read can be bounded in time and cancelled: the host stops it. `read` rejects with ImportError
 * ('timeout', 'aborted', 'too-large' when it ran out of memory) or with any other error for a
 * failure of OpenCascade itself (reported as 'unreadable-cad').
 */
export interface OcctRemoteModule {
  readonly remote: true;
  read(format: OcctFormat, content: Uint8Array, context: OcctReadContext): Promise<OcctRemoteRead>;
}

/**
 * Returns the initialised module, in this thread (OcctModule) or remote (OcctRemoteModule). Hosts
 * memoise it (initialising takes tens of milliseconds and tens of megabytes); the importer calls
 * it once per file.
 */
export type OcctProvider = () => Promise<OcctModule | OcctRemoteModule>;

export type OcctFormat = 'step' | 'iges' | 'brep';

/** Safety factor applied to the largest edge sagitta of a triangle (see estimateChordErrors). */
export const CHORD_SAFETY_FACTOR = 1.5;

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
function containsAscii(bytes: Uint8Array, s: string, start = 0, end = bytes.length): boolean {
  const first = s.charCodeAt(0);
  const last = Math.min(end, bytes.length) - s.length;
  for (let p = Math.max(0, start); p <= last; p++) if (bytes[p] === first && asciiAt(bytes, p, s)) return true;
  return false;
}

/** Bytes [start, end) as Latin-1 (for short excerpts in messages and header checks). */
function latin1(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = Math.max(0, start); i < Math.min(end, bytes.length); i++) s += String.fromCharCode(bytes[i]);
  return s;
}

/** Whether the start and the end of the file look like text (a CAD text format). */
function textAtBothEnds(bytes: Uint8Array): boolean {
  return looksLikeText(bytes, 4096) && looksLikeText(bytes.subarray(Math.max(0, bytes.length - 4096)), 4096);
}

// ---------------------------------------------------------------------------------------------
// STEP

const STEP_MAGIC = 'ISO-10303-21';
const STEP_END = 'END-ISO-10303-21';

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

/** Whether the last 4 KB hold the STEP end line. */
function hasStepEnd(bytes: Uint8Array): boolean {
  return containsAscii(bytes, STEP_END, Math.max(0, bytes.length - 4096));
}

// ---------------------------------------------------------------------------------------------
// IGES

/** Column 73 (0-based 72) holds the section letter; columns 74–80 the sequence number. */
const IGES_LETTER_COLUMN = 72;
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
function forEachIgesRecord(bytes: Uint8Array, record: (start: number, end: number) => boolean): void {
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
function igesLetter(bytes: Uint8Array, start: number, end: number): string {
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
  forEachIgesRecord(bytes, (start, end) => {
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

interface IgesLayout {
  /** Records per section letter. */
  counts: Record<string, number>;
  first: string;
  last: string;
  /** The Terminate record's S G D P counts, or null when there is none or it cannot be read. */
  declared: Record<'S' | 'G' | 'D' | 'P', number> | null;
}

function igesLayout(bytes: Uint8Array): IgesLayout {
  const counts: Record<string, number> = {};
  let first = '';
  let last = '';
  let lastStart = 0;
  let lastEnd = 0;
  forEachIgesRecord(bytes, (start, end) => {
    const letter = igesLetter(bytes, start, end);
    if (letter === '') {
      for (let i = start; i < end; i++) if (!isBlank(bytes[i]) && bytes[i] !== 0x1a && bytes[i] !== 0) {
        last = '?'; // a record without a section letter
        return true;
      }
      return true; // blank line: ignored
    }
    if (first === '') first = letter;
    counts[letter] = (counts[letter] ?? 0) + 1;
    last = letter;
    lastStart = start;
    lastEnd = end;
    return true;
  });
  let declared: IgesLayout['declared'] = null;
  if (last === 'T') {
    const t = latin1(bytes, lastStart, lastEnd);
    const m = /^S([ \d]{7})G([ \d]{7})D([ \d]{7})P([ \d]{7})/.exec(t);
    if (m) declared = { S: Number(m[1]), G: Number(m[2]), D: Number(m[3]), P: Number(m[4]) };
  }
  return { counts, first, last, declared };
}

/**
 * occt reads an IGES file cut off anywhere as a success holding the entities before the cut, so the
 * file's own bookkeeping is checked first: it must end with its Terminate record, and the sections
 * must have at least as many records as that record declares. Files that are not laid out in IGES
 * records at all are left to occt.
 */
function checkIgesComplete(bytes: Uint8Array, fileName: string, warnings: string[]): void {
  const layout = igesLayout(bytes);
  if (layout.first !== 'S') return;
  const c = (k: string): number => layout.counts[k] ?? 0;
  const found = `${plural(c('D'), 'directory-entry line')} and ${plural(c('P'), 'parameter-data line')}`;
  if (layout.last !== 'T') {
    throw new ImportError(
      'truncated',
      fileName,
      `the IGES file is truncated: it does not end with its Terminate ('T') record (it has ${found})`,
    );
  }
  const d = layout.declared;
  if (d === null) {
    warnings.push("the IGES Terminate ('T') record could not be read; the section sizes were not checked");
    return;
  }
  const short = (['S', 'G', 'D', 'P'] as const).filter((k) => c(k) < d[k]);
  if (short.length > 0) {
    throw new ImportError(
      'truncated',
      fileName,
      `the IGES file is truncated: its Terminate record declares ${plural(d.D, 'directory-entry line')} and ` +
      `${plural(d.P, 'parameter-data line')} (S ${d.S}, G ${d.G}), but the file has ${found} (S ${c('S')}, G ${c('G')})`,
    );
  }
  const long = (['S', 'G', 'D', 'P'] as const).filter((k) => c(k) > d[k]);
  if (long.length > 0) {
    warnings.push(`the IGES sections ${long.join(', ')} have more lines than the Terminate record declares`);
  }
}

/**
 * The parameters of an IGES Global section (columns 1–72 of its 'G' records), values of
 * Hollerith strings unwrapped, others trimmed; [] when the file is not laid out in records.
 */
export function igesGlobalParameters(bytes: Uint8Array): string[] {
  let text = '';
  forEachIgesRecord(bytes, (start, end) => {
    const letter = igesLetter(bytes, start, end);
    if (letter === 'G') text += latin1(bytes, start, start + IGES_LETTER_COLUMN);
    return letter === 'S' || letter === 'G' || letter === '';
  });
  if (text === '') return [];
  let pos = 0;
  let pd = ',';
  let rd = ';';
  const out: string[] = [];
  const hollerith = (): string | null => {
    const m = /^\s*(\d+)H/.exec(text.slice(pos, pos + 24));
    if (m === null) return null;
    const n = Number(m[1]);
    const from = pos + m[0].length;
    pos = from + n;
    return text.slice(from, from + n);
  };
  // Parameters 1 and 2 name the delimiters themselves (default ',' and ';').
  for (const k of [0, 1]) {
    while (text[pos] === ' ') pos++;
    if (text[pos] === pd || (k === 1 && text[pos] === rd)) {
      out.push('');
    } else {
      const h = hollerith();
      if (h === null || h.length !== 1) return out;
      if (k === 0) pd = h;
      else rd = h;
      out.push(h);
    }
    while (text[pos] === ' ') pos++;
    if (text[pos] === rd) return out;
    if (text[pos] !== pd) return out;
    pos++;
  }
  while (pos < text.length) {
    const h = hollerith();
    let value: string;
    if (h !== null) {
      value = h;
    } else {
      let e = pos;
      while (e < text.length && text[e] !== pd && text[e] !== rd) e++;
      value = text.slice(pos, e).trim();
      pos = e;
    }
    out.push(value);
    while (text[pos] === ' ') pos++;
    if (text[pos] !== pd) break;
    pos++;
  }
  return out;
}

/** IGES entity types OpenCascade turns into a face (108 only in its bounded form 1), a shell or a solid. */
const IGES_FACE_TYPES = new Set([108, 114, 118, 120, 122, 128, 140, 143, 144, 190, 192, 194, 196, 198, 510]);
const IGES_BODY_TYPES = new Set([186, 514]);

/** One independent IGES entity OpenCascade should mesh: its Directory Entry sequence number, type and label. */
export interface IgesBodyEntity {
  readonly de: number;
  readonly type: number;
  readonly label: string;
}

/**
 * The entities of an IGES file that become bodies: every independent (subordinate switch 00)
 * geometry entity (use flag 00) that is a surface, a face, a shell (514) or a solid (186).
 * OpenCascade transfers each independent entity as one shape and makes one mesh of it, so it
 * should give at least this many meshes. Entities this does not count (CSG primitives, subfigure
 * instances, groups) only make it count fewer. Null when the file has no Directory Entry section.
 */
export function igesBodyEntities(bytes: Uint8Array): IgesBodyEntity[] | null {
  /** The integer in bytes[at, at + width) (blanks around it), NaN when it is not one; blank is 0. */
  const field = (at: number, width = 8): number => {
    let v = 0;
    let digits = 0;
    for (let k = at; k < at + width; k++) {
      const c = bytes[k];
      if (c >= 0x30 && c <= 0x39) {
        v = v * 10 + (c - 0x30);
        digits++;
      } else if (c !== 0x20 && !(c === 0x2d && digits === 0)) {
        return NaN;
      }
    }
    return v;
  };
  const out: IgesBodyEntity[] = [];
  let first = -1; // start of the first line of the entry being read
  let lines = 0;
  forEachIgesRecord(bytes, (start, end) => {
    if (igesLetter(bytes, start, end) !== 'D') return true;
    lines++;
    if (first < 0) {
      first = start;
      return true;
    }
    const a = first, b = start;
    first = -1;
    if (end - b < IGES_LETTER_COLUMN) return true;
    const type = field(a);
    // Status number (columns 65–72): blank status, subordinate switch, use flag, hierarchy, two digits each.
    const status = field(a + 64);
    if (!Number.isInteger(type) || !Number.isInteger(status)) return true;
    const subordinate = Math.floor(status / 10000) % 100;
    const use = Math.floor(status / 100) % 100;
    if (subordinate !== 0 || use !== 0) return true;
    const form = field(b + 32);
    if (!(IGES_BODY_TYPES.has(type) || (IGES_FACE_TYPES.has(type) && (type !== 108 || form === 1)))) return true;
    const de = field(a + IGES_LETTER_COLUMN + 1, 7);
    out.push({ de: Number.isInteger(de) && de > 0 ? de : lines - 1, type, label: latin1(bytes, b + 56, b + 64).trim() });
    return true;
  });
  return lines === 0 ? null : out;
}

/**
 * A warning when OpenCascade made fewer meshes than the IGES file has independent surfaces and
 * solids (OpenCascade drops an entity it cannot translate without a word); null otherwise.
 */
function igesMissingBodies(entities: readonly IgesBodyEntity[], meshCount: number): string | null {
  if (meshCount >= entities.length) return null;
  const byType = new Map<number, number>();
  for (const e of entities) byType.set(e.type, (byType.get(e.type) ?? 0) + 1);
  const types = [...byType].sort((x, y) => x[0] - y[0]).map(([type, n]) => `type ${type} ×${n}`).join(', ');
  const at = `DE ${listSome(entities.map((e) => e.de))}`;
  const missing = entities.length - meshCount;
  return `the file has ${groupDigits(entities.length)} independent surface or solid ${entities.length === 1 ? 'entity' : 'entities'} (${types}; ${at}) ` +
    `but OpenCascade made ${meshCount === 1 ? '1 body' : `${groupDigits(meshCount)} bodies`} of them: ` +
    `${missing === 1 ? '1 body' : `${groupDigits(missing)} bodies`} missing (which cannot be told: OpenCascade's bodies do not say which entity they come from)`;
}

/** IGES unit flags (Global parameter 14) and the unit names parameter 15 may give for them. */
const IGES_UNITS: Readonly<Record<number, { readonly name: string; readonly plural?: string; readonly words: readonly string[] }>> = {
  1: { name: 'inch', plural: 'inches', words: ['IN', 'INCH'] },
  2: { name: 'millimetre', words: ['MM'] },
  4: { name: 'foot', plural: 'feet', words: ['FT'] },
  5: { name: 'mile', words: ['MI'] },
  6: { name: 'metre', words: ['M'] },
  7: { name: 'kilometre', words: ['KM'] },
  8: { name: 'mil', words: ['MIL'] },
  9: { name: 'micron', words: ['UM', 'MICRON'] },
  10: { name: 'centimetre', words: ['CM'] },
  11: { name: 'microinch', plural: 'microinches', words: ['UIN'] },
};

/**
 * An IGES file states its unit twice, as a flag (Global parameter 14) and as a name (parameter
 * 15). OpenCascade scales by the flag (by the name only for flag 3, "named by parameter 15"), so
 * when the two disagree the file is read in the flag's unit: warned, naming both.
 */
function checkIgesUnit(bytes: Uint8Array, warnings: string[]): void {
  const g = igesGlobalParameters(bytes);
  if (g.length < 15) return;
  const flagText = g[13];
  const name = g[14].trim().toUpperCase();
  const flag = Number(flagText);
  if (flagText === '' || !Number.isInteger(flag) || flag === 3 || name === '') return;
  const unit = IGES_UNITS[flag];
  if (unit === undefined || unit.words.includes(name)) return;
  const named = Object.values(IGES_UNITS).find((u) => u.words.includes(name));
  warnings.push(
    `the IGES Global section gives the unit twice and they disagree: unit flag (parameter 14) ${flag} (${unit.name}), ` +
    `unit name (parameter 15) '${g[14].trim()}'${named !== undefined ? ` (${named.name})` : ''}; OpenCascade uses the flag, ` +
    `so the file is read in ${unit.plural ?? `${unit.name}s`}`,
  );
}

// ---------------------------------------------------------------------------------------------
// BREP

const BREP_HEADERS = ['DBRep_DrawableShape', 'CASCADE Topology V'];
const BREP_SHAPE_TYPES = new Set(['Ve', 'Ed', 'Wi', 'Fa', 'Sh', 'So', 'CS', 'Co']);
/** The sections before the shapes, each a `Name n` line and n entries of numbers. */
const BREP_SECTION = /^(Locations|Curve2ds|Curves|Polygon3D|PolygonOnTriangulations|Surfaces|Triangulations)\s+(\d+)$/;

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

/**
 * A BREP cut off inside its shape section makes the WASM reader loop without end, so the layout is
 * checked first: a `TShapes n` line, n shape records after it (each begins with a line holding only
 * its type: Ve, Ed, Wi, Fa, Sh, So, CS or Co), and the root shape reference as the last line
 * (`+1 0`, or `*` for a null shape). The reader also runs once per entry a section header declares
 * (`Locations 2147483647` kept it busy for more than 8 minutes, in a 1 kB file), so every section
 * must hold at least as many values (blank-separated words) as it declares entries.
 */
function checkBrepComplete(bytes: Uint8Array, fileName: string): void {
  const n = bytes.length;
  let declared = -1;
  let shapes = 0;
  /** The sections before TShapes: header name, entries declared, values found. */
  const sections: { name: string; declared: number; values: number }[] = [];
  let lastStart = 0;
  let lastEnd = 0;
  let p = 0;
  while (p < n) {
    let e = p;
    while (e < n && bytes[e] !== 0x0a && bytes[e] !== 0x0d) e++;
    let a = p;
    let b = e;
    while (a < b && isBlank(bytes[a])) a++;
    while (b > a && isBlank(bytes[b - 1])) b--;
    if (b > a) {
      if (declared < 0) {
        const header = b - a <= 64 && bytes[a] >= 0x41 && bytes[a] <= 0x5a ? latin1(bytes, a, b) : '';
        const m = /^TShapes\s+(\d+)$/.exec(header);
        const s = m === null ? BREP_SECTION.exec(header) : null;
        const section = sections.at(-1);
        if (m) declared = Number(m[1]);
        else if (s) sections.push({ name: s[1], declared: Number(s[2]), values: 0 });
        else if (section !== undefined) {
          for (let i = a; i < b; i++) if (!isBlank(bytes[i]) && (i === a || isBlank(bytes[i - 1]))) section.values++;
        }
      } else if (b - a === 2 && BREP_SHAPE_TYPES.has(latin1(bytes, a, b))) {
        shapes++;
      }
      lastStart = a;
      lastEnd = b;
    }
    p = e + 1;
  }
  const lastLine = lastEnd - lastStart <= 64 ? latin1(bytes, lastStart, lastEnd) : latin1(bytes, lastStart, lastStart + 60) + '…';
  if (declared < 0) {
    throw new ImportError('truncated', fileName, "the BREP file is truncated or damaged: it has no shape section ('TShapes' line)");
  }
  const short = sections.find((s) => s.values < s.declared);
  if (short !== undefined) {
    throw new ImportError(
      'unreadable-cad',
      fileName,
      `the BREP file is damaged: its '${short.name}' section declares ${groupDigits(short.declared)} ` +
      `${short.declared === 1 ? 'entry' : 'entries'} but holds only ${plural(short.values, 'value')}`,
    );
  }
  if (shapes < declared) {
    throw new ImportError(
      'truncated',
      fileName,
      `the BREP file is truncated: its shape section declares ${plural(declared, 'shape')} but holds ${groupDigits(shapes)}`,
    );
  }
  if (!/^(\*|[+\-ie]\d+\s+\d+)$/.test(lastLine)) {
    throw new ImportError(
      'truncated',
      fileName,
      `the BREP file is truncated: it does not end with the reference to its root shape (last line '${lastLine}')`,
    );
  }
}

/**
 * The STEP census (stepCensus.ts), and its verdict on the file's length units: a unit that is not
 * a positive size (OpenCascade would mirror or collapse every solid measured in it) is an
 * ImportError; one outside PLAUSIBLE_UNIT_MM, or one that cannot be evaluated, is a warning naming
 * the products measured in it. Returns null when the DATA section cannot be followed.
 */
function takeStepCensus(bytes: Uint8Array, fileName: string, warnings: string[]): StepCensus | null {
  let census: StepCensus | null;
  try {
    census = stepCensus(bytes);
  } catch (err) {
    warnings.push(`the file's solids could not be counted, so bodies OpenCascade drops would go unnoticed (${occtErrorText(err)})`);
    return null;
  }
  if (census === null) return null;
  for (const u of census.lengthUnits) {
    const verdict = unitVerdict(u);
    if (verdict === 'ok') continue;
    const reps = [...census.unitOfRepresentation].filter(([, unit]) => unit === u.id).map(([rep]) => rep);
    const products = [...new Set(census.products.filter((p) => p.representations.some((r) => reps.includes(r))).map((p) => `'${p.name}'`))];
    const measured = products.length > 0
      ? `the product${products.length === 1 ? '' : 's'} ${products.slice(0, 6).join(', ')}${products.length > 6 ? ', …' : ''}`
      : reps.length > 0 ? `representation${reps.length === 1 ? '' : 's'} ${reps.slice(0, 6).map((r) => `#${r}`).join(', ')}${reps.length > 6 ? ', …' : ''}` +
        ' (the placements of an assembly, or shapes without a product)'
        : 'its representation context';
    if (verdict === 'unusable' && !Number.isNaN(u.mm)) {
      throw new ImportError(
        'unreadable-cad',
        fileName,
        `the STEP file's ${unitLabel(u)} is ${unitSize(u)}: a length unit must be a positive size, and OpenCascade would ` +
        `${u.mm === 0 ? 'collapse' : u.mm < 0 ? 'mirror' : 'lose'} every solid measured in it (${measured})`,
      );
    }
    warnings.push(
      Number.isNaN(u.mm)
        ? `the STEP file's ${unitLabel(u)} has ${unitSize(u)}; the coordinates of ${measured} may be wrongly scaled`
        : `the STEP file's ${unitLabel(u)} is ${unitSize(u)}, not a plausible CAD unit (${PLAUSIBLE_UNIT_TEXT}): ` +
          `OpenCascade scales the coordinates of ${measured} by it, which can make bodies vanish from the mesh`,
    );
  }
  return census;
}

/** For an error after OpenCascade's read: the implausible length units the census found, '' when none. */
function unitSuspicion(census: StepCensus | null): string {
  const odd = census?.lengthUnits.filter((u) => unitVerdict(u) !== 'ok') ?? [];
  if (odd.length === 0) return '';
  const list = odd.slice(0, 3).map((u) => `${unitLabel(u)} is ${unitSize(u)}`).join(', ');
  return `; the file's ${list}${odd.length > 3 ? ', …' : ''}, not a plausible CAD unit (${PLAUSIBLE_UNIT_TEXT}), which may be why`;
}

// ---------------------------------------------------------------------------------------------
// Formats

interface FormatSpec {
  format: OcctFormat;
  label: string;
  extensions: readonly string[];
  sniff(bytes: Uint8Array): number;
  read(module: OcctReader, bytes: Uint8Array, params: TessellationParams | null): OcctResult;
  /** What the file should begin with, for "not a … file" messages. */
  expected: string;
}

const FORMATS: Readonly<Record<OcctFormat, FormatSpec>> = {
  step: {
    format: 'step',
    label: 'STEP',
    extensions: ['step', 'stp', 'p21'],
    sniff: sniffStep,
    read: (m, b, p) => m.ReadStepFile(b, p),
    expected: "it does not begin with 'ISO-10303-21;'",
  },
  iges: {
    format: 'iges',
    label: 'IGES',
    extensions: ['iges', 'igs'],
    sniff: sniffIges,
    read: (m, b, p) => m.ReadIgesFile(b, p),
    expected: "its first line is not an IGES Start record ('S' in column 73, then a sequence number)",
  },
  brep: {
    format: 'brep',
    label: 'BREP',
    extensions: ['brep', 'brp'],
    sniff: sniffBrep,
    read: (m, b, p) => m.ReadBrepFile(b, p),
    expected: "it does not begin with 'DBRep_DrawableShape' or 'CASCADE Topology V1'",
  },
};

/** The CAD format the bytes are in (sniff ≥ 0.5), or null. */
export function detectOcctFormat(bytes: Uint8Array): OcctFormat | null {
  let best: OcctFormat | null = null;
  let score = 0;
  for (const f of Object.values(FORMATS)) {
    const s = f.sniff(bytes);
    if (s >= 0.5 && s > score) {
      best = f.format;
      score = s;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Importers

/** An importer for one of the three formats; all of them share the provider's module. */
export function createOcctImporter(format: OcctFormat, provider: OcctProvider): Importer {
  const spec = FORMATS[format];
  return {
    id: spec.format,
    label: spec.label,
    extensions: spec.extensions,
    sniff: spec.sniff,
    import: (bytes: Uint8Array, fileName: string, options?: ImportOptions) => importOcct(spec, provider, bytes, fileName, options ?? {}),
  };
}

/** The STEP, IGES and BREP importers, in that order. */
export function createOcctImporters(provider: OcctProvider): Importer[] {
  return (['step', 'iges', 'brep'] as const).map((f) => createOcctImporter(f, provider));
}

/** The largest chordal-error estimate of a body (mm), or null when it has none. */
export function maxChordErrorMm(body: ImportedBody): number | null {
  const e = body.chordErrorMm;
  if (e === undefined || e === null) return null;
  let max = 0;
  for (let i = 0; i < e.length; i++) if (e[i] > max) max = e[i];
  return max;
}

/** Up to a few lines of what OpenCascade printed, cleaned for a message ('' when nothing). */
function occtSays(lines: readonly string[]): string {
  const cleaned = lines
    .map((l) => l.replace(/^[\s*]+|[\s*]+$/g, '').replace(/\s+/g, ' '))
    .filter((l) => l !== '');
  if (cleaned.length === 0) return '';
  let text = cleaned.slice(0, 4).join('; ') + (cleaned.length > 4 ? '; …' : '');
  if (text.length > 400) text = text.slice(0, 399) + '…';
  return ` (OpenCascade: ${text})`;
}

/**
 * What an error thrown by OpenCascade's reader says: an Error's message, or, for a C++ exception
 * that escaped the WASM module (a WebAssembly.Exception, which has no message), that it was one.
 */
export function occtErrorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (Object.prototype.toString.call(err) === '[object WebAssembly.Exception]') return 'an internal C++ exception was raised';
  return String(err);
}

async function importOcct(
  spec: FormatSpec,
  provider: OcctProvider,
  bytes: Uint8Array,
  fileName: string,
  options: ImportOptions,
): Promise<ImportResult> {
  const signal = options.signal;
  const limits = limitsOf(options);
  checkAborted(signal, fileName);
  let params: TessellationParams | null;
  try {
    params = tessellationParams(options.linearDeflectionMm);
  } catch (e) {
    throw new ImportError('unreadable-cad', fileName, (e as Error).message);
  }
  if (bytes.length === 0) throw new ImportError('empty-file', fileName, 'the file is empty (0 bytes)');
  checkFileSize(bytes.length, fileName, limits);
  if (isBlankFile(bytes)) {
    throw new ImportError('empty-file', fileName, `the file holds only whitespace (${plural(bytes.length, 'byte')})`);
  }
  const article = spec.format === 'iges' ? 'an' : 'a';
  if (spec.sniff(bytes) === 0) {
    const known = describeKnownFormat(bytes);
    const why = known !== null ? `it looks like ${known}` : spec.expected;
    throw new ImportError('unreadable-cad', fileName, `not ${article} ${spec.label} file: ${why}`);
  }
  const warnings: string[] = [];
  if (spec.format === 'iges') {
    checkIgesComplete(bytes, fileName, warnings);
    checkIgesUnit(bytes, warnings);
  }
  const census = spec.format === 'step' ? takeStepCensus(bytes, fileName, warnings) : null;
  const igesEntities = spec.format === 'iges' ? igesBodyEntities(bytes) : null;
  if (spec.format === 'brep') checkBrepComplete(bytes, fileName);

  let module: OcctModule | OcctRemoteModule;
  try {
    module = await provider();
  } catch (err) {
    throw new ImportError(
      'unreadable-cad',
      fileName,
      `cannot read this ${spec.label} file: OpenCascade (occt-import-js) could not be started: ${occtErrorText(err)}`,
      { cause: err },
    );
  }
  checkAborted(signal, fileName);
  options.onProgress?.(0, 1);
  let result: OcctResult;
  let output: readonly string[];
  if (isRemote(module)) {
    try {
      ({ result, output } = await module.read(spec.format, bytes, { fileName, label: spec.label, limits, warnings, params, ...(signal ? { signal } : {}) }));
    } catch (err) {
      if (err instanceof ImportError) throw err;
      throw new ImportError('unreadable-cad', fileName, `OpenCascade failed while reading this ${spec.label} file: ${occtErrorText(err)}${unitSuspicion(census)}`, { cause: err });
    }
  } else {
    module.takeOutput?.(); // drop what earlier calls printed
    try {
      result = spec.read(module, bytes, params);
    } catch (err) {
      throw new ImportError(
        'unreadable-cad',
        fileName,
        `OpenCascade failed while reading this ${spec.label} file: ${occtErrorText(err)}${occtSays(module.takeOutput?.() ?? [])}${unitSuspicion(census)}`,
        { cause: err },
      );
    }
    output = module.takeOutput?.() ?? [];
  }
  checkAborted(signal, fileName);

  if (typeof result !== 'object' || result === null || result.success !== true) {
    const says = occtSays(output);
    if (spec.format === 'step' && textAtBothEnds(bytes) && !hasStepEnd(bytes)) {
      throw new ImportError('truncated', fileName, `the STEP file is truncated: it does not end with '${STEP_END};'${says}`);
    }
    const binary = textAtBothEnds(bytes) ? '' : '; the file contains binary data';
    throw new ImportError('unreadable-cad', fileName, `OpenCascade could not read this ${spec.label} file${binary}${says}${unitSuspicion(census)}`);
  }
  const meshes: unknown = result.meshes;
  if (!Array.isArray(meshes)) {
    throw new ImportError('unreadable-cad', fileName, `OpenCascade returned no mesh list for this ${spec.label} file`);
  }
  if (meshes.length === 0) {
    const hint = spec.format === 'step'
      ? '; a STEP assembly whose parts are stored in separate files (external references) reads like this, ' +
        'and those files are not loaded'
      : '';
    throw new ImportError(
      'no-bodies',
      fileName,
      `OpenCascade read the ${spec.label} file but found no solids or surfaces in it${hint}${occtSays(output)}${unitSuspicion(census)}`,
    );
  }
  if (spec.format === 'step' && !hasStepEnd(bytes)) {
    warnings.push(`the file does not end with '${STEP_END};'; it may be incomplete`);
  }
  if (igesEntities !== null) {
    const missing = igesMissingBodies(igesEntities, meshes.length);
    if (missing !== null) warnings.push(missing + occtSays(output));
  }
  if (census !== null) {
    const names = meshes.map((m) => (typeof (m as { name?: unknown } | null)?.name === 'string' ? (m as { name: string }).name : ''));
    const says = occtSays(output);
    for (const w of missingBodyWarnings(census, names)) warnings.push(w + says);
  }
  const bodies = convertOcctMeshes(meshes, fileName, options, warnings);
  options.onProgress?.(1, 1);
  return { format: spec.format, bodies, warnings };
}

function isRemote(module: OcctModule | OcctRemoteModule): module is OcctRemoteModule {
  return (module as Partial<OcctRemoteModule>).remote === true && typeof (module as Partial<OcctRemoteModule>).read === 'function';
}

// ---------------------------------------------------------------------------------------------
// Conversion

function isArrayLike(x: unknown): x is ArrayLike<number> {
  return Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView));
}

function malformed(fileName: string, body: number, what: string): ImportError {
  return new ImportError('unreadable-cad', fileName, `OpenCascade returned a malformed mesh for body ${body}: ${what}`);
}

function validColor(c: unknown): [number, number, number] | null {
  if (!isArrayLike(c) || c.length !== 3) return null;
  const out: [number, number, number] = [Number(c[0]), Number(c[1]), Number(c[2])];
  if (!out.every(Number.isFinite)) return null;
  return [Math.min(1, Math.max(0, out[0])), Math.min(1, Math.max(0, out[1])), Math.min(1, Math.max(0, out[2]))];
}

/** The mesh colour; else the colour every face shares (files that colour faces only); else null. */
function bodyColor(mesh: OcctMesh): [number, number, number] | null {
  const own = validColor(mesh.color);
  if (own !== null) return own;
  const faces: unknown = mesh.brep_faces;
  if (!Array.isArray(faces) || faces.length === 0) return null;
  const first = validColor((faces[0] as { color?: unknown } | null)?.color);
  if (first === null) return null;
  for (const f of faces) {
    const c = validColor((f as { color?: unknown } | null)?.color);
    if (c === null || c[0] !== first[0] || c[1] !== first[1] || c[2] !== first[2]) return null;
  }
  return first;
}

/**
 * Turns occt's meshes into bodies (one per mesh, same order). Throws ImportError for too many
 * triangles, a non-finite coordinate or a malformed mesh.
 */
export function convertOcctMeshes(
  meshes: readonly unknown[],
  fileName: string,
  options: ImportOptions = {},
  warnings: string[] = [],
): ImportedBody[] {
  const limits: EffectiveLimits = limitsOf(options);
  let total = 0;
  for (let b = 0; b < meshes.length; b++) {
    const index = (meshes[b] as { index?: { array?: unknown } } | null)?.index?.array;
    if (!isArrayLike(index)) throw malformed(fileName, b, 'no index array');
    total += Math.floor(index.length / 3);
  }
  checkFileTriangles(total, fileName, limits);
  for (let b = 0; b < meshes.length; b++) {
    const count = Math.floor(((meshes[b] as { index: { array: ArrayLike<number> } }).index.array.length) / 3);
    const name = (meshes[b] as { name?: unknown }).name;
    checkBodyTriangles(count, fileName, limits, typeof name === 'string' && name !== '' ? `body ${b} ('${name}')` : `body ${b}`);
  }
  const bodies: ImportedBody[] = [];
  const emptyBodies: number[] = [];
  let emptyFaces = 0;
  const noNormals: number[] = [];
  for (let b = 0; b < meshes.length; b++) {
    checkAborted(options.signal, fileName);
    const converted = convertMesh(meshes[b], b, fileName);
    const body = converted.body;
    if (body.triangleCount === 0) emptyBodies.push(b);
    emptyFaces += converted.emptyFaces;
    if (body.triangleCount > 0 && body.chordErrorMm === null) noNormals.push(b);
    if (converted.badFaces) {
      warnings.push(`body ${b}: OpenCascade's face list does not cover its triangles in order; the body has no face ranges`);
    }
    bodies.push(body);
  }
  if (emptyBodies.length === meshes.length) {
    throw new ImportError('no-triangles', fileName, `OpenCascade could not tessellate any of the ${plural(meshes.length, 'body')} in the file`);
  }
  if (emptyBodies.length > 0) {
    const named = emptyBodies.map((b) => (bodies[b].name !== '' ? `${b} '${bodies[b].name}'` : String(b)));
    warnings.push(
      `${emptyBodies.length === 1 ? '1 body' : `${groupDigits(emptyBodies.length)} bodies`} (${listSome(named)}) could not be tessellated and ` +
      `${emptyBodies.length === 1 ? 'has' : 'have'} no triangles`,
    );
  }
  if (emptyFaces > 0) {
    warnings.push(`${plural(emptyFaces, 'B-rep face')} could not be tessellated and ${emptyFaces === 1 ? 'is' : 'are'} missing from the mesh`);
  }
  if (noNormals.length > 0) {
    warnings.push(`${plural(noNormals.length, 'body')} (${listSome(noNormals)}) came without normals: no chordal-error estimate`);
  }
  return bodies;
}

function listSome(xs: readonly (number | string)[]): string {
  return xs.slice(0, 8).join(', ') + (xs.length > 8 ? ', …' : '');
}

interface ConvertedMesh {
  body: ImportedBody;
  emptyFaces: number;
  badFaces: boolean;
}

function convertMesh(raw: unknown, b: number, fileName: string): ConvertedMesh {
  if (typeof raw !== 'object' || raw === null) throw malformed(fileName, b, 'not an object');
  const mesh = raw as OcctMesh;
  const pos: unknown = mesh.attributes?.position?.array;
  const idx: unknown = mesh.index?.array;
  if (!isArrayLike(pos) || pos.length % 3 !== 0) throw malformed(fileName, b, 'its position array is missing or not x y z triples');
  if (!isArrayLike(idx) || idx.length % 3 !== 0) throw malformed(fileName, b, 'its index array is missing or not triples');
  const name = typeof mesh.name === 'string' ? mesh.name : '';
  const label = name === '' ? `body ${b}` : `body ${b} ('${name}')`;

  const vertexCount = pos.length / 3;
  const positions = new Float64Array(pos.length);
  for (let v = 0; v < vertexCount; v++) {
    const x = +pos[3 * v], y = +pos[3 * v + 1], z = +pos[3 * v + 2];
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) {
      throw new ImportError('non-finite-coordinate', fileName, `${label}: vertex ${groupDigits(v)} has a non-finite coordinate (${x}, ${y}, ${z})`);
    }
    positions[3 * v] = x;
    positions[3 * v + 1] = y;
    positions[3 * v + 2] = z;
  }
  const triangleCount = idx.length / 3;
  const indices = new Uint32Array(idx.length);
  for (let i = 0; i < idx.length; i++) {
    const k = idx[i];
    if (!(Number.isInteger(k) && k >= 0 && k < vertexCount)) {
      throw malformed(fileName, b, `triangle ${Math.floor(i / 3)} refers to vertex ${k}, but it has ${groupDigits(vertexCount)} vertices`);
    }
    indices[i] = k;
  }

  let chordErrorMm: Float32Array | null = null;
  let chordSide: Int8Array | null = null;
  const nrm: unknown = mesh.attributes?.normal?.array;
  if (isArrayLike(nrm) && nrm.length === pos.length && triangleCount > 0) {
    const normals = Float64Array.from(nrm);
    chordErrorMm = estimateChordErrors(positions, normals, indices);
    chordSide = estimateChordSides(positions, normals, indices);
  }

  const faces = faceRangesOf(mesh.brep_faces, triangleCount);
  const surfaces = faces.ranges ? fitFaceSurfaces(positions, indices, faces.ranges) : null;
  const welded = weld(positions, indices);
  const body: ImportedBody = {
    name,
    color: bodyColor(mesh),
    positions: welded.positions,
    indices: welded.indices,
    triangleCount,
    faceRanges: faces.ranges,
    chordErrorMm,
    chordSide,
    surfaces,
  };
  return { body, emptyFaces: faces.empty, badFaces: faces.bad };
}

/**
 * occt's faces as inclusive [first, last] pairs. Faces without triangles (last = first − 1) are
 * left out and counted; faces that do not tile the triangles in order make the whole list null.
 */
function faceRangesOf(raw: unknown, triangleCount: number): { ranges: Uint32Array | null; empty: number; bad: boolean } {
  if (!Array.isArray(raw)) return { ranges: null, empty: 0, bad: triangleCount > 0 };
  const out = new Uint32Array(2 * raw.length);
  let n = 0;
  let next = 0;
  let empty = 0;
  for (const f of raw as unknown[]) {
    const first = (f as { first?: unknown } | null)?.first;
    const last = (f as { last?: unknown } | null)?.last;
    if (!Number.isInteger(first) || !Number.isInteger(last)) return { ranges: null, empty, bad: true };
    const a = first as number, z = last as number;
    if (a !== next) return { ranges: null, empty, bad: true };
    if (z === a - 1) {
      empty++;
      continue;
    }
    if (z < a || z >= triangleCount) return { ranges: null, empty, bad: true };
    out[n++] = a;
    out[n++] = z;
    next = z + 1;
  }
  if (next !== triangleCount) return { ranges: null, empty, bad: true };
  return { ranges: out.slice(0, n), empty, bad: false };
}

// ---------------------------------------------------------------------------------------------
// Chordal error

/**
 * Per-triangle estimate (mm) of how far the exact surface lies from the triangle, from occt's
 * per-face vertex normals (unwelded positions, one normal per vertex).
 *
 * For an edge p→q of length L, unit direction u and unit normals n_p, n_q: if the surface between
 * p and q were a circular arc turning by θ, the chord would leave the tangent plane at each end at
 * θ/2, and the arc's distance from the chord (sagitta) is s = (L/2)·tan(θ/4). θ/2 is taken as the
 * largest of
 *   asin|n_p·u|, asin|n_q·u|        the chord's angle to the tangent plane at each end,
 *   asin(|(n_q − n_p)·u| / 2)       half the normals' turn measured along the edge,
 * which all equal θ/2 on an exact arc. Two things make these forms necessary rather than the plain
 * angle between n_p and n_q:
 *   - only the turn of the normal ALONG the edge bends its chord: a long edge running along a
 *     cylinder from one facet column to the next sees the normals turn by the whole angular step,
 *     yet its midpoint is barely off the surface (the AS1 rod: 5.6 mm estimated that way, 0.035 mm
 *     measured);
 *   - occt-import-js's normals are not the exact surface normals: it calls
 *     Poly_Triangulation::ComputeNormals, which averages the normals of the triangles around each
 *     node within its face. Inside a face that is close to exact; on the face's boundary (seams,
 *     fillet edges) the average is one-sided and lags by about half a facet's turn (measured on
 *     the AS1 rod: up to 5.7° off the radial direction with a 12.9° step). Taking the largest term
 *     lets the better end decide.
 * The triangle's estimate is the largest edge sagitta times CHORD_SAFETY_FACTOR = 1.5: on a doubly
 * curved patch (sphere, torus, B-spline) the surface bulges further from a triangle's centre than
 * from any edge midpoint; for a quadratic patch the centre's deviation is 4/9 of the sum of the
 * three edge sagittas, at most 4/3 of the largest (equilateral triangle on a sphere). 1.5 covers
 * that with some margin for the averaged normals; on single-curved faces (cylinders, cones) it
 * overestimates by 1.5. Planar faces give 0. Zero-length edges and vertices without a usable
 * normal contribute nothing.
 */
export function estimateChordErrors(positions: Float64Array, normals: Float64Array, indices: Uint32Array): Float32Array {
  const vertexCount = positions.length / 3;
  // Unit normals; NaN marks a vertex whose normal is unusable (zero or non-finite).
  const unit = new Float64Array(3 * vertexCount);
  for (let v = 0; v < vertexCount; v++) {
    const x = normals[3 * v], y = normals[3 * v + 1], z = normals[3 * v + 2];
    const len = Math.sqrt(x * x + y * y + z * z);
    if (len > 1e-6 && Number.isFinite(len)) {
      unit[3 * v] = x / len;
      unit[3 * v + 1] = y / len;
      unit[3 * v + 2] = z / len;
    } else {
      unit[3 * v] = unit[3 * v + 1] = unit[3 * v + 2] = NaN;
    }
  }
  const P = positions;
  const N = unit;
  const triangleCount = indices.length / 3;
  const out = new Float32Array(triangleCount);
  for (let t = 0; t < triangleCount; t++) {
    let worst = 0;
    for (let k = 0; k < 3; k++) {
      const p = 3 * indices[3 * t + k];
      const q = 3 * indices[3 * t + (k === 2 ? 0 : k + 1)];
      const ux = P[q] - P[p], uy = P[q + 1] - P[p + 1], uz = P[q + 2] - P[p + 2];
      const len = Math.sqrt(ux * ux + uy * uy + uz * uz);
      if (!(len > 0)) continue;
      const dp = (N[p] * ux + N[p + 1] * uy + N[p + 2] * uz) / len;
      const dq = (N[q] * ux + N[q + 1] * uy + N[q + 2] * uz) / len;
      // sin(θ/2): NaN terms (unusable normals) fail every comparison and drop out.
      let sinHalf = 0;
      const ap = Math.abs(dp), aq = Math.abs(dq), turn = Math.abs(dq - dp) / 2;
      if (ap > sinHalf) sinHalf = ap;
      if (aq > sinHalf) sinHalf = aq;
      if (turn > sinHalf) sinHalf = turn;
      if (sinHalf > 1) sinHalf = 1;
      // (L/2)·tan(θ/4) with tan(α/2) = sin α / (1 + cos α), α = θ/2.
      const s = (len / 2) * (sinHalf / (1 + Math.sqrt(1 - sinHalf * sinHalf)));
      if (s > worst) worst = s;
    }
    out[t] = CHORD_SAFETY_FACTOR * worst;
  }
  return out;
}

/**
 * On which side of each triangle its exact face lies, from occt's (outward) vertex normals: +1
 * where the face is convex over the triangle (normals spread apart along every edge: the exact face
 * bulges outward, so the solid is larger than its mesh there — a pin, a ball, a boss), −1 where it
 * is concave (normals close in: a hole, a seat; the solid is smaller than its mesh), 0 where it is
 * both or unknown (a saddle, a triangle without usable normals) or flat.
 */
export function estimateChordSides(positions: Float64Array, normals: Float64Array, indices: Uint32Array): Int8Array {
  const triangleCount = indices.length / 3;
  const out = new Int8Array(triangleCount);
  const P = positions, N = normals;
  for (let t = 0; t < triangleCount; t++) {
    let convex = false, concave = false, unknown = false;
    for (let k = 0; k < 3; k++) {
      const p = 3 * indices[3 * t + k];
      const q = 3 * indices[3 * t + (k === 2 ? 0 : k + 1)];
      const ux = P[q] - P[p], uy = P[q + 1] - P[p + 1], uz = P[q + 2] - P[p + 2];
      const lp = Math.hypot(N[p], N[p + 1], N[p + 2]), lq = Math.hypot(N[q], N[q + 1], N[q + 2]);
      if (!(lp > 1e-6 && lq > 1e-6 && Number.isFinite(lp + lq))) { unknown = true; continue; }
      const len = Math.hypot(ux, uy, uz);
      if (!(len > 0)) continue;
      // How the unit normal turns along the edge, against the edge's direction.
      const turn = ((N[q] / lq - N[p] / lp) * ux + (N[q + 1] / lq - N[p + 1] / lp) * uy + (N[q + 2] / lq - N[p + 2] / lp) * uz) / len;
      if (turn > 1e-9) convex = true;
      else if (turn < -1e-9) concave = true;
    }
    out[t] = unknown || convex === concave ? 0 : convex ? 1 : -1;
  }
  return out;
}
