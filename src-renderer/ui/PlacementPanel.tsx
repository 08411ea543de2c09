/**
 * The placement of the selected part: offset (mm) and rotation (°) fields, the gizmo's mode and
 * snapping steps, the live check and stop at contact, undo and redo. Every change is one undoable
 * step sent to the host (saved with the assembly). The fields' convention is in their tooltips
 * (see state/placement.ts).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { geometryRegistry, useApp } from '../appStore';
import { parseSignedInput, placementFieldText } from '../state/format';
import { aabbCenter, IDENTITY_TRANSFORM, placementFields, withPlacementField, type PlacementAxis, type Vec3 } from '../state/placement';
import type { PartInfo } from '../../src-main/contract/host';

const AXES: PlacementAxis[] = [0, 1, 2];
const AXIS_NAMES = ['X', 'Y', 'Z'];
const SNAP_MM = [null, 0.01, 0.1, 0.5, 1, 5, 10];
const SNAP_DEG = [null, 1, 5, 15, 45, 90];

const OFFSET_TIP =
  'Offset of the part’s centre (the centre of its bounding box) from where its file places it, along the world axes, in millimetres. Enter to apply, Esc to put the value back and leave the field, ↑/↓ to step.';
const ROTATION_TIP =
  'Orientation relative to the file, as Euler angles in degrees about the fixed world axes, applied X first, then Y, then Z (R = Rz·Ry·Rx), turning the part about its own centre — where it is now. Enter to apply, Esc to put the value back and leave the field, ↑/↓ to step.';

export function PlacementPanel() {
  const part = useApp((s) => (s.selectedParts.length === 1 ? (s.doc?.parts.find((p) => p.id === s.selectedParts[0]) ?? null) : null));
  const count = useApp((s) => s.selectedParts.length);
  const name = useApp((s) => (part ? (s.partNames.get(part.id) ?? part.id) : ''));
  return (
    <section className="placement" aria-label="Placement" data-testid="placement-panel">
      <div className="panel-header">
        <h2>Placement</h2>
        {part && (
          <span className="placement-name" title={part.id}>
            {name}
          </span>
        )}
        <UndoButtons />
      </div>
      {part ? <PlacementFields part={part} name={name} /> : <p className="empty">{count === 0 ? 'Select a part to move or turn it.' : `${count} parts selected: select one to move it.`}</p>}
      <GizmoSettings />
    </section>
  );
}

function UndoButtons() {
  const undoLabel = useApp((s) => s.history.past.at(-1)?.label ?? null);
  const redoLabel = useApp((s) => s.history.future.at(-1)?.label ?? null);
  const runCommand = useApp((s) => s.runCommand);
  const dragging = useApp((s) => s.drag !== null);
  return (
    <div className="panel-actions">
      <button type="button" disabled={undoLabel === null || dragging} title={undoLabel ? `Undo “${undoLabel}” (Ctrl+Z)` : 'Nothing to undo (Ctrl+Z)'} aria-label="Undo" onClick={() => runCommand('edit.undo')} data-testid="undo">
        ↶
      </button>
      <button type="button" disabled={redoLabel === null || dragging} title={redoLabel ? `Redo “${redoLabel}” (Ctrl+Shift+Z or Ctrl+Y)` : 'Nothing to redo (Ctrl+Shift+Z or Ctrl+Y)'} aria-label="Redo" onClick={() => runCommand('edit.redo')} data-testid="redo">
        ↷
      </button>
    </div>
  );
}

function PlacementFields({ part, name }: { part: PartInfo; name: string }) {
  const version = useApp((s) => s.geometry.version);
  const movePart = useApp((s) => s.movePart);
  const dragging = useApp((s) => s.drag !== null);
  const snapMm = useApp((s) => s.snapMm);
  const snapDeg = useApp((s) => s.snapDeg);
  // The pivot is the centre of the body's box; `version`: the box is known once the body is loaded.
  const pivot = useMemo<Vec3>(() => {
    const box = geometryRegistry.bodyBounds(part.bodyKey);
    return box ? aabbCenter(box) : [0, 0, 0];
  }, [part.bodyKey, version]);
  // While the part is dragged the fields show where it is drawn (the live check's probes move it on the host).
  const shown = useApp((s) => (s.drag?.partId === part.id ? s.drag.shown : part.transform));
  const fields = useMemo(() => placementFields(shown, pivot), [shown, pivot]);
  const commit = (field: 'offset' | 'rotation', axis: PlacementAxis, value: number) => {
    const next = withPlacementField(part.transform, pivot, field, axis, value);
    const verb = field === 'offset' ? 'Move' : 'Rotate';
    void movePart(part.id, next, `${verb} ${name} (${field === 'offset' ? '' : 'about '}${AXIS_NAMES[axis]} ${placementFieldText(value)}${field === 'offset' ? ' mm' : '°'})`);
  };
  const atFile = part.transform.every((v, i) => v === IDENTITY_TRANSFORM[i]);
  return (
    <div className="placement-grid">
      <span className="placement-label" title={OFFSET_TIP}>
        Offset <span className="unit">mm</span>
      </span>
      {AXES.map((axis) => (
        <NumberField
          key={`o${axis}`}
          label={`Offset ${AXIS_NAMES[axis]}`}
          axisName={AXIS_NAMES[axis]}
          value={fields.offset[axis]}
          unit="mm"
          step={snapMm ?? 1}
          title={OFFSET_TIP}
          disabled={dragging}
          testId={`placement-${'xyz'[axis]}`}
          onCommit={(v) => commit('offset', axis, v)}
        />
      ))}
      <span className="placement-label" title={ROTATION_TIP}>
        Rotation <span className="unit">°</span>
      </span>
      {AXES.map((axis) => (
        <NumberField
          key={`r${axis}`}
          label={`Rotation about ${AXIS_NAMES[axis]}`}
          axisName={AXIS_NAMES[axis]}
          value={fields.rotationDeg[axis]}
          unit="deg"
          step={snapDeg ?? 5}
          title={ROTATION_TIP}
          disabled={dragging}
          testId={`placement-r${'xyz'[axis]}`}
          onCommit={(v) => commit('rotation', axis, v)}
        />
      ))}
      <button
        type="button"
        className="placement-reset"
        disabled={atFile || dragging}
        title="Put the part back where its file places it"
        onClick={() => void movePart(part.id, IDENTITY_TRANSFORM, `Reset ${name}`)}
        data-testid="placement-reset"
      >
        Reset to file
      </button>
    </div>
  );
}

function NumberField(props: {
  label: string;
  axisName: string;
  value: number;
  unit: 'mm' | 'deg';
  step: number;
  title: string;
  disabled: boolean;
  testId: string;
  onCommit: (value: number) => void;
}) {
  const { value, unit, onCommit } = props;
  // What is typed, while it differs from the value; otherwise the field shows the value itself, in the
  // same render that moves the part (never an effect later, so a drag cannot leave it trailing).
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const text = draft ?? placementFieldText(value);
  /** Esc leaves the field without applying what was typed. */
  const reverting = useRef(false);
  // A new value (applied, undone, dragged) replaces what was typed.
  useEffect(() => {
    setDraft(null);
    setError(null);
  }, [value]);
  const commit = (raw: string) => {
    const parsed = parseSignedInput(raw, unit);
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    setError(null);
    if (placementFieldText(parsed.value) !== placementFieldText(value)) onCommit(parsed.value);
    else setDraft(null);
  };
  return (
    <label className="number-field" title={error ?? props.title}>
      <span className="axis">{props.axisName}</span>
      <input
        type="text"
        inputMode="decimal"
        value={text}
        disabled={props.disabled}
        aria-label={`${props.label} (${unit === 'mm' ? 'mm' : 'degrees'})`}
        aria-invalid={error !== null}
        data-testid={props.testId}
        spellCheck={false}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => {
          if (reverting.current) reverting.current = false;
          else commit(text);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(text);
          else if (e.key === 'Escape') {
            // Back to the value, and out of the field: the next keys are shortcuts again.
            setDraft(null);
            setError(null);
            reverting.current = true;
            e.currentTarget.blur();
          } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
            e.preventDefault();
            const parsed = parseSignedInput(text, unit);
            const base = parsed.ok ? parsed.value : value;
            const next = Number((base + (e.key === 'ArrowUp' ? props.step : -props.step)).toFixed(6));
            setDraft(placementFieldText(next));
            commit(String(next));
          }
        }}
      />
    </label>
  );
}

function GizmoSettings() {
  const mode = useApp((s) => s.gizmoMode);
  const snapMm = useApp((s) => s.snapMm);
  const snapDeg = useApp((s) => s.snapDeg);
  const liveCheck = useApp((s) => s.liveCheck);
  const stopAtContact = useApp((s) => s.stopAtContact);
  const runCommand = useApp((s) => s.runCommand);
  const setSnap = useApp((s) => s.setSnap);
  const setLiveCheck = useApp((s) => s.setLiveCheck);
  const setStopAtContact = useApp((s) => s.setStopAtContact);
  return (
    <div className="gizmo-settings">
      <div className="segmented" role="group" aria-label="Gizmo">
        <button type="button" aria-pressed={mode === 'translate'} title="Move the selected part with the gizmo (W; again to hide it)" onClick={() => runCommand('gizmo.translate')} data-testid="gizmo-translate">
          Move <kbd>W</kbd>
        </button>
        <button type="button" aria-pressed={mode === 'rotate'} title="Turn the selected part with the gizmo (E; again to hide it)" onClick={() => runCommand('gizmo.rotate')} data-testid="gizmo-rotate">
          Rotate <kbd>E</kbd>
        </button>
      </div>
      <span className="snap" title="Snapping steps of the gizmo: distance when moving, angle when turning">
        <span>Snap</span>
        <select value={snapMm === null ? '' : String(snapMm)} onChange={(e) => setSnap({ mm: e.target.value === '' ? null : Number(e.target.value) })} aria-label="Move snapping step (mm)" data-testid="snap-mm">
          {SNAP_MM.map((v) => (
            <option key={String(v)} value={v === null ? '' : String(v)}>
              {v === null ? 'free move' : `${v} mm`}
            </option>
          ))}
        </select>
        <select value={snapDeg === null ? '' : String(snapDeg)} onChange={(e) => setSnap({ deg: e.target.value === '' ? null : Number(e.target.value) })} aria-label="Rotation snapping step (degrees)" data-testid="snap-deg">
          {SNAP_DEG.map((v) => (
            <option key={String(v)} value={v === null ? '' : String(v)}>
              {v === null ? 'free turn' : `${v}°`}
            </option>
          ))}
        </select>
      </span>
      <label className="checkbox" title="While a part is dragged, check it against the parts near it and show where it touches, in red">
        <input type="checkbox" checked={liveCheck} onChange={(e) => setLiveCheck(e.target.checked)} data-testid="live-check" />
        Live check
      </label>
      <label
        className="checkbox"
        title="The dragged part stops where it first touches a part it was clear of when the drag began (parts it already touched, such as a bolt in its hole, do not stop it until it has left them). Needs the live check."
      >
        <input type="checkbox" checked={stopAtContact} disabled={!liveCheck} onChange={(e) => setStopAtContact(e.target.checked)} data-testid="stop-at-contact" />
        Stop at contact
      </label>
    </div>
  );
}
