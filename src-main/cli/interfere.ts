/**
 * `interfere` — the command line: check saved assemblies or CAD/STL files for interference,
 * write reports, and exit with the status formats.md defines (0 clear, 1 interference or
 * clearance violation, 2 could not check).
 */
import { parseArgs } from 'node:util';
import path from 'node:path';
import { PartError } from '../services/bodies.js';
import { checkFile, type CheckFileResult, type CheckStage } from '../services/checkService.js';
import { FileError, makeOutputFolder, writeOutputFile } from '../services/files.js';
import { TreeBuildError } from '../services/treePool.js';
import {
  reportToCsv, reportToHtml, reportToJson, reportsToJunit, reportFindings, compareWithBaseline, reportPictures, ReportError,
  type BaselineComparison, type InterferenceReport, type JunitInput, type ReportFindings, type UndecidedPolicy,
} from '../../src-core/report/index.js';
import { AssemblyError } from '../../src-core/assembly/model.js';
import { ImportError } from '../../src-core/io/types.js';
import { APP_NAME, APP_VERSION } from '../services/appInfo.js';
import { createTreeBuilder, defaultTreeJobs } from '../services/treeBuilder.js';
import { createImporter, machineImportLimits } from '../services/importers.js';
import { sharedOcctWorkerProvider } from '../services/occtWorker.js';
import { prestartVolumeWorker } from '../services/volumeWorker.js';
import { processWantsOpenCascade } from './cadInputs.js';
import { Timings } from './timings.js';
import { BYTES_PER_TRIANGLE, type ImportLimits } from '../../src-core/io/limits.js';
import { MAX_TRIANGLES } from '../../src-core/geometry/mesh.js';
import { checkReportTemplate, planReportSet, ProtectedFiles, UsageError, type ReportFormat, type ReportPlan } from './reports.js';
import { annotation, annotationPath, Baselines, parseShard, shardInputs, type Shard } from './ci.js';
import { terminalJson, terminalText } from './terminal.js';
import { availableParallelism } from 'node:os';
import { setWasmTiers } from '../services/wasmTiers.js';

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
  --report FILE       write a report; the format follows the extension: .json, .csv (UTF-8 with a
                      byte order mark, a result id R1, R2, ... -- the numbers saved in a saved
                      assembly's resultIds, new pairs after them -- and a status column: the review
                      saved with the assembly, or with --baseline new or active), .html (.htm) or
                      .xml (JUnit XML for CI: one test suite per input, one test case per part pair
                      checked, failing for interferences, clearance violations and, unless
                      --undecided pass, undecided pairs; with --baseline only for new or worse
                      ones). With several inputs, {name} in FILE is replaced by each input's name
                      (its file name without .assembly.json or the extension); without it, "-<name>"
                      is inserted before the extension, except for .xml, which is then one file for
                      all inputs (written after the last). Inputs whose reports would be the same
                      file (a/gear.stl and b/gear.stl) are refused before anything is checked: check
                      them in separate runs, each with its own --report. May be given several times
                      (--report junit.xml --report reports/{name}.json), each to another file.
                      A report replaces only a regular file: never an input or a source file of
                      the run, a report this run wrote, a *.assembly.json file, a symbolic link,
                      a folder, a FIFO or a device (those are refused with a message)
  --baseline FILE     compare with accepted reports: FILE is a JSON report of an earlier check,
                      or the array --json prints for several inputs (each input is compared with
                      the report of its file name; {name} in FILE: one file per input, as with
                      --report). Only pairs that are new, or worse than there (a more severe
                      kind; an interference deeper, of a larger volume or now contained; a
                      clearance violation closer), fail the check; the summary lists the
                      resolved ones. An input without a baseline has every finding new. A FILE
                      that is not a report stops the run before anything is checked (status 2)
  --shard I/N         check only the I-th of N slices of the inputs (1 <= I <= N): the inputs
                      sorted by path as given, cut into N contiguous slices of sizes differing by
                      at most one, for N machines running the same command. With --json the
                      output is then always an array
  --json              print the JSON report to standard output: for each input its report, or
                      when it could not be checked {"format": "interfere-error", "input": FILE,
                      "exitCode": 2, "error": {"code", "message"}}; with several inputs an array
                      of one entry per input, in input order. The summary then goes to standard
                      error
  --no-pictures       no pictures in .html reports (by default each interference and clearance
                      violation, the first 50, is drawn as an inline SVG: the two parts where
                      they meet, the crossing triangles red)
  --tolerance MM      touch tolerance in millimetres: surfaces closer than this are contact.
                      Default: the assembly's setting, else 0.01 mm. CAD solids (STEP, IGES, BREP)
                      that overlap are an interference at any depth (fits within ±0.0015 mm of
                      line to line are contact); meshes given as such (STL) that overlap by less
                      than the tolerance are contact
  --refine on|off     where a CAD file's triangles are too coarse to decide a pair (a fit finer
                      than their chordal error), tessellate its bodies again finer, down to
                      0.0005 mm, until the kind is certain (default on). Off: such pairs are
                      reported as undecided
  --undecided fail|pass
                      whether pairs the triangles could not decide, even refined, fail the check
                      as a possible interference (fail, the default) or not (pass)
  --clearance MM      report pairs closer than MM millimetres as clearance violations (default:
                      the assembly's setting, else 0 = off)
  --contact-is-interference
                      report contacts as interferences
  --jobs N            processes that build trees in parallel (most: one per core; default: one
                      per core on more than two cores, else 1; ${defaultTreeJobs(CORES)} here; 1 builds in
                      this process)
  --max-triangles N   most triangles one body may have; one file, and the sources of one saved
                      assembly together, may have as many in all as the default, or N when N is
                      larger; larger inputs are refused with a message. At most 1,073,741,823.
                      Default: what 3/4 of this machine's memory holds at ${BYTES_PER_TRIANGLE} bytes a
                      triangle (import, trees and check), at most 50,000,000 per body and
                      100,000,000 in all: ${MACHINE_LIMITS.maxTrianglesPerBody.toLocaleString('en-US')} and ${MACHINE_LIMITS.maxTrianglesPerAssembly.toLocaleString('en-US')} here
  --import-timeout SECONDS
                      longest time OpenCascade may spend reading one STEP, IGES or BREP file
                      (default 300); a file that takes longer is stopped and reported
  --quiet             print nothing but errors (the exit status still tells; GitHub annotations
                      are still printed)
  --no-progress       no progress bar (it only shows on a terminal anyway)
  --timings           after the run, print on standard error where its time went: each phase's
                      start and length in milliseconds since the process started (start-up,
                      loading, OpenCascade's start, and per input reading and importing, trees,
                      the check and the reports)
  -h, --help          this text
  -v, --version       the version

In GitHub Actions (GITHUB_ACTIONS=true in the environment), every failing pair and every input
that could not be checked is also printed as an annotation, '::error file=INPUT,title=...::...'
(escaped as GitHub's workflow commands require), on standard output, or standard error with
--json.

Exit status:
  0  no interference and no clearance violation (contacts and ignored pairs allowed)
  1  an interference or a clearance violation was found, or (unless --undecided pass) a pair
     that the triangles could not decide; with --baseline, only such pairs that are new or worse
  2  an input could not be checked, or a report not written (the message names the file and
     the problem; the other inputs are still checked and reported); or standard output or error
     could not be written (a failed standard output stops the run; a reader that closed the pipe
     early gets no message); or the command line is wrong

Examples:
  interfere check bracket.assembly.json --report bracket-report.html
  interfere check *.assembly.json --report reports/{name}.json --quiet
  interfere check gearbox.step --clearance 0.5 --json > report.json
  interfere check models/*.assembly.json --shard 1/2 --baseline accepted.json --report junit.xml`;

interface Options {
  files: string[];
  reports: string[];
  baseline: string | null;
  shard: Shard | null;
  json: boolean;
  pictures: boolean;
  tolerance: number | undefined;
  clearance: number | undefined;
  contactIsInterference: boolean | undefined;
  jobs: number | undefined;
  limits: Partial<ImportLimits>;
  refine: boolean;
  undecided: UndecidedPolicy;
  quiet: boolean;
  progress: boolean;
  timings: boolean;
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
        report: { type: 'string', multiple: true },
        baseline: { type: 'string' },
        shard: { type: 'string' },
        json: { type: 'boolean' },
        'no-pictures': { type: 'boolean' },
        tolerance: { type: 'string' },
        clearance: { type: 'string' },
        'contact-is-interference': { type: 'boolean' },
        jobs: { type: 'string' },
        'max-triangles': { type: 'string' },
        'import-timeout': { type: 'string' },
        refine: { type: 'string' },
        undecided: { type: 'string' },
        quiet: { type: 'boolean', short: 'q' },
        'no-progress': { type: 'boolean' },
        timings: { type: 'boolean' },
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
  for (const r of values.report ?? []) checkReportTemplate(r);
  return {
    files,
    reports: values.report ?? [],
    baseline: values.baseline ?? null,
    shard: parseShard(values.shard),
    json: values.json ?? false,
    pictures: !values['no-pictures'],
    tolerance: parseNumber('--tolerance', values.tolerance),
    clearance: parseNumber('--clearance', values.clearance),
    contactIsInterference: values['contact-is-interference'] ? true : undefined,
    jobs: parseNumber('--jobs', values.jobs, true),
    limits: importLimits(parseMaxTriangles(values['max-triangles']), parseTimeout(values['import-timeout'])),
    refine: parseChoice('--refine', values.refine, ['on', 'off'] as const, 'on') === 'on',
    undecided: parseChoice('--undecided', values.undecided, ['fail', 'pass'] as const, 'fail'),
    quiet: values.quiet ?? false,
    progress: !values['no-progress'],
    timings: values.timings ?? false,
  };
}

/** A flag that takes one of a few words. */
function parseChoice<T extends string>(flag: string, text: string | undefined, choices: readonly T[], fallback: T): T {
  if (text === undefined) return fallback;
  if (!(choices as readonly string[]).includes(text)) throw new UsageError(`${flag} needs ${choices.join(' or ')}, got '${terminalText(text)}'`);
  return text as T;
}

/** One input's report in a format; `junit` is this input's suite alone (a {name} JUnit report). */
function renderReport(
  report: InterferenceReport, format: ReportFormat, junit: JunitInput, findings: ReportFindings, undecided: UndecidedPolicy,
  pictures: (() => ReadonlyMap<number, string>) | null,
): string {
  if (format === 'json') return reportToJson(report);
  if (format === 'csv') return reportToCsv(report, { statuses: csvStatuses(findings) });
  if (format === 'junit') return reportsToJunit([junit], { undecided });
  return reportToHtml(report, pictures !== null ? { pictures: pictures() } : {});
}

/** The CSV's status column from the command line: with a baseline, new (or worse) or active; else only ignored. */
function csvStatuses(findings: ReportFindings): (string | undefined)[] {
  return findings.findings.map((f) => (f.result.kind === 'ignored' ? 'ignored' : f.change === null ? undefined : f.change === 'same' ? 'active' : 'new'));
}

/**
 * Standard output and error: a write that fails (a closed pipe, a full disk) makes the status 2,
 * with a one-line message on standard error unless the reader closed the pipe (EPIPE: it has what
 * it wanted, or is gone) — never a stack trace. A failed standard output stops the run (what it
 * was for is lost); a failed standard error only stops the messages (reports and --json go on).
 */
const output = { failed: false, stdout: false, stderr: false, controller: new AbortController() };

function watchOutput(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    process.exitCode = 2;
    output.failed = true;
    if (output.stdout) return;
    output.stdout = true;
    output.controller.abort();
    if (e.code === 'EPIPE') return;
    const problem = e.code === 'ENOSPC' ? 'the disk is full' : e.code === 'EIO' ? 'input/output error' : e.message;
    say(process.stderr, `interfere: cannot write to standard output: ${terminalText(problem)}\n`);
  });
  process.stderr.on('error', () => {
    process.exitCode = 2;
    output.failed = true;
    output.stderr = true;
  });
}

/** Writes to a stream unless it has failed already. */
function say(stream: NodeJS.WriteStream, text: string): void {
  if (stream === process.stdout ? output.stdout : output.stderr) return;
  try {
    stream.write(text);
  } catch {
    // a stream destroyed under us: its 'error' handler has the failure
  }
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
    const label = stage === 'open' ? 'reading' : stage === 'trees' ? 'building trees' : stage === 'refine' ? 'refining undecided pairs' : 'checking pairs';
    const cols = process.stderr.columns ?? 80;
    const line = ` ${bar} ${label} ${terminalText(path.basename(file))}`.slice(0, Math.max(10, cols - 1));
    say(process.stderr, `\r${line}\x1b[K`);
    this.shown = true;
  }
  clear(): void {
    if (this.shown) say(process.stderr, '\r\x1b[K');
    this.shown = false;
  }
}

function fmt(n: number | null, digits: number): string {
  return n === null ? '' : n.toFixed(digits);
}

/** The summary of one checked file; every text from the file is escaped for the terminal. */
function summaryTable(result: CheckFileResult, findings: ReportFindings, baselineFile: string | null): string {
  const r = result.report;
  const s = r.summary;
  const lines: string[] = [];
  const tol = `${r.settings.touchToleranceMm} mm${r.settings.touchToleranceAuto ? ' (default)' : ''}`;
  lines.push(`${terminalText(path.basename(result.path))}: ${s.parts} parts, ${s.triangles.toLocaleString('en-US')} triangles, touch tolerance ${tol}` +
    (r.settings.clearanceMm > 0 ? `, clearance ${r.settings.clearanceMm} mm` : '') + `, ${s.elapsedMs} ms`);
  lines.push(`  ${s.interferences} interference(s), ${s.clearanceViolations} clearance violation(s), ${s.contacts} contact(s), ${s.ignored} ignored` +
    (s.undecided > 0 ? `, ${s.undecided} undecided` : ''));
  if (s.refinedPairs > 0 && s.finestDeflectionMm !== null) {
    lines.push(`  ${s.refinedPairs} pair(s) checked again on bodies tessellated finer, down to ${s.finestDeflectionMm} mm`);
  }
  const withBaseline = baselineFile !== null;
  if (withBaseline) {
    const failing = findings.findings.filter((f) => f.verdict === 'fail');
    const accepted = findings.findings.filter((f) => f.change === 'same' && f.result.kind !== 'ignored' && f.result.kind !== 'contact').length;
    lines.push(`  baseline ${terminalText(baselineFile)}: ${failing.filter((f) => f.change === 'new').length} new, ${failing.filter((f) => f.change === 'worse').length} worse, ` +
      `${accepted} as accepted, ${findings.resolved.length} resolved`);
  }
  const shown = findings.findings.filter((f) => f.result.kind !== 'ignored' && f.result.kind !== 'contact');
  const rows = shown.map((f) => f.result);
  // Parts by the name they have everywhere (src-core/assembly/displayName.ts), then their ids.
  const labels = new Map(r.parts.map((p) => [p.id, p.displayName !== p.id ? `${p.displayName} (${p.id})` : p.id] as const));
  const partText = (id: string): string => terminalText(labels.get(id) ?? id);
  if (rows.length > 0) {
    const header = ['id', 'kind', 'part a', 'part b', 'volume mm³', 'depth mm', 'distance mm', 'tri pairs', 'resolution mm', ...(withBaseline ? ['baseline'] : [])];
    const body = rows.map((x, k) => [
      shown[k]!.id,
      x.kind + (x.contained ? ' (contained)' : '') + (x.kind === 'undecided' && x.possibleKinds ? ` (${x.possibleKinds.join(' or ')})` : ''),
      partText(x.a),
      partText(x.b),
      fmt(x.volumeMm3, 3),
      fmt(x.depthMm, 3),
      fmt(x.distanceMm, 4),
      String(x.trianglePairs.length),
      x.resolutionMm === null ? 'as given'
        : x.kind === 'undecided' && x.separationRangeMm ? `${x.separationRangeMm[0].toFixed(4)}…${x.separationRangeMm[1].toFixed(4)}`
          : `±${x.resolutionMm.toFixed(4)}${x.refinedDeflectionMm !== null ? ` (refined to ${x.refinedDeflectionMm})` : ''}`,
      ...(withBaseline ? [shown[k]!.change === 'same' ? 'accepted' : shown[k]!.change === 'worse' ? `worse (${shown[k]!.baselineNote.replace(/^worse than the baseline: /, '')})` : 'new'] : []),
    ]);
    // (a loop, not Math.max(...rows): a spread of every row overflows the stack for large results)
    const widths = header.map((h, i) => body.reduce((w, row) => Math.max(w, row[i].length), h.length));
    const line = (cells: string[]): string => '  ' + cells.map((c, i) => (i >= 4 && i <= 8 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
    lines.push(line(header));
    lines.push('  ' + widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of body) lines.push(line(row));
  }
  for (const x of findings.resolved) {
    lines.push(`  resolved since the baseline: ${terminalText(x.was.a)} / ${terminalText(x.was.b)} (was ${x.was.kind}, now ${x.now})`);
  }
  for (const w of r.warnings) lines.push(`  warning: ${terminalText(w)}`);
  return lines.join('\n');
}

/** The error codes of failed inputs in --json (the app's codes for the same failures). */
function errorCode(e: unknown): string {
  if (e instanceof FileError) return e.code === 'ENOENT' ? 'not-found' : e.code === 'EACCES' || e.code === 'EPERM' ? 'permission-denied' : 'file-error';
  if (e instanceof AssemblyError) return 'invalid-assembly';
  if (e instanceof ImportError) return 'import-failed';
  if (e instanceof PartError) return 'invalid-part';
  if (e instanceof TreeBuildError) return e.code === 'crashed' || e.code === 'start-failed' ? 'compute-crashed' : 'tree-build-failed';
  if (e instanceof ReportError) return 'report-failed';
  return 'internal';
}

/** The --json entry of an input that could not be checked. */
function errorEntry(file: string, code: string, message: string): string {
  return JSON.stringify({ format: 'interfere-error', version: 1, input: file, exitCode: 2, error: { code, message } }, null, 2);
}

/** A message that names the file: the error's own when it does, else prefixed with the path. */
function naming(file: string, message: string): string {
  return message.includes(path.basename(file)) ? message : `${file}: ${message}`;
}

export async function main(argv: string[]): Promise<number> {
  const clock = new Timings(() => sharedOcctWorkerProvider().stats);
  let opts: Options | 'help' | 'version';
  try {
    opts = parseOptions(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      say(process.stderr, `interfere: ${terminalText(e.message)}\nRun 'interfere --help' for usage.\n`);
      return 2;
    }
    throw e;
  }
  if (opts === 'help') {
    say(process.stdout, `${HELP}\n`);
    return 0;
  }
  if (opts === 'version') {
    say(process.stdout, `${APP_NAME} ${APP_VERSION}\n`);
    return 0;
  }
  const o = opts;
  // OpenCascade's worker compiles its wasm while the inputs are read (the launcher may have started it already).
  // Otherwise (meshes) manifold-3d compiles in the volume worker while they are read, for the
  // interference volumes; an unused worker costs a compile on the other core, never the wait.
  const wantsOcct = processWantsOpenCascade(['check', ...o.files]);
  if (wantsOcct) sharedOcctWorkerProvider().warm();
  else prestartVolumeWorker();
  if (o.jobs !== undefined && o.jobs > CORES) {
    process.stderr.write(`interfere: --jobs ${o.jobs} is more than the ${CORES} cores of this machine; using ${CORES}\n`);
    o.jobs = CORES;
  }
  const files = shardInputs(o.files, o.shard);
  let plans: ReportPlan[];
  let baselines: Baselines | null = null;
  try {
    plans = planReportSet(o.reports, files);
    if (o.baseline !== null) baselines = await Baselines.load(o.baseline, files);
  } catch (e) {
    if (e instanceof UsageError) {
      say(process.stderr, `interfere: ${terminalText(e.message)}\n`);
      return 2;
    }
    throw e;
  }
  const out = o.json ? process.stderr : process.stdout;
  if (o.shard !== null && !o.quiet) {
    say(process.stderr, `interfere: shard ${o.shard.index}/${o.shard.count}: ${files.length} of ${o.files.length} input(s)\n`);
  }
  /** GitHub Actions annotations: one line each, on standard output unless it carries --json. */
  const annotate = process.env['GITHUB_ACTIONS'] === 'true';
  const annotations = o.json ? process.stderr : process.stdout;
  /** Every input's suite, for the JUnit reports of all inputs. */
  const suites: JunitInput[] = [];
  const progress = new Progress(o.progress && !o.quiet && process.stderr.isTTY === true);
  const controller = output.controller;
  const onSignal = (): void => controller.abort();
  process.once('SIGINT', onSignal);
  const protect = new ProtectedFiles();
  if (plans.length > 0) await protect.addInputs(files);
  const builder = createTreeBuilder({ jobs: o.jobs ?? defaultTreeJobs(CORES) });
  const importer = createImporter({ limits: o.limits });
  /** With --json, the entry of each input, in input order. */
  const entries: string[] = [];
  let status = 0;
  const fail = (file: string, code: string, message: string): void => {
    say(process.stderr, `interfere: ${terminalText(message)}\n`);
    if (o.json) entries.push(errorEntry(file, code, message));
    if (annotate) say(annotations, `${annotation('error', { file: annotationPath(file), title: `Not checked: ${path.basename(file)}` }, message)}\n`);
    suites.push({ input: file, report: null, error: { code, message } });
    status = 2;
  };
  /** Writes one report file; a failure is status 2 with a message, and the run goes on. */
  const writeReport = async (target: string, text: () => string, what: string): Promise<void> => {
    try {
      // A report path with folders of its own ({name} patterns in CI) gets them made.
      await makeOutputFolder(path.dirname(path.resolve(target)));
      await writeOutputFile(target, text(), { refuse: protect.refuse });
      await protect.add(target, what);
      if (!o.quiet) say(out, `  report: ${terminalText(target)}\n`);
    } catch (e) {
      say(process.stderr, `interfere: ${terminalText(e instanceof FileError ? e.message : naming(target, String((e as Error).message)))}\n`);
      status = 2;
    }
  };
  try {
    for (const [i, file] of files.entries()) {
      if (file.includes('\0')) {
        fail(file, 'invalid-path', `${file}: the path contains a NUL character`);
        continue;
      }
      let result: CheckFileResult;
      const startMs = performance.now();
      const occtStats = sharedOcctWorkerProvider().stats;
      const occtReadBefore = occtStats.readMs;
      /** OpenCascade's reads of the input itself (not those of refinement, later). */
      let occtReadMs: number | null = null;
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
          refine: o.refine,
          // Meshes (no OpenCascade to share the cores with): their volumes' solids are made while they are read.
          prefetchVolumes: !wantsOcct,
          onProgress: (stage, done, total) => {
            if (stage !== 'open' && occtReadMs === null) occtReadMs = occtStats.readMs - occtReadBefore;
            progress.update(file, stage, done, total);
          },
        });
      } catch (e) {
        progress.clear();
        if ((e as Error).name === 'AbortError') {
          if (!output.stdout) say(process.stderr, 'interfere: cancelled\n');
          return 2;
        }
        fail(file, errorCode(e), naming(file, e instanceof Error ? e.message : String(e)));
        continue;
      }
      progress.clear();
      const reportStart = performance.now();
      const times = clock.input({
        input: terminalText(file), startMs, occtReadMs: occtReadMs ?? occtStats.readMs - occtReadBefore,
        refineOcctReadMs: occtReadMs === null ? 0 : occtStats.readMs - occtReadBefore - occtReadMs,
        openMs: result.timings.openMs, treesMs: result.timings.treesMs, checkMs: result.timings.checkMs, phaseMs: result.check.phaseMs,
      });
      const report = result.report;
      if (o.json) entries.push(reportToJson(report));
      let comparison: BaselineComparison | null = null;
      if (baselines !== null) {
        const accepted = baselines.of(file);
        if (accepted === null && !o.quiet) {
          say(process.stderr, `interfere: ${terminalText(file)}: no baseline in ${terminalText(baselines.fileOf(file))}: every finding is new\n`);
        }
        comparison = compareWithBaseline(report, accepted ?? { results: [] });
      }
      const findings = reportFindings(report, o.undecided, comparison);
      if (status !== 2) status = Math.max(status, findings.exitCode);
      if (!o.quiet) say(out, `${summaryTable(result, findings, baselines !== null ? baselines.fileOf(file) : null)}\n`);
      if (annotate) {
        for (const f of findings.findings) {
          if (f.verdict !== 'fail') continue;
          const title = `${f.result.kind === 'clearance' ? 'Clearance violation' : f.result.kind === 'undecided' ? 'Undecided pair' : 'Interference'}: ${f.result.a} / ${f.result.b}`;
          const note = f.baselineNote ? ` (${f.baselineNote})` : '';
          say(annotations, `${annotation('error', { file: annotationPath(file), title }, `${f.message}${note} in ${report.assembly}`)}\n`);
        }
      }
      const junit: JunitInput = { input: file, report, baseline: comparison, ...(baselines !== null ? { baselineFile: baselines.fileOf(file) } : {}) };
      suites.push(junit);
      if (plans.length > 0 && result.kind === 'assembly') {
        await protect.addSources(file, result.assembly.doc.sources.map((s) => s.path));
      }
      let pictured: ReadonlyMap<number, string> | null = null;
      const pictures = o.pictures ? () => (pictured ??= reportPictures(report, (id) => result.pictureBodies.get(id) ?? null)) : null;
      for (const plan of plans) {
        if (plan.combined !== null) continue;
        await writeReport(plan.targets[i]!, () => renderReport(report, plan.format, junit, findings, o.undecided, pictures), `the report of ${file}, written by this run`);
      }
      times.reportMs = performance.now() - reportStart;
    }
    for (const plan of plans) {
      if (plan.combined === null) continue;
      await writeReport(plan.combined, () => reportsToJunit(suites, { undecided: o.undecided }), 'the JUnit report of this run');
    }
  } finally {
    process.off('SIGINT', onSignal);
    await builder.dispose();
  }
  if (o.json) {
    const text = files.length === 1 && o.shard === null ? entries[0] : entries.length === 0 ? '[]' : `[\n${entries.join(',\n')}\n]`;
    say(process.stdout, `${terminalJson(text)}\n`);
  }
  if (o.timings) say(process.stderr, `${clock.render()}\n`);
  return status;
}

// The launcher did this already (the program can also be run without it).
setWasmTiers(processWantsOpenCascade(process.argv.slice(2)));

watchOutput();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = output.failed ? 2 : code;
  },
  (e: unknown) => {
    say(process.stderr, `interfere: unexpected error: ${(e instanceof Error ? (e.stack ?? e.message) : String(e)).split('\n').map(terminalText).join('\n')}\n`);
    process.exitCode = 2;
  },
);
