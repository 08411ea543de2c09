import type { StateCreator } from 'zustand/vanilla';
import type { MenuCommand } from '../../src-main/contract/host';
import type { SliceContext } from './context';
import { foregroundJob } from './selectors';
import type { AppState, CommandSlice, CommandSource } from './types';

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
  let last: { command: MenuCommand; source: CommandSource; at: number } | null = null;

  return (_set, get) => {
    function hasNativeDialogs(): boolean {
      return get().appInfo?.host === 'electron';
    }

    function run(command: MenuCommand): void {
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
        case 'edit.redo':
          s.notify('info', command === 'edit.undo' ? 'Nothing to undo' : 'Nothing to redo', 'No placement has been changed in this session.');
          return;
        case 'check.run':
          void s.runCheck({ kind: 'all' });
          return;
        case 'check.cancel':
          if (foregroundJob(s)) void s.cancelJob();
          else if (s.dialog !== null) s.closeDialog();
          else if (s.selectedResult !== null) s.selectResult(null);
          else s.clearSelection();
          return;
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
