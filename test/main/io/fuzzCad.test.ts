/**
 * Fuzzing the STEP, IGES and BREP importers: small real files from test/data, mutated
 * (truncated, bytes flipped, spliced with another CAD file, lines duplicated or deleted, entity
 * numbers changed, NaN, 1e300 and other hostile numbers written over numbers, …) and imported the
 * way the app and the command line import them, with OpenCascade in its worker thread.
 *
 * Property (fuzzHelpers.ts): every import yields valid meshes (finite coordinates, indices in
 * range, face ranges tiling the triangles) or fails with an ImportError of a documented code whose
 * message names the file — never another exception, never a hang. OpenCascade loops forever on
 * some damaged BREP files and crawls through some damaged STEP files, so each read is bounded by
 * CAD_TIMEOUT_MS (the worker is stopped: ImportError 'timeout') and each case by CASE_MS, worker
 * restart included. Seeds are in the titles; a failing case prints its mutation records, and
 * inputs that ever broke something live in test/fixtures/regressions.
 *
 * OpenCascade takes 0.1–0.5 s per read of these files, so the case counts are small: the file
 * runs in well under a minute on two cores. Each test prints how its cases ended.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../../src-core/io/registry.js';
import { ImportError } from '../../../src-core/io/types.js';
import { createOcctWorkerProvider } from '../../../src-main/services/occtWorker.js';
import { HOSTILE_NUMBERS, Tally, checkImport, fraction, mutateAll, mutationArb, readData } from '../../core/io/fuzzHelpers.js';
import type { Mutation } from '../../core/io/fuzzHelpers.js';

/** OpenCascade's time limit per read: 10–30 × what these files take intact. */
const CAD_TIMEOUT_MS = 4000;
/** Whole case: the read, plus restarting the worker after the previous case's timeout. */
const CASE_MS = CAD_TIMEOUT_MS + 11_000;

const FILES = {
  step: ['cax-if-dm1/dm1-id-214.stp', 'pythonocc-multi-root/stp_multiple_shp_at_root.stp'],
  iges: ['iges-sunglasses-lens/sunglasses_lens.igs'],
  brep: ['cax-if-as1/as1_pe_203.brep'],
} as const;
type Format = keyof typeof FILES;

const ALL: readonly string[] = [...FILES.step, ...FILES.iges, ...FILES.brep];
const BYTES = new Map(ALL.map((rel) => [rel, readData(rel)]));
/** What a splice may take its tail from: any of the CAD files. */
const OTHERS = ALL.map((rel) => BYTES.get(rel) as Uint8Array);

const workerLog: string[] = [];
const occt = createOcctWorkerProvider({ log: (m) => workerLog.push(m) });
const registry = createDefaultRegistry({ occt });
const limits = { cadTimeoutMs: CAD_TIMEOUT_MS };

afterAll(async () => {
  await occt.dispose();
});

function baseName(rel: string): string {
  return rel.slice(rel.lastIndexOf('/') + 1);
}

/** Imports one mutated file, checks the property and counts the outcome. */
async function fuzzOne(rel: string, mutations: readonly Mutation[], tally: Tally): Promise<void> {
  const input = mutateAll(BYTES.get(rel) as Uint8Array, mutations, OTHERS);
  const name = baseName(rel);
  tally.add(await checkImport(() => registry.import(input, name, { limits }), name, input.length, CASE_MS));
}

/** Mutates the files of one format: 1–2 mutations per case. */
async function fuzzFormat(format: Format, seed: number, numRuns: number): Promise<Tally> {
  const files = FILES[format];
  const tally = new Tally();
  const timeoutsBefore = occt.stats.timeouts;
  await fc.assert(
    fc.asyncProperty(
      fc.nat({ max: files.length - 1 }),
      fc.array(mutationArb(OTHERS.length, { cad: true }), { minLength: 1, maxLength: 2 }),
      (f, mutations) => fuzzOne(files[f], mutations, tally),
    ),
    // No shrinking: each step would be another OpenCascade read; the failing records are printed.
    { seed, numRuns, endOnFailure: true },
  );
  const stopped = occt.stats.timeouts - timeoutsBefore;
  console.log(`CAD fuzz ${format.toUpperCase()}: ${tally}; OpenCascade stopped at the time limit ${stopped} time(s)`);
  expect(tally.cases).toBe(numRuns);
  return tally;
}

describe('CAD fuzzing: mutated real STEP, IGES and BREP files through the OpenCascade worker', () => {
  it('STEP: dm1-id-214.stp and stp_multiple_shp_at_root.stp (seed 7101)', async () => {
    const tally = await fuzzFormat('step', 7101, 40);
    // Mutations that leave the file readable must exist, or the property says little.
    expect(tally.counts.get('ok') ?? 0).toBeGreaterThan(0);
  });

  it('IGES: sunglasses_lens.igs (seed 7102)', async () => {
    const tally = await fuzzFormat('iges', 7102, 30);
    expect(tally.counts.get('ok') ?? 0).toBeGreaterThan(0);
  });

  it('BREP: as1_pe_203.brep (seed 7103)', async () => {
    const tally = await fuzzFormat('brep', 7103, 40);
    expect(tally.counts.get('ok') ?? 0).toBeGreaterThan(0);
  });

  it('NaN, 1e300 and other hostile numbers in coordinates of every format (seed 7104)', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ALL),
        fc.array(fc.tuple(fraction(), fc.constantFrom(...HOSTILE_NUMBERS)), { minLength: 1, maxLength: 3 }),
        (rel, edits) => fuzzOne(rel, edits.map(([which, value]) => ({ kind: 'number' as const, which, value })), tally),
      ),
      { seed: 7104, numRuns: 20, endOnFailure: true },
    );
    console.log(`CAD fuzz hostile numbers: ${tally}`);
    expect(tally.cases).toBe(20);
  });
});

describe('CAD fuzzing: hostile section counts in BREP', () => {
  const brep = BYTES.get('cax-if-as1/as1_pe_203.brep') as Uint8Array;
  const text = Buffer.from(brep).toString('latin1');
  const SECTIONS = ['Locations', 'Curve2ds', 'Curves', 'Surfaces', 'Polygon3D', 'Triangulations'] as const;

  it('a count larger than the values of its section is refused before OpenCascade runs (seed 7105)', async () => {
    // OpenCascade reads once per declared entry, even past the end of the data: 'Locations
    // 2147483647' kept it busy for more than 8 minutes. Every such count is refused at once.
    const tally = new Tally();
    const readsBefore = occt.stats.reads;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SECTIONS),
        fc.oneof(fc.constantFrom(2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 99_999_999_999), fc.integer({ min: 5000, max: 2 ** 31 - 1 })),
        async (section, count) => {
          const input = new Uint8Array(Buffer.from(text.replace(new RegExp(`^${section} \\d+$`, 'm'), `${section} ${count}`), 'latin1'));
          const outcome = await checkImport(() => registry.import(input, 'counts.brep', { limits }), 'counts.brep', input.length, 1000);
          tally.add(outcome);
          expect(outcome).toEqual({ ok: false, code: 'unreadable-cad' });
        },
      ),
      { seed: 7105, numRuns: 40 },
    );
    expect(occt.stats.reads).toBe(readsBefore); // OpenCascade was never asked
    const err = await registry.import(new Uint8Array(Buffer.from(text.replace(/^Locations 27$/m, 'Locations 2147483647'), 'latin1')), 'counts.brep')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).message).toBe(
      "counts.brep: the BREP file is damaged: its 'Locations' section declares 2,147,483,647 entries but holds only 351 values",
    );
    console.log(`CAD fuzz BREP section counts: ${tally}`);
  });
});
