/** The status bar: the document's file (its name and path as tooltip), counts, units, last check, host. */
import { useApp } from '../appStore';
import { formatClock, formatCount, formatDuration } from '../state/format';
import { documentLabel } from '../state/paths';
import { triangleCount } from '../state/selectors';

export function StatusBar() {
  const doc = useApp((s) => s.doc);
  const outcome = useApp((s) => s.check.outcome);
  const finishedAt = useApp((s) => s.check.finishedAt);
  const selected = useApp((s) => s.selectedParts.length);
  const busy = useApp((s) => s.busy);
  const host = useApp((s) => s.appInfo?.host ?? null);
  const connection = useApp((s) => s.connection);
  const label = doc ? documentLabel(doc) : null;
  return (
    <footer className="status-bar" data-testid="status-bar">
      <span className="doc-name" title={label?.title}>
        {doc && label ? `${label.text}${doc.dirty ? ' • unsaved' : ''}` : 'No document'}
      </span>
      <span data-testid="status-parts">{formatCount(doc?.parts.length ?? 0)} parts</span>
      <span data-testid="status-triangles">{formatCount(triangleCount(doc))} triangles</span>
      {selected > 0 && <span>{formatCount(selected)} selected</span>}
      <span>Units: mm</span>
      <span data-testid="status-last-check">
        {outcome && finishedAt !== null ? `Last check ${formatClock(finishedAt)} (${formatDuration(outcome.summary.elapsedMs)})` : 'Not checked'}
      </span>
      <span className="spacer" />
      {busy && <span className="busy">{busy}…</span>}
      <span className={`connection ${connection}`}>{connection === 'connected' ? (host === 'electron' ? 'Desktop' : 'Browser (local bridge)') : connection === 'failed' ? 'Disconnected' : 'Connecting'}</span>
    </footer>
  );
}
