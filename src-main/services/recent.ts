/**
 * The recent-files list: the documents last opened or saved, newest first, kept in
 * `<userDataDir>/recent-files.json` (`{ "version": 1, "files": [...] }`) and written atomically
 * (writeFileAtomic), one write at a time in the order of the changes. A missing or unreadable list
 * is an empty one (reported through `log`), never an error.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './files.js';

export const RECENT_FILE_NAME = 'recent-files.json';
export const MAX_RECENT_FILES = 10;
const RECENT_VERSION = 1;

export class RecentFiles {
  private files: string[] = [];
  private writing: Promise<void> = Promise.resolve();
  readonly file: string;

  constructor(
    readonly userDataDir: string,
    private readonly log: (message: string) => void = () => {},
    readonly max: number = MAX_RECENT_FILES,
  ) {
    this.file = path.join(userDataDir, RECENT_FILE_NAME);
  }

  /** Reads the stored list (replacing the one in memory). */
  async load(): Promise<readonly string[]> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.log(`${this.file}: the recent-files list cannot be read (${(e as Error).message}); starting empty`);
      this.files = [];
      return this.list();
    }
    try {
      const data = JSON.parse(text) as unknown;
      const files = (data as { files?: unknown }).files;
      if (!Array.isArray(files)) throw new Error('no "files" list');
      this.files = [...new Set(files.filter((f): f is string => typeof f === 'string' && f.length > 0 && f.length <= 4096 && !f.includes('\u0000') && path.isAbsolute(f)))].slice(0, this.max);
    } catch (e) {
      this.log(`${this.file}: the recent-files list is damaged (${(e as Error).message}); starting empty`);
      this.files = [];
    }
    return this.list();
  }

  list(): readonly string[] {
    return [...this.files];
  }

  /** Puts a file first (absolute path) and stores the list; resolves when written. */
  add(filePath: string): Promise<void> {
    const p = path.resolve(filePath);
    this.files = [p, ...this.files.filter((f) => f !== p)].slice(0, this.max);
    return this.store();
  }

  /** Removes a file (e.g. one that no longer opens) and stores the list. */
  remove(filePath: string): Promise<void> {
    const p = path.resolve(filePath);
    if (!this.files.includes(p)) return this.writing;
    this.files = this.files.filter((f) => f !== p);
    return this.store();
  }

  private store(): Promise<void> {
    const text = `${JSON.stringify({ version: RECENT_VERSION, files: this.files }, null, 2)}\n`;
    this.writing = this.writing.then(async () => {
      try {
        await mkdir(this.userDataDir, { recursive: true });
        await writeFileAtomic(this.file, text);
      } catch (e) {
        this.log(`the recent-files list could not be saved: ${(e as Error).message}`);
      }
    });
    return this.writing;
  }
}
