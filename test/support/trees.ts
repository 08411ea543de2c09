// Tree helpers shared by the kernel's tests.
import type { ObbTree } from '../../src-core/obbtree/layout.js';

/** The tree with its arrays in ordinary buffers (as made where there is no kernel): copied in on its first query. */
export const copiedTree = (t: ObbTree): ObbTree => ({
  ...t,
  boxes: Float64Array.from(t.boxes),
  nodes: Int32Array.from(t.nodes),
  triVerts: Uint32Array.from(t.triVerts),
  triOrder: Uint32Array.from(t.triOrder),
  positions: Float64Array.from(t.positions),
});
