/**
 * Loading an assembly's bodies: every source file the parts need is read and imported once, then
 * every part gets its body, placement, name and colour.
 *
 * Pure TypeScript: reading files is the host's job, through a SourceLoader that resolves a source
 * path (relative to the assembly file's folder, as written in the file) and returns its bytes.
 */
import { DEFAULT_IMPORT_LIMITS, assemblyTriangleProblem, type ImportLimits } from '../io/limits.js';
import { ImportError, checkAborted } from '../io/types.js';
import type { AbortSignalLike, ImportOptions, ImportResult, ImportedBody } from '../io/types.js';
import { assignPartIds, fieldLine, parseAssembly, transformProblem, withBodyNames } from './format.js';
import { MAX_NAME_LENGTH, boundedName } from './limits.js';
import { AssemblyError } from './model.js';
import type { AssemblyDoc, PartDef, SourceDef } from './model.js';

/**
 * Reads a source file: `relativePath` is the source's `path` as written in the assembly, relative
 * to the assembly file's folder. Rejects when the file cannot be read; an error with a `problem`
 * string (or a Node `code` such as ENOENT) is reported by that.
 */
export type SourceLoader = (relativePath: string) => Promise<Uint8Array>;

/** Imports the bytes of one file (the registry's `import`). Throws ImportError. */
/**
 * Imports one file's bytes. An importer that runs under limits names them in `limits`: the
 * sources of one assembly together may then hold at most `maxTrianglesPerAssembly` triangles
 * (default DEFAULT_IMPORT_LIMITS').
 */
export type ImportFunction = ((bytes: Uint8Array, fileName: string, options?: ImportOptions) => Promise<ImportResult>) & {
  readonly limits?: ImportLimits;
  /**
   * How many files it reads at once to advantage (default 1): an importer whose CAD reads run in
   * several workers reads that many of an assembly's sources together.
   */
  readonly concurrency?: number;
};

/** Called before the first source (done 0) and after each source is imported. */
export type ResolveProgress = (done: number, total: number, sourceId: string | null) => void;

export interface ResolveOptions {
  /** The assembly's file name, for messages; default '(unsaved assembly)'. */
  readonly fileName?: string;
  readonly onProgress?: ResolveProgress;
  /** Checked before each source and passed to the importer; aborting throws ImportError 'aborted'. */
  readonly signal?: AbortSignalLike;
  /**
   * Called with each source as soon as it is imported and accepted, in source order, with the
   * indices of its bodies that parts place (all of them for `parts` left out): a caller can start
   * on those bodies (build their trees) while the next sources are read. `placements`: where the
   * parts put them, each part's body and its transform as written (null: the identity; not yet
   * validated, the assembly is refused later if one is wrong).
   */
  readonly onSource?: (sourceId: string, result: ImportResult, bodies: readonly number[], placements: readonly SourcePlacement[]) => void;
}

/** A part's placement of a body of a source (ResolveOptions.onSource). */
export interface SourcePlacement {
  readonly body: number;
  /** Row-major 4×4 (or null: the identity), as the assembly gives it. */
  readonly transform: readonly number[] | null;
}

export interface ResolvedPart {
  readonly id: string;
  /** The part's name, else its body's name, else its id. */
  readonly name: string;
  readonly sourceId: string;
  readonly bodyIndex: number;
  readonly body: ImportedBody;
  /**
   * The part's place in its source's product tree (PartDef.path): the saved one, else its body's
   * (bodyPath). Names bounded to MAX_NAME_LENGTH.
   */
  readonly path: readonly string[];
  /** Row-major 4×4 rigid placement (identity when the part has none). */
  readonly transform: Float64Array;
  /** `#rrggbb`: the part's colour, else its body's, else null. */
  readonly color: string | null;
  readonly visible: boolean;
}

export interface ResolvedAssembly {
  readonly doc: AssemblyDoc;
  /** In the document's part order (for `parts: null`, every body of every source in order). */
  readonly parts: ResolvedPart[];
  /** Importer warnings prefixed with their source, and problems that do not stop the check. */
  readonly warnings: string[];
  /** How many bodies each imported source yielded, by source id. */
  readonly bodyCounts: ReadonlyMap<string, number>;
}

const IDENTITY: readonly number[] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** A body's place in its file's product tree: the importer's, else its name alone. */
export function bodyPath(body: Pick<ImportedBody, 'name' | 'path'>): string[] {
  const path = body.path !== undefined && body.path.length > 0 ? body.path : [body.name];
  return path.map(boundedName);
}

/** `#rrggbb` of a colour with channels 0..1. */
export function colorToHex(rgb: readonly [number, number, number]): string {
  const byte = (x: number): string => {
    const v = Number.isFinite(x) ? Math.round(Math.min(1, Math.max(0, x)) * 255) : 0;
    return v.toString(16).padStart(2, '0');
  };
  return `#${byte(rgb[0])}${byte(rgb[1])}${byte(rgb[2])}`;
}

function describeSource(s: SourceDef): string {
  return `source '${s.id}' (${s.path})`;
}

/** What went wrong reading a file, without the path: the error's `problem`, its Node code, or its message. */
function loadProblem(err: unknown): string {
  if (typeof err === 'object' && err !== null) {
    const e = err as { problem?: unknown; code?: unknown; message?: unknown };
    if (typeof e.problem === 'string') return e.problem;
    switch (e.code) {
      case 'ENOENT': return 'file not found';
      case 'EACCES':
      case 'EPERM': return 'permission denied';
      case 'EISDIR': return 'this is a folder, not a file';
      case 'ENOTDIR': return 'part of the path is not a folder';
      default: break;
    }
    if (typeof e.message === 'string') return e.message;
  }
  return String(err);
}

function isAbort(err: unknown): boolean {
  return err instanceof ImportError && err.code === 'aborted';
}

/**
 * Reads and imports the sources an assembly needs (each once, in source order) and places every
 * part. Throws AssemblyError naming the assembly file, the source or part, and where known the
 * line: a source that cannot be read or imported, a part whose body index is out of range, a
 * transform that is not rigid. Throws ImportError 'aborted' when the signal is set.
 */
export async function resolveAssembly(
  doc: AssemblyDoc,
  loader: SourceLoader,
  importer: ImportFunction,
  options: ResolveOptions = {},
): Promise<ResolvedAssembly> {
  const fileName = options.fileName ?? '(unsaved assembly)';
  const { signal, onProgress } = options;
  const warnings: string[] = [];
  const sourceIndex = new Map(doc.sources.map((s, i) => [s.id, i]));

  // Which sources are needed: all of them for `parts: null`, else those some part names.
  let needed: number[];
  if (doc.parts === null) {
    needed = doc.sources.map((_, i) => i);
  } else {
    const used = new Set<number>();
    doc.parts.forEach((p, i) => {
      const si = sourceIndex.get(p.source);
      if (si === undefined) {
        throw new AssemblyError(fileName, `part '${p.id}' refers to source '${p.source}', which the file does not list`, `parts[${i}].source`, fieldLine(doc, `parts[${i}].source`));
      }
      used.add(si);
    });
    needed = [...used].sort((a, b) => a - b);
    doc.sources.forEach((s, i) => {
      if (!used.has(i)) warnings.push(`${describeSource(s)} is not used by any part and was not read`);
    });
  }

  const imported = new Map<string, ImportResult>();
  const bodyNames = new Map<string, string[]>();
  const limits = importer.limits ?? DEFAULT_IMPORT_LIMITS;
  let triangles = 0;
  onProgress?.(0, needed.length, null);
  // Sources are read `concurrency` at a time (the importer's), and taken in source order: the
  // first source that fails is the one reported, whatever finished first. Reads still running
  // when one fails are stopped.
  let stopped = false;
  let partsBySource: Map<string, PartDef[]> | null = null;
  const readSignal: AbortSignalLike = { get aborted() { return stopped || signal?.aborted === true; } };
  const read = async (si: number): Promise<ImportResult> => {
    const source = doc.sources[si];
    checkAborted(readSignal, fileName);
    let bytes: Uint8Array;
    try {
      bytes = await loader(source.path);
    } catch (err) {
      if (isAbort(err)) throw err;
      // A loader may refuse a file for its content before reading it whole (an ImportError): that is the source's problem, not its path's.
      const field = err instanceof ImportError ? `sources[${si}]` : `sources[${si}].path`;
      throw new AssemblyError(fileName, `${describeSource(source)}: ${loadProblem(err)}`, field, fieldLine(doc, field), { cause: err });
    }
    checkAborted(readSignal, fileName);
    try {
      const importOptions: { -readonly [K in keyof ImportOptions]: ImportOptions[K] } = {};
      if (source.units !== undefined) importOptions.units = source.units;
      importOptions.signal = readSignal;
      return await importer(bytes, source.path, importOptions);
    } catch (err) {
      if (isAbort(err)) throw err;
      const problem = err instanceof ImportError ? err.problem : err instanceof Error ? err.message : String(err);
      throw new AssemblyError(fileName, `${describeSource(source)}: ${problem}`, `sources[${si}]`, fieldLine(doc, `sources[${si}]`), { cause: err });
    }
  };
  const window = Math.max(1, Math.min(needed.length, Math.floor(importer.concurrency ?? 1)));
  const reads: Promise<{ ok: ImportResult } | { error: unknown }>[] = [];
  const start = (k: number): void => {
    if (k < needed.length) reads[k] = read(needed[k]).then((ok) => ({ ok }), (error: unknown) => ({ error }));
  };
  for (let k = 0; k < window; k++) start(k);
  try {
    for (let k = 0; k < needed.length; k++) {
      const si = needed[k];
      const source = doc.sources[si];
      const outcome = await reads[k];
      if ('error' in outcome) throw outcome.error;
      const result = outcome.ok;
      if (result.bodies.length === 0) {
        throw new AssemblyError(fileName, `${describeSource(source)}: the file holds no bodies`, `sources[${si}]`, fieldLine(doc, `sources[${si}]`));
      }
      for (const body of result.bodies) triangles += body.triangleCount;
      const tooMany = assemblyTriangleProblem(triangles, limits, "the assembly's sources");
      if (tooMany !== null) {
        throw new AssemblyError(fileName, `${tooMany} (reached at ${describeSource(source)})`, `sources[${si}]`, fieldLine(doc, `sources[${si}]`));
      }
      const names = result.bodies.map((b) => b.name);
      if (source.bodyNames !== undefined) {
        const problem = bindingProblem(doc, source, source.bodyNames, names, result.warnings);
        if (problem !== null) {
          const field = `sources[${si}].bodyNames`;
          throw new AssemblyError(fileName, problem, field, fieldLine(doc, field) ?? fieldLine(doc, `sources[${si}]`));
        }
      }
      bodyNames.set(source.id, names);
      for (const w of result.warnings) warnings.push(`${describeSource(source)}: ${w}`);
      result.bodies.forEach((b, i) => {
        if (b.name !== boundedName(b.name)) warnings.push(`${describeSource(source)}: the name of body ${i} has ${b.name.length} characters; it is shown shortened to ${MAX_NAME_LENGTH}`);
      });
      imported.set(source.id, result);
      if (options.onSource) {
        // (the parts grouped by source once: a filter per source was quadratic in a 1,000-file assembly)
        if (doc.parts !== null && partsBySource === null) {
          partsBySource = new Map();
          for (const p of doc.parts) {
            const list = partsBySource.get(p.source);
            if (list) list.push(p);
            else partsBySource.set(p.source, [p]);
          }
        }
        const its = (partsBySource?.get(source.id) ?? []).filter((p) => p.body >= 0 && p.body < result.bodies.length);
        const placed = doc.parts === null ? result.bodies.map((_, i) => i) : [...new Set(its.map((p) => p.body))].sort((x, y) => x - y);
        const placements: SourcePlacement[] = doc.parts === null ? placed.map((body) => ({ body, transform: null }))
          : its.map((p) => ({ body: p.body, transform: p.transform ?? null }));
        options.onSource(source.id, result, placed, placements);
      }
      onProgress?.(k + 1, needed.length, source.id);
      start(k + window);
    }
  } catch (err) {
    stopped = true;
    throw err;
  }

  const parts: ResolvedPart[] = [];
  if (doc.parts === null) {
    const prefixed = doc.sources.length > 1;
    const taken = new Set<string>();
    for (const source of doc.sources) {
      const bodies = (imported.get(source.id) as ImportResult).bodies;
      const ids = assignPartIds(bodies.map((b) => b.name), prefixed ? source.id : null, taken);
      bodies.forEach((body, bodyIndex) => {
        parts.push({
          id: ids[bodyIndex],
          name: body.name !== '' ? boundedName(body.name) : ids[bodyIndex],
          sourceId: source.id,
          bodyIndex,
          body,
          path: bodyPath(body),
          transform: Float64Array.from(IDENTITY),
          color: body.color !== null ? colorToHex(body.color) : null,
          visible: true,
        });
      });
    }
    for (const rule of doc.ignore) {
      for (const id of [rule.a, rule.b]) {
        if (!taken.has(id)) warnings.push(`the ignore rule ${rule.a}/${rule.b} names '${id}', which is not one of the parts assigned to the bodies`);
      }
    }
  } else {
    doc.parts.forEach((p, i) => {
      const source = doc.sources[sourceIndex.get(p.source) as number];
      const bodies = (imported.get(source.id) as ImportResult).bodies;
      if (!Number.isInteger(p.body) || p.body < 0 || p.body >= bodies.length) {
        const has = bodies.length === 1 ? 'has only 1 body (index 0)' : `has ${bodies.length} bodies (indices 0 to ${bodies.length - 1})`;
        throw new AssemblyError(fileName, `part '${p.id}' uses body ${p.body} of ${describeSource(source)}, which ${has}`, `parts[${i}].body`, fieldLine(doc, `parts[${i}].body`) ?? fieldLine(doc, `parts[${i}]`));
      }
      if (p.transform !== undefined) {
        const bad = transformProblem(p.transform);
        if (bad !== null) {
          throw new AssemblyError(fileName, `part '${p.id}': ${bad.problem}`, `parts[${i}].transform`, fieldLine(doc, `parts[${i}].transform`));
        }
      }
      const body = bodies[p.body];
      parts.push({
        id: p.id,
        name: p.name !== undefined && p.name !== '' ? p.name : body.name !== '' ? boundedName(body.name) : p.id,
        sourceId: source.id,
        bodyIndex: p.body,
        body,
        path: p.path !== undefined ? [...p.path] : bodyPath(body),
        transform: Float64Array.from(p.transform ?? IDENTITY),
        color: p.color ?? (body.color !== null ? colorToHex(body.color) : null),
        visible: p.visible ?? true,
      });
    });
  }
  const bodyCounts = new Map<string, number>();
  for (const [id, result] of imported) bodyCounts.set(id, result.bodies.length);
  return { doc: withBodyNames(doc, bodyNames), parts, warnings, bodyCounts };
}

function quoteName(name: string): string {
  return name === '' ? 'a body without a name' : `'${name}'`;
}

/**
 * Why the bodies a source gives now do not match those it gave when the assembly was saved
 * (`saved`: its recorded bodyNames), naming the first part bound to a body that changed; null
 * when they match.
 */
function bindingProblem(
  doc: AssemblyDoc,
  source: SourceDef,
  saved: readonly string[],
  now: readonly string[],
  importWarnings: readonly string[],
): string | null {
  let k = 0;
  while (k < saved.length && k < now.length && saved[k] === now[k]) k++;
  if (k === saved.length && k === now.length) return null;
  const counts = saved.length === now.length
    ? `${saved.length === 1 ? '1 body' : `${saved.length} bodies`} then and now, but not the same ones`
    : `${saved.length === 1 ? '1 body' : `${saved.length} bodies`} when saved, ${now.length} now`;
  // The part bound to the lowest changed body index (parts: null binds every body, in order).
  let part: { id: string; body: number } | null = null;
  if (doc.parts === null) {
    part = k < saved.length ? { id: '', body: k } : null;
  } else {
    for (const p of doc.parts) {
      if (p.source !== source.id || p.body < k || p.body >= Math.max(saved.length, now.length)) continue;
      if (part === null || p.body < part.body) part = { id: p.id, body: p.body };
    }
  }
  let what: string;
  if (part === null) {
    what = `no part uses the bodies from index ${k} on, but the file has changed`;
  } else {
    const who = part.id === '' ? `the part of body ${part.body}` : `part '${part.id}' is bound to body ${part.body}`;
    const then = part.body < saved.length ? `saved as ${quoteName(saved[part.body])}` : 'which the file did not have when saved';
    const nowText = part.body < now.length ? `the file now gives ${quoteName(now[part.body])} there` : `the file now has no body ${part.body}`;
    what = `${who}, ${then}, but ${nowText}`;
  }
  let said = importWarnings.join('; ');
  if (said.length > 400) said = `${said.slice(0, 399)}…`;
  return `${describeSource(source)} no longer gives the bodies this assembly was saved with (${counts}): ${what}` +
    (said !== '' ? ` (the import said: ${said})` : '') +
    '. Parts refer to bodies by index, so the assembly is not opened: fix the file, or remove the source\'s "bodyNames" ' +
    'to bind the parts to the bodies the file gives now';
}

/**
 * Parses an assembly's text and resolves it: the whole of opening a saved assembly, given a way
 * to read its sources. Throws AssemblyError (or ImportError 'aborted').
 */
export async function resolveAssemblyText(
  text: string,
  fileName: string,
  loader: SourceLoader,
  importer: ImportFunction,
  options: Omit<ResolveOptions, 'fileName'> = {},
): Promise<ResolvedAssembly> {
  const doc = parseAssembly(text, fileName);
  return resolveAssembly(doc, loader, importer, { ...options, fileName });
}
