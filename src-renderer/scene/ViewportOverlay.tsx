/** Text over the viewport: what it shows, the grid step and the units, the live check, and empty states. */
import { useMemo } from 'react';
import { useApp } from '../appStore';
import { DEFAULT_TOUCH_TOLERANCE_MM } from '../../src-core/check/tolerance';
import { formatMeasure } from '../state/format';
import { liveSummary } from '../state/liveStatus';
import { gridFor } from './sceneMath';
import { useSceneBounds } from './useSceneBounds';

export function ViewportOverlay() {
  const doc = useApp((s) => s.doc);
  const status = useApp((s) => s.geometry.status);
  const connection = useApp((s) => s.connection);
  const projection = useApp((s) => s.projection);
  const isolated = useApp((s) => s.isolation !== null);
  const bounds = useSceneBounds();
  const step = useMemo(() => (bounds.isEmpty() ? null : gridFor(bounds).step), [bounds]);
  let message: string | null = null;
  if (connection === 'connecting') message = 'Connecting…';
  else if (connection === 'failed') message = 'Not connected to the application host.';
  else if (!doc) message = 'Open an assembly or a STEP, IGES, BREP or STL file (Ctrl+O).';
  else if (doc.parts.length === 0) message = 'This assembly has no parts yet: import a CAD or STL file.';
  else if (status === 'loading') message = 'Loading geometry…';
  return (
    <>
      {message && <div className="viewport-message">{message}</div>}
      <LiveStatus />
      <div className="viewport-legend" aria-label="View information">
        <span>{projection === 'perspective' ? 'Perspective' : 'Orthographic'}</span>
        {step !== null && <span>Grid {formatMeasure(step)} mm</span>}
        <span>Units: mm</span>
        {isolated && <span className="legend-isolated">Isolated — Esc shows the rest</span>}
      </div>
    </>
  );
}

/** What the live check finds while (and after) a part is dragged (state/liveStatus.ts). */
function LiveStatus() {
  const live = useApp((s) => s.live);
  const settling = useApp((s) => s.drag?.settling ?? false);
  const dragging = useApp((s) => s.drag !== null);
  const names = useApp((s) => s.partNames);
  const touchMm = useApp((s) => s.doc?.settings.touchToleranceMm ?? DEFAULT_TOUCH_TOLERANCE_MM);
  if (!live && !dragging) return null;
  const summary = live ? liveSummary(live, touchMm, (id) => names.get(id) ?? id) : { tone: 'clear' as const, text: 'Live check…' };
  return (
    <div className={`live-status live-${summary.tone}`} role="status" data-testid="live-status" data-tone={summary.tone}>
      <strong>{settling ? 'Settling' : dragging ? 'Live check' : 'Last move'}</strong> {summary.text}
    </div>
  );
}
