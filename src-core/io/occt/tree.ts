/**
 * Each body's place in the file's product tree: OpenCascade's `result.root` (nodes with a `name`,
 * the `meshes` they hold as indices into `result.meshes`, and `children`) turned into one path of
 * names per mesh, from the root's children down to the body (the root itself, which is unnamed, is
 * left out).
 *
 * - A node that holds one mesh of its own name (or of none) is the body itself: the path ends with
 *   the node's name (`["as1", "plate"]`). A node holding several meshes, or meshes of other names,
 *   is a sub-assembly of them: the path ends with the mesh's name
 *   (`["as1", "rod-assembly", "nut"]`).
 * - Sibling nodes of the same name are distinct instances that paths of names alone could not tell
 *   apart, so they are numbered in file order from 1: `l-bracket-assembly<1>`,
 *   `l-bracket-assembly<2>`. Bodies of the same name are left to the display name
 *   (src-core/assembly/displayName.ts), which numbers them the same way.
 * - A file without a product tree (a BREP, or a tree that does not cover a mesh): the mesh's name
 *   alone, or the file name's stem when the file has one body without a name.
 *
 * The tree comes from a WASM module: anything that is not the shape described is ignored (its
 * meshes then get the fallback path), never trusted.
 */
import { MAX_BODY_PATH_DEPTH, fileStem } from '../types.js';

interface RawNode {
  readonly name: string;
  readonly meshes: readonly number[];
  readonly children: readonly unknown[];
}

function asNode(x: unknown): RawNode | null {
  if (typeof x !== 'object' || x === null) return null;
  const n = x as { name?: unknown; meshes?: unknown; children?: unknown };
  return {
    name: typeof n.name === 'string' ? n.name : '',
    meshes: Array.isArray(n.meshes) ? n.meshes.filter((m): m is number => Number.isInteger(m)) : [],
    children: Array.isArray(n.children) ? n.children : [],
  };
}

/** Sibling names, same-named ones numbered `<k>` from 1 in order. */
function numberedNames(names: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  const seen = new Map<string, number>();
  return names.map((n) => {
    if ((counts.get(n) ?? 0) < 2) return n;
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return `${n}<${k}>`;
  });
}

/**
 * One path per mesh (same order as `meshNames`, occt's mesh names): see the module comment.
 * A mesh the tree lists twice keeps its first place.
 */
export function bodyPaths(root: unknown, meshNames: readonly string[], fileName: string): string[][] {
  const paths: (string[] | null)[] = meshNames.map(() => null);
  const place = (mesh: number, path: string[]): void => {
    if (mesh >= 0 && mesh < paths.length && paths[mesh] === null) paths[mesh] = path;
  };
  const walk = (node: RawNode, prefix: string[], isRoot: boolean): void => {
    const own = node.meshes.filter((m) => m >= 0 && m < meshNames.length);
    if (!isRoot && own.length === 1 && node.children.length === 0 && (meshNames[own[0]] === node.name || meshNames[own[0]] === '')) {
      place(own[0], prefix);
    } else {
      for (const m of own) place(m, [...prefix, meshNames[m]]);
    }
    if (prefix.length >= MAX_BODY_PATH_DEPTH) return;
    const children = node.children.map(asNode).filter((c): c is RawNode => c !== null);
    const names = numberedNames(children.map((c) => c.name));
    children.forEach((c, i) => walk(c, [...prefix, names[i]], false));
  };
  const top = asNode(root);
  if (top !== null) walk(top, [], true);
  const unnamedSingle = meshNames.length === 1 && meshNames[0] === '';
  return paths.map((p, m) => {
    if (p !== null && !(unnamedSingle && p.length === 1 && p[0] === '')) return p;
    return [unnamedSingle ? fileStem(fileName) : meshNames[m]];
  });
}
