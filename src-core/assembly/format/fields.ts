/** The field lists, file name ending and source units of the saved-assembly format (docs/formats.md). */
import type { LengthUnit } from '../../io/types.js';

/** The file name ending of a saved assembly. */
export const ASSEMBLY_EXTENSION = '.assembly.json';

/** The units a source may declare (what an STL's numbers mean). */
export const SOURCE_UNITS: readonly LengthUnit[] = ['mm', 'cm', 'm', 'in'];

export const TOP_FIELDS = ['format', 'version', 'name', 'units', 'sources', 'parts', 'settings', 'ignore'] as const;
export const SOURCE_FIELDS = ['id', 'path', 'units', 'bodyNames'] as const;
export const PART_FIELDS = ['id', 'name', 'source', 'body', 'transform', 'visible', 'color', 'path'] as const;
export const SETTINGS_FIELDS = ['touchToleranceMm', 'clearanceMm', 'contactIsInterference'] as const;
export const IGNORE_FIELDS = ['a', 'b', 'reason'] as const;

/** T with its fields writable, for building a document member by member. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
