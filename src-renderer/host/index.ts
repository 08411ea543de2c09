/**
 * The renderer's one way to its host: `getHost()` returns the typed host API — the preload's
 * object in Electron (`window.interfereHost`), or a WebSocket client of the loopback bridge in a
 * browser (the page URL carries the bridge's port and token).
 */
import type { HostApi } from '../../src-main/contract/host';

declare global {
  interface Window {
    /** Set by the Electron preload (contextBridge). */
    interfereHost?: HostApi;
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
