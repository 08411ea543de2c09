/**
 * The document model of the host service: one open document's state — its parts, one mesh and
 * tree per distinct body (`source#body`), current placements, visibility, colours, names,
 * settings, ignore rules, result statuses and the last check — and what is read from it: the
 * DocumentInfo the renderer sees, the parts a check and a report see, and the assembly a save
 * writes. Pure functions of the state; the store (./documentStore.ts) changes it.
 */
import path from 'node:path';
import {
  type CheckOutcome, type DocumentInfo, type IgnoreRule as IgnoreRuleInfo, type PartInfo, type Settings,
} from '../../contract/host.js';
import { displayNames } from '../../../src-core/assembly/displayName.js';
import { ASSEMBLY_EXTENSION } from '../../../src-core/assembly/format.js';
import type { AssemblyDoc, IgnoreRule as DocIgnoreRule, PartDef, SourceDef } from '../../../src-core/assembly/model.js';
import { pairKey, readSavedReview, splitPairKey, type Review, type ReviewEntry, type ResultStatus } from '../../../src-core/check/status.js';
import type { CheckResult } from '../../../src-core/check/types.js';
import { readResultIds, resultIdsObject } from '../../../src-core/check/resultIds.js';
import type { ReportInput, ReportPartInput } from '../../../src-core/report/index.js';
import type { Body } from '../bodies.js';
import type { RunnerPart } from '../checkRunner.js';
import type { FileFingerprint } from '../recovery.js';
import type { HostRefiner } from '../refiner.js';
import { failure } from './errors.js';
import type { Job } from './jobs.js';
import type { PictureBody } from '../../../src-core/report/picture.js';

/** A distinct body of the document (../bodies.ts), with what display needs. */
export interface BodyState extends Body {
  /** The body's own colour, `#rrggbb`, or null. */
  readonly colorHex: string | null;
  /** Display positions, made on first request. */
  positions32: Float32Array | null;
}

export interface PartState {
  readonly id: string;
  name: string;
  /** Its place in its source's product tree (src-core/assembly/resolve.ts ResolvedPart.path). */
  readonly path: readonly string[];
  readonly sourceId: string;
  readonly bodyIndex: number;
  readonly bodyKey: string;
  /** Row-major 4×4, body → world. */
  transform: Float64Array;
  color: string | null;
  visible: boolean;
  /** Fields of the saved part this version does not interpret, written back on saving. */
  readonly extra: PartDef['extra'];
}

export interface LastCheck {
  readonly outcome: CheckOutcome;
  readonly result: CheckResult;
  /** The parts as they were checked, for the report. */
  readonly reportParts: ReportPartInput[];
  /** Each part's triangles and placement as checked, for the report's pictures. */
  readonly pictureBodies?: ReadonlyMap<string, PictureBody>;
  /** The parts as checked (bodies and placements), for the overlap solids the pictures outline. */
  readonly checkedParts?: ReadonlyMap<string, RunnerPart>;
}

export interface AutosaveState {
  timer: ReturnType<typeof setTimeout> | null;
  /** performance.now() of the last write, -Infinity when none since the document was last clean. */
  lastWrite: number;
  /** `changes` when last written. */
  written: number;
  /** Writes and removals of the recovery file, one after the other. */
  chain: Promise<void>;
}

export interface DocState {
  readonly id: string;
  kind: 'assembly' | 'model' | 'new';
  /** The file opened or last saved (absolute); null for a new document. */
  path: string | null;
  /** The file relative source paths are relative to; null for a new, unsaved document. */
  base: string | null;
  /** Name, sources, unknown fields: what saving writes besides the parts' current state. */
  doc: AssemblyDoc;
  /** Sources given by absolute path (imported into an unsaved document); made relative on saving. */
  readonly absoluteSources: Set<string>;
  readonly bodies: Map<string, BodyState>;
  readonly parts: PartState[];
  readonly partIndex: Map<string, PartState>;
  settings: Settings;
  ignore: IgnoreRuleInfo[];
  /** The review of the results (../../../src-core/check/status.ts): a status per part pair. */
  review: Map<string, ReviewEntry>;
  /** The result numbers (../../../src-core/check/resultIds.ts) by pair key, saved as `resultIds`. */
  resultIds: Map<string, string>;
  /** The files read for the document (opened, recovered, imported), as a report's `inputs`. */
  inputs: ReportInput[];
  dirty: boolean;
  readonly warnings: string[];
  last: LastCheck | null;
  checkJob: Job | null;
  closed: boolean;
  /** `path` as opened or last saved (saving over it checks it is unchanged); null if none. */
  fingerprint: FileFingerprint | null;
  /**
   * A recovered document whose file comes from its recovery record, until saved: the record's
   * path grants no writing — saving there needs the access policy's leave, as any other target.
   */
  pathFromRecovery: boolean;
  /** Changes so far; a save leaves the document dirty when it changed while being written. */
  changes: number;
  readonly recoveryId: string;
  readonly autosave: AutosaveState;
  /** Refined bodies of the document's CAD sources, made by checks (created on first need). */
  refiner?: HostRefiner;
}

export const IDENTITY = Float64Array.from([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

export function newAutosaveState(): AutosaveState {
  return { timer: null, lastWrite: -Infinity, written: 0, chain: Promise.resolve() };
}

function isIdentity(m: Float64Array): boolean {
  for (let i = 0; i < 16; i++) if (m[i] !== IDENTITY[i]) return false;
  return true;
}

/** A file name without `.assembly.json` or its extension. */
export function stemOf(filePath: string): string {
  const base = path.basename(filePath);
  if (base.toLowerCase().endsWith(ASSEMBLY_EXTENSION)) return base.slice(0, -ASSEMBLY_EXTENSION.length);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** Source path `target` as written in a document whose file is in `folder` ('/' separators). */
export function relativeSourcePath(folder: string, target: string): string {
  const rel = path.relative(folder, target);
  return path.isAbsolute(rel) ? rel : rel.split(path.sep).join('/');
}

/** The document's name for messages: its file's, else its own, else 'Untitled'. */
export function docName(d: DocState): string {
  if (d.path) return path.basename(d.path);
  return d.doc.name || 'Untitled';
}

/** A part of the document, or 'unknown-part'. */
export function partOf(d: DocState, id: string): PartState {
  const p = d.partIndex.get(id);
  if (!p) throw failure('unknown-part', `${docName(d)}: there is no part '${id}'`, d.path);
  return p;
}

export function bodyOf(d: DocState, p: PartState): BodyState {
  return d.bodies.get(p.bodyKey) as BodyState;
}

/** The document as the renderer sees it. */
export function documentInfo(d: DocState): DocumentInfo {
  const sources = new Map(d.doc.sources.map((s) => [s.id, s.path]));
  const parts: PartInfo[] = d.parts.map((p) => {
    const b = bodyOf(d, p);
    return {
      id: p.id, name: p.name, path: [...p.path], sourceId: p.sourceId, sourcePath: sources.get(p.sourceId) ?? '', body: p.bodyIndex,
      bodyKey: p.bodyKey, triangles: b.body.triangleCount, transform: Array.from(p.transform), color: p.color,
      visible: p.visible, closed: b.closed,
    };
  });
  return {
    id: d.id,
    name: d.doc.name || docName(d),
    path: d.path,
    kind: d.kind,
    parts,
    settings: { ...d.settings },
    ignore: d.ignore.map((r) => ({ ...r })),
    statuses: statusesOf(d.review),
    resultIds: Object.fromEntries(d.resultIds),
    dirty: d.dirty,
    warnings: [...d.warnings],
  };
}

/**
 * The parts of a document as a check sees them (../checkRunner.ts): their bodies, shared, current
 * placements (copied), and for those in `refinable` sources which CAD body they place.
 */
export function runnerPartsOf(d: DocState, refinable: ReadonlySet<string> = new Set()): RunnerPart[] {
  return d.parts.map((p) => ({
    id: p.id, name: p.name, body: bodyOf(d, p), transform: Float64Array.from(p.transform),
    refine: refinable.has(p.sourceId) ? { sourceKey: p.sourceId, bodyIndex: p.bodyIndex } : null,
  }));
}

/** The parts of a document as its report lists them. */
export function reportPartsOf(d: DocState): ReportPartInput[] {
  const sources = new Map(d.doc.sources.map((s) => [s.id, s.path]));
  const labels = displayNames(d.parts.map((p) => ({ id: p.id, name: p.name, path: p.path, sourcePath: sources.get(p.sourceId) ?? '', body: p.bodyIndex })));
  return d.parts.map((p) => {
    const b = bodyOf(d, p);
    return {
      id: p.id, name: p.name, path: [...p.path], displayName: labels.get(p.id) ?? p.name,
      source: sources.get(p.sourceId) ?? p.sourceId, body: p.bodyIndex, triangles: b.body.triangleCount, closed: b.closed,
      transform: Array.from(p.transform),
    };
  });
}

/** The result numbers saved in the document's `resultIds` field; bad entries are dropped with a warning. */
export function readSavedResultIds(d: DocState, warnings: string[]): Map<string, string> {
  const { ids, dropped } = readResultIds(d.doc.extra.resultIds, (key) => splitPairKey(key, d.partIndex));
  if (dropped > 0) warnings.push(`${dropped} entr${dropped === 1 ? 'y' : 'ies'} of resultIds name no pair of parts or no result id R<n> used once and were ignored`);
  return ids;
}

/** The statuses of a review by pair key. */
export function statusesOf(review: Review): Record<string, ResultStatus> {
  return Object.fromEntries([...review].map(([key, e]) => [key, e.status]));
}

/** The review saved in the document's `resultStatus` field (kinds not known); bad entries are dropped with a warning. */
export function readReview(d: DocState, warnings: string[]): Map<string, ReviewEntry> {
  const raw = d.doc.extra.resultStatus;
  const { review, dropped } = readSavedReview(raw, (key) => splitPairKey(key, d.partIndex));
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    warnings.push('resultStatus is not an object of part pairs and was ignored');
  } else if (dropped > 0) {
    warnings.push(`${dropped} entr${dropped === 1 ? 'y' : 'ies'} of resultStatus name no pair of parts or no known status and were ignored`);
  }
  return review;
}

/**
 * The document as saved: current placements, visibility, colours, names, settings, ignore rules
 * and statuses. Sources given by absolute path are made relative to `target`'s folder; with
 * `target` null (a recovery record) sources stay as the document holds them.
 */
export function assemblyDocOf(d: DocState, target: string | null): AssemblyDoc {
  const folder = target !== null ? path.dirname(target) : null;
  const sources: SourceDef[] = d.doc.sources.map((s) => (folder !== null && d.absoluteSources.has(s.id) ? { ...s, path: relativeSourcePath(folder, s.path) } : s));
  const parts: PartDef[] = d.parts.map((p) => {
    const b = bodyOf(d, p);
    return {
      id: p.id,
      ...(p.name !== p.id ? { name: p.name } : {}),
      source: p.sourceId,
      body: p.bodyIndex,
      ...(!isIdentity(p.transform) ? { transform: Array.from(p.transform) } : {}),
      ...(!p.visible ? { visible: false } : {}),
      ...(p.color !== null && p.color !== b.colorHex ? { color: p.color } : {}),
      path: [...p.path],
      ...(p.extra !== undefined ? { extra: p.extra } : {}),
    };
  });
  const originalRules = new Map(d.doc.ignore.map((r) => [`${pairKey(r.a, r.b)}\u0000${r.reason ?? ''}`, r]));
  const ignore: DocIgnoreRule[] = d.ignore.map((r) => {
    const original = originalRules.get(`${pairKey(r.a, r.b)}\u0000${r.reason ?? ''}`);
    return { a: r.a, b: r.b, ...(r.reason !== undefined ? { reason: r.reason } : {}), ...(original?.extra ? { extra: original.extra } : {}) };
  });
  const extra: Record<string, unknown> = { ...d.doc.extra };
  delete extra.resultStatus;
  if (d.review.size > 0) extra.resultStatus = Object.fromEntries(Object.entries(statusesOf(d.review)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  delete extra.resultIds;
  if (d.resultIds.size > 0) extra.resultIds = resultIdsObject(d.resultIds);
  return {
    ...d.doc,
    sources,
    parts,
    settings: { ...d.settings, ...(d.doc.settings.extra ? { extra: d.doc.settings.extra } : {}) },
    ignore,
    extra,
  };
}
