// The messages over the view: only the newest few shown, Esc closes the newest.
import { describe, expect, it } from 'vitest';
import { MAX_NOTICES_SHOWN, newestNotice, noticeStack, type Notice } from '../../src-renderer/state/notices';
import { createAppStore } from '../../src-renderer/state/store';
import { createFakeHost, FakeRegistry, flush } from '../support/fakeHost';

function notice(id: number): Notice {
  return { id, level: 'error', title: `t${id}`, message: 'm', code: null, path: null, at: id };
}

describe('the message stack', () => {
  it('shows the newest few, the newest last, and counts the rest', () => {
    const all = [1, 2, 3, 4, 5].map(notice);
    const { shown, hidden } = noticeStack(all);
    expect(shown.map((n) => n.id)).toEqual([3, 4, 5]);
    expect(hidden).toBe(2);
    expect(MAX_NOTICES_SHOWN).toBe(3);
    expect(noticeStack(all.slice(0, 2))).toEqual({ shown: all.slice(0, 2), hidden: 0 });
    expect(newestNotice(all)?.id).toBe(5);
    expect(newestNotice([])).toBeNull();
  });

  it('closes the newest message on Esc, before isolation and selection', async () => {
    const host = createFakeHost();
    const store = createAppStore({ geometry: new FakeRegistry() });
    await store.getState().connect(host.api);
    await flush();
    const s = store.getState();
    s.selectPart('a');
    s.notify('error', 'first', 'x');
    s.notify('error', 'second', 'y');
    s.runCommand('check.cancel', 'key');
    expect(store.getState().notices.map((n) => n.title)).toEqual(['first']);
    s.runCommand('check.cancel', 'key');
    expect(store.getState().notices).toEqual([]);
    expect(store.getState().selectedParts).toEqual(['a']);
    s.runCommand('check.cancel', 'key');
    expect(store.getState().selectedParts).toEqual([]);
    s.notify('info', 'a', 'b');
    s.notify('error', 'c', 'd');
    s.dismissAllNotices();
    expect(store.getState().notices).toEqual([]);
  });
});
