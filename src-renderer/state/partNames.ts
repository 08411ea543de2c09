/**
 * Names shown for parts: the one display name every report and the command line use too
 * (src-core/assembly/displayName.ts) — the sub-assemblies above the part in its file's product
 * tree, then its name, same-named siblings numbered from 1 (`as1 / rod-assembly / nut<2>`),
 * placeholders replaced by the part's place in its file (`Part 3 (as1-oc-214.stp body 3)`).
 * Names are never identities (ids are).
 */
import type { PartInfo } from '../../src-main/contract/host';
import {
  displayNames as coreDisplayNames, fallbackName, fileNameOf, labelPaths as coreLabelPaths, LABEL_SEPARATOR,
} from '../../src-core/assembly/displayName';

export { fallbackName, fileNameOf, LABEL_SEPARATOR };

type NamedPart = Pick<PartInfo, 'id' | 'name' | 'path' | 'sourcePath' | 'body'>;

/** Display labels by part id, unique within the document. */
export function displayNames(parts: readonly NamedPart[]): Map<string, string> {
  return coreDisplayNames(parts);
}

/** Each part's label as its levels (sub-assemblies, then its own numbered name), by part id. */
export function labelPaths(parts: readonly NamedPart[]): Map<string, string[]> {
  return coreLabelPaths(parts);
}

/** Whether a part matches the part tree's search text (label, id, name, file; case-insensitive). */
export function partMatches(part: Omit<NamedPart, 'path' | 'body'>, label: string, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  return (
    label.toLowerCase().includes(q) ||
    part.id.toLowerCase().includes(q) ||
    part.name.toLowerCase().includes(q) ||
    fileNameOf(part.sourcePath).toLowerCase().includes(q)
  );
}
