/**
 * Errors, warnings and messages, each naming what failed, the file and the reason. Errors stay
 * until dismissed; messages fade after a few seconds.
 */
import { useEffect } from 'react';
import { useApp } from '../appStore';
import type { Notice } from '../state/notices';

const INFO_MS = 6000;

export function NoticeArea() {
  const notices = useApp((s) => s.notices);
  return (
    <div className="notices" data-testid="error-area" role="region" aria-label="Messages" aria-live="polite">
      {notices.map((n) => (
        <NoticeItem key={n.id} notice={n} />
      ))}
    </div>
  );
}

function NoticeItem({ notice }: { notice: Notice }) {
  const dismiss = useApp((s) => s.dismissNotice);
  useEffect(() => {
    if (notice.level !== 'info') return;
    const t = window.setTimeout(() => dismiss(notice.id), INFO_MS);
    return () => window.clearTimeout(t);
  }, [notice, dismiss]);
  return (
    <div className={`notice notice-${notice.level}`} role={notice.level === 'error' ? 'alert' : 'status'} data-testid={`notice-${notice.level}`}>
      <div className="notice-body">
        <strong className="notice-title">{notice.title}</strong>
        <p className="notice-message">{notice.message}</p>
        {(notice.path || notice.code) && (
          <p className="notice-meta">
            {notice.path && <code className="notice-path">{notice.path}</code>}
            {notice.code && <span className="notice-code">{notice.code}</span>}
          </p>
        )}
      </div>
      <button type="button" className="notice-close" aria-label="Dismiss" title="Dismiss" onClick={() => dismiss(notice.id)}>
        ×
      </button>
    </div>
  );
}
