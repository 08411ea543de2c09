/**
 * The host service's native dialogs (HostDialogs) over Electron's `dialog`, each sheet parented to
 * the app window when there is one. The paths they return are the user's choice: the service
 * grants access to them.
 */
import type { BaseWindow, Dialog, OpenDialogOptions, SaveDialogOptions } from 'electron';
import type { HostDialogs } from '../services/host/api.js';

type DialogLike = Pick<Dialog, 'showOpenDialog' | 'showSaveDialog'>;

export function createHostDialogs(dialog: DialogLike, parent: () => BaseWindow | null): HostDialogs {
  const open = (options: OpenDialogOptions) => {
    const win = parent();
    return win && !win.isDestroyed() ? dialog.showOpenDialog(win, options) : dialog.showOpenDialog(options);
  };
  const save = (options: SaveDialogOptions) => {
    const win = parent();
    return win && !win.isDestroyed() ? dialog.showSaveDialog(win, options) : dialog.showSaveDialog(options);
  };
  return {
    async openFile({ title, filters }) {
      const r = await open({ title, filters, properties: ['openFile'] });
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths[0];
    },
    async openFiles({ title, filters }) {
      const r = await open({ title, filters, properties: ['openFile', 'multiSelections'] });
      return r.canceled ? [] : [...r.filePaths];
    },
    async saveFile({ title, defaultPath, filters }) {
      const r = await save({ title, filters, ...(defaultPath ? { defaultPath } : {}), properties: ['createDirectory', 'showOverwriteConfirmation'] });
      return r.canceled || !r.filePath ? null : r.filePath;
    },
    async chooseFolder({ title }) {
      const r = await open({ title, properties: ['openDirectory', 'createDirectory'] });
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths[0];
    },
  };
}
