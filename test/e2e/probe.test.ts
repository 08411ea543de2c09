// A timing probe, not a check of behaviour: how long the app in Chromium (SwiftShader, no GPU)
// takes to open an assembly, check it, select the first and a later result (and the first again)
// and make one gizmo step, and how many frames a second it draws while the view is orbited, on
// the AS1 sample, the Endgame trackball (heavy B-splines) and the SO-101 arm (400k triangles of
// STL). It prints its figures (and writes test-results/probe.json); it asserts only
// that each step happened. It runs on request only (`npm run bench:ui`, which sets
// INTERFERE_PROBE=1): the test suite skips it. INTERFERE_PROBE_CASES=robot-so101,… runs only the
// cases named.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, ensureRendererBuilt, RENDERER, ROOT, skipWithoutChromium } from '../support/chromium';
import { startBridge, type BridgeHandle } from '../../src-main/bridge/server';
import { HostService } from '../../src-main/services/host/hostService';

const OUT = path.join(ROOT, 'test-results');
const DATA = path.join(ROOT, 'test/data');
const SAMPLES = path.join(ROOT, 'assets/samples');
const CASES = [
  { name: 'cax-if-as1', file: path.join(DATA, 'cax-if-as1/as1-oc-214.stp') },
  { name: 'endgame-trackball', file: path.join(DATA, 'assemblies/trackball-asis.assembly.json') },
  { name: 'robot-so101', file: path.join(DATA, 'assemblies/so101-zero.assembly.json') },
];
/** INTERFERE_PROBE_CASES=name,name runs only those cases (all by default). */
const ONLY = (process.env['INTERFERE_PROBE_CASES'] ?? '').split(',').filter((n) => n !== '');
/** How long the orbit is timed (ms). */
const ORBIT_MS = 2000;
const RUN = ONLY.length > 0 ? ONLY.map((n) => CASES.find((c) => c.name === n) ?? { name: n, file: '' }) : CASES;

interface PageGlobals {
  __interfereTest?: {
    ready: boolean;
    renderedFrames: number;
    documentId: string | null;
    partPoint?: (partId: string, offsetMm?: readonly [number, number, number]) => { x: number; y: number } | null;
    gizmo?: () => { axis: string | null; position: [number, number, number] } | null;
  };
  requestAnimationFrame(callback: () => void): number;
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

async function timed(run: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await run();
  return Math.round(performance.now() - t0);
}

describe.skipIf(skipWithoutChromium || process.env['INTERFERE_PROBE'] !== '1')('timing probe (prints figures)', () => {
  let userData = '';
  let service: HostService | null = null;
  let bridge: BridgeHandle | null = null;
  let browser: Browser | null = null;
  let page: Page;
  const figures: Record<string, Record<string, number>> = {};

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    ensureRendererBuilt();
    userData = mkdtempSync(path.join(os.tmpdir(), 'interfere-probe-'));
    service = new HostService({ host: 'bridge', dialogs: null, userDataDir: userData, startupFile: null, allowedFolders: [SAMPLES, DATA], log: () => {} });
    bridge = await startBridge({ service, staticDir: RENDERER, log: () => {} });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // The gizmo step leaves the document with unsaved changes: the next open asks to discard them
    // (window.confirm, which Playwright would dismiss, keeping the old document).
    page.on('dialog', (d) => void d.accept());
    await page.goto(bridge.url);
    await page.getByTestId('open-button').waitFor();
  }, 90_000);

  afterAll(async () => {
    writeFileSync(path.join(OUT, 'probe.json'), `${JSON.stringify(figures, null, 2)}\n`);
    console.log(`probe figures (ms; orbit in frames per second):\n${JSON.stringify(figures, null, 2)}`);
    await browser?.close();
    await bridge?.close();
    await service?.dispose();
    if (userData) rmSync(userData, { recursive: true, force: true });
  });

  for (const c of RUN) {
    it(`times ${c.name}`, async () => {
      const f: Record<string, number> = {};
      const before = await page.evaluate(() => (globalThis as unknown as PageGlobals).__interfereTest?.documentId ?? null);
      f.openMs = await timed(async () => {
        await page.getByTestId('open-button').click();
        const dialog = page.getByTestId('dialog-open');
        await dialog.getByTestId('dialog-path').fill(c.file);
        await dialog.getByRole('button', { name: 'Open' }).click();
        await page.waitForFunction(
          (prev) => {
            const hook = (globalThis as unknown as PageGlobals).__interfereTest;
            return hook?.ready === true && hook.documentId !== prev;
          },
          before,
          { timeout: 240_000 },
        );
        await settle(page);
      });
      f.checkMs = await timed(async () => {
        await page.getByTestId('check-button').click();
        await page.getByTestId('check-button').waitFor({ state: 'visible' });
        await expect.poll(() => page.locator('[data-testid^="result-row-"]').count(), { timeout: 120_000 }).toBeGreaterThan(1);
        await expect.poll(() => page.getByTestId('progress').count(), { timeout: 120_000 }).toBe(0);
        await settle(page);
      });
      const rows = page.locator('[data-testid^="result-row-"]');
      // From a real mouse click on the row's first cell to the frame that shows the selection:
      // the row's place is found before the clock starts (a locator's click waits for the element
      // to hold still over two frames first), and the selection is watched on every frame (a
      // polled expectation checks every 100 ms or more).
      const select = async (i: number) => {
        const row = rows.nth(i);
        await row.scrollIntoViewIfNeeded();
        const box = await row.boundingBox();
        const id = await row.getAttribute('data-testid');
        if (!box || !id) throw new Error(`result row ${i} is not on screen`);
        return timed(async () => {
          await page.mouse.click(box.x + 12, box.y + box.height / 2);
          await page.waitForFunction(
            (testId) => {
              const doc = (globalThis as unknown as { document: { querySelector(q: string): { getAttribute(n: string): string | null } | null } }).document;
              return doc.querySelector(`[data-testid="${testId}"]`)?.getAttribute('aria-selected') === 'true';
            },
            id,
            { polling: 'raf', timeout: 60_000 },
          );
          await settle(page);
        });
      };
      f.firstSelectMs = await select(0);
      f.laterSelectMs = await select(1);
      f.laterSelect2Ms = await select(0);

      // One gizmo step: the first part of the selected pair, its move gizmo's Z arrow 2 mm down.
      await page.keyboard.press('Escape');
      const firstPart = (await page.locator('[data-testid^="part-row-"]').first().getAttribute('data-testid'))?.slice('part-row-'.length) ?? '';
      await page.getByTestId(`part-row-${firstPart}`).click();
      // Framed, so that its gizmo is on screen.
      await page.keyboard.press('s');
      await page.getByTestId('gizmo-translate').click();
      await settle(page);
      const point = (dz: number) => page.evaluate(([id, z]) => (globalThis as unknown as PageGlobals).__interfereTest?.partPoint?.(id, [0, 0, z]) ?? null, [firstPart, dz] as [string, number]);
      const p0 = await point(0);
      const p10 = await point(10);
      let grab: { x: number; y: number } | null = null;
      if (p0 && p10) {
        const len = Math.hypot(p10.x - p0.x, p10.y - p0.y) || 1;
        const ux = (p10.x - p0.x) / len;
        const uy = (p10.y - p0.y) / len;
        for (let px = 20; px < 240 && grab === null; px += 4) {
          const at = { x: p0.x + ux * px, y: p0.y + uy * px };
          await page.mouse.move(at.x, at.y);
          await settle(page);
          if ((await page.evaluate(() => (globalThis as unknown as PageGlobals).__interfereTest?.gizmo?.() ?? null))?.axis === 'Z') grab = at;
        }
      }
      if (grab) {
        await page.mouse.down();
        await page.mouse.move(grab.x, grab.y + 3);
        await settle(page);
        f.gizmoStepMs = await timed(async () => {
          await page.mouse.move(grab.x, grab.y + 8);
          await settle(page);
        });
        await page.mouse.up();
        await page.keyboard.press('Control+z');
      } else {
        f.gizmoStepMs = -1;
      }
      await page.getByTestId('gizmo-translate').click();
      await page.keyboard.press('Escape');

      // Orbit: a left drag over the view for ORBIT_MS, each pointer move dispatched as soon as the
      // page has taken the last one (not waiting for a frame per move, which would time the
      // probe's own round trips); the frames the view drew meanwhile (the scene's after-render
      // count: each a new camera pose) over the time they took.
      const box = await page.getByTestId('viewport').boundingBox();
      if (!box) throw new Error('no viewport');
      const cx = box.x + box.width * 0.5;
      const cy = box.y + box.height * 0.5;
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      // The drag has begun (the view drawn as while moving) before the count starts.
      await page.mouse.move(cx + 3, cy + 1);
      await settle(page);
      const frames = () => page.evaluate(() => (globalThis as unknown as PageGlobals).__interfereTest?.renderedFrames ?? 0);
      const f0 = await frames();
      const t0 = performance.now();
      let moves = 0;
      while (performance.now() - t0 < ORBIT_MS) {
        moves += 1;
        // Back and forth across 160 px, so that every move turns the view.
        const k = moves % 80;
        const dx = 3 + 4 * (k < 40 ? k : 80 - k);
        await page.mouse.move(cx + dx, cy + dx / 3);
      }
      const f1 = await frames();
      const elapsed = performance.now() - t0;
      await page.mouse.up();
      f.orbitFps = Math.round(((f1 - f0) / elapsed) * 1000 * 10) / 10;
      f.orbitMoves = moves;
      figures[c.name] = f;
      console.log(`${c.name}: ${JSON.stringify(f)}`);
      expect(f.openMs).toBeGreaterThan(0);
    }, 300_000);
  }
});
