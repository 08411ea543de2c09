/** Keyboard shortcuts for the whole window (see state/shortcuts.ts for the keys). */
import { useEffect } from 'react';
import { appStore } from '../appStore';
import { commandForKey } from '../state/shortcuts';

function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'range', 'color'].includes(target.type);
  return false;
}

export function useShortcuts(): void {
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.repeat) return;
      const inTextField = isTextField(e.target);
      const command = commandForKey({ key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, shiftKey: e.shiftKey, altKey: e.altKey, inTextField });
      if (!command) return;
      // Escape in a field of a dialog closes the dialog (the command does); elsewhere it leaves
      // editing alone.
      if (command === 'check.cancel' && inTextField && appStore.getState().dialog === null) return;
      e.preventDefault();
      appStore.getState().runCommand(command, 'key');
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
