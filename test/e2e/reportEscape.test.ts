// The HTML report in Chromium, made from an assembly whose names are hostile: part ids and names,
// source paths, the assembly's title and an ignore reason hold markup, script, quotes and
// ampersands. Checked the way the command line checks it (checkFile), rendered by the real
// report code, opened from disk in an offline browser: no dialog, no script of the names runs, no
// element of the names exists, every name reads as literal text; nothing is fetched; the tables
// sort when a header is clicked.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, skipWithoutChromium } from '../support/chromium';
import { reportToHtml, type InterferenceReport } from '../../src-core/report/index';
import { checkFile } from '../../src-main/services/checkService';
import { createImporter } from '../../src-main/services/importers';
import { boxMesh } from '../support/meshArbitraries';
import { binaryStl } from '../support/stlFiles';


/**
 * Each payload, if it ran, would set its own global (`__pwned…`) or open a dialog; the test
 * looks for both.
 */
const HOSTILE_PARTS: readonly { id: string; name: string; source: string; n: number }[] = [
  {
    id: '<img src=x onerror=alert(1)>',
    name: '<img src=x onerror="window.__pwnedImg=1;alert(2)">',
    source: '<img src=x onerror=alert(3)>.stl',
    n: 3,
  },
  {
    id: '</script><script>window.__pwnedId=1</script>',
    name: '</script><script>window.__pwnedName=1;alert(4)</script>',
    source: '</script><script>window.__pwnedSource=1</script>.stl',
    n: 1,
  },
  {
    id: '"><svg onload="window.__pwnedAttr=1">',
    name: `' onmouseover='window.__pwnedQuote=1' x='`,
    source: `"quoted" & 'single' part.stl`,
    n: 4,
  },
  {
    id: 'tom&jerry',
    name: 'Tom & Jerry &amp; &lt;b&gt;not bold&lt;/b&gt; &#60;i&#62;',
    source: 'a&amp;b <b>bold</b>.stl',
    n: 2,
  },
  {
    id: '<style>body{display:none}</style>',
    name: '<iframe src="javascript:window.top.__pwnedFrame=1"></iframe>',
    source: '<base href="https://evil.example/">.stl',
    n: 5,
  },
  {
    id: 'plain-6',
    name: '<a href="javascript:window.__pwnedLink=1">link</a><form action="https://evil.example/"><input name=q></form>',
    source: 'sub/<object data=x>.stl',
    n: 6,
  },
];
const HOSTILE_TITLE = '<script>window.__pwnedTitle=1</script><title>x</title>';
const HOSTILE_REASON = '<img src=x onerror="window.__pwnedReason=1">';

/** The page's globals and DOM, as far as the test reads them (this file is compiled without DOM types). */
interface PageGlobals {
  [key: string]: unknown;
  document: {
    title: string;
    scripts: { length: number };
    querySelectorAll(selector: string): ArrayLike<PageElement>;
    querySelector(selector: string): PageElement | null;
  };
  getComputedStyle(e: PageElement): { backgroundColor: string };
}
interface PageElement {
  readonly tagName: string;
  readonly textContent: string | null;
  readonly attributes: ArrayLike<{ name: string; value: string }>;
  getAttribute(name: string): string | null;
}

const skip = skipWithoutChromium;

/** Writes the hostile assembly: overlapping cubes in a row, each from its own hostile file. */
function writeAssembly(dir: string): string {
  const parts = HOSTILE_PARTS.map((p, i) => {
    const file = path.join(dir, p.source);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, binaryStl(boxMesh([0, 0, 0], [10, 10, 10], p.n)));
    // Neighbours overlap by 2 mm along x and are offset in y and z: their surfaces cross.
    return { id: p.id, name: p.name, source: `s${i}`, transform: [1, 0, 0, 8 * i, 0, 1, 0, 0.5 * i, 0, 0, 1, 0.25 * i, 0, 0, 0, 1] };
  });
  const assembly = path.join(dir, 'hostile.assembly.json');
  writeFileSync(assembly, JSON.stringify({
    format: 'interfere-assembly',
    version: 1,
    name: HOSTILE_TITLE,
    units: 'mm',
    sources: HOSTILE_PARTS.map((p, i) => ({ id: `s${i}`, path: p.source })),
    parts,
    ignore: [{ a: HOSTILE_PARTS[4]!.id, b: HOSTILE_PARTS[5]!.id, reason: HOSTILE_REASON }],
  }, null, 2));
  return assembly;
}

describe.skipIf(skip)('the HTML report of hostile names (Chromium)', () => {
  let dir = '';
  let report: InterferenceReport;
  let browser: Browser | null = null;
  let context: BrowserContext;
  let page: Page;
  let url = '';
  const dialogs: string[] = [];
  const requests: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'interfere-report-escape-'));
    const assembly = writeAssembly(dir);
    const result = await checkFile(assembly, { importer: createImporter() });
    report = result.report;
    const file = path.join(dir, 'hostile.report.html');
    writeFileSync(file, reportToHtml(report));
    url = pathToFileURL(file).href;

    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext({ offline: true });
    page = await context.newPage();
    page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
    context.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => problems.push(`console ${m.type()}: ${m.text()}`));
    await page.goto(url, { waitUntil: 'load' });
    // Time for anything asynchronous a payload could start (an image error, a frame load).
    await page.waitForTimeout(500);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is made from the hostile assembly: every part, the pairs that cross, the ignored pair', () => {
    expect(report.parts.map((p) => p.id)).toEqual(HOSTILE_PARTS.map((p) => p.id));
    expect(report.parts.map((p) => p.name)).toEqual(HOSTILE_PARTS.map((p) => p.name));
    expect(report.title).toBe(HOSTILE_TITLE);
    expect(report.summary.interferences).toBe(4);
    expect(report.summary.ignored).toBe(1);
  });

  it('opens no dialog and runs no script from the names', async () => {
    expect(dialogs).toEqual([]);
    const globals = await page.evaluate(() => Object.keys(globalThis).filter((k) => k.startsWith('__pwned')));
    expect(globals).toEqual([]);
    // The report's own script is the only one, and no element carries an event handler or a URL.
    const dom = await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      const all = Array.from(g.document.querySelectorAll('*'));
      return {
        scripts: g.document.scripts.length,
        handlers: all.flatMap((e) => Array.from(e.attributes).filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName} ${a.name}`)),
        urls: all.flatMap((e) => Array.from(e.attributes).filter((a) => /^(href|src|srcdoc|action|formaction|data|xlink:href)$/i.test(a.name)).map((a) => `${e.tagName} ${a.name}`)),
        tags: [...new Set(all.map((e) => e.tagName.toLowerCase()))].sort(),
        base: g.document.querySelector('base') !== null,
      };
    });
    expect(dom.scripts).toBe(1);
    expect(dom.handlers).toEqual([]);
    expect(dom.urls).toEqual([]);
    expect(dom.base).toBe(false);
    for (const tag of ['img', 'svg', 'iframe', 'object', 'form', 'input', 'a', 'i', 'b']) expect(dom.tags, tag).not.toContain(tag);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.locator('style').count()).toBe(1);
  });

  it('shows every name as literal text', async () => {
    const rows = await page.locator('table.parts tbody tr').evaluateAll((trs) =>
      trs.map((tr) => Array.from((tr as unknown as { cells: ArrayLike<PageElement> }).cells).map((td) => td.textContent ?? '')));
    expect(rows.map((r) => r.slice(0, 3))).toEqual(HOSTILE_PARTS.map((p) => [p.id, p.name, p.source]));
    expect(await page.title()).toBe(`Interference report: ${HOSTILE_TITLE}`);
    expect(await page.locator('h1').textContent()).toBe(`Interference report: ${HOSTILE_TITLE}`);
    // The results name their parts (name, then id) and the ignored pair's reason.
    const results = await page.locator('table.results tbody').textContent();
    for (const p of HOSTILE_PARTS) {
      expect(results, p.id).toContain(p.name);
      expect(results, p.id).toContain(p.id);
    }
    expect(results).toContain(HOSTILE_REASON);
    // The page's own style applies (its CSP hash is right): the status banner is coloured.
    const banner = await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      const e = g.document.querySelector('.status');
      return e === null ? null : g.getComputedStyle(e).backgroundColor;
    });
    expect(banner).not.toBeNull();
    expect(banner).not.toBe('rgba(0, 0, 0, 0)');
  });

  it('works offline: nothing but the page itself is requested, nothing is refused', () => {
    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);
  });

  it('sorts a table when a header is clicked', async () => {
    const triangles = (): Promise<number[]> =>
      page.locator('table.parts tbody tr td:nth-child(5)').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-v'))));
    const header = page.locator('table.parts thead th').nth(4);
    const initial = await triangles();
    expect(initial).toEqual(HOSTILE_PARTS.map((p) => 12 * p.n * p.n));
    await header.locator('button').click();
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    expect(await triangles()).toEqual([...initial].sort((x, y) => x - y));
    await header.locator('button').click();
    expect(await header.getAttribute('aria-sort')).toBe('descending');
    expect(await triangles()).toEqual([...initial].sort((x, y) => y - x));
    // A text column: the hostile names in order, still as text.
    const names = page.locator('table.parts thead th').nth(1);
    await names.locator('button').click();
    expect(await names.getAttribute('aria-sort')).toBe('ascending');
    expect(await header.getAttribute('aria-sort')).toBeNull();
    const sorted = await page.locator('table.parts tbody tr td:nth-child(2)').allTextContents();
    expect([...sorted].sort()).toEqual(HOSTILE_PARTS.map((p) => p.name).sort());
    const inOrder = await page.evaluate((list) => list.every((s, i) => i === 0 || list[i - 1]!.trim().toLowerCase().localeCompare(s.trim().toLowerCase(), undefined, { numeric: true }) <= 0), sorted);
    expect(inOrder).toBe(true);
    expect(sorted).not.toEqual(HOSTILE_PARTS.map((p) => p.name));
    expect(dialogs).toEqual([]);
  });
});
