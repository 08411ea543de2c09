/**
 * The results of the last check: a summary, filters (kind, status, part), and a sortable table
 * of part pairs with their status across checks. Pairs the check resolved are listed too,
 * greyed; before any check the statuses saved in the assembly are listed. Units are in the
 * column headers. Selecting a row shows the pair's interference volume and intersection curves
 * and frames them; the arrow keys move through the rows; right-click (or the
 * row's ⋯ button, or Shift+F10) opens the pair's menu: status, ignore, traversal view.
 * Each row says how finely it was decided: the resolution (± of depth and distance), "as given"
 * for meshes that are the geometry, a "refined" mark where the check re-tessellated the bodies,
 * and for an undecided pair what it may be and its range of separation.
 */
import { useMemo, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { useApp } from '../appStore';
import { formatClock, formatCount, formatDuration, formatMeasure } from '../state/format';
import {
  filterRows,
  KIND_LABEL,
  nextSort,
  refinedSummaryText,
  refinedTagText,
  resolutionCellText,
  resolutionTitle,
  RESULT_KINDS,
  resultRowTestId,
  sortRows,
  STATUS_LABEL,
  summaryText,
  undecidedText,
  tableRows,
  trianglePairCount,
  type ResultKind,
  type ResultSortKey,
  type ResultStatus,
  type TableRow,
} from '../state/results';
import { PartFilterChip } from './PartFilterChip';
import { SelectedPairBar } from './SelectedPairBar';

const COLUMNS: { key: ResultSortKey; label: string; title: string; numeric?: boolean }[] = [
  { key: 'id', label: 'No.', title: 'The result number: given the first time a check finds the pair and kept for good (saved with the assembly); reports use the same numbers', numeric: true },
  { key: 'status', label: 'Status', title: 'New (first seen), active (seen before), resolved (gone since the check before) or ignored — across checks, kept in the assembly file' },
  { key: 'kind', label: 'Kind', title: 'Interference, undecided (the tessellation cannot tell which of two kinds), clearance violation, contact or ignored' },
  { key: 'a', label: 'Part A', title: 'First part of the pair' },
  { key: 'b', label: 'Part B', title: 'Second part of the pair' },
  { key: 'volume', label: 'Volume (mm³)', title: 'Volume of the overlap, where both parts are closed', numeric: true },
  { key: 'depth', label: 'Depth (mm)', title: 'How far the parts reach into each other', numeric: true },
  { key: 'distance', label: 'Min distance (mm)', title: 'Smallest distance between the parts (0 when they touch or overlap)', numeric: true },
  { key: 'triangles', label: 'Triangle pairs', title: 'Pairs of triangles that intersect or touch', numeric: true },
  {
    key: 'resolution',
    label: 'Resolution (mm)',
    title: 'How far depth and distance may be from the exact surfaces where the parts meet (the tessellation error of CAD parts); “as given” for mesh files, which are the geometry; “refined” where the check re-tessellated the parts finer to decide the pair',
    numeric: true,
  },
];

const KIND_FILTERS: (ResultKind | 'all')[] = ['all', ...RESULT_KINDS];
const STATUS_FILTERS: (ResultStatus | 'all')[] = ['all', 'new', 'active', 'resolved', 'ignored'];

export function ResultsPanel() {
  const outcome = useApp((s) => s.check.outcome);
  const statuses = useApp((s) => s.doc?.statuses);
  const parts = useApp((s) => s.doc?.parts);
  const names = useApp((s) => s.partNames);
  const sort = useApp((s) => s.resultSort);
  const filter = useApp((s) => s.resultFilter);
  const selectedKey = useApp((s) => s.selectedResult);
  const selectResult = useApp((s) => s.selectResult);
  const body = useRef<HTMLTableSectionElement>(null);
  const openMenu = useApp((s) => s.openContextMenu);
  const openRowMenu = (key: string, x: number, y: number) => openMenu({ x, y, target: { kind: 'result', key } });

  const resultIds = useApp((s) => s.doc?.resultIds);
  const all = useMemo(() => tableRows(outcome, statuses ?? {}, new Set((parts ?? []).map((p) => p.id)), resultIds ?? {}), [outcome, statuses, parts, resultIds]);
  const rows = useMemo(() => sortRows(filterRows(all, names, filter), names, sort), [all, names, filter, sort]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
      const row = rows.find((r) => r.key === selectedKey);
      const el = row && body.current?.querySelector(`[data-testid="${resultRowTestId(row)}"]`);
      if (row && el) {
        e.preventDefault();
        const rect = el.getBoundingClientRect();
        openRowMenu(row.key, rect.left + 40, rect.bottom);
      }
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const i = rows.findIndex((r) => r.key === selectedKey);
    const next = e.key === 'ArrowDown' ? Math.min(rows.length - 1, i + 1) : Math.max(0, i - 1);
    const r = rows[next];
    if (!r) return;
    selectResult(r.key);
    body.current?.querySelector(`[data-testid="${resultRowTestId(r)}"]`)?.scrollIntoView({ block: 'nearest' });
  };
  return (
    <section className="results" aria-label="Check results" data-testid="results">
      <ResultsHeader rowCount={all.length} />
      <SelectedPairBar />
      <div className="table-scroll">
        <table className="results-table" data-testid="results-table" tabIndex={0} onKeyDown={onKeyDown} aria-rowcount={rows.length} aria-label="Part pairs">
          <ResultsHead />
          <tbody ref={body}>
            {rows.map((r) => (
              <ResultRow key={r.key} row={r} names={names} selected={r.key === selectedKey} />
            ))}
          </tbody>
        </table>
        {rows.length === 0 && <EmptyResults hasOutcome={outcome !== null} total={outcome?.results.length ?? 0} filtered={all.length > 0} />}
      </div>
    </section>
  );
}

function ResultsHeader({ rowCount }: { rowCount: number }) {
  const outcome = useApp((s) => s.check.outcome);
  const stale = useApp((s) => s.check.stale);
  const finishedAt = useApp((s) => s.check.finishedAt);
  const outcomeRefine = useApp((s) => s.check.outcomeRefine);
  const filter = useApp((s) => s.resultFilter);
  const setResultFilter = useApp((s) => s.setResultFilter);
  const others = useApp((s) => s.othersWhenResult);
  const setOthers = useApp((s) => s.setOthersWhenResult);
  return (
    <div className="panel-header">
      <h2>Results</h2>
      {outcome ? (
        <p className="summary" data-testid="results-summary">
          {summaryText(outcome.summary)} — {formatCount(outcome.summary.parts)} parts, {formatDuration(outcome.summary.elapsedMs)}
          {finishedAt !== null && `, at ${formatClock(finishedAt)}`}
          {' · '}touch tolerance {outcome.settings.touchToleranceAuto ? 'auto ≤ ' : ''}
          {formatMeasure(outcome.settings.touchToleranceMm)} mm
          {outcome.scope.kind !== 'all' && ` · ${outcome.scope.kind === 'selection' ? 'selection vs rest' : 'set A vs set B'}`}
          {outcome.resolved.length > 0 && ` · ${outcome.resolved.length} resolved since the last check`}
          <RefinedSummary summary={outcome.summary} />
          {outcomeRefine === false && (
            <>
              {' · '}
              <span className="refined-summary" title="Refine CAD fits was off for this check: pairs the file's tessellation could not decide are listed as undecided" data-testid="results-not-refined">
                CAD fits not refined
              </span>
            </>
          )}
        </p>
      ) : rowCount > 0 ? (
        <p className="summary muted" data-testid="results-summary">
          Review saved in the assembly: {formatCount(rowCount)} pairs. Run the check (F5) to compare.
        </p>
      ) : (
        <p className="summary muted">No check yet: press Check (F5) to test every pair of parts.</p>
      )}
      {stale && (
        <p className="stale" role="status" data-testid="results-stale">
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
        <select aria-label="Show results of status" value={filter.status} onChange={(e) => setResultFilter({ status: e.target.value as ResultStatus | 'all' })} data-testid="results-status">
          {STATUS_FILTERS.map((k) => (
            <option key={k} value={k}>
              {k === 'all' ? 'All statuses' : STATUS_LABEL[k]}
            </option>
          ))}
        </select>
        <PartFilterChip />
        <input type="search" placeholder="Filter by part" aria-label="Filter results by part" value={filter.text} onChange={(e) => setResultFilter({ text: e.target.value })} data-testid="results-text" />
        <label className="checkbox" title="While a result is selected, hide the other parts instead of showing them faded">
          <input type="checkbox" checked={others === 'hidden'} onChange={(e) => setOthers(e.target.checked ? 'hidden' : 'transparent')} data-testid="hide-others" />
          Hide others
        </label>
      </div>
    </div>
  );
}

/** " · 4 pairs refined to 0.0005 mm", with what it means; nothing when no pair was refined. */
function RefinedSummary({ summary }: { summary: { refinedPairs: number; finestDeflectionMm: number | null } }) {
  const text = refinedSummaryText(summary);
  if (text === null) return null;
  return (
    <>
      {' · '}
      <span className="refined-summary" title="Pairs the file's tessellation could not decide, decided on their parts re-tessellated finer (the finest linear deflection used)" data-testid="results-refined">
        {text}
      </span>
    </>
  );
}

function ResultsHead() {
  const sort = useApp((s) => s.resultSort);
  const setResultSort = useApp((s) => s.setResultSort);
  return (
    <thead>
      <tr>
        {COLUMNS.map((c) => (
          <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined} title={c.title} aria-sort={sort.key === c.key ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
            <button type="button" onClick={() => setResultSort(nextSort(sort, c.key))}>
              {c.label}
              <span className="sort-mark" aria-hidden="true">
                {sort.key === c.key ? (sort.descending ? '▼' : '▲') : ''}
              </span>
            </button>
          </th>
        ))}
        <th scope="col" className="row-menu-col">
          <span className="visually-hidden">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

function EmptyResults({ hasOutcome, total, filtered }: { hasOutcome: boolean; total: number; filtered: boolean }) {
  if (filtered) return <p className="empty">No pair matches the filters.</p>;
  if (!hasOutcome) return null;
  return <p className="empty">{total === 0 ? 'No part touches, interferes with or comes too close to another.' : 'No result matches the filter.'}</p>;
}

function ResultRow(props: { row: TableRow; names: ReadonlyMap<string, string>; selected: boolean }) {
  const { row: r, names, selected } = props;
  const selectResult = useApp((s) => s.selectResult);
  const openContextMenu = useApp((s) => s.openContextMenu);
  const result = r.result;
  const label = (id: string) => names.get(id) ?? id;
  const openMenu = (e: MouseEvent, x: number, y: number) => {
    e.preventDefault();
    e.stopPropagation();
    if (!selected) selectResult(r.key);
    openContextMenu({ x, y, target: { kind: 'result', key: r.key } });
  };
  const classes = ['result-row', r.kind ? `kind-${r.kind}` : 'kind-none', `status-row-${r.status}`, selected && 'selected', !result && 'inactive'].filter(Boolean).join(' ');
  const undecided = result ? undecidedText(result) : null;
  const refined = result ? refinedTagText(result) : null;
  return (
    <tr
      className={classes}
      data-testid={resultRowTestId(r)}
      aria-selected={selected}
      onClick={() => selectResult(selected ? null : r.key)}
      onContextMenu={(e) => openMenu(e, e.clientX, e.clientY)}
      title={result?.reason ?? (result ? undefined : r.status === 'resolved' ? 'Resolved: no longer found by the check' : 'From the saved review; not checked yet')}
    >
      <td className="num result-id" data-testid="result-id">
        {r.id ?? '—'}
      </td>
      <td className="status">
        <span className={`status-badge status-${r.status}`} data-testid="status-badge">
          {STATUS_LABEL[r.status]}
        </span>
      </td>
      <td className="kind">
        {r.kind ? (
          <>
            <span className={`kind-dot kind-${r.kind}`} aria-hidden="true" />
            {KIND_LABEL[r.kind]}
            {result?.contained && (
              <span className="badge" title={`${label(result.containedPart ?? '') || 'One part'} lies inside the other`}>
                inside
              </span>
            )}
            {undecided !== null && (
              <span className="undecided-range" title="The tessellation cannot tell these kinds apart: the exact separation (negative an overlap, positive a gap) lies in this range" data-testid="undecided-range">
                {undecided}
              </span>
            )}
          </>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td className="part" title={label(r.a)}>
        {label(r.a)}
      </td>
      <td className="part" title={label(r.b)}>
        {label(r.b)}
      </td>
      <td className="num">{formatMeasure(result?.volumeMm3)}</td>
      <td className="num">{formatMeasure(result?.depthMm)}</td>
      <td className="num">{formatMeasure(result?.distanceMm)}</td>
      <td className="num">{result ? formatCount(trianglePairCount(result)) : '—'}</td>
      <td className="num resolution" title={result ? resolutionTitle(result) : undefined} data-testid="resolution">
        {result ? resolutionCellText(result) : '—'}
        {refined !== null && (
          <span className="badge refined" data-testid="refined-tag">
            {refined}
          </span>
        )}
      </td>
      <td className="row-menu-col">
        <button
          type="button"
          className="row-menu"
          aria-label={`Actions for ${label(r.a)} and ${label(r.b)}`}
          title="Status, ignore, traversal view"
          data-testid="row-menu"
          onClick={(e) => {
            const rect = e.currentTarget.getBoundingClientRect();
            openMenu(e, rect.right, rect.bottom);
          }}
        >
          ⋯
        </button>
      </td>
    </tr>
  );
}
