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
import type { ImportFunction, ResolveProgress, ResolvedAssembly } from '../../src-core/assembly/resolve.js';
import { createDefaultRegistry } from '../../src-core/io/registry.js';
import { decodeText, hasUtf8Bom, isBlankByte } from '../../src-core/io/types.js';
import type { AbortSignalLike, ImportOptions, ImportResult, LengthUnit } from '../../src-core/io/types.js';
import { readFileChecked, writeFileAtomic, type AtomicFs } from './files.js';

export interface OpenOptions {
  /** Imports one file's bytes; default: the default registry (STL; more formats as they register). */
  readonly importer?: ImportFunction;
  /** Per source: done of total sources imported. */
  readonly onProgress?: ResolveProgress;
  readonly signal?: AbortSignalLike;
  /** For a bare STL file: what its numbers mean (default mm). Assemblies say it per source. */
  readonly units?: LengthUnit;
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
}

/** The default registry's import, for callers that have no importer of their own. */
export function defaultImporter(): ImportFunction {
  const registry = createDefaultRegistry();
  return (bytes, fileName, options) => registry.import(bytes, fileName, options);
}

/** A loader that reads source paths relative to `folder`; it rejects with FileError. */
function loaderFor(folder: string): (relativePath: string) => Promise<Uint8Array> {
  return (relativePath) => readFileChecked(path.resolve(folder, relativePath));
}

/**
 * Opens a saved assembly: reads and parses the file, then reads and imports its sources relative
 * to the file's folder. Throws FileError (the assembly itself cannot be read), AssemblyError, or
 * ImportError 'aborted'.
 */
export async function openAssemblyFile(filePath: string, options: OpenOptions = {}): Promise<ResolvedAssembly> {
  const bytes = await readFileChecked(filePath);
  return openAssemblyBytes(filePath, bytes, options);
}

async function openAssemblyBytes(filePath: string, bytes: Uint8Array, options: OpenOptions): Promise<ResolvedAssembly> {
  const doc = parseAssembly(decodeText(bytes), filePath);
  return resolveAssembly(doc, loaderFor(path.dirname(path.resolve(filePath))), options.importer ?? defaultImporter(), {
    fileName: filePath,
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  });
}

/**
 * Opens a bare CAD/STL file as an assembly: every body a part at its own placement, with the ids
 * the checker assigns (assemblyFromBodies) and default settings. Throws FileError or ImportError
 * (naming the file as given).
 */
export async function openModelFile(filePath: string, options: OpenOptions = {}): Promise<ResolvedAssembly> {
  const bytes = await readFileChecked(filePath);
  return openModelBytes(filePath, bytes, options);
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
  const bytes = await readFileChecked(filePath);
  const absolute = path.resolve(filePath);
  if (isAssemblyFile(filePath, bytes)) {
    return { path: absolute, kind: 'assembly', assembly: await openAssemblyBytes(filePath, bytes, options), bytes };
  }
  return { path: absolute, kind: 'model', assembly: await openModelBytes(filePath, bytes, options), bytes };
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
