import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync, chmodSync, statSync, symlinkSync, lstatSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { FileError, nodeAtomicFs, readFileChecked, removeStaleTempFiles, writeFileAtomic } from '../../../src-main/services/files.js';
import type { AtomicFs, FileRead } from '../../../src-main/services/files.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'interfere-files-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function rejection(p: Promise<unknown>): Promise<FileError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(FileError);
    return err as FileError;
  }
  throw new Error('expected a rejection');
}

/** Files in the folder other than the target: temporary files left behind. */
function leftovers(target: string): string[] {
  return readdirSync(path.dirname(target)).filter((n) => n !== path.basename(target));
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

describe('readFileChecked', () => {
  it('reads the bytes', async () => {
    const file = path.join(dir, 'a.bin');
    writeFileSync(file, Buffer.from([1, 2, 3]));
    const bytes = await readFileChecked(file);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect([...bytes]).toEqual([1, 2, 3]);
  });

  it('a missing file: "file not found", naming the path', async () => {
    const file = path.join(dir, 'missing.stl');
    const err = await rejection(readFileChecked(file));
    expect(err.message).toBe(`${file}: file not found`);
    expect(err.problem).toBe('file not found');
    expect(err.code).toBe('ENOENT');
    expect(err.path).toBe(file);
  });

  it('a folder, and a path through a file', async () => {
    expect((await rejection(readFileChecked(dir))).message).toBe(`${dir}: this is a folder, not a file`);
    const file = path.join(dir, 'f');
    writeFileSync(file, 'x');
    expect((await rejection(readFileChecked(path.join(file, 'g')))).problem).toBe('part of the path is not a folder');
  });

  // Skipped as root (root ignores file modes) and on Windows (no POSIX modes); the injected
  // EACCES cases below cover the message everywhere.
  it.skipIf(isRoot || process.platform === 'win32')('a file without read permission', async () => {
    const file = path.join(dir, 'secret');
    writeFileSync(file, 'x');
    chmodSync(file, 0o000);
    const err = await rejection(readFileChecked(file));
    expect(err.message).toBe(`${file}: permission denied`);
    expect(err.code).toBe('EACCES');
  });
});

describe('writeFileAtomic', () => {
  it('creates a new file and replaces an existing one, leaving no temporary file', async () => {
    const file = path.join(dir, 'doc.assembly.json');
    await writeFileAtomic(file, 'first');
    expect(readFileSync(file, 'utf8')).toBe('first');
    await writeFileAtomic(file, new Uint8Array([0x68, 0x69]));
    expect(readFileSync(file, 'utf8')).toBe('hi');
    await writeFileAtomic(file, '');
    expect(readFileSync(file, 'utf8')).toBe('');
    expect(leftovers(file)).toEqual([]);
  });

  // POSIX modes and symbolic links: not on Windows.
  it.skipIf(process.platform === 'win32')("keeps the previous file's permissions and writes through a symbolic link", async () => {
    const file = path.join(dir, 'doc.json');
    writeFileSync(file, 'old');
    chmodSync(file, 0o640);
    await writeFileAtomic(file, 'new');
    expect(statSync(file).mode & 0o777).toBe(0o640);

    const link = path.join(dir, 'link.json');
    symlinkSync(file, link);
    await writeFileAtomic(link, 'through the link');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('through the link');
  });

  it('a missing folder: a FileError naming the target', async () => {
    const file = path.join(dir, 'no', 'such', 'folder', 'x.json');
    const err = await rejection(writeFileAtomic(file, 'x'));
    expect(err.message).toBe(`${file}: the folder does not exist`);
  });

  // Skipped as root (root ignores file modes) and on Windows (no POSIX modes).
  it.skipIf(isRoot || process.platform === 'win32')('a read-only folder: permission denied, the old file intact', async () => {
    const sub = path.join(dir, 'ro');
    mkdirSync(sub);
    const file = path.join(sub, 'x.json');
    writeFileSync(file, 'old');
    chmodSync(sub, 0o555);
    try {
      const err = await rejection(writeFileAtomic(file, 'new'));
      expect(err.problem).toBe('permission denied');
      expect(readFileSync(file, 'utf8')).toBe('old');
    } finally {
      chmodSync(sub, 0o755);
    }
  });

  /** The node file system with one step made to fail. */
  function failing(step: 'rename' | 'write' | 'sync' | 'open'): AtomicFs {
    const fail = (): never => {
      throw Object.assign(new Error(`injected ${step} failure`), { code: 'EIO' });
    };
    if (step === 'rename') return { ...nodeAtomicFs, rename: async () => fail() };
    if (step === 'open') return { ...nodeAtomicFs, open: async () => fail() };
    return {
      ...nodeAtomicFs,
      async open(p, flags, mode) {
        const handle = await nodeAtomicFs.open(p, flags, mode);
        if (step === 'write') {
          // writes part of the data, then fails
          const realWrite = handle.write.bind(handle) as (b: Uint8Array, o: number, l: number, p: null) => Promise<{ bytesWritten: number }>;
          let calls = 0;
          (handle as unknown as { write: unknown }).write = async (b: Uint8Array, o: number, l: number, p: null) => {
            if (calls++ > 0) fail();
            return realWrite(b, o, Math.min(l, 3), p);
          };
        } else {
          (handle as unknown as { sync: unknown }).sync = async () => fail();
        }
        return handle;
      },
    };
  }

  for (const step of ['rename', 'write', 'sync', 'open'] as const) {
    it(`a failure at ${step}: the old file intact, the temporary file removed`, async () => {
      const file = path.join(dir, 'doc.assembly.json');
      writeFileSync(file, 'OLD CONTENT');
      const err = await rejection(writeFileAtomic(file, 'NEW CONTENT, LONGER THAN THE OLD', { fs: failing(step) }));
      expect(err.message).toBe(`${file}: input/output error`);
      expect(readFileSync(file, 'utf8')).toBe('OLD CONTENT');
      expect(leftovers(file)).toEqual([]);
    });
  }

  it('says what a system error code means (permission denied, disk full)', async () => {
    const file = path.join(dir, 'doc.json');
    writeFileSync(file, 'old');
    const withCode = (code: string): AtomicFs => ({ ...nodeAtomicFs, rename: async () => { throw Object.assign(new Error(code), { code }); } });
    expect((await rejection(writeFileAtomic(file, 'new', { fs: withCode('EACCES') }))).message).toBe(`${file}: permission denied`);
    expect((await rejection(writeFileAtomic(file, 'new', { fs: withCode('ENOSPC') }))).problem).toBe('the disk is full');
    expect((await rejection(writeFileAtomic(file, 'new', { fs: withCode('EWHATEVER') }))).problem).toBe('EWHATEVER (EWHATEVER)');
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(leftovers(file)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// A process killed in the middle of a write

const FILES_MODULE = pathToFileURL(path.resolve(process.cwd(), 'src-main/services/files.ts')).href;

/** A child script: `hang` stops just before the rename; `loop` rewrites the file for ever. */
const CHILD_SCRIPT = `
import { writeFileAtomic, nodeAtomicFs } from ${JSON.stringify(FILES_MODULE)};
const [target, mode] = process.argv.slice(2);
setInterval(() => {}, 1000);
if (mode === 'hang') {
  const fs = { ...nodeAtomicFs, rename: async () => { process.send('before-rename'); await new Promise(() => {}); } };
  await writeFileAtomic(target, 'NEW CONTENT', { fs });
} else {
  const a = 'A'.repeat(1 << 20), b = 'B'.repeat(1 << 20);
  process.send('started');
  for (let i = 0; ; i++) await writeFileAtomic(target, i % 2 === 0 ? a : b, { syncFolder: false });
}
`;

function startChild(script: string, target: string, mode: 'hang' | 'loop'): { child: ChildProcess; message: Promise<unknown>; exited: Promise<void> } {
  const child = fork(script, [target, mode], { execArgv: ['--import', 'tsx'], cwd: process.cwd(), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const message = new Promise<unknown>((resolve, reject) => {
    child.once('message', resolve);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`child exited early (${code})`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, message, exited };
}

describe('writeFileAtomic in a process that is killed', () => {
  let script: string;
  beforeEach(() => {
    script = path.join(dir, 'child.mjs');
    writeFileSync(script, CHILD_SCRIPT);
  });

  it('killed between the write and the rename: the old file intact; cleanup removes the temporary file', async () => {
    const work = path.join(dir, 'work');
    mkdirSync(work);
    const target = path.join(work, 'doc.assembly.json');
    writeFileSync(target, 'OLD CONTENT');
    const { child, message, exited } = startChild(script, target, 'hang');
    expect(await message).toBe('before-rename');
    const temps = leftovers(target);
    expect(temps).toHaveLength(1);
    expect(readFileSync(path.join(work, temps[0]), 'utf8')).toBe('NEW CONTENT'); // written and flushed
    child.kill('SIGKILL');
    await exited;
    expect(readFileSync(target, 'utf8')).toBe('OLD CONTENT');
    const removed = await removeStaleTempFiles(target);
    expect(removed).toEqual([path.join(work, temps[0])]);
    expect(leftovers(target)).toEqual([]);
    expect(readFileSync(target, 'utf8')).toBe('OLD CONTENT');
  });

  it('killed at random moments of repeated writes: the file is always one whole version', async () => {
    const work = path.join(dir, 'work');
    mkdirSync(work);
    const target = path.join(work, 'big.json');
    writeFileSync(target, 'OLD');
    const versions = new Set(['OLD', 'A'.repeat(1 << 20), 'B'.repeat(1 << 20)]);
    for (let round = 0; round < 3; round++) {
      const { child, message, exited } = startChild(script, target, 'loop');
      expect(await message).toBe('started');
      await new Promise((r) => setTimeout(r, 30 + 60 * round));
      child.kill('SIGKILL');
      await exited;
      expect(versions.has(readFileSync(target, 'utf8'))).toBe(true);
      await removeStaleTempFiles(target);
      expect(leftovers(target)).toEqual([]);
    }
  });
});

describe('removeStaleTempFiles', () => {
  it("removes temporary files of dead processes and of this one, keeps live processes' and other files", async () => {
    const target = path.join(dir, 'doc.json');
    writeFileSync(target, 'x');
    const mine = path.join(dir, `.doc.json.interfere-tmp-${process.pid}-abcdef`);
    const live = path.join(dir, `.doc.json.interfere-tmp-${process.ppid}-012345`);
    const dead = path.join(dir, '.doc.json.interfere-tmp-999999999-aa');
    const other = path.join(dir, '.other.json.interfere-tmp-999999999-aa');
    const unrelated = path.join(dir, '.doc.json.swp');
    for (const f of [mine, live, dead, other, unrelated]) writeFileSync(f, 'partial');
    const removed = await removeStaleTempFiles(target);
    expect(removed.sort()).toEqual([dead, mine].sort());
    expect(leftovers(target).sort()).toEqual([path.basename(live), path.basename(other), path.basename(unrelated)].sort());
  });

  it('a missing folder is nothing to clean', async () => {
    expect(await removeStaleTempFiles(path.join(dir, 'nope', 'x.json'))).toEqual([]);
  });
});

describe('readFileChecked: what was read', () => {
  it('reports the absolute path, size, modification time and SHA-256 of the bytes read', async () => {
    const big = new Uint8Array(200_000).map((_, i) => (i * 31) & 0xff); // more than the first chunk
    const file = path.join(dir, 'hashed.bin');
    writeFileSync(file, big);
    const seen: FileRead[] = [];
    const bytes = await readFileChecked(path.relative(process.cwd(), file), { onRead: (r) => seen.push(r) });
    expect(bytes.length).toBe(big.length);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.path).toBe(file);
    expect(seen[0]!.sizeBytes).toBe(big.length);
    expect(seen[0]!.sha256).toBe(createHash('sha256').update(big).digest('hex'));
    expect(seen[0]!.modifiedAt).toBe(new Date(statSync(file).mtimeMs).toISOString());
    // A file refused before it is read whole reports nothing.
    const refused: unknown[] = [];
    await expect(readFileChecked(file, { maxBytes: 10, onRead: (r) => refused.push(r) })).rejects.toThrow();
    expect(refused).toEqual([]);
    // An empty file hashes to the hash of nothing.
    const empty = path.join(dir, 'empty.bin');
    writeFileSync(empty, '');
    let emptyRead: FileRead | null = null;
    await readFileChecked(empty, { onRead: (r) => { emptyRead = r; } });
    expect(emptyRead).toMatchObject({ sizeBytes: 0, sha256: createHash('sha256').update(new Uint8Array(0)).digest('hex') });
  });
});
