/**
 * OpenCascade (occt-import-js) for Node: the OcctProvider the STEP, IGES and BREP importers of
 * src-core/io/occt.ts are given in the CLI, the Electron main side and the tests.
 *
 * - The package is loaded lazily (`import()`), the first time a CAD file is read, and stays
 *   external in our esbuild bundles (scripts/build.mjs): its JavaScript then finds the .wasm next to
 *   itself in node_modules/occt-import-js/dist. `wasmPath` overrides that (a packaged app that
 *   unpacks the .wasm elsewhere).
 * - OpenCascade writes its messages to stdout/stderr; `print`/`printErr` collect them instead (the
 *   last `maxOutputLines`), and `takeOutput` hands them to the importer for its error messages.
 * - One module per provider, initialised once and shared by every later call (concurrent first
 *   calls wait for the same initialisation). A failed initialisation is not kept, so the next call
 *   tries again; so is a module whose reader threw (an Emscripten abort leaves the instance
 *   unusable), so the next file gets a fresh one.
 */
import type { OcctFactory, OcctFactoryOptions, OcctReader, OcctResult } from 'occt-import-js';
import type { OcctModule } from '../../src-core/io/occt.js';

export interface NodeOcctOptions {
  /** Path of occt-import-js.wasm when it is not beside the package's JavaScript. */
  wasmPath?: string;
  /** Lines of OpenCascade output kept between two reads; older lines are dropped. Default 200. */
  maxOutputLines?: number;
  /** Loads the factory; default `import('occt-import-js')`. For tests and special hosts. */
  loadFactory?: () => Promise<OcctFactory>;
}

/** What a provider has done so far (for diagnostics and tests). */
export interface NodeOcctStats {
  /** Module instances created (1 in a healthy process). */
  initialisations: number;
  /** Milliseconds the last initialisation took (package load included), or null before the first. */
  lastInitMs: number | null;
}

/** An OcctProvider whose module is always in this thread. */
export type NodeOcctProvider = (() => Promise<OcctModule>) & { readonly stats: NodeOcctStats };

async function importFactory(): Promise<OcctFactory> {
  const mod: unknown = await import('occt-import-js');
  // Node's ESM loader, vitest and esbuild's CommonJS output all expose module.exports as `default`;
  // accept the bare function too.
  const candidate = typeof mod === 'function' ? mod : (mod as { default?: unknown }).default;
  const factory = typeof candidate === 'function' ? candidate : (candidate as { default?: unknown } | undefined)?.default;
  if (typeof factory !== 'function') throw new Error("the package 'occt-import-js' does not export its module factory");
  return factory as OcctFactory;
}

/** A memoised provider of its own (each provider has its own module instance). */
export function createNodeOcctProvider(options: NodeOcctOptions = {}): NodeOcctProvider {
  const maxLines = Math.max(1, options.maxOutputLines ?? 200);
  const load = options.loadFactory ?? importFactory;
  const stats: NodeOcctStats = { initialisations: 0, lastInitMs: null };
  let pending: Promise<OcctModule> | null = null;

  async function initialise(): Promise<OcctModule> {
    const started = performance.now();
    const factory = await load();
    const lines: string[] = [];
    const collect = (text: string): void => {
      lines.push(String(text));
      if (lines.length > maxLines) lines.splice(0, lines.length - maxLines);
    };
    const settings: OcctFactoryOptions = { print: collect, printErr: collect };
    const wasmPath = options.wasmPath;
    if (wasmPath !== undefined) settings.locateFile = (file) => (file.endsWith('.wasm') ? wasmPath : file);
    const reader: OcctReader = await factory(settings);
    stats.initialisations++;
    stats.lastInitMs = performance.now() - started;
    const self: OcctModule = {
      ReadStepFile: (content, params) => guarded(self, () => reader.ReadStepFile(content, params)),
      ReadIgesFile: (content, params) => guarded(self, () => reader.ReadIgesFile(content, params)),
      ReadBrepFile: (content, params) => guarded(self, () => reader.ReadBrepFile(content, params)),
      takeOutput: () => lines.splice(0),
    };
    return self;
  }

  let current: OcctModule | null = null;

  function guarded(owner: OcctModule, read: () => OcctResult): OcctResult {
    try {
      return read();
    } catch (err) {
      if (current === owner) {
        current = null;
        pending = null;
      }
      throw err;
    }
  }

  const provider = (): Promise<OcctModule> => {
    if (pending === null) {
      const attempt = initialise().then(
        (m) => {
          current = m;
          return m;
        },
        (err: unknown) => {
          if (pending === attempt) pending = null;
          throw err;
        },
      );
      pending = attempt;
    }
    return pending;
  };
  return Object.assign(provider, { stats });
}

/** The process-wide provider: one OpenCascade module per process. */
export const nodeOcctProvider: NodeOcctProvider = createNodeOcctProvider();

