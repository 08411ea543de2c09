/**
 * Which files the host may read and write on the renderer's behalf. The renderer names paths in
 * requests (`doc.open`, `report.export`, …); the host serves only those the user has shown it:
 *
 * Reading is allowed for a file that
 *  - was chosen in a file dialog,
 *  - was granted by the shell (`grant`: the command line, drag and drop onto the window),
 *  - is a source referenced by an assembly the user opened,
 *  - is in the recent-files list,
 *  - or lies inside one of the allowed folders (the bridge's roots, a folder chosen in a dialog).
 * Writing is allowed for a file chosen in a save dialog, inside an allowed folder, or (the
 * caller's decision) the document's own file — one the user opened or saved in this run. A
 * document recovered from a recovery record gets no such leave: the record is a file on disk,
 * and the path it names is written only where these rules allow it.
 *
 * Paths are compared in canonical form: `path.resolve`, then `realpath` where the file exists
 * (else realpath of its folder plus the name), so neither `..` nor a symbolic link leads out of
 * an allowed folder.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';

export type AccessMode = 'read' | 'write';

/** A refusal: the path and why, in words. */
export interface AccessDenial {
  readonly path: string;
  readonly message: string;
}

/** Canonical form of a path (see the file comment). Never throws. */
export async function canonicalPath(p: string): Promise<string> {
  const resolved = path.resolve(p);
  try {
    return await realpath(resolved);
  } catch {
    // not there (yet): canonicalise its folder, keep the name
  }
  const dir = path.dirname(resolved);
  if (dir === resolved) return resolved;
  try {
    return path.join(await realpath(dir), path.basename(resolved));
  } catch {
    return resolved;
  }
}

/** Whether `target` is `folder` or lies below it (both canonical). */
export function isInside(folder: string, target: string): boolean {
  const rel = path.relative(folder, target);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

export class AccessPolicy {
  /** Canonical files by mode. */
  private readonly files = { read: new Set<string>(), write: new Set<string>() };
  /** Canonical folders by mode. */
  private readonly folders = { read: new Set<string>(), write: new Set<string>() };
  /** Grants whose canonical form is still being worked out. */
  private pending = new Set<Promise<void>>();
  /** The recent-files list, consulted on every read check. */
  private recent: () => readonly string[] = () => [];

  constructor(allowedFolders: readonly string[] = []) {
    for (const f of allowedFolders) this.grantFolder(f, 'write');
  }

  /** Where the recent-files list comes from (paths as stored). */
  setRecentSource(recent: () => readonly string[]): void {
    this.recent = recent;
  }

  /** Allows one file: 'read', or 'write' (which includes reading). */
  grant(filePath: string, mode: AccessMode = 'read'): void {
    this.track(canonicalPath(filePath).then((c) => {
      this.files.read.add(c);
      if (mode === 'write') this.files.write.add(c);
    }));
  }

  /** Allows everything inside a folder: 'read', or 'write' (which includes reading). */
  grantFolder(folderPath: string, mode: AccessMode = 'read'): void {
    this.track(canonicalPath(folderPath).then((c) => {
      this.folders.read.add(c);
      if (mode === 'write') this.folders.write.add(c);
    }));
  }

  private track(p: Promise<void>): void {
    const done = p.finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  /** Resolves once every grant made so far is in place. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /**
   * The canonical path when `filePath` may be read or written, else an AccessDenial naming it.
   */
  async check(filePath: string, mode: AccessMode): Promise<{ ok: true; path: string } | { ok: false; denial: AccessDenial }> {
    await this.settled();
    const c = await canonicalPath(filePath);
    if (this.files[mode].has(c)) return { ok: true, path: c };
    for (const folder of this.folders[mode]) if (isInside(folder, c)) return { ok: true, path: c };
    if (mode === 'read') {
      for (const r of this.recent()) {
        if (path.resolve(r) === c || (await canonicalPath(r)) === c) return { ok: true, path: c };
      }
    }
    const what = mode === 'read' ? 'read' : 'written';
    return {
      ok: false,
      denial: {
        path: filePath,
        message: `${filePath}: access denied: this file may not be ${what} here — choose it in a file dialog${mode === 'read' ? ', open it from the command line or drop it on the window' : ''}, or use a file inside an allowed folder`,
      },
    };
  }
}
