/**
 * How a compute child talks to its parent, whichever way it was started:
 * - Electron `utilityProcess.fork`: a `process.parentPort` global; messages arrive as events
 *   whose `data` is the message, replies go out with `parentPort.postMessage`;
 * - Node `child_process.fork` (CLI, tests): `process.on('message')` and `process.send`.
 * Both clone typed arrays (the Node parent forks with `serialization: 'advanced'`).
 *
 * This file must not import 'electron' (it cannot load outside Electron): the parent port is
 * typed here with just what is used.
 */

/** The part of Electron's ParentPort (a MessagePortMain-like object) used here. */
interface ElectronParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
  start?(): void;
}

type ChildProcessLike = NodeJS.Process & { parentPort?: ElectronParentPort };

export interface ParentChannel {
  readonly kind: 'electron' | 'node';
  /** Sends a message to the parent (cloned). */
  post(message: unknown): void;
  /** Calls `listener` with every message from the parent, unvalidated. */
  onMessage(listener: (message: unknown) => void): void;
  /** Calls `listener` once the parent has gone (Node only: Electron ends its children itself). */
  onDisconnect(listener: () => void): void;
}

/** The channel to the parent, or null when this process was not started as a compute child. */
export function connectToParent(proc: ChildProcessLike = process as ChildProcessLike): ParentChannel | null {
  const port = proc.parentPort;
  if (port) {
    return {
      kind: 'electron',
      post: (message) => port.postMessage(message),
      onMessage: (listener) => {
        port.on('message', (event) => listener(event.data));
        port.start?.();
      },
      onDisconnect: () => {},
    };
  }
  const send = proc.send?.bind(proc);
  if (send && proc.connected) {
    return {
      kind: 'node',
      // A failed send means the parent is gone: the disconnect handler ends the process.
      post: (message) => { if (proc.connected) send(message, undefined, undefined, () => {}); },
      onMessage: (listener) => { proc.on('message', listener); },
      onDisconnect: (listener) => { proc.once('disconnect', listener); },
    };
  }
  return null;
}
