/**
 * Check a document end to end in plain Node: open it (assembly or bare CAD/STL file), make its
 * bodies ready (./bodies.ts: one mesh and tree per distinct body, however many parts place it),
 * run the whole-assembly check, and build the report. Used by the command line (which checks in
 * its own process) and batch checks (the host's check child: a CheckRunner, ./checkRunner.ts).
 */
import path from 'node:path';
import { bodyKey } from '../../src-core/assembly/bodyKey.js';
import type { ResolvedAssembly, ImportFunction } from '../../src-core/assembly/resolve.js';
import type { RefineLimits } from '../../src-core/check/refine.js';
import type { CheckResult, CheckSettings } from '../../src-core/check/types.js';
import { readResultIds } from '../../src-core/check/resultIds.js';
import { diffStatuses, pairKey, readSavedReview, splitPairKey } from '../../src-core/check/status.js';
import { buildReport, type InterferenceReport, type ReportInput } from '../../src-core/report/index.js';
import { defaultImporter, openAny, type DocumentKind } from './documents.js';
import { InProcessCheckRunner, type CheckRunner, type RunnerPart } from './checkRunner.js';
import { APP_NAME, APP_VERSION } from './appInfo.js';
import { createHostRefiner, type RefinerSource } from './refiner.js';
import { bodySourcesOf, buildBodies, buildTreesInProcess, EarlyTrees, meshesOf, PartError, type Body, type TreeBuilder } from './bodies.js';
import type { PictureBody } from '../../src-core/report/picture.js';
import { openVolumeSession, type VolumeSession } from './volumeWorker.js';
import { OverlapPrefetch } from './volumePrefetch.js';
import { edgeReport } from '../../src-core/geometry/meshProps.js';

export type CheckStage = 'open' | 'trees' | 'check' | 'refine';

export interface CheckFileOptions {
  /** Importer for CAD/STL bytes (the default registry when absent). */
  readonly importer?: ImportFunction;
  readonly buildTrees?: TreeBuilder;
  /** Overrides of the document's settings (command-line flags). */
  readonly settings?: Partial<CheckSettings>;
  readonly onProgress?: (stage: CheckStage, done: number, total: number) => void;
  readonly signal?: AbortSignal;
  /** Fixed time for the report (tests); default now. */
  readonly generatedAt?: Date;
  /**
   * Re-tessellate the CAD bodies of pairs their triangles cannot decide (default true), within
   * these limits (src-core/check/refine.ts).
   */
  readonly refine?: boolean;
  readonly refineLimits?: Partial<RefineLimits>;
  /** Where the check runs (default: this process). */
  readonly runner?: CheckRunner;
  /**
   * Interference volumes in this process's volume worker (./volumeWorker.ts), with the bodies of
   * parts whose bounds overlap sent to it while a saved assembly is still read, to be converted
   * there meanwhile (./volumePrefetch.ts): the command line's, with the default runner.
   */
  readonly prefetchVolumes?: boolean;
}

export interface CheckFileResult {
  readonly path: string;
  readonly kind: DocumentKind;
  readonly assembly: ResolvedAssembly;
  readonly check: CheckResult;
  readonly report: InterferenceReport;
  /** Milliseconds per stage. */
  readonly timings: { readonly openMs: number; readonly treesMs: number; readonly checkMs: number };
  /** Each part's triangles as checked (body and placement), for the report's pictures. */
  readonly pictureBodies: ReadonlyMap<string, PictureBody>;
}

/** A document opened and ready to check: its parts with meshes and trees, and its settings. */
export interface PreparedCheck {
  readonly path: string;
  readonly kind: DocumentKind;
  readonly assembly: ResolvedAssembly;
  /** Each distinct body, by bodyKey. */
  readonly bodies: ReadonlyMap<string, Body>;
  readonly parts: RunnerPart[];
  readonly settings: CheckSettings;
  readonly timings: { readonly openMs: number; readonly treesMs: number };
  /** CAD sources that can be read again finer, by source id. */
  readonly refinable: ReadonlyMap<string, RefinerSource>;
  readonly importer: ImportFunction;
  readonly buildTrees: TreeBuilder;
  /** Every file read, with its size, time and SHA-256 (the report's `inputs`). */
  readonly inputs: readonly ReportInput[];
  /** The document's bodies in the volume worker (`prefetchVolumes`), or null; ended by the caller (checkFile). */
  readonly volumeSession: VolumeSession | null;
}

/** Opens a file and builds its trees (the part of checkFile before the check itself). */
export async function prepareCheck(filePath: string, options: CheckFileOptions = {}): Promise<PreparedCheck> {
  const t0 = performance.now();
  const fileName = path.basename(filePath);
  options.onProgress?.('open', 0, 1);
  const build = options.buildTrees ?? buildTreesInProcess;
  const volumeSession = options.prefetchVolumes ? openVolumeSession() : null;
  // A body sent ahead carries its edge report (the check needs it anyway), so that the worker
  // does not count its edges again.
  const prefetch = volumeSession ? new OverlapPrefetch((mesh) => {
    edgeReport(mesh);
    volumeSession.prefetch(mesh);
  }) : null;
  // A saved assembly's trees start as each source arrives, while the next ones are read (and the
  // bodies of parts that overlap go to the volume worker).
  const early = new EarlyTrees(build, options.signal, prefetch ? (mesh, transforms) => {
    for (const t of transforms) prefetch.add(mesh, t);
  } : undefined);
  let opened: Awaited<ReturnType<typeof openAny>>;
  let meshes: ReturnType<typeof meshesOf>;
  try {
    opened = await openAny(filePath, {
      importer: options.importer,
      signal: options.signal,
      onProgress: (done, total) => options.onProgress?.('open', done, total),
      onSource: (sourceId, result, placed, placements) => early.start(sourceId, result.bodies, placed, placements),
    });
    if (opened.assembly.parts.length === 0) throw new PartError(`${fileName}: the file has no parts to check`);
    meshes = meshesOf(bodySourcesOf(opened.assembly), fileName, early);
  } catch (e) {
    volumeSession?.end();
    await early.stop();
    throw e;
  }
  const assembly = opened.assembly;
  const t1 = performance.now();

  let bodies: Map<string, Body>;
  try {
    bodies = await buildBodies(meshes, {
      buildTrees: build,
      ...(options.signal ? { signal: options.signal } : {}),
      onProgress: (done, total) => options.onProgress?.('trees', done, total),
      early,
    });
  } catch (e) {
    volumeSession?.end();
    throw e;
  }
  const t2 = performance.now();

  // CAD sources (their bodies know their chordal error) can be tessellated again, finer.
  const refinable = new Map<string, RefinerSource>();
  const folder = path.dirname(path.resolve(opened.path));
  for (const source of assembly.doc.sources) {
    const its = assembly.parts.filter((p) => p.sourceId === source.id);
    if (its.length === 0 || !its.every((p) => p.body.chordErrorMm)) continue;
    const file = opened.kind === 'assembly' ? path.resolve(folder, source.path) : path.resolve(opened.path);
    const bodies = assembly.bodyCounts.get(source.id);
    if (bodies === undefined) continue;
    refinable.set(source.id, { path: file, bodies });
  }
  const parts: RunnerPart[] = assembly.parts.map((p) => ({
    id: p.id,
    name: p.name,
    body: bodies.get(bodyKey(p.sourceId, p.bodyIndex)) as Body,
    transform: Float64Array.from(p.transform),
    refine: refinable.has(p.sourceId) ? { sourceKey: p.sourceId, bodyIndex: p.bodyIndex } : null,
  }));
  const docSettings = assembly.doc.settings;
  const settings: CheckSettings = {
    touchToleranceMm: options.settings?.touchToleranceMm !== undefined ? options.settings.touchToleranceMm : docSettings.touchToleranceMm,
    clearanceMm: options.settings?.clearanceMm ?? docSettings.clearanceMm,
    contactIsInterference: options.settings?.contactIsInterference ?? docSettings.contactIsInterference,
  };
  return {
    path: opened.path, kind: opened.kind, assembly, bodies, parts, settings, timings: { openMs: t1 - t0, treesMs: t2 - t1 },
    refinable, importer: options.importer ?? defaultImporter(), buildTrees: build, inputs: opened.inputs, volumeSession,
  };
}

let preparedChecks = 0;

/** Runs the check of a prepared document, refining what its triangles cannot decide. */
export async function runPreparedCheck(
  prepared: PreparedCheck,
  options: Pick<CheckFileOptions, 'onProgress' | 'signal' | 'refine' | 'refineLimits' | 'runner'> = {},
): Promise<CheckResult> {
  const runner = options.runner ?? new InProcessCheckRunner();
  // A runner that keeps bodies keeps these for this one check.
  const docId = `check-file-${++preparedChecks}`;
  const refiner = options.refine === false || prepared.refinable.size === 0
    ? null
    : createHostRefiner({ importer: prepared.importer, buildTrees: prepared.buildTrees, sources: prepared.refinable });
  try {
    return await runner.runCheck(
      { docId, parts: prepared.parts, settings: prepared.settings, ignore: prepared.assembly.doc.ignore },
      {
        ...(options.signal ? { signal: options.signal } : {}),
        onProgress: (p) => options.onProgress?.(p.phase === 'refine' ? 'refine' : 'check', p.done, p.total),
        refiner,
        ...(options.refineLimits ? { refineLimits: options.refineLimits } : {}),
        ...(prepared.volumeSession ? { volumeSession: prepared.volumeSession } : {}),
      },
    );
  } finally {
    runner.forget(docId);
  }
}

/** Opens and checks one file; see the module comment. */
export async function checkFile(filePath: string, options: CheckFileOptions = {}): Promise<CheckFileResult> {
  const prepared = await prepareCheck(filePath, options);
  const t2 = performance.now();
  let check: CheckResult;
  try {
    check = await runPreparedCheck(prepared, options);
  } finally {
    prepared.volumeSession?.end();
  }
  const t3 = performance.now();
  const { assembly, bodies } = prepared;
  const fileName = path.basename(filePath);

  const sources = new Map(assembly.doc.sources.map((s) => [s.id, s.path]));
  // The result numbers the app saved with the assembly; pairs without one are numbered after them.
  const partIds = new Set(assembly.parts.map((p) => p.id));
  const saved = readResultIds(assembly.doc.extra.resultIds, (key) => splitPairKey(key, partIds));
  const idWarnings = saved.dropped > 0 ? [`${saved.dropped} entr${saved.dropped === 1 ? 'y' : 'ies'} of resultIds name no pair of parts or no result id R<n> used once and were ignored`] : [];
  // The review statuses the app saved: each result's status against them (new, active, ignored),
  // and the findings this check no longer has (resolved), as the app's next check would give them.
  const savedReview = readSavedReview(assembly.doc.extra.resultStatus, (key) => splitPairKey(key, partIds));
  if (savedReview.dropped > 0) {
    idWarnings.push(`${savedReview.dropped} entr${savedReview.dropped === 1 ? 'y' : 'ies'} of resultStatus name no pair of parts or no known status and were ignored`);
  }
  const diff = diffStatuses({ before: savedReview.review, results: check.results, partOrder: assembly.parts.map((p) => p.id) });
  const report = buildReport({
    assemblyName: fileName,
    title: assembly.doc.name || undefined,
    check: { ...check, warnings: [...assembly.warnings, ...idWarnings, ...check.warnings] },
    review: { ids: saved.ids, statuses: new Map(check.results.map((r, i) => [pairKey(r.a, r.b), diff.statuses[i]!])), resolved: diff.resolved },
    inputs: prepared.inputs,
    parts: assembly.parts.map((p) => ({
      id: p.id,
      name: p.name,
      path: p.path,
      transform: p.transform,
      source: sources.get(p.sourceId) ?? p.sourceId,
      body: p.bodyIndex,
      triangles: p.body.triangleCount,
      closed: bodies.get(bodyKey(p.sourceId, p.bodyIndex))?.closed ?? false,
    })),
    generatedAt: options.generatedAt ?? new Date(),
    generator: { name: APP_NAME, version: APP_VERSION },
  });
  return {
    path: prepared.path,
    kind: prepared.kind,
    assembly,
    check,
    report,
    timings: { openMs: prepared.timings.openMs, treesMs: prepared.timings.treesMs, checkMs: t3 - t2 },
    pictureBodies: pictureBodiesOf(prepared.parts),
  };
}

/** Each part's triangles and placement, by part id (references, no copies), for pictures. */
export function pictureBodiesOf(parts: readonly { readonly id: string; readonly body: { readonly mesh: { readonly positions: Float64Array; readonly indices: Uint32Array } }; readonly transform: ArrayLike<number> }[]): Map<string, PictureBody> {
  return new Map(parts.map((p) => [p.id, { positions: p.body.mesh.positions, indices: p.body.mesh.indices, transform: p.transform }] as const));
}
