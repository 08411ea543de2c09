import path from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { MenuCommandSchema, type MenuCommand } from '../../../src-main/contract/host.js';
import { buildMenuTemplate, MAX_RECENT_ITEMS, recentLabel, type MenuOptions } from '../../../src-main/main/menu.js';

function build(overrides: Partial<MenuOptions> = {}) {
  const emitted: MenuCommand[] = [];
  const opened: string[] = [];
  const template = buildMenuTemplate({
    platform: 'linux',
    isPackaged: true,
    appName: 'Interfere',
    recentFiles: [],
    emit: (c) => emitted.push(c),
    openRecent: (f) => opened.push(f),
    ...overrides,
  });
  return { template, emitted, opened };
}

function items(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((i) => [i, ...items(Array.isArray(i.submenu) ? i.submenu : [])]);
}

function menu(template: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions[] {
  const m = template.find((i) => i.label?.replace('&', '') === label);
  if (!m || !Array.isArray(m.submenu)) throw new Error(`no menu ${label}`);
  return m.submenu;
}

const click = (item: MenuItemConstructorOptions | undefined) => (item?.click as (() => void) | undefined)?.();

describe('the application menu', () => {
  it('has File, Edit, Check, View and Help with mnemonics on Windows and Linux', () => {
    const { template } = build();
    expect(template.map((m) => m.label)).toEqual(['&File', '&Edit', '&Check', '&View', '&Help']);
  });

  it('has an app menu and a Window menu on macOS, without mnemonics', () => {
    const { template } = build({ platform: 'darwin' });
    expect(template.map((m) => m.label ?? m.role)).toEqual(['Interfere', 'File', 'Edit', 'Check', 'View', 'windowMenu', 'Help']);
    expect(menu(template, 'Interfere').map((i) => i.role ?? i.label)).toContain('quit');
    expect(menu(template, 'File').at(-1)?.role).toBe('close');
  });

  it('gives every document command its accelerator and sends it to the renderer', () => {
    const { template, emitted } = build();
    const expected: [MenuCommand, string][] = [
      ['file.new', 'CmdOrCtrl+N'], ['file.open', 'CmdOrCtrl+O'], ['file.import', 'CmdOrCtrl+I'],
      ['file.save', 'CmdOrCtrl+S'], ['file.saveAs', 'CmdOrCtrl+Shift+S'], ['file.exportReport', 'CmdOrCtrl+E'],
      ['file.batchCheck', 'CmdOrCtrl+B'], ['edit.undo', 'CmdOrCtrl+Z'], ['edit.redo', 'Ctrl+Y'],
      ['check.run', 'CmdOrCtrl+Enter'], ['check.cancel', 'Esc'], ['view.fitAll', 'F'], ['view.fitSelection', 'S'],
      ['view.front', '1'], ['view.top', '7'], ['view.right', '3'], ['view.iso', '0'],
      ['view.toggleProjection', 'P'], ['help.shortcuts', 'F1'],
    ];
    const all = items(template);
    for (const [cmd, accelerator] of expected) {
      const item = all.find((i) => i.id === cmd);
      expect(item?.accelerator, cmd).toBe(accelerator);
      click(item);
      expect(emitted.at(-1), cmd).toBe(cmd);
    }
    // Every menu command of the contract is in the menu.
    const reachable = new Set(all.map((i) => i.id).filter(Boolean));
    for (const cmd of MenuCommandSchema.options) expect(reachable.has(cmd), cmd).toBe(true);
  });

  it('runs the check on F5 too, through a hidden item', () => {
    const { template, emitted } = build();
    const f5 = items(template).find((i) => i.accelerator === 'F5');
    expect(f5).toMatchObject({ visible: false, acceleratorWorksWhenHidden: true });
    click(f5);
    expect(emitted).toEqual(['check.run']);
  });

  it('does not register accelerators without a modifier (they would swallow typing)', () => {
    const { template } = build();
    const shownOnly = items(template).filter((i) => i.registerAccelerator === false).map((i) => i.accelerator);
    expect(shownOnly.sort()).toEqual(['0', '1', '3', '7', 'Esc', 'F', 'P', 'S']);
    for (const item of items(template)) {
      if (item.accelerator && !/(CmdOrCtrl|Ctrl|Cmd|Alt)\+|^F\d+$/.test(item.accelerator)) {
        expect(item.registerAccelerator, item.label).toBe(false);
      }
    }
  });

  it('forwards Undo and Redo to the renderer instead of using the native roles', () => {
    const { template } = build({ platform: 'darwin' });
    const edit = menu(template, 'Edit');
    expect(edit.some((i) => i.role === 'undo' || i.role === 'redo')).toBe(false);
    expect(edit.find((i) => i.id === 'edit.redo')?.accelerator).toBe('Cmd+Shift+Z');
    expect(edit.map((i) => i.role).filter(Boolean)).toEqual(['cut', 'copy', 'paste', 'selectAll']);
  });

  it('has Reload and DevTools only when not packaged', () => {
    const roles = (isPackaged: boolean) => menu(build({ isPackaged }).template, 'View').map((i) => i.role).filter(Boolean);
    expect(roles(true)).toEqual(['togglefullscreen']);
    expect(roles(false)).toEqual(['togglefullscreen', 'reload', 'forceReload', 'toggleDevTools']);
  });

  it('lists recent files, opens the one clicked, and says when there are none', () => {
    const home = path.resolve('/home/ann');
    const files = Array.from({ length: 12 }, (_, i) => path.join(home, `cad & co`, `part${i}.stp`));
    const { template, opened } = build({ recentFiles: files, homeDir: home });
    const recent = items(template).find((i) => i.id === 'file.recent');
    const entries = recent?.submenu as MenuItemConstructorOptions[];
    expect(entries).toHaveLength(MAX_RECENT_ITEMS);
    expect(entries[0].label).toBe(`~${path.sep}cad && co${path.sep}part0.stp`);
    click(entries[3]);
    expect(opened).toEqual([files[3]]);
    const none = items(build().template).find((i) => i.id === 'file.recent')?.submenu as MenuItemConstructorOptions[];
    expect(none).toEqual([{ label: 'No Recent Files', enabled: false }]);
  });

  it('labels recent paths outside the home folder in full', () => {
    expect(recentLabel(path.resolve('/data/a.stp'), path.resolve('/home/ann'))).toBe(path.resolve('/data/a.stp'));
    expect(recentLabel(path.resolve('/home/anna/a.stp'), path.resolve('/home/ann'))).toBe(path.resolve('/home/anna/a.stp'));
  });
});

describe('Help › Show Log', () => {
  it('reveals the log through the callback main gives, on every platform', () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      let shown = 0;
      const { template, emitted } = build({ platform, showLog: () => shown++ });
      const item = menu(template, 'Help').find((i) => i.id === 'help.showLog');
      expect(item?.label).toBe('Show Log');
      click(item);
      expect(shown).toBe(1);
      expect(emitted).toEqual([]);
    }
  });

  it('is absent when main gives no callback', () => {
    expect(menu(build().template, 'Help').some((i) => i.id === 'help.showLog')).toBe(false);
  });
});
