/**
 * `interfere` — the command line: check saved assemblies or CAD/STL files for interference,
 * write reports, and exit with the status formats.md defines (0 clear, 1 interference or
 * clearance violation, 2 could not check).
 */
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { checkFile, type CheckFileResult, type CheckStage } from '../services/checkService.js';
import { writeFileAtomic } from '../services/files.js';
import { reportToCsv, reportToHtml, reportToJson, exitCode, type InterferenceReport } from '../../src-core/report/index.js';
import { APP_NAME, APP_VERSION } from '../services/appInfo.js';
import { createTreeBuilder } from '../services/treeBuilder.js';
import { createImporter, machineImportLimits } from '../services/importers.js';
import { BYTES_PER_TRIANGLE, type ImportLimits } from '../../src-core/io/limits.js';
import { MAX_TRIANGLES } from '../../src-core/geometry/mesh.js';
import { availableParallelism } from 'node:os';

/** The default import limits here (triangles bounded by the memory), and the cores --jobs is capped at. */
const MACHINE_LIMITS = machineImportLimits();
const CORES = availableParallelism();

const HELP = `Usage: interfere check FILE... [options]
       interfere --help | --version

Checks every pair of parts of each FILE for interference, contact and clearance, prints a summary
table, and optionally writes a report.

FILE is a saved assembly (*.assembly.json) or a CAD or mesh file: STEP (.stp, .step), IGES (.igs,
.iges), BREP (.brep) or STL (binary or ASCII; millimetres). A CAD or STL file is checked as an
assembly of its bodies, each at its own placement, with default settings.

Options:
  --report FILE       write a report; the format follows the extension: .json, .csv or .html
                      (.htm). With several inputs, {name} in FILE is replaced by each input's
                      name; without it, "-<name>" is inserted before the extension.
  --json              print the JSON report to standard output (an array with several inputs);
                      the summary then goes to standard error
  --tolerance MM      touch tolerance in millimetres: surfaces closer than this, or overlapping by
                      less, are contact, not interference. Default: the assembly's setting; when it
                      has none, automatic from each part's tessellation (chordal) error, at least
                      0.01 mm
  --clearance MM      report pairs closer than MM millimetres as clearance violations (default:
                      the assembly's setting, else 0 = off)
  --contact-is-interference
                      report contacts as interferences
  --jobs N            processes that build trees in parallel (default and most: one per core,
                      ${CORES} here; 1 builds in this process)
  --max-triangles N   most triangles one body may have; one file, and the sources of one saved
                      assembly together, may have as many in all as the default, or N when N is
                      larger; larger inputs are refused with a message. At most 1,073,741,823.
                      Default: what 3/4 of this machine's memory holds at ${BYTES_PER_TRIANGLE} bytes a
                      triangle (import, trees and check), at most 50,000,000 per body and
                      100,000,000 in all: ${MACHINE_LIMITS.maxTrianglesPerBody.toLocaleString('en-US')} and ${MACHINE_LIMITS.maxTrianglesPerAssembly.toLocaleString('en-US')} here
  --import-timeout SECONDS
                      longest time OpenCascade may spend reading one STEP, IGES or BREP file
                      (default 300); a file that takes longer is stopped and reported
  --quiet             print nothing but errors (the exit status still tells)
  --no-progress       no progress bar (it only shows on a terminal anyway)
  -h, --help          this text
  -v, --version       the version

Exit status:
  0  no interference and no clearance violation (contacts and ignored pairs allowed)
  1  an interference or a clearance violation was found
  2  an input could not be checked (the message names the file and the problem); the other
     inputs are still checked and reported

Examples:
  interfere check bracket.assembly.json --report bracket-report.html
  interfere check *.assembly.json --report reports/{name}.json --quiet
  interfere check gearbox.step --clearance 0.5 --json > report.json`;

class UsageError extends Error {}

interface Options {
  files: string[];
  report: string | null;
  json: boolean;
  tolerance: number | undefined;
  clearance: number | undefined;
  contactIsInterference: boolean | undefined;
  jobs: number | undefined;
  limits: Partial<ImportLimits>;
  quiet: boolean;
  progress: boolean;
}

function parseNumber(flag: string, text: string | undefined, integer = false): number | undefined {
  if (text === undefined) return undefined;
  const v = Number(text);
  if (!Number.isFinite(v) || v < 0 || (integer && (!Number.isInteger(v) || v < 1))) {
    throw new UsageError(`${flag} needs ${integer ? 'a whole number ≥ 1' : 'a number of millimetres ≥ 0'}, got '${text}'`);
  }
  return v;
}

/** The longest timer Node can set (a longer one would fire at once): 2^31 − 1 ms. */
const MAX_TIMEOUT_S = Math.floor((2 ** 31 - 1) / 1000);

/** --max-triangles: a whole number from 1 to MAX_TRIANGLES (digit groups with ',' or '_' allowed). */
function parseMaxTriangles(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const digits = text.trim().replace(/(?<=\d)[,_](?=\d{3}(\D|$))/g, '');
  const v = /^\d+$/.test(digits) ? Number(digits) : NaN;
  if (!(v >= 1 && v <= MAX_TRIANGLES)) {
    throw new UsageError(`--max-triangles needs a whole number of triangles from 1 to ${MAX_TRIANGLES.toLocaleString('en-US')}, got '${text}'`);
  }
  return v;
}

/** --import-timeout: seconds, more than 0 and at most MAX_TIMEOUT_S. */
function parseTimeout(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const v = text.trim() === '' ? NaN : Number(text);
  if (!(v > 0 && v <= MAX_TIMEOUT_S)) {
    throw new UsageError(`--import-timeout needs a number of seconds greater than 0 and at most ${MAX_TIMEOUT_S} (about 24 days), got '${text}'`);
  }
  return v;
}

/** The import limits the flags ask for (only those given). */
function importLimits(maxTriangles: number | undefined, timeoutS: number | undefined): Partial<ImportLimits> {
  return {
    ...(maxTriangles !== undefined ? {
      maxTrianglesPerBody: maxTriangles,
      maxTrianglesPerAssembly: Math.max(maxTriangles, MACHINE_LIMITS.maxTrianglesPerAssembly),
    } : {}),
    ...(timeoutS !== undefined ? { cadTimeoutMs: timeoutS * 1000 } : {}),
  };
}

function parseOptions(argv: string[]): Options | 'help' | 'version' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        report: { type: 'string' },
        json: { type: 'boolean' },
        tolerance: { type: 'string' },
        clearance: { type: 'string' },
        'contact-is-interference': { type: 'boolean' },
        jobs: { type: 'string' },
        'max-triangles': { type: 'string' },
        'import-timeout': { type: 'string' },
        quiet: { type: 'boolean', short: 'q' },
        'no-progress': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (values.version) return 'version';
  if (positionals.length === 0) throw new UsageError('missing command: interfere check FILE...');
  const [command, ...files] = positionals;
  if (command !== 'check') throw new UsageError(`unknown command '${command}' (the command is 'check')`);
  if (files.length === 0) throw new UsageError('interfere check needs at least one file');
  if (values.report !== undefined) reportFormat(values.report);
  return {
    files,
    report: values.report ?? null,
    json: values.json ?? false,
    tolerance: parseNumber('--tolerance', values.tolerance),
    clearance: parseNumber('--clearance', values.clearance),
    contactIsInterference: values['contact-is-interference'] ? true : undefined,
    jobs: parseNumber('--jobs', values.jobs, true),
    limits: importLimits(parseMaxTriangles(values['max-triangles']), parseTimeout(values['import-timeout'])),
    quiet: values.quiet ?? false,
    progress: !values['no-progress'],
  };
}

type ReportFormat = 'json' | 'csv' | 'html';

function reportFormat(file: string): ReportFormat {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.csv') return 'csv';
  if (ext === '.html' || ext === '.htm') return 'html';
  throw new UsageError(`--report ${file}: the extension must be .json, .csv or .html`);
}

function inputName(file: string): string {
  const base = path.basename(file);
  return base.toLowerCase().endsWith('.assembly.json') ? base.slice(0, -'.assembly.json'.length) : base.replace(/\.[^.]*$/, '');
}

function reportPath(template: string, input: string, several: boolean): string {
  if (template.includes('{name}')) return template.split('{name}').join(inputName(input));
  if (!several) return template;
  const ext = path.extname(template);
  return `${template.slice(0, template.length - ext.length)}-${inputName(input)}${ext}`;
}

function renderReport(report: InterferenceReport, format: ReportFormat): string {
  if (format === 'json') return reportToJson(report);
  if (format === 'csv') return reportToCsv(report);
  return reportToHtml(report);
}

/** A progress bar on a terminal (standard error), nothing otherwise. */
class Progress {
  private last = 0;
  private shown = false;
  constructor(private readonly enabled: boolean) {}
  update(file: string, stage: CheckStage, done: number, total: number): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.last < 80 && done < total) return;
    this.last = now;
    const width = 24;
    const f = total > 0 ? Math.min(1, done / total) : 0;
    const bar = '█'.repeat(Math.round(f * width)).padEnd(width, '░');
    const label = stage === 'open' ? 'reading' : stage === 'trees' ? 'building trees' : 'checking pairs';
    const cols = process.stderr.columns ?? 80;
    const line = ` ${bar} ${label} ${path.basename(file)}`.slice(0, Math.max(10, cols - 1));
    process.stderr.write(`\r${line}\x1b[K`);
    this.shown = true;
  }
  clear(): void {
    if (this.shown) process.stderr.write('\r\x1b[K');
    this.shown = false;
  }
}

function fmt(n: number | null, digits: number): string {
  return n === null ? '' : n.toFixed(digits);
}

function summaryTable(result: CheckFileResult): string {
  const r = result.report;
  const s = r.summary;
  const lines: string[] = [];
  const tol = r.settings.touchToleranceAuto ? `auto (≤ ${r.settings.touchToleranceMm.toFixed(3)} mm)` : `${r.settings.touchToleranceMm} mm`;
  lines.push(`${path.basename(result.path)}: ${s.parts} parts, ${s.triangles.toLocaleString('en-US')} triangles, touch tolerance ${tol}` +
    (r.settings.clearanceMm > 0 ? `, clearance ${r.settings.clearanceMm} mm` : '') + `, ${s.elapsedMs} ms`);
  lines.push(`  ${s.interferences} interference(s), ${s.clearanceViolations} clearance violation(s), ${s.contacts} contact(s), ${s.ignored} ignored`);
  const rows = r.results.filter((x) => x.kind !== 'ignored' && x.kind !== 'contact');
  if (rows.length > 0) {
    const header = ['kind', 'part a', 'part b', 'volume mm³', 'depth mm', 'distance mm', 'tri pairs'];
    const body = rows.map((x) => [
      x.kind + (x.contained ? ' (contained)' : ''),
      x.a,
      x.b,
      fmt(x.volumeMm3, 3),
      fmt(x.depthMm, 3),
      fmt(x.distanceMm, 4),
      String(x.trianglePairs.length),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
    const line = (cells: string[]): string => '  ' + cells.map((c, i) => (i >= 3 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
    lines.push(line(header));
    lines.push('  ' + widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of body) lines.push(line(row));
  }
  for (const w of r.warnings) lines.push(`  warning: ${w}`);
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  let opts: Options | 'help' | 'version';
  try {
    opts = parseOptions(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`interfere: ${e.message}\nRun 'interfere --help' for usage.\n`);
      return 2;
    }
    throw e;
  }
  if (opts === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (opts === 'version') {
    process.stdout.write(`${APP_NAME} ${APP_VERSION}\n`);
    return 0;
  }
  const o = opts;
  if (o.jobs !== undefined && o.jobs > CORES) {
    process.stderr.write(`interfere: --jobs ${o.jobs} is more than the ${CORES} cores of this machine; using ${CORES}\n`);
    o.jobs = CORES;
  }
  const out = o.json ? process.stderr : process.stdout;
  const progress = new Progress(o.progress && !o.quiet && process.stderr.isTTY === true);
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.once('SIGINT', onSignal);
  const builder = createTreeBuilder({ jobs: o.jobs });
  const importer = createImporter({ limits: o.limits });
  const reports: InterferenceReport[] = [];
  let status = 0;
  try {
    for (const file of o.files) {
      let result: CheckFileResult;
      try {
        result = await checkFile(file, {
          importer,
          buildTrees: builder.build,
          settings: {
            ...(o.tolerance !== undefined ? { touchToleranceMm: o.tolerance } : {}),
            ...(o.clearance !== undefined ? { clearanceMm: o.clearance } : {}),
            ...(o.contactIsInterference !== undefined ? { contactIsInterference: o.contactIsInterference } : {}),
          },
          signal: controller.signal,
          onProgress: (stage, done, total) => progress.update(file, stage, done, total),
        });
      } catch (e) {
        progress.clear();
        if ((e as Error).name === 'AbortError') {
          process.stderr.write('interfere: cancelled\n');
          return 2;
        }
        const msg = (e as Error).message;
        process.stderr.write(`interfere: ${msg.includes(path.basename(file)) ? msg : `${file}: ${msg}`}\n`);
        status = 2;
        continue;
      }
      progress.clear();
      reports.push(result.report);
      const code = exitCode(result.report);
      if (status !== 2) status = Math.max(status, code);
      if (!o.quiet) out.write(`${summaryTable(result)}\n`);
      if (o.report) {
        const target = reportPath(o.report, file, o.files.length > 1);
        try {
          // A report path with folders of its own ({name} patterns in CI) gets them made.
          await mkdir(path.dirname(path.resolve(target)), { recursive: true });
          await writeFileAtomic(target, renderReport(result.report, reportFormat(target)));
          if (!o.quiet) out.write(`  report: ${target}\n`);
        } catch (e) {
          process.stderr.write(`interfere: ${(e as Error).message}\n`);
          status = 2;
        }
      }
    }
  } finally {
    process.off('SIGINT', onSignal);
    await builder.dispose();
  }
  if (o.json) {
    const text = o.files.length === 1 && reports.length === 1 ? reportToJson(reports[0]) : `[\n${reports.map((r) => reportToJson(r)).join(',\n')}\n]`;
    process.stdout.write(`${text}\n`);
  }
  return status;
}

// OpenCascade's wasm is large: a cold process spends most of its first read compiling it, and the
// optimising tier's background compilation competes for the same two cores. Baseline code alone
// reads AS1 in about 0.9 s instead of 2.3 s here, and long reads are no slower (measured).
setFlagsFromString('--liftoff-only');

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`interfere: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 2;
  },
);
