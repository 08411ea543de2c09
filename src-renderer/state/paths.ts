/**
 * File names the window proposes and shows: where Save as suggests writing an assembly, and the
 * name of the file a document is in.
 */

const ASSEMBLY_EXT = '.assembly.json';

/** The last segment of a path (either separator). */
export function fileNameOf(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** The path without its last segment, with its separator ('' for a bare name). */
function folderOf(path: string): string {
  const name = fileNameOf(path);
  return path.slice(0, path.length - name.length);
}

/** Where an assembly of the document goes by default: next to its file, as an assembly. */
export function assemblyPathFor(path: string | null, name: string): string {
  if (path === null) return `${name.replace(/\.[^.]*$/, '') || 'assembly'}${ASSEMBLY_EXT}`;
  if (path.endsWith(ASSEMBLY_EXT)) return path;
  return `${path.replace(/\.[^./\\]*$/, '')}${ASSEMBLY_EXT}`;
}

/**
 * What Save as proposes: never the document's own file — for a saved assembly, "<stem> copy"
 * (then "copy 2", … past the names `taken`) in its folder; for a CAD or STL file, an assembly of
 * its stem next to it; for a new document, one named after it.
 */
export function saveAsPathFor(path: string | null, name: string, taken: (p: string) => boolean = () => false): string {
  if (path === null || !path.endsWith(ASSEMBLY_EXT)) return assemblyPathFor(path, name);
  const stem = fileNameOf(path).slice(0, -ASSEMBLY_EXT.length);
  const folder = folderOf(path);
  for (let i = 1; ; i++) {
    const candidate = `${folder}${stem} copy${i === 1 ? '' : ` ${i}`}${ASSEMBLY_EXT}`;
    if (candidate !== path && !taken(candidate)) return candidate;
  }
}

/** How the status bar names a document: its file's name (or its own name before it has a file), with the name and path as tooltip. */
export function documentLabel(doc: { name: string; path: string | null }): { text: string; title: string } {
  if (doc.path === null) return { text: doc.name, title: `${doc.name} (not saved yet)` };
  const file = fileNameOf(doc.path);
  return { text: file, title: doc.name && doc.name !== file ? `${doc.name}\n${doc.path}` : doc.path };
}
