/**
 * The results of the last check: a summary, filters, and a sortable table of part pairs. Units
 * are in the column headers. Selecting a row highlights the pair's colliding triangles in red and
 * frames them; the arrow keys move through the rows.
 */
import { useMemo, useRef, type KeyboardEvent } from 'react';
import type { PairResultInfo } from '../../src-main/contract/host';
import { useApp } from '../appStore';
import { formatClock, formatCount, formatDuration, formatMeasure } from '../state/format';
import {
  filterResults,
  KIND_LABEL,
  nextSort,
  resultKey,
  resultRowTestId,
  sortResults,
  summaryText,
  trianglePairCount,
  type ResultKind,
  type ResultSortKey,
} from '../state/results';

const COLUMNS: { key: ResultSortKey; label: string; title: string; numeric?: boolean }[] = [
  { key: 'status', label: 'Status', title: 'New, active (seen before), resolved or ignored, across checks' },
  { key: 'kind', label: 'Kind', title: 'Interference, clearance violation, contact or ignored' },
  { key: 'a', label: 'Part A', title: 'First part of the pair' },
  { key: 'b', label: 'Part B', title: 'Second part of the pair' },
  { key: 'volume', label: 'Volume (mm³)', title: 'Volume of the overlap, where both parts are closed', numeric: true },
  { key: 'depth', label: 'Depth (mm)', title: 'How far the parts overlap', numeric: true },
  { key: 'distance', label: 'Min distance (mm)', title: 'Smallest distance between the parts (0 when they touch or overlap)', numeric: true },
  { key: 'triangles', label: 'Triangle pairs', title: 'Pairs of triangles that intersect or touch', numeric: true },
];

const KIND_FILTERS: (ResultKind | 'all')[] = ['all', 'interference', 'clearance', 'contact', 'ignored'];

export function ResultsPanel() {
  const outcome = useApp((s) => s.check.outcome);
  const stale = useApp((s) => s.check.stale);
  const finishedAt = useApp((s) => s.check.finishedAt);
  const names = useApp((s) => s.partNames);
  const sort = useApp((s) => s.resultSort);
  const filter = useApp((s) => s.resultFilter);
  const selectedKey = useApp((s) => s.selectedResult);
  const setResultSort = useApp((s) => s.setResultSort);
  const setResultFilter = useApp((s) => s.setResultFilter);
  const selectResult = useApp((s) => s.selectResult);
  const others = useApp((s) => s.othersWhenResult);
  const setOthers = useApp((s) => s.setOthersWhenResult);
  const body = useRef<HTMLTableSectionElement>(null);

  const rows = useMemo(() => (outcome ? sortResults(filterResults(outcome.results, names, filter), names, sort) : []), [outcome, names, filter, sort]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const i = rows.findIndex((r) => resultKey(r) === selectedKey);
    const next = e.key === 'ArrowDown' ? Math.min(rows.length - 1, i + 1) : Math.max(0, i - 1);
    const r = rows[next];
    if (!r) return;
    selectResult(resultKey(r));
    body.current?.querySelector(`[data-testid="${resultRowTestId(r)}"]`)?.scrollIntoView({ block: 'nearest' });
  };

  return (
    <section className="results" aria-label="Check results" data-testid="results">
      <div className="panel-header">
        <h2>Results</h2>
        {outcome ? (
          <p className="summary" data-testid="results-summary">
            {summaryText(outcome.summary)} — {formatCount(outcome.summary.parts)} parts, {formatDuration(outcome.summary.elapsedMs)}
            {finishedAt !== null && `, at ${formatClock(finishedAt)}`}
            {' · '}touch tolerance {outcome.settings.touchToleranceAuto ? 'auto ≤ ' : ''}
            {formatMeasure(outcome.settings.touchToleranceMm)} mm
            {outcome.resolved.length > 0 && ` · ${outcome.resolved.length} resolved since the last check`}
          </p>
        ) : (
          <p className="summary muted">No check yet: press Check (F5) to test every pair of parts.</p>
        )}
        {stale && (
          <p className="stale" role="status">
            The assembly changed since this check: run it again.
          </p>
        )}
        <div className="panel-actions">
          <select aria-label="Show results of kind" value={filter.kind} onChange={(e) => setResultFilter({ kind: e.target.value as ResultKind | 'all' })} data-testid="results-kind">
            {KIND_FILTERS.map((k) => (
              <option key={k} value={k}>
                {k === 'all' ? 'All kinds' : KIND_LABEL[k]}
              </option>
            ))}
          </select>
          <input type="search" placeholder="Filter by part" aria-label="Filter results by part" value={filter.text} onChange={(e) => setResultFilter({ text: e.target.value })} />
          <label className="checkbox" title="While a result is selected, hide the other parts instead of showing them faded">
            <input type="checkbox" checked={others === 'hidden'} onChange={(e) => setOthers(e.target.checked ? 'hidden' : 'transparent')} />
            Hide others
          </label>
        </div>
      </div>
      <div className="table-scroll">
        <table className="results-table" data-testid="results-table" tabIndex={0} onKeyDown={onKeyDown} aria-rowcount={rows.length}>
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  className={c.numeric ? 'num' : undefined}
                  title={c.title}
                  aria-sort={sort.key === c.key ? (sort.descending ? 'descending' : 'ascending') : 'none'}
                >
                  <button type="button" onClick={() => setResultSort(nextSort(sort, c.key))}>
                    {c.label}
                    <span className="sort-mark" aria-hidden="true">
                      {sort.key === c.key ? (sort.descending ? '▼' : '▲') : ''}
                    </span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody ref={body}>
            {rows.map((r) => (
              <ResultRow key={resultKey(r)} result={r} names={names} selected={resultKey(r) === selectedKey} onSelect={selectResult} />
            ))}
          </tbody>
        </table>
        {outcome && rows.length === 0 && (
          <p className="empty">{outcome.results.length === 0 ? 'No part touches, interferes with or comes too close to another.' : 'No result matches the filter.'}</p>
        )}
      </div>
    </section>
  );
}

function ResultRow(props: { result: PairResultInfo; names: ReadonlyMap<string, string>; selected: boolean; onSelect: (key: string | null) => void }) {
  const { result: r, names, selected, onSelect } = props;
  const key = resultKey(r);
  return (
    <tr
      className={`result-row kind-${r.kind}${selected ? ' selected' : ''}`}
      data-testid={resultRowTestId(r)}
      aria-selected={selected}
      onClick={() => onSelect(selected ? null : key)}
      title={r.reason ?? undefined}
    >
      <td className={`status status-${r.status}`}>{r.status}</td>
      <td className="kind">
        <span className={`kind-dot kind-${r.kind}`} aria-hidden="true" />
        {KIND_LABEL[r.kind]}
        {r.contained && <span className="badge" title={`${names.get(r.containedPart ?? '') ?? r.containedPart ?? 'One part'} lies inside the other`}>inside</span>}
      </td>
      <td>{names.get(r.a) ?? r.a}</td>
      <td>{names.get(r.b) ?? r.b}</td>
      <td className="num">{formatMeasure(r.volumeMm3)}</td>
      <td className="num">{formatMeasure(r.depthMm)}</td>
      <td className="num">{formatMeasure(r.distanceMm)}</td>
      <td className="num">{formatCount(trianglePairCount(r))}</td>
    </tr>
  );
}
