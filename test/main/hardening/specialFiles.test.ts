/**
 * Only regular files are read, their size is checked before they are read, and no read is
 * unbounded: FIFOs, character devices (/dev/zero, /dev/urandom) and folders are refused at once
 * with a message naming the file, whether opened directly, imported or named by a saved
 * assembly; a FIFO cannot block a reader (nor, by holding Node's file threads, every later read);
 * a sparse file of 2 GiB is refused from its first bytes instead of being read whole.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, writeFileSync, ftruncateSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AssemblyError } from '../../../src-core/assembly/model.js';
import { ImportError } from '../../../src-core/io/types.js';
import { FileError, HEAD_BYTES, readFileChecked } from '../../../src-main/services/files.js';
import { openAny, readModelFile } from '../../../src-main/services/documents.js';
import { createImporter } from '../../../src-main/services/importers.js';
import { TEST_DATA, createTestHost, refusal, tempDir } from '../host/helpers.js';

const CUBE = path.join(TEST_DATA, 'stl-models/polytopes/cube.bin.stl');
const dir = tempDir('special-files');
const onPosix = process.platform !== 'win32';

function fifo(name: string): string {
  const p = path.join(dir, name);
  const r = spawnSync('mkfifo', [p]);
  if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr.toString()}`);
  return p;
}

/** A sparse file of `size` bytes, all zeros but for `head` at its start. */
function sparse(name: string, size: number, head: Uint8Array = new Uint8Array(0)): string {
  const p = path.join(dir, name);
  const fd = openSync(p, 'w');
  try {
    if (head.length > 0) writeFileSync(fd, head);
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
  return p;
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

/** Rejects after `ms` (a read that blocks would otherwise hang the test until vitest's timeout). */
function within<T>(ms: number, p: Promise<T>): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms).unref())]);
}

afterAll(() => {
  spawnSync('rm', ['-rf', dir]);
});

describe.runIf(onPosix)('only regular files are read', () => {
  it('refuses a FIFO at once, naming it, without waiting for a writer', async () => {
    const f = fifo('pipe.stl');
    const e = await within(3000, rejection(readFileChecked(f)));
    expect(e).toBeInstanceOf(FileError);
    expect(e.message).toBe(`${f}: this is not a regular file (a FIFO (named pipe)); only regular files can be read`);
    expect((e as FileError).code).toBe('ENOTREG');
  });

  it.runIf(existsSync('/dev/zero') && existsSync('/dev/urandom'))('refuses /dev/zero and /dev/urandom (character devices) before reading a byte', async () => {
    for (const device of ['/dev/zero', '/dev/urandom']) {
      const e = await within(3000, rejection(readFileChecked(device)));
      expect(e.message).toBe(`${device}: this is not a regular file (a character device); only regular files can be read`);
    }
  });

  it('keeps the folder message', async () => {
    const e = await rejection(readFileChecked(dir));
    expect(e.message).toBe(`${dir}: this is a folder, not a file`);
    expect((e as FileError).code).toBe('EISDIR');
  });

  it.runIf(existsSync('/dev/zero'))('refuses a saved assembly whose source is /dev/zero or a FIFO, naming the source', async () => {
    const pipe = fifo('source-pipe.stl');
    const file = path.join(dir, 'devices.assembly.json');
    for (const source of ['/dev/zero', pipe]) {
      writeFileSync(file, JSON.stringify({ format: 'interfere-assembly', version: 1, sources: [{ id: 'z', path: source }] }));
      const e = await within(5000, rejection(openAny(file, { importer: createImporter({ cad: 'in-thread' }) })));
      expect(e).toBeInstanceOf(AssemblyError);
      expect(e.message).toContain(`source 'z' (${source}): this is not a regular file (a ${source === pipe ? 'FIFO (named pipe)' : 'character device'})`);
    }
  });

  it('a host asked to open and import FIFOs many times over still opens a real file at once', async () => {
    const host = createTestHost({ allowedFolders: [dir, TEST_DATA] });
    try {
      const pipes = Array.from({ length: 8 }, (_, k) => fifo(`host-${k}.stl`));
      const opened = await within(10_000, Promise.all(pipes.map((p) => refusal(host.call('doc.open', { path: p })))));
      for (const [k, r] of opened.entries()) {
        expect(r.code).toBe('file-error');
        expect(r.message).toContain(`${pipes[k]}: this is not a regular file (a FIFO (named pipe))`);
      }
      const doc = await within(10_000, host.call('doc.open', { path: CUBE }));
      const imported = await within(10_000, refusal(host.call('doc.import', { docId: doc!.id, path: pipes[0] })));
      expect(imported.message).toContain('this is not a regular file (a FIFO (named pipe))');
      expect((await within(10_000, host.call('doc.open', { path: CUBE })))!.parts).toHaveLength(1);
    } finally {
      await host.service.dispose();
    }
  }, 40_000);
});

describe('sizes are checked before reading, and reads are bounded', () => {
  it('hands the first bytes and the size to beforeRead, passing its error on as it is', async () => {
    const file = sparse('head.bin', 3 * HEAD_BYTES, Uint8Array.of(1, 2, 3));
    const seen: [number, number, number][] = [];
    const mine = new Error('refused from the head');
    const e = await rejection(readFileChecked(file, {
      beforeRead: (head, size) => {
        seen.push([head.length, size, head[2]]);
        throw mine;
      },
    }));
    expect(e).toBe(mine);
    expect(seen).toEqual([[HEAD_BYTES, 3 * HEAD_BYTES, 3]]);
    const small = path.join(dir, 'small.bin');
    writeFileSync(small, Uint8Array.of(9, 8, 7));
    const heads: number[][] = [];
    expect([...await readFileChecked(small, { beforeRead: (head) => heads.push([...head]) })]).toEqual([9, 8, 7]);
    expect(heads).toEqual([[9, 8, 7]]);
  });

  it('refuses a file larger than maxBytes with a message, and reads a file of exactly maxBytes', async () => {
    const file = path.join(dir, 'eleven.bin');
    writeFileSync(file, new Uint8Array(11));
    const e = await rejection(readFileChecked(file, { maxBytes: 10 }));
    expect(e.message).toBe(`${file}: the file has 11 bytes, more than the 10 bytes that can be read`);
    expect((await readFileChecked(file, { maxBytes: 11 })).length).toBe(11);
  });

  it.runIf(existsSync('/proc/self/status'))('reads a regular file that reports no size (/proc) to its end, within the bound', async () => {
    const text = new TextDecoder().decode(await readFileChecked('/proc/self/status'));
    expect(text).toMatch(/^Name:/);
    const e = await rejection(readFileChecked('/proc/self/status', { maxBytes: 16 }));
    expect(e.message).toBe('/proc/self/status: the file grew to more than 16 bytes while it was read');
  });

  it('refuses a sparse binary STL of 2^31 − 1 zero bytes from its first 84 bytes: quickly, without reading it', async () => {
    const file = sparse('zeros.stl', 2 ** 31 - 1);
    const rss0 = process.memoryUsage().rss;
    const t0 = performance.now();
    const e = await rejection(openAny(file, { importer: createImporter({ cad: 'in-thread' }) }));
    const ms = performance.now() - t0;
    expect(e).toBeInstanceOf(ImportError);
    expect((e as ImportError).code).toBe('count-mismatch');
    expect(e.message).toBe(`${file}: binary STL triangle count does not match the file size: header says 0 triangles (84 bytes) ` +
      'but the file has 2,147,483,647 bytes (2,147,483,563 bytes more than the count allows)');
    expect(ms).toBeLessThan(5000); // reading it whole took 57 s
    expect(process.memoryUsage().rss - rss0).toBeLessThan(256 * 1024 * 1024);
  });

  it('refuses a file of more than 2 GiB with the limit and how to raise it, not a raw Node error; 2^31 bytes exactly is within it', async () => {
    const importer = createImporter({ cad: 'in-thread' });
    const over = sparse('over.stl', 2 ** 31 + 1);
    const e = await rejection(readModelFile(over, importer));
    expect(e).toBeInstanceOf(ImportError);
    expect((e as ImportError).code).toBe('too-large');
    expect(e.message).toBe(`${over}: the file has 2.0 GiB (2,147,483,649 bytes), more than the limit of 2 GiB; raise it with the import limit 'maxFileBytes'`);
    const exact = sparse('exact.stl', 2 ** 31);
    const f = await rejection(readModelFile(exact, importer));
    expect(f.message).not.toMatch(/ERR_FS_FILE_TOO_LARGE/);
    expect((f as ImportError).code).toBe('count-mismatch');
    // A smaller limit is held before reading too.
    const small = createImporter({ cad: 'in-thread', limits: { maxFileBytes: 100 } });
    expect((await rejection(readModelFile(CUBE, small))).message)
      .toBe(`${CUBE}: the file has 684 bytes, more than the limit of 100 bytes; raise it with the import limit 'maxFileBytes'`);
  });

  it('reads an ASCII-looking file of that size only when it could be ASCII STL (detection unchanged)', async () => {
    mkdirSync(path.join(dir, 'ascii'), { recursive: true });
    const head = new TextEncoder().encode('solid big\n');
    const file = sparse('ascii/big.stl', 3 * HEAD_BYTES, head);
    // Not decidable from the head: read whole, and refused by the parser as before.
    const e = await rejection(openAny(file, { importer: createImporter({ cad: 'in-thread' }) }));
    expect(e).toBeInstanceOf(ImportError);
    expect(e.message).toMatch(/^.*big\.stl: line 2: expected 'facet' or 'endsolid', found '\\x00/);
  });
});
