/**
 * The app's log, a file a user can send with a problem report: what was opened (path, parts,
 * triangles, time), checked (settings, counts, time) and what failed (the error's message and
 * stack), one line per event:
 *
 *     2026-12-02T03:46:24.123Z INFO open path="/models/as1.assembly.json" parts=18 triangles=53240 ms=812
 *
 * (ISO time in UTC, the level, the event, then key=value fields: strings JSON-quoted, so a line
 * holds no raw newline and reads back with JSON.parse).
 *
 * Where: `<data folder>/logs/interfere.log` (the folder private, mode 0700, the files 0600: the
 * log names the user's files). Rotation by renaming: when a line would take the file past
 * `maxBytes`, interfere.log becomes interfere.1.log, .1 becomes .2, and so on up to `files` files
 * in all (the oldest is removed). Default 1 MB × 3.
 *
 * Never throws into its caller: a full disk, a folder that cannot be made or a field that cannot
 * be written only counts a failure (`failures`, `lastFailure`); the next line tries again. Writes
 * are synchronous (a line is small, events are few), so that the last lines before a crash are
 * on disk.
 */
import { appendFileSync, chmodSync, mkdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';

export type LogLevel = 'info' | 'warn' | 'error';
export type LogFields = Readonly<Record<string, unknown>>;

/** Where the host and the main process write events. */
export interface ActivityLog {
  write(level: LogLevel, event: string, fields?: LogFields): void;
}

export interface LogFileOptions {
  /** The folder of the log files (created, mode 0700). */
  readonly folder: string;
  /** Default `interfere` (files interfere.log, interfere.1.log, …). */
  readonly name?: string;
  /** Largest size of one file (default 1,000,000 bytes). */
  readonly maxBytes?: number;
  /** Files kept in all, the current one included (default 3). */
  readonly files?: number;
  /** The clock (tests). */
  readonly now?: () => Date;
}

export const LOG_DEFAULTS = { name: 'interfere', maxBytes: 1_000_000, files: 3 } as const;
/** Longest line written (longer ones are cut, saying so). */
export const MAX_LINE_BYTES = 16_384;

/** The folder of the log under a data folder. */
export function logFolder(dataFolder: string): string {
  return path.join(dataFolder, 'logs');
}

/** The fields of an error: its message, stack and code, when it has them. */
export function errorFields(e: unknown): { error: string; stack?: string; code?: string } {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return {
      error: e.message,
      ...(e.stack !== undefined ? { stack: e.stack } : {}),
      ...(typeof code === 'string' ? { code } : {}),
    };
  }
  return { error: String(e) };
}

function fieldText(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return value.toString();
  if (value === undefined) return 'undefined';
  if (value instanceof Error) return JSON.stringify(errorFields(value));
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'undefined';
}

/** One line of the log, without its newline (see the module comment). */
export function formatLine(time: Date, level: LogLevel, event: string, fields: LogFields = {}): string {
  let line = `${time.toISOString()} ${level.toUpperCase()} ${event.replace(/\s+/g, '_')}`;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    let text: string;
    try {
      text = fieldText(value);
    } catch (e) {
      text = JSON.stringify(`(not written: ${e instanceof Error ? e.message : String(e)})`);
    }
    line += ` ${key.replace(/[\s=]+/g, '_')}=${text}`;
  }
  if (Buffer.byteLength(line) > MAX_LINE_BYTES) {
    line = `${Buffer.from(line).subarray(0, MAX_LINE_BYTES - 40).toString().replace(/\uFFFD$/, '')} …(line cut)`;
  }
  return line;
}

/** The rotating log file (see the module comment). */
export class LogFile implements ActivityLog {
  readonly folder: string;
  /** The current file: `<folder>/<name>.log`. */
  readonly path: string;
  private readonly name: string;
  private readonly maxBytes: number;
  private readonly files: number;
  private readonly now: () => Date;
  /** Bytes in the current file, once known. */
  private size: number | null = null;
  private folderMade = false;
  /** Lines that could not be written. */
  failures = 0;
  lastFailure: string | null = null;

  constructor(options: LogFileOptions) {
    this.folder = options.folder;
    this.name = options.name ?? LOG_DEFAULTS.name;
    this.maxBytes = Math.max(256, options.maxBytes ?? LOG_DEFAULTS.maxBytes);
    this.files = Math.max(1, Math.floor(options.files ?? LOG_DEFAULTS.files));
    this.now = options.now ?? (() => new Date());
    this.path = this.fileAt(0);
  }

  /** `<name>.log` for 0, else `<name>.<n>.log`. */
  fileAt(n: number): string {
    return path.join(this.folder, n === 0 ? `${this.name}.log` : `${this.name}.${n}.log`);
  }

  info(event: string, fields?: LogFields): void {
    this.write('info', event, fields);
  }

  warn(event: string, fields?: LogFields): void {
    this.write('warn', event, fields);
  }

  /** An error event with the error's message and stack. */
  error(event: string, error: unknown, fields: LogFields = {}): void {
    this.write('error', event, { ...fields, ...errorFields(error) });
  }

  write(level: LogLevel, event: string, fields?: LogFields): void {
    try {
      const text = `${formatLine(this.now(), level, event, fields)}\n`;
      const bytes = Buffer.byteLength(text);
      this.ensureFolder();
      if (this.size === null) this.size = sizeOf(this.path);
      if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
      appendFileSync(this.path, text, { mode: 0o600 });
      this.size += bytes;
    } catch (e) {
      this.failures++;
      this.lastFailure = e instanceof Error ? e.message : String(e);
      // The size is unknown after a failed write: read it again next time.
      this.size = null;
    }
  }

  private ensureFolder(): void {
    if (this.folderMade) return;
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    if (process.platform !== 'win32') chmodSync(this.folder, 0o700);
    this.folderMade = true;
  }

  /** interfere.log → .1 → .2 …; the oldest beyond `files` is removed. */
  private rotate(): void {
    const last = this.files - 1;
    if (last === 0) {
      unlinkIfThere(this.path);
    } else {
      unlinkIfThere(this.fileAt(last));
      for (let n = last - 1; n >= 0; n--) renameIfThere(this.fileAt(n), this.fileAt(n + 1));
    }
    this.size = 0;
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ENOENT') return 0;
    throw e;
  }
}

function unlinkIfThere(file: string): void {
  try {
    unlinkSync(file);
  } catch (e) {
    if ((e as { code?: unknown }).code !== 'ENOENT') throw e;
  }
}

function renameIfThere(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (e) {
    if ((e as { code?: unknown }).code !== 'ENOENT') throw e;
  }
}

/** A log that writes nothing (hosts without a log file). */
export const NO_LOG: ActivityLog = { write: () => undefined };
