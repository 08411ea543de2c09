/** Bare CAD/STL files as assemblies (assemblyFromBodies), and the ids the checker assigns. */
import type { LengthUnit } from '../../io/types.js';
import { MAX_ID_LENGTH, boundedName } from '../limits.js';
import { ASSEMBLY_FORMAT, ASSEMBLY_VERSION, DEFAULT_SETTINGS } from '../model.js';
import type { AssemblyDoc, PartDef, SourceDef } from '../model.js';
import { ASSEMBLY_EXTENSION } from './fields.js';
import type { Mutable } from './fields.js';

/**
 * A name as an id fragment: lower case, every run of characters other than letters and digits
 * turned into one '-', none at either end ('' when nothing is left).
 */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Ids for bodies that become parts without the file naming them: `<slug of name>-<index>`
 * (`nut-0`, `l-bracket-9`), `body-<index>` when the name gives no slug, each prefixed with
 * `<prefix>-` when a prefix is given. An id already in `taken` (or assigned earlier) gets `_2`,
 * `_3`, … appended. Adds the ids to `taken`.
 */
export function assignPartIds(names: readonly string[], prefix: string | null = null, taken: Set<string> = new Set()): string[] {
  return names.map((name, index) => {
    const slug = slugify(name);
    const base = boundedId(`${prefix !== null && prefix !== '' ? `${prefix}-` : ''}${slug === '' ? 'body' : slug}`, `-${index}`);
    let id = base;
    for (let k = 2; taken.has(id); k++) id = `${base}_${k}`;
    taken.add(id);
    return id;
  });
}

/**
 * `stem + tail`, the stem shortened so that the id, with a `_k` suffix of up to 8 characters,
 * stays within MAX_ID_LENGTH (a long body name must not make an id the host cannot send).
 */
function boundedId(stem: string, tail: string): string {
  const room = MAX_ID_LENGTH - 8 - tail.length;
  if (stem.length <= room) return stem + tail;
  let cut = stem.slice(0, room);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1); // not half a character
  return cut.replace(/-+$/, '') + tail;
}

/** The last segment of a path, by either separator. */
export function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** A file name without its extension (`.assembly.json` counts as one). */
function stem(fileName: string): string {
  const base = baseName(fileName);
  if (base.toLowerCase().endsWith(ASSEMBLY_EXTENSION)) return base.slice(0, -ASSEMBLY_EXTENSION.length);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

export interface FromBodiesOptions {
  /** The source's id; default the slug of the file name without extension ('model' if empty). */
  readonly sourceId?: string;
  /** What an STL's numbers mean (default: not stated, i.e. mm). */
  readonly units?: LengthUnit;
}

/**
 * A bare CAD/STL file checked as an assembly: one source (the file, by its base name: the
 * assembly is taken to sit in the file's folder), every body a part at its own placement (no
 * transform) with the ids the checker assigns (assignPartIds) and the body's name, default
 * settings.
 */
export function assemblyFromBodies(
  fileName: string,
  bodies: readonly { readonly name: string }[],
  options: FromBodiesOptions = {},
): AssemblyDoc {
  const sourceId = options.sourceId ?? boundedId(slugify(stem(fileName)) || 'model', '');
  const source: Mutable<SourceDef> = { id: sourceId, path: baseName(fileName) };
  if (options.units !== undefined) source.units = options.units;
  const ids = assignPartIds(bodies.map((b) => b.name));
  const parts = bodies.map((b, index): PartDef => (b.name !== '' ? { id: ids[index], name: boundedName(b.name), source: sourceId, body: index } : { id: ids[index], source: sourceId, body: index }));
  return {
    format: ASSEMBLY_FORMAT,
    version: ASSEMBLY_VERSION,
    name: baseName(fileName),
    units: 'mm',
    sources: [source],
    parts,
    settings: DEFAULT_SETTINGS,
    ignore: [],
    extra: {},
  };
}
