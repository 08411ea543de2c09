/**
 * In the app (its host service): a body OpenCascade drops is named in the opened document's
 * warnings (which the renderer shows on opening), and a saved assembly — also one built by
 * importing — records its sources' body names, so that reopening it over a damaged file is refused
 * naming the part instead of binding the parts to the wrong bodies.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAssembly } from '../../../src-core/assembly/format.js';
import type { DocumentInfo } from '../../../src-main/contract/host.js';
import { createTestHost, refusal, tempDir, TEST_DATA, type TestHost } from '../host/helpers.js';

const ROOT = process.cwd();
const BROKEN = path.join(ROOT, 'test/fixtures/regressions/step-solid-refers-to-missing-shell.stp');
const DM1 = path.join(TEST_DATA, 'cax-if-dm1/dm1-id-214.stp');
const NUTS = "product 'nut' (MANIFOLD_SOLID_BREP #1447; placed 3 times) should give 3 bodies, OpenCascade made none";

describe('missing bodies in the app', () => {
  let h: TestHost;
  let work: string;
  beforeAll(() => {
    work = tempDir('host-missing');
    h = createTestHost({ allowedFolders: [TEST_DATA, path.dirname(BROKEN), work] });
  });
  afterAll(async () => {
    await h.service.dispose();
  });

  it('opening or importing the damaged STEP file names the missing nuts in the document warnings', async () => {
    const opened = (await h.call('doc.open', { path: BROKEN })) as DocumentInfo;
    expect(opened.parts).toHaveLength(4);
    expect(opened.warnings.some((w) => w.includes(NUTS))).toBe(true);
    const fresh = await h.call('doc.new', {});
    const imported = (await h.call('doc.import', { docId: fresh.id, path: BROKEN })) as DocumentInfo;
    expect(imported.warnings.some((w) => w.startsWith("source 'step-solid-refers-to-missing-shell'") && w.includes(NUTS))).toBe(true);
  }, 120_000);

  it('an assembly built by import records the body names; reopened over the damaged file it is refused', async () => {
    const model = path.join(work, 'dm1.stp');
    copyFileSync(DM1, model);
    const doc = await h.call('doc.new', {});
    await h.call('doc.import', { docId: doc.id, path: model });
    const target = path.join(work, 'dm1.assembly.json');
    await h.call('doc.save', { docId: doc.id, path: target });
    const written = parseAssembly(readFileSync(target, 'utf8'), target);
    expect(written.sources[0].bodyNames).toEqual(['l-bracket', 'bolt', 'bolt', 'bolt', 'nut', 'nut', 'nut']);
    copyFileSync(BROKEN, model);
    const e = await refusal(h.call('doc.open', { path: target }));
    expect(e.message).toContain('no longer gives the bodies this assembly was saved with (7 bodies when saved, 4 now)');
    expect(e.message).toContain("part 'nut-4' is bound to body 4, saved as 'nut', but the file now has no body 4");
  }, 120_000);
});
