import type { StateCreator } from 'zustand/vanilla';
import { describeError, isCancellation, type Notice } from './notices';
import type { AppState, NoticeSlice, StoreDeps } from './types';

/** Notices kept at most (the oldest go first). */
const MAX_NOTICES = 20;

export function createNoticeSlice(deps: StoreDeps): StateCreator<AppState, [], [], NoticeSlice> {
  const now = deps.now ?? Date.now;
  let nextId = 1;
  return (set, get) => ({
    notices: [],
    notify(level, title, message, extra) {
      const notice: Notice = {
        id: nextId++,
        level,
        title,
        message,
        code: extra?.code ?? null,
        path: extra?.path ?? null,
        at: now(),
      };
      set((s) => ({ notices: [...s.notices, notice].slice(-MAX_NOTICES) }));
    },
    reportError(title, error, path = null) {
      const details = describeError(error);
      if (isCancellation(details)) {
        get().notify('info', 'Cancelled', details.message, { code: details.code, path: details.path ?? path });
        return;
      }
      get().notify('error', title, details.message, { code: details.code, path: details.path ?? path });
    },
    dismissNotice(id) {
      set((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
    },
    dismissAllNotices() {
      set({ notices: [] });
    },
  });
}
