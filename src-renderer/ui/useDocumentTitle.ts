/** The window title names the document and shows unsaved changes. */
import { useEffect } from 'react';
import { useApp } from '../appStore';

export function useDocumentTitle(): void {
  const name = useApp((s) => s.doc?.name ?? null);
  const dirty = useApp((s) => s.doc?.dirty ?? false);
  useEffect(() => {
    document.title = name ? `${dirty ? '• ' : ''}${name} — Interfere` : 'Interfere';
  }, [name, dirty]);
}
