/**
 * The importer interface: every file format (STL now; STEP, IGES and BREP through OpenCascade
 * later) turns the bytes of one file into bodies of welded triangles in millimetres.
 *
 * An importer never guesses silently: a file it cannot read completely is an ImportError whose
 * message names the file and the problem; oddities it can read past are listed in `warnings`.
 */
import type { FaceSurfaces } from '../geometry/surfaces.js';
import type { ImportLimits } from './limits.js';

/** What a unitless file's numbers mean (STL has no units). */
export type LengthUnit = 'mm' | 'cm' | 'm' | 'in';

/** Millimetres per unit. Coordinates are multiplied by this after they are read. */
export const MM_PER_UNIT: Readonly<Record<LengthUnit, number>> = { mm: 1, cm: 10, m: 1000, in: 25.4 };

/** Scale factor to millimetres; throws RangeError on a unit outside LengthUnit. */
export function unitScale(unit: LengthUnit | undefined): number {
  if (unit === undefined) return 1;
  if (!Object.prototype.hasOwnProperty.call(MM_PER_UNIT, unit)) {
    throw new RangeError(`unknown length unit '${String(unit)}' (expected mm, cm, m or in)`);
  }
  return MM_PER_UNIT[unit];
}

/** Deepest product tree an importer follows (levels below it are cut off). */
export const MAX_BODY_PATH_DEPTH = 64;

/** One solid, shell or mesh of a file. */
export interface ImportedBody {
  /** The body's name in the file, '' if the file has none. */
  name: string;
  /**
   * The body's place in the file's product tree: node names from the root's children down to the
   * body (occt/tree.ts), e.g. `["as1", "rod-assembly", "nut"]`; a file without a tree (STL, a
   * BREP of one body): `[file name stem]`. Absent from bodies made by hand: `[name]`.
   */
  path?: readonly string[];
  /** Body colour, each channel 0..1; null if the file gives none. */
  color: [number, number, number] | null;
  /** Welded vertices (exact duplicates merged), x y z each, millimetres. */
  positions: Float64Array;
  /** Three vertex indices per triangle; triangles in the file's order. */
  indices: Uint32Array;
  triangleCount: number;
  /**
   * B-rep faces as [firstTriangle, lastTriangle] pairs (inclusive), in face order; null when the
   * format has no faces (STL).
   */
  faceRanges: Uint32Array | null;
  /** Per triangle, an estimate (mm) of the exact surface's distance from it (CAD formats); null or absent for meshes (STL). */
  chordErrorMm?: Float32Array | null;
  /**
   * Per triangle, on which side its exact face lies (occt/chord.ts estimateChordSides): +1 convex (the
   * exact solid is larger than the mesh there), −1 concave (smaller), 0 either; null when unknown.
   */
  chordSide?: Int8Array | null;
  /**
   * Per face (in faceRanges order), its exact surface when it is a plane, cylinder or sphere
   * (../geometry/surfaces.ts), recovered from occt's vertices and normals; null or absent when
   * unknown (STL, no normals).
   */
  surfaces?: FaceSurfaces | null;
}

export interface ImportResult {
  /** 'stl-binary' | 'stl-ascii' | 'step' | 'iges' | 'brep' | … */
  format: string;
  /** In file order. Never empty: a file without bodies is an ImportError. */
  bodies: ImportedBody[];
  /** Problems the importer read past, one sentence each (no file name). */
  warnings: string[];
}

/** Minimal abort signal shape (an AbortSignal fits). */
export interface AbortSignalLike {
  readonly aborted: boolean;
}

export interface ImportOptions {
  /** What an STL's numbers mean; default mm. Ignored by formats that carry units. */
  units?: LengthUnit;
  /**
   * Checked between stages and periodically inside long loops (every few MB of an STL, and while
   * OpenCascade works in the host's worker); aborting throws code 'aborted'. A synchronous parse
   * only sees the abort when `yieldToHost` lets the host's event loop run.
   */
  signal?: AbortSignalLike;
  /**
   * Refuse files with more triangles than this in all (code 'too-large'). Kept for callers that
   * set one number; `limits` is the general form (both apply when both are given).
   */
  maxTriangles?: number;
  /** Size, triangle and time limits (limits.ts); missing entries take DEFAULT_IMPORT_LIMITS. */
  limits?: Partial<ImportLimits>;
  /**
   * Progress: `done` of `total` in the importer's own units, only the ratio means anything (STL:
   * bytes read, then vertices welded, reported every few MB; CAD: 0 when OpenCascade starts and
   * total when it has finished). Called with done = total at the end.
   */
  onProgress?: (done: number, total: number) => void;
  /**
   * Lets the host's event loop run (e.g. `() => new Promise((r) => setImmediate(r))`), called at
   * the same points as onProgress, so that a long parse stays cancellable and the host responsive.
   */
  yieldToHost?: () => Promise<void>;
  /**
   * CAD only: tessellate with this linear deflection (mm: no triangle farther than this from its
   * exact face) instead of OpenCascade's default (a ratio of the model's size). For refining
   * bodies whose default triangles cannot decide a fit (src-core/check/refine.ts).
   */
  linearDeflectionMm?: number;
}

/** OpenCascade's triangulation parameters for a deflection (null: its defaults). */
export interface TessellationParams {
  readonly linearUnit: 'millimeter';
  readonly linearDeflectionType: 'absolute_value';
  readonly linearDeflection: number;
  /** Radians: wide enough that the linear deflection alone decides. */
  readonly angularDeflection: number;
}

/** The parameters for a linear deflection (mm), or null for OpenCascade's defaults. */
export function tessellationParams(linearDeflectionMm: number | undefined): TessellationParams | null {
  if (linearDeflectionMm === undefined) return null;
  if (!(linearDeflectionMm > 0) || !Number.isFinite(linearDeflectionMm)) throw new RangeError(`the linear deflection must be a positive number of millimetres, got ${String(linearDeflectionMm)}`);
  return { linearUnit: 'millimeter', linearDeflectionType: 'absolute_value', linearDeflection: linearDeflectionMm, angularDeflection: 0.5 };
}

export interface Importer {
  /** Stable identifier, e.g. 'stl'. */
  readonly id: string;
  /** For messages and file dialogs, e.g. 'STL'. */
  readonly label: string;
  /** File name extensions, lower case, without the dot. A hint only: content decides. */
  readonly extensions: readonly string[];
  /**
   * How sure the importer is that it can read these bytes, from the content alone: 0 = not its
   * format, ≥ 0.5 = recognised, below 0.5 = possibly a damaged file of its format (the registry then
   * uses the file name to decide whether this importer gets to explain what is wrong).
   */
  sniff(bytes: Uint8Array): number;
  /** Reads the file; throws ImportError. `fileName` is used in messages and as a format hint. */
  import(bytes: Uint8Array, fileName: string, options?: ImportOptions): Promise<ImportResult>;
}

export type ImportErrorCode =
  | 'empty-file'
  | 'truncated'
  | 'count-mismatch'
  | 'not-stl'
  | 'unknown-format'
  | 'non-finite-coordinate'
  | 'no-triangles'
  | 'parse-error'
  | 'wrong-vertex-count'
  | 'too-large'
  | 'unreadable-cad'
  | 'no-bodies'
  | 'aborted'
  /** OpenCascade did not finish within the CAD time limit (ImportLimits.cadTimeoutMs). */
  | 'timeout';

export interface ImportErrorDetails {
  /** 1-based line of a text format. */
  line?: number;
  /** 0-based triangle index in file order. */
  triangle?: number;
  cause?: unknown;
}

/** A file that cannot be imported. The message is `<fileName>: <problem>`. */
export class ImportError extends Error {
  override readonly name = 'ImportError';
  readonly code: ImportErrorCode;
  readonly fileName: string;
  /** The message without the file name. */
  readonly problem: string;
  readonly line: number | null;
  readonly triangle: number | null;

  constructor(code: ImportErrorCode, fileName: string, problem: string, details: ImportErrorDetails = {}) {
    super(`${displayName(fileName)}: ${problem}`, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.fileName = fileName;
    this.problem = problem;
    this.line = details.line ?? null;
    this.triangle = details.triangle ?? null;
  }
}

/** The name used in messages: the file name as given, or a placeholder when there is none. */
export function displayName(fileName: string): string {
  return fileName === '' ? '(unnamed file)' : fileName;
}

/** Throws ImportError code 'aborted' when the signal is set. */
export function checkAborted(signal: AbortSignalLike | undefined, fileName: string): void {
  if (signal?.aborted) throw new ImportError('aborted', fileName, 'import was cancelled');
}

/** 1234567 → "1,234,567" (locale independent). */
export function groupDigits(n: number): string {
  const s = String(Math.abs(Math.trunc(n)));
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (i > 0 && (s.length - i) % 3 === 0) out += ',';
    out += s[i];
  }
  return n < 0 ? '-' + out : out;
}

/** "1 triangle", "2 triangles". */
export function plural(n: number, word: string): string {
  return `${groupDigits(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** The first eight items joined by ", ", and "…" when there are more (for messages). */
export function listSome(xs: readonly (number | string)[]): string {
  return xs.slice(0, 8).join(', ') + (xs.length > 8 ? ', …' : '');
}

/** The stem of a file name or path: its last segment without the extension. */
export function fileStem(fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** The lower-case extension of a file name or path ('' when none). */
export function fileExtension(fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** True for the bytes ASCII treats as blank: space, tab, LF, VT, FF, CR. */
export function isBlankByte(b: number): boolean {
  return b === 0x20 || (b >= 0x09 && b <= 0x0d);
}

/** True when the file is empty or holds only blanks (and a UTF-8 byte order mark). */
export function isBlankFile(bytes: Uint8Array): boolean {
  const start = hasUtf8Bom(bytes) ? 3 : 0;
  for (let i = start; i < bytes.length; i++) if (!isBlankByte(bytes[i])) return false;
  return true;
}

export function hasUtf8Bom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/**
 * Whether the first `limit` bytes could be text: no control bytes other than blanks (bytes ≥ 0x80
 * are allowed, for UTF-8 names and comments).
 */
export function looksLikeText(bytes: Uint8Array, limit = 4096): boolean {
  const end = Math.min(bytes.length, limit);
  for (let i = 0; i < end; i++) {
    const b = bytes[i];
    if ((b < 0x20 && !isBlankByte(b)) || b === 0x7f) return false;
  }
  return true;
}

/** Decodes bytes as UTF-8, or as Latin-1 when they are not valid UTF-8. */
export function decodeText(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let out = '';
  let i = start;
  while (i < end) {
    const b = bytes[i];
    if (b < 0x80) { out += String.fromCharCode(b); i++; continue; }
    const need = b >= 0xf0 && b <= 0xf4 ? 3 : b >= 0xe0 ? (b <= 0xef ? 2 : -1) : b >= 0xc2 && b <= 0xdf ? 1 : -1;
    if (need < 0 || i + need >= end) return latin1(bytes, start, end);
    let cp = b & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if ((c & 0xc0) !== 0x80) return latin1(bytes, start, end);
      cp = (cp << 6) | (c & 0x3f);
    }
    if ((need === 2 && cp < 0x800) || (need === 3 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff)) {
      return latin1(bytes, start, end);
    }
    out += String.fromCodePoint(cp);
    i += need + 1;
  }
  return out;
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; i++) out += String.fromCharCode(bytes[i]);
  return out;
}

/**
 * Recognises common formats by their signature, for messages ("looks like a PNG image"). Returns
 * a short description, or null.
 */
export function describeKnownFormat(bytes: Uint8Array): string | null {
  const startsWith = (sig: readonly number[], at = 0): boolean =>
    bytes.length >= at + sig.length && sig.every((v, k) => bytes[at + k] === v);
  const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'a PNG image';
  if (startsWith([0xff, 0xd8, 0xff])) return 'a JPEG image';
  if (startsWith(ascii('GIF8'))) return 'a GIF image';
  if (startsWith(ascii('%PDF'))) return 'a PDF document';
  if (startsWith([0x50, 0x4b, 0x03, 0x04])) return 'a ZIP archive (3MF files are ZIP archives too)';
  if (startsWith([0x1f, 0x8b])) return 'a gzip-compressed file';
  if (startsWith(ascii('glTF'))) return 'a binary glTF (GLB) file';
  const head = decodeText(bytes, 0, Math.min(bytes.length, 512)).replace(/^\uFEFF/, '');
  const trimmed = head.trimStart();
  if (trimmed.startsWith('ISO-10303-21')) return 'a STEP file';
  if (/^(DBRep_DrawableShape|CASCADE Topology V)/.test(trimmed)) return 'an OpenCascade BREP file';
  if (/^.{72}S {0,6}1\r?\n/.test(head)) return 'an IGES file';
  if (/^ply\r?\n/.test(head)) return 'a PLY mesh';
  if (/^\s*(#.*\r?\n\s*)*(mtllib|o|g|v|vn|vt)\s/.test(head) && /(^|\n)v\s+[-+.\d]/.test(head)) return 'an OBJ mesh';
  return null;
}
