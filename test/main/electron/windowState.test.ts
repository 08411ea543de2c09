import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_WINDOW_SIZE, MIN_WINDOW_SIZE, parseWindowState, placeWindow, readWindowState, visibleOn,
  WindowStateSaver, writeWindowState, type Rect, type WindowState,
} from '../../../src-main/main/windowState.js';

const primary: Rect = { x: 0, y: 0, width: 1920, height: 1040 };
const right: Rect = { x: 1920, y: 0, width: 1280, height: 984 };
const state = (bounds: Rect, maximized = false): WindowState => ({ bounds, maximized });

describe('where the window opens', () => {
  it('centres the default size when nothing was saved', () => {
    expect(placeWindow(null, [primary])).toEqual({ bounds: { ...DEFAULT_WINDOW_SIZE }, maximized: false });
  });

  it('shrinks the default size to a small primary display', () => {
    expect(placeWindow(null, [{ x: 0, y: 0, width: 1024, height: 700 }]).bounds).toEqual({ width: 1024, height: 700 });
  });

  it('restores saved bounds on a display that still exists, even spanning two displays', () => {
    const onRight = state({ x: 2000, y: 100, width: 1000, height: 700 }, true);
    expect(placeWindow(onRight, [primary, right])).toEqual(onRight);
    const spanning = state({ x: 1500, y: 50, width: 1000, height: 700 });
    expect(placeWindow(spanning, [primary, right])).toEqual(spanning);
  });

  it('forgets bounds on a display that has gone (keeps maximised)', () => {
    const onRight = state({ x: 2000, y: 100, width: 1000, height: 700 }, true);
    expect(placeWindow(onRight, [primary])).toEqual({ bounds: { ...DEFAULT_WINDOW_SIZE }, maximized: true });
  });

  it('needs the title strip on screen, not just a corner of the window', () => {
    // Only the bottom 50 px are on the display: the title bar is above it.
    const above = state({ x: 100, y: -650, width: 800, height: 700 });
    expect(visibleOn(above.bounds, [primary])).toBe(-1);
    expect(placeWindow(above, [primary]).bounds).toEqual({ ...DEFAULT_WINDOW_SIZE });
    // 60 px of the title strip at the left edge: too little to grab.
    expect(visibleOn({ x: -740, y: 10, width: 800, height: 600 }, [primary])).toBe(-1);
    // 150 px: enough.
    expect(visibleOn({ x: -650, y: 10, width: 800, height: 600 }, [primary])).toBe(0);
  });

  it('picks the display showing most of the title strip', () => {
    expect(visibleOn({ x: 1800, y: 0, width: 1000, height: 500 }, [primary, right])).toBe(1);
    expect(visibleOn({ x: 1000, y: 0, width: 1000, height: 500 }, [primary, right])).toBe(0);
  });

  it('shrinks a window larger than its display and moves it onto it', () => {
    const big = state({ x: 1900, y: -5, width: 3000, height: 2000 });
    expect(placeWindow(big, [primary, right])).toEqual({ bounds: { x: 1920, y: 0, width: 1280, height: 984 }, maximized: false });
  });

  it('enlarges a window below the minimum size', () => {
    const tiny = state({ x: 10, y: 10, width: 100, height: 50 });
    expect(placeWindow(tiny, [primary]).bounds).toEqual({ x: 10, y: 10, ...MIN_WINDOW_SIZE });
  });
});

describe('the saved state', () => {
  it('accepts what it wrote and rounds coordinates', () => {
    expect(parseWindowState({ version: 1, bounds: { x: 1.4, y: -2.6, width: 800, height: 600 }, maximized: true }))
      .toEqual({ bounds: { x: 1, y: -3, width: 800, height: 600 }, maximized: true });
  });

  it.each([
    ['null', null],
    ['a string', 'x'],
    ['no bounds', { maximized: true }],
    ['a NaN', { bounds: { x: Number.NaN, y: 0, width: 1, height: 1 } }],
    ['a zero width', { bounds: { x: 0, y: 0, width: 0, height: 1 } }],
    ['a huge coordinate', { bounds: { x: 1e12, y: 0, width: 10, height: 10 } }],
    ['strings', { bounds: { x: '0', y: 0, width: 10, height: 10 } }],
  ])('refuses %s', (_name, value) => {
    expect(parseWindowState(value)).toBeNull();
  });
});

describe('saving the state', () => {
  let dir = '';
  afterEach(async () => {
    vi.useRealTimers();
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = '';
  });

  it('writes JSON atomically and reads it back; a damaged file reads as nothing', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'interfere-ws-'));
    const file = path.join(dir, 'window-state.json');
    expect(await readWindowState(file)).toBeNull();
    const s = state({ x: 5, y: 6, width: 900, height: 700 }, true);
    await writeWindowState(file, s);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ version: 1, ...s });
    expect(await readWindowState(file)).toEqual(s);
    await writeFile(file, '{"bounds": ');
    expect(await readWindowState(file)).toBeNull();
  });

  it('saves once the window is still, skips unchanged states and reports failures', async () => {
    vi.useFakeTimers();
    let current = state({ x: 0, y: 0, width: 800, height: 600 });
    const written: WindowState[] = [];
    const logs: string[] = [];
    let fail = false;
    const saver = new WindowStateSaver(
      () => current,
      async (s) => {
        if (fail) throw new Error('disk full');
        written.push(s);
      },
      (m) => logs.push(m),
      500,
    );
    saver.schedule();
    current = state({ x: 10, y: 0, width: 800, height: 600 });
    saver.schedule();
    await vi.advanceTimersByTimeAsync(499);
    expect(written).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(written).toEqual([current]);
    await saver.flush(); // unchanged
    expect(written).toHaveLength(1);
    fail = true;
    current = state({ x: 20, y: 0, width: 800, height: 600 });
    await saver.flush();
    expect(logs).toEqual(['could not save the window state: disk full']);
  });
});
