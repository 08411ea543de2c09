/**
 * The bar over the results table for the selected pair (a result, or two selected parts): what
 * it is, the interference volume outline, and the traversal view — triangles red in a contact,
 * yellow tested without one, and the visited boxes (pruned blue, descended orange) down to a
 * chosen depth. It says how the pair was decided: the resolution of its depth or distance, the
 * deflection its parts were re-tessellated to, and what an undecided pair may be.
 */
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../appStore';
import { formatCount, formatMeasure } from '../state/format';
import { inspectedPair, TRACE_MAX_DEPTH } from '../state/inspectSlice';
import { KIND_LABEL, resolutionSummary, resolutionTitle, undecidedText } from '../state/results';
import { maxBoxDepth } from '../scene/traceBoxes';

export function SelectedPairBar() {
  const pair = useApp(useShallow((s) => {
    const p = inspectedPair(s);
    return p ? { a: p.a, b: p.b, result: p.result } : null;
  }));
  const names = useApp((s) => s.partNames);
  if (!pair) return null;
  const r = pair.result;
  const undecided = r ? undecidedText(r) : null;
  const resolution = r ? resolutionSummary(r) : null;
  return (
    <div className="pair-bar" data-testid="pair-bar" role="group" aria-label="Selected pair">
      <span className="pair-name">
        {names.get(pair.a) ?? pair.a} <span className="muted">×</span> {names.get(pair.b) ?? pair.b}
      </span>
      {r && (
        <span className={`pair-kind kind-${r.kind}`}>
          {KIND_LABEL[r.kind]}
          {r.volumeMm3 !== null && ` · ${formatMeasure(r.volumeMm3)} mm³`}
          {r.depthMm !== null && ` · depth ${formatMeasure(r.depthMm)} mm`}
          {r.distanceMm !== null && r.kind === 'clearance' && ` · ${formatMeasure(r.distanceMm)} mm apart`}
          {undecided !== null && ` · ${undecided}`}
        </span>
      )}
      {r && resolution !== null && (
        <span className="pair-resolution muted" title={resolutionTitle(r)} data-testid="pair-resolution">
          {resolution}
        </span>
      )}
      <span className="spacer" />
      {r?.kind === 'interference' && <OverlapToggle />}
      <TraceControls />
    </div>
  );
}

function OverlapToggle() {
  const on = useApp((s) => s.showOverlap);
  const status = useApp((s) => s.overlap?.status ?? null);
  const setShowOverlap = useApp((s) => s.setShowOverlap);
  return (
    <label className="checkbox" title="Draw the volume the two parts share (translucent red, outlined), where both are closed">
      <input type="checkbox" checked={on} onChange={(e) => setShowOverlap(e.target.checked)} data-testid="overlap-toggle" />
      Volume
      {on && status === 'loading' && <span className="muted"> (computing…)</span>}
      {on && status === 'none' && <span className="muted"> (none)</span>}
    </label>
  );
}

function TraceControls() {
  const on = useApp((s) => s.traceOn);
  const boxes = useApp((s) => s.traceBoxes);
  const depth = useApp((s) => s.traceDepth);
  const trace = useApp((s) => s.trace);
  const setTraceOn = useApp((s) => s.setTraceOn);
  const setTraceBoxes = useApp((s) => s.setTraceBoxes);
  const setTraceDepth = useApp((s) => s.setTraceDepth);
  const data = trace?.status === 'ready' ? trace.data : null;
  const deepest = useMemo(() => (data ? maxBoxDepth(data.boxes) : TRACE_MAX_DEPTH), [data]);
  return (
    <div className="trace-controls">
      <label className="checkbox" title="How the tree query went: triangles red in a contact, yellow tested exactly without one, others never reached">
        <input type="checkbox" checked={on} onChange={(e) => setTraceOn(e.target.checked)} data-testid="trace-toggle" />
        Traversal view
      </label>
      {on && (
        <>
          <label className="checkbox" title="Draw the bounding boxes the query visited: blue pruned (disjoint), orange descended into or tested as leaves">
            <input type="checkbox" checked={boxes} onChange={(e) => setTraceBoxes(e.target.checked)} data-testid="trace-boxes" />
            Boxes
          </label>
          <label className="slider" title="Draw the boxes visited down to this depth of the traversal (0: the two root boxes)">
            <span>Depth</span>
            <input type="range" min={0} max={deepest} value={Math.min(depth, deepest)} disabled={!boxes} onChange={(e) => setTraceDepth(Number(e.target.value))} data-testid="trace-depth" aria-valuetext={`depth ${depth}`} />
            <output className="slider-value">{Math.min(depth, deepest)}</output>
          </label>
          {trace?.status === 'loading' && <span className="muted">tracing…</span>}
          {data && (
            <span className="trace-stats muted" data-testid="trace-stats">
              {formatCount(data.boxTests)} box tests · {formatCount(data.triTests)} triangle tests · {formatCount(data.trianglePairs.length / 2)} in contact
              {data.boxesOmitted > 0 && ` · ${formatCount(data.boxesOmitted)} boxes not drawn`}
            </span>
          )}
        </>
      )}
    </div>
  );
}
