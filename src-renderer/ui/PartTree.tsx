/**
 * The part tree: the file's assembly tree (state/partTree.ts), its sub-assemblies collapsible
 * (the caret, or ←/→), each with a checkbox that shows or hides every part in it and a click that
 * selects them; readable names, visibility, colour (the swatch is a colour picker), search (which
 * opens the sub-assemblies of the parts it finds), multi-select (Ctrl/Shift), isolate (Esc or Show
 * all restores), set A / set B for a set-vs-set check, and each row's menu (right-click or
 * Shift+F10). Synced with the viewport.
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { PartInfo } from '../../src-main/contract/host';
import { appStore, useApp } from '../appStore';
import { formatCount } from '../state/format';
import { fileNameOf, labelPaths, LABEL_SEPARATOR, partMatches } from '../state/partNames';
import { treeRows, type GroupRow, type PartRowModel } from '../state/partTree';
import { isPartVisible, selectedResultOf } from '../state/selectors';
import { fallbackColor } from '../scene/palette';

export function PartTree() {
  const doc = useApp((s) => s.doc);
  const names = useApp((s) => s.partNames);
  const filter = useApp((s) => s.partFilter);
  const setPartFilter = useApp((s) => s.setPartFilter);
  const selectedCount = useApp((s) => s.selectedParts.length);
  const isolated = useApp((s) => s.isolation !== null);
  const runCommand = useApp((s) => s.runCommand);
  const parts = doc?.parts ?? [];
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const toggleGroup = useCallback((key: string, open?: boolean) => {
    setCollapsed((prev) => {
      const next = new Set(prev);
      const close = open === undefined ? !prev.has(key) : !open;
      if (close) next.add(key);
      else next.delete(key);
      return next;
    });
  }, []);
  const levels = useMemo(() => labelPaths(parts), [parts]);
  const byId = useMemo(() => new Map(parts.map((p) => [p.id, p] as const)), [parts]);
  const matching = useMemo(
    () => (filter.trim() === '' ? null : new Set(parts.filter((p) => partMatches(p, names.get(p.id) ?? p.id, filter)).map((p) => p.id))),
    [parts, names, filter],
  );
  const rows = useMemo(
    () => treeRows({ ids: parts.map((p) => p.id), levels, collapsed, shown: matching, separator: LABEL_SEPARATOR }),
    [parts, levels, collapsed, matching],
  );
  const shownParts = rows.reduce((n, r) => n + (r.kind === 'part' ? 1 : 0), 0);
  return (
    <section className="part-tree" aria-label="Parts">
      <div className="panel-header">
        <h2>
          Parts <span className="count">{formatCount(parts.length)}</span>
        </h2>
        <div className="panel-actions">
          <button type="button" title="Show every part (Shift+H)" disabled={!doc} onClick={() => runCommand('view.showAll')} data-testid="show-all">
            Show all
          </button>
          <button
            type="button"
            title={isolated ? 'Showing only the isolated parts: Esc goes back' : 'Show only the selected parts (I; Esc goes back)'}
            disabled={selectedCount === 0}
            aria-pressed={isolated}
            onClick={() => runCommand('view.isolate')}
            data-testid="isolate"
          >
            Isolate
          </button>
          <button type="button" title="Hide the selected parts (H)" disabled={selectedCount === 0} onClick={() => runCommand('view.hide')}>
            Hide
          </button>
          <button
            type="button"
            title="Add every body of a CAD or STL file to this assembly as parts"
            disabled={!doc}
            onClick={() => runCommand('file.import', 'ui')}
            data-testid="import-button"
          >
            Import…
          </button>
        </div>
      </div>
      <SetBar />
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
        {rows.map((r) =>
          r.kind === 'group' ? (
            <GroupItem key={`group:${r.key}`} group={r} onToggle={toggleGroup} />
          ) : (
            <PartRow key={r.id} part={byId.get(r.id) as PartInfo} index={r.index} label={names.get(r.id) ?? r.label} model={r} />
          ),
        )}
      </ul>
      {parts.length > 0 && shownParts === 0 && <p className="empty">No part matches “{filter}”.</p>}
    </section>
  );
}

/** With the set-vs-set scope: put the selection in set A or B. */
function SetBar() {
  const scope = useApp((s) => s.checkScope);
  const sizes = useApp((s) => `${s.checkSets.a.length}/${s.checkSets.b.length}`);
  const selectedCount = useApp((s) => s.selectedParts.length);
  const assignToSet = useApp((s) => s.assignToSet);
  if (scope !== 'sets') return null;
  const [a, b] = sizes.split('/');
  const selection = () => [...appStore.getState().selectedParts];
  return (
    <div className="set-bar" role="group" aria-label="Check sets">
      <span className="muted">
        Set A <strong>{a}</strong> · set B <strong>{b}</strong>
      </span>
      <button type="button" disabled={selectedCount === 0} onClick={() => assignToSet(selection(), 'a')} data-testid="to-set-a" title="Put the selected parts in set A">
        → A
      </button>
      <button type="button" disabled={selectedCount === 0} onClick={() => assignToSet(selection(), 'b')} data-testid="to-set-b" title="Put the selected parts in set B">
        → B
      </button>
      <button type="button" disabled={selectedCount === 0} onClick={() => assignToSet(selection(), null)} title="Take the selected parts out of both sets">
        Clear
      </button>
    </div>
  );
}

/** Opens the part menu for the selection (the row's part is selected first when it was not). */
function openPartMenu(id: string, x: number, y: number): void {
  const s = appStore.getState();
  let ids = s.selectedParts;
  if (!ids.includes(id)) {
    s.selectPart(id, 'replace');
    ids = [id];
  }
  s.openContextMenu({ x, y, target: { kind: 'parts', ids: [...ids] } });
}

/** Moves the focus to the next or previous row of the list. */
function focusSibling(el: HTMLElement, down: boolean): void {
  const next = down ? el.nextElementSibling : el.previousElementSibling;
  if (next instanceof HTMLElement) next.focus();
}

/** A sub-assembly: collapse or expand it, show or hide its parts, select them. */
const GroupItem = memo(function GroupItem({ group, onToggle }: { group: GroupRow; onToggle: (key: string, open?: boolean) => void }) {
  const ids = group.partIds;
  const visibleCount = useApp((s) => {
    const parts = s.doc?.parts ?? [];
    const inGroup = new Set(ids);
    let n = 0;
    for (const p of parts) if (inGroup.has(p.id) && isPartVisible(s, p)) n++;
    return n;
  });
  const selectedCount = useApp((s) => {
    const inGroup = new Set(ids);
    return s.selectedParts.reduce((n, id) => n + (inGroup.has(id) ? 1 : 0), 0);
  });
  const setVisible = useApp((s) => s.setVisible);
  const selectParts = useApp((s) => s.selectParts);
  const requestCamera = useApp((s) => s.requestCamera);
  const box = useRef<HTMLInputElement>(null);
  const all = visibleCount === ids.length;
  const some = visibleCount > 0 && !all;
  useEffect(() => {
    if (box.current) box.current.indeterminate = some;
  }, [some]);
  const select = (e: MouseEvent | KeyboardEvent) => {
    const current = appStore.getState().selectedParts;
    if (e.ctrlKey || e.metaKey) {
      const inGroup = new Set(ids);
      const everySelected = ids.every((id) => current.includes(id));
      selectParts(everySelected ? current.filter((id) => !inGroup.has(id)) : [...current, ...ids.filter((id) => !current.includes(id))]);
    } else {
      selectParts(ids);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLLIElement>) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      select(e);
    } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      e.preventDefault();
      onToggle(group.key, e.key === 'ArrowRight');
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      focusSibling(e.currentTarget, e.key === 'ArrowDown');
    }
  };
  const classes = ['part-row', 'group-row', selectedCount === ids.length && 'selected', visibleCount === 0 && 'hidden'].filter(Boolean).join(' ');
  return (
    <li
      className={classes}
      role="option"
      tabIndex={0}
      aria-selected={selectedCount === ids.length}
      aria-expanded={!group.collapsed}
      data-depth={Math.min(group.depth, 8)}
      data-testid={`part-group-${group.key.split('\u0000').join('/')}`}
      title={`${group.name}: ${formatCount(ids.length)} ${ids.length === 1 ? 'part' : 'parts'}${visibleCount < ids.length ? `, ${formatCount(visibleCount)} shown` : ''}\nclick: select them · ←/→ or the arrow: collapse or expand`}
      onClick={select}
      onKeyDown={onKeyDown}
      onDoubleClick={() => {
        selectParts(ids);
        requestCamera({ kind: 'fitSelection' });
      }}
    >
      <button
        type="button"
        className="caret"
        aria-label={`${group.collapsed ? 'Expand' : 'Collapse'} ${group.name}`}
        onClick={(e) => {
          e.stopPropagation();
          onToggle(group.key);
        }}
        tabIndex={-1}
      >
        {group.collapsed ? '▸' : '▾'}
      </button>
      <input
        ref={box}
        type="checkbox"
        className="visibility"
        checked={all}
        aria-label={`Show every part of ${group.name}`}
        title={all ? 'Hide its parts' : 'Show its parts'}
        onClick={(e) => e.stopPropagation()}
        onChange={() => setVisible([...ids], !all)}
        data-testid="group-visibility"
      />
      <span className="label group-label">{group.name}</span>
      <span className="tris">{formatCount(ids.length)}</span>
    </li>
  );
});

const PartRow = memo(function PartRow({ part, index, label, model }: { part: PartInfo; index: number; label: string; model: PartRowModel }) {
  const selected = useApp((s) => s.selectedParts.includes(part.id));
  const hovered = useApp((s) => s.hoveredPart === part.id);
  const visible = useApp((s) => isPartVisible(s, part));
  const set = useApp((s) => (s.checkScope !== 'sets' ? null : s.checkSets.a.includes(part.id) ? 'A' : s.checkSets.b.includes(part.id) ? 'B' : null));
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
  const select = (e: MouseEvent | KeyboardEvent) => selectPart(part.id, e.shiftKey ? 'range' : e.ctrlKey || e.metaKey ? 'toggle' : 'replace');
  const onKeyDown = (e: KeyboardEvent<HTMLLIElement>) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      select(e);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      focusSibling(e.currentTarget, e.key === 'ArrowDown');
    } else if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
      e.preventDefault();
      const rect = e.currentTarget.getBoundingClientRect();
      openPartMenu(part.id, rect.left + 40, rect.bottom);
    }
  };
  return (
    <li
      ref={row}
      className={classes}
      role="option"
      tabIndex={0}
      aria-selected={selected}
      data-depth={Math.min(model.depth, 8)}
      data-testid={`part-row-${part.id}`}
      title={`${label}\nid: ${part.id}\nfile: ${fileNameOf(part.sourcePath)}, body ${part.body + 1}\n${formatCount(part.triangles)} triangles${part.closed ? '' : '\nopen surface: no volume'}`}
      onMouseEnter={() => hoverPart(part.id)}
      onMouseLeave={() => hoverPart(null)}
      onClick={select}
      onKeyDown={onKeyDown}
      onContextMenu={(e) => {
        e.preventDefault();
        openPartMenu(part.id, e.clientX, e.clientY);
      }}
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
      <ColorSwatch partId={part.id} label={label} color={color} />
      <span className="label">
        {/* The whole name for screen readers and copying; the levels above it are the rows above. */}
        {model.prefix + model.name === label ? (
          <>
            {model.prefix !== '' && <span className="visually-hidden">{model.prefix}</span>}
            {model.name}
          </>
        ) : (
          label
        )}
      </span>
      {set && (
        <span className={`set-badge set-${set.toLowerCase()}`} title={`In set ${set}`}>
          {set}
        </span>
      )}
      {!part.closed && (
        <span className="badge" title="Open surface: volumes and containment are not available">
          open
        </span>
      )}
      <span className="tris">{formatCount(part.triangles)}</span>
    </li>
  );
});

/**
 * The part's colour as a picker. The choice goes to the host when the picker closes (the
 * element's `change` event), not on every step of the picker.
 */
function ColorSwatch({ partId, label, color }: { partId: string; label: string; color: string }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const el = input.current;
    if (!el) return;
    el.value = color;
    const onChange = () => {
      const s = appStore.getState();
      const ids = s.selectedParts.includes(partId) ? [...s.selectedParts] : [partId];
      if (el.value.toLowerCase() !== color.toLowerCase()) void s.setPartColor(ids, el.value);
    };
    el.addEventListener('change', onChange);
    return () => el.removeEventListener('change', onChange);
  }, [partId, color]);
  return (
    <input
      ref={input}
      type="color"
      className="swatch"
      defaultValue={color}
      aria-label={`Colour of ${label}`}
      title="Colour (applies to the selected parts when this one is among them)"
      onClick={(e) => e.stopPropagation()}
      data-testid={`part-color-${partId}`}
    />
  );
}
