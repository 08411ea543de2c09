/**
 * The unsaved-changes prompt when the window closes or the app quits (pure: main passes in the
 * host service's dirty list, the message box and the renderer's save).
 *
 * The window's 'close' event asks `shouldClose()`. With no unsaved document it may close. With
 * some, the close is held and the user is asked: Save / Don't Save / Cancel.
 *  - Don't Save: the close goes ahead (`proceed`).
 *  - Cancel: nothing happens (`cancelled`, so that a pending quit is forgotten).
 *  - Save: the renderer is sent the 'file.save' command — it saves the document it shows, asking
 *    for a path if it has none — and the guard waits for that doc.save request to finish
 *    (SaveWatcher). Saved: the close goes ahead (and asks again if another document is still
 *    unsaved). The user cancelled the save dialog, or the save failed (the renderer shows why),
 *    or no save began within a few seconds (a renderer that is not responding): the window stays.
 */
import type { ReplyEnvelope } from '../preload/shellIpc.js';

export interface DirtyDocument {
  readonly id: string;
  readonly name: string;
}

export type CloseChoice = 'save' | 'discard' | 'cancel';

export interface CloseGuardOptions {
  readonly dirtyDocuments: () => readonly DirtyDocument[];
  readonly ask: (documents: readonly DirtyDocument[]) => Promise<CloseChoice>;
  /** Asks the renderer to save its document. */
  readonly requestSave: () => void;
  /** Resolves true once the save has been made, false if it was not. */
  readonly waitForSave: () => Promise<boolean>;
  /** Closes the window (or resumes the quit) now that the user has decided. */
  readonly proceed: () => void;
  /** The close was called off. */
  readonly cancelled: () => void;
  readonly log: (message: string) => void;
}

export class CloseGuard {
  private confirmed = false;
  private prompting = false;

  constructor(private readonly o: CloseGuardOptions) {}

  /** From the 'close' event: true to let the window close; false to hold it (preventDefault). */
  shouldClose(): boolean {
    if (this.confirmed) return true;
    let dirty: readonly DirtyDocument[];
    try {
      dirty = this.o.dirtyDocuments();
    } catch (e) {
      this.o.log(`could not list unsaved documents: ${e instanceof Error ? e.message : String(e)}`);
      return true;
    }
    if (dirty.length === 0) return true;
    if (!this.prompting) void this.prompt(dirty);
    return false;
  }

  private async prompt(dirty: readonly DirtyDocument[]): Promise<void> {
    this.prompting = true;
    try {
      const choice = await this.o.ask(dirty);
      if (choice === 'discard') {
        this.confirmed = true;
        this.o.proceed();
        return;
      }
      if (choice === 'cancel') {
        this.o.cancelled();
        return;
      }
      const saved = this.o.waitForSave();
      this.o.requestSave();
      if (await saved) {
        // Closing again asks about any document that is still unsaved.
        this.prompting = false;
        this.o.proceed();
      } else {
        this.o.cancelled();
      }
    } catch (e) {
      this.o.log(`unsaved-changes prompt failed: ${e instanceof Error ? e.message : String(e)}`);
      this.o.cancelled();
    } finally {
      this.prompting = false;
    }
  }
}

/** The prompt's wording for the unsaved documents. */
export function unsavedChangesMessage(documents: readonly DirtyDocument[]): { message: string; detail: string } {
  const name = (d: DirtyDocument): string => (d.name.trim() === '' ? 'Untitled' : d.name);
  const message = documents.length === 1
    ? `Do you want to save the changes you made to ${name(documents[0])}?`
    : `Do you want to save the changes you made to ${documents.length} documents?`;
  const detail = documents.length === 1
    ? "Your changes will be lost if you don't save them."
    : `${documents.map(name).join(', ')}: the changes will be lost if you don't save them. Save saves the document on screen.`;
  return { message, detail };
}

/** The buttons of the prompt, in the order of CloseChoice indices below. */
export const CLOSE_BUTTONS = ['Save', "Don't Save", 'Cancel'] as const;
export const CLOSE_CHOICES: readonly CloseChoice[] = ['save', 'discard', 'cancel'];

/**
 * Watches doc.save requests (fed by the IPC layer's onRequest/onSettled) so the close prompt can
 * wait for the save it asked the renderer for.
 */
export class SaveWatcher {
  private waiters: { started: boolean; resolve: (saved: boolean) => void; timer: ReturnType<typeof setTimeout> }[] = [];

  constructor(private readonly startTimeoutMs = 10_000) {}

  /** Resolves with the outcome of the next doc.save; false if none starts within the timeout. */
  wait(): Promise<boolean> {
    return new Promise((resolve) => {
      const waiter = {
        started: false,
        resolve,
        timer: setTimeout(() => {
          if (waiter.started) return;
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(false);
        }, this.startTimeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  onRequest(channel: string): void {
    if (channel !== 'doc.save') return;
    for (const w of this.waiters) {
      w.started = true;
      clearTimeout(w.timer);
    }
  }

  onSettled(channel: string, reply: ReplyEnvelope): void {
    if (channel !== 'doc.save') return;
    const done = this.waiters.filter((w) => w.started);
    this.waiters = this.waiters.filter((w) => !w.started);
    const saved = reply.ok && reply.result !== null && reply.result !== undefined;
    for (const w of done) w.resolve(saved);
  }
}
