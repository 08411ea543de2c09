import type { StateCreator } from 'zustand/vanilla';
import type { SliceContext } from './context';
import { foregroundJob } from './selectors';
import type { AppCommand, AppState, CommandSlice, CommandSource } from './types';

/**
 * The same command from a key press and from the native menu within this time is one command
 * (in Electron a menu accelerator and the page may both see the key).
 */
const DUPLICATE_WINDOW_MS = 400;

/**
 * The command slice: one place where toolbar buttons, keyboard shortcuts and native menu
 * commands turn into actions. Without native dialogs (the browser bridge) file commands open the
 * renderer's own path dialogs; in Electron the host shows its dialogs.
 */
export function createCommandSlice(ctx: SliceContext): StateCreator<AppState, [], [], CommandSlice> {
  let last: { command: AppCommand; source: CommandSource; at: number } | null = null;

  return (_set, get) => {
    function hasNativeDialogs(): boolean {
      return get().appInfo?.host === 'electron';
    }

    function run(command: AppCommand): void {
      const s = get();
      switch (command) {
        case 'file.new':
          void s.newDocument();
          return;
        case 'file.open':
          if (hasNativeDialogs()) void s.openDocument();
          else s.openDialog('open');
          return;
        case 'file.import':
          if (!s.doc) return;
          if (hasNativeDialogs()) void s.importFile();
          else s.openDialog('import');
          return;
        case 'file.save':
          if (!s.doc) return;
          if ((s.doc.kind === 'assembly' && s.doc.path !== null) || hasNativeDialogs()) void s.saveDocument();
          else s.openDialog('saveAs');
          return;
        case 'file.saveAs':
          if (!s.doc) return;
          if (hasNativeDialogs()) void s.saveDocument({ saveAs: true });
          else s.openDialog('saveAs');
          return;
        case 'file.exportReport':
          if (!s.check.outcome) {
            s.notify('info', 'Nothing to export yet', 'Run a check first: the report lists the results of the last check.');
            return;
          }
          s.openDialog('export');
          return;
        case 'file.batchCheck':
          if (hasNativeDialogs()) void s.runBatch();
          else s.openDialog('batch');
          return;
        case 'edit.undo':
          void s.undo();
          return;
        case 'edit.redo':
          void s.redo();
          return;
        case 'check.run': {
          if (s.check.running) return;
          const scope = s.scopeForCheck();
          if (scope) void s.runCheck(scope);
          return;
        }
        case 'check.cancel':
          if (foregroundJob(s)) void s.cancelJob();
          else if (s.contextMenu !== null) s.closeContextMenu();
          else if (s.dialog !== null) s.closeDialog();
          else if (s.notices.length > 0) s.dismissNotice(s.notices[s.notices.length - 1].id);
          else if (s.isolation !== null) s.endIsolation();
          else if (s.selectedResult !== null) s.selectResult(null);
          else s.clearSelection();
          return;
        case 'view.section':
          if (s.doc) s.toggleSection();
          return;
        case 'view.crossing':
          s.setShowCrossing(!s.showCrossing);
          return;
        case 'view.isolate':
          if (s.selectedParts.length > 0) s.isolate(s.selectedParts);
          else s.notify('info', 'Nothing to isolate', 'Select the parts to show alone (click, Ctrl+click, Shift+click), then press I.');
          return;
        case 'view.hide':
          if (s.selectedParts.length > 0) s.setVisible(s.selectedParts, false);
          return;
        case 'view.showAll':
          s.showAll();
          return;
        case 'gizmo.translate':
        case 'gizmo.rotate': {
          const mode = command === 'gizmo.translate' ? 'translate' : 'rotate';
          s.setGizmoMode(s.gizmoMode === mode ? null : mode);
          if (s.gizmoMode !== mode && s.selectedParts.length !== 1) s.notify('info', 'Select one part', 'The gizmo appears on the selected part when exactly one part is selected.');
          return;
        }
        case 'view.fitAll':
          s.requestCamera({ kind: 'fitAll' });
          return;
        case 'view.fitSelection':
          s.requestCamera(s.selectedParts.length > 0 ? { kind: 'fitSelection' } : { kind: 'fitAll' });
          return;
        case 'view.front':
        case 'view.top':
        case 'view.right':
        case 'view.iso':
          s.requestCamera({ kind: 'view', view: command.slice('view.'.length) as 'front' | 'top' | 'right' | 'iso' });
          return;
        case 'view.toggleProjection':
          s.setProjection(s.projection === 'perspective' ? 'orthographic' : 'perspective');
          return;
        case 'help.about': {
          const info = s.appInfo;
          s.notify('info', info ? `${info.name} ${info.version}` : 'Interfere', info ? `Running in ${info.host === 'electron' ? 'the desktop app' : 'a browser through the local bridge'} on ${info.platform}.` : 'Not connected.');
          return;
        }
        case 'help.shortcuts':
          s.openDialog('shortcuts');
          return;
      }
    }

    return {
      runCommand(command, source = 'ui') {
        const at = ctx.now();
        const duplicate = last !== null && source !== 'ui' && last.source !== 'ui' && last.source !== source && last.command === command && at - last.at < DUPLICATE_WINDOW_MS;
        last = { command, source, at };
        if (duplicate) return;
        run(command);
      },
    };
  };
}
