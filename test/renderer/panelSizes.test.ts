// The side and results panels' sizes: kept within bounds and remembered across runs.
import { describe, expect, it } from 'vitest';
import { clampPanelSizes, DEFAULT_PANEL_SIZES, loadPanelSizes, PANEL_SIZES_KEY, savePanelSizes } from '../../src-renderer/state/panelSizes';

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
}

describe('panel sizes', () => {
  it('are remembered, and the defaults stand in for missing or broken entries', () => {
    const s = memoryStorage();
    expect(loadPanelSizes(s)).toEqual(DEFAULT_PANEL_SIZES);
    savePanelSizes(s, { left: 420, results: 180 });
    expect(loadPanelSizes(s)).toEqual({ left: 420, results: 180 });
    s.setItem(PANEL_SIZES_KEY, '{not json');
    expect(loadPanelSizes(s)).toEqual(DEFAULT_PANEL_SIZES);
    s.setItem(PANEL_SIZES_KEY, JSON.stringify({ left: 'wide', results: 200 }));
    expect(loadPanelSizes(s)).toEqual({ left: DEFAULT_PANEL_SIZES.left, results: 200 });
    expect(loadPanelSizes(null)).toEqual(DEFAULT_PANEL_SIZES);
  });

  it('keep each panel usable and most of the window for the view', () => {
    const win = { width: 1280, height: 800 };
    expect(clampPanelSizes({ left: 50, results: 10 }, win)).toEqual({ left: 200, results: 120 });
    expect(clampPanelSizes({ left: 5000, results: 5000 }, win)).toEqual({ left: 768, results: 480 });
    expect(clampPanelSizes({ left: 333.4, results: 250 }, win)).toEqual({ left: 333, results: 250 });
  });
});
