/**
 * The saved-assembly model (`*.assembly.json`, format v1 of docs/formats.md): what an
 * engineer saves and what the batch checker reads. Pure data; reading, validating and writing are
 * in ./format.ts, loading the sources' bodies in ./resolve.ts.
 */
import type { LengthUnit } from '../io/types.js';

export const ASSEMBLY_FORMAT = 'interfere-assembly';
export const ASSEMBLY_VERSION = 1;

/** Check settings. `touchToleranceMm: null` means automatic (see check/tolerance.ts). */
export interface AssemblySettings {
  /** Surfaces closer than this, or overlapping by less, are contact rather than interference. */
  readonly touchToleranceMm: number | null;
  /** When > 0, pairs closer than this are clearance violations. */
  readonly clearanceMm: number;
  /** Report contacts as interferences ("treat coincidence as interference"). */
  readonly contactIsInterference: boolean;
  /** Fields of the file's `settings` object this version does not interpret; kept on saving. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

export const DEFAULT_SETTINGS: AssemblySettings = {
  touchToleranceMm: null,
  clearanceMm: 0,
  contactIsInterference: false,
};

export interface SourceDef {
  readonly id: string;
  /** Relative to the assembly file's folder (as written in the file). */
  readonly path: string;
  /** What an STL's numbers mean; CAD files carry their own units. */
  readonly units?: LengthUnit;
  /**
   * The names of the source's bodies in import order ('' for a body without one) when the
   * assembly was last opened or saved; its length is the body count. Parts bind to bodies by
   * index, so an assembly whose source now gives other bodies is refused (resolve.ts) instead of
   * binding its parts to the wrong ones. Absent in older files: nothing is verified, and opening
   * records it for the next save.
   */
  readonly bodyNames?: readonly string[];
  /** Fields of the entry this version does not interpret; kept on saving. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

export interface PartDef {
  readonly id: string;
  readonly name?: string;
  readonly source: string;
  /** Index of the body in the source, in import order (0 for STL). */
  readonly body: number;
  /** Row-major 4×4 rigid placement applied to the body's millimetre coordinates; absent: identity. */
  readonly transform?: readonly number[];
  readonly visible?: boolean;
  /** `#rrggbb`. */
  readonly color?: string;
  /**
   * The part's place in its source's product tree, from the root's children down to the body
   * (src-core/io/occt/tree.ts), e.g. `["as1", "rod-assembly", "nut"]`. Absent in older files: taken
   * from the source's import when the assembly is opened.
   */
  readonly path?: readonly string[];
  /** Fields of the entry this version does not interpret; kept on saving. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

export interface IgnoreRule {
  readonly a: string;
  readonly b: string;
  readonly reason?: string;
  /** Fields of the entry this version does not interpret; kept on saving. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

export interface AssemblyDoc {
  readonly format: typeof ASSEMBLY_FORMAT;
  readonly version: typeof ASSEMBLY_VERSION;
  readonly name: string;
  readonly units: 'mm';
  readonly sources: readonly SourceDef[];
  /** Absent in the file: every body of every source is a part, in source order, at identity. */
  readonly parts: readonly PartDef[] | null;
  readonly settings: AssemblySettings;
  readonly ignore: readonly IgnoreRule[];
  /**
   * Top-level fields this version does not interpret (readers ignore unknown fields, writers keep
   * them), e.g. `description`, a robot's `pose`, result statuses.
   */
  readonly extra: Readonly<Record<string, unknown>>;
}

/** A problem with a saved assembly, naming the file, and where known the line and the field. */
export class AssemblyError extends Error {
  override readonly name = 'AssemblyError';
  constructor(
    readonly fileName: string,
    /** The problem without the file name. */
    readonly problem: string,
    /** A path to the field at fault, e.g. `parts[3].transform`, or null. */
    readonly field: string | null = null,
    /** 1-based line of the field in the file, or null. */
    readonly line: number | null = null,
    /** `cause`: the error behind this one (a file system or import error). */
    options?: { cause?: unknown },
  ) {
    super(`${fileName}${line !== null ? `:${line}` : ''}: ${field ? `${field}: ` : ''}${problem}`, options);
  }
}
