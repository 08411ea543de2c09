/**
 * The renderer's one way to its host: `getHost()` returns the typed host API — the preload's
 * object in Electron (`window.interfereHost`), or a WebSocket client of the loopback bridge in a
 * browser (the page URL carries the bridge's port and token).
 */
import type { DocumentInfo, HostApi } from '../../src-main/contract/host';

declare global {
  interface Window {
    /**
     * Set by the Electron preload. Failed requests reject with a plain
     * `{ name: 'HostRequestError', message, error: HostError }` object (contextBridge drops the
     * properties of Error objects).
     */
    interfereHost?: HostApi;
    /** Electron only (set by the preload). */
    interfereShell?: {
      /** The file system path of a File the user dropped or picked; '' when it has none. */
      pathForDroppedFile(file: File): string;
      /** Opens a dropped File: main grants its path, then runs doc.open (same result and errors as docOpen). */
      openDroppedFile(file: File): Promise<DocumentInfo | null>;
      /**
       * Files the app is asked to open from outside the window (second launch, Open With, Open
       * Recent), already granted: call docOpen({ path }). Returns an unsubscribe.
       */
      onOpenFile(listener: (path: string) => void): () => void;
    };
  }
}

let host: Promise<HostApi> | null = null;

export function getHost(): Promise<HostApi> {
  host ??= (async () => {
    if (window.interfereHost) return window.interfereHost;
    const { connectBridge } = await import('./bridgeClient');
    return connectBridge(window.location);
  })();
  return host;
}
