/**
 * The sizes of the side panel and the results panel, which their drag handles change, kept in the
 * window's storage (localStorage) across runs. Plain numbers here; ui/PanelResizers.tsx applies them.
 */

export interface PanelSizes {
  /** Width of the side panel (part tree, placement), CSS px. */
  readonly left: number;
  /** Height of the results panel, CSS px. */
  readonly results: number;
}

export const DEFAULT_PANEL_SIZES: PanelSizes = { left: 300, results: 290 };
export const PANEL_SIZES_KEY = 'interfere.panelSizes';

const MIN = { left: 200, results: 120 } as const;

/** Sizes within bounds for a window of this size: each panel at least its minimum, and the view keeps at least 40 % of the window. */
export function clampPanelSizes(s: PanelSizes, window: { width: number; height: number }): PanelSizes {
  const left = Math.round(Math.min(Math.max(s.left, MIN.left), Math.max(MIN.left, window.width * 0.6)));
  const results = Math.round(Math.min(Math.max(s.results, MIN.results), Math.max(MIN.results, window.height * 0.6)));
  return { left, results };
}

/** The sizes kept in storage, or the defaults (unreadable or missing entries too). */
export function loadPanelSizes(storage: Pick<Storage, 'getItem'> | null): PanelSizes {
  try {
    const raw = storage?.getItem(PANEL_SIZES_KEY);
    if (!raw) return DEFAULT_PANEL_SIZES;
    const v = JSON.parse(raw) as Partial<Record<keyof PanelSizes, unknown>>;
    const num = (x: unknown, d: number) => (typeof x === 'number' && Number.isFinite(x) ? x : d);
    return { left: num(v.left, DEFAULT_PANEL_SIZES.left), results: num(v.results, DEFAULT_PANEL_SIZES.results) };
  } catch {
    return DEFAULT_PANEL_SIZES;
  }
}

export function savePanelSizes(storage: Pick<Storage, 'setItem'> | null, s: PanelSizes): void {
  try {
    storage?.setItem(PANEL_SIZES_KEY, JSON.stringify({ left: s.left, results: s.results }));
  } catch {
    // A full or refused storage only loses the sizes for the next run.
  }
}
