/**
 * The command line in CI: `--shard i/n` (which inputs this run checks), `--baseline FILE` (the
 * accepted reports the findings are compared with) and GitHub Actions annotations.
 *
 * Shards: the inputs are sorted by their path as given (by UTF-16 code unit, as JavaScript
 * compares strings; the same command line gives the same order on every machine) and cut into n
 * contiguous slices whose sizes differ by at most one; shard i (from 1) checks the i-th. Every
 * input is in exactly one shard; a shard may be empty when there are fewer inputs than shards.
 *
 * Baselines: a baseline file is a JSON report, or what `--json` prints for several inputs (an
 * array of reports, entries of inputs that could not be checked skipped). An input's baseline is
 * the report whose `assembly` is the input's file name; a file of a single report is the baseline
 * of a single input whatever its name. With `{name}` in FILE, each input has its own file (as
 * with --report); an input without a baseline (a missing {name} file, or no report of its name)
 * is compared with an empty one: every finding is new.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseReport, ReportError, type InterferenceReport } from '../../src-core/report/index.js';
import { decodeText } from '../../src-core/io/types.js';
import { inputName, UsageError } from './reports.js';

export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** `--shard i/n`: whole numbers with 1 ≤ i ≤ n. Throws UsageError. */
export function parseShard(text: string | undefined): Shard | null {
  if (text === undefined) return null;
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || !Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index < 1 || index > count) {
    throw new UsageError(`--shard needs i/n, whole numbers with 1 ≤ i ≤ n (the i-th of n slices of the inputs, e.g. 2/4), got '${text}'`);
  }
  return { index, count };
}

/** The inputs of one shard: sorted by path, the i-th of n contiguous slices (see the module comment). */
export function shardInputs(files: readonly string[], shard: Shard | null): string[] {
  if (shard === null) return [...files];
  const sorted = [...files].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const start = Math.floor(((shard.index - 1) * sorted.length) / shard.count);
  const end = Math.floor((shard.index * sorted.length) / shard.count);
  return sorted.slice(start, end);
}

/** Largest baseline file read (a report of a 2,000,000-triangle assembly is far smaller). */
const MAX_BASELINE_BYTES = 512 * 1024 * 1024;

async function readBaselineFile(file: string): Promise<InterferenceReport[] | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new UsageError(`--baseline ${file}: cannot be read: ${(e as Error).message}`);
  }
  if (bytes.length > MAX_BASELINE_BYTES) throw new UsageError(`--baseline ${file}: larger than ${MAX_BASELINE_BYTES / 1024 / 1024} MiB`);
  const text = decodeText(new Uint8Array(bytes));
  try {
    const raw: unknown = JSON.parse(text);
    const entries = Array.isArray(raw) ? raw : [raw];
    const reports: InterferenceReport[] = [];
    entries.forEach((entry, i) => {
      if (typeof entry === 'object' && entry !== null && (entry as { format?: unknown }).format === 'interfere-error') return;
      try {
        reports.push(parseReport(JSON.stringify(entry)));
      } catch (e) {
        if (e instanceof ReportError && Array.isArray(raw)) throw new ReportError(e.problem, `[${i}]${e.field ? `.${e.field}` : ''}`);
        throw e;
      }
    });
    return reports;
  } catch (e) {
    const why = e instanceof ReportError ? e.message : `not valid JSON: ${(e as Error).message}`;
    throw new UsageError(`--baseline ${file}: not a report of interfere check (${why})`);
  }
}

/** The baselines of a run's inputs, read before anything is checked. */
export class Baselines {
  private constructor(
    private readonly template: string,
    private readonly byInput: ReadonlyMap<string, InterferenceReport | null>,
  ) {}

  /** Reads the baseline of every input. Throws UsageError for a file that is there but not a report (or a missing FILE without {name}). */
  static async load(template: string, files: readonly string[]): Promise<Baselines> {
    if (template.includes('\0')) throw new UsageError('--baseline: the path contains a NUL character');
    const byInput = new Map<string, InterferenceReport | null>();
    if (template.includes('{name}')) {
      for (const f of files) {
        const reports = await readBaselineFile(template.split('{name}').join(inputName(f)));
        byInput.set(f, reports === null ? null : (reports.find((r) => r.assembly === path.basename(f)) ?? (reports.length === 1 ? reports[0]! : null)));
      }
    } else {
      const reports = await readBaselineFile(template);
      if (reports === null) throw new UsageError(`--baseline ${template}: not found`);
      for (const f of files) {
        const named = reports.find((r) => r.assembly === path.basename(f));
        byInput.set(f, named ?? (reports.length === 1 && files.length === 1 ? reports[0]! : null));
      }
    }
    return new Baselines(template, byInput);
  }

  /** The baseline file of an input (as named on the command line, {name} replaced). */
  fileOf(input: string): string {
    return this.template.includes('{name}') ? this.template.split('{name}').join(inputName(input)) : this.template;
  }

  /** The baseline report of an input, or null when it has none (every finding is new). */
  of(input: string): InterferenceReport | null {
    return this.byInput.get(input) ?? null;
  }
}

/** GitHub's escaping of a workflow command's message: %, CR and LF. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** GitHub's escaping of a workflow command's property value: also ':' and ','. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One `::error file=…,title=…::message` line (without the line break). */
export function annotation(level: 'error' | 'warning' | 'notice', properties: Record<string, string>, message: string): string {
  const props = Object.entries(properties).map(([k, v]) => `${k}=${escapeProperty(v)}`).join(',');
  return `::${level}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}

/**
 * The path GitHub shows an annotation at: the input relative to the workspace (GITHUB_WORKSPACE,
 * else the current folder) with '/' between folders, or as given when it lies outside.
 */
export function annotationPath(file: string, env: NodeJS.ProcessEnv = process.env): string {
  const root = path.resolve(env['GITHUB_WORKSPACE'] || process.cwd());
  const rel = path.relative(root, path.resolve(file));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return file;
  return rel.split(path.sep).join('/');
}
