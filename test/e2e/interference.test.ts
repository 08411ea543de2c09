// End to end, what the view shows of a check's findings: the real renderer in Chromium
// (SwiftShader WebGL) through the loopback bridge, on the AS1 assembly with bolt-5 pushed 0.5 mm
// sideways into its holes, a nut tilted and a nut buried in the plate (test/data/assemblies/
// as1-oc-214-moved). After the check the parts in findings are tinted by their worst kind and a
// click on one filters the table; selecting the bolt's interference with the plate draws its
// overlap solid and intersection curves and frames them from outside the parts; the section view
// cuts through it with caps; a contact shows its contact curves. On AS1 with a nut backed off
// 0.2 mm and a clearance of 0.5 mm (as1-oc-214-clearance), the nut and the bracket it is too close
// to are tinted amber and the clearance violation is framed on its closest points.
//
// Screenshots: test-results/view-*.png always; with INTERFERE_UPDATE_DOCS=1 also
// docs/screenshots/07-overview.png … 10-contact.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, ensureRendererBuilt, RENDERER, ROOT, skipWithoutChromium } from '../support/chromium';
import { startBridge, type BridgeHandle } from '../../src-main/bridge/server';
import { HostService } from '../../src-main/services/host/hostService';

const VIEWPORT = { width: 1280, height: 800 };
const DATA = path.join(ROOT, 'test/data');
const MOVED = path.join(DATA, 'assemblies/as1-oc-214-moved.assembly.json');
/** The FANUC arm with its forearm folded into the upper arm and the flange into the forearm. */
const ROBOT = path.join(DATA, 'assemblies/fanuc-selfcollision.assembly.json');
/** nut-1 0.2 mm from l-bracket-9, clearance 0.5 mm: one clearance violation. */
const CLEARANCE = path.join(DATA, 'assemblies/as1-oc-214-clearance.assembly.json');
const OUT = path.join(ROOT, 'test-results');
const DOCS = path.join(ROOT, 'docs/screenshots');
const UPDATE_DOCS = process.env.INTERFERE_UPDATE_DOCS === '1';

interface ViewProbe {
  marks: Record<string, string>;
  filterPart: string | null;
  selectedResult: string | null;
  selectedKind: string | null;
  closestPoints: number[][] | null;
  showCrossing: boolean;
  curveSegments: number;
  curvePatches: number;
  overlap: string | null;
  camera: number[];
  target: number[];
  cameraInside: string[];
}

interface PageGlobals {
  __interfereTest?: {
    ready: boolean;
    documentId: string | null;
    partPoint?: (partId: string, offsetMm?: readonly [number, number, number]) => { x: number; y: number } | null;
    section?: () => { normal: number[]; constant: number; offsetMm: number; origin: number[] } | null;
    view?: () => ViewProbe;
  };
  requestAnimationFrame(callback: () => void): number;
}

interface Pixels {
  total: number;
  /** Strong reds: the overlap solid, interference curves and tints. */
  red: number;
  /** The pure red of crossing triangles (#ff0000). */
  pure: number;
  /** The section cap of the interference volume (#ff1a1a, unlit). */
  cap: number;
  /** Blue-ish: contact tints and curves. */
  blue: number;
  /** Amber: clearance tints (#f0a202 over the part's colour, lit). */
  amber: number;
}

function countPixels(png: Buffer): Pixels {
  const img = PNG.sync.read(png);
  const p: Pixels = { total: img.width * img.height, red: 0, pure: 0, cap: 0, blue: 0, amber: 0 };
  for (let i = 0; i < img.data.length; i += 4) {
    const r = img.data[i];
    const g = img.data[i + 1];
    const b = img.data[i + 2];
    if (r > 150 && r - g > 90 && r - b > 90) p.red++;
    if (r >= 250 && g <= 6 && b <= 6) p.pure++;
    if (r >= 248 && g >= 18 && g <= 34 && b >= 18 && b <= 34) p.cap++;
    if (b > 140 && b - r > 60 && b - g > 15) p.blue++;
    if (r > 150 && r - g > 25 && g - b > 60 && b < 90) p.amber++;
  }
  return p;
}

async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const g = globalThis as unknown as PageGlobals;
        g.requestAnimationFrame(() => g.requestAnimationFrame(() => resolve()));
      }),
  );
}

async function view(page: Page): Promise<ViewProbe> {
  const v = await page.evaluate(() => (globalThis as unknown as PageGlobals).__interfereTest?.view?.() ?? null);
  if (!v) throw new Error('no view hook');
  return v;
}

function resultRow(page: Page, a: string, b: string): Locator {
  return page.locator(`[data-testid="result-row-${a}-${b}"], [data-testid="result-row-${b}-${a}"]`);
}

describe.skipIf(skipWithoutChromium)('the interference in the view (Chromium through the bridge)', () => {
  let userData = '';
  let service: HostService | null = null;
  let bridge: BridgeHandle | null = null;
  let browser: Browser | null = null;
  let page: Page;
  const problems: string[] = [];

  async function canvas(name: string, docsName?: string): Promise<Pixels> {
    await settle(page);
    const png = await page.locator('[data-testid="viewport"] canvas').screenshot();
    writeFileSync(path.join(OUT, `view-${name}-canvas.png`), png);
    const full = await page.screenshot();
    writeFileSync(path.join(OUT, `view-${name}.png`), full);
    if (UPDATE_DOCS && docsName) writeFileSync(path.join(DOCS, `${docsName}.png`), full);
    return countPixels(png);
  }

  /** Opens an assembly by path (the Open dialog) and waits until every part is drawn. */
  async function openDocument(file: string): Promise<void> {
    const before = await page.evaluate(() => (globalThis as unknown as PageGlobals).__interfereTest?.documentId ?? null);
    await page.getByTestId('open-button').click();
    const dialog = page.getByTestId('dialog-open');
    await dialog.getByTestId('dialog-path').fill(file);
    await dialog.getByRole('button', { name: 'Open' }).click();
    await page.waitForFunction(
      (prev) => {
        const hook = (globalThis as unknown as PageGlobals).__interfereTest;
        return hook?.ready === true && hook.documentId !== prev;
      },
      before,
      { timeout: 60_000 },
    );
  }

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    if (UPDATE_DOCS) mkdirSync(DOCS, { recursive: true });
    ensureRendererBuilt();
    userData = mkdtempSync(path.join(os.tmpdir(), 'interfere-view-'));
    service = new HostService({ host: 'bridge', dialogs: null, userDataDir: userData, startupFile: MOVED, allowedFolders: [DATA], log: () => {} });
    bridge = await startBridge({ service, staticDir: RENDERER, log: () => {} });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: VIEWPORT });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    await page.goto(bridge.url);
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).__interfereTest?.ready === true, null, { timeout: 60_000 });
  }, 90_000);

  afterAll(async () => {
    writeFileSync(path.join(OUT, 'view-console.txt'), problems.join('\n'));
    await browser?.close();
    await bridge?.close();
    await service?.dispose();
    if (userData) rmSync(userData, { recursive: true, force: true });
  });

  it('marks every part in a finding after the check, by its worst kind', async () => {
    await expect.poll(() => page.locator('[data-testid^="part-row-"]').count()).toBe(18);
    const before = await canvas('0-open');
    await page.getByTestId('check-button').click();
    await expect.poll(() => page.getByTestId('results-summary').textContent(), { timeout: 60_000 }).toMatch(/^6 interferences · 0 clearance violations · 25 contacts/);
    const v = await view(page);
    for (const id of ['bolt-5', 'plate-10', 'nut-6', 'l-bracket-9', 'nut-12', 'nut-14', 'bolt-13']) expect(v.marks[id]).toBe('interference');
    expect(v.marks['bolt-3']).toBe('contact');
    expect(v.marks['rod-2']).toBe('contact');
    expect(v.selectedResult).toBeNull();
    const after = await canvas('1-overview', '07-overview');
    // The plate (interference) turns red, the contacts' parts blue.
    expect(after.red).toBeGreaterThan(before.red + after.total * 0.02);
    expect(after.blue).toBeGreaterThan(after.total * 0.005);
  });

  it('a click on a marked part filters the results to it, with a chip that clears the filter', async () => {
    const all = await page.locator('[data-testid^="result-row-"]').count();
    expect(all).toBe(31);
    // A click on the plate's front corner (or whichever marked part is drawn there) filters the table to it.
    const at = await page.evaluate(() => (globalThis as unknown as PageGlobals).__interfereTest?.partPoint?.('plate-10', [-90, -40, 0]) ?? null);
    if (!at) throw new Error('plate not drawn');
    await page.mouse.click(at.x, at.y);
    await expect.poll(async () => (await view(page)).filterPart).not.toBeNull();
    const picked = (await view(page)).filterPart ?? '';
    expect(await page.getByTestId(`part-row-${picked}`).getAttribute('aria-selected')).toBe('true');
    const chip = page.getByTestId('part-filter-chip');
    expect(await chip.textContent()).toContain(await page.locator(`[data-testid="part-row-${picked}"] .label`).textContent());
    const rows = await page.locator('[data-testid^="result-row-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.length).toBeLessThan(all);
    for (const id of rows) expect(id).toContain(picked);
    await page.getByTestId('part-filter-clear').click();
    await expect.poll(() => page.locator('[data-testid^="result-row-"]').count()).toBe(all);
    expect(await chip.count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  it('selecting an interference draws its overlap solid and intersection curves, framed from outside the parts', async () => {
    const row = resultRow(page, 'bolt-5', 'plate-10');
    await row.click();
    await expect.poll(() => row.getAttribute('aria-selected')).toBe('true');
    await expect.poll(async () => (await view(page)).overlap, { timeout: 30_000 }).toBe('ready');
    const v = await view(page);
    expect(v.showCrossing).toBe(false);
    // The bolt's cylinder cuts the hole's cylinder on two long lines and the plate's faces on arcs.
    expect(v.curveSegments).toBeGreaterThan(40);
    expect(v.cameraInside).toEqual([]);
    // The target is at the finding: the bolt's overlap with the 20 mm plate, about its hole.
    const dist = Math.hypot(...v.camera.map((c, i) => c - v.target[i]));
    expect(dist).toBeGreaterThan(20);
    expect(dist).toBeLessThan(400);
    const px = await canvas('2-interference', '08-interference');
    // Framed on the overlap: a good part of the view is its red solid and curves; no pure red
    // crossing triangles (they are off by default).
    expect(px.red).toBeGreaterThan(px.total * 0.01);
    expect(px.pure).toBeLessThan(px.total * 0.002);

    // Triangles (T) adds the crossing triangles, in pure red.
    await page.getByTestId('view-crossing').click();
    await expect.poll(async () => (await view(page)).showCrossing).toBe(true);
    const withTriangles = await canvas('3-triangles');
    expect(withTriangles.pure).toBeGreaterThan(px.pure + 500);
    await page.getByTestId('view-crossing').click();
    await expect.poll(async () => (await view(page)).showCrossing).toBe(false);
  });

  it('↓ and ↑ in the results walk the results, the view following', async () => {
    const first = await view(page);
    await page.getByTestId('results-table').focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await view(page)).selectedResult).not.toBe(first.selectedResult);
    await settle(page);
    const next = await view(page);
    expect(Math.hypot(...next.target.map((c, i) => c - first.target[i]))).toBeGreaterThan(1);
    expect(next.cameraInside).toEqual([]);
    await page.keyboard.press('ArrowUp');
    await expect.poll(async () => (await view(page)).selectedResult).toBe(first.selectedResult);
  });

  it('the section view cuts through the overlap with capped sections, and moves along its normal', async () => {
    await settle(page);
    const before = await canvas('4-before-section');
    await page.keyboard.press('x');
    await expect.poll(() => page.getByTestId('view-section').getAttribute('aria-pressed')).toBe('true');
    const plane = await page.evaluate(() => (globalThis as unknown as PageGlobals).__interfereTest?.section?.() ?? null);
    if (!plane) throw new Error('no section plane');
    // Through the overlap's centroid, on an axis.
    const v = await view(page);
    expect(Math.abs(plane.normal.reduce((s, n, i) => s + n * plane.origin[i], 0) + plane.constant)).toBeLessThan(1e-6);
    expect(Math.max(...plane.normal.map(Math.abs))).toBeCloseTo(1, 9);
    expect(Math.hypot(...plane.origin.map((c, i) => c - v.target[i]))).toBeLessThan(30);
    // The camera's side is cut away.
    expect(plane.normal.reduce((s, n, i) => s + n * v.camera[i], 0) + plane.constant).toBeLessThan(0);
    const cut = await canvas('5-section', '09-section');
    // The interference's own cap, bright red over the parts' caps.
    expect(cut.cap).toBeGreaterThan(300);
    expect(before.cap).toBeLessThan(cut.cap / 10);

    // The slider moves the plane along its normal, the offset shown in mm.
    const slider = page.getByTestId('section-offset');
    await slider.fill('5');
    await expect.poll(() => page.getByTestId('section-offset-value').textContent()).toBe('+5 mm');
    const moved = await page.evaluate(() => (globalThis as unknown as PageGlobals).__interfereTest?.section?.() ?? null);
    expect(moved?.offsetMm).toBe(5);
    expect(Math.abs((moved?.constant ?? 0) - plane.constant)).toBeCloseTo(5, 6);
    await canvas('6-section-moved');
    await slider.fill('0');
    await page.keyboard.press('x');
    await expect.poll(() => page.getByTestId('view-section').getAttribute('aria-pressed')).toBe('false');
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).__interfereTest?.section?.() ?? null)).toBeNull();
  });

  it('a contact shows its contact curves, framed from outside the parts', async () => {
    const row = resultRow(page, 'bolt-3', 'plate-10');
    await row.click();
    await expect.poll(() => row.getAttribute('aria-selected')).toBe('true');
    await settle(page);
    const v = await view(page);
    expect(v.curveSegments + v.curvePatches).toBeGreaterThan(20);
    expect(v.cameraInside).toEqual([]);
    const px = await canvas('7-contact', '10-contact');
    expect(px.blue).toBeGreaterThan(800);
  });

  it('on a robot folded into itself, frames each interference from outside the links', async () => {
    await openDocument(ROBOT);
    await page.getByTestId('check-button').click();
    await expect.poll(() => page.getByTestId('results-summary').textContent(), { timeout: 60_000 }).toMatch(/^2 interferences/);
    for (const [a, b] of [
      ['link_2', 'link_4'],
      ['link_4', 'link_6'],
    ]) {
      const row = resultRow(page, a, b);
      await row.click();
      await expect.poll(() => row.getAttribute('aria-selected')).toBe('true');
      await settle(page);
      const v = await view(page);
      expect(v.curveSegments).toBeGreaterThan(0);
      expect(v.cameraInside).toEqual([]);
      const px = await canvas(`8-robot-${a}-${b}`);
      expect(px.red).toBeGreaterThan(200);
    }
  });

  it('with a clearance, tints the parts closer than it amber and frames the violation on its closest points', async () => {
    await openDocument(CLEARANCE);
    const before = await canvas('9-clearance-open');
    await page.getByTestId('check-button').click();
    await expect.poll(() => page.getByTestId('results-summary').textContent(), { timeout: 60_000 }).toMatch(/^0 interferences · 1 clearance violation · 31 contacts/);
    const v = await view(page);
    expect(v.marks['nut-1']).toBe('clearance');
    expect(v.marks['l-bracket-9']).toBe('clearance');
    expect(Object.entries(v.marks).filter(([, kind]) => kind === 'clearance').map(([id]) => id).sort()).toEqual(['l-bracket-9', 'nut-1']);
    const overview = await canvas('10-clearance-overview');
    // The bracket and the nut turn amber.
    expect(overview.amber).toBeGreaterThan(before.amber + overview.total * 0.01);

    const row = resultRow(page, 'nut-1', 'l-bracket-9');
    await row.click();
    await expect.poll(() => row.getAttribute('aria-selected')).toBe('true');
    await settle(page);
    const selected = await view(page);
    expect(selected.selectedKind).toBe('clearance');
    const points = selected.closestPoints;
    if (!points) throw new Error('no closest points');
    // 0.2 mm apart, and the view looks at the middle of them from outside the parts.
    expect(Math.hypot(...points[0].map((c, i) => c - points[1][i]))).toBeCloseTo(0.2, 3);
    const middle = points[0].map((c, i) => (c + points[1][i]) / 2);
    expect(Math.hypot(...selected.target.map((c, i) => c - middle[i]))).toBeLessThan(0.5);
    expect(selected.cameraInside).toEqual([]);
    const dist = Math.hypot(...selected.camera.map((c, i) => c - selected.target[i]));
    expect(dist).toBeGreaterThan(1);
    expect(dist).toBeLessThan(400);
    // Selected, the two parts turn neutral: the overview's amber is gone.
    const framed = await canvas('11-clearance-selected');
    expect(framed.amber).toBeLessThan(overview.amber / 4);
  });

  it('reported no page error', () => {
    expect(problems).toEqual([]);
  });
});
