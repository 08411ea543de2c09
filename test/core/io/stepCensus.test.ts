/**
 * Bodies never go missing silently: the STEP census (src-core/io/stepCensus.ts) counts the solids a
 * file declares, the importer names those OpenCascade drops, and length units OpenCascade would
 * apply blindly are refused or warned about. The AS1 cases are edited copies of
 * test/data/cax-if-as1/as1-oc-214.stp made in memory; the DM1 ones are in test/fixtures/regressions.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { igesBodyEntities, igesGlobalParameters } from '../../../src-core/io/occt.js';
import { createDefaultRegistry } from '../../../src-core/io/registry.js';
import { formatFactor, missingBodyWarnings, stepCensus, unitVerdict } from '../../../src-core/io/stepCensus.js';
import type { StepCensus } from '../../../src-core/io/stepCensus.js';
import { ImportError } from '../../../src-core/io/types.js';
import { createOcctWorkerProvider } from '../../../src-main/services/occtWorker.js';

const DATA = path.resolve(process.cwd(), 'test/data');
const read = (rel: string): Uint8Array => new Uint8Array(readFileSync(path.join(DATA, rel)));
const AS1 = readFileSync(path.join(DATA, 'cax-if-as1/as1-oc-214.stp'), 'latin1');
const bytesOf = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));

/** AS1 with one edit (which must apply). */
function as1With(from: string, to: string): Uint8Array {
  expect(AS1).toContain(from);
  return bytesOf(AS1.replace(from, to));
}

/** AS1 with the nut's millimetre (#736) replaced by a conversion-based unit of `factor` mm. */
function as1NutUnit(factor: string): Uint8Array {
  return as1With(
    '#736 = ( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.) );',
    "#736 = ( CONVERSION_BASED_UNIT('HUGE',#97361) LENGTH_UNIT() NAMED_UNIT(#97362) );\n" +
    `#97361 = LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE(${factor}),#97363);\n` +
    '#97362 = DIMENSIONAL_EXPONENTS(1.,0.,0.,0.,0.,0.,0.);\n' +
    '#97363 = ( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.) );',
  );
}

function census(bytes: Uint8Array): StepCensus {
  const c = stepCensus(bytes);
  expect(c).not.toBeNull();
  return c as StepCensus;
}

describe('STEP census', () => {
  it('counts as many solids as OpenCascade meshes in every STEP file of test/data', () => {
    // OpenCascade's mesh counts for these files (AS1: 18, as the README's sample output says).
    const cases: [string, number][] = [
      ['cax-if-as1/as1-oc-214.stp', 18],
      ['cax-if-as1/as1_pe_203.stp', 18],
      ['cax-if-dm1/dm1-id-214.stp', 7],
      ['fits/balls-keys.step', 6],
      ['fits/pins-block.step', 6],
      ['endgame-trackball/SLA.step', 2],
      ['pythonocc-multi-root/stp_multiple_shp_at_root.stp', 3],
    ];
    for (const [file, meshes] of cases) expect(census(read(file)).expectedMeshes, file).toBe(meshes);
  });

  it('AS1: products, instances through the assembly tree, and millimetre units', () => {
    const c = census(read('cax-if-as1/as1-oc-214.stp'));
    expect(c.products.map((p) => `${p.name} ×${p.instances}: ${p.solids.map((s) => `${s.type} #${s.id}`).join(', ')}`)).toEqual([
      'nut ×8: MANIFOLD_SOLID_BREP #63',
      'rod ×1: MANIFOLD_SOLID_BREP #759',
      'bolt ×6: MANIFOLD_SOLID_BREP #1190',
      'l-bracket ×2: MANIFOLD_SOLID_BREP #1934',
      'plate ×1: MANIFOLD_SOLID_BREP #3813',
    ]);
    expect(c.lengthUnits.length).toBeGreaterThan(5);
    expect(c.lengthUnits.every((u) => u.mm === 1)).toBe(true);
    // AP203 in inches: a conversion-based unit of 25.4 mm.
    expect(census(read('cax-if-as1/as1_pe_203.stp')).lengthUnits.map((u) => [u.name, u.mm])).toContainEqual(['INCH', 25.4]);
  });

  it('names the product whose meshes are missing; falls back to the count when the names do not tell', () => {
    const c = census(read('cax-if-as1/as1-oc-214.stp'));
    const all = ['nut', 'nut', 'rod', 'bolt', 'nut', 'bolt', 'nut', 'bolt', 'nut', 'l-bracket', 'plate', 'bolt', 'nut', 'bolt', 'nut', 'bolt', 'nut', 'l-bracket'];
    expect(missingBodyWarnings(c, all)).toEqual([]);
    const [w] = missingBodyWarnings(c, all.filter((n) => n !== 'rod'));
    expect(w).toBe(
      'the file declares 18 solids (instances included) but OpenCascade made 17 bodies of them: 1 body missing: ' +
      "product 'rod' (MANIFOLD_SOLID_BREP #759; placed once) should give 1 body, OpenCascade made none (OpenCascade did not say why)",
    );
    const [unnamed] = missingBodyWarnings(c, all.slice(1).map(() => ''));
    expect(unnamed).toBe('the file declares 18 solids (instances included) but OpenCascade made 17 bodies of them: 1 body missing');
  });

  it('evaluates unit factors: positive and plausible, implausible, unusable', () => {
    expect(census(as1NutUnit('1.E+30')).lengthUnits.filter((u) => unitVerdict(u) !== 'ok').map((u) => [u.id, u.name, u.mm, unitVerdict(u)]))
      .toEqual([[736, 'HUGE', 1e30, 'implausible']]);
    expect(census(as1NutUnit('-1.')).lengthUnits.find((u) => u.id === 736)?.mm).toBe(-1);
    expect(unitVerdict(census(as1NutUnit('0.')).lengthUnits.find((u) => u.id === 736) ?? { id: 0, name: '', mm: 1, contexts: [] })).toBe('unusable');
    expect(formatFactor(2.54e31)).toBe('2.54e+31');
    expect(formatFactor(25.4)).toBe('25.4');
  });

  it('a file whose DATA section it cannot find gives no census', () => {
    expect(stepCensus(bytesOf('ISO-10303-21;\nHEADER;\nENDSEC;\nEND-ISO-10303-21;\n'))).toBeNull();
  });
});

describe('IGES Global section', () => {
  it('reads parameters 14 and 15 (unit flag and unit name) of the sunglasses lens', () => {
    const g = igesGlobalParameters(read('iges-sunglasses-lens/sunglasses_lens.igs'));
    expect(g.slice(0, 3)).toEqual(['', '', 'Studio 5']);
    expect(g[13]).toBe('1');
    expect(g[14]).toBe('IN');
  });

  it('counts the independent surfaces of the sunglasses lens: nine B-spline surfaces, as OpenCascade meshes', () => {
    const entities = igesBodyEntities(read('iges-sunglasses-lens/sunglasses_lens.igs'));
    expect(entities?.map((e) => `${e.type}@${e.de}`)).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17].map((de) => `128@${de}`));
  });
});

describe('STEP import through OpenCascade: missing bodies and units are named', () => {
  const occt = createOcctWorkerProvider({ log: () => undefined });
  const registry = createDefaultRegistry({ occt });
  afterAll(async () => {
    await occt.dispose();
  });

  it('AS1 whose rod refers to an entity the file does not define: 17 bodies, and a warning naming the rod, its solid and the entity', async () => {
    const r = await registry.import(as1With("#759 = MANIFOLD_SOLID_BREP('',#760);", "#759 = MANIFOLD_SOLID_BREP('',#99999);"), 'as1-no-rod.stp');
    expect(r.bodies).toHaveLength(17);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain('the file declares 18 solids (instances included) but OpenCascade made 17 bodies of them: 1 body missing');
    expect(r.warnings[0]).toContain("product 'rod' (MANIFOLD_SOLID_BREP #759; placed once) should give 1 body, OpenCascade made none " +
      '(MANIFOLD_SOLID_BREP #759 refers to #99999, which the file does not define)');
    expect(r.warnings[0]).toContain('Unresolved Reference');
  }, 60_000);

  it('AS1 whose nut is measured in a unit of 1e30 mm: 10 of 18 bodies, with the unit and the eight nuts named', async () => {
    const r = await registry.import(as1NutUnit('1.E+30'), 'as1-huge-nut.stp');
    expect(r.bodies).toHaveLength(10);
    expect(r.warnings[0]).toBe(
      "the STEP file's length unit #736 ('HUGE') is 1e+30 mm, not a plausible CAD unit (1 nm to 10 km): OpenCascade scales " +
      "the coordinates of the product 'nut' by it, which can make bodies vanish from the mesh",
    );
    expect(r.warnings[1]).toContain("product 'nut' (MANIFOLD_SOLID_BREP #63; placed 8 times) should give 8 bodies, OpenCascade made none " +
      "(its representation #62 measures lengths in length unit #736 ('HUGE'), 1e+30 mm)");
  }, 60_000);

  it('a negative unit factor is refused before OpenCascade mirrors the solids', async () => {
    const err = await registry.import(as1NutUnit('-1.'), 'as1-mirrored-nut.stp').then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).code).toBe('unreadable-cad');
    expect((err as ImportError).message).toBe(
      "as1-mirrored-nut.stp: the STEP file's length unit #736 ('HUGE') is -1 mm: a length unit must be a positive size, " +
      "and OpenCascade would mirror every solid measured in it (the product 'nut')",
    );
  });
});
