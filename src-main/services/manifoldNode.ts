/**
 * manifold-3d for Node: initialised once per process on first use. A dynamic import keeps the
 * module (and its wasm) out of start-up when no volume is needed, and works from the CommonJS
 * bundles (manifold-3d is an ES module).
 */
import type { ManifoldToplevel } from 'manifold-3d';

let pending: Promise<ManifoldToplevel> | null = null;

export function loadManifold(): Promise<ManifoldToplevel> {
  pending ??= import('manifold-3d').then(async (mod) => {
    const wasm = await mod.default();
    wasm.setup();
    return wasm;
  });
  return pending;
}
