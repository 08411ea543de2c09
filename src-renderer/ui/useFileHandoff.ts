/**
 * Files handed to the window from outside: dropped on it, or (desktop app) opened from Open
 * Recent, a second launch or the system's Open With, which the shell forwards as onOpenFile.
 * In the desktop app a dropped file opens through the shell, which grants its path; a browser
 * page cannot learn a dropped file's path, so there the user is told to use Open… instead.
 */
import { useEffect } from 'react';
import { appStore } from '../appStore';

function hasFiles(e: DragEvent): boolean {
  return e.dataTransfer !== null && Array.from(e.dataTransfer.types).includes('Files');
}

export function useFileHandoff(): void {
  useEffect(() => {
    const shell = window.interfereShell;
    const offOpen = shell?.onOpenFile((path) => void appStore.getState().openDocument(path));
    const onDragOver = (e: DragEvent): void => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const onDrop = (e: DragEvent): void => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      const files = Array.from(e.dataTransfer?.files ?? []);
      const store = appStore.getState();
      if (files.length === 0) return;
      if (files.length > 1) store.notify('warning', 'One file at a time', `${files.length} files were dropped; opening ${files[0].name}.`);
      const file = files[0];
      if (!shell) {
        store.notify('info', 'Use Open… in the browser', `A browser page cannot read where ${file.name} is stored: open it with Open… and its path.`);
        return;
      }
      void store.openDropped(file.name, () => shell.openDroppedFile(file));
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    return () => {
      offOpen?.();
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
    };
  }, []);
}
