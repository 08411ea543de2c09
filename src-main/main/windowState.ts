/**
 * The main window's remembered placement: its normal bounds and whether it was maximised, kept as
 * JSON in the user-data folder (written atomically), restored only where a display can show it.
 * No Electron here: ./window.ts feeds it the window and the displays' work areas.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../services/files.js';

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface WindowState {
  /** The window's normal (not maximised) bounds, in screen coordinates (DIP). */
  readonly bounds: Rect;
  readonly maximized: boolean;
}

/** Where and how to open the window; without x and y the window is centred. */
export interface WindowPlacement {
  readonly bounds: { x?: number; y?: number; width: number; height: number };
  readonly maximized: boolean;
}

export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 800 } as const;
export const MIN_WINDOW_SIZE = { width: 640, height: 480 } as const;
/** The file name in the user-data folder. */
export const WINDOW_STATE_FILE = 'window-state.json';

/**
 * How much of the window's top strip (where its title bar is) must lie on one display for the
 * window to count as visible there: enough to grab it and move it.
 */
const TITLE_STRIP_HEIGHT = 32;
const MIN_VISIBLE_WIDTH = 100;
const MIN_VISIBLE_HEIGHT = 24;
const MAX_COORDINATE = 1_000_000;

function isFiniteInRange(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
}

/** A saved state read back, or null when it is not one (a hand-edited or corrupt file). */
export function parseWindowState(value: unknown): WindowState | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as { bounds?: unknown; maximized?: unknown };
  const b = v.bounds as Partial<Record<keyof Rect, unknown>> | null | undefined;
  if (typeof b !== 'object' || b === null) return null;
  if (!isFiniteInRange(b.x, -MAX_COORDINATE, MAX_COORDINATE) || !isFiniteInRange(b.y, -MAX_COORDINATE, MAX_COORDINATE)) return null;
  if (!isFiniteInRange(b.width, 1, MAX_COORDINATE) || !isFiniteInRange(b.height, 1, MAX_COORDINATE)) return null;
  return {
    bounds: { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) },
    maximized: v.maximized === true,
  };
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return { width: Math.max(0, width), height: Math.max(0, height) };
}

/** The index of the work area that shows enough of the window's title strip, or -1. */
export function visibleOn(bounds: Rect, workAreas: readonly Rect[]): number {
  const strip: Rect = { x: bounds.x, y: bounds.y, width: bounds.width, height: Math.min(TITLE_STRIP_HEIGHT, bounds.height) };
  const needWidth = Math.min(MIN_VISIBLE_WIDTH, bounds.width);
  const needHeight = Math.min(MIN_VISIBLE_HEIGHT, strip.height);
  let best = -1;
  let bestArea = 0;
  workAreas.forEach((area, i) => {
    const o = overlap(strip, area);
    if (o.width >= needWidth && o.height >= needHeight && o.width * o.height > bestArea) {
      best = i;
      bestArea = o.width * o.height;
    }
  });
  return best;
}

function clampSize(width: number, height: number, area: Rect | undefined): { width: number; height: number } {
  const maxW = area ? area.width : Number.POSITIVE_INFINITY;
  const maxH = area ? area.height : Number.POSITIVE_INFINITY;
  return {
    width: Math.max(Math.min(MIN_WINDOW_SIZE.width, maxW), Math.min(width, maxW)),
    height: Math.max(Math.min(MIN_WINDOW_SIZE.height, maxH), Math.min(height, maxH)),
  };
}

/**
 * Where to open the window. A saved state is restored when its title strip lies on one of the
 * displays' work areas (as it was; or, if it no longer fits that display, shrunk and moved onto it);
 * otherwise (no state, or a display that has gone) the window opens centred at the default size,
 * shrunk to the primary work area (`workAreas[0]`). Maximised is restored either way.
 */
export function placeWindow(saved: WindowState | null, workAreas: readonly Rect[]): WindowPlacement {
  if (saved) {
    const i = visibleOn(saved.bounds, workAreas);
    if (i >= 0) {
      const area = workAreas[i];
      const size = clampSize(saved.bounds.width, saved.bounds.height, area);
      if (size.width === saved.bounds.width && size.height === saved.bounds.height) {
        // Where the user left it, even if it spans two displays.
        return { bounds: { ...saved.bounds }, maximized: saved.maximized };
      }
      // Too large for the display now (its resolution changed): shrunk, and moved onto it.
      const x = Math.min(Math.max(saved.bounds.x, area.x), area.x + area.width - size.width);
      const y = Math.min(Math.max(saved.bounds.y, area.y), area.y + area.height - size.height);
      return { bounds: { x, y, ...size }, maximized: saved.maximized };
    }
  }
  return {
    bounds: clampSize(DEFAULT_WINDOW_SIZE.width, DEFAULT_WINDOW_SIZE.height, workAreas[0]),
    maximized: saved?.maximized ?? false,
  };
}

/** The saved state in `file`, or null when there is none or it cannot be read. */
export async function readWindowState(file: string): Promise<WindowState | null> {
  try {
    return parseWindowState(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    return null;
  }
}

export async function writeWindowState(file: string, state: WindowState): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify({ version: 1, ...state }, null, 2)}\n`, { syncFolder: false });
}

/**
 * Saves a window's state a little after it stops moving or resizing, and at once on `flush`
 * (when the window closes). Failures go to `log`; a save never throws.
 */
export class WindowStateSaver {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private last = '';
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly capture: () => WindowState | null,
    private readonly write: (state: WindowState) => Promise<void>,
    private readonly log: (message: string) => void,
    private readonly delayMs = 500,
  ) {}

  /** The window moved or was resized: save once it has been still for `delayMs`. */
  schedule(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.delayMs);
  }

  /** Saves now (if the state changed since the last save); resolves when written. */
  flush(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    let state: WindowState | null;
    try {
      state = this.capture();
    } catch (e) {
      this.log(`could not read the window's bounds: ${e instanceof Error ? e.message : String(e)}`);
      return this.writing;
    }
    if (!state) return this.writing;
    const json = JSON.stringify(state);
    if (json === this.last) return this.writing;
    this.last = json;
    const s = state;
    this.writing = this.writing.then(() => this.write(s)).catch((e: unknown) => {
      this.log(`could not save the window state: ${e instanceof Error ? e.message : String(e)}`);
    });
    return this.writing;
  }
}
