/**
 * The part tree (a flat list: assemblies here are lists of placed bodies): readable names,
 * visibility, colour, search, multi-select (Ctrl/Shift), isolate; synced with the viewport.
 */
import { memo, useEffect, useMemo, useRef } from 'react';
import type { PartInfo } from '../../src-main/contract/host';
import { appStore, useApp } from '../appStore';
import { formatCount } from '../state/format';
import { fileNameOf, partMatches } from '../state/partNames';
import { isPartVisible, selectedResultOf } from '../state/selectors';
import { fallbackColor } from '../scene/palette';

export function PartTree() {
  const doc = useApp((s) => s.doc);
  const names = useApp((s) => s.partNames);
  const filter = useApp((s) => s.partFilter);
  const setPartFilter = useApp((s) => s.setPartFilter);
  const selectedCount = useApp((s) => s.selectedParts.length);
  const showAll = useApp((s) => s.showAll);
  const isolate = useApp((s) => s.isolate);
  const setVisible = useApp((s) => s.setVisible);
  const parts = doc?.parts ?? [];
  const shown = useMemo(
    () => parts.map((p, index) => ({ part: p, index, label: names.get(p.id) ?? p.id })).filter((r) => partMatches(r.part, r.label, filter)),
    [parts, names, filter],
  );
  return (
    <section className="part-tree" aria-label="Parts">
      <div className="panel-header">
        <h2>
          Parts <span className="count">{formatCount(parts.length)}</span>
        </h2>
        <div className="panel-actions">
          <button type="button" title="Show every part" disabled={!doc} onClick={showAll}>
            Show all
          </button>
          <button type="button" title="Show only the selected parts" disabled={selectedCount === 0} onClick={() => isolate(currentSelection())}>
            Isolate
          </button>
          <button type="button" title="Hide the selected parts" disabled={selectedCount === 0} onClick={() => setVisible(currentSelection(), false)}>
            Hide
          </button>
        </div>
      </div>
      <input
        type="search"
        className="search"
        placeholder="Filter parts by name, id or file"
        aria-label="Filter parts"
        value={filter}
        onChange={(e) => setPartFilter(e.target.value)}
        data-testid="part-filter"
      />
      <ul className="part-list" role="listbox" aria-multiselectable="true" aria-label="Parts" data-testid="part-list">
        {shown.map(({ part, index, label }) => (
          <PartRow key={part.id} part={part} index={index} label={label} />
        ))}
      </ul>
      {parts.length > 0 && shown.length === 0 && <p className="empty">No part matches “{filter}”.</p>}
    </section>
  );
}

/** The selection when a button is pressed (the panel does not re-render on every change). */
function currentSelection(): string[] {
  return [...appStore.getState().selectedParts];
}

const PartRow = memo(function PartRow({ part, index, label }: { part: PartInfo; index: number; label: string }) {
  const selected = useApp((s) => s.selectedParts.includes(part.id));
  const hovered = useApp((s) => s.hoveredPart === part.id);
  const visible = useApp((s) => isPartVisible(s, part));
  const inResult = useApp((s) => {
    const r = selectedResultOf(s);
    return r !== null && (r.a === part.id || r.b === part.id);
  });
  const selectPart = useApp((s) => s.selectPart);
  const hoverPart = useApp((s) => s.hoverPart);
  const setVisible = useApp((s) => s.setVisible);
  const requestCamera = useApp((s) => s.requestCamera);
  const row = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (selected) row.current?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  const color = part.color ?? fallbackColor(index);
  const classes = ['part-row', selected && 'selected', hovered && 'hovered', !visible && 'hidden', inResult && 'in-result'].filter(Boolean).join(' ');
  return (
    <li
      ref={row}
      className={classes}
      role="option"
      aria-selected={selected}
      data-testid={`part-row-${part.id}`}
      title={`${label}\nid: ${part.id}\nfile: ${fileNameOf(part.sourcePath)}, body ${part.body + 1}\n${formatCount(part.triangles)} triangles${part.closed ? '' : '\nopen surface: no volume'}`}
      onMouseEnter={() => hoverPart(part.id)}
      onMouseLeave={() => hoverPart(null)}
      onClick={(e) => selectPart(part.id, e.shiftKey ? 'range' : e.ctrlKey || e.metaKey ? 'toggle' : 'replace')}
      onDoubleClick={() => {
        selectPart(part.id, 'replace');
        requestCamera({ kind: 'fitSelection' });
      }}
    >
      <input
        type="checkbox"
        className="visibility"
        checked={visible}
        aria-label={`Show ${label}`}
        title={visible ? 'Hide' : 'Show'}
        onClick={(e) => e.stopPropagation()}
        onChange={(e) => setVisible([part.id], e.target.checked)}
      />
      <svg className="swatch" viewBox="0 0 10 10" aria-hidden="true">
        <rect width="10" height="10" rx="2" fill={color} />
      </svg>
      <span className="label">{label}</span>
      {!part.closed && (
        <span className="badge" title="Open surface: volumes and containment are not available">
          open
        </span>
      )}
      <span className="tris">{formatCount(part.triangles)}</span>
    </li>
  );
});
