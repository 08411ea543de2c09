/** The importers a Node host offers: STL, and STEP/IGES/BREP through OpenCascade's wasm. */
import type { ImportFunction } from '../../src-core/assembly/resolve.js';
import { createDefaultRegistry } from '../../src-core/io/registry.js';
import { nodeOcctProvider } from './occtNode.js';

/** Imports any supported file's bytes (format from content; the file name only breaks ties). */
export function createImporter(): ImportFunction {
  const registry = createDefaultRegistry({ occt: nodeOcctProvider });
  return (bytes, fileName, options) => registry.import(bytes, fileName, options);
}
