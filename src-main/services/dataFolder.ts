/**
 * The per-user data folder of hosts that have no platform one (the browser bridge; Electron uses
 * its own `userData`): the tree cache, the recent-files list and the recovery records live there.
 * Another local user who could write into it could plant a tree whose boxes lie, or a recovery
 * record naming any file, so it must be private:
 *
 * - Where: `$XDG_DATA_HOME/interfere` when XDG_DATA_HOME is an absolute path, else
 *   `~/.local/share/interfere` — never a shared temporary folder.
 * - Created with mode 0700 (missing parents too).
 * - Refused (DataFolderError, naming the folder and the problem) when it is not a real folder
 *   (a symbolic link or a file), is not owned by the current user, or is group- or world-writable.
 *
 * `privateFolderProblem` is the same check for a subfolder (the tree cache, recovery) that may
 * already exist: its callers refuse to read from or write to a folder that fails it.
 */
import type { Stats } from 'node:fs';
import { lstat, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The data folder cannot be used: says which and why. */
export class DataFolderError extends Error {
  override readonly name = 'DataFolderError';
  constructor(readonly folder: string, readonly problem: string) {
    super(`${folder}: ${problem}`);
  }
}

/** `$XDG_DATA_HOME/interfere`, else `<home>/.local/share/interfere`. */
export function defaultDataFolder(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  const xdg = env.XDG_DATA_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'interfere');
  return path.join(home, '.local', 'share', 'interfere');
}

function currentUid(): number | null {
  return typeof process.getuid === 'function' ? process.getuid() : null;
}

/** Why a folder's status makes it unfit to hold private data, or null. */
function statusProblem(s: Stats): string | null {
  if (s.isSymbolicLink()) return 'is a symbolic link, not a folder of its own: refusing to keep private data there';
  if (!s.isDirectory()) return 'is not a folder';
  // Windows has no owner ids or mode bits here (a folder reads as mode 666): its ACLs decide.
  if (process.platform === 'win32') return null;
  const uid = currentUid();
  if (uid !== null && s.uid !== uid) {
    return `is owned by user ${s.uid}, not by the current user (${uid}): refusing to keep private data there; remove it or set XDG_DATA_HOME to a folder of your own`;
  }
  if ((s.mode & 0o022) !== 0) {
    return `is writable by ${(s.mode & 0o002) !== 0 ? 'every user' : 'its group'} (mode ${(s.mode & 0o777).toString(8).padStart(3, '0')}): refusing to keep private data there; make it private with 'chmod 700 <folder>'`;
  }
  return null;
}

/**
 * Why an existing folder may not hold private data (see the file comment), or null when it may
 * or does not exist yet (creating it with mode 0700 is then the caller's job).
 */
export async function privateFolderProblem(folder: string): Promise<string | null> {
  let s: Stats;
  try {
    s = await lstat(folder);
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ENOENT') return null;
    return `cannot be examined (${e instanceof Error ? e.message : String(e)})`;
  }
  return statusProblem(s);
}

/** Creates `folder` (mode 0700) when missing, then checks it is private. Throws DataFolderError. */
export async function ensurePrivateFolder(folder: string): Promise<string> {
  try {
    await mkdir(folder, { recursive: true, mode: 0o700 });
  } catch (e) {
    if ((e as { code?: unknown }).code !== 'EEXIST') {
      throw new DataFolderError(folder, `cannot be created (${e instanceof Error ? e.message : String(e)})`);
    }
  }
  const problem = await privateFolderProblem(folder);
  if (problem !== null) throw new DataFolderError(folder, problem);
  return folder;
}
