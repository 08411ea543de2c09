/**
 * Where the command line writes reports, and what it never writes over.
 *
 * Names: `--report FILE` with one input is FILE; with several, `{name}` in FILE is each input's
 * name (its file name without `.assembly.json` or the extension), and without `{name}` the name is
 * inserted before the extension (`r.json` → `r-gear.json`). Two inputs whose reports would be the
 * same file are refused before anything is checked: a report of one must never stand for another.
 *
 * Protected files: every input of the run, every source file of an input assembly, and every
 * report this run has written already are identified by device and inode (so another spelling of
 * the path, a hard link or a case-insensitive file system does not get past), and a report that
 * would replace one of them is refused. A report is never named `*.assembly.json`.
 */
import { readFile, stat } from 'node:fs/promises';
import type { BigIntStats } from 'node:fs';
import path from 'node:path';
import { ASSEMBLY_EXTENSION, parseAssembly } from '../../src-core/assembly/format.js';
import { decodeText } from '../../src-core/io/types.js';

export type ReportFormat = 'json' | 'csv' | 'html' | 'junit';

/** A problem with the command line (status 2, before anything is checked). */
export class UsageError extends Error {}

export function reportFormat(file: string): ReportFormat {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.csv') return 'csv';
  if (ext === '.html' || ext === '.htm') return 'html';
  if (ext === '.xml') return 'junit';
  throw new UsageError(`--report ${file}: the extension must be .json, .csv, .html or .xml (JUnit)`);
}

/** An input's name for {name}: the file name without `.assembly.json`, else without its extension. */
export function inputName(file: string): string {
  const base = path.basename(file);
  return base.toLowerCase().endsWith(ASSEMBLY_EXTENSION) ? base.slice(0, -ASSEMBLY_EXTENSION.length) : base.replace(/\.[^.]*$/, '');
}

/** The report path of one input (see the module comment). */
export function reportPath(template: string, input: string, several: boolean): string {
  if (template.includes('{name}')) return template.split('{name}').join(inputName(input));
  if (!several) return template;
  const ext = path.extname(template);
  return `${template.slice(0, template.length - ext.length)}-${inputName(input)}${ext}`;
}

/** Checks a --report value on its own (extension, NUL, the assembly extension). Throws UsageError. */
export function checkReportTemplate(template: string): void {
  if (template.includes('\0')) throw new UsageError('--report: the path contains a NUL character');
  reportFormat(template);
  if (template.toLowerCase().endsWith(ASSEMBLY_EXTENSION)) {
    throw new UsageError(`--report ${template}: a report is not named *${ASSEMBLY_EXTENSION} (the name of a saved assembly); choose another name`);
  }
}

/**
 * The report path of every input, in input order. Throws UsageError when two inputs would write
 * the same report, or a report would be an input itself (compared as absolute paths; other
 * spellings of one file are caught when writing, by ProtectedFiles).
 */
export function planReports(template: string, files: readonly string[]): string[] {
  const several = files.length > 1;
  const targets = files.map((f) => reportPath(template, f, several));
  const inputs = new Map(files.map((f) => [path.resolve(f), f] as const));
  const first = new Map<string, number>();
  targets.forEach((target, i) => {
    const key = path.resolve(target);
    if (key.toLowerCase().endsWith(ASSEMBLY_EXTENSION)) {
      throw new UsageError(`--report ${template}: the report of ${files[i]} would be ${target}, the name of a saved assembly; choose another name`);
    }
    const input = inputs.get(key);
    if (input !== undefined) throw new UsageError(`--report ${template}: the report of ${files[i]} would be ${target}, which is the input ${input}; choose another name`);
    const j = first.get(key);
    if (j !== undefined) {
      const why = path.resolve(files[i]) === path.resolve(files[j]) ? `${files[i]} is given twice` : `${files[j]} and ${files[i]} have the same name`;
      throw new UsageError(`--report ${template}: ${why}, so both reports would be ${target}; nothing was checked (check them in separate runs or with reports in separate folders)`);
    }
    first.set(key, i);
  });
  return targets;
}

/** One --report: its format, and its file for each input, or one file for all (JUnit without {name}). */
export interface ReportPlan {
  readonly template: string;
  readonly format: ReportFormat;
  /** Per input, in input order; empty when `combined`. */
  readonly targets: readonly string[];
  /** The one file of a JUnit report of every input, or null. */
  readonly combined: string | null;
}

/**
 * The plan of every --report (see planReports). Throws UsageError when two of them would write
 * the same file, or a JUnit file for all inputs would be an input.
 */
export function planReportSet(templates: readonly string[], files: readonly string[]): ReportPlan[] {
  const plans = templates.map((template): ReportPlan => {
    const format = reportFormat(template);
    if (format === 'junit' && !template.includes('{name}')) {
      const input = files.find((f) => path.resolve(f) === path.resolve(template));
      if (input !== undefined) throw new UsageError(`--report ${template}: that is the input ${input}; choose another name`);
      return { template, format, targets: [], combined: template };
    }
    return { template, format, targets: planReports(template, files), combined: null };
  });
  const owner = new Map<string, string>();
  for (const plan of plans) {
    for (const target of plan.combined !== null ? [plan.combined] : new Set(plan.targets)) {
      const key = path.resolve(target);
      const other = owner.get(key);
      if (other !== undefined) {
        throw new UsageError(`--report ${other} and --report ${plan.template} would both write ${target}; nothing was checked (give each its own name)`);
      }
      owner.set(key, plan.template);
    }
  }
  return plans;
}

/** Largest assembly file read ahead to protect its sources (larger ones: after their check). */
const MAX_AHEAD_BYTES = 64 * 1024 * 1024;

function identity(st: BigIntStats | { dev: bigint; ino: bigint }): string {
  return `${st.dev}:${st.ino}`;
}

/** Files no report may replace, by identity, with what each is (for the message). */
export class ProtectedFiles {
  private readonly files = new Map<string, string>();

  /** Protects the file at `filePath` (following links) as `what`; a missing file is skipped. */
  async add(filePath: string, what: string): Promise<void> {
    if (filePath.includes('\0')) return;
    try {
      const st = await stat(filePath, { bigint: true });
      if (!this.files.has(identity(st))) this.files.set(identity(st), what);
    } catch {
      // nothing there: nothing to protect
    }
  }

  /** Protects the source files of a saved assembly, relative to its folder. */
  async addSources(assemblyFile: string, sourcePaths: readonly string[]): Promise<void> {
    const folder = path.dirname(path.resolve(assemblyFile));
    for (const s of sourcePaths) await this.add(path.resolve(folder, s), `a source file of ${assemblyFile}`);
  }

  /**
   * Protects every input and, for inputs named `*.json` (saved assemblies), the sources it names.
   * An input that cannot be read or parsed is skipped here (its check reports the problem).
   */
  async addInputs(files: readonly string[]): Promise<void> {
    for (const f of files) await this.add(f, `an input of this run (${f})`);
    for (const f of files) {
      if (f.includes('\0') || !f.toLowerCase().endsWith('.json')) continue;
      try {
        const st = await stat(f);
        if (!st.isFile() || st.size > MAX_AHEAD_BYTES) continue;
        const doc = parseAssembly(decodeText(new Uint8Array(await readFile(f))), f);
        await this.addSources(f, doc.sources.map((s) => s.path));
      } catch {
        // not readable or not an assembly: its check says so
      }
    }
  }

  /** Why a report may not replace this file, or null. */
  readonly refuse = (st: BigIntStats): string | null => {
    const what = this.files.get(identity(st));
    return what === undefined ? null : `this is ${what}; no report is written over it (choose another report name)`;
  };
}
