/**
 * Names shown for parts. CAD files name their solids poorly — empty names, every solid called
 * "SOLID", or the same name for every instance — so names are never identities (ids are), and the
 * UI derives a readable label:
 *
 *  - a meaningful name used once is shown as is ("plate");
 *  - a meaningful name shared by several parts is numbered like CAD instances ("nut<1>", "nut<2>");
 *  - an empty or placeholder name, or one that every part shares, falls back to the part's place in
 *    its file: "Part 3 (as1-oc-214.stp body 3)".
 *
 * Numbers in labels count from 1.
 */
import type { PartInfo } from '../../src-main/contract/host';

type NamedPart = Pick<PartInfo, 'id' | 'name' | 'sourcePath' | 'body'>;

/** Names exporters give solids when they have none of their own. */
const PLACEHOLDER = /^(solid|body|shell|shape|compound|mesh|unnamed|no ?name|open cascade.*|part|component|default)[\s_#-]*\d*$/i;

/** The last path segment of a source path (either separator). */
export function fileNameOf(sourcePath: string): string {
  const parts = sourcePath.split(/[\\/]/);
  return parts[parts.length - 1] || sourcePath;
}

function isPlaceholder(name: string): boolean {
  return name.trim() === '' || PLACEHOLDER.test(name.trim());
}

/** The fallback label of the part at `index` in the document's part order. */
export function fallbackName(part: NamedPart, index: number): string {
  const file = fileNameOf(part.sourcePath);
  return `Part ${index + 1} (${file ? `${file} ` : ''}body ${part.body + 1})`;
}

/** Display labels by part id, unique within the document. */
export function displayNames(parts: readonly NamedPart[]): Map<string, string> {
  const out = new Map<string, string>();
  const trimmed = parts.map((p) => p.name.trim());
  const counts = new Map<string, number>();
  for (const n of trimmed) counts.set(n, (counts.get(n) ?? 0) + 1);
  const allAlike = parts.length > 1 && counts.size === 1;
  const seen = new Map<string, number>();
  parts.forEach((part, index) => {
    const name = trimmed[index];
    if (allAlike || isPlaceholder(name)) {
      out.set(part.id, fallbackName(part, index));
      return;
    }
    const count = counts.get(name) ?? 1;
    if (count === 1) {
      out.set(part.id, name);
      return;
    }
    const k = (seen.get(name) ?? 0) + 1;
    seen.set(name, k);
    out.set(part.id, `${name}<${k}>`);
  });
  return out;
}

/** Whether a part matches the part tree's search text (label, id, file name; case-insensitive). */
export function partMatches(part: NamedPart, label: string, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  return (
    label.toLowerCase().includes(q) ||
    part.id.toLowerCase().includes(q) ||
    part.name.toLowerCase().includes(q) ||
    fileNameOf(part.sourcePath).toLowerCase().includes(q)
  );
}
