/**
 * The body pipeline: a resolved assembly's bodies (or a file's, imported into a document) made
 * ready to check — for each distinct body (`bodyKey(source, body)`, however many parts place it)
 * its mesh, validated here once, its OBB tree, whether it is closed, and its chordal error. The
 * command line, batch checks (./checkService.ts) and the app (./host/documentStore.ts) all build
 * bodies here, with the same messages.
 */
import { bodyKey } from '../../src-core/assembly/bodyKey.js';
import type { ResolvedAssembly } from '../../src-core/assembly/resolve.js';
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
export function meshesOf(items: readonly BodySource[], fileName: string): BodyMeshes {
  const meshes = new Map<string, { mesh: TriangleMesh; body: ImportedBody }>();
  for (const it of items) {
    const key = bodyKey(it.sourceId, it.bodyIndex);
    if (meshes.has(key)) continue;
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
}

/** Validated meshes of distinct bodies, by bodyKey (meshesOf). */
export type BodyMeshes = ReadonlyMap<string, { readonly mesh: TriangleMesh; readonly body: ImportedBody }>;

/**
 * The bodies of validated meshes (meshesOf), by bodyKey: trees built by `buildTrees`, closedness
 * measured.
 */
export async function buildBodies(meshes: BodyMeshes, options: BuildBodiesOptions): Promise<Map<string, Body>> {
  const trees = await options.buildTrees(
    [...meshes].map(([key, m]) => ({ key, mesh: m.mesh })),
    { ...(options.signal ? { signal: options.signal } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) },
  );
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
