// End to end: the real renderer in Chromium (SwiftShader WebGL) through the loopback bridge,
// against the real host service: open the bundled AS1 sample, see its parts, run the all-pairs
// check, read the same results as the command line, select a result and see it drawn in red.
// Screenshots go to test-results/e2e-*.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, ensureRendererBuilt, RENDERER, ROOT, skipWithoutChromium } from '../support/chromium';
import { startBridge, type BridgeHandle } from '../../src-main/bridge/server';
import { checkFile } from '../../src-main/services/checkService';
import { HostService } from '../../src-main/services/host/hostService';
import { createImporter } from '../../src-main/services/importers';

const SAMPLES = path.join(ROOT, 'assets/samples');
const SAMPLE = path.join(SAMPLES, 'as1-oc-214.stp');
const OUT = path.join(ROOT, 'test-results');
/** The viewport's clear colour (scene/palette.ts BACKGROUND). */
const BACKGROUND: readonly [number, number, number] = [0xee, 0xf1, 0xf5];



interface PixelCounts {
  total: number;
  /** Pixels clearly different from the background. */
  content: number;
  /** Pure highlight red. */
  red: number;
  /** Strongly coloured green or blue pixels (AS1's plate, brackets and bolts when drawn solid). */
  vivid: number;
}

function countPixels(png: Buffer): PixelCounts {
  const img = PNG.sync.read(png);
  let content = 0;
  let red = 0;
  let vivid = 0;
  for (let i = 0; i < img.data.length; i += 4) {
    const r = img.data[i];
    const g = img.data[i + 1];
    const b = img.data[i + 2];
    if (Math.abs(r - BACKGROUND[0]) + Math.abs(g - BACKGROUND[1]) + Math.abs(b - BACKGROUND[2]) > 24) content++;
    if (r >= 245 && g <= 12 && b <= 12) red++;
    if (Math.max(r, g, b) - Math.min(r, g, b) > 120 && r < Math.max(g, b)) vivid++;
  }
  return { total: img.width * img.height, content, red, vivid };
}

async function canvasPixels(page: Page, name: string): Promise<PixelCounts> {
  const png = await page.locator('[data-testid="viewport"] canvas').screenshot({ path: path.join(OUT, `e2e-${name}-canvas.png`) });
  return countPixels(png);
}

/** The page's globals the test reads (this file is compiled without DOM types). */
interface PageGlobals {
  __interfereTest?: { ready: boolean; renderedFrames: number };
  requestAnimationFrame(callback: () => void): number;
}

/** Waits for the page's test hook to report every part drawn. Functions, not strings: the
 * page's CSP refuses eval. */
async function waitReady(page: Page): Promise<void> {
  await page.waitForFunction(() => (globalThis as unknown as PageGlobals).__interfereTest?.ready === true, null, { timeout: 30_000 });
}

/** Waits until the viewport has drawn the frames asked for so far. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const g = globalThis as unknown as PageGlobals;
        g.requestAnimationFrame(() => g.requestAnimationFrame(() => resolve()));
      }),
  );
}

const skip = skipWithoutChromium;

describe.skipIf(skip)('the renderer through the bridge (Chromium)', () => {
  let userData = '';
  let service: HostService | null = null;
  let bridge: BridgeHandle | null = null;
  let browser: Browser | null = null;
  let page: Page;
  const problems: string[] = [];
  let opened: PixelCounts | null = null;

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    ensureRendererBuilt();
    userData = mkdtempSync(path.join(os.tmpdir(), 'interfere-e2e-'));
    service = new HostService({
      host: 'bridge',
      dialogs: null,
      userDataDir: userData,
      startupFile: SAMPLE,
      allowedFolders: [SAMPLES, userData],
      log: () => {},
    });
    bridge = await startBridge({ service, staticDir: RENDERER, log: () => {} });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
      else if (/Content Security Policy/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
    });
    await page.goto(bridge.url);
    await waitReady(page);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await bridge?.close();
    await service?.dispose();
    if (userData) rmSync(userData, { recursive: true, force: true });
  });

  it('shows the 18 parts of the AS1 sample and draws them', async () => {
    await expect.poll(() => page.locator('[data-testid^="part-row-"]').count()).toBe(18);
    expect(await page.getByTestId('part-list').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('status-parts').textContent()).toBe('18 parts');
    await page.screenshot({ path: path.join(OUT, 'e2e-1-open.png') });
    const pixels = await canvasPixels(page, '1-open');
    opened = pixels;
    // The assembly fills a good part of the view, in its own colours.
    expect(pixels.content / pixels.total).toBeGreaterThan(0.08);
    expect(pixels.vivid / pixels.total).toBeGreaterThan(0.04);
  });

  it("lists the parts as the file's assembly tree, whose sub-assemblies collapse and expand", async () => {
    // AS1: the assembly, its rod assembly and two l-bracket assemblies (numbered), the plate at the top level.
    for (const key of ['as1', 'as1/rod-assembly', 'as1/l-bracket-assembly<1>', 'as1/l-bracket-assembly<2>']) {
      expect(await page.getByTestId(`part-group-${key}`).count(), key).toBe(1);
    }
    const rod = page.getByTestId('part-group-as1/rod-assembly');
    expect(await rod.locator('.group-label').textContent()).toBe('rod-assembly');
    expect(await rod.getByTestId('group-visibility').isChecked()).toBe(true);
    expect(await rod.getAttribute('aria-expanded')).toBe('true');
    // A part row shows its own name; its whole name (with the sub-assemblies) is its text.
    expect(await page.locator('[data-testid="part-row-rod-2"] .label').textContent()).toBe('as1 / rod-assembly / rod');
    await rod.locator('.caret').click();
    await expect.poll(() => page.locator('[data-testid^="part-row-"]').count()).toBe(15);
    expect(await rod.getAttribute('aria-expanded')).toBe('false');
    await rod.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.locator('[data-testid^="part-row-"]').count()).toBe(18);
    // Clicking a sub-assembly selects its parts; Esc clears the selection again.
    await rod.click();
    await expect.poll(() => page.locator('[data-testid^="part-row-"][aria-selected="true"]').count()).toBe(3);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-testid^="part-row-"][aria-selected="true"]').count()).toBe(0);
  });

  it('runs the all-pairs check and lists the same 32 contacts as the command line', async () => {
    const cli = await checkFile(SAMPLE, { importer: createImporter() });
    const expected = cli.report.results.map((r) => `result-row-${r.a}-${r.b}`).sort();
    expect(expected).toHaveLength(32);

    await page.getByTestId('check-button').click();
    await expect.poll(() => page.locator('[data-testid^="result-row-"]').count(), { timeout: 30_000 }).toBe(32);
    const shown = await page.locator('[data-testid^="result-row-"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid') ?? ''));
    expect(shown.sort()).toEqual(expected);
    const kinds = await page.locator('[data-testid^="result-row-"] td.kind').allTextContents();
    expect(new Set(kinds)).toEqual(new Set(['Contact']));
    expect(await page.getByTestId('results-summary').textContent()).toContain('32 contacts');
    expect(await page.getByTestId('status-last-check').textContent()).toMatch(/^Last check/);
    await page.screenshot({ path: path.join(OUT, 'e2e-2-checked.png') });
  });

  it('highlights the colliding triangles of a selected result in red, with Triangles on', async () => {
    const row = page.locator('[data-testid^="result-row-"]').first();
    await row.click();
    await expect.poll(() => row.getAttribute('aria-selected')).toBe('true');
    // The crossing triangles are an option of the view toolbar (T; off by default).
    await page.keyboard.press('t');
    await expect.poll(() => page.getByTestId('view-crossing').getAttribute('aria-pressed')).toBe('true');
    await settle(page);
    const pixels = await canvasPixels(page, '3-result');
    await page.screenshot({ path: path.join(OUT, 'e2e-3-result.png') });
    expect(pixels.content / pixels.total).toBeGreaterThan(0.05);
    expect(pixels.red).toBeGreaterThan(200);
    // The other parts are faded: the plate's and bolts' solid colours are gone.
    expect(pixels.vivid).toBeLessThan((opened?.vivid ?? 0) * 0.3);
  });

  it('reported no page error and no refused content', () => {
    expect(problems).toEqual([]);
    writeFileSync(path.join(OUT, 'e2e-console.txt'), problems.join('\n'));
  });
});
