/**
 * The one name a part is shown by — in the app's part list, every report (HTML, CSV, JSON, JUnit)
 * and the command line's output: its place in the file's product tree, then its own name,
 * `as1 / rod-assembly / nut<2>`.
 *
 * CAD files name their solids poorly — empty names, every solid called "SOLID", the same name for
 * every instance — so names are never identities (ids are), and the label is derived:
 *
 *  - the sub-assemblies above the part, from its `path` (all but its last entry: the importer has
 *    already numbered same-named sibling sub-assemblies, src-core/io/occt/tree.ts);
 *  - then the part's name; when that is empty or a placeholder ("SOLID", "Body 3"), the last entry
 *    of its path; when that is one too, or when every part of the document has the same name, its
 *    place in the document: `Part 3 (as1-oc-214.stp body 3)`;
 *  - parts with the same name under the same sub-assembly are numbered like CAD instances, from 1
 *    in document order: `nut<1>`, `nut<2>`.
 *
 * Labels are unique within the document. Numbers in labels count from 1.
 */

/** What a label is made of. */
export interface NamedPart {
  readonly id: string;
  readonly name: string;
  /** The part's place in its file's product tree (ResolvedPart.path); empty: none known. */
  readonly path: readonly string[];
  /** The source file (only its last segment is used). */
  readonly sourcePath: string;
  /** The body's index in its source. */
  readonly body: number;
}

/** Between the levels of a label. */
export const LABEL_SEPARATOR = ' / ';

/** Names exporters give solids when they have none of their own. */
const PLACEHOLDER = /^(solid|body|shell|shape|compound|mesh|unnamed|no ?name|open cascade.*|part|component|default)[\s_#-]*\d*$/i;

/** The last path segment of a source path (either separator). */
export function fileNameOf(sourcePath: string): string {
  const parts = sourcePath.split(/[\\/]/);
  return parts[parts.length - 1] || sourcePath;
}

/** Whether a name says nothing: empty, blank or an exporter's placeholder. */
export function isPlaceholderName(name: string): boolean {
  return name.trim() === '' || PLACEHOLDER.test(name.trim());
}

/** The fallback label of the part at `index` in the document's part order. */
export function fallbackName(part: Pick<NamedPart, 'sourcePath' | 'body'>, index: number): string {
  const file = fileNameOf(part.sourcePath);
  return `Part ${index + 1} (${file ? `${file} ` : ''}body ${part.body + 1})`;
}

/**
 * Each part's label as its levels, by part id: the sub-assemblies above it and, last, its own
 * numbered name (see the module comment). Join them with LABEL_SEPARATOR for the label.
 */
export function labelPaths(parts: readonly NamedPart[]): Map<string, string[]> {
  const trimmed = parts.map((p) => p.name.trim());
  const distinct = new Set(trimmed);
  const allAlike = parts.length > 1 && distinct.size === 1;
  // Own names, or null where the document position stands in.
  const leaves = parts.map((p, i): string | null => {
    if (!allAlike && !isPlaceholderName(trimmed[i])) return p.name;
    const last = p.path.length > 0 ? p.path[p.path.length - 1] : '';
    if (!isPlaceholderName(last) && (!allAlike || last.trim() !== trimmed[i])) return last;
    return null;
  });
  const prefixes = parts.map((p) => p.path.slice(0, -1));
  // Names that differ only in blanks at either end are the same name.
  const keyOf = (i: number): string => JSON.stringify([...prefixes[i].map((s) => s.trim()), leaves[i]?.trim() ?? null]);
  const counts = new Map<string, number>();
  parts.forEach((_, i) => {
    if (leaves[i] !== null) counts.set(keyOf(i), (counts.get(keyOf(i)) ?? 0) + 1);
  });
  const seen = new Map<string, number>();
  const out = new Map<string, string[]>();
  parts.forEach((part, i) => {
    const leaf = leaves[i];
    if (leaf === null) {
      out.set(part.id, [...prefixes[i], fallbackName(part, i)]);
      return;
    }
    const key = keyOf(i);
    if ((counts.get(key) ?? 1) === 1) {
      out.set(part.id, [...prefixes[i], leaf]);
      return;
    }
    const k = (seen.get(key) ?? 0) + 1;
    seen.set(key, k);
    out.set(part.id, [...prefixes[i], `${leaf}<${k}>`]);
  });
  return out;
}

/** Each part's label, `as1 / rod-assembly / nut<2>`, by part id (unique within the document). */
export function displayNames(parts: readonly NamedPart[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, levels] of labelPaths(parts)) out.set(id, levels.join(LABEL_SEPARATOR));
  return out;
}
