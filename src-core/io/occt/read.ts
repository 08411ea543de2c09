/**
 * The STEP, IGES and BREP importers: the checks before the read, the OpenCascade call (in this
 * thread, or remote where the host bounds it in time), what its result and messages say when it
 * fails, the checks after it, and the conversion of its meshes (convert.ts).
 */
import type { OcctReader, OcctResult } from 'occt-import-js';
import { checkFileSize, limitsOf } from '../limits.js';
import { missingBodyWarnings } from '../stepCensus.js';
import { ImportError, checkAborted, describeKnownFormat, isBlankFile, plural, tessellationParams } from '../types.js';
import type { ImportOptions, ImportResult, Importer, TessellationParams } from '../types.js';
import { checkBrepComplete, checkIgesComplete, checkIgesUnit, hasStepEnd, igesBodyEntities, igesMissingBodies, takeStepCensus, unitSuspicion } from './checks.js';
import { convertOcctMeshes } from './convert.js';
import { bodyPaths } from './tree.js';
import { occtErrorText } from './provider.js';
import type { OcctFormat, OcctModule, OcctProvider, OcctRemoteModule } from './provider.js';
import { STEP_END, sniffBrep, sniffIges, sniffStep, textAtBothEnds } from './sniff.js';

// ---------------------------------------------------------------------------------------------
// Formats

interface FormatSpec {
  format: OcctFormat;
  label: string;
  extensions: readonly string[];
  sniff(bytes: Uint8Array): number;
  read(module: OcctReader, bytes: Uint8Array, params: TessellationParams | null): OcctResult;
  /** What the file should begin with, for "not a … file" messages. */
  expected: string;
}

const FORMATS: Readonly<Record<OcctFormat, FormatSpec>> = {
  step: {
    format: 'step',
    label: 'STEP',
    extensions: ['step', 'stp', 'p21'],
    sniff: sniffStep,
    read: (m, b, p) => m.ReadStepFile(b, p),
    expected: "it does not begin with 'ISO-10303-21;'",
  },
  iges: {
    format: 'iges',
    label: 'IGES',
    extensions: ['iges', 'igs'],
    sniff: sniffIges,
    read: (m, b, p) => m.ReadIgesFile(b, p),
    expected: "its first line is not an IGES Start record ('S' in column 73, then a sequence number)",
  },
  brep: {
    format: 'brep',
    label: 'BREP',
    extensions: ['brep', 'brp'],
    sniff: sniffBrep,
    read: (m, b, p) => m.ReadBrepFile(b, p),
    expected: "it does not begin with 'DBRep_DrawableShape' or 'CASCADE Topology V1'",
  },
};

// ---------------------------------------------------------------------------------------------
// Importers

/** An importer for one of the three formats; all of them share the provider's module. */
export function createOcctImporter(format: OcctFormat, provider: OcctProvider): Importer {
  const spec = FORMATS[format];
  return {
    id: spec.format,
    label: spec.label,
    extensions: spec.extensions,
    sniff: spec.sniff,
    import: (bytes: Uint8Array, fileName: string, options?: ImportOptions) => importOcct(spec, provider, bytes, fileName, options ?? {}),
  };
}

/** The STEP, IGES and BREP importers, in that order. */
export function createOcctImporters(provider: OcctProvider): Importer[] {
  return (['step', 'iges', 'brep'] as const).map((f) => createOcctImporter(f, provider));
}

/** Up to a few lines of what OpenCascade printed, cleaned for a message ('' when nothing). */
function occtSays(lines: readonly string[]): string {
  const cleaned = lines
    .map((l) => l.replace(/^[\s*]+|[\s*]+$/g, '').replace(/\s+/g, ' '))
    .filter((l) => l !== '');
  if (cleaned.length === 0) return '';
  let text = cleaned.slice(0, 4).join('; ') + (cleaned.length > 4 ? '; …' : '');
  if (text.length > 400) text = text.slice(0, 399) + '…';
  return ` (OpenCascade: ${text})`;
}


async function importOcct(
  spec: FormatSpec,
  provider: OcctProvider,
  bytes: Uint8Array,
  fileName: string,
  options: ImportOptions,
): Promise<ImportResult> {
  const signal = options.signal;
  const limits = limitsOf(options);
  checkAborted(signal, fileName);
  let params: TessellationParams | null;
  try {
    params = tessellationParams(options.linearDeflectionMm);
  } catch (e) {
    throw new ImportError('unreadable-cad', fileName, (e as Error).message);
  }
  if (bytes.length === 0) throw new ImportError('empty-file', fileName, 'the file is empty (0 bytes)');
  checkFileSize(bytes.length, fileName, limits);
  if (isBlankFile(bytes)) {
    throw new ImportError('empty-file', fileName, `the file holds only whitespace (${plural(bytes.length, 'byte')})`);
  }
  const article = spec.format === 'iges' ? 'an' : 'a';
  if (spec.sniff(bytes) === 0) {
    const known = describeKnownFormat(bytes);
    const why = known !== null ? `it looks like ${known}` : spec.expected;
    throw new ImportError('unreadable-cad', fileName, `not ${article} ${spec.label} file: ${why}`);
  }
  // OpenCascade starts (a worker compiles its wasm) while the checks below read the file's text.
  provider.warm?.();
  const starting = provider().then((module) => ({ module }), (error: unknown) => ({ error }));
  const warnings: string[] = [];
  if (spec.format === 'iges') {
    checkIgesComplete(bytes, fileName, warnings);
    checkIgesUnit(bytes, warnings);
  }
  // The census reads the whole file's text: with OpenCascade in another thread it is taken while
  // OpenCascade reads (below), else while OpenCascade starts.
  const censusDuringRead = spec.format === 'step' && provider.remote === true;
  let census = spec.format === 'step' && !censusDuringRead ? takeStepCensus(bytes, fileName, warnings) : null;
  const igesEntities = spec.format === 'iges' ? igesBodyEntities(bytes) : null;
  if (spec.format === 'brep') checkBrepComplete(bytes, fileName);

  const started = await starting;
  if ('error' in started) {
    throw new ImportError(
      'unreadable-cad',
      fileName,
      `cannot read this ${spec.label} file: OpenCascade (occt-import-js) could not be started: ${occtErrorText(started.error)}`,
      { cause: started.error },
    );
  }
  const module: OcctModule | OcctRemoteModule = started.module;
  checkAborted(signal, fileName);
  options.onProgress?.(0, 1);
  let result: OcctResult;
  let output: readonly string[];
  if (isRemote(module)) {
    const reading = module.read(spec.format, bytes, { fileName, label: spec.label, limits, warnings, params, ...(signal ? { signal } : {}) });
    if (censusDuringRead) {
      try {
        census = takeStepCensus(bytes, fileName, warnings);
      } catch (err) {
        // A unit that cannot be used: the read's answer no longer matters (it is left to finish:
        // stopping it would end the worker, and the next file would wait for a new one).
        reading.catch(() => undefined);
        throw err;
      }
    }
    try {
      ({ result, output } = await reading);
    } catch (err) {
      if (err instanceof ImportError) throw err;
      throw new ImportError('unreadable-cad', fileName, `OpenCascade failed while reading this ${spec.label} file: ${occtErrorText(err)}${unitSuspicion(census)}`, { cause: err });
    }
  } else {
    if (censusDuringRead) census = takeStepCensus(bytes, fileName, warnings);
    module.takeOutput?.(); // drop what earlier calls printed
    try {
      result = spec.read(module, bytes, params);
    } catch (err) {
      throw new ImportError(
        'unreadable-cad',
        fileName,
        `OpenCascade failed while reading this ${spec.label} file: ${occtErrorText(err)}${occtSays(module.takeOutput?.() ?? [])}${unitSuspicion(census)}`,
        { cause: err },
      );
    }
    output = module.takeOutput?.() ?? [];
  }
  checkAborted(signal, fileName);

  if (typeof result !== 'object' || result === null || result.success !== true) {
    const says = occtSays(output);
    if (spec.format === 'step' && textAtBothEnds(bytes) && !hasStepEnd(bytes)) {
      throw new ImportError('truncated', fileName, `the STEP file is truncated: it does not end with '${STEP_END};'${says}`);
    }
    const binary = textAtBothEnds(bytes) ? '' : '; the file contains binary data';
    throw new ImportError('unreadable-cad', fileName, `OpenCascade could not read this ${spec.label} file${binary}${says}${unitSuspicion(census)}`);
  }
  const meshes: unknown = result.meshes;
  if (!Array.isArray(meshes)) {
    throw new ImportError('unreadable-cad', fileName, `OpenCascade returned no mesh list for this ${spec.label} file`);
  }
  if (meshes.length === 0) {
    const hint = spec.format === 'step'
      ? '; a STEP assembly whose parts are stored in separate files (external references) reads like this, ' +
        'and those files are not loaded'
      : '';
    throw new ImportError(
      'no-bodies',
      fileName,
      `OpenCascade read the ${spec.label} file but found no solids or surfaces in it${hint}${occtSays(output)}${unitSuspicion(census)}`,
    );
  }
  if (spec.format === 'step' && !hasStepEnd(bytes)) {
    warnings.push(`the file does not end with '${STEP_END};'; it may be incomplete`);
  }
  if (igesEntities !== null) {
    const missing = igesMissingBodies(igesEntities, meshes.length);
    if (missing !== null) warnings.push(missing + occtSays(output));
  }
  if (census !== null) {
    const names = meshes.map((m) => (typeof (m as { name?: unknown } | null)?.name === 'string' ? (m as { name: string }).name : ''));
    const says = occtSays(output);
    for (const w of missingBodyWarnings(census, names)) warnings.push(w + says);
  }
  const converted = convertOcctMeshes(meshes, fileName, options, warnings);
  const paths = bodyPaths(result.root, converted.map((b) => b.name), fileName);
  const bodies = converted.map((b, i) => ({ ...b, path: paths[i] }));
  options.onProgress?.(1, 1);
  return { format: spec.format, bodies, warnings };
}

function isRemote(module: OcctModule | OcctRemoteModule): module is OcctRemoteModule {
  return (module as Partial<OcctRemoteModule>).remote === true && typeof (module as Partial<OcctRemoteModule>).read === 'function';
}
