/**
 * The part list as the file's assembly tree: sub-assembly rows made from the parts' display
 * levels (src-core/assembly/displayName.ts labelPaths: the sub-assemblies above each part, then its
 * own numbered name), each followed by what it holds, in the order the document first lists them.
 * Pure; the part tree (ui/PartTree.tsx) draws the rows.
 */

/** A sub-assembly row. */
export interface GroupRow {
  readonly kind: 'group';
  /** Its levels joined by U+0000: unique in the document. */
  readonly key: string;
  /** Its own name (the last of its levels). */
  readonly name: string;
  /** Levels above it (0: a top-level sub-assembly). */
  readonly depth: number;
  /** Every part it holds, at any depth, in document order. */
  readonly partIds: readonly string[];
  readonly collapsed: boolean;
}

/** A part row. */
export interface PartRowModel {
  readonly kind: 'part';
  readonly id: string;
  /** Its index in the document's part order. */
  readonly index: number;
  /** The whole display name. */
  readonly label: string;
  /** Its own name, the last level of the label. */
  readonly name: string;
  /** The levels above it joined with the label separator, followed by it ('' at the top). */
  readonly prefix: string;
  readonly depth: number;
}

export type TreeRow = GroupRow | PartRowModel;

interface Group {
  readonly key: string;
  readonly name: string;
  readonly depth: number;
  readonly partIds: string[];
  /** Groups and parts in first-appearance order. */
  readonly children: ({ group: Group } | { part: number })[];
}

export interface TreeInput {
  /** Part ids in document order. */
  readonly ids: readonly string[];
  /** Each part's levels (labelPaths). */
  readonly levels: ReadonlyMap<string, readonly string[]>;
  /** Group keys the user collapsed. */
  readonly collapsed: ReadonlySet<string>;
  /** Only these parts are listed (with the groups above them, expanded); null: every part. */
  readonly shown?: ReadonlySet<string> | null;
  /** Between the levels of a label. */
  readonly separator: string;
}

const SEP = '\u0000';

/** The rows of the tree (see the module comment). */
export function treeRows(input: TreeInput): TreeRow[] {
  const { ids, levels, collapsed, separator } = input;
  const shown = input.shown ?? null;
  const root: Group = { key: '', name: '', depth: -1, partIds: [], children: [] };
  const groups = new Map<string, Group>();
  ids.forEach((id, index) => {
    const l = levels.get(id) ?? [id];
    let parent = root;
    for (let d = 0; d < l.length - 1; d++) {
      const key = l.slice(0, d + 1).join(SEP);
      let g = groups.get(key);
      if (g === undefined) {
        g = { key, name: l[d], depth: d, partIds: [], children: [] };
        groups.set(key, g);
        parent.children.push({ group: g });
      }
      g.partIds.push(id);
      parent = g;
    }
    parent.children.push({ part: index });
  });
  const out: TreeRow[] = [];
  const walk = (g: Group): void => {
    for (const c of g.children) {
      if ('group' in c) {
        const sub = c.group;
        if (shown !== null && !sub.partIds.some((id) => shown.has(id))) continue;
        const isCollapsed = shown === null && collapsed.has(sub.key);
        out.push({ kind: 'group', key: sub.key, name: sub.name, depth: sub.depth, partIds: sub.partIds, collapsed: isCollapsed });
        if (!isCollapsed) walk(sub);
      } else {
        const id = ids[c.part];
        if (shown !== null && !shown.has(id)) continue;
        const l = levels.get(id) ?? [id];
        const prefix = l.length > 1 ? l.slice(0, -1).join(separator) + separator : '';
        out.push({ kind: 'part', id, index: c.part, label: l.join(separator), name: l[l.length - 1], prefix, depth: l.length - 1 });
      }
    }
  };
  walk(root);
  return out;
}

/** Whether a tree lists any sub-assembly (a flat list otherwise). */
export function hasGroups(rows: readonly TreeRow[]): boolean {
  return rows.some((r) => r.kind === 'group');
}
