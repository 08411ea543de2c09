/**
 * The host's lines in the app's log (../log.ts): a document opened (path, parts, triangles,
 * time), a check done (settings, counts, time) or failed, a request refused or failed.
 */
import type { CheckOutcome, DocumentInfo, HostError } from '../../contract/host.js';
import { errorFields, type ActivityLog } from '../log.js';

/** Channels whose response is the document they opened. */
const OPENING = new Set(['doc.open', 'doc.import', 'doc.recover']);

/** Milliseconds to a tenth, for the log. */
function ms(t: number): number {
  return Math.round(t * 10) / 10;
}

/** `open` (or `import`, `recover`): the document a request opened; nothing for other channels or a cancelled dialog. */
export function logOpened(log: ActivityLog, channel: string, result: unknown, elapsedMs: number): void {
  if (!OPENING.has(channel) || result === null || typeof result !== 'object') return;
  const doc = result as DocumentInfo;
  logDocument(log, channel === 'doc.open' ? 'open' : channel === 'doc.import' ? 'import' : 'recover', doc, elapsedMs);
}

export function logDocument(log: ActivityLog, event: string, doc: DocumentInfo, elapsedMs: number): void {
  log.write('info', event, {
    path: doc.path,
    kind: doc.kind,
    parts: doc.parts.length,
    triangles: doc.parts.reduce((n, p) => n + p.triangles, 0),
    ms: ms(elapsedMs),
  });
}

/** `check`: what was checked, with which settings, what was found and how long it took. */
export function logChecked(log: ActivityLog, path: string | null, name: string, outcome: CheckOutcome, elapsedMs: number): void {
  const s = outcome.summary;
  log.write('info', 'check', {
    path: path ?? name,
    scope: outcome.scope.kind,
    touchToleranceMm: outcome.settings.touchToleranceMm,
    clearanceMm: outcome.settings.clearanceMm,
    contactIsInterference: outcome.settings.contactIsInterference,
    parts: s.parts,
    triangles: s.triangles,
    interferences: s.interferences,
    contacts: s.contacts,
    clearanceViolations: s.clearanceViolations,
    undecided: s.undecided,
    ignored: s.ignored,
    ms: ms(elapsedMs),
  });
}

/** `check-failed` (with the error's message and stack) or `check-cancelled`. */
export function logCheckFailed(log: ActivityLog, path: string | null, name: string, e: unknown, cancelled: boolean, elapsedMs: number): void {
  if (cancelled) log.write('info', 'check-cancelled', { path: path ?? name, ms: ms(elapsedMs) });
  else log.write('error', 'check-failed', { path: path ?? name, ms: ms(elapsedMs), ...errorFields(e) });
}

/** `request-refused`: a request the host turned down, with its code and message. */
export function logRefused(log: ActivityLog, channel: string, error: HostError): void {
  log.write('warn', 'request-refused', { channel, code: error.code, path: error.path ?? undefined, message: error.message });
}
