/** Text over the viewport: what it shows, the grid step and the units, the live check, and empty states. */
import { useMemo } from 'react';
import { useApp } from '../appStore';
import { formatMeasure } from '../state/format';
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

/** What the live check finds while (and after) a part is dragged. */
function LiveStatus() {
  const live = useApp((s) => s.live);
  const settling = useApp((s) => s.drag?.settling ?? false);
  const dragging = useApp((s) => s.drag !== null);
  const names = useApp((s) => s.partNames);
  if (!live && !dragging) return null;
  const label = (id: string) => names.get(id) ?? id;
  const touching = live ? live.pairs.filter((p) => p.trianglePairs.length > 0) : [];
  const near = live ? live.pairs.filter((p) => p.trianglePairs.length === 0 && p.distanceMm !== null).sort((x, y) => (x.distanceMm ?? 0) - (y.distanceMm ?? 0)) : [];
  const stopped = live?.stoppedBy ?? [];
  let text: string;
  let tone: 'clear' | 'contact' | 'stopped';
  if (!live) {
    text = 'Live check…';
    tone = 'clear';
  } else if (stopped.length > 0) {
    text = `Stopped at contact with ${stopped.map(label).join(', ')}`;
    tone = 'stopped';
  } else if (touching.length > 0) {
    text = `Touching or crossing ${touching.map((p) => label(p.other)).join(', ')} (red)`;
    tone = 'contact';
  } else {
    text = near.length > 0 ? `Clear · nearest ${label(near[0].other)} at ${formatMeasure(near[0].distanceMm)} mm` : `Clear of every part within ${formatMeasure(live.withinMm)} mm`;
    tone = 'clear';
  }
  return (
    <div className={`live-status live-${tone}`} role="status" data-testid="live-status">
      <strong>{settling ? 'Settling' : dragging ? 'Live check' : 'Last move'}</strong> {text}
    </div>
  );
}
