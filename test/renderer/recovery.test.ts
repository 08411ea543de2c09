// The offer of unsaved work an earlier run left behind: asked for on connecting, shown in the
// Recover dialog, recovered (opened dirty in place of the startup document) or discarded.
import { describe, expect, it } from 'vitest';
import type { RecoverableDocument } from '../../src-main/contract/host';
import { formatDateTime } from '../../src-renderer/state/format';
import { createAppStore, type AppStore } from '../../src-renderer/state/store';
import { createFakeHost, documentInfo, FakeHostError, FakeRegistry, flush, part, translation, type FakeHost } from '../support/fakeHost';

const BRACKET: RecoverableDocument = {
  recoveryId: 'run1-doc-3',
  name: 'bracket.assembly.json',
  originalPath: '/data/bracket.assembly.json',
  kind: 'assembly',
  savedAt: '2026-11-29T12:00:00.000Z',
};
const UNTITLED: RecoverableDocument = { recoveryId: 'run1-doc-4', name: '', originalPath: null, kind: 'new', savedAt: '2026-11-29T11:58:00.000Z' };

/** The bracket assembly as the host recovers it: its own file, a moved part, unsaved. */
const RECOVERED = documentInfo({
  id: 'doc-9',
  name: 'bracket.assembly.json',
  path: '/data/bracket.assembly.json',
  kind: 'assembly',
  parts: [part('plate', { bodyKey: 'b#0' }), part('bolt', { body: 1, bodyKey: 'b#1', transform: translation(0, -0.5, 0) })],
  statuses: { 'bolt|plate': 'active' },
  dirty: true,
});

async function connect(documents: RecoverableDocument[], confirmAnswer = true): Promise<{ store: AppStore; host: FakeHost; confirms: string[] }> {
  const host = createFakeHost();
  host.handle('doc.recoverable', () => ({ documents }));
  const confirms: string[] = [];
  const store = createAppStore({
    geometry: new FakeRegistry(),
    confirm: (m) => {
      confirms.push(m);
      return confirmAnswer;
    },
  });
  await store.getState().connect(host.api);
  await flush();
  return { store, host, confirms };
}

describe('recovering unsaved work of an earlier run', () => {
  it('asks the host on connecting, after the startup document, and offers nothing when there is nothing', async () => {
    const { store, host } = await connect([]);
    const channels = host.calls.map(([c]) => c);
    expect(channels.indexOf('doc.recoverable')).toBeGreaterThan(channels.indexOf('app.info'));
    expect(channels.filter((c) => c === 'doc.recoverable')).toHaveLength(1);
    expect(store.getState().doc?.id).toBe('doc-1');
    expect(store.getState().recovery).toEqual({ documents: [], pending: null });
    expect(store.getState().dialog).toBeNull();
  });

  it('lists what is recoverable in the Recover dialog', async () => {
    const { store } = await connect([BRACKET, UNTITLED]);
    const s = store.getState();
    expect(s.dialog).toBe('recovery');
    expect(s.recovery.documents.map((d) => d.recoveryId)).toEqual(['run1-doc-3', 'run1-doc-4']);
    expect(s.recovery.documents[0]).toEqual(BRACKET);
    // The startup document is shown behind the dialog.
    expect(s.doc?.id).toBe('doc-1');
  });

  it('recovers a document: opened dirty in place of the startup document, which is closed', async () => {
    const { store, host } = await connect([BRACKET, UNTITLED]);
    host.handle('doc.recover', (req) => {
      expect(req).toEqual({ recoveryId: 'run1-doc-3' });
      return RECOVERED;
    });
    await store.getState().recoverDocument('run1-doc-3');
    await flush();
    const s = store.getState();
    expect(s.doc).toMatchObject({ id: 'doc-9', dirty: true, path: '/data/bracket.assembly.json' });
    expect(s.doc?.parts.find((p) => p.id === 'bolt')?.transform).toEqual(translation(0, -0.5, 0));
    expect(s.doc?.statuses).toEqual({ 'bolt|plate': 'active' });
    expect(s.geometry.status).toBe('ready');
    expect(host.calls.find(([c]) => c === 'doc.close')?.[1]).toEqual({ docId: 'doc-1' });
    // The other entry is still offered, and the dialog stays open for it.
    expect(s.recovery).toEqual({ documents: [UNTITLED], pending: null });
    expect(s.dialog).toBe('recovery');
    expect(s.busy).toBeNull();
    expect(s.notices.at(-1)).toMatchObject({ level: 'info', title: 'Recovered', path: '/data/bracket.assembly.json' });
  });

  it('asks before recovering over a document with unsaved changes, and does nothing when refused', async () => {
    const { store, host, confirms } = await connect([BRACKET], false);
    store.getState().receiveDocument({ ...(store.getState().doc ?? documentInfo()), dirty: true });
    host.handle('doc.recover', () => RECOVERED);
    await store.getState().recoverDocument('run1-doc-3');
    expect(confirms).toHaveLength(1);
    expect(confirms[0]).toContain('unsaved changes');
    expect(host.calls.some(([c]) => c === 'doc.recover')).toBe(false);
    expect(store.getState().doc?.id).toBe('doc-1');
    expect(store.getState().recovery.documents).toEqual([BRACKET]);
  });

  it('discards an entry after confirming; the dialog closes when nothing is left', async () => {
    const { store, host, confirms } = await connect([BRACKET, UNTITLED]);
    const discarded: unknown[] = [];
    host.handle('doc.discardRecovery', (req) => {
      discarded.push(req);
      return { discarded: true };
    });
    await store.getState().discardRecovery('run1-doc-4');
    expect(discarded).toEqual([{ recoveryId: 'run1-doc-4' }]);
    expect(confirms.at(-1)).toMatch(/^Discard the unsaved changes of/);
    expect(store.getState().recovery.documents).toEqual([BRACKET]);
    expect(store.getState().dialog).toBe('recovery');

    // A file already gone (`discarded: false`) is not offered any more either.
    host.handle('doc.discardRecovery', () => ({ discarded: false }));
    await store.getState().discardRecovery('run1-doc-3');
    expect(store.getState().recovery.documents).toEqual([]);
    expect(store.getState().dialog).toBeNull();
    // The document shown is untouched.
    expect(store.getState().doc?.id).toBe('doc-1');
  });

  it('keeps an entry when discarding is refused by the user', async () => {
    const { store, host } = await connect([BRACKET], false);
    await store.getState().discardRecovery('run1-doc-3');
    expect(host.calls.some(([c]) => c === 'doc.discardRecovery')).toBe(false);
    expect(store.getState().recovery.documents).toEqual([BRACKET]);
    expect(store.getState().dialog).toBe('recovery');
  });

  it('"Later" closes the dialog and deletes nothing', async () => {
    const { store, host } = await connect([BRACKET]);
    store.getState().closeDialog();
    expect(store.getState().dialog).toBeNull();
    expect(store.getState().recovery.documents).toEqual([BRACKET]);
    expect(host.calls.filter(([c]) => c === 'doc.discardRecovery' || c === 'doc.recover')).toEqual([]);
  });

  it('reports a failed recovery with the reason; an entry the host no longer has leaves the list', async () => {
    const { store, host } = await connect([BRACKET, UNTITLED]);
    host.handle('doc.recover', (req) => {
      if (req.recoveryId === 'run1-doc-3') {
        throw new FakeHostError({ code: 'invalid-recovery', message: 'the recovery file cannot be used: not JSON', path: '/user/recovery/run1-doc-3.json' });
      }
      throw new FakeHostError({ code: 'not-found', message: "there is no recoverable document 'run1-doc-4'" });
    });
    await store.getState().recoverDocument('run1-doc-3');
    expect(store.getState().notices.at(-1)).toMatchObject({
      level: 'error',
      title: 'Could not recover bracket.assembly.json',
      code: 'invalid-recovery',
      path: '/user/recovery/run1-doc-3.json',
    });
    // Still listed: it can be discarded.
    expect(store.getState().recovery).toEqual({ documents: [BRACKET, UNTITLED], pending: null });

    await store.getState().recoverDocument('run1-doc-4');
    expect(store.getState().notices.at(-1)).toMatchObject({ level: 'error', code: 'not-found' });
    expect(store.getState().recovery.documents).toEqual([BRACKET]);
    expect(store.getState().doc?.id).toBe('doc-1');
    expect(store.getState().busy).toBeNull();
  });

  it('does one thing at a time: a second action while one is pending is ignored', async () => {
    const { store, host } = await connect([BRACKET, UNTITLED]);
    let answer: (doc: typeof RECOVERED) => void = () => {};
    host.handle('doc.recover', () => new Promise((r) => (answer = r)));
    host.handle('doc.discardRecovery', () => ({ discarded: true }));
    const recovering = store.getState().recoverDocument('run1-doc-3');
    await flush();
    expect(store.getState().recovery.pending).toBe('run1-doc-3');
    await store.getState().discardRecovery('run1-doc-4');
    await store.getState().recoverDocument('run1-doc-4');
    expect(host.calls.filter(([c]) => c === 'doc.discardRecovery' || c === 'doc.recover')).toHaveLength(1);
    answer(RECOVERED);
    await recovering;
    expect(store.getState().recovery).toEqual({ documents: [UNTITLED], pending: null });
  });

  it('tells the user when the host could not list recoverable work, and still shows the document', async () => {
    const host = createFakeHost();
    host.handle('doc.recoverable', () => {
      throw new FakeHostError({ code: 'internal', message: '/user/recovery: permission denied' });
    });
    const store = createAppStore({ geometry: new FakeRegistry() });
    await store.getState().connect(host.api);
    await flush();
    expect(store.getState().connection).toBe('connected');
    expect(store.getState().doc?.id).toBe('doc-1');
    expect(store.getState().dialog).toBeNull();
    const n = store.getState().notices.at(-1);
    expect(n).toMatchObject({ level: 'warning', title: 'Could not look for unsaved work' });
    expect(n?.message).toContain('permission denied');
  });

  it('shows when each entry was saved in local time', () => {
    const now = Date.parse('2026-11-29T15:00:00Z');
    const local = new Date('2026-11-29T12:00:00Z');
    const hhmm = `${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`;
    const sameDay = local.toDateString() === new Date(now).toDateString();
    expect(formatDateTime('2026-11-29T12:00:00Z', now)).toBe(sameDay ? `today ${hhmm}` : `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-${String(local.getDate()).padStart(2, '0')} ${hhmm}`);
    expect(formatDateTime('2025-01-02T03:04:00Z', now)).toMatch(/^2025-01-0[12] \d\d:04$/);
    expect(formatDateTime('not a date', now)).toBe('not a date');
  });
});
