/**
 * The application menu as a template (pure: ./main.ts hands it to Menu.buildFromTemplate).
 *
 * Document commands are not performed here: each item emits a MenuCommand, which main sends to
 * the renderer as a `menu.command` event, so that the menu, the toolbar and keyboard shortcuts
 * all run the same renderer code. Undo and Redo are such commands too (the document's history,
 * not the text field's). Only app-level roles (quit, hide, copy/paste in text fields, reload and
 * DevTools in development) are Electron's own.
 *
 * The accelerators are the renderer's own shortcuts (src-renderer/state/shortcuts.ts), which it
 * handles itself in the browser too; a command arriving twice (key and menu) runs once there.
 * Keys without a modifier (F, S, P, 1, 3, 7, 0, Esc) are shown in the menu but not registered as
 * accelerators: a menu accelerator would swallow the key while the user types in a text field,
 * and the renderer leaves text fields alone.
 */
import path from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../contract/host.js';

export interface MenuOptions {
  readonly platform: NodeJS.Platform;
  /** Packaged builds have no Reload or DevTools items. */
  readonly isPackaged: boolean;
  readonly appName: string;
  /** Most recent first (the host service's list). */
  readonly recentFiles: readonly string[];
  /** The user's home folder, shown as ~ in recent paths (optional). */
  readonly homeDir?: string;
  /** Sends a command to the renderer. */
  readonly emit: (command: MenuCommand) => void;
  /** Opens a recent file. */
  readonly openRecent: (file: string) => void;
  /** Help › Show Log: reveals the app's log file (main does it, not the renderer); no item when absent. */
  readonly showLog?: () => void;
}

export const MAX_RECENT_ITEMS = 10;

/** A recent file's menu label: its path with the home folder as ~ and '&' kept literal. */
export function recentLabel(file: string, homeDir?: string): string {
  let label = file;
  if (homeDir && (file === homeDir || file.startsWith(homeDir + path.sep))) label = `~${file.slice(homeDir.length)}`;
  return label.replace(/&/g, '&&');
}

export function buildMenuTemplate(o: MenuOptions): MenuItemConstructorOptions[] {
  const mac = o.platform === 'darwin';
  const command = (
    label: string,
    cmd: MenuCommand,
    accelerator?: string,
    extra: Partial<MenuItemConstructorOptions> = {},
  ): MenuItemConstructorOptions => ({
    id: cmd,
    label,
    ...(accelerator ? { accelerator } : {}),
    click: () => o.emit(cmd),
    ...extra,
  });
  /** A shortcut the renderer handles itself (see the file comment). */
  const shownOnly = { registerAccelerator: false } as const;
  const separator: MenuItemConstructorOptions = { type: 'separator' };
  /** A top-level menu's label, with its Alt-key mnemonic on Windows and Linux. */
  const top = (label: string): string => (mac ? label : `&${label}`);

  const recent = o.recentFiles.slice(0, MAX_RECENT_ITEMS);
  const recentMenu: MenuItemConstructorOptions[] = recent.length > 0
    ? recent.map((file) => ({ label: recentLabel(file, o.homeDir), click: () => o.openRecent(file) }))
    : [{ label: 'No Recent Files', enabled: false }];

  const template: MenuItemConstructorOptions[] = [];

  if (mac) {
    template.push({
      label: o.appName,
      submenu: [
        command(`About ${o.appName}`, 'help.about'),
        separator,
        { role: 'services' },
        separator,
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        separator,
        { role: 'quit' },
      ],
    });
  }

  template.push({
    label: top('File'),
    submenu: [
      command('New', 'file.new', 'CmdOrCtrl+N'),
      command('Open…', 'file.open', 'CmdOrCtrl+O'),
      { id: 'file.recent', label: 'Open Recent', submenu: recentMenu },
      command('Import…', 'file.import', 'CmdOrCtrl+I'),
      separator,
      command('Save', 'file.save', 'CmdOrCtrl+S'),
      command('Save As…', 'file.saveAs', 'CmdOrCtrl+Shift+S'),
      separator,
      command('Export Report…', 'file.exportReport', 'CmdOrCtrl+E'),
      command('Batch Check…', 'file.batchCheck', 'CmdOrCtrl+B'),
      separator,
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  });

  template.push({
    label: top('Edit'),
    submenu: [
      command('Undo', 'edit.undo', 'CmdOrCtrl+Z'),
      command('Redo', 'edit.redo', mac ? 'Cmd+Shift+Z' : 'Ctrl+Y'),
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  });

  template.push({
    label: top('Check'),
    submenu: [
      command('Run Check', 'check.run', 'CmdOrCtrl+Enter'),
      // F5 runs the check too: a second, hidden item carries the second accelerator.
      { id: 'check.run.f5', label: 'Run Check', accelerator: 'F5', visible: false, acceleratorWorksWhenHidden: true, click: () => o.emit('check.run') },
      command('Cancel Check', 'check.cancel', 'Esc', shownOnly),
    ],
  });

  const viewItems: MenuItemConstructorOptions[] = [
    command('Fit All', 'view.fitAll', 'F', shownOnly),
    command('Fit Selection', 'view.fitSelection', 'S', shownOnly),
    separator,
    command('Front', 'view.front', '1', shownOnly),
    command('Top', 'view.top', '7', shownOnly),
    command('Right', 'view.right', '3', shownOnly),
    command('Isometric', 'view.iso', '0', shownOnly),
    separator,
    command('Toggle Perspective/Orthographic', 'view.toggleProjection', 'P', shownOnly),
    separator,
    { role: 'togglefullscreen' },
  ];
  if (!o.isPackaged) {
    viewItems.push(separator, { role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' });
  }
  template.push({ label: top('View'), submenu: viewItems });

  if (mac) template.push({ role: 'windowMenu' });

  const helpItems: MenuItemConstructorOptions[] = [command('Keyboard Shortcuts', 'help.shortcuts', 'F1')];
  const showLog = o.showLog;
  if (showLog) helpItems.push({ id: 'help.showLog', label: 'Show Log', click: () => showLog() });
  if (!mac) helpItems.push(separator, command(`About ${o.appName}`, 'help.about'));
  template.push({ role: 'help', label: top('Help'), submenu: helpItems });

  return template;
}
