/**
 * Reading, validating and writing saved assemblies (`*.assembly.json`, format v1 of
 * docs/formats.md).
 *
 * Reading is a small JSON scanner of its own rather than JSON.parse, so that every value knows the
 * line it starts on: a validation error names the file, the field (`parts[3].transform`) and the
 * line, e.g. `as1.assembly.json:42: parts[3].transform: part 'bolt-5': …`.
 *
 * Fields this version does not interpret are kept (top level in `doc.extra`, inside settings,
 * sources, parts and ignore entries in their `extra`) and written back after the known fields, so
 * a file survives being opened and saved by an older version.
 *
 * This file is the format's public face; the work is in ./format/: json.ts (the line-tracking
 * JSON reader), validate.ts (parseAssembly: the validation), serialize.ts (serializeAssembly),
 * fromBodies.ts (bare CAD/STL files as assemblies, and the ids the checker assigns) and
 * fields.ts (the field lists, the file name ending and the source units).
 *
 * Pure TypeScript: no Node APIs.
 */
export { ASSEMBLY_EXTENSION, SOURCE_UNITS } from './format/fields.js';
export { fieldLine, idProblem, parseAssembly, transformProblem, withBodyNames } from './format/validate.js';
export { serializeAssembly } from './format/serialize.js';
export { assemblyFromBodies, assignPartIds, baseName, slugify, type FromBodiesOptions } from './format/fromBodies.js';
