/**
 * View controls over the viewport: fit, standard views, projection, the selected result's
 * crossing triangles, and the section view (its axis, side and offset along its normal, in mm).
 */
import { useApp } from '../appStore';
import { formatMeasure } from '../state/format';
import type { SectionState } from '../state/types';
import { CommandButton } from './Toolbar';

export function ViewToolbar() {
  const hasDoc = useApp((s) => s.doc !== null);
  const projection = useApp((s) => s.projection);
  const showCrossing = useApp((s) => s.showCrossing);
  const sectionOn = useApp((s) => s.section.on);
  return (
    <div className="view-toolbar" role="toolbar" aria-label="View">
      <CommandButton command="view.fitAll" label="Fit all" title="Fit all in view (F)" disabled={!hasDoc} testId="view-fit" />
      <CommandButton command="view.fitSelection" label="Fit selection" title="Fit the selected parts in view (S, or double-click)" disabled={!hasDoc} />
      <span className="separator" aria-hidden="true" />
      <CommandButton command="view.front" label="Front" title="Front view (1)" disabled={!hasDoc} />
      <CommandButton command="view.top" label="Top" title="Top view (7)" disabled={!hasDoc} />
      <CommandButton command="view.right" label="Right" title="Right view (3)" disabled={!hasDoc} />
      <CommandButton command="view.iso" label="Iso" title="Isometric view (0)" disabled={!hasDoc} />
      <span className="separator" aria-hidden="true" />
      <CommandButton
        command="view.toggleProjection"
        label={projection === 'perspective' ? 'Perspective' : 'Orthographic'}
        title="Switch between perspective and orthographic projection (P)"
        pressed={projection === 'orthographic'}
        testId="view-projection"
      />
      <span className="separator" aria-hidden="true" />
      <CommandButton
        command="view.crossing"
        label="Triangles"
        title="Also draw the selected result's crossing triangles, faintly (T)"
        pressed={showCrossing}
        disabled={!hasDoc}
        testId="view-crossing"
      />
      <CommandButton command="view.section" label="Section" title="Section view: cut through the selected finding, capped (X)" pressed={sectionOn} disabled={!hasDoc} testId="view-section" />
      {sectionOn && <SectionControls />}
    </div>
  );
}

const AXES: { value: SectionState['axis']; label: string }[] = [
  { value: 'auto', label: 'Thinnest' },
  { value: 'x', label: 'X' },
  { value: 'y', label: 'Y' },
  { value: 'z', label: 'Z' },
  { value: 'view', label: 'View' },
];

function SectionControls() {
  const section = useApp((s) => s.section);
  const setSection = useApp((s) => s.setSection);
  const step = section.rangeMm > 200 ? 0.5 : section.rangeMm > 20 ? 0.1 : 0.01;
  return (
    <span className="section-controls" data-testid="section-controls">
      <select
        aria-label="Section plane normal"
        title="The plane's normal: along the finding's thinnest extent, a world axis, or the view direction"
        value={section.axis}
        onChange={(e) => setSection({ axis: e.target.value as SectionState['axis'] }, true)}
        data-testid="section-axis"
      >
        {AXES.map((a) => (
          <option key={a.value} value={a.value}>
            {a.label}
          </option>
        ))}
      </select>
      <button type="button" title="Keep the other side of the plane" aria-pressed={section.flip} onClick={() => setSection({ flip: !section.flip })} data-testid="section-flip">
        Flip
      </button>
      <input
        type="range"
        aria-label="Section plane offset (mm)"
        title="Move the plane along its normal"
        min={-section.rangeMm}
        max={section.rangeMm}
        step={step}
        value={section.offsetMm}
        onChange={(e) => setSection({ offsetMm: Number(e.target.value) })}
        data-testid="section-offset"
      />
      <output className="section-offset" data-testid="section-offset-value">
        {section.offsetMm >= 0 ? '+' : '−'}
        {formatMeasure(Math.abs(section.offsetMm))} mm
      </output>
    </span>
  );
}
