/**
 * The importers the application knows, and the choice of one for a file.
 *
 * Content decides: every importer sniffs the bytes and says how sure it is (0..1). A claim of 0.5
 * or more wins (highest first; on a tie, the importer whose extension matches the file name, then
 * registration order). The file name is only a hint: when nobody claims the file with confidence,
 * the importer registered for its extension (if any) gets to read it and explain precisely what
 * is wrong (a truncated binary STL named `.stl`); otherwise the file is of an unknown format.
 */
import { checkFileSize, fileSizeProblem, limitsOf } from './limits.js';
import { createOcctImporters } from './occt.js';
import type { OcctProvider } from './occt.js';
import { stlHeadProblem, stlImporter } from './stl.js';
import { ImportError, checkAborted, describeKnownFormat, fileExtension, isBlankFile, plural, unitScale } from './types.js';
import type { ImportOptions, ImportResult, Importer } from './types.js';

/** Sniff confidence from which a claim is decided by content alone. */
export const CONFIDENT = 0.5;

export interface Detection {
  importer: Importer;
  confidence: number;
  /** The importer lists the file name's extension. */
  extensionMatches: boolean;
}

export class ImporterRegistry {
  private readonly list: Importer[] = [];

  constructor(importers: readonly Importer[] = []) {
    for (const importer of importers) this.register(importer);
  }

  /** Adds an importer; its id must be new. */
  register(importer: Importer): this {
    if (this.list.some((i) => i.id === importer.id)) throw new Error(`an importer with id '${importer.id}' is already registered`);
    this.list.push(importer);
    return this;
  }

  get importers(): readonly Importer[] {
    return this.list;
  }

  /** Every extension any importer reads, lower case, without the dot (for file dialogs). */
  extensions(): string[] {
    return [...new Set(this.list.flatMap((i) => i.extensions))];
  }

  /** Every importer's claim on the bytes, best first (ties: extension match, then registration). */
  rank(bytes: Uint8Array, fileName: string): Detection[] {
    const ext = fileExtension(fileName);
    const all = this.list.map((importer, order) => {
      let confidence: number;
      try {
        confidence = importer.sniff(bytes);
      } catch {
        confidence = 0; // a sniffer that throws makes no claim
      }
      if (!(confidence > 0)) confidence = 0; // NaN and negatives too
      return { importer, confidence: Math.min(confidence, 1), extensionMatches: ext !== '' && importer.extensions.includes(ext), order };
    });
    all.sort((a, b) =>
      b.confidence - a.confidence || Number(b.extensionMatches) - Number(a.extensionMatches) || a.order - b.order);
    return all.map(({ importer, confidence, extensionMatches }) => ({ importer, confidence, extensionMatches }));
  }

  /** The importer for these bytes, or null when no importer claims them (see the file comment). */
  detect(bytes: Uint8Array, fileName: string): Detection | null {
    const ranked = this.rank(bytes, fileName);
    if (ranked.length > 0 && ranked[0].confidence >= CONFIDENT) return ranked[0];
    return ranked.find((d) => d.extensionMatches) ?? null;
  }

  /** Like detect, but throws ImportError ('empty-file', 'unknown-format') instead of returning null. */
  choose(bytes: Uint8Array, fileName: string): Importer {
    if (bytes.length === 0) throw new ImportError('empty-file', fileName, 'the file is empty (0 bytes)');
    if (isBlankFile(bytes)) {
      throw new ImportError('empty-file', fileName, `the file holds only whitespace (${plural(bytes.length, 'byte')})`);
    }
    const found = this.detect(bytes, fileName);
    if (found !== null) return found.importer;
    throw new ImportError('unknown-format', fileName, this.unknownFormatProblem(bytes));
  }

  /** Chooses an importer by content and imports. Throws ImportError only. */
  async import(bytes: Uint8Array, fileName: string, options: ImportOptions = {}): Promise<ImportResult> {
    unitScale(options.units); // an unknown unit is the caller's mistake: RangeError, not ImportError
    const limits = limitsOf(options); // so is an invalid limit
    checkAborted(options.signal, fileName);
    if (bytes.length > 0) checkFileSize(bytes.length, fileName, limits);
    const importer = this.choose(bytes, fileName);
    let result: ImportResult;
    try {
      result = await importer.import(bytes, fileName, options);
    } catch (err) {
      if (err instanceof ImportError) throw err;
      const detail = err instanceof Error ? err.message : String(err);
      throw new ImportError('parse-error', fileName, `${importer.label} import failed: ${detail}`, { cause: err });
    }
    if (result.bodies.length === 0) throw new ImportError('no-bodies', fileName, `the ${importer.label} file holds no bodies`);
    return result;
  }

  /**
   * What can be told before a file is read whole, from its size and its first bytes (`head`, at
   * least 4 KB or the whole file): ImportError 'too-large' for a file beyond the size limit, or
   * the error `import` would certainly give a file no other importer claims from its first bytes:
   * a binary STL whose count is beyond the triangle limits ('too-large'), or a file that cannot
   * be an STL file either (stlHeadProblem): 'not-stl'/'count-mismatch'/'truncated' when it goes
   * to the STL importer by its extension, 'unknown-format' when no importer's
   * extension matches either. Null when the
   * whole file must be read to tell.
   */
  precheck(head: Uint8Array, size: number, fileName: string, options: ImportOptions = {}): ImportError | null {
    const tooLarge = fileSizeProblem(size, limitsOf(options));
    if (tooLarge !== null) return new ImportError('too-large', fileName, tooLarge);
    const stl = this.list.find((i) => i.id === stlImporter.id);
    if (stl === undefined || head.length >= size) return null;
    if (head[0] === 0x2f && head[1] === 0x2a) return null; // a comment (STEP) may hide what follows
    if (this.list.some((i) => i !== stl && i.sniff(head) > 0)) return null;
    const problem = stlHeadProblem(head, size, fileName, limitsOf(options));
    if (problem === null || problem.code === 'too-large') return problem;
    const ext = fileExtension(fileName);
    if (stl.extensions.includes(ext)) return problem;
    if (this.list.some((i) => i.extensions.includes(ext))) return null; // that importer explains
    return new ImportError('unknown-format', fileName, this.unknownFormatProblem(head));
  }

  private unknownFormatProblem(bytes: Uint8Array): string {
    const supported = this.list.map((i) => i.label).join(', ') || 'none';
    const known = describeKnownFormat(bytes);
    if (known !== null) return `unknown file format: it looks like ${known}, which no importer reads (supported: ${supported})`;
    return `unknown file format: the content matches none of the supported formats (${supported})`;
  }
}

export interface DefaultRegistryOptions {
  /** The host's OpenCascade module (see occt.ts); without it STEP, IGES and BREP are unknown formats. */
  occt?: OcctProvider;
}

/** The registry the application uses: STL, and STEP, IGES and BREP when the host provides OpenCascade. */
export function createDefaultRegistry(options: DefaultRegistryOptions = {}): ImporterRegistry {
  return new ImporterRegistry(options.occt === undefined ? [stlImporter] : [stlImporter, ...createOcctImporters(options.occt)]);
}
