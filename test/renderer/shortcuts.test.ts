import { describe, expect, it } from 'vitest';
import { commandForKey, type KeyInput } from '../../src-renderer/state/shortcuts';

function key(k: string, mods: Partial<Omit<KeyInput, 'key'>> = {}): KeyInput {
  return { key: k, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, inTextField: false, ...mods };
}

describe('commandForKey', () => {
  it('maps the file and check shortcuts, with Ctrl or Cmd', () => {
    expect(commandForKey(key('o', { ctrlKey: true }))).toBe('file.open');
    expect(commandForKey(key('O', { metaKey: true }))).toBe('file.open');
    expect(commandForKey(key('s', { ctrlKey: true }))).toBe('file.save');
    expect(commandForKey(key('S', { ctrlKey: true, shiftKey: true }))).toBe('file.saveAs');
    expect(commandForKey(key('e', { ctrlKey: true }))).toBe('file.exportReport');
    expect(commandForKey(key('F5'))).toBe('check.run');
    expect(commandForKey(key('Enter', { ctrlKey: true }))).toBe('check.run');
    expect(commandForKey(key('Escape'))).toBe('check.cancel');
    expect(commandForKey(key('z', { ctrlKey: true }))).toBe('edit.undo');
    expect(commandForKey(key('y', { ctrlKey: true }))).toBe('edit.redo');
  });
  it('maps single keys to view commands, but not while typing', () => {
    expect(commandForKey(key('f'))).toBe('view.fitAll');
    expect(commandForKey(key('F'))).toBe('view.fitAll');
    expect(commandForKey(key('0'))).toBe('view.iso');
    expect(commandForKey(key('p'))).toBe('view.toggleProjection');
    expect(commandForKey(key('f', { inTextField: true }))).toBeNull();
    expect(commandForKey(key('s', { ctrlKey: true, inTextField: true }))).toBe('file.save');
  });
  it('turns the section view and the crossing triangles on and off with X and T, not in text fields', () => {
    expect(commandForKey(key('x'))).toBe('view.section');
    expect(commandForKey(key('t'))).toBe('view.crossing');
    expect(commandForKey(key('x', { inTextField: true }))).toBeNull();
  });

  it('ignores other keys and Alt combinations', () => {
    expect(commandForKey(key('q'))).toBeNull();
    expect(commandForKey(key('Enter'))).toBeNull();
    expect(commandForKey(key('o', { ctrlKey: true, altKey: true }))).toBeNull();
    expect(commandForKey(key('f', { altKey: true }))).toBeNull();
  });
});
