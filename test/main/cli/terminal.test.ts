/**
 * What `interfere` prints: control and bidirectional characters from files and paths appear as
 * visible escapes, never raw; reports carry no NUL; a failed write on standard output ends the run
 * with status 2 and at most one line on standard error, never a stack trace.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseReport } from '../../../src-core/report/index';
import { CLI, CUBE_STL, DATA, ensureBuilt, INTERFERING, run, tempDir, writeCubeAssembly } from './cliSupport';

beforeAll(() => ensureBuilt(), 60_000);

/** Control characters (C0 but line feed, DEL, C1) and bidirectional formatting characters. */
// eslint-disable-next-line no-control-regex -- finding them is the point
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Sets the window title, clears the screen, prints a fake summary line, then reverses the text. */
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\r0 interference(s)\u202e\u0000\u009b31m';
const ESCAPED = '\\x1b]0;pwned\\x07\\x1b[2J\\x0d0 interference(s)\\u202e\\x00\\x9b31m';

describe('terminal output', () => {
  it('escapes a hostile file name in the summary, the progress-free output and the report line', () => {
    const dir = tempDir();
    const name = `${HOSTILE.replace('\u0000', '')}.stl`; // a file name cannot hold a NUL
    const file = path.join(dir, name);
    copyFileSync(CUBE_STL, file);
    const r = run(['check', file, '--report', path.join(dir, 'r.json')]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).toContain(`${ESCAPED.replace('\\x00', '')}.stl: 1 parts`);
    // The only line that says how many interferences there are is the real one.
    expect(r.stdout.split('\n').filter((l) => /^\s*\d+ interference\(s\)/.test(l))).toEqual(['  0 interference(s), 0 clearance violation(s), 0 contact(s), 0 ignored']);
  });

  // The progress bar shows only on a terminal: `script` gives the command one (Linux util-linux).
  const hasScript = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;
  it.skipIf(!hasScript)('escapes the file name in the progress bar on a terminal', () => {
    const dir = tempDir();
    const file = path.join(dir, 'gear\u001b]0;pwned\u0007\u202e.stl');
    copyFileSync(path.join(DATA, 'stl-models/objects/gearwheel.bin.stl'), file);
    const command = `stty cols 200; exec "$0" "$1" check "$2"`;
    const r = spawnSync('script', ['-qec', `bash -c '${command}' '${process.execPath}' '${CLI}' '${file}'`, '/dev/null'], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('reading gear\\x1b]0;pwned\\x07\\u202e.stl');
    // What remains raw is the bar's own line handling: carriage returns, line feeds and ESC [K.
    const rest = r.stdout.split('\u001b[K').join('').replace(/[\r\n]/g, '');
    expect(rest).not.toMatch(RAW);
  });

  it("escapes a message that quotes the file's text (a missing source's path)", () => {
    const dir = tempDir();
    const input = writeCubeAssembly(path.join(dir, 'a.assembly.json'), INTERFERING, `missing${HOSTILE}.stl`);
    const r = run(['check', input]);
    expect(r.status).toBe(2);
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stderr).toContain(`missing${ESCAPED}.stl`);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a part id with control or bidirectional characters is refused at reading, naming the line and field', () => {
    const dir = tempDir();
    const input = writeCubeAssembly(path.join(dir, 'a.assembly.json'), [{ id: 'a', x: 0 }, { id: `b${HOSTILE}`, x: 1 }]);
    const r = run(['check', input, '--json']);
    expect(r.status).toBe(2);
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stderr).toMatch(/a\.assembly\.json:\d+: parts\[1\]\.id: the part id contains the control character U\+001B at position 2/);
  });

  it('names with such characters survive in --json (as \\u escapes) and the CSV holds no NUL', () => {
    const dir = tempDir();
    const input = writeCubeAssembly(path.join(dir, 'a.assembly.json'), [{ id: 'a', name: `left${HOSTILE}`, x: 0 }, { id: 'b', name: 'right\u202e\u0000', x: 1 }]);
    const r = run(['check', input, '--json', '--report', path.join(dir, 'r.csv')]);
    expect(r.status).toBe(1);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).toContain('\\u202e');
    const report = parseReport(r.stdout);
    expect(report.parts.map((p) => p.name)).toEqual([`left${HOSTILE}`, 'right\u202e\u0000']);
    const csv = readFileSync(path.join(dir, 'r.csv'));
    expect(csv.includes(0)).toBe(false);
    const text = csv.toString('utf8');
    expect(text).toContain('right\u202e\uFFFD');
    expect(text).toContain(`left${HOSTILE.replace('\u0000', '\uFFFD')}`);
  });
});

describe('standard output that cannot be written', () => {
  it.skipIf(!existsSync('/dev/full'))('--json > /dev/full: status 2 and one line on standard error', () => {
    const input = writeCubeAssembly(path.join(tempDir(), 'a.assembly.json'), INTERFERING);
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [CLI, 'check', input, '--json', '--quiet'], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8', timeout: 60_000 });
      expect(r.status).toBe(2);
      expect(r.stderr).toBe('interfere: cannot write to standard output: the disk is full\n');
    } finally {
      closeSync(full);
    }
  });

  it.skipIf(!existsSync('/dev/full'))('standard error on /dev/full: status 2, and the --json report on standard output is whole', () => {
    const input = writeCubeAssembly(path.join(tempDir(), 'a.assembly.json'), INTERFERING);
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [CLI, 'check', input, '--json'], { stdio: ['ignore', 'pipe', full], encoding: 'utf8', timeout: 60_000 });
      expect(r.status).toBe(2);
      expect(parseReport(r.stdout).summary.interferences).toBe(1);
    } finally {
      closeSync(full);
    }
  });

  it.skipIf(process.platform === 'win32')('a reader that closes the pipe early (| head -c 10): status 2, no stack trace', () => {
    const input = path.join(DATA, 'assemblies/as1-oc-214-moved.assembly.json'); // about 200 kB of JSON, more than a pipe holds
    const dir = tempDir();
    const r = spawnSync('bash', ['-c', '"$0" "$1" check "$2" --json --quiet 2>"$3" | head -c 10; exit "${PIPESTATUS[0]}"', process.execPath, CLI, input, path.join(dir, 'err')], {
      encoding: 'utf8', timeout: 120_000,
    });
    expect(r.stdout).toBe('{\n  "forma');
    expect(readFileSync(path.join(dir, 'err'), 'utf8')).toBe('');
    expect(r.status).toBe(2);
  }, 120_000);

  it.skipIf(process.platform === 'win32')('a reader that is gone before anything is written: status 2, nothing on standard error', async () => {
    const input = writeCubeAssembly(path.join(tempDir(), 'a.assembly.json'), INTERFERING);
    const child = spawn(process.execPath, [CLI, 'check', input, '--json', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const status = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    expect(stderr).toBe('');
    expect(status).toBe(2);
  }, 120_000);

  it('the exit status table of --help tells both', () => {
    const help = run(['--help']).stdout;
    expect(help).toMatch(/2 {2}an input could not be checked/);
    expect(help).toMatch(/standard output or error\s+could not be written/);
  });
});
