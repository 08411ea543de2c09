/**
 * The context menu of parts (right-click in the viewport or the part list, Shift+F10 on a row)
 * and of result rows: actions on the parts, the pair's status, "Ignore this pair…". Keyboard:
 * arrows move, Enter runs, Esc closes; a click elsewhere closes it.
 */
import { useEffect, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { appStore, useApp } from '../appStore';
import { splitStatusKey, STATUS_LABEL, type ResultStatus } from '../state/results';
import { selectedResultOf } from '../state/selectors';
import type { AppState, ContextMenuState } from '../state/types';

interface MenuItem {
  readonly label: string;
  readonly run: () => void;
  readonly keys?: string;
  readonly disabled?: boolean;
  /** A check mark (statuses, toggles). */
  readonly checked?: boolean;
  readonly testId?: string;
}

type MenuEntry = MenuItem | 'separator';

const STATUSES: ResultStatus[] = ['new', 'active', 'resolved', 'ignored'];

function partItems(s: AppState, ids: readonly string[]): MenuEntry[] {
  const one = ids.length === 1;
  const two = ids.length === 2;
  const inA = ids.every((id) => s.checkSets.a.includes(id));
  const inB = ids.every((id) => s.checkSets.b.includes(id));
  return [
    { label: 'Isolate', keys: 'I', run: () => s.isolate(ids), testId: 'menu-isolate' },
    { label: 'Hide', keys: 'H', run: () => s.setVisible(ids, false), testId: 'menu-hide' },
    { label: 'Show all', keys: 'Shift+H', run: () => s.showAll() },
    { label: 'Fit in view', keys: 'S', run: () => s.requestCamera({ kind: 'fitSelection' }) },
    'separator',
    { label: 'Move with the gizmo', keys: 'W', disabled: !one, checked: one && s.gizmoMode === 'translate', run: () => s.setGizmoMode('translate') },
    { label: 'Rotate with the gizmo', keys: 'E', disabled: !one, checked: one && s.gizmoMode === 'rotate', run: () => s.setGizmoMode('rotate') },
    { label: 'Reset colour', disabled: !s.doc, run: () => void s.setPartColor(ids, null) },
    'separator',
    { label: 'Check against the rest', run: () => void s.runCheck({ kind: 'selection', ids: [...ids] }), testId: 'menu-check-selection' },
    { label: 'Put in set A', checked: inA, run: () => s.assignToSet(ids, 'a'), testId: 'menu-set-a' },
    { label: 'Put in set B', checked: inB, run: () => s.assignToSet(ids, 'b'), testId: 'menu-set-b' },
    { label: 'Take out of the sets', disabled: !ids.some((id) => s.checkSets.a.includes(id) || s.checkSets.b.includes(id)), run: () => s.assignToSet(ids, null) },
    'separator',
    { label: 'Ignore this pair…', disabled: !two, run: () => s.askIgnorePair(ids[0], ids[1]), testId: 'menu-ignore' },
  ];
}

function resultItems(s: AppState, key: string): MenuEntry[] {
  const ids = splitStatusKey(key, new Set(s.doc?.parts.map((p) => p.id) ?? []));
  const status = (s.doc?.statuses[key] ?? (s.selectedResult === key ? selectedResultOf(s)?.status : undefined)) as ResultStatus | undefined;
  const entries: MenuEntry[] = STATUSES.map((st) => ({
    label: `Mark ${STATUS_LABEL[st].toLowerCase()}`,
    checked: status === st,
    run: () => void s.setResultStatus(key, st),
    testId: `menu-status-${st}`,
  }));
  return [
    { label: 'Frame the pair', run: () => s.selectResult(key) },
    { label: 'Isolate the pair', keys: 'I', disabled: !ids, run: () => ids && s.isolate(ids) },
    { label: 'Traversal view', checked: s.traceOn, run: () => s.setTraceOn(!s.traceOn), testId: 'menu-trace' },
    'separator',
    ...entries,
    'separator',
    { label: 'Ignore this pair…', disabled: !ids, run: () => ids && s.askIgnorePair(ids[0], ids[1]), testId: 'menu-ignore' },
  ];
}

export function ContextMenu() {
  const menu = useApp((s) => s.contextMenu);
  if (!menu) return null;
  return <Menu menu={menu} />;
}

function Menu({ menu }: { menu: ContextMenuState }) {
  const close = useApp((s) => s.closeContextMenu);
  // Built from the state when the menu opens: a menu shows what was true when it was opened.
  const entries = menu.target.kind === 'parts' ? partItems(appStore.getState(), menu.target.ids) : resultItems(appStore.getState(), menu.target.key);
  const box = useRef<HTMLDivElement>(null);

  // Place it at the pointer, inside the window.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const w = el.offsetWidth, h = el.offsetHeight;
    el.style.left = `${Math.max(4, Math.min(menu.x, window.innerWidth - w - 4))}px`;
    el.style.top = `${Math.max(4, Math.min(menu.y, window.innerHeight - h - 4))}px`;
    el.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
  }, [menu]);

  useEffect(() => {
    const onDown = (e: PointerEvent) => {
      if (box.current && e.target instanceof Node && !box.current.contains(e.target)) close();
    };
    window.addEventListener('pointerdown', onDown, true);
    window.addEventListener('blur', close);
    return () => {
      window.removeEventListener('pointerdown', onDown, true);
      window.removeEventListener('blur', close);
    };
  }, [close]);

  const onKeyDown = (e: KeyboardEvent) => {
    const buttons = [...(box.current?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? [])];
    const i = buttons.findIndex((b) => b === document.activeElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = e.key === 'ArrowDown' ? (i + 1) % buttons.length : (i - 1 + buttons.length) % buttons.length;
      buttons[next]?.focus();
    } else if (e.key === 'Escape' || e.key === 'Tab') {
      e.preventDefault();
      e.stopPropagation();
      close();
    }
  };

  return (
    <div ref={box} className="context-menu" role="menu" aria-label={menu.target.kind === 'parts' ? 'Part actions' : 'Pair actions'} onKeyDown={onKeyDown} data-testid="context-menu">
      {entries.map((entry, i) =>
        entry === 'separator' ? (
          <div key={`sep-${i}`} className="menu-separator" role="separator" />
        ) : (
          <button
            key={entry.label}
            type="button"
            role={entry.checked !== undefined ? 'menuitemcheckbox' : 'menuitem'}
            aria-checked={entry.checked}
            disabled={entry.disabled}
            data-testid={entry.testId}
            onClick={() => {
              close();
              entry.run();
            }}
          >
            <span className="menu-check" aria-hidden="true">
              {entry.checked ? '✓' : ''}
            </span>
            <span className="menu-label">{entry.label}</span>
            {entry.keys && <kbd>{entry.keys}</kbd>}
          </button>
        ),
      )}
    </div>
  );
}
