// End to end, as an engineer reviews an assembly: the real renderer in Chromium (SwiftShader
// WebGL) through the loopback bridge, against the real host service, driven only through the UI —
// the Open dialog, the part list, the Placement panel's fields, the Check button, the results
// table and its row menu, Ctrl+Z, Save and Export report.
//
// A saved assembly in a temporary folder refers to the bundled AS1 sample. Bolt bolt-5 is lifted
// 1 mm along its axis (still seated: contact) and pushed 0.5 mm sideways into the plate; the check
// lists the new interference with its volume, and selecting it draws the colliding triangles red.
// The HTML report lists the pair. Ctrl+Z takes back the sideways move and the check says contact
// again. The statuses are set from the row menu, the assembly is saved over its own file and
// opened again: placements and statuses come back as the file stores them. Finally a run that
// stops with unsaved changes leaves them to be recovered at the next start.
//
// Screenshots: test-results/review-*.png always; with INTERFERE_UPDATE_DOCS=1 also the README's
// docs/screenshots/*.png (1280×800).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, ensureRendererBuilt, RENDERER, ROOT, skipWithoutChromium } from '../support/chromium';
import { startBridge, type BridgeHandle } from '../../src-main/bridge/server';
import { HostService } from '../../src-main/services/host/hostService';

const VIEWPORT = { width: 1280, height: 800 };
const SAMPLES = path.join(ROOT, 'assets/samples');
const SAMPLE = path.join(SAMPLES, 'as1-oc-214.stp');
/** AS1 as designed, every mate a contact (touch tolerance 0.05 mm), with readable part ids. */
const ASIS = path.resolve(ROOT, 'test/data/assemblies/as1-oc-214-asis.assembly.json');
const OUT = path.join(ROOT, 'test-results');
const DOCS = path.join(ROOT, 'docs/screenshots');
const UPDATE_DOCS = process.env.INTERFERE_UPDATE_DOCS === '1';

const BOLT = 'bolt-5';
const PLATE = 'plate-10';
/** bolt-5's other mates, which the sideways move makes interfere too. */
const BOLT_MATES = ['l-bracket-9', 'nut-6'];
const ASSEMBLY_NAME = 'AS1 bracket review';
/** The status bar names the file; the assembly's name is its tooltip. */
const ASSEMBLY_FILE = 'as1-review.assembly.json';



/** Pixels of the pure red the highlight draws colliding triangles in (shaded parts never reach it). */
function countRed(png: Buffer): { red: number; total: number } {
  const img = PNG.sync.read(png);
  let red = 0;
  for (let i = 0; i < img.data.length; i += 4) {
    if (img.data[i] >= 245 && img.data[i + 1] <= 12 && img.data[i + 2] <= 12) red++;
  }
  return { red, total: img.width * img.height };
}

/** The page's globals the test reads (this file is compiled without DOM types). */
interface PageGlobals {
  __interfereTest?: {
    ready: boolean;
    renderedFrames: number;
    documentId: string | null;
    partPoint?: (partId: string, offsetMm?: readonly [number, number, number]) => { x: number; y: number } | null;
    partCentre?: (partId: string) => [number, number, number] | null;
    gizmo?: () => { axis: string | null; position: [number, number, number] } | null;
  };
  requestAnimationFrame(callback: () => void): number;
}

/** The document the viewport last drew completely, or null. Functions, not strings: the page's CSP refuses eval. */
async function drawnDocument(page: Page): Promise<string | null> {
  return page.evaluate(() => (globalThis as unknown as PageGlobals).__interfereTest?.documentId ?? null);
}

/** Waits until the viewport shows every part of a document other than `previous`. */
async function waitDrawn(page: Page, previous: string | null): Promise<void> {
  await page.waitForFunction(
    (prev) => {
      const hook = (globalThis as unknown as PageGlobals).__interfereTest;
      return hook?.ready === true && hook.documentId !== prev;
    },
    previous,
    { timeout: 30_000 },
  );
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

/** The row of a result, whichever way round the host names the pair. */
function resultRow(page: Page, a: string, b: string): Locator {
  return page.locator(`[data-testid="result-row-${a}-${b}"], [data-testid="result-row-${b}-${a}"]`);
}

/** The status key (`a|b`, a < b) of a result row's test id, with the part ids known. */
function rowKey(testId: string, ids: readonly string[]): string {
  const rest = testId.slice('result-row-'.length);
  for (const a of ids) {
    if (!rest.startsWith(`${a}-`)) continue;
    const b = rest.slice(a.length + 1);
    if (ids.includes(b)) return a < b ? `${a}|${b}` : `${b}|${a}`;
  }
  throw new Error(`${testId} names no pair of parts`);
}

/** The status badge of every row of the results table, by pair key. */
async function tableStatuses(page: Page, ids: readonly string[]): Promise<Record<string, string>> {
  const rows = await page.locator('[data-testid^="result-row-"]').evaluateAll((els) =>
    els.map((el) => [el.getAttribute('data-testid') ?? '', el.querySelector('[data-testid="status-badge"]')?.textContent ?? ''] as const),
  );
  return Object.fromEntries(rows.map(([id, badge]) => [rowKey(id, ids), badge.toLowerCase()]));
}

/** Opens a file through the toolbar's Open… button and the path dialog. */
async function openThroughDialog(page: Page, file: string): Promise<void> {
  const before = await drawnDocument(page);
  await page.getByTestId('open-button').click();
  const dialog = page.getByTestId('dialog-open');
  await dialog.getByTestId('dialog-path').fill(file);
  await dialog.getByRole('button', { name: 'Open' }).click();
  await waitDrawn(page, before);
}

/** Types a value into a Placement field and applies it (Enter), then waits for the undo entry it makes. */
async function setPlacement(page: Page, axis: 'x' | 'y' | 'z', mm: string): Promise<void> {
  const field = page.getByTestId(`placement-${axis}`);
  await field.fill(mm);
  await field.press('Enter');
  await expect.poll(() => page.getByTestId('undo').getAttribute('title')).toContain(`(${axis.toUpperCase()} ${mm} mm)`);
}

/** The Placement panel's offset fields of the selected part. */
async function offsets(page: Page): Promise<string[]> {
  return Promise.all(['x', 'y', 'z'].map((a) => page.getByTestId(`placement-${a}`).inputValue()));
}

/** Reads a number as the results table writes it ("1,234.5"). */
function tableNumber(text: string | null): number {
  return Number((text ?? '').replace(/,/g, ''));
}

/** The translation of a row-major 4×4 placement. */
function translationOf(t: readonly number[]): number[] {
  return [t[3], t[7], t[11]];
}

const skip = skipWithoutChromium;

describe.skipIf(skip)('reviewing an assembly in the app (Chromium through the bridge)', () => {
  let work = '';
  let project = '';
  let userData = '';
  let assemblyPath = '';
  let reportPath = '';
  let sourceRef = '';
  let partIds: string[] = [];
  let service: HostService | null = null;
  let bridge: BridgeHandle | null = null;
  let browser: Browser | null = null;
  let page: Page;
  const problems: string[] = [];
  let redBeforeSelecting = -1;
  /** Statuses shown in the table when the assembly was saved. */
  let savedStatuses: Record<string, string> = {};

  async function startApp(): Promise<Page> {
    service = new HostService(
      { host: 'bridge', dialogs: null, userDataDir: userData, startupFile: SAMPLE, allowedFolders: [SAMPLES, work], log: () => {} },
      // Unsaved work reaches its recovery file a moment after the change.
      { autosave: { debounceMs: 150 } },
    );
    bridge = await startBridge({ service, staticDir: RENDERER, log: () => {} });
    browser ??= await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const p = await browser.newPage({ viewport: VIEWPORT });
    p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    p.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
      else if (/Content Security Policy/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
    });
    await p.goto(bridge.url);
    await waitDrawn(p, null);
    return p;
  }

  /** Stops the app as a crash would: no save, no close, the page just goes. */
  async function stopApp(): Promise<void> {
    await page.close();
    await bridge?.close();
    await service?.dispose();
    bridge = null;
    service = null;
  }

  /** A screenshot of the window in test-results, and in docs/screenshots when updating the docs. */
  async function shot(target: Page, name: string, docsName?: string): Promise<void> {
    const png = await target.screenshot();
    writeFileSync(path.join(OUT, `review-${name}.png`), png);
    if (UPDATE_DOCS && docsName) writeFileSync(path.join(DOCS, `${docsName}.png`), png);
  }

  /** Dismisses the messages over the viewport (so that screenshots show the model). */
  async function dismissNotices(): Promise<void> {
    const close = page.locator('[data-testid="error-area"] .notice-close');
    for (let i = 0; i < 20 && (await close.count()) > 0; i++) {
      // A message may fade out on its own between the count and the click.
      await close.first().click({ timeout: 2000 }).catch(() => undefined);
    }
  }

  async function canvasRed(name: string): Promise<{ red: number; total: number }> {
    await settle(page);
    const png = await page.locator('[data-testid="viewport"] canvas').screenshot({ path: path.join(OUT, `review-${name}-canvas.png`) });
    return countRed(png);
  }

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    if (UPDATE_DOCS) mkdirSync(DOCS, { recursive: true });
    ensureRendererBuilt();
    work = mkdtempSync(path.join(os.tmpdir(), 'interfere-review-'));
    project = path.join(work, 'project');
    userData = path.join(work, 'user-data');
    mkdirSync(project);
    mkdirSync(userData);
    // The shared as-designed AS1 assembly, saved in its own folder, referring to the bundled sample.
    const asis = JSON.parse(readFileSync(ASIS, 'utf8')) as { name: string; description?: string; sources: { id: string; path: string }[]; parts: { id: string }[] };
    sourceRef = path.relative(project, SAMPLE).split(path.sep).join('/');
    const assembly = { ...asis, name: ASSEMBLY_NAME, sources: [{ ...asis.sources[0], path: sourceRef }] };
    delete assembly.description;
    partIds = asis.parts.map((p) => p.id);
    assemblyPath = path.join(project, 'as1-review.assembly.json');
    writeFileSync(assemblyPath, `${JSON.stringify(assembly, null, 2)}\n`);
    reportPath = path.join(project, 'as1-review-report.html');
    page = await startApp();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await bridge?.close();
    await service?.dispose();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('opens the saved assembly from the Open dialog', async () => {
    // The app starts with the bundled sample; the review is of the saved assembly.
    await openThroughDialog(page, assemblyPath);
    await expect.poll(() => page.locator('[data-testid^="part-row-"]').count()).toBe(18);
    expect(await page.locator('.status-bar .doc-name').textContent()).toBe(ASSEMBLY_FILE);
    expect(await page.locator('.status-bar .doc-name').getAttribute('title')).toBe(`${ASSEMBLY_NAME}\n${assemblyPath}`);
    expect(await page.getByTestId('setting-tolerance').inputValue()).toBe('0.05');
    expect(await page.locator('[data-testid^="result-row-"]').count()).toBe(0);
    await dismissNotices();
    await settle(page);
    await shot(page, '1-open', '01-open');
  });

  it('moves a bolt into the plate with the Placement fields; the check lists the new interference', async () => {
    await page.getByTestId(`part-row-${BOLT}`).click();
    await expect.poll(() => page.getByTestId(`part-row-${BOLT}`).getAttribute('aria-selected')).toBe('true');
    const boltName = (await page.locator(`[data-testid="part-row-${BOLT}"] .label`).textContent()) ?? '';
    const plateName = (await page.locator(`[data-testid="part-row-${PLATE}"] .label`).textContent()) ?? '';
    // Named by their place in AS1's product tree: as1 / l-bracket-assembly<k> / bolt<k>, as1 / plate.
    expect(boltName).toMatch(/^as1 \/ .*bolt/);
    expect(plateName).toBe('as1 / plate');
    expect(await page.locator('.placement-name').textContent()).toBe(boltName);
    expect(await offsets(page)).toEqual(['0', '0', '0']);

    // Lifted 1 mm along its axis the bolt still sits in its holes; 0.5 mm sideways it cuts into them.
    await setPlacement(page, 'z', '1');
    await setPlacement(page, 'y', '-0.5');
    expect(await offsets(page)).toEqual(['0', '-0.5', '1']);
    await expect.poll(() => page.locator('.status-bar .doc-name').textContent()).toContain('unsaved');

    expect(await page.getByTestId('check-scope').inputValue()).toBe('all');
    await page.getByTestId('check-button').click();
    await expect.poll(() => page.getByTestId('results-summary').textContent(), { timeout: 30_000 }).toMatch(/^3 interferences · 0 clearance violations · 29 contacts/);
    expect(await page.locator('[data-testid^="result-row-"]').count()).toBe(32);

    const row = resultRow(page, BOLT, PLATE);
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('td.kind').textContent()).toBe('Interference');
    expect(await row.getByTestId('status-badge').textContent()).toBe('New');
    const cells = await row.locator('td').allTextContents();
    // No., status, kind, part A, part B, volume, …
    expect(cells[0]).toMatch(/^R\d+$/);
    expect(cells.slice(3, 5).sort()).toEqual([boltName, plateName].sort());
    // The volume column is in mm³: about 100 mm³ for a 0.5 mm shift along the 20 mm plate.
    expect(await page.locator('.results-table th').nth(5).textContent()).toContain('Volume (mm³)');
    const volume = tableNumber(cells[5]);
    expect(volume).toBeGreaterThan(80);
    expect(volume).toBeLessThan(120);
    // Interferences come first, and the bolt's other mates are among them.
    const first = await page.locator('[data-testid^="result-row-"]').evaluateAll((rows) => rows.slice(0, 3).map((r) => r.getAttribute('data-testid') ?? ''));
    for (const mate of BOLT_MATES) expect(first.some((id) => id.includes(BOLT) && id.includes(mate))).toBe(true);

    redBeforeSelecting = (await canvasRed('2-moved')).red;
    await dismissNotices();
    await shot(page, '2-moved-interference', '02-moved-interference');
  });

  it('selecting the interference draws its colliding triangles in red (with Triangles on)', async () => {
    const row = resultRow(page, BOLT, PLATE);
    await row.click();
    await expect.poll(() => row.getAttribute('aria-selected')).toBe('true');
    const bar = page.getByTestId('pair-bar');
    await expect.poll(() => bar.textContent()).toMatch(/Interference · [\d.,]+ mm³/);
    // The crossing triangles are an option of the view toolbar (off by default).
    await page.getByTestId('view-crossing').click();
    await expect.poll(() => page.getByTestId('view-crossing').getAttribute('aria-pressed')).toBe('true');
    const { red, total } = await canvasRed('3-selected');
    // Framed on the pair, the crossing triangles cover a good part of the view in pure red.
    expect(red).toBeGreaterThan(Math.max(2000, total * 0.01));
    expect(red).toBeGreaterThan(redBeforeSelecting + 1000);
    await shot(page, '3-result-selected', '03-result-selected');
    await page.getByTestId('view-crossing').click();
    await expect.poll(() => page.getByTestId('view-crossing').getAttribute('aria-pressed')).toBe('false');
  });

  it('exports an HTML report through the Export dialog that lists the pair', async () => {
    await page.getByTestId('export-button').click();
    const dialog = page.getByTestId('dialog-export');
    expect(await dialog.locator('input[type="radio"][value="html"]').isChecked()).toBe(true);
    // The suggested file sits next to the assembly.
    expect(await dialog.getByTestId('dialog-path').inputValue()).toBe(reportPath);
    await dialog.getByRole('button', { name: 'Export' }).click();
    await expect.poll(() => existsSync(reportPath)).toBe(true);
    await expect.poll(() => page.locator('[data-testid="notice-info"]').last().textContent()).toContain('Report written');

    // Read as a person would: in a browser.
    const report = await browser?.newPage({ viewport: VIEWPORT });
    if (!report) throw new Error('no browser');
    try {
      await report.goto(pathToFileURL(reportPath).href);
      const rows = await report.locator('table.results tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
      expect(rows).toHaveLength(32);
      const pair = rows.filter((cells) => cells.some((c) => c.includes(BOLT)) && cells.some((c) => c.includes(PLATE)));
      expect(pair).toHaveLength(1);
      // No., kind, status, part A, part B, volume, …
      expect(pair[0][0]).toMatch(/^R\d+$/);
      expect(pair[0][1].toLowerCase()).toContain('interference');
      expect(pair[0][2]).toBe('New');
      expect(pair[0][5]).toMatch(/^[\d.,]+ mm³$/);
      expect(await report.locator('body').textContent()).toContain(ASSEMBLY_NAME);
      await shot(report, '5-report', '05-report');
    } finally {
      await report.close();
    }
  });

  it('Ctrl+Z takes back the sideways move and the check says contact again', async () => {
    await dismissNotices();
    await page.getByTestId('results-table').focus();
    await page.keyboard.press('Control+z');
    await expect.poll(() => page.getByTestId('redo').getAttribute('title')).toContain('(Y -0.5 mm)');
    expect(await page.getByTestId('undo').getAttribute('title')).toContain('(Z 1 mm)');
    await expect.poll(() => page.getByTestId('results-stale').isVisible()).toBe(true);

    await page.getByTestId('check-button').click();
    await expect.poll(() => page.getByTestId('results-summary').textContent(), { timeout: 30_000 }).toMatch(/^0 interferences · 0 clearance violations · 32 contacts/);
    const row = resultRow(page, BOLT, PLATE);
    expect(await row.locator('td.kind').textContent()).toBe('Contact');
    // Seen in the check before: active.
    expect(await row.getByTestId('status-badge').textContent()).toBe('Active');
    expect(await page.getByTestId('results-stale').count()).toBe(0);

    // The bolt stays lifted 1 mm: the Z move was not undone.
    await page.getByTestId(`part-row-${BOLT}`).click();
    expect(await offsets(page)).toEqual(['0', '0', '1']);
    // The result stays selected while parts are picked in the list; selected again, it frames the pair.
    if ((await row.getAttribute('aria-selected')) === 'true') await row.click();
    await row.click();
    await expect.poll(() => row.getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.getByTestId('pair-bar').textContent()).toContain('Contact');
    await dismissNotices();
    await settle(page);
    await shot(page, '4-contact', '04-contact');
  });

  it('sets statuses from the row menu and saves the assembly over its own file', async () => {
    const mark = async (a: string, b: string, status: 'resolved' | 'ignored' | 'new') => {
      const row = resultRow(page, a, b);
      await row.getByTestId('row-menu').click();
      await page.getByTestId(`menu-status-${status}`).click();
      await expect.poll(() => row.getByTestId('status-badge').textContent()).toBe(status[0].toUpperCase() + status.slice(1));
    };
    // The interference is fixed; a contact of no concern; one to look at again.
    await mark(BOLT, PLATE, 'resolved');
    await mark('nut-0', 'rod-2', 'ignored');
    await mark('bolt-3', 'nut-4', 'new');
    savedStatuses = await tableStatuses(page, partIds);
    expect(Object.keys(savedStatuses)).toHaveLength(32);

    const mtimeBefore = statSync(assemblyPath).mtimeMs;
    await page.getByTestId('save-button').click();
    await expect.poll(() => page.locator('.status-bar .doc-name').textContent()).toBe(ASSEMBLY_FILE);
    expect(await page.getByTestId('save-button').textContent()).toBe('Save');
    expect(statSync(assemblyPath).mtimeMs).toBeGreaterThan(mtimeBefore);

    // The file keeps the placement, the statuses and the reference to the sample.
    const saved = JSON.parse(readFileSync(assemblyPath, 'utf8')) as {
      format: string;
      sources: { path: string }[];
      parts: { id: string; transform?: number[] }[];
      resultStatus?: Record<string, string>;
    };
    expect(saved.format).toBe('interfere-assembly');
    expect(saved.sources[0].path).toBe(sourceRef);
    const bolt = saved.parts.find((p) => p.id === BOLT);
    expect(translationOf(bolt?.transform ?? [])).toEqual([0, 0, 1]);
    for (const p of saved.parts) if (p.id !== BOLT && p.transform) expect(translationOf(p.transform)).toEqual([0, 0, 0]);
    expect(saved.resultStatus).toEqual(savedStatuses);
    expect(saved.resultStatus?.[`${BOLT}|${PLATE}`]).toBe('resolved');
    expect(saved.resultStatus?.['nut-0|rod-2']).toBe('ignored');
    expect(saved.resultStatus?.['bolt-3|nut-4']).toBe('new');
    expect(new Set(Object.values(saved.resultStatus ?? {}))).toEqual(new Set(['new', 'active', 'resolved', 'ignored']));
  });

  it('opening the saved assembly again brings back its placements and statuses', async () => {
    await openThroughDialog(page, assemblyPath);
    await expect.poll(() => page.getByTestId('results-summary').textContent()).toBe('Review saved in the assembly: 32 pairs. Run the check (F5) to compare.');
    expect(await tableStatuses(page, partIds)).toEqual(savedStatuses);
    expect(await page.locator('.status-bar .doc-name').textContent()).toBe(ASSEMBLY_FILE);

    await page.getByTestId(`part-row-${BOLT}`).click();
    expect(await offsets(page)).toEqual(['0', '0', '1']);
    await page.getByTestId(`part-row-${PLATE}`).click();
    expect(await offsets(page)).toEqual(['0', '0', '0']);
    expect(await page.getByTestId('undo').isDisabled()).toBe(true);
  });

  it('offers the unsaved work of a run that stopped without saving at the next start', async () => {
    await page.getByTestId(`part-row-${BOLT}`).click();
    await setPlacement(page, 'x', '2');
    await expect.poll(() => page.locator('.status-bar .doc-name').textContent()).toContain('unsaved');
    const recoveryDir = path.join(userData, 'recovery');
    await expect.poll(() => (existsSync(recoveryDir) ? readdirSync(recoveryDir).filter((f) => f.endsWith('.json')).length : 0), { timeout: 10_000 }).toBe(1);
    await stopApp();

    page = await startApp();
    const dialog = page.getByTestId('dialog-recovery');
    await dialog.waitFor({ timeout: 10_000 });
    const entries = dialog.getByTestId('recovery-entry');
    expect(await entries.count()).toBe(1);
    const text = (await entries.first().textContent()) ?? '';
    expect(text).toContain(ASSEMBLY_NAME);
    expect(text).toContain(assemblyPath);
    expect(text).toMatch(/autosaved (today|\d{4}-\d\d-\d\d) \d\d:\d\d/);
    await shot(page, '6-recovery', '06-recovery');

    const before = await drawnDocument(page);
    await dialog.getByTestId('recovery-recover').click();
    await waitDrawn(page, before);
    expect(await page.getByTestId('dialog-recovery').count()).toBe(0);
    await expect.poll(() => page.locator('.status-bar .doc-name').textContent()).toBe(`${ASSEMBLY_FILE} • unsaved`);
    await page.getByTestId(`part-row-${BOLT}`).click();
    expect(await offsets(page)).toEqual(['2', '0', '1']);
    // The statuses saved before come back with it.
    expect(await tableStatuses(page, partIds)).toEqual(savedStatuses);
  });

  it('drags the bolt down onto the parts below with stop at contact: it stops there, the fields and the gizmo with it', async () => {
    await dismissNotices();
    await page.getByTestId(`part-row-${BOLT}`).click();
    // Lifted clear of its holes (it was pushed 2 mm sideways), then dragged back down with the gizmo.
    await setPlacement(page, 'z', '40');
    const stop = page.getByTestId('stop-at-contact');
    if (!(await stop.isChecked())) await stop.check();
    await page.getByTestId('gizmo-translate').click();
    await settle(page);

    const centre = () => page.evaluate((id) => (globalThis as unknown as PageGlobals).__interfereTest?.partCentre?.(id) ?? null, BOLT);
    const gizmo = () => page.evaluate(() => (globalThis as unknown as PageGlobals).__interfereTest?.gizmo?.() ?? null);
    const point = (dz: number) => page.evaluate(([id, z]) => (globalThis as unknown as PageGlobals).__interfereTest?.partPoint?.(id, [0, 0, z]) ?? null, [BOLT, dz] as [string, number]);
    const fieldZ = async () => Number(await page.getByTestId('placement-z').inputValue());
    const start = await centre();
    const p0 = await point(0);
    const p10 = await point(10);
    if (!start || !p0 || !p10) throw new Error('the bolt is not drawn');
    // The drawn centre at offset 0 along Z: what the Z field measures from.
    const fileZ = start[2] - 40;
    const up = { x: (p10.x - p0.x) / 10, y: (p10.y - p0.y) / 10 };
    const pxPerMm = Math.hypot(up.x, up.y);
    expect(pxPerMm).toBeGreaterThan(0.5);

    // Aim at the gizmo's Z arrow: along the screen direction of +Z from the part's centre.
    let grab: { x: number; y: number } | null = null;
    for (let px = 20; px < 200 && grab === null; px += 4) {
      const at = { x: p0.x + (up.x / pxPerMm) * px, y: p0.y + (up.y / pxPerMm) * px };
      await page.mouse.move(at.x, at.y);
      await settle(page);
      if ((await gizmo())?.axis === 'Z') grab = at;
    }
    if (!grab) throw new Error('no Z handle found');

    /** The drawn part, the Z field and the gizmo at one moment: read in one call, so no render falls between them. */
    const sample = async () => {
      const s = await page.evaluate((id) => {
        const g = globalThis as unknown as PageGlobals & { document: { querySelector(q: string): { value: string } | null } };
        const hook = g.__interfereTest;
        return { centre: hook?.partCentre?.(id) ?? null, field: g.document.querySelector('[data-testid="placement-z"]')?.value ?? null, gizmo: hook?.gizmo?.() ?? null };
      }, BOLT);
      return { drawn: (s.centre?.[2] ?? NaN) - fileZ, field: Number(s.field), gizmo: (s.gizmo?.position[2] ?? NaN) - fileZ };
    };
    await page.mouse.down();
    // Let go if anything fails, so that the tests after this one start without a drag in progress.
    let pressed = true;
    try {
      const samples: { drawn: number; field: number; gizmo: number }[] = [];
      // 60 mm down in steps of about 1.5 mm: through the parts under the bolt if nothing stopped it.
      const steps = 40;
      for (let i = 1; i <= steps; i++) {
        const mm = (60 * i) / steps;
        await page.mouse.move(grab.x - up.x * mm, grab.y - up.y * mm);
        await settle(page);
        samples.push(await sample());
      }
      await expect.poll(() => page.getByTestId('live-status').textContent(), { timeout: 10_000 }).toMatch(/Stopped at contact with/);
      await settle(page);
      const held = await sample();
      writeFileSync(path.join(OUT, 'review-drag-samples.json'), JSON.stringify({ samples, held }, null, 1));
      // Stopped well above where the pointer is (−20 mm), and on the way never below the stop.
      expect(held.field).toBeGreaterThan(0);
      expect(held.field).toBeLessThan(40);
      for (const s of [...samples, held]) {
        // The part, the field (to its 4 decimals) and the gizmo agree.
        expect(Math.abs(s.drawn - s.field)).toBeLessThan(1e-3);
        expect(Math.abs(s.gizmo - s.drawn)).toBeLessThan(1e-6);
        expect(s.drawn).toBeGreaterThanOrEqual(held.drawn - 0.02);
      }
      await shot(page, '7-stopped');

      // Pulled back up it is free again; pushed down again it stops at the same contact.
      await page.mouse.move(grab.x - up.x * (40 - held.field - 5), grab.y - up.y * (40 - held.field - 5));
      await expect.poll(() => page.getByTestId('live-status').textContent(), { timeout: 10_000 }).not.toMatch(/Stopped/);
      await settle(page);
      const freed = await sample();
      expect(freed.field).toBeGreaterThan(held.field + 3);
      expect(Math.abs(freed.drawn - freed.field)).toBeLessThan(1e-3);
      await page.mouse.move(grab.x - up.x * 60, grab.y - up.y * 60);
      await expect.poll(() => page.getByTestId('live-status').textContent(), { timeout: 10_000 }).toMatch(/Stopped at contact with/);

      // Released: the stop is kept, as one undoable move.
      await page.mouse.up();
      pressed = false;
      await expect.poll(() => page.getByTestId('undo').getAttribute('title')).toMatch(/Undo “Move /);
      await expect.poll(() => page.locator('[data-testid="live-status"] strong').textContent()).toBe('Last move');
      const kept = await fieldZ();
      expect(Math.abs(kept - held.field)).toBeLessThan(0.02);
      const after = await centre();
      expect(Math.abs((after?.[2] ?? NaN) - fileZ - kept)).toBeLessThan(1e-3);
    } finally {
      if (pressed) await page.mouse.up();
    }
  });

  it('Esc in a Placement field puts its value back and leaves the field, so shortcuts work again', async () => {
    const field = page.getByTestId('placement-x');
    const before = await field.inputValue();
    await field.click();
    await field.fill('77');
    await field.press('Escape');
    expect(await field.inputValue()).toBe(before);
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }).document.activeElement?.getAttribute('data-testid') ?? null)).not.toBe('placement-x');
    // The next key is a shortcut, not typing: W toggles the move gizmo off (it was on).
    expect(await page.getByTestId('gizmo-translate').getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('w');
    await expect.poll(() => page.getByTestId('gizmo-translate').getAttribute('aria-pressed')).toBe('false');
    expect(await field.inputValue()).toBe(before);
  });

  it('reported no page error and no refused content', () => {
    writeFileSync(path.join(OUT, 'review-console.txt'), problems.join('\n'));
    expect(problems).toEqual([]);
  });
});
