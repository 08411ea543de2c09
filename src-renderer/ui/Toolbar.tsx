/**
 * The top toolbar: file actions, the check and its settings, report export, and view controls.
 * Every button runs a command (the same path as keyboard shortcuts and the native menu).
 */
import { useEffect, useState } from 'react';
import { useApp } from '../appStore';
import { mmFieldText, parseMmInput } from '../state/format';
import type { AppCommand, CheckScopeKind } from '../state/types';

export function CommandButton(props: { command: AppCommand; label: string; title: string; disabled?: boolean; testId?: string; primary?: boolean; pressed?: boolean }) {
  const runCommand = useApp((s) => s.runCommand);
  return (
    <button
      type="button"
      className={props.primary ? 'primary' : undefined}
      title={props.title}
      disabled={props.disabled}
      data-testid={props.testId}
      aria-pressed={props.pressed}
      onClick={() => runCommand(props.command, 'ui')}
    >
      {props.label}
    </button>
  );
}

export function Toolbar() {
  const hasDoc = useApp((s) => s.doc !== null);
  const dirty = useApp((s) => s.doc?.dirty ?? false);
  const running = useApp((s) => s.check.running);
  const hasOutcome = useApp((s) => s.check.outcome !== null);
  const busy = useApp((s) => s.busy);
  const connected = useApp((s) => s.connection === 'connected');
  return (
    <header className="toolbar" role="toolbar" aria-label="Main toolbar">
      <div className="toolbar-group">
        <span className="app-title">Interfere</span>
        <CommandButton command="file.open" label="Open…" title="Open an assembly or CAD file (Ctrl+O)" disabled={!connected || busy !== null} testId="open-button" />
        <CommandButton command="file.save" label={dirty ? 'Save •' : 'Save'} title="Save the assembly (Ctrl+S)" disabled={!hasDoc || busy !== null} testId="save-button" />
      </div>
      <div className="toolbar-group">
        <CommandButton command="check.run" label={running ? 'Checking…' : 'Check'} title="Run the check with the chosen scope (F5 or Ctrl+Enter)" disabled={!hasDoc || running} testId="check-button" primary />
        <ScopeSelect />
        <RefineToggle />
        <CheckSettings />
      </div>
      <div className="toolbar-group">
        <CommandButton command="file.exportReport" label="Export report…" title="Export the last check as HTML, CSV or JSON (Ctrl+E)" disabled={!hasOutcome} testId="export-button" />
        <CommandButton command="file.batchCheck" label="Batch check…" title="Check several saved assemblies and write a report for each" disabled={!connected} testId="batch-button" />
      </div>
      <div className="toolbar-group toolbar-end">
        <CommandButton command="help.shortcuts" label="?" title="Keyboard shortcuts (F1)" />
      </div>
    </header>
  );
}

const SCOPES: { kind: CheckScopeKind; label: string }[] = [
  { kind: 'all', label: 'All pairs' },
  { kind: 'selection', label: 'Selection vs rest' },
  { kind: 'sets', label: 'Set A vs set B' },
];

/** Which pairs the Check button checks. */
function ScopeSelect() {
  const scope = useApp((s) => s.checkScope);
  const setCheckScope = useApp((s) => s.setCheckScope);
  const hasDoc = useApp((s) => s.doc !== null);
  return (
    <select
      aria-label="Pairs to check"
      title="All pairs; the selected parts against every other part; or every part of set A against every part of set B (sets are chosen in the part list)"
      value={scope}
      disabled={!hasDoc}
      onChange={(e) => setCheckScope(e.target.value as CheckScopeKind)}
      data-testid="check-scope"
    >
      {SCOPES.map((s) => (
        <option key={s.kind} value={s.kind}>
          {s.label}
        </option>
      ))}
    </select>
  );
}

/** Whether the check re-tessellates CAD parts finer to decide fits (a preference of the window, not of the document). */
function RefineToggle() {
  const on = useApp((s) => s.refineFits);
  const setRefineFits = useApp((s) => s.setRefineFits);
  return (
    <label
      className="checkbox"
      title="Where a CAD pair's triangles are too coarse to tell its kind (a tight fit: interference or contact?), re-tessellate the two parts finer, down to 0.0005 mm, until it is decided. Off: such pairs are listed as undecided, with the range their exact separation lies in. Mesh files (STL) are checked as given either way."
    >
      <input type="checkbox" checked={on} onChange={(e) => setRefineFits(e.target.checked)} data-testid="refine-toggle" />
      Refine CAD fits
    </label>
  );
}

/** The check's settings, stored in the document: touch tolerance, clearance, contact handling. */
function CheckSettings() {
  const settings = useApp((s) => s.doc?.settings ?? null);
  const updateSettings = useApp((s) => s.updateSettings);
  const disabled = settings === null;
  return (
    <div className="settings" aria-label="Check settings">
      <MmField
        label="Touch tolerance"
        title="Surfaces closer than this, or overlapping by less, are in contact rather than interfering. Empty or “auto”: from each part's tessellation."
        value={settings?.touchToleranceMm ?? null}
        allowAuto
        disabled={disabled}
        testId="setting-tolerance"
        onCommit={(v) => updateSettings({ touchToleranceMm: v })}
      />
      <MmField
        label="Clearance"
        title="Report pairs closer than this as clearance violations (0: off)."
        value={settings?.clearanceMm ?? 0}
        allowAuto={false}
        disabled={disabled}
        testId="setting-clearance"
        onCommit={(v) => updateSettings({ clearanceMm: v ?? 0 })}
      />
      <label className="checkbox" title="Report parts that touch as interferences.">
        <input
          type="checkbox"
          checked={settings?.contactIsInterference ?? false}
          disabled={disabled}
          data-testid="setting-contact"
          onChange={(e) => updateSettings({ contactIsInterference: e.target.checked })}
        />
        Contact is interference
      </label>
    </div>
  );
}

function MmField(props: {
  label: string;
  title: string;
  value: number | null;
  allowAuto: boolean;
  disabled: boolean;
  testId: string;
  onCommit: (value: number | null) => void;
}) {
  const { value, allowAuto, onCommit } = props;
  const [text, setText] = useState(mmFieldText(value));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setText(mmFieldText(value));
    setError(null);
  }, [value]);
  const commit = () => {
    const parsed = parseMmInput(text, allowAuto);
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    setError(null);
    if (parsed.value !== value) onCommit(parsed.value);
    else setText(mmFieldText(value));
  };
  return (
    <label className="mm-field" title={error ?? props.title}>
      <span>{props.label}</span>
      <input
        type="text"
        inputMode="decimal"
        value={text}
        disabled={props.disabled}
        aria-invalid={error !== null}
        data-testid={props.testId}
        placeholder={allowAuto ? 'auto' : '0'}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') {
            setText(mmFieldText(value));
            setError(null);
          }
        }}
      />
      <span className="unit">mm</span>
    </label>
  );
}
