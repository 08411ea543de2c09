/**
 * Reading and writing files with messages that name the path and say what went wrong, and an
 * atomic write: the target holds either its previous content or the new content, never a part.
 *
 * writeFileAtomic writes a temporary file in the target's folder (so the rename stays on one file
 * system), flushes it to disk, then renames it over the target. Any failure removes the temporary
 * file and leaves the target as it was. A process killed between the write and the rename leaves
 * its temporary file behind; removeStaleTempFiles clears those of dead processes.
 */
import { randomBytes } from 'node:crypto';
import * as nodeFs from 'node:fs/promises';
import path from 'node:path';

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

/** Reads a whole file. Throws FileError ('file not found', 'permission denied', …) naming the path. */
export async function readFileChecked(filePath: string): Promise<Uint8Array> {
  try {
    const data = await nodeFs.readFile(filePath);
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  } catch (err) {
    throw toFileError(filePath, err, false);
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
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  inFlight.add(temp);
  let handle: nodeFs.FileHandle | null = null;
  let created = false;
  try {
    handle = await fs.open(temp, 'wx', mode);
    created = true;
    let written = 0;
    while (written < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, null);
      if (bytesWritten <= 0) throw new Error('the write made no progress');
      written += bytesWritten;
    }
    await handle.sync();
    await handle.close();
    handle = null;
    await fs.rename(temp, target);
    created = false;
  } catch (err) {
    if (handle !== null) await handle.close().catch(() => undefined);
    if (created) await fs.unlink(temp).catch(() => undefined);
    throw toFileError(filePath, err, true);
  } finally {
    inFlight.delete(temp);
  }
  if (options.syncFolder ?? true) await syncFolder(path.dirname(target));
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
