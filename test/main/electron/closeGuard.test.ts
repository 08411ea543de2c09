import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CLOSE_BUTTONS, CLOSE_CHOICES, CloseGuard, SaveWatcher, unsavedChangesMessage,
  type CloseChoice, type DirtyDocument,
} from '../../../src-main/main/closeGuard.js';

const flush = () => new Promise((r) => setImmediate(r));

function setup(choices: CloseChoice[], saveOutcomes: boolean[] = []) {
  let dirty: DirtyDocument[] = [{ id: 'doc-1', name: 'as1.stp' }];
  const events: string[] = [];
  const guard = new CloseGuard({
    dirtyDocuments: () => dirty,
    ask: async (docs) => {
      events.push(`ask ${docs.map((d) => d.name).join(',')}`);
      return choices.shift() ?? 'cancel';
    },
    requestSave: () => events.push('save'),
    waitForSave: async () => {
      await flush();
      const saved = saveOutcomes.shift() ?? false;
      if (saved) dirty = [];
      return saved;
    },
    proceed: () => events.push('proceed'),
    cancelled: () => events.push('cancelled'),
    log: (m) => events.push(`log ${m}`),
  });
  return { guard, events, setDirty: (d: DirtyDocument[]) => { dirty = d; } };
}

describe('closing with unsaved changes', () => {
  it('closes at once when nothing is unsaved', () => {
    const { guard, events, setDirty } = setup([]);
    setDirty([]);
    expect(guard.shouldClose()).toBe(true);
    expect(events).toEqual([]);
  });

  it("holds the close and closes after Don't Save (without asking again)", async () => {
    const { guard, events } = setup(['discard']);
    expect(guard.shouldClose()).toBe(false);
    expect(guard.shouldClose()).toBe(false); // a second close while asking: one prompt
    await flush();
    expect(events).toEqual(['ask as1.stp', 'proceed']);
    expect(guard.shouldClose()).toBe(true);
  });

  it('stays open on Cancel and asks again next time', async () => {
    const { guard, events } = setup(['cancel', 'cancel']);
    expect(guard.shouldClose()).toBe(false);
    await flush();
    expect(guard.shouldClose()).toBe(false);
    await flush();
    expect(events).toEqual(['ask as1.stp', 'cancelled', 'ask as1.stp', 'cancelled']);
  });

  it('on Save asks the renderer to save and closes once the document is clean', async () => {
    const { guard, events } = setup(['save'], [true]);
    expect(guard.shouldClose()).toBe(false);
    await flush();
    await flush();
    expect(events).toEqual(['ask as1.stp', 'save', 'proceed']);
    expect(guard.shouldClose()).toBe(true);
  });

  it('stays open when the save did not happen (dialog cancelled, failure, no answer)', async () => {
    const { guard, events } = setup(['save'], [false]);
    guard.shouldClose();
    await flush();
    await flush();
    expect(events).toEqual(['ask as1.stp', 'save', 'cancelled']);
    expect(guard.shouldClose()).toBe(false);
  });

  it('lets the window close if the documents cannot be listed', () => {
    const guard = new CloseGuard({
      dirtyDocuments: () => { throw new Error('disposed'); },
      ask: async () => 'cancel', requestSave: () => {}, waitForSave: async () => false,
      proceed: () => {}, cancelled: () => {}, log: () => {},
    });
    expect(guard.shouldClose()).toBe(true);
  });
});

describe('the prompt', () => {
  it('names one document, or counts several', () => {
    expect(unsavedChangesMessage([{ id: 'a', name: 'as1.stp' }]).message).toBe('Do you want to save the changes you made to as1.stp?');
    expect(unsavedChangesMessage([{ id: 'a', name: ' ' }]).message).toBe('Do you want to save the changes you made to Untitled?');
    const two = unsavedChangesMessage([{ id: 'a', name: 'a' }, { id: 'b', name: 'b' }]);
    expect(two.message).toBe('Do you want to save the changes you made to 2 documents?');
    expect(two.detail).toContain('a, b');
  });

  it('maps the buttons to choices, Cancel last', () => {
    expect(CLOSE_BUTTONS).toEqual(['Save', "Don't Save", 'Cancel']);
    expect(CLOSE_CHOICES).toEqual(['save', 'discard', 'cancel']);
  });
});

describe('waiting for the save', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves with the outcome of the next doc.save', async () => {
    const w = new SaveWatcher(1000);
    const saved = w.wait();
    w.onRequest('doc.open');
    w.onSettled('doc.open', { ok: true, result: {} });
    w.onRequest('doc.save');
    w.onSettled('doc.save', { ok: true, result: { path: '/a.assembly.json' } });
    expect(await saved).toBe(true);
    const cancelled = w.wait();
    w.onRequest('doc.save');
    w.onSettled('doc.save', { ok: true, result: null });
    expect(await cancelled).toBe(false);
    const failed = w.wait();
    w.onRequest('doc.save');
    w.onSettled('doc.save', { ok: false, error: { code: 'write-failed', message: 'disk full' } });
    expect(await failed).toBe(false);
  });

  it('gives up when no save starts in time, but waits as long as a started save takes', async () => {
    vi.useFakeTimers();
    const w = new SaveWatcher(1000);
    const none = w.wait();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await none).toBe(false);
    const slow = w.wait();
    w.onRequest('doc.save');
    await vi.advanceTimersByTimeAsync(60_000); // the user takes a minute in the save dialog
    w.onSettled('doc.save', { ok: true, result: { path: '/x' } });
    expect(await slow).toBe(true);
  });
});
