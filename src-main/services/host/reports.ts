/**
 * Reports of the host service: the last check of a document exported as HTML, CSV or JSON
 * (`report.export`), and the rule every report written here follows: never over a saved
 * assembly or a file that failed to open.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { RequestOf } from '../../contract/host.js';
import { ASSEMBLY_EXTENSION } from '../../../src-core/assembly/format.js';
import { pairKey } from '../../../src-core/check/status.js';
import { buildReport, reportToCsv, reportToHtml, reportToJson, type InterferenceReport } from '../../../src-core/report/index.js';
import { MAX_PICTURES, reportPictures, type PictureBody, type ReportPicturesOptions } from '../../../src-core/report/picture.js';
import { APP_NAME, APP_VERSION } from '../appInfo.js';
import { writeFileAtomic } from '../files.js';
import type { RunnerPart } from '../checkRunner.js';
import type { ReportFormat } from './api.js';
import { allowed, requireDialogs, type HostContext } from './context.js';
import { docName, stemOf, type DocState } from './document.js';
import type { DocumentStore } from './documentStore.js';
import { failure } from './errors.js';

/**
 * The report as text; an HTML report gets pictures of its interferences and clearance violations
 * when the parts' triangles as checked are given.
 */
export function renderReport(
  report: InterferenceReport, format: ReportFormat, bodies?: ReadonlyMap<string, PictureBody>, overlaps?: ReportPicturesOptions['overlaps'],
): string {
  if (format === 'json') return reportToJson(report);
  if (format === 'csv') return reportToCsv(report);
  if (bodies === undefined) return reportToHtml(report);
  return reportToHtml(report, { pictures: reportPictures(report, (id) => bodies.get(id) ?? null, overlaps ? { overlaps } : {}) });
}

/** Longest time an export spends on overlap solids for its pictures; those not reached are drawn without. */
const OVERLAP_BUDGET_MS = 10_000;

/**
 * The overlap solids of the pictured interferences of closed parts (manifold-3d, where the
 * checks run), by result index, within OVERLAP_BUDGET_MS; one that fails is drawn without.
 */
async function overlapsFor(ctx: HostContext, d: DocState, report: InterferenceReport, parts: ReadonlyMap<string, RunnerPart>): Promise<Map<number, { positions: Float32Array; indices: Uint32Array }>> {
  const closed = new Map(report.parts.map((p) => [p.id, p.closed === true] as const));
  const out = new Map<number, { positions: Float32Array; indices: Uint32Array }>();
  const start = performance.now();
  let tried = 0;
  for (const [i, r] of report.results.entries()) {
    if (r.kind !== 'interference' || !closed.get(r.a) || !closed.get(r.b)) continue;
    if (tried++ >= MAX_PICTURES || performance.now() - start > OVERLAP_BUDGET_MS) break;
    const a = parts.get(r.a), b = parts.get(r.b);
    if (!a || !b) continue;
    try {
      const solid = await ctx.checkRunner.overlap(d.id, a, b);
      if (solid) out.set(i, { positions: solid.positions, indices: solid.indices });
    } catch (e) {
      ctx.log(`the overlap of ${r.a} and ${r.b} for the report's picture: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return out;
}

/** Why no report may be written to `target` ('would-overwrite'): a file that failed to open or a saved assembly; else null. */
export async function reportTargetProblem(store: DocumentStore, target: string): Promise<string | null> {
  const failed = await store.unopenableReason(target);
  if (failed !== undefined) return `${target}: no report was written: this file could not be opened (${failed}) and is kept as it is`;
  if (target.toLowerCase().endsWith(ASSEMBLY_EXTENSION)) {
    const exists = await stat(target).then(() => true, () => false);
    if (exists) return `${target}: no report was written: this is a saved assembly and is kept as it is; choose another name`;
  }
  return null;
}

/** `report.export`: the document's last check as a report file; null when the user cancels. */
export async function exportReport(
  ctx: HostContext, store: DocumentStore, d: DocState, { format, path: requested }: RequestOf<'report.export'>,
): Promise<{ path: string } | null> {
  const name = docName(d);
  if (!d.last) throw failure('no-check', `${name}: there is nothing to report yet — run a check first`, d.path);
  let target: string;
  let chosen = false;
  if (requested !== undefined) {
    target = requested;
  } else {
    const folder = d.path !== null ? path.dirname(d.path) : '';
    const picked = await requireDialogs(ctx, 'report file').saveFile({
      title: 'Export Report', defaultPath: path.join(folder, `${stemOf(name)}.report.${format}`),
      filters: [{ name: format.toUpperCase(), extensions: [format] }],
    });
    if (picked === null) return null;
    target = picked;
    chosen = true;
  }
  const ext = path.extname(target).toLowerCase();
  if (!(ext === `.${format}` || (format === 'html' && ext === '.htm'))) target += `.${format}`;
  target = path.resolve(target);
  if (chosen) ctx.policy.grant(target, 'write');
  else await allowed(ctx, target, 'write');
  const kept = await reportTargetProblem(store, target);
  if (kept !== null) throw failure('would-overwrite', kept, target);
  const { result, reportParts, outcome } = d.last;
  const statuses = new Map([...d.review].map(([key, e]) => [key, e.status] as const));
  // Pairs the check resolved that the review still lists as resolved (the user may have changed them since).
  const found = new Set(result.results.map((r) => pairKey(r.a, r.b)));
  const resolved = outcome.resolved.filter((p) => statuses.get(pairKey(p.a, p.b)) === 'resolved' && !found.has(pairKey(p.a, p.b)));
  const report = buildReport({
    assemblyName: name,
    ...(d.doc.name ? { title: d.doc.name } : {}),
    check: { ...result, warnings: [...d.warnings, ...result.warnings] },
    review: { ids: d.resultIds, statuses, resolved },
    inputs: d.inputs,
    parts: reportParts,
    generatedAt: new Date(),
    generator: { name: APP_NAME, version: APP_VERSION },
  });
  const { pictureBodies, checkedParts } = d.last;
  const overlaps = format === 'html' && checkedParts ? await overlapsFor(ctx, d, report, checkedParts) : undefined;
  await writeFileAtomic(target, renderReport(report, format, pictureBodies, overlaps));
  return { path: target };
}
