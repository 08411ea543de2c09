/**
 * Keyboard shortcuts. The renderer handles them itself (the browser has no native menu); in
 * Electron the same keys may also reach the native menu, which sends the same command — the
 * command runner drops such duplicates (see `commandSlice.ts`).
 */
import type { AppCommand } from './types';

/** The fields of a keyboard event that shortcuts look at. */
export interface KeyInput {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
  /** The event comes from a text field (single-letter shortcuts are off there). */
  readonly inTextField: boolean;
}

/** Shortcuts for the help dialog, in the order shown. */
export const SHORTCUTS: readonly { keys: string; action: string; command: AppCommand }[] = [
  { keys: 'Ctrl+O', action: 'Open an assembly or CAD file', command: 'file.open' },
  { keys: 'Ctrl+S', action: 'Save the assembly', command: 'file.save' },
  { keys: 'Ctrl+Shift+S', action: 'Save as…', command: 'file.saveAs' },
  { keys: 'Ctrl+E', action: 'Export report…', command: 'file.exportReport' },
  { keys: 'F5 or Ctrl+Enter', action: 'Run the interference check', command: 'check.run' },
  { keys: 'Esc', action: 'Cancel the running job, else close the menu or dialog, the newest message, end the isolation, clear the selection', command: 'check.cancel' },
  { keys: 'Ctrl+Z', action: 'Undo the last placement change', command: 'edit.undo' },
  { keys: 'Ctrl+Shift+Z or Ctrl+Y', action: 'Redo', command: 'edit.redo' },
  { keys: 'W', action: 'Move gizmo on the selected part (again: off)', command: 'gizmo.translate' },
  { keys: 'E', action: 'Rotate gizmo on the selected part (again: off)', command: 'gizmo.rotate' },
  { keys: 'I', action: 'Isolate: show only the selected parts (Esc restores)', command: 'view.isolate' },
  { keys: 'H', action: 'Hide the selected parts', command: 'view.hide' },
  { keys: 'Shift+H', action: 'Show all parts', command: 'view.showAll' },
  { keys: 'F', action: 'Fit all in view', command: 'view.fitAll' },
  { keys: 'S', action: 'Fit the selection in view', command: 'view.fitSelection' },
  { keys: '1 / 3 / 7 / 0', action: 'Front / right / top / isometric view', command: 'view.iso' },
  { keys: 'P', action: 'Perspective / orthographic', command: 'view.toggleProjection' },
  { keys: 'X', action: 'Section view: cut through the selected finding (again: off)', command: 'view.section' },
  { keys: 'T', action: 'Show the crossing triangles of the selected result (again: off)', command: 'view.crossing' },
  { keys: 'F1', action: 'This list', command: 'help.shortcuts' },
];

/** The command a key press stands for, or null. */
export function commandForKey(e: KeyInput): AppCommand | null {
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (key === 'F5' && !mod && !e.altKey) return 'check.run';
  if (key === 'F1' && !mod && !e.altKey) return 'help.shortcuts';
  if (key === 'Escape' && !mod && !e.altKey) return 'check.cancel';
  if (mod && !e.altKey) {
    switch (key) {
      case 'o':
        return e.shiftKey ? null : 'file.open';
      case 's':
        return e.shiftKey ? 'file.saveAs' : 'file.save';
      case 'e':
        return e.shiftKey ? null : 'file.exportReport';
      case 'Enter':
        return 'check.run';
      // In a text field these undo typing, as everywhere.
      case 'z':
        return e.inTextField ? null : e.shiftKey ? 'edit.redo' : 'edit.undo';
      case 'y':
        return e.inTextField || e.shiftKey ? null : 'edit.redo';
      default:
        return null;
    }
  }
  if (e.inTextField || e.altKey || mod) return null;
  if (key === 'h' && e.shiftKey) return 'view.showAll';
  switch (key) {
    case 'w':
      return 'gizmo.translate';
    case 'e':
      return 'gizmo.rotate';
    case 'i':
      return 'view.isolate';
    case 'h':
      return 'view.hide';
    case 'f':
      return 'view.fitAll';
    case 's':
      return 'view.fitSelection';
    case 'p':
      return 'view.toggleProjection';
    case 'x':
      return 'view.section';
    case 't':
      return 'view.crossing';
    case '1':
      return 'view.front';
    case '3':
      return 'view.right';
    case '7':
      return 'view.top';
    case '0':
      return 'view.iso';
    default:
      return null;
  }
}
