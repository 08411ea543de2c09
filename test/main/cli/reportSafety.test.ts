/**
 * `interfere check --report` never destroys a file: not an input, not a source, not a saved
 * assembly, not a link, FIFO, device or folder, not another input's report; temporary files of a
 * killed run are removed by later runs; report folders that cannot be made get a precise message.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseReport } from '../../../src-core/report/index';
import { FileError, makeOutputFolder, STALE_TEMP_MS, writeOutputFile } from '../../../src-main/services/files';
import { CLEAR, CUBE_STL, ensureBuilt, INTERFERING, run, tempDir, writeCubeAssembly } from './cliSupport';

const posix = process.platform !== 'win32';
const isRoot = process.getuid?.() === 0;

beforeAll(() => ensureBuilt(), 60_000);

function temps(dir: string): string[] {
  return readdirSync(dir).filter((n) => n.startsWith('.interfere-tmp-'));
}

describe('a report never replaces an input', () => {
  it('refuses the input assembly itself, under other spellings, through {name} and through a hard link', () => {
    const dir = tempDir();
    const input = writeCubeAssembly(path.join(dir, 'gear.json'), INTERFERING);
    const before = readFileSync(input, 'utf8');
    const cases: string[][] = [
      ['check', input, '--report', input],
      ['check', input, '--report', path.join(dir, 'sub', '..', 'gear.json')],
      ['check', input, '--report', path.join(dir, '{name}.json')],
    ];
    if (posix) {
      linkSync(input, path.join(dir, 'other-name.json'));
      cases.push(['check', input, '--report', path.join(dir, 'other-name.json')]);
    }
    for (const args of cases) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^interfere: .*(gear|other-name)\.json.*(is the input|an input of this run)/m);
      expect(readFileSync(input, 'utf8')).toBe(before);
    }
    expect(temps(dir)).toEqual([]);
  });

  it('refuses an input model file (an STL read by its content, named like a report)', () => {
    const dir = tempDir();
    const model = path.join(dir, 'mesh.csv');
    writeFileSync(model, readFileSync(CUBE_STL));
    for (const report of [model, path.join(dir, '{name}.csv')]) {
      const r = run(['check', model, '--report', report]);
      expect(r.status, report).toBe(2);
      expect(r.stderr).toContain(`the report of ${model} would be ${model}, which is the input ${model}`);
    }
    expect(readFileSync(model)).toEqual(readFileSync(CUBE_STL));
  });

  it('refuses reports named *.assembly.json, with or without {name}', () => {
    const dir = tempDir();
    const input = writeCubeAssembly(path.join(dir, 'gear.assembly.json'), INTERFERING);
    const before = readFileSync(input, 'utf8');
    for (const report of [input, path.join(dir, '{name}.assembly.json'), path.join(dir, 'new.Assembly.JSON')]) {
      const r = run(['check', input, '--report', report]);
      expect(r.status, report).toBe(2);
      expect(r.stderr).toMatch(/a report is not named \*\.assembly\.json/);
      expect(r.stdout).toBe(''); // refused before anything was checked
    }
    expect(readFileSync(input, 'utf8')).toBe(before);
    expect(existsSync(path.join(dir, 'new.Assembly.JSON'))).toBe(false);
  });

  it("refuses a source file of an input assembly (a source is read by content, whatever its name)", () => {
    const dir = tempDir();
    const source = path.join(dir, 'mesh.csv');
    writeFileSync(source, readFileSync(CUBE_STL));
    const input = writeCubeAssembly(path.join(dir, 'a.assembly.json'), CLEAR, 'mesh.csv');
    const r = run(['check', input, '--report', source]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${source}: this is a source file of ${input}; no report is written over it`);
    expect(readFileSync(source)).toEqual(readFileSync(CUBE_STL));
  });
});

describe('a report replaces only a regular file', () => {
  it.skipIf(!posix)('refuses a symbolic link (to an input or anywhere), a FIFO and a folder, and leaves each as it was', () => {
    const dir = tempDir();
    const input = writeCubeAssembly(path.join(dir, 'in.assembly.json'), CLEAR);
    const before = readFileSync(input, 'utf8');
    const elsewhere = path.join(dir, 'elsewhere.txt');
    writeFileSync(elsewhere, 'keep me');
    symlinkSync(input, path.join(dir, 'to-input.json'));
    symlinkSync(elsewhere, path.join(dir, 'to-elsewhere.csv'));
    symlinkSync(path.join(dir, 'nothing-there'), path.join(dir, 'dangling.json'));
    expect(spawnSync('mkfifo', [path.join(dir, 'fifo.json')]).status).toBe(0);
    mkdirSync(path.join(dir, 'folder.html'));
    const expected: Record<string, RegExp> = {
      'to-input.json': /this is a symbolic link/,
      'to-elsewhere.csv': /this is a symbolic link/,
      'dangling.json': /this is a symbolic link/,
      'fifo.json': /this is a named pipe \(FIFO\), not a regular file/,
      'folder.html': /this is a folder, not a regular file/,
    };
    for (const [name, message] of Object.entries(expected)) {
      const target = path.join(dir, name);
      const r = run(['check', input, '--report', target], { timeout: 60_000 });
      expect(r.status, name).toBe(2);
      expect(r.stderr).toContain(`interfere: ${target}: `);
      expect(r.stderr, name).toMatch(message);
    }
    expect(readFileSync(input, 'utf8')).toBe(before);
    expect(readFileSync(elsewhere, 'utf8')).toBe('keep me');
    for (const name of ['to-input.json', 'to-elsewhere.csv', 'dangling.json']) expect(lstatSync(path.join(dir, name)).isSymbolicLink()).toBe(true);
    expect(existsSync(path.join(dir, 'nothing-there'))).toBe(false);
    expect(lstatSync(path.join(dir, 'fifo.json')).isFIFO()).toBe(true);
    expect(lstatSync(path.join(dir, 'folder.html')).isDirectory()).toBe(true);
    expect(temps(dir)).toEqual([]);
  }, 120_000);

  // Making a device node needs root; this is how /dev/full was once replaced by a report.
  it.skipIf(!posix || !isRoot)('refuses a device', () => {
    const dir = tempDir();
    const input = writeCubeAssembly(path.join(dir, 'in.assembly.json'), CLEAR);
    const device = path.join(dir, 'full.json');
    expect(spawnSync('mknod', [device, 'c', '1', '7']).status).toBe(0);
    const r = run(['check', input, '--report', device]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${device}: this is a device, not a regular file`);
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
  });

  it.skipIf(!posix)('replaces a regular report file, keeping its permissions, and writes a 250-character name', () => {
    const dir = tempDir();
    const input = writeCubeAssembly(path.join(dir, 'in.assembly.json'), INTERFERING);
    const old = path.join(dir, 'old.json');
    writeFileSync(old, 'previous report');
    chmodSync(old, 0o640);
    expect(run(['check', input, '--report', old, '--quiet']).status).toBe(1);
    expect(parseReport(readFileSync(old, 'utf8')).summary.interferences).toBe(1);
    expect(statSync(old).mode & 0o777).toBe(0o640);
    const long = path.join(dir, `${'r'.repeat(245)}.json`);
    expect(path.basename(long)).toHaveLength(250);
    const r = run(['check', input, '--report', long]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    expect(parseReport(readFileSync(long, 'utf8')).summary.interferences).toBe(1);
    expect(temps(dir)).toEqual([]);
  });
});

describe('several inputs with one --report', () => {
  it('refuses, before checking anything, inputs whose reports would be one file', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'x'));
    mkdirSync(path.join(dir, 'y'));
    const bad = writeCubeAssembly(path.join(dir, 'x', 'gear.assembly.json'), INTERFERING);
    const good = writeCubeAssembly(path.join(dir, 'y', 'gear.assembly.json'), CLEAR);
    const out = path.join(dir, 'out');
    for (const report of [path.join(out, '{name}.json'), path.join(out, 'r.csv')]) {
      const r = run(['check', bad, good, '--report', report]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`${bad} and ${good} have the same name, so both reports would be ${path.join(out, report.endsWith('.csv') ? 'r-gear.csv' : 'gear.json')}; nothing was checked`);
      expect(r.stdout).toBe('');
    }
    const twice = run(['check', good, good, '--report', path.join(out, '{name}.json')]);
    expect(twice.status).toBe(2);
    expect(twice.stderr).toContain(`${good} is given twice`);
    expect(existsSync(out)).toBe(false);
    // Distinct names: one report each, and the status is the worst of them.
    const distinct = writeCubeAssembly(path.join(dir, 'y', 'clear.assembly.json'), CLEAR);
    const r = run(['check', bad, distinct, '--report', path.join(out, '{name}.json'), '--quiet']);
    expect(r.status).toBe(1);
    expect(parseReport(readFileSync(path.join(out, 'gear.json'), 'utf8')).summary.interferences).toBe(1);
    expect(parseReport(readFileSync(path.join(out, 'clear.json'), 'utf8')).summary.interferences).toBe(0);
  });

  // Two report paths that are one file (here a folder linked to another; a case-insensitive file
  // system does the same with Gear and gear): the second report is refused, the first kept.
  it.skipIf(!posix)('refuses a report that would replace the report another input wrote in the same run', () => {
    const dir = tempDir();
    const bad = writeCubeAssembly(path.join(dir, 'bad.assembly.json'), INTERFERING);
    const good = writeCubeAssembly(path.join(dir, 'good.assembly.json'), CLEAR);
    const out = path.join(dir, 'out');
    mkdirSync(path.join(out, 'bad'), { recursive: true });
    symlinkSync('bad', path.join(out, 'good'));
    const r = run(['check', bad, good, '--report', path.join(out, '{name}', 'report.json'), '--quiet']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${path.join(out, 'good', 'report.json')}: this is the report of ${bad}, written by this run`);
    expect(parseReport(readFileSync(path.join(out, 'bad', 'report.json'), 'utf8')).summary.interferences).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------
// A writer killed before its rename

const FILES_MODULE = pathToFileURL(path.resolve(process.cwd(), 'src-main/services/files.ts')).href;
const HANGING_WRITER = `
import { writeOutputFile, nodeAtomicFs } from ${JSON.stringify(FILES_MODULE)};
setInterval(() => {}, 1000);
const fs = { ...nodeAtomicFs, rename: async () => { process.send('before-rename'); await new Promise(() => {}); } };
await writeOutputFile(process.argv[2], 'R'.repeat(1 << 20), { fs });
`;

async function killedWriter(dir: string, target: string): Promise<string> {
  const script = path.join(dir, 'writer.mjs');
  writeFileSync(script, HANGING_WRITER);
  const child: ChildProcess = fork(script, [target], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const earlier = new Set(temps(path.dirname(target)));
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`writer exited early (${code})`)));
  });
  const left = temps(path.dirname(target)).filter((n) => !earlier.has(n));
  child.kill('SIGKILL');
  await exited;
  expect(left).toHaveLength(1);
  return path.join(path.dirname(target), left[0]);
}

describe('temporary files of a killed run', () => {
  it('are short and recognisable, and a later report into the folder removes those of dead processes older than the limit', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'reports');
    mkdirSync(out);
    const stale = await killedWriter(dir, path.join(out, `${'x'.repeat(245)}.json`));
    expect(path.basename(stale)).toMatch(/^\.interfere-tmp-\d+-[0-9a-f]{12}$/);
    expect(readFileSync(stale, 'utf8')).toHaveLength(1 << 20); // the whole report, written and flushed
    const fresh = await killedWriter(dir, path.join(out, 'other.json'));
    const old = (Date.now() - STALE_TEMP_MS - 60_000) / 1000;
    utimesSync(stale, old, old);
    // A temporary file of a process that is still running (this one) is kept however old.
    const live = path.join(out, `.interfere-tmp-${process.pid}-0123456789ab`);
    writeFileSync(live, 'partial');
    utimesSync(live, old, old);
    const input = writeCubeAssembly(path.join(dir, 'in.assembly.json'), CLEAR);
    expect(run(['check', input, '--report', path.join(out, 'r.json'), '--quiet']).status).toBe(0);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(path.join(out, 'r.json'))).toBe(true);
  }, 120_000);
});

describe('report folders and paths', () => {
  it('names the path when the report folder cannot be made: part of it is a file', () => {
    const dir = tempDir();
    const input = writeCubeAssembly(path.join(dir, 'in.assembly.json'), CLEAR);
    writeFileSync(path.join(dir, 'plain'), 'x');
    const target = path.join(dir, 'plain', 'sub', 'r.json');
    const r = run(['check', input, '--report', target]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`interfere: ${path.join(dir, 'plain', 'sub')}: part of the path is a file, not a folder`);
    expect(r.stderr).not.toMatch(/ENOTDIR|EEXIST|mkdir/);
  });

  // A folder where nobody may make folders: a read-only one for a user, /sys for root.
  it.skipIf(!posix)('names the folder that cannot be made inside a read-only folder', () => {
    const dir = tempDir();
    const input = writeCubeAssembly(path.join(dir, 'in.assembly.json'), CLEAR);
    let parent: string;
    if (isRoot) {
      parent = '/sys';
      if (!existsSync(parent)) return;
    } else {
      parent = path.join(dir, 'ro');
      mkdirSync(parent);
      chmodSync(parent, 0o555);
    }
    const target = path.join(parent, 'interfere-reports', 'deeper', 'r.json');
    const r = run(['check', input, '--report', target]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`interfere: ${path.join(parent, 'interfere-reports')}: permission denied`);
    expect(r.stderr).not.toMatch(/EACCES|EPERM|mkdir/);
  });

  it('a NUL in a report path or folder is refused with a message naming it', async () => {
    // The command line cannot carry a NUL (the OS ends arguments there); the writer refuses it anyway.
    const dir = tempDir();
    const bad = path.join(dir, 'a\0b.json');
    const write = await writeOutputFile(bad, 'x').catch((e: unknown) => e);
    expect(write).toBeInstanceOf(FileError);
    expect((write as FileError).message).toBe(`${bad}: the path contains a NUL character`);
    const folder = await makeOutputFolder(path.join(dir, 'a\0b')).catch((e: unknown) => e);
    expect((folder as FileError).problem).toBe('the path contains a NUL character');
    expect(readdirSync(dir)).toEqual([]);
  });
});
