/**
 * Drag handles on the edge of the side panel and the top of the results panel: they set the
 * window's panel sizes (CSS variables on the app element) and remember them (state/panelSizes.ts).
 * Double-click puts a panel back to its default size.
 */
import { useEffect, useRef, type PointerEvent, type RefObject } from 'react';
import { clampPanelSizes, DEFAULT_PANEL_SIZES, loadPanelSizes, savePanelSizes, type PanelSizes } from '../state/panelSizes';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function apply(app: HTMLElement, s: PanelSizes): void {
  app.style.setProperty('--left-width', `${s.left}px`);
  app.style.setProperty('--results-height', `${s.results}px`);
}

/** Applies the remembered sizes to the app element; returns the current sizes' holder for the handles. */
export function usePanelSizes(app: RefObject<HTMLElement | null>): RefObject<PanelSizes> {
  const sizes = useRef<PanelSizes>(DEFAULT_PANEL_SIZES);
  useEffect(() => {
    const el = app.current;
    if (!el) return;
    const fit = () => {
      sizes.current = clampPanelSizes(sizes.current, { width: window.innerWidth, height: window.innerHeight });
      apply(el, sizes.current);
    };
    sizes.current = loadPanelSizes(storage());
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [app]);
  return sizes;
}

export function PanelResizer(props: { which: 'left' | 'results'; app: RefObject<HTMLElement | null>; sizes: RefObject<PanelSizes> }) {
  const { which, app, sizes } = props;
  const drag = useRef<{ start: number; from: number } | null>(null);
  const set = (value: number) => {
    const el = app.current;
    if (!el) return;
    sizes.current = clampPanelSizes({ ...sizes.current, [which]: value }, { width: window.innerWidth, height: window.innerHeight });
    apply(el, sizes.current);
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { start: which === 'left' ? e.clientX : e.clientY, from: sizes.current[which] };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    // The side panel grows to the right, the results panel upwards.
    set(which === 'left' ? d.from + (e.clientX - d.start) : d.from - (e.clientY - d.start));
  };
  const onPointerUp = () => {
    if (!drag.current) return;
    drag.current = null;
    savePanelSizes(storage(), sizes.current);
  };
  return (
    <div
      className={`panel-resizer panel-resizer-${which}`}
      role="separator"
      aria-orientation={which === 'left' ? 'vertical' : 'horizontal'}
      aria-label={which === 'left' ? 'Resize the side panel' : 'Resize the results panel'}
      title="Drag to resize; double-click for the default size"
      data-testid={`resize-${which}`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onDoubleClick={() => {
        set(DEFAULT_PANEL_SIZES[which]);
        savePanelSizes(storage(), sizes.current);
      }}
    />
  );
}
