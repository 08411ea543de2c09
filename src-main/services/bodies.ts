/**
 * The body pipeline: a resolved assembly's bodies (or a file's, imported into a document) made
 * ready to check — for each distinct body (`bodyKey(source, body)`, however many parts place it)
 * its mesh, validated here once, its OBB tree, whether it is closed, and its chordal error. The
 * command line, batch checks (./checkService.ts) and the app (./host/documentStore.ts) all build
 * bodies here, with the same messages.
 */
import { bodyKey } from '../../src-core/assembly/bodyKey.js';
import type { ResolvedAssembly, SourcePlacement } from '../../src-core/assembly/resolve.js';
import { createMesh, MeshError, type TriangleMesh } from '../../src-core/geometry/mesh.js';
import { edgeReport } from '../../src-core/geometry/meshProps.js';
import type { FaceSurfaces } from '../../src-core/geometry/surfaces.js';
import type { ImportedBody } from '../../src-core/io/types.js';
import { buildObbTree } from '../../src-core/obbtree/build.js';
import type { ObbTree } from '../../src-core/obbtree/layout.js';

/** Builds trees for meshes (by key); in-process, or through the process pool (./treeBuilder.ts). */
export type TreeBuilder = (
  meshes: readonly { readonly key: string; readonly mesh: TriangleMesh }[],
  options: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal },
) => Promise<Map<string, ObbTree>>;

function abortError(): Error {
  const e = new Error('the check was cancelled');
  e.name = 'AbortError';
  return e;
}

/** Builds every tree in this process (small inputs, tests). */
export const buildTreesInProcess: TreeBuilder = async (meshes, options) => {
  const out = new Map<string, ObbTree>();
  const total = meshes.reduce((s, m) => s + m.mesh.triangleCount, 0);
  let done = 0;
  for (const { key, mesh } of meshes) {
    if (options.signal?.aborted) throw abortError();
    out.set(key, buildObbTree(mesh));
    done += mesh.triangleCount;
    options.onProgress?.(done, total);
  }
  return out;
};

/** A part's body that cannot be checked, naming the part and its source. */
export class PartError extends Error {
  override readonly name = 'PartError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A body placed by a part: which part (for messages), its source and index, the imported body. */
export interface BodySource {
  readonly partId: string;
  readonly sourceId: string;
  readonly bodyIndex: number;
  readonly body: ImportedBody;
}

/** A distinct body ready to check. */
export interface Body {
  /** bodyKey(sourceId, bodyIndex). */
  readonly key: string;
  readonly body: ImportedBody;
  /** The body's triangles, validated. */
  readonly mesh: TriangleMesh;
  readonly tree: ObbTree;
  /** A closed surface (volumes and containment are available). */
  readonly closed: boolean;
  /** Per triangle, its largest distance from the exact surface (CAD); null for meshes that are the geometry (STL). */
  readonly chordErrorMm: Float32Array | null;
  /** Per triangle, on which side the exact face lies (CAD), or null. */
  readonly chordSide: Int8Array | null;
  /** The B-rep faces as triangle ranges, and their recovered exact surfaces (CAD), or null. */
  readonly faceRanges: Uint32Array | null;
  readonly surfaces: FaceSurfaces | null;
}

/** The bodies the parts of a resolved assembly place. */
export function bodySourcesOf(assembly: ResolvedAssembly): BodySource[] {
  return assembly.parts.map((p) => ({ partId: p.id, sourceId: p.sourceId, bodyIndex: p.bodyIndex, body: p.body }));
}

/**
 * The mesh of each distinct body, validated once. Throws PartError naming the file, the first part
 * placing it, its source and body.
 */
export function meshesOf(items: readonly BodySource[], fileName: string, early?: EarlyTrees): BodyMeshes {
  const meshes = new Map<string, { mesh: TriangleMesh; body: ImportedBody }>();
  for (const it of items) {
    const key = bodyKey(it.sourceId, it.bodyIndex);
    if (meshes.has(key)) continue;
    const known = early?.get(key);
    if (known !== undefined && known.body === it.body) {
      meshes.set(key, { mesh: known.mesh, body: it.body });
      continue;
    }
    try {
      meshes.set(key, { mesh: createMesh(it.body.positions, it.body.indices), body: it.body });
    } catch (e) {
      if (e instanceof MeshError) {
        throw new PartError(`${fileName}: part '${it.partId}' (source '${it.sourceId}', body ${it.bodyIndex}): ${e.message}`, { cause: e });
      }
      throw e;
    }
  }
  return meshes;
}

export interface BuildBodiesOptions {
  readonly buildTrees: TreeBuilder;
  readonly signal?: AbortSignal;
  /** Triangles of the trees built so far, of the total. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Trees started before (EarlyTrees): used for the meshes they were started on, not built again. */
  readonly early?: EarlyTrees;
}

/**
 * Trees started on a saved assembly's bodies while its later sources were still being read
 * (`startEarlyTrees`, called from resolveAssembly's onSource), by bodyKey: the mesh each was
 * built on, and the tree to come.
 */
export class EarlyTrees {
  private readonly started = new Map<string, { readonly body: ImportedBody; readonly mesh: TriangleMesh; readonly tree: Promise<ObbTree | undefined> }>();
  private readonly controller = new AbortController();
  private readonly batches: Promise<unknown>[] = [];

  /**
   * `onMesh`: each valid mesh as it is made, with the placements of the parts that place it (the
   * command line's volume prefetch, ./volumePrefetch.ts).
   */
  constructor(
    private readonly buildTrees: TreeBuilder,
    signal?: AbortSignal,
    private readonly onMesh?: (mesh: TriangleMesh, transforms: readonly (readonly number[] | null)[]) => void,
  ) {
    signal?.addEventListener('abort', () => this.controller.abort(), { once: true });
  }

  /**
   * Starts the trees of a source's placed bodies (those whose triangles are valid; meshesOf
   * reports the others); `placements`: the parts' bodies and transforms, for `onMesh`.
   */
  start(sourceId: string, bodies: readonly ImportedBody[], placed: readonly number[], placements: readonly SourcePlacement[] = []): void {
    const batch: { key: string; mesh: TriangleMesh; body: ImportedBody }[] = [];
    for (const i of placed) {
      const body = bodies[i];
      if (body === undefined) continue;
      try {
        batch.push({ key: bodyKey(sourceId, i), mesh: createMesh(body.positions, body.indices), body });
      } catch {
        continue;
      }
      if (this.onMesh) this.onMesh(batch[batch.length - 1]!.mesh, placements.filter((p) => p.body === i).map((p) => p.transform));
    }
    if (batch.length === 0) return;
    const built = this.buildTrees(batch.map(({ key, mesh }) => ({ key, mesh })), { signal: this.controller.signal });
    built.catch(() => undefined); // awaited by buildBodies, or dropped by stop()
    this.batches.push(built);
    for (const { key, mesh, body } of batch) {
      const tree = built.then((trees) => trees.get(key));
      tree.catch(() => undefined); // its failure is buildBodies's, when it gets that far
      this.started.set(key, { body, mesh, tree });
    }
  }

  get(key: string): { readonly body: ImportedBody; readonly mesh: TriangleMesh; readonly tree: Promise<ObbTree | undefined> } | undefined {
    return this.started.get(key);
  }

  /** The document failed to open: builds still running are stopped, and waited for. */
  async stop(): Promise<void> {
    this.controller.abort();
    await Promise.allSettled(this.batches);
  }
}

/** Validated meshes of distinct bodies, by bodyKey (meshesOf). */
export type BodyMeshes = ReadonlyMap<string, { readonly mesh: TriangleMesh; readonly body: ImportedBody }>;

/**
 * The bodies of validated meshes (meshesOf), by bodyKey: trees built by `buildTrees`, closedness
 * measured.
 */
export async function buildBodies(meshes: BodyMeshes, options: BuildBodiesOptions): Promise<Map<string, Body>> {
  const early = options.early;
  const startedOn = (key: string, mesh: TriangleMesh): boolean => early?.get(key)?.mesh === mesh;
  const rest = [...meshes].filter(([key, m]) => !startedOn(key, m.mesh)).map(([key, m]) => ({ key, mesh: m.mesh }));
  const building = options.buildTrees(rest, {
    ...(options.signal ? { signal: options.signal } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  }).then(async (trees) => {
    for (const [key, m] of meshes) {
      if (!startedOn(key, m.mesh)) continue;
      const tree = await early!.get(key)!.tree;
      if (tree === undefined) throw new Error(`the tree of body '${key}' was not built`);
      trees.set(key, tree);
    }
    return trees;
  });
  // While the trees build (in child processes, when the builder has them), which bodies are
  // closed: the check needs it, and it costs a pass over every edge (remembered per mesh).
  try {
    for (const m of meshes.values()) edgeReport(m.mesh);
  } catch (e) {
    await building.catch(() => undefined);
    throw e;
  }
  const trees = await building;
  const out = new Map<string, Body>();
  for (const [key, m] of meshes) {
    out.set(key, {
      key, body: m.body, mesh: m.mesh, tree: trees.get(key) as ObbTree, closed: edgeReport(m.mesh).closed,
      chordErrorMm: m.body.chordErrorMm ?? null, chordSide: m.body.chordSide ?? null,
      faceRanges: m.body.faceRanges, surfaces: m.body.surfaces ?? null,
    });
  }
  return out;
}
