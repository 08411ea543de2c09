/**
 * Where the services' code runs from, to find the entries of child processes and worker threads
 * beside it: the bundle when bundled (CommonJS), else this TypeScript source (whose folder is
 * src-main/services, like the callers').
 */
import { fileURLToPath } from 'node:url';

export function servicesModuleFile(): string {
  // CommonJS (the esbuild bundles) and vitest define __filename; ES modules under tsx do not, and
  // `import.meta` is not used because esbuild empties it in CommonJS output. The raw call site of
  // this function names the module instead (raw: not source-mapped).
  if (typeof __filename === 'string') return __filename;
  const saved = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = (_error, frames) => frames;
    const frames = new Error().stack as unknown as NodeJS.CallSite[];
    const name = frames[0]?.getFileName();
    if (!name) throw new Error('cannot tell where the services module lives');
    return name.startsWith('file:') ? fileURLToPath(name) : name;
  } finally {
    Error.prepareStackTrace = saved;
  }
}
