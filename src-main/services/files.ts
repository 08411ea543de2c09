/**
 * Reading and writing files with messages that name the path and say what went wrong, and an
 * atomic write: the target holds either its previous content or the new content, never a part.
 *
 * writeFileAtomic writes a temporary file in the target's folder (so the rename stays on one file
 * system), flushes it to disk, then renames it over the target. Any failure removes the temporary
 * file and leaves the target as it was. A process killed between the write and the rename leaves
 * its temporary file behind; removeStaleTempFiles clears those of dead processes.
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { constants as fsConstants } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_IMPORT_LIMITS, formatBytes } from '../../src-core/io/limits.js';
import { groupDigits, plural } from '../../src-core/io/types.js';

/** A file system failure with the path and the problem in words; `code` is Node's (ENOENT, …). */
export class FileError extends Error {
  override readonly name = 'FileError';
  constructor(
    readonly path: string,
    /** What went wrong, without the path, e.g. 'file not found'. */
    readonly problem: string,
    readonly code: string | null,
    options?: { cause?: unknown },
  ) {
    super(`${path}: ${problem}`, options);
  }
}

function errnoCode(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

/** The problem in words for a Node error code; `writing` selects the wording of ENOENT. */
function describeCode(code: string | null, err: unknown, writing: boolean): string {
  switch (code) {
    case 'ENOENT': return writing ? 'the folder does not exist' : 'file not found';
    case 'EACCES':
    case 'EPERM': return 'permission denied';
    case 'EISDIR': return 'this is a folder, not a file';
    case 'ENOTDIR': return 'part of the path is not a folder';
    case 'ENOSPC': return 'the disk is full';
    case 'EDQUOT': return 'the disk quota is exceeded';
    case 'EROFS': return 'the file system is read-only';
    case 'EMFILE':
    case 'ENFILE': return 'too many open files';
    case 'ENAMETOOLONG': return 'the path is too long';
    case 'ELOOP': return 'too many symbolic links in the path';
    case 'EBUSY': return 'the file is in use';
    case 'EIO': return 'input/output error';
    default: break;
  }
  const message = err instanceof Error ? err.message : String(err);
  return code !== null ? `${message} (${code})` : message;
}

function toFileError(filePath: string, err: unknown, writing: boolean): FileError {
  if (err instanceof FileError) return err;
  const code = errnoCode(err);
  return new FileError(filePath, describeCode(code, err, writing), code, { cause: err });
}

/**
 * Most bytes readFileChecked reads when the caller names no limit: the default import limit
 * (src-core/io/limits.ts), so that no file is ever read without a bound.
 */
export const DEFAULT_MAX_READ_BYTES = DEFAULT_IMPORT_LIMITS.maxFileBytes;

/** Bytes handed to ReadOptions.beforeRead: enough for every format's signature and STL's count. */
export const HEAD_BYTES = 64 * 1024;

/** Bytes read per call: large enough to be fast, small enough that cancelling is prompt. */
const READ_CHUNK_BYTES = 16 * 1024 * 1024;

export interface ReadOptions {
  /**
   * Largest file accepted, bytes (default DEFAULT_MAX_READ_BYTES). A larger file is refused
   * after its first bytes (beforeRead, which may refuse it in its own words first); no more than
   * this is ever read, even from a file that grows.
   */
  readonly maxBytes?: number;
  /**
   * Called with the file's first bytes (up to HEAD_BYTES; the whole file when it is smaller) and
   * its size before the rest is read; throwing refuses the file (the error is passed on as it is).
   * This is where an importer refuses a file it can tell from its first bytes it cannot read.
   */
  readonly beforeRead?: (head: Uint8Array, size: number) => void;
  /** Checked between chunks of 16 MiB; aborting rejects with an AbortError. */
  readonly signal?: AbortSignal;
  /**
   * Called once the whole file is read, with its absolute path, size, modification time and the
   * SHA-256 of the bytes, hashed chunk by chunk as they were read (what a report records of it).
   */
  readonly onRead?: (read: FileRead) => void;
}

/** A file as it was read (ReadOptions.onRead). */
export interface FileRead {
  /** Absolute. */
  readonly path: string;
  readonly sizeBytes: number;
  /** ISO 8601 UTC, milliseconds. */
  readonly modifiedAt: string;
  /** 64 lower-case hexadecimal digits. */
  readonly sha256: string;
}

/** An incremental SHA-256 of what was read, or null when nobody asked. */
type ReadHash = Hash | null;

/** O_NONBLOCK where the platform has it: opening a FIFO then returns at once instead of waiting for a writer. */
const OPEN_FLAGS = fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0) | (fsConstants.O_NOCTTY ?? 0);

/** What a non-regular file is, in words, for messages. */
function fileKind(st: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a file, folder or device Interfere knows';
}

function notRegular(filePath: string, kind: string): FileError {
  return new FileError(filePath, `this is not a regular file (${kind}); only regular files can be read`, 'ENOTREG');
}

function tooLargeToRead(filePath: string, size: number, maxBytes: number, grew: boolean): FileError {
  const what = grew ? `the file grew to more than ${formatBytes(maxBytes)} while it was read` :
    `the file has ${formatBytes(size)}${size >= 1024 ? ` (${groupDigits(size)} bytes)` : ''}, more than the ${formatBytes(maxBytes)} that can be read`;
  return new FileError(filePath, what, 'EFBIG');
}

function abortError(): Error {
  const e = new Error('reading was cancelled');
  e.name = 'AbortError';
  return e;
}

/** Reads into `buffer` from `offset` until full or the end of the file; returns the bytes in it. */
async function readInto(handle: nodeFs.FileHandle, buffer: Uint8Array, offset: number, signal: AbortSignal | undefined, hash: ReadHash = null): Promise<number> {
  let at = offset;
  while (at < buffer.length) {
    if (signal?.aborted) throw abortError();
    const { bytesRead } = await handle.read(buffer, at, Math.min(READ_CHUNK_BYTES, buffer.length - at), at);
    if (bytesRead === 0) break;
    hash?.update(buffer.subarray(at, at + bytesRead));
    at += bytesRead;
  }
  return at;
}

/**
 * Reads a whole regular file, never more than `maxBytes` (see ReadOptions). The file is opened
 * without blocking (a FIFO cannot hang the read), its type and size come from the open handle,
 * and anything but a regular file is refused. Throws FileError naming the path ('file not
 * found', 'permission denied', 'this is not a regular file (a FIFO (named pipe))', a file larger
 * than the limit, …), or what `beforeRead` throws.
 */
export async function readFileChecked(filePath: string, options: ReadOptions = {}): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_READ_BYTES;
  let handle: nodeFs.FileHandle;
  try {
    handle = await nodeFs.open(filePath, OPEN_FLAGS);
  } catch (err) {
    // ENXIO: a socket (or a FIFO on a platform without O_NONBLOCK semantics); say which.
    if (errnoCode(err) === 'ENXIO') {
      const st = await nodeFs.stat(filePath).catch(() => null);
      if (st !== null && !st.isFile()) throw notRegular(filePath, fileKind(st));
    }
    throw toFileError(filePath, err, false);
  }
  let refusal: { error: unknown } | null = null;
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw new FileError(filePath, describeCode('EISDIR', null, false), 'EISDIR');
    if (!st.isFile()) throw notRegular(filePath, fileKind(st));
    const size = st.size;
    const hash: ReadHash = options.onRead !== undefined ? createHash('sha256') : null;
    const done = (bytes: Uint8Array): Uint8Array => {
      if (hash !== null) {
        options.onRead?.({ path: path.resolve(filePath), sizeBytes: bytes.length, modifiedAt: new Date(st.mtimeMs).toISOString(), sha256: hash.digest('hex') });
      }
      return bytes;
    };
    const head = new Uint8Array(Math.min(size, HEAD_BYTES));
    let length = await readInto(handle, head, 0, options.signal, hash);
    if (options.beforeRead !== undefined) {
      try {
        options.beforeRead(head.subarray(0, length), size);
      } catch (err) {
        refusal = { error: err };
        throw err;
      }
    }
    if (size > maxBytes) throw tooLargeToRead(filePath, size, maxBytes, false);
    let buffer = head;
    if (length === head.length && size > head.length) {
      buffer = new Uint8Array(size);
      buffer.set(head);
      length = await readInto(handle, buffer, length, options.signal, hash);
    }
    if (length < size) throw new FileError(filePath, `the file shrank while it was read (from ${plural(size, 'byte')} to ${plural(length, 'byte')})`, null);
    // One byte more tells whether the file grew; a file that reports no size (Linux /proc) is read to its end.
    const probe = new Uint8Array(1);
    if ((await handle.read(probe, 0, 1, size)).bytesRead === 0) return done(buffer);
    if (size > 0) throw new FileError(filePath, `the file grew while it was read (it had ${plural(size, 'byte')})`, null);
    return done(await readUnsized(handle, filePath, maxBytes, options.signal, hash));
  } catch (err) {
    if (refusal !== null || (err instanceof Error && err.name === 'AbortError')) throw err;
    throw toFileError(filePath, err, false);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Reads a regular file whose size is unknown (0 in its status) to its end, at most maxBytes. */
async function readUnsized(handle: nodeFs.FileHandle, filePath: string, maxBytes: number, signal: AbortSignal | undefined, hash: ReadHash): Promise<Uint8Array> {
  let buffer = new Uint8Array(Math.min(HEAD_BYTES, maxBytes + 1));
  let length = 0;
  for (;;) {
    length = await readInto(handle, buffer, length, signal, hash);
    if (length > maxBytes) throw tooLargeToRead(filePath, length, maxBytes, true);
    if (length < buffer.length) return buffer.subarray(0, length);
    const grown = new Uint8Array(Math.min(2 * buffer.length, maxBytes + 1));
    grown.set(buffer);
    buffer = grown;
  }
}

/** The file operations writeFileAtomic uses; tests replace some to inject failures. */
export interface AtomicFs {
  open(path: string, flags: string, mode?: number): Promise<nodeFs.FileHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  stat(path: string): Promise<{ mode: number }>;
  realpath(path: string): Promise<string>;
}

export const nodeAtomicFs: AtomicFs = {
  open: (p, flags, mode) => nodeFs.open(p, flags, mode),
  rename: (from, to) => nodeFs.rename(from, to),
  unlink: (p) => nodeFs.unlink(p),
  stat: (p) => nodeFs.stat(p),
  realpath: (p) => nodeFs.realpath(p),
};

export interface AtomicWriteOptions {
  /** The file operations to use (default: node:fs/promises). */
  readonly fs?: AtomicFs;
  /** Flush the folder after the rename too, so the rename itself survives a power cut (default true). */
  readonly syncFolder?: boolean;
}

/** Marks temporary files of writeFileAtomic: `.<target name>.<TEMP_MARK>-<pid>-<random>`. */
const TEMP_MARK = 'interfere-tmp';

/** The temporary file name for a target, unique per call. */
function tempPathFor(target: string): string {
  const dir = path.dirname(target);
  return path.join(dir, `.${path.basename(target)}.${TEMP_MARK}-${process.pid}-${randomBytes(6).toString('hex')}`);
}

/** Temporary files this process is writing now (removeStaleTempFiles leaves them alone). */
const inFlight = new Set<string>();

/**
 * Writes `data` to `filePath` atomically (see the file comment). A symbolic link at the target is
 * followed: the file it points to is replaced. The previous file's permissions are kept. Throws
 * FileError naming the target.
 */
export async function writeFileAtomic(filePath: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const fs = options.fs ?? nodeAtomicFs;
  let target = path.resolve(filePath);
  let mode = 0o666;
  try {
    target = await fs.realpath(target);
    mode = (await fs.stat(target)).mode & 0o7777;
  } catch {
    // no file there yet (or a dangling link): write a new one at the path as given
  }
  const temp = tempPathFor(target);
  await writeViaTemp(fs, temp, target, data, mode, filePath);
  if (options.syncFolder ?? true) await syncFolder(path.dirname(target));
}

/**
 * Writes `data` through `fs` to the new file `temp` (mode `mode`), flushes it, runs `beforeRename` (which may
 * throw to refuse), and renames it over `target`; on any failure removes the temporary file and
 * throws FileError naming `filePath`.
 */
async function writeViaTemp(
  fs: AtomicFs, temp: string, target: string, data: string | Uint8Array, mode: number, filePath: string,
  beforeRename: () => Promise<void> = async () => undefined,
): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  inFlight.add(temp);
  let handle: nodeFs.FileHandle | null = null;
  let created = false;
  try {
    const h = await fs.open(temp, 'wx', mode);
    handle = h;
    created = true;
    let written = 0;
    while (written < bytes.length) {
      const { bytesWritten } = await h.write(bytes, written, bytes.length - written, null);
      if (bytesWritten <= 0) throw new Error('the write made no progress');
      written += bytesWritten;
    }
    await h.sync();
    await h.close();
    handle = null;
    await beforeRename();
    await fs.rename(temp, target);
    created = false;
  } catch (err) {
    if (handle !== null) await handle.close().catch(() => undefined);
    if (created) await fs.unlink(temp).catch(() => undefined);
    throw toFileError(filePath, err, true);
  } finally {
    inFlight.delete(temp);
  }
}

/** Flushes a folder's entries to disk; best effort (not every platform can open a folder). */
async function syncFolder(dir: string): Promise<void> {
  let handle: nodeFs.FileHandle | null = null;
  try {
    handle = await nodeFs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open folders this way; the rename has happened regardless
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Whether a process with this id exists (for files that name the process that wrote them). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errnoCode(err) === 'EPERM'; // exists, owned by someone else
  }
}

/**
 * Removes temporary files that writeFileAtomic left next to `filePath` when its process died
 * before the rename (those of live processes, and of writes in progress here, are kept). Returns
 * the paths removed.
 */
export async function removeStaleTempFiles(filePath: string): Promise<string[]> {
  const target = path.resolve(filePath);
  const dir = path.dirname(target);
  const prefix = `.${path.basename(target)}.${TEMP_MARK}-`;
  let names: string[];
  try {
    names = await nodeFs.readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = /^(\d+)-[0-9a-f]+$/.exec(name.slice(prefix.length));
    if (match === null) continue;
    const full = path.join(dir, name);
    const pid = Number(match[1]);
    if (inFlight.has(full)) continue;
    if (pid !== process.pid && processAlive(pid)) continue;
    try {
      await nodeFs.unlink(full);
      removed.push(full);
    } catch {
      // already gone
    }
  }
  return removed;
}

// ---------------------------------------------------------------------------------------------
// Output files the user names (reports)

/**
 * Temporary files of writeOutputFile: `.interfere-tmp-<pid>-<12 hex digits>`, at most 35
 * characters whatever the target's name, so a target name up to the file system's limit can
 * still be written; the pid says which process owned it.
 */
const OUTPUT_TEMP = /^\.interfere-tmp-(\d{1,10})-[0-9a-f]{12}$/;

/** A temporary output file is stale when its process is gone and it has not changed for this long. */
export const STALE_TEMP_MS = 10 * 60 * 1000;

export interface OutputWriteOptions extends AtomicWriteOptions {
  /**
   * Called with the existing target (a regular file, never a link) before the write and again
   * just before the rename; a string refuses the write with that problem, e.g. 'this is an input
   * of the check'.
   */
  readonly refuse?: (existing: BigIntStats) => string | null;
  /** Now, for the age of stale temporary files (tests); default Date.now(). */
  readonly now?: number;
}

/** What kind of file system entry a non-regular file is, for messages. */
function entryKind(st: BigIntStats): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** lstat, or null when nothing is there. Throws FileError for other failures. */
async function lstatOrNull(filePath: string, shown: string): Promise<BigIntStats | null> {
  try {
    return await nodeFs.lstat(filePath, { bigint: true });
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return null;
    throw toFileError(shown, err, true);
  }
}

/** Why the entry at the target may not be replaced, or null (nothing there, or a regular file allowed). */
function targetProblem(st: BigIntStats | null, refuse: OutputWriteOptions['refuse']): string | null {
  if (st === null) return null;
  if (st.isSymbolicLink()) return 'this is a symbolic link; an output file is not written through a link (name the file itself)';
  if (!st.isFile()) return `this is ${entryKind(st)}, not a regular file; only a regular file is replaced`;
  return refuse?.(st) ?? null;
}

/**
 * Removes temporary files of writeOutputFile in `dir` that a killed process left behind: regular
 * files named like OUTPUT_TEMP whose process is gone (or is this one, not writing it) and that
 * have not been modified for STALE_TEMP_MS — the age keeps those of a writer on another machine
 * or in another process namespace that shares the folder. Best effort; returns the paths removed.
 */
export async function removeStaleOutputTemps(dir: string, now: number = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = await nodeFs.readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const match = OUTPUT_TEMP.exec(name);
    if (match === null) continue;
    const full = path.join(dir, name);
    if (inFlight.has(full)) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && processAlive(pid)) continue;
    try {
      const st = await nodeFs.lstat(full);
      if (!st.isFile() || now - st.mtimeMs < STALE_TEMP_MS) continue;
      await nodeFs.unlink(full);
      removed.push(full);
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

/**
 * Writes an output file the user named (a report) atomically, never destroying anything else: a
 * symbolic link, a folder, a FIFO, a device or a socket at the path is refused, as is a regular
 * file `options.refuse` refuses (an input of the run). The data goes to a short temporary file in
 * the same folder, is flushed, and is renamed over the target only when that is still a regular
 * file (or absent). Stale temporary files of killed writers in that folder are removed first
 * (removeStaleOutputTemps). The previous file's permissions are kept. Throws FileError naming the
 * path as given.
 */
export async function writeOutputFile(filePath: string, data: string | Uint8Array, options: OutputWriteOptions = {}): Promise<void> {
  const fs = options.fs ?? nodeAtomicFs;
  if (filePath.includes('\0')) throw new FileError(filePath, 'the path contains a NUL character', null);
  const target = path.resolve(filePath);
  const dir = path.dirname(target);
  await removeStaleOutputTemps(dir, options.now);
  const before = await lstatOrNull(target, filePath);
  const problem = targetProblem(before, options.refuse);
  if (problem !== null) throw new FileError(filePath, problem, null);
  const mode = before !== null ? Number(before.mode & 0o7777n) : 0o666;
  const temp = path.join(dir, `.interfere-tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  // What is there now may have changed while the data was written.
  await writeViaTemp(fs, temp, target, data, mode, filePath, async () => {
    const late = targetProblem(await lstatOrNull(target, filePath), options.refuse);
    if (late !== null) throw new FileError(filePath, late, null);
  });
  if (options.syncFolder ?? true) await syncFolder(dir);
}

/**
 * Makes the folder an output file goes into (and its parents). Throws FileError naming the first
 * folder that cannot be made, e.g. `/data/ro/reports: permission denied`.
 */
export async function makeOutputFolder(dir: string): Promise<void> {
  if (dir.includes('\0')) throw new FileError(dir, 'the path contains a NUL character', null);
  try {
    await nodeFs.mkdir(dir, { recursive: true });
  } catch (err) {
    // Name the folder that failed: the first missing one below an existing folder.
    let failed = path.resolve(dir);
    for (let p = failed; ; ) {
      const parent = path.dirname(p);
      if (parent === p) break;
      const exists = await nodeFs.lstat(parent).then(() => true, () => false);
      if (exists) {
        failed = p;
        break;
      }
      p = parent;
    }
    const code = errnoCode(err);
    if (code === 'EEXIST' || code === 'ENOTDIR') throw new FileError(dir, 'part of the path is a file, not a folder', code, { cause: err });
    throw toFileError(failed, err, true);
  }
}
