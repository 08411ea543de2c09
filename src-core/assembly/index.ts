/** Saved assemblies: the model, reading and writing the file format, and loading the bodies. */
export {
  ASSEMBLY_FORMAT, ASSEMBLY_VERSION, DEFAULT_SETTINGS, AssemblyError,
  type AssemblyDoc, type AssemblySettings, type SourceDef, type PartDef, type IgnoreRule,
} from './model.js';
export {
  parseAssembly, serializeAssembly, assemblyFromBodies, assignPartIds, slugify, baseName, fieldLine,
  transformProblem, ASSEMBLY_EXTENSION, SOURCE_UNITS, type FromBodiesOptions,
} from './format.js';
export {
  resolveAssembly, resolveAssemblyText, colorToHex, bodyPath,
  type SourceLoader, type ImportFunction, type ResolveOptions, type ResolveProgress, type ResolvedPart,
  type ResolvedAssembly,
} from './resolve.js';
export { bodyKey } from './bodyKey.js';
export {
  displayNames, labelPaths, fallbackName, fileNameOf, isPlaceholderName, LABEL_SEPARATOR, type NamedPart,
} from './displayName.js';
