/** Progress of the foreground job, shown once it has run for half a second, with Cancel. */
import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../appStore';
import { formatCount, percentDone } from '../state/format';
import { foregroundJob } from '../state/selectors';

const SHOW_AFTER_MS = 500;

export function ProgressBar() {
  const job = useApp(useShallow(foregroundJob));
  const cancelJob = useApp((s) => s.cancelJob);
  const cancelRequested = useApp((s) => s.check.cancelRequested);
  const [now, setNow] = useState(() => Date.now());
  const startedAt = job?.startedAt ?? null;
  useEffect(() => {
    if (startedAt === null) return;
    const wait = startedAt + SHOW_AFTER_MS - Date.now();
    if (wait <= 0) {
      setNow(Date.now());
      return;
    }
    const t = window.setTimeout(() => setNow(Date.now()), wait + 10);
    return () => window.clearTimeout(t);
  }, [startedAt]);
  if (!job || now - job.startedAt < SHOW_AFTER_MS) return null;
  const pct = percentDone(job.done, job.total);
  return (
    <div className="progress" data-testid="progress" role="status" aria-label="Progress">
      <div className="progress-text">
        <span className="progress-stage">{job.stage}</span>
        {job.total > 0 && (
          <span className="progress-count">
            {formatCount(job.done)} / {formatCount(job.total)}
          </span>
        )}
      </div>
      {pct === null ? <progress aria-label={job.stage} /> : <progress max={100} value={pct} aria-label={job.stage} />}
      <button type="button" onClick={() => void cancelJob()} disabled={cancelRequested} data-testid="progress-cancel" title="Cancel (Esc)">
        Cancel
      </button>
    </div>
  );
}
