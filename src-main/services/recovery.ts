/**
 * Recovery files: the unsaved state of open documents, autosaved by the host service (./host/autosave.ts)
 * so that a crash, a kill or a power cut loses at most the last few seconds of work.
 *
 * Each document with unsaved changes has one file, `<userDataDir>/recovery/<recoveryId>.json`,
 * written atomically (writeFileAtomic: the file holds one whole record or is absent). The id is
 * `<session>-<docId>`: a session is one run of the host service (a random id), so that a new
 * run's documents never overwrite the files a crashed run left behind. A record holds the
 * document as it would be saved (placements, visibility, colours, names, settings, ignore rules,
 * result statuses), where it came from (its file, the file its relative source paths start from,
 * which sources are given by absolute path) and the fingerprint of its file when it was opened
 * or last saved (saving over that file later checks it has not changed meanwhile).
 *
 * The folder is created with mode 0700 and must stay private (./dataFolder.ts): a folder owned by
 * another user or writable by others is neither read nor written. A record is still only a
 * claim: recovering it grants reading its document's file, never writing (./host/documentStore.ts saves a
 * recovered document under the same access policy as any other request).
 *
 * The service removes a document's file when it is saved or closed. Files left behind by runs
 * that ended without doing so are the recoverable documents (`list`): those of the current
 * session and of processes still running (another instance of the app) are not listed.
 */
import { mkdir, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { parseAssembly, serializeAssembly } from '../../src-core/assembly/format.js';
import type { AssemblyDoc } from '../../src-core/assembly/model.js';
import { decodeText } from '../../src-core/io/types.js';
import { RecoveryIdSchema, type RecoverableDocument } from '../contract/host.js';
import { privateFolderProblem } from './dataFolder.js';
import { FileError, processAlive, readFileChecked, removeStaleTempFiles, writeFileAtomic } from './files.js';

export const RECOVERY_FORMAT = 'interfere-recovery';
export const RECOVERY_VERSION = 1;
/** The folder under the user-data folder. */
export const RECOVERY_FOLDER = 'recovery';
/** Largest recovery file read (a record holds no geometry: this is far beyond any real one). */
const MAX_RECORD_BYTES = 256 * 1024 * 1024;

/** What a file held when it was read or written: saving over it later checks it is unchanged. */
export interface FileFingerprint {
  readonly size: number;
  readonly mtimeMs: number;
  /** SHA-256 of the content, lower-case hex. */
  readonly sha256: string;
}

export type RecoveryKind = 'assembly' | 'model' | 'new';

/** One document's unsaved state. */
export interface RecoveryRecord {
  readonly recoveryId: string;
  /** The run of the host service that wrote it. */
  readonly session: string;
  /** The process that wrote it (a live one's records are not offered). */
  readonly pid: number;
  /** ISO 8601, UTC. */
  readonly savedAt: string;
  /** The document's name as shown. */
  readonly name: string;
  readonly kind: RecoveryKind;
  /** The file opened or last saved (absolute), or null for a new document. */
  readonly originalPath: string | null;
  /** The file relative source paths are relative to (absolute), or null. */
  readonly base: string | null;
  /** Ids of sources whose paths are absolute because the document had no file yet. */
  readonly absoluteSources: readonly string[];
  /** `originalPath` as it was opened or last saved, or null. */
  readonly fingerprint: FileFingerprint | null;
  /** The document as saving would write it, with sources as the document holds them. */
  readonly assembly: AssemblyDoc;
}

const FingerprintSchema = z.object({
  size: z.number().int().nonnegative(),
  mtimeMs: z.number().finite(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

const pathString = z.string().min(1).max(4096).refine((s) => !s.includes('\u0000') && path.isAbsolute(s), 'an absolute path without NUL');

const RecordSchema = z.object({
  format: z.literal(RECOVERY_FORMAT),
  version: z.literal(RECOVERY_VERSION),
  recoveryId: RecoveryIdSchema,
  session: z.string().min(1).max(64),
  pid: z.number().int().nonnegative(),
  savedAt: z.string().max(64),
  name: z.string().max(1024),
  kind: z.enum(['assembly', 'model', 'new']),
  originalPath: pathString.nullable(),
  base: pathString.nullable(),
  absoluteSources: z.array(z.string().max(256)).max(100_000),
  fingerprint: FingerprintSchema.nullable(),
  assembly: z.record(z.string(), z.unknown()),
});

/** A recovery file that cannot be used: the file and the problem. */
export class RecoveryError extends Error {
  override readonly name = 'RecoveryError';
  constructor(readonly path: string, problem: string, options?: { cause?: unknown }) {
    super(`${path}: ${problem}`, options);
  }
}

function isRecoveryId(id: string): boolean {
  return RecoveryIdSchema.safeParse(id).success;
}

/** The recovery files of one user-data folder. */
export class RecoveryStore {
  /** `<userDataDir>/recovery`. */
  readonly dir: string;

  constructor(userDataDir: string, private readonly log: (message: string) => void) {
    this.dir = path.join(userDataDir, RECOVERY_FOLDER);
  }

  /** The file of a record; throws RangeError for an id that is not one (no path can be made of it). */
  fileOf(recoveryId: string): string {
    if (!isRecoveryId(recoveryId)) throw new RangeError(`'${recoveryId.slice(0, 100)}' is not a recovery id`);
    return path.join(this.dir, `${recoveryId}.json`);
  }

  /** Writes a record atomically (the folder is made when missing). Throws FileError. */
  async save(record: RecoveryRecord): Promise<void> {
    const file = this.fileOf(record.recoveryId);
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const problem = await privateFolderProblem(this.dir);
    if (problem !== null) throw new FileError(this.dir, problem, null);
    const content = {
      format: RECOVERY_FORMAT,
      version: RECOVERY_VERSION,
      recoveryId: record.recoveryId,
      session: record.session,
      pid: record.pid,
      savedAt: record.savedAt,
      name: record.name,
      kind: record.kind,
      originalPath: record.originalPath,
      base: record.base,
      absoluteSources: [...record.absoluteSources],
      fingerprint: record.fingerprint,
      assembly: JSON.parse(serializeAssembly(record.assembly)) as unknown,
    };
    await writeFileAtomic(file, `${JSON.stringify(content, null, 1)}\n`);
  }

  /** Removes a record (and temporary files of interrupted writes of it); false when there was none. */
  async remove(recoveryId: string): Promise<boolean> {
    const file = this.fileOf(recoveryId);
    let removed = true;
    try {
      await unlink(file);
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'ENOENT') throw new FileError(file, e instanceof Error ? e.message : String(e), null, { cause: e });
      removed = false;
    }
    await removeStaleTempFiles(file).catch(() => []);
    return removed;
  }

  /**
   * Reads one record; null when there is none. Throws RecoveryError for a file that is not a
   * recovery record, FileError when it cannot be read.
   */
  async read(recoveryId: string): Promise<RecoveryRecord | null> {
    const file = this.fileOf(recoveryId);
    const problem = await privateFolderProblem(this.dir);
    if (problem !== null) throw new RecoveryError(this.dir, problem);
    let bytes: Uint8Array;
    try {
      bytes = await readFileChecked(file);
    } catch (e) {
      if (e instanceof FileError && e.code === 'ENOENT') return null;
      throw e;
    }
    return this.parse(file, bytes, recoveryId);
  }

  private parse(file: string, bytes: Uint8Array, recoveryId: string): RecoveryRecord {
    if (bytes.length > MAX_RECORD_BYTES) throw new RecoveryError(file, `the file is larger than ${MAX_RECORD_BYTES / 1024 / 1024} MiB`);
    let raw: unknown;
    try {
      raw = JSON.parse(decodeText(bytes));
    } catch (e) {
      throw new RecoveryError(file, `not JSON (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    }
    const parsed = RecordSchema.safeParse(raw);
    if (!parsed.success) throw new RecoveryError(file, `not a recovery record: ${z.prettifyError(parsed.error).slice(0, 500)}`);
    const r = parsed.data;
    if (r.recoveryId !== recoveryId) throw new RecoveryError(file, `the record names itself '${r.recoveryId}'`);
    // The assembly is checked as a saved assembly would be (AssemblyError names the field).
    const assembly = parseAssembly(JSON.stringify(r.assembly, null, 2), `${file} (assembly)`);
    return {
      recoveryId: r.recoveryId, session: r.session, pid: r.pid, savedAt: r.savedAt, name: r.name, kind: r.kind,
      originalPath: r.originalPath, base: r.base, absoluteSources: r.absoluteSources, fingerprint: r.fingerprint, assembly,
    };
  }

  /**
   * The records left by runs that ended without saving or closing their documents, newest first:
   * not those of `currentSession`, nor of a process still running. Damaged files are logged and
   * left in place (never deleted unasked); temporary files of interrupted writes are removed.
   */
  async list(currentSession: string): Promise<RecoveryRecord[]> {
    const problem = await privateFolderProblem(this.dir);
    if (problem !== null) {
      this.log(`recovery folder ${this.dir} is not used: it ${problem}`);
      return [];
    }
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const out: RecoveryRecord[] = [];
    for (const name of names) {
      const temp = /^\.(.+\.json)\.interfere-tmp-/.exec(name);
      if (temp) {
        if (isRecoveryId(temp[1].slice(0, -'.json'.length))) await removeStaleTempFiles(path.join(this.dir, temp[1])).catch(() => []);
        continue;
      }
      if (!name.endsWith('.json')) continue;
      const id = name.slice(0, -'.json'.length);
      if (!isRecoveryId(id)) continue;
      let record: RecoveryRecord | null;
      try {
        record = await this.read(id);
      } catch (e) {
        this.log(`recovery file ${path.join(this.dir, name)} cannot be used: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      if (record === null || record.session === currentSession) continue;
      if (record.pid !== process.pid && processAlive(record.pid)) continue;
      out.push(record);
    }
    return out.sort((a, b) => (a.savedAt < b.savedAt ? 1 : a.savedAt > b.savedAt ? -1 : 0));
  }
}

/** What doc.recoverable lists of a record. */
export function recoverableOf(record: RecoveryRecord): RecoverableDocument {
  return { recoveryId: record.recoveryId, name: record.name, originalPath: record.originalPath, kind: record.kind, savedAt: record.savedAt };
}
