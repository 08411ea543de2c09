/**
 * The renderer's own dialogs. Without native dialogs (in a browser through the local bridge)
 * files are named by path; in the desktop app the host shows its file dialogs instead and these
 * only ask what it cannot (the report's format).
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useApp } from '../appStore';
import { formatCount, formatDateTime, percentDone } from '../state/format';
import { assemblyPathFor, saveAsPathFor } from '../state/paths';
import { SHORTCUTS } from '../state/shortcuts';
import type { DialogKind, ReportFormat } from '../state/types';

export function Dialogs() {
  const dialog = useApp((s) => s.dialog);
  if (dialog === null) return null;
  return <DialogFor kind={dialog} />;
}

function DialogFor({ kind }: { kind: DialogKind }) {
  switch (kind) {
    case 'open':
      return <OpenDialog />;
    case 'import':
      return <ImportDialog />;
    case 'saveAs':
      return <SaveAsDialog />;
    case 'export':
      return <ExportDialog />;
    case 'batch':
      return <BatchDialog />;
    case 'shortcuts':
      return <ShortcutsDialog />;
    case 'ignore':
      return <IgnoreDialog />;
    case 'recovery':
      return <RecoveryDialog />;
  }
}

function Modal(props: {
  title: string;
  children: ReactNode;
  onSubmit?: () => void;
  submitLabel?: string;
  submitDisabled?: boolean;
  /** The label of the button that closes the dialog (default Cancel, or Close without a submit). */
  closeLabel?: string;
  testId: string;
  wide?: boolean;
}) {
  const close = useApp((s) => s.closeDialog);
  const box = useRef<HTMLFormElement>(null);
  useEffect(() => {
    box.current?.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
  }, []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit?.();
  };
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <form ref={box} className={props.wide ? 'modal modal-wide' : 'modal'} role="dialog" aria-modal="true" aria-label={props.title} onSubmit={submit} data-testid={props.testId}>
        <h2>{props.title}</h2>
        {props.children}
        <div className="modal-actions">
          <button type="button" onClick={close}>
            {props.closeLabel ?? (props.onSubmit ? 'Cancel' : 'Close')}
          </button>
          {props.onSubmit && (
            <button type="submit" className="primary" disabled={props.submitDisabled}>
              {props.submitLabel ?? 'OK'}
            </button>
          )}
        </div>
      </form>
    </div>
  );
}

function PathField(props: { label: string; value: string; onChange: (v: string) => void; placeholder: string; testId: string }) {
  const recent = useApp((s) => s.appInfo?.recentFiles ?? []);
  return (
    <label className="field">
      <span>{props.label}</span>
      <input type="text" value={props.value} placeholder={props.placeholder} list="recent-files" spellCheck={false} onChange={(e) => props.onChange(e.target.value)} data-testid={props.testId} />
      <datalist id="recent-files">
        {recent.map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
    </label>
  );
}

const OPEN_HINT = 'Saved assemblies (*.assembly.json), STEP (.stp, .step), IGES (.igs, .iges), BREP (.brep) or STL files.';

function OpenDialog() {
  const openDocument = useApp((s) => s.openDocument);
  const close = useApp((s) => s.closeDialog);
  const [path, setPath] = useState('');
  return (
    <Modal
      title="Open"
      testId="dialog-open"
      submitLabel="Open"
      submitDisabled={path.trim() === ''}
      onSubmit={() => {
        close();
        void openDocument(path.trim());
      }}
    >
      <PathField label="File path" value={path} onChange={setPath} placeholder="/path/to/assembly.assembly.json" testId="dialog-path" />
      <p className="hint">{OPEN_HINT}</p>
    </Modal>
  );
}

function ImportDialog() {
  const importFile = useApp((s) => s.importFile);
  const close = useApp((s) => s.closeDialog);
  const [path, setPath] = useState('');
  return (
    <Modal
      title="Import parts"
      testId="dialog-import"
      submitLabel="Import"
      submitDisabled={path.trim() === ''}
      onSubmit={() => {
        close();
        void importFile(path.trim());
      }}
    >
      <PathField label="CAD or STL file" value={path} onChange={setPath} placeholder="/path/to/part.stp" testId="dialog-path" />
      <p className="hint">Every body of the file becomes a part of this assembly.</p>
    </Modal>
  );
}

function SaveAsDialog() {
  const doc = useApp((s) => s.doc);
  const saveDocument = useApp((s) => s.saveDocument);
  const close = useApp((s) => s.closeDialog);
  const recent = useApp((s) => s.appInfo?.recentFiles);
  const [path, setPath] = useState(() => (doc ? saveAsPathFor(doc.path, doc.name, (p) => recent?.includes(p) ?? false) : ''));
  return (
    <Modal
      title="Save assembly as"
      testId="dialog-save"
      submitLabel="Save"
      submitDisabled={path.trim() === ''}
      onSubmit={() => {
        close();
        void saveDocument({ saveAs: true, path: path.trim() });
      }}
    >
      <PathField label="Assembly file" value={path} onChange={setPath} placeholder="/path/to/name.assembly.json" testId="dialog-path" />
      <p className="hint">The assembly keeps placements, settings, ignored pairs and result statuses, and refers to its CAD files relative to its own folder.</p>
    </Modal>
  );
}

function ExportDialog() {
  const doc = useApp((s) => s.doc);
  const electron = useApp((s) => s.appInfo?.host === 'electron');
  const exportReport = useApp((s) => s.exportReport);
  const close = useApp((s) => s.closeDialog);
  const [format, setFormat] = useState<'html' | 'csv' | 'json'>('html');
  const base = doc ? assemblyPathFor(doc.path, doc.name).replace(/\.assembly\.json$/, '') : 'report';
  const [path, setPath] = useState(`${base}-report.html`);
  const choose = (f: 'html' | 'csv' | 'json') => {
    setFormat(f);
    setPath((p) => p.replace(/\.(html|csv|json)$/, `.${f}`));
  };
  return (
    <Modal
      title="Export report"
      testId="dialog-export"
      submitLabel={electron ? 'Choose file…' : 'Export'}
      submitDisabled={!electron && path.trim() === ''}
      onSubmit={() => {
        close();
        void exportReport(format, electron ? undefined : path.trim());
      }}
    >
      <fieldset className="formats">
        <legend>Format</legend>
        {(['html', 'csv', 'json'] as const).map((f) => (
          <label key={f} className="checkbox">
            <input type="radio" name="format" value={f} checked={format === f} onChange={() => choose(f)} />
            {f === 'html' ? 'HTML (to read and share)' : f === 'csv' ? 'CSV (spreadsheets)' : 'JSON (other tools)'}
          </label>
        ))}
      </fieldset>
      {!electron && <PathField label="Report file" value={path} onChange={setPath} placeholder="/path/to/report.html" testId="dialog-path" />}
    </Modal>
  );
}

function BatchDialog() {
  const batch = useApp((s) => s.batch);
  if (batch && (batch.status === 'starting' || batch.status === 'running')) return <BatchProgress />;
  return <BatchForm />;
}

const FORMAT_LABEL: Record<ReportFormat, string> = { html: 'HTML', csv: 'CSV', json: 'JSON' };

function BatchForm() {
  const runBatch = useApp((s) => s.runBatch);
  const electron = useApp((s) => s.appInfo?.host === 'electron');
  const last = useApp((s) => s.batch);
  const [paths, setPaths] = useState('');
  const [folder, setFolder] = useState(last?.reportFolder ?? '');
  const [format, setFormat] = useState<ReportFormat>(last?.format ?? 'html');
  const list = paths.split('\n').map((p) => p.trim()).filter((p) => p !== '');
  const choose = electron && list.length === 0;
  return (
    <Modal
      title="Batch check"
      testId="dialog-batch"
      wide
      submitLabel={choose ? 'Choose files…' : `Check ${list.length} file${list.length === 1 ? '' : 's'}`}
      submitDisabled={!choose && list.length === 0}
      onSubmit={() => void runBatch(choose ? undefined : list, folder.trim() === '' ? undefined : folder.trim(), format)}
    >
      <p className="hint">Checks saved assemblies (or CAD files) one after another, as the command line does, and writes a report for each.</p>
      <label className="field">
        <span>{electron ? 'Files, one path a line (leave empty to choose them)' : 'Saved assemblies, one path a line'}</span>
        <textarea rows={5} value={paths} spellCheck={false} onChange={(e) => setPaths(e.target.value)} data-testid="batch-paths" />
      </label>
      <div className="field-row">
        <label className="field grow">
          <span>Folder for the reports (optional: next to each file)</span>
          <input type="text" value={folder} spellCheck={false} onChange={(e) => setFolder(e.target.value)} data-testid="batch-folder" />
        </label>
        <label className="field">
          <span>Report format</span>
          <select value={format} onChange={(e) => setFormat(e.target.value as ReportFormat)} data-testid="batch-format">
            {(['html', 'csv', 'json'] as const).map((f) => (
              <option key={f} value={f}>
                {FORMAT_LABEL[f]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {last && (last.status === 'done' || last.status === 'failed') && <BatchSummary />}
    </Modal>
  );
}

function BatchProgress() {
  const batch = useApp((s) => s.batch);
  const cancelJob = useApp((s) => s.cancelJob);
  if (!batch) return null;
  const done = batch.files.length;
  const pct = percentDone(done, batch.total);
  return (
    <Modal title="Batch check" testId="dialog-batch" wide>
      <div className="batch-progress" role="status" data-testid="batch-progress">
        <span>
          {batch.status === 'starting' ? 'Starting…' : `Checked ${formatCount(done)} of ${batch.total > 0 ? formatCount(batch.total) : '…'} files`}
        </span>
        {pct === null ? <progress aria-label="Batch progress" /> : <progress max={100} value={pct} aria-label="Batch progress" />}
        <button type="button" onClick={() => void cancelJob()} disabled={batch.jobId === null}>
          Cancel
        </button>
      </div>
      <BatchSummary />
    </Modal>
  );
}

const STATUS_TEXT = { clear: 'Clear', interference: 'Interference', undecided: 'Undecided', failed: 'Failed' } as const;

/** One row per file checked: status, counts, exit status, and where its report is. */
function BatchSummary() {
  const batch = useApp((s) => s.batch);
  if (!batch) return null;
  if (batch.status === 'failed' && batch.files.length === 0) {
    return (
      <p className="batch-error" role="alert">
        {batch.error}
      </p>
    );
  }
  if (batch.files.length === 0) return null;
  const counts = { clear: 0, interference: 0, undecided: 0, failed: 0 };
  for (const f of batch.files) counts[f.status]++;
  return (
    <div className="batch-summary">
      {batch.status === 'done' && (
        <p className="summary" data-testid="batch-totals">
          {formatCount(batch.files.length)} files: {counts.clear} clear, {counts.interference} with interference, {counts.undecided > 0 ? `${counts.undecided} undecided (a possible interference the triangles could not decide), ` : ''}{counts.failed} failed
        </p>
      )}
      {batch.status === 'failed' && batch.error && <p className="batch-error">{batch.error}</p>}
      <div className="table-scroll batch-table-scroll">
        <table className="results-table batch-table" data-testid="batch-table">
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">Interferences</th>
              <th scope="col" className="num" title="Pairs the tessellation could not decide (interference or contact?), even refined">
                Undecided
              </th>
              <th scope="col" className="num">Contacts</th>
              <th scope="col" className="num" title="As the command line: 0 clear, 1 interference, clearance violation or undecided pair, 2 not checked">
                Exit code
              </th>
              <th scope="col">Report</th>
            </tr>
          </thead>
          <tbody>
            {batch.files.map((f) => (
              <tr key={f.path} className={`batch-${f.status}`} title={f.error ?? undefined}>
                <td className="path-cell" title={f.path}>
                  {f.path.split(/[\\/]/).pop()}
                </td>
                <td>
                  <span className={`status-badge batch-status-${f.status}`}>{STATUS_TEXT[f.status]}</span>
                  {f.error && <span className="batch-file-error"> {f.error}</span>}
                </td>
                <td className="num">{f.summary ? formatCount(f.summary.interferences) : '—'}</td>
                <td className="num">{f.summary ? formatCount(f.summary.undecided) : '—'}</td>
                <td className="num">{f.summary ? formatCount(f.summary.contacts) : '—'}</td>
                <td className="num">{f.exitCode}</td>
                <td className="path-cell">{f.reportPath ? <code title={f.reportPath}>{f.reportPath}</code> : <span className="muted">—</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** Asks why a pair is ignored, then adds the ignore rule (kept in the assembly). */
function IgnoreDialog() {
  const draft = useApp((s) => s.ignoreDraft);
  const names = useApp((s) => s.partNames);
  const ignorePair = useApp((s) => s.ignorePair);
  const close = useApp((s) => s.closeDialog);
  const [reason, setReason] = useState('');
  if (!draft) return null;
  const a = names.get(draft.a) ?? draft.a;
  const b = names.get(draft.b) ?? draft.b;
  return (
    <Modal
      title="Ignore this pair"
      testId="dialog-ignore"
      submitLabel="Ignore pair"
      onSubmit={() => {
        close();
        void ignorePair(draft.a, draft.b, reason);
      }}
    >
      <p>
        <strong>{a}</strong> and <strong>{b}</strong> will be reported as ignored by every check of this assembly (the rule is saved with it).
      </p>
      <label className="field">
        <span>Reason (kept with the rule and shown in reports)</span>
        <textarea rows={3} value={reason} placeholder="e.g. press fit by design" onChange={(e) => setReason(e.target.value)} data-testid="ignore-reason" />
      </label>
    </Modal>
  );
}

function ShortcutsDialog() {
  return (
    <Modal title="Keyboard shortcuts" testId="dialog-shortcuts">
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}>
              <td>
                <kbd>{s.keys}</kbd>
              </td>
              <td>{s.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">Mouse: left-drag to orbit, right-drag or Shift-drag to pan, wheel to zoom towards the cursor. Click a part or a result to select it (a part the last check marked filters the results to its own); double-click to frame it. In the results table ↑/↓ walk the results, the view following.</p>
    </Modal>
  );
}

/**
 * Unsaved work an earlier run left behind (it stopped without saving): recover each document (it
 * opens with its unsaved changes, to be saved) or discard it; Later keeps it for the next start.
 */
function RecoveryDialog() {
  const documents = useApp((s) => s.recovery.documents);
  const pending = useApp((s) => s.recovery.pending);
  const recoverDocument = useApp((s) => s.recoverDocument);
  const discardRecovery = useApp((s) => s.discardRecovery);
  return (
    <Modal title="Recover unsaved work" testId="dialog-recovery" closeLabel="Later" wide>
      <p className="hint">
        {documents.length === 1 ? 'This document was' : 'These documents were'} not saved when the application last stopped. Recover opens a document as it was
        last autosaved, with its changes still to be saved; Discard deletes them for good.
      </p>
      <ul className="recovery-list">
        {documents.map((d) => (
          <li key={d.recoveryId} className="recovery-entry" data-testid="recovery-entry" data-recovery-id={d.recoveryId}>
            <div className="recovery-info">
              <strong className="recovery-name">{d.name || 'Untitled assembly'}</strong>
              {d.originalPath ? (
                <code className="recovery-path" title={d.originalPath}>
                  {d.originalPath}
                </code>
              ) : (
                <span className="muted">never saved</span>
              )}
              <span className="muted" title={d.savedAt}>
                autosaved {formatDateTime(d.savedAt)}
              </span>
            </div>
            <div className="recovery-actions">
              <button type="button" className="primary" disabled={pending !== null} onClick={() => void recoverDocument(d.recoveryId)} data-testid="recovery-recover">
                {pending === d.recoveryId ? 'Working…' : 'Recover'}
              </button>
              <button type="button" disabled={pending !== null} onClick={() => void discardRecovery(d.recoveryId)} data-testid="recovery-discard">
                Discard
              </button>
            </div>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
