/**
 * The host side of refinement (src-core/check/refine.ts): a document's CAD sources read again with
 * a finer linear deflection, their bodies meshed and given trees, all cached per source, body and
 * deflection for as long as the document is open (the CLI: for one check).
 *
 * A source is read again from its file. It must still yield the bodies it yielded when it was
 * opened (their number): a file changed since then is refused with a message naming it, and the
 * pairs on it stay undecided.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { bodyKey } from '../../src-core/assembly/bodyKey.js';
import type { ImportFunction } from '../../src-core/assembly/resolve.js';
import type { RefinedBody, Refiner } from '../../src-core/check/refine.js';
import { createMesh } from '../../src-core/geometry/mesh.js';
import type { ImportResult } from '../../src-core/io/types.js';
import type { TreeBuilder } from './bodies.js';

export interface RefinerSource {
  /** The file to read again (absolute). */
  readonly path: string;
  /** How many bodies it yielded when opened, when known (a different count refuses the file). */
  readonly bodies: number | null;
}

export interface HostRefinerOptions {
  readonly importer: ImportFunction;
  readonly buildTrees: TreeBuilder;
  /** The document's refinable sources by key (a source id; looked up on each read); others are refused. */
  readonly sources: ReadonlyMap<string, RefinerSource> | ((key: string) => RefinerSource | undefined);
  /** Reads a source's bytes (default: the file system). */
  readonly read?: (file: string) => Promise<Uint8Array>;
}

export interface HostRefiner extends Refiner {
  /** Cached reads (source@deflection) and bodies, for tests and diagnostics. */
  readonly stats: { reads: number; bodies: number; triangles: number };
  /** Forgets every cached read and body. */
  clear(): void;
}

/** Creates a refiner over a document's CAD sources. */
export function createHostRefiner(options: HostRefinerOptions): HostRefiner {
  const reads = new Map<string, Promise<ImportResult>>();
  const bodies = new Map<string, Promise<RefinedBody>>();
  const stats = { reads: 0, bodies: 0, triangles: 0 };
  const read = options.read ?? (async (file: string) => new Uint8Array(await readFile(file)));

  const readSource = (key: string, deflection: number, signal?: { readonly aborted: boolean }): Promise<ImportResult> => {
    const id = `${key}@${deflection}`;
    let p = reads.get(id);
    if (!p) {
      const source = typeof options.sources === 'function' ? options.sources(key) : options.sources.get(key);
      if (!source) return Promise.reject(new Error(`source '${key}' is not a CAD file that can be tessellated again`));
      p = (async () => {
        const bytes = await read(source.path);
        const result = await options.importer(bytes, source.path, {
          linearDeflectionMm: deflection,
          ...(signal ? { signal: signal as AbortSignal } : {}),
        });
        if (source.bodies !== null && result.bodies.length !== source.bodies) {
          throw new Error(`${path.basename(source.path)} now yields ${result.bodies.length} bodies, not the ${source.bodies} it had when opened: it changed since`);
        }
        stats.reads++;
        return result;
      })();
      reads.set(id, p);
      // A failed read is not kept: a later round may try again.
      p.catch(() => reads.delete(id));
    }
    return p;
  };

  return {
    stats,
    clear() {
      reads.clear();
      bodies.clear();
    },
    body(sourceKey, bodyIndex, deflectionMm, signal) {
      const id = `${bodyKey(sourceKey, bodyIndex)}@${deflectionMm}`;
      let p = bodies.get(id);
      if (!p) {
        p = (async (): Promise<RefinedBody> => {
          const result = await readSource(sourceKey, deflectionMm, signal);
          const body = result.bodies[bodyIndex];
          if (!body) throw new Error(`source '${sourceKey}' has no body ${bodyIndex}`);
          const mesh = createMesh(body.positions, body.indices);
          const trees = await options.buildTrees([{ key: id, mesh }], signal ? { signal: signal as AbortSignal } : {});
          const tree = trees.get(id);
          if (!tree) throw new Error(`no tree was built for body ${bodyIndex} of source '${sourceKey}'`);
          stats.bodies++;
          stats.triangles += mesh.triangleCount;
          return { mesh, tree, chordErrorMm: body.chordErrorMm ?? null, chordSide: body.chordSide ?? null, faceRanges: body.faceRanges, surfaces: body.surfaces ?? null, deflectionMm };
        })();
        bodies.set(id, p);
        p.catch(() => bodies.delete(id));
      }
      return p;
    },
  };
}
