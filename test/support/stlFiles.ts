/**
 * Binary STL files of generated meshes, for tests that need real files on disk (saved assemblies,
 * the command line, reports).
 */
import type { MeshData } from './meshArbitraries.js';

/** The mesh as a binary STL (float32 coordinates, zero normals, the header naming `solid`). */
export function binaryStl(mesh: MeshData, solid = 'generated'): Uint8Array {
  const count = mesh.indices.length / 3;
  const bytes = new Uint8Array(84 + 50 * count);
  const view = new DataView(bytes.buffer);
  // The header must not start with "solid": readers take such files for ASCII STL.
  const header = new TextEncoder().encode(`binary STL: ${solid}`.slice(0, 80));
  bytes.set(header, 0);
  view.setUint32(80, count, true);
  for (let t = 0; t < count; t++) {
    const off = 84 + 50 * t;
    for (let k = 0; k < 3; k++) {
      const v = mesh.indices[3 * t + k]!;
      for (let c = 0; c < 3; c++) view.setFloat32(off + 12 + 12 * k + 4 * c, mesh.positions[3 * v + c]!, true);
    }
  }
  return bytes;
}
