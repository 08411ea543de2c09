/**
 * Errors, warnings and messages, each naming what failed, the file and the reason: the newest
 * few stacked over the view, the newest last (older ones counted, to clear at once), each message
 * clipped to a few lines (the whole text in its tooltip). Errors and warnings stay until
 * dismissed (× or Esc, newest first); messages fade after a few seconds.
 */
import { useEffect } from 'react';
import { useApp } from '../appStore';
import { INFO_NOTICE_MS, noticeStack, type Notice } from '../state/notices';

export function NoticeArea() {
  const notices = useApp((s) => s.notices);
  const dismissAll = useApp((s) => s.dismissAllNotices);
  const { shown, hidden } = noticeStack(notices);
  return (
    <div className="notices" data-testid="error-area" role="region" aria-label="Messages" aria-live="polite">
      {hidden > 0 && (
        <div className="notice-more" data-testid="notice-more">
          <span>
            {hidden} older message{hidden === 1 ? '' : 's'}
          </span>
          <button type="button" onClick={dismissAll} title="Dismiss every message">
            Dismiss all
          </button>
        </div>
      )}
      {shown.map((n) => (
        <NoticeItem key={n.id} notice={n} />
      ))}
    </div>
  );
}

function NoticeItem({ notice }: { notice: Notice }) {
  const dismiss = useApp((s) => s.dismissNotice);
  useEffect(() => {
    if (notice.level !== 'info') return;
    const t = window.setTimeout(() => dismiss(notice.id), INFO_NOTICE_MS);
    return () => window.clearTimeout(t);
  }, [notice, dismiss]);
  return (
    <div className={`notice notice-${notice.level}`} role={notice.level === 'error' ? 'alert' : 'status'} data-testid={`notice-${notice.level}`}>
      <div className="notice-body">
        <strong className="notice-title">{notice.title}</strong>
        <p className="notice-message" title={notice.message}>
          {notice.message}
        </p>
        {(notice.path || notice.code) && (
          <p className="notice-meta">
            {notice.path && (
              <code className="notice-path" title={notice.path}>
                {notice.path}
              </code>
            )}
            {notice.code && <span className="notice-code">{notice.code}</span>}
          </p>
        )}
      </div>
      <button type="button" className="notice-close" aria-label="Dismiss" title="Dismiss (Esc closes the newest)" onClick={() => dismiss(notice.id)}>
        ×
      </button>
    </div>
  );
}
