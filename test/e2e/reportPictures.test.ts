// The HTML report's pictures in Chromium: a report of a checked assembly (checkFile, as the
// command line does) with hostile part names, opened from disk offline. The pictures draw
// (inline SVG, red where the surfaces cross), the page's policy refuses nothing, and the names in
// the captions are text.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, skipWithoutChromium } from '../support/chromium';
import { reportPictures, reportToHtml, type InterferenceReport } from '../../src-core/report/index';
import { checkFile } from '../../src-main/services/checkService';
import { createImporter } from '../../src-main/services/importers';
import { boxMesh } from '../support/meshArbitraries';
import { binaryStl } from '../support/stlFiles';

const NAMES = ['<img src=x onerror="window.__pwned=1">', 'plain & simple', '<svg onload="window.__pwnedSvg=1">'];

describe.skipIf(skipWithoutChromium)('the HTML report\'s pictures (Chromium)', () => {
  let dir = '';
  let report: InterferenceReport;
  let browser: Browser | null = null;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'interfere-report-pictures-'));
    writeFileSync(path.join(dir, 'box.stl'), binaryStl(boxMesh([0, 0, 0], [10, 10, 10], 3)));
    // Neighbours overlap by 2 mm along x and are offset in y and z: their surfaces cross.
    const assembly = path.join(dir, 'row.assembly.json');
    writeFileSync(assembly, JSON.stringify({
      format: 'interfere-assembly', version: 1, units: 'mm',
      sources: [{ id: 'box', path: 'box.stl' }],
      parts: NAMES.map((name, i) => ({ id: `p${i}`, name, source: 'box', transform: [1, 0, 0, 8 * i, 0, 1, 0, 0.5 * i, 0, 0, 1, 0.25 * i, 0, 0, 0, 1] })),
    }));
    const result = await checkFile(assembly, { importer: createImporter() });
    report = result.report;
    const pictures = reportPictures(report, (id) => result.pictureBodies.get(id) ?? null);
    const file = path.join(dir, 'row.report.html');
    writeFileSync(file, reportToHtml(report, { pictures }));

    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ offline: true });
    page = await context.newPage();
    // Set up by the browser, not the page: records what the page's policy refuses.
    await page.addInitScript(() => {
      const g = globalThis as unknown as { __violations: string[]; addEventListener(t: string, f: (e: { violatedDirective: string }) => void): void };
      g.__violations = [];
      g.addEventListener('securitypolicyviolation', (e) => g.__violations.push(e.violatedDirective));
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => problems.push(`console ${m.type()}: ${m.text()}`));
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    await page.waitForTimeout(300);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows one picture per interference, drawn, with nothing refused by the page policy', async () => {
    expect(report.summary.interferences).toBe(2);
    const figures = page.locator('section[aria-labelledby="h-pictures"] figure');
    expect(await figures.count()).toBe(2);
    for (let i = 0; i < 2; i++) {
      const box = await figures.nth(i).locator('svg').first().boundingBox();
      expect(box?.width).toBe(652);
      expect(box?.height).toBe(240);
    }
    expect(await page.evaluate(() => (globalThis as unknown as { __violations: string[] }).__violations)).toEqual([]);
    expect(problems).toEqual([]);
    expect(await page.evaluate(() => Object.keys(globalThis).filter((k) => k.startsWith('__pwned')))).toEqual([]);
    // The recorder works: a style attribute (what the pictures avoid) is refused and recorded.
    await page.evaluate(() => {
      const d = (globalThis as unknown as { document: { body: { setAttribute(n: string, v: string): void } } }).document;
      d.body.setAttribute('style', 'color: red');
    });
    await page.waitForTimeout(100);
    expect(await page.evaluate(() => (globalThis as unknown as { __violations: string[] }).__violations)).toContain('style-src-attr');
    problems.length = 0;
  });

  it('draws the crossing triangles red on the screen', async () => {
    const shot = PNG.sync.read(await page.locator('figure svg').first().screenshot());
    let red = 0;
    for (let i = 0; i < shot.data.length; i += 4) {
      if (shot.data[i]! > 150 && shot.data[i + 1]! < 90 && shot.data[i + 2]! < 90) red++;
    }
    expect(red).toBeGreaterThan(200);
  });

  it('names the parts in the captions as text', async () => {
    const captions = await page.locator('figure figcaption').allTextContents();
    expect(captions[0]).toContain(`${NAMES[0]} p0 (A) and ${NAMES[1]} p1 (B)`);
    expect(captions[1]).toContain(`${NAMES[1]} p1 (A) and ${NAMES[2]} p2 (B)`);
    expect(await page.locator('img').count()).toBe(0);
    // The only SVG elements are the pictures' own (an outer one and a view each side).
    expect(await page.locator('svg').count()).toBe(6);
  });
});
