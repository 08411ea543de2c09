/**
 * Opening and saving documents: saved assemblies (`*.assembly.json`) and bare CAD/STL files
 * checked as assemblies. Called by the command line, the Electron handlers and the test bridge.
 *
 * Source paths inside an assembly are relative to the assembly file's folder; saving to another
 * folder rewrites them so that they still point at the same files.
 */
import path from 'node:path';
import { assemblyFromBodies, ASSEMBLY_EXTENSION, parseAssembly, serializeAssembly } from '../../src-core/assembly/format.js';
import type { AssemblyDoc, SourceDef } from '../../src-core/assembly/model.js';
import { resolveAssembly } from '../../src-core/assembly/resolve.js';
import type { ImportFunction, ResolveOptions, ResolveProgress, ResolvedAssembly } from '../../src-core/assembly/resolve.js';
import { MAX_ASSEMBLY_FILE_BYTES } from '../../src-core/assembly/limits.js';
import { DEFAULT_IMPORT_LIMITS, fileSizeProblem, formatBytes } from '../../src-core/io/limits.js';
import { createDefaultRegistry } from '../../src-core/io/registry.js';
import { ImportError, decodeText, hasUtf8Bom, isBlankByte } from '../../src-core/io/types.js';
import type { AbortSignalLike, ImportOptions, ImportResult, LengthUnit } from '../../src-core/io/types.js';
import type { ReportInput } from '../../src-core/report/model.js';
import { FileError, readFileChecked, writeFileAtomic, type AtomicFs, type FileRead } from './files.js';
import type { Precheck } from './importers.js';

export interface OpenOptions {
  /** Imports one file's bytes; default: the default registry (STL; more formats as they register). */
  readonly importer?: ImportFunction;
  /** Per source: done of total sources imported. */
  readonly onProgress?: ResolveProgress;
  readonly signal?: AbortSignalLike;
  /** For a bare STL file: what its numbers mean (default mm). Assemblies say it per source. */
  readonly units?: LengthUnit;
  /** A saved assembly's sources, each as soon as it is imported (src-core/assembly/resolve.ts ResolveOptions.onSource). */
  readonly onSource?: ResolveOptions['onSource'];
  /** Called for every file read whole: the source path as written in the assembly, or null for the file opened. */
  readonly onFileRead?: (read: FileRead, sourcePath: string | null) => void;
}

export type DocumentKind = 'assembly' | 'model';

export interface OpenedDocument {
  /** The file opened, absolute. */
  readonly path: string;
  /** A saved assembly, or a bare CAD/STL file taken as one. */
  readonly kind: DocumentKind;
  readonly assembly: ResolvedAssembly;
  /** The file's bytes as read (to tell later whether it changed on disk). */
  readonly bytes: Uint8Array;
  /** Every file read, in reading order: the file opened, then the sources it names (a report's `inputs`). */
  readonly inputs: ReportInput[];
}

/**
 * The report's `inputs` entry of a file read: the file opened (`sourcePath` null) or a source of
 * the document (by its path as written, which names one or more source ids: the first is taken).
 */
export function inputOf(read: FileRead, sourcePath: string | null, doc: AssemblyDoc | null): ReportInput {
  const sourceId = sourcePath === null ? null : (doc?.sources.find((s) => s.path === sourcePath)?.id ?? sourcePath);
  return { role: sourcePath === null ? 'assembly' : 'source', sourceId, path: read.path, sizeBytes: read.sizeBytes, modifiedAt: read.modifiedAt, sha256: read.sha256 };
}

/**
 * The files a document was read from, as report inputs in one order whatever order the reads
 * finished in (sources are read in parallel): the opened file, then the sources in the order the
 * document lists them; a path it does not list comes last, in the order it was read.
 */
export function inputsInDocumentOrder(reads: readonly (readonly [FileRead, string | null])[], doc: AssemblyDoc | null): ReportInput[] {
  const index = new Map<string, number>();
  doc?.sources.forEach((s, k) => {
    if (!index.has(s.path)) index.set(s.path, k);
  });
  const rank = (sourcePath: string | null): number => (sourcePath === null ? -1 : (index.get(sourcePath) ?? Number.MAX_SAFE_INTEGER));
  return reads
    .map((r, k) => ({ r, k, rank: rank(r[1]) }))
    .sort((x, y) => x.rank - y.rank || x.k - y.k)
    .map(({ r }) => inputOf(r[0], r[1], doc));
}

/** The default registry's import, for callers that have no importer of their own. */
export function defaultImporter(): ImportFunction {
  const registry = createDefaultRegistry();
  const precheck: Precheck = (head, size, fileName, options) => registry.precheck(head, size, fileName, options);
  return Object.assign((bytes: Uint8Array, fileName: string, options?: ImportOptions) => registry.import(bytes, fileName, options), { precheck });
}

/** The largest file the importer takes (its limits, else the default). */
function maxFileBytesOf(importer: ImportFunction): number {
  return importer.limits?.maxFileBytes ?? DEFAULT_IMPORT_LIMITS.maxFileBytes;
}

/**
 * Why `importer` refuses a file of `size` bytes beginning with `head` before it is read whole:
 * its own precheck (importers.ts) where it has one, else its size limit. Null to read on.
 */
function modelRefusal(importer: ImportFunction, head: Uint8Array, size: number, fileName: string): ImportError | null {
  const precheck = (importer as { precheck?: Precheck }).precheck;
  if (precheck !== undefined) return precheck(head, size, fileName);
  const tooLarge = fileSizeProblem(size, { ...DEFAULT_IMPORT_LIMITS, maxFileBytes: maxFileBytesOf(importer) });
  return tooLarge === null ? null : new ImportError('too-large', fileName, tooLarge);
}

/** AbortSignalLike is all OpenOptions promise; the reader checks a real AbortSignal. */
function abortSignal(signal: AbortSignalLike | undefined): AbortSignal | undefined {
  return signal instanceof AbortSignal ? signal : undefined;
}

/**
 * Reads a CAD/STL file for `importer`: only a regular file, refused before reading when it is
 * larger than the importer's size limit or when its first bytes already show it cannot be
 * imported (ImportError naming `fileName`); else FileError. `fileName` is the name the importer
 * will be given (the source path as written in an assembly).
 */
export function readModelFile(
  filePath: string, importer: ImportFunction, fileName = filePath, signal?: AbortSignalLike, onRead?: (read: FileRead) => void,
): Promise<Uint8Array> {
  return readFileChecked(filePath, {
    maxBytes: maxFileBytesOf(importer),
    signal: abortSignal(signal),
    ...(onRead !== undefined ? { onRead } : {}),
    beforeRead: (head, size) => {
      // A saved assembly is the caller's to explain (import refuses one); only its size matters here.
      const refused = isAssemblyFile(fileName, head)
        ? modelRefusal(importer, new Uint8Array(0), size, fileName)
        : modelRefusal(importer, head, size, fileName);
      if (refused !== null) throw refused;
    },
  });
}

/** The refusal of a saved assembly larger than MAX_ASSEMBLY_FILE_BYTES. */
function assemblyTooLarge(filePath: string, size: number): FileError {
  return new FileError(filePath, `the saved assembly has ${formatBytes(size)}, more than the ${formatBytes(MAX_ASSEMBLY_FILE_BYTES)} a saved assembly may have`, 'EFBIG');
}

/** A loader that reads source paths relative to `folder` for `importer` (readModelFile); it rejects with FileError or ImportError. */
export function sourceLoader(
  folder: string, importer: ImportFunction, signal?: AbortSignalLike, onRead?: (read: FileRead, relativePath: string) => void,
): (relativePath: string) => Promise<Uint8Array> {
  return (relativePath) => readModelFile(
    path.resolve(folder, relativePath), importer, relativePath, signal, onRead !== undefined ? (read) => onRead(read, relativePath) : undefined,
  );
}

/**
 * Opens a saved assembly: reads and parses the file, then reads and imports its sources relative
 * to the file's folder. Throws FileError (the assembly itself cannot be read), AssemblyError, or
 * ImportError 'aborted'.
 */
export async function openAssemblyFile(filePath: string, options: OpenOptions = {}): Promise<ResolvedAssembly> {
  const onFileRead = options.onFileRead;
  const bytes = await readFileChecked(filePath, {
    maxBytes: Infinity,
    signal: abortSignal(options.signal),
    ...(onFileRead !== undefined ? { onRead: (read: FileRead) => onFileRead(read, null) } : {}),
    beforeRead: (_head, size) => {
      if (size > MAX_ASSEMBLY_FILE_BYTES) throw assemblyTooLarge(filePath, size);
    },
  });
  return openAssemblyBytes(filePath, bytes, options);
}

async function openAssemblyBytes(filePath: string, bytes: Uint8Array, options: OpenOptions): Promise<ResolvedAssembly> {
  const doc = parseAssembly(decodeText(bytes), filePath);
  const importer = options.importer ?? defaultImporter();
  const onFileRead = options.onFileRead;
  const loader = sourceLoader(path.dirname(path.resolve(filePath)), importer, options.signal, onFileRead !== undefined ? (read, p) => onFileRead(read, p) : undefined);
  return resolveAssembly(doc, loader, importer, {
    fileName: filePath,
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    ...(options.onSource !== undefined ? { onSource: options.onSource } : {}),
  });
}

/**
 * Opens a bare CAD/STL file as an assembly: every body a part at its own placement, with the ids
 * the checker assigns (assemblyFromBodies) and default settings. Throws FileError or ImportError
 * (naming the file as given).
 */
export async function openModelFile(filePath: string, options: OpenOptions = {}): Promise<ResolvedAssembly> {
  const importer = options.importer ?? defaultImporter();
  const onFileRead = options.onFileRead;
  const bytes = await readModelFile(filePath, importer, filePath, options.signal, onFileRead !== undefined ? (read) => onFileRead(read, null) : undefined);
  return openModelBytes(filePath, bytes, { ...options, importer });
}

async function openModelBytes(filePath: string, bytes: Uint8Array, options: OpenOptions): Promise<ResolvedAssembly> {
  const importer = options.importer ?? defaultImporter();
  options.onProgress?.(0, 1, null);
  const importOptions: ImportOptions = {
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    ...(options.units !== undefined ? { units: options.units } : {}),
  };
  const result: ImportResult = await importer(bytes, filePath, importOptions);
  const doc = assemblyFromBodies(filePath, result.bodies, options.units !== undefined ? { units: options.units } : {});
  // The file is read and imported already: hand the resolver that result instead of a second import.
  const resolved = await resolveAssembly(doc, async () => bytes, async () => result, { fileName: filePath });
  options.onProgress?.(1, 1, doc.sources[0].id);
  return resolved;
}

/** File name extensions of CAD and mesh formats (never taken for an assembly). */
const MODEL_EXTENSIONS = new Set(['stl', 'stp', 'step', 'igs', 'iges', 'brep', 'brp']);

/**
 * Whether a file is a saved assembly: by name (`.assembly.json`, `.json`), else by content (the
 * first character other than blanks is `{`). A CAD/STL extension always means a model.
 */
export function isAssemblyFile(fileName: string, bytes: Uint8Array): boolean {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(ASSEMBLY_EXTENSION) || lower.endsWith('.json')) return true;
  const dot = lower.lastIndexOf('.');
  const ext = dot > Math.max(lower.lastIndexOf('/'), lower.lastIndexOf('\\')) ? lower.slice(dot + 1) : '';
  if (MODEL_EXTENSIONS.has(ext)) return false;
  let i = hasUtf8Bom(bytes) ? 3 : 0;
  while (i < bytes.length && isBlankByte(bytes[i])) i++;
  return i < bytes.length && bytes[i] === 0x7b; // {
}

/** Opens a saved assembly or a bare CAD/STL file, deciding by name and content (isAssemblyFile). */
export async function openAny(filePath: string, options: OpenOptions = {}): Promise<OpenedDocument> {
  const importer = options.importer ?? defaultImporter();
  // Decided from the first bytes, before the rest is read, so that each kind has its own bound.
  let assembly = false;
  const reads: [FileRead, string | null][] = [];
  const record = (read: FileRead, sourcePath: string | null): void => {
    reads.push([read, sourcePath]);
    options.onFileRead?.(read, sourcePath);
  };
  const bytes = await readFileChecked(filePath, {
    maxBytes: Math.max(maxFileBytesOf(importer), MAX_ASSEMBLY_FILE_BYTES),
    signal: abortSignal(options.signal),
    onRead: (read) => record(read, null),
    beforeRead: (head, size) => {
      assembly = isAssemblyFile(filePath, head);
      if (assembly) {
        if (size > MAX_ASSEMBLY_FILE_BYTES) throw assemblyTooLarge(filePath, size);
        return;
      }
      const refused = modelRefusal(importer, head, size, filePath);
      if (refused !== null) throw refused;
    },
  });
  const absolute = path.resolve(filePath);
  const withImporter: OpenOptions = { ...options, importer, onFileRead: record };
  const kind: DocumentKind = assembly ? 'assembly' : 'model';
  const resolved = assembly ? await openAssemblyBytes(filePath, bytes, withImporter) : await openModelBytes(filePath, bytes, withImporter);
  return { path: absolute, kind, assembly: resolved, bytes, inputs: inputsInDocumentOrder(reads, resolved.doc) };
}

function isAbsoluteAnywhere(p: string): boolean {
  return path.posix.isAbsolute(p) || path.win32.isAbsolute(p);
}

/**
 * The document with its relative source paths rewritten from `fromFolder` to `toFolder`, written
 * with '/' separators; absolute paths are kept. Returns the same document when nothing changes.
 */
export function rebaseSourcePaths(doc: AssemblyDoc, fromFolder: string, toFolder: string): AssemblyDoc {
  const from = path.resolve(fromFolder);
  const to = path.resolve(toFolder);
  if (from === to) return doc;
  let changed = false;
  const sources = doc.sources.map((s): SourceDef => {
    if (isAbsoluteAnywhere(s.path)) return s;
    const target = path.resolve(from, s.path);
    let rel = path.relative(to, target);
    if (!path.isAbsolute(rel)) rel = rel.split(path.sep).join('/'); // another drive stays absolute
    if (rel === s.path) return s;
    changed = true;
    return { ...s, path: rel };
  });
  return changed ? { ...doc, sources } : doc;
}

export interface SaveOptions {
  /**
   * The file the document's source paths are relative to (where it was opened from or last saved;
   * for a bare CAD/STL file, that file). Saving into another folder rewrites them. Default: the
   * target itself (paths kept as they are).
   */
  readonly fromPath?: string;
  /** The file operations of the atomic write (default node:fs/promises; tests inject failures and pauses). */
  readonly fs?: AtomicFs;
}

/**
 * Saves a document atomically (writeFileAtomic). Returns the document as written: its source
 * paths are relative to the new file's folder (keep it in place of the old one after Save As).
 * Throws FileError naming the path.
 */
export async function saveAssemblyFile(filePath: string, doc: AssemblyDoc, options: SaveOptions = {}): Promise<AssemblyDoc> {
  const fromPath = options.fromPath ?? filePath;
  const saved = rebaseSourcePaths(doc, path.dirname(path.resolve(fromPath)), path.dirname(path.resolve(filePath)));
  await writeFileAtomic(filePath, serializeAssembly(saved), options.fs !== undefined ? { fs: options.fs } : {});
  return saved;
}
