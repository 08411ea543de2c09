/**
 * The renderer's own dialogs. Without native dialogs (in a browser through the local bridge)
 * files are named by path; in the desktop app the host shows its file dialogs instead and these
 * only ask what it cannot (the report's format).
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useApp } from '../appStore';
import { SHORTCUTS } from '../state/shortcuts';
import type { DialogKind } from '../state/types';

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
  }
}

function Modal(props: { title: string; children: ReactNode; onSubmit?: () => void; submitLabel?: string; submitDisabled?: boolean; testId: string }) {
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
      <form ref={box} className="modal" role="dialog" aria-modal="true" aria-label={props.title} onSubmit={submit} data-testid={props.testId}>
        <h2>{props.title}</h2>
        {props.children}
        <div className="modal-actions">
          <button type="button" onClick={close}>
            {props.onSubmit ? 'Cancel' : 'Close'}
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

/** Where a document is saved by default: next to its file, as an assembly. */
function suggestedAssemblyPath(path: string | null, name: string): string {
  if (path === null) return `${name.replace(/\.[^.]*$/, '') || 'assembly'}.assembly.json`;
  if (path.endsWith('.assembly.json')) return path;
  return `${path.replace(/\.[^./\\]*$/, '')}.assembly.json`;
}

function SaveAsDialog() {
  const doc = useApp((s) => s.doc);
  const saveDocument = useApp((s) => s.saveDocument);
  const close = useApp((s) => s.closeDialog);
  const [path, setPath] = useState(() => (doc ? suggestedAssemblyPath(doc.path, doc.name) : ''));
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
  const base = doc ? suggestedAssemblyPath(doc.path, doc.name).replace(/\.assembly\.json$/, '') : 'report';
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
  const runBatch = useApp((s) => s.runBatch);
  const close = useApp((s) => s.closeDialog);
  const [paths, setPaths] = useState('');
  const [folder, setFolder] = useState('');
  const list = paths.split('\n').map((p) => p.trim()).filter((p) => p !== '');
  return (
    <Modal
      title="Batch check"
      testId="dialog-batch"
      submitLabel={`Check ${list.length} file${list.length === 1 ? '' : 's'}`}
      submitDisabled={list.length === 0}
      onSubmit={() => {
        close();
        void runBatch(list, folder.trim() === '' ? undefined : folder.trim());
      }}
    >
      <label className="field">
        <span>Saved assemblies, one path a line</span>
        <textarea rows={6} value={paths} spellCheck={false} onChange={(e) => setPaths(e.target.value)} />
      </label>
      <label className="field">
        <span>Folder for the reports (optional)</span>
        <input type="text" value={folder} spellCheck={false} onChange={(e) => setFolder(e.target.value)} />
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
      <p className="hint">Mouse: left-drag to orbit, right-drag or Shift-drag to pan, wheel to zoom towards the cursor. Click a part or a result to select it; double-click to frame it.</p>
    </Modal>
  );
}
