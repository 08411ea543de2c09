/**
 * The renderer's entry: mounts the window, then connects the store to the host (the preload's
 * API in Electron, the loopback bridge in a browser), which brings the startup document.
 */
import './zodConfig';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { appStore } from './appStore';
import { getHost } from './host';
import { bindResultObjects } from './scene/resultObjects';
import { testHook } from './scene/testHook';
import './styles.css';

// End-to-end tests poll this from the start (see scene/testHook.ts).
testHook();
// A result's overlap solid and curves are built once and kept until a new check or document.
bindResultObjects(appStore);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

getHost().then(
  (host) => appStore.getState().connect(host),
  (error: unknown) => {
    appStore.setState({ connection: 'failed' });
    appStore.getState().reportError('Could not reach the application host', error);
  },
);
