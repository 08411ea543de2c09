/**
 * Types for occt-import-js 0.0.23, which ships none: the Emscripten factory, the three readers and
 * the result they return (as the package's README and dist/occt-import-js.js describe them). Only
 * what the project uses is declared.
 *
 * Every array in a result is a plain JS array of numbers built element by element by the WASM
 * side; the importer checks lengths, ranges and finiteness itself rather than trusting these types.
 */
declare module 'occt-import-js' {
  /** r, g, b, each 0..1. */
  export type OcctColor = [number, number, number];

  /** Triangulation parameters. The project always passes null (the defaults), as the truth does. */
  export interface OcctParams {
    linearUnit?: 'millimeter' | 'centimeter' | 'meter' | 'inch' | 'foot';
    linearDeflectionType?: 'bounding_box_ratio' | 'absolute_value';
    linearDeflection?: number;
    angularDeflection?: number;
  }

  /** One B-rep face: its triangles are first..last (inclusive; last = first - 1 when it has none). */
  export interface OcctBrepFace {
    first: number;
    last: number;
    color: OcctColor | null;
  }

  /** One solid (or set of free faces) of the file, placed in world coordinates. */
  export interface OcctMesh {
    name: string;
    color?: OcctColor;
    attributes: {
      /** x y z per vertex; vertices are repeated for every B-rep face they belong to. */
      position: { array: number[] };
      /** One unit normal per vertex; missing when a face had no normals. */
      normal?: { array: number[] };
    };
    /** Three vertex indices per triangle. */
    index: { array: number[] };
    brep_faces: OcctBrepFace[];
  }

  export interface OcctNode {
    name: string;
    /** Indices into OcctResult.meshes. */
    meshes: number[];
    children: OcctNode[];
  }

  /** On failure only `{ success: false }`. */
  export interface OcctResult {
    success: boolean;
    root?: OcctNode;
    meshes?: OcctMesh[];
  }

  /** The readers of the initialised module (synchronous). */
  export interface OcctReader {
    ReadStepFile(content: Uint8Array, params: OcctParams | null): OcctResult;
    ReadIgesFile(content: Uint8Array, params: OcctParams | null): OcctResult;
    ReadBrepFile(content: Uint8Array, params: OcctParams | null): OcctResult;
  }

  /** Emscripten module settings the hosts pass to the factory. */
  export interface OcctFactoryOptions {
    /** Receives OpenCascade's standard output, one line per call (else console.log). */
    print?: (text: string) => void;
    /** Receives OpenCascade's standard error, one line per call (else console.error). */
    printErr?: (text: string) => void;
    /** Where the .wasm file is, given its name and the script's directory. */
    locateFile?: (path: string, scriptDirectory: string) => string;
    /** The .wasm bytes, instead of loading them. */
    wasmBinary?: ArrayBuffer | Uint8Array;
  }

  /** The package's export: creates and initialises one module instance. */
  export type OcctFactory = (options?: OcctFactoryOptions) => Promise<OcctReader>;

  const occtimportjs: OcctFactory;
  export default occtimportjs;
}
