/** Text over the viewport: what it shows, the grid step and the units, and empty states. */
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
      <div className="viewport-legend" aria-label="View information">
        <span>{projection === 'perspective' ? 'Perspective' : 'Orthographic'}</span>
        {step !== null && <span>Grid {formatMeasure(step)} mm</span>}
        <span>Units: mm</span>
      </div>
    </>
  );
}
