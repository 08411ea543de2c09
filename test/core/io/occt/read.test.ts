import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { maxChordErrorMm } from '../../../../src-core/io/occt/chord.js';
import type { OcctFormat } from '../../../../src-core/io/occt/provider.js';
import { createOcctImporter } from '../../../../src-core/io/occt/read.js';
import type { ImportResult, ImportedBody } from '../../../../src-core/io/types.js';
import { nodeOcctProvider } from '../../../../src-main/services/occtNode.js';
import type { OcctMesh } from 'occt-import-js';
import { DATA, expectRejects, read, registry, text } from './helpers.js';

// ---------------------------------------------------------------------------------------------
// Files and helpers

const imported = new Map<string, Promise<ImportResult>>();

/** Each file is read once per test file (several tests look at the same result). */
function load(rel: string): Promise<ImportResult> {
  let p = imported.get(rel);
  if (p === undefined) {
    p = registry.import(read(rel), path.basename(rel));
    imported.set(rel, p);
  }
  return p;
}

function bboxOf(body: ImportedBody): number[] {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let t = 0; t < 3 * body.triangleCount; t++) {
    const v = body.indices[t];
    for (let a = 0; a < 3; a++) {
      const x = body.positions[3 * v + a];
      if (x < min[a]) min[a] = x;
      if (x > max[a]) max[a] = x;
    }
  }
  return [...min, ...max];
}

/** Signed volume by the divergence theorem (double precision). */
function signedVolume(body: ImportedBody): number {
  const P = body.positions;
  let six = 0;
  for (let t = 0; t < body.triangleCount; t++) {
    const a = 3 * body.indices[3 * t], b = 3 * body.indices[3 * t + 1], c = 3 * body.indices[3 * t + 2];
    six += P[a] * (P[b + 1] * P[c + 2] - P[b + 2] * P[c + 1])
      - P[a + 1] * (P[b] * P[c + 2] - P[b + 2] * P[c])
      + P[a + 2] * (P[b] * P[c + 1] - P[b + 1] * P[c]);
  }
  return six / 6;
}

/**
 * Undirected edges used by exactly one triangle (welded topology). An edge from a vertex to itself
 * (a degenerate triangle whose corners weld together) is no edge.
 */
function boundaryEdges(body: ImportedBody): number {
  const uses = new Map<number, number>();
  const n = body.positions.length / 3;
  for (let t = 0; t < body.triangleCount; t++) {
    for (let k = 0; k < 3; k++) {
      const a = body.indices[3 * t + k], b = body.indices[3 * t + ((k + 1) % 3)];
      if (a === b) continue;
      const key = Math.min(a, b) * n + Math.max(a, b);
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  let open = 0;
  for (const u of uses.values()) if (u === 1) open++;
  return open;
}

function expectFaceRangesTile(body: ImportedBody): void {
  const f = body.faceRanges;
  expect(f).not.toBeNull();
  let next = 0;
  for (let i = 0; i < f!.length; i += 2) {
    expect(f![i]).toBe(next);
    expect(f![i + 1]).toBeGreaterThanOrEqual(f![i]);
    next = f![i + 1] + 1;
  }
  expect(next).toBe(body.triangleCount);
}

interface TruthPart {
  id: string;
  source: string;
  body: number;
  triangles: number;
  bboxMm: number[];
  maxChordErrorMm: number;
  mesh: { boundaryEdges: number; signedVolumeMm3: number };
}

interface Truth {
  totals: { triangles: number };
  parts: TruthPart[];
  mapping: { source: string; rows: { body: number; meshFaces: number }[] }[];
}

interface Assembly {
  sources: { id: string; path: string }[];
}

function truthOf(name: string): { truth: Truth; sources: Map<string, string> } {
  const truth = JSON.parse(readFileSync(path.join(DATA, 'truth', `${name}.truth.json`), 'utf8')) as Truth;
  const assembly = JSON.parse(readFileSync(path.join(DATA, 'assemblies', `${name}.assembly.json`), 'utf8')) as Assembly;
  const sources = new Map(assembly.sources.map((s) => [s.id, path.relative(DATA, path.resolve(DATA, 'assemblies', s.path))]));
  return { truth, sources };
}

// ---------------------------------------------------------------------------------------------
// Every CAD file of the shared data

interface Expected {
  file: string;
  format: OcctFormat;
  bodies: number;
  triangles: number;
  names?: readonly string[];
  colors: boolean;
}

const EXPECTED: readonly Expected[] = [
  { file: 'cax-if-as1/as1-oc-214.stp', format: 'step', bodies: 18, triangles: 5040, colors: true,
    names: ['nut', 'nut', 'rod', 'bolt', 'nut', 'bolt', 'nut', 'bolt', 'nut', 'l-bracket', 'plate', 'bolt', 'nut', 'bolt', 'nut', 'bolt', 'nut', 'l-bracket'] },
  { file: 'cax-if-as1/as1_pe_203.stp', format: 'step', bodies: 18, triangles: 3848, colors: true, names: Array<string>(18).fill('SOLID') },
  { file: 'cax-if-as1/as1_pe_203.brep', format: 'brep', bodies: 18, triangles: 3848, colors: false, names: Array<string>(18).fill('') },
  { file: 'cax-if-dm1/dm1-id-214.stp', format: 'step', bodies: 7, triangles: 1576, colors: true,
    names: ['l-bracket', 'bolt', 'bolt', 'bolt', 'nut', 'nut', 'nut'] },
  { file: 'pythonocc-multi-root/stp_multiple_shp_at_root.stp', format: 'step', bodies: 3, triangles: 2476, colors: true, names: ['Part 3', 'Part 2', 'Part 1'] },
  { file: 'occt-motor-brep/Motor-c.brep', format: 'brep', bodies: 17, triangles: 13052, colors: false },
  { file: 'iges-sunglasses-lens/sunglasses_lens.igs', format: 'iges', bodies: 9, triangles: 7136, colors: false, names: Array<string>(9).fill('') },
  { file: 'endgame-trackball/SLA.step', format: 'step', bodies: 2, triangles: 14356, colors: true, names: ['Hex guide', 'Wheel (hex shaft)'] },
  { file: 'endgame-trackball/FDM_bottom.step', format: 'step', bodies: 1, triangles: 35019, colors: true },
  { file: 'endgame-trackball/FDM_shell.step', format: 'step', bodies: 1, triangles: 23848, colors: true },
];

describe('occt: every CAD file', () => {
  for (const e of EXPECTED) {
    it(`${e.file}: ${e.bodies} bodies, ${e.triangles} triangles, welded, faces tile, chord errors`, async () => {
      const r = await load(e.file);
      expect(r.format).toBe(e.format);
      expect(r.warnings).toEqual([]);
      expect(r.bodies.length).toBe(e.bodies);
      expect(r.bodies.reduce((a, b) => a + b.triangleCount, 0)).toBe(e.triangles);
      if (e.names) expect(r.bodies.map((b) => b.name)).toEqual(e.names);
      for (const b of r.bodies) {
        expect(b.triangleCount).toBeGreaterThan(0);
        expect(b.indices.length).toBe(3 * b.triangleCount);
        expect(b.positions.every(Number.isFinite)).toBe(true);
        // Welded: no two vertices are equal.
        const keys = new Set<string>();
        for (let v = 0; v < b.positions.length / 3; v++) keys.add(`${b.positions[3 * v]},${b.positions[3 * v + 1]},${b.positions[3 * v + 2]}`);
        expect(keys.size).toBe(b.positions.length / 3);
        expectFaceRangesTile(b);
        expect(b.chordErrorMm).toBeInstanceOf(Float32Array);
        expect(b.chordErrorMm!.length).toBe(b.triangleCount);
        expect(b.chordErrorMm!.every((x) => Number.isFinite(x) && x >= 0)).toBe(true);
        if (e.colors) {
          expect(b.color).not.toBeNull();
          expect(b.color!.every((c) => c >= 0 && c <= 1)).toBe(true);
        } else {
          expect(b.color).toBeNull();
        }
      }
    }, 60_000);
  }

  it('AS1: 5,260 occt vertices weld to 2,512, triangles keep occt order exactly', async () => {
    const r = await load('cax-if-as1/as1-oc-214.stp');
    expect(r.bodies.reduce((a, b) => a + b.positions.length / 3, 0)).toBe(2512);
    const raw = (await nodeOcctProvider()).ReadStepFile(read('cax-if-as1/as1-oc-214.stp'), null);
    const meshes = raw.meshes as OcctMesh[];
    expect(meshes.reduce((a, m) => a + m.attributes.position.array.length / 3, 0)).toBe(5260);
    meshes.forEach((m, i) => {
      const body = r.bodies[i];
      const P = m.attributes.position.array, I = m.index.array;
      expect(body.triangleCount).toBe(I.length / 3);
      for (let k = 0; k < I.length; k++) {
        for (let a = 0; a < 3; a++) expect(body.positions[3 * body.indices[k] + a]).toBe(P[3 * I[k] + a] + 0);
      }
      expect(Array.from(body.faceRanges!)).toEqual(m.brep_faces.flatMap((f) => [f.first, f.last]));
    });
  });

  it('units: AP203 declaring inches comes out ×25.4, the BREP of it matches, IGES inches become mm', async () => {
    const oc = await load('cax-if-as1/as1-oc-214.stp');
    const pe = await load('cax-if-as1/as1_pe_203.stp');
    const brep = await load('cax-if-as1/as1_pe_203.brep');
    const extent = (b: ImportedBody): number[] => {
      const bb = bboxOf(b);
      return [bb[3] - bb[0], bb[4] - bb[1], bb[5] - bb[2]].sort((x, y) => x - y);
    };
    // The plate: 180 × 150 × 20 mm in the AP214 file; the AP203 file's numbers are the same but in inches.
    const plate = oc.bodies[oc.bodies.findIndex((b) => b.name === 'plate')];
    expect(extent(plate)).toEqual([20, 150, 180]);
    const pePlate = extent(pe.bodies[0]);
    [20, 150, 180].forEach((mm, k) => expect(pePlate[k]).toBeCloseTo(mm * 25.4, 6));
    // BREP (no unit) = the AP203 file converted: same vertices up to rounding.
    pe.bodies.forEach((b, i) => {
      const c = brep.bodies[i];
      expect(c.triangleCount).toBe(b.triangleCount);
      expect(c.positions.length).toBe(b.positions.length);
      for (let k = 0; k < b.positions.length; k++) expect(Math.abs(c.positions[k] - b.positions[k])).toBeLessThan(1e-9);
    });
    // IGES global section: unit INCH, largest coordinate 14.013402809308 in = 355.94 mm.
    const lens = await load('iges-sunglasses-lens/sunglasses_lens.igs');
    const maxAbs = Math.max(...lens.bodies.map((b) => Math.max(...bboxOf(b).map(Math.abs))));
    expect(maxAbs / 25.4).toBeCloseTo(14.0134, 2);
  });

  it('colours: the mesh colour, else the colour all faces share (multi-root file colours faces only)', async () => {
    const as1 = await load('cax-if-as1/as1-oc-214.stp');
    expect(as1.bodies[0].color).toEqual([1, 0, 0]);
    const multi = await load('pythonocc-multi-root/stp_multiple_shp_at_root.stp');
    expect(multi.bodies.map((b) => b.color![0].toFixed(4))).toEqual(['0.0110', '0.2789', '0.7231']);
  });
});

// ---------------------------------------------------------------------------------------------
// The truth: same triangles, same boxes, chord errors of the same order

describe('occt: against the truth files', () => {
  for (const [name, total] of [['as1-oc-214-asis', 5040], ['dm1-id-214-asis', 1576], ['motor-c-asis', 13052], ['trackball-asis', 73223]] as const) {
    it(`${name}: ${total} triangles, per-part counts, boxes, faces, topology and chord errors`, async () => {
      const { truth, sources } = truthOf(name);
      expect(truth.totals.triangles).toBe(total);
      let sum = 0;
      const ratios: number[] = [];
      for (const part of truth.parts) {
        const rel = sources.get(part.source)!;
        const body = (await load(rel)).bodies[part.body];
        expect(body.triangleCount, part.id).toBe(part.triangles);
        sum += body.triangleCount;
        bboxOf(body).forEach((x, k) => expect(Math.abs(x - part.bboxMm[k]), `${part.id} bbox[${k}]`).toBeLessThan(1e-6));
        expect(boundaryEdges(body), part.id).toBe(part.mesh.boundaryEdges);
        const vol = signedVolume(body);
        expect(Math.abs(vol - part.mesh.signedVolumeMm3), part.id).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(vol)));
        const row = truth.mapping.find((m) => path.basename(m.source) === path.basename(rel))!.rows.find((r) => r.body === part.body)!;
        expect(body.faceRanges!.length / 2, part.id).toBe(row.meshFaces);
        const est = maxChordErrorMm(body)!;
        if (part.maxChordErrorMm < 1e-6) {
          expect(est, part.id).toBeLessThan(1e-6); // planar only
        } else {
          const ratio = est / part.maxChordErrorMm;
          ratios.push(ratio);
          expect(ratio, `${part.id}: estimate ${est} vs measured ${part.maxChordErrorMm}`).toBeGreaterThan(0.5);
          expect(ratio, `${part.id}: estimate ${est} vs measured ${part.maxChordErrorMm}`).toBeLessThan(2.5);
        }
      }
      expect(sum).toBe(total);
      // Not systematically low: most parts are estimated at or above the measured error.
      expect(ratios.filter((r) => r >= 1).length).toBeGreaterThanOrEqual(ratios.length * 0.75);
    }, 60_000);
  }
});

// ---------------------------------------------------------------------------------------------
// Broken inputs through the real OpenCascade

const NO_BODIES_STEP = `ISO-10303-21;
HEADER;
FILE_DESCRIPTION((''),'2;1');
FILE_NAME('empty part','2024-01-01T00:00:00',(''),(''),'','','');
FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'));
ENDSEC;
DATA;
#1=APPLICATION_CONTEXT('automotive design');
#2=APPLICATION_PROTOCOL_DEFINITION('international standard','automotive_design',2000,#1);
#3=PRODUCT_CONTEXT('',#1,'mechanical');
#4=PRODUCT('part','part','',(#3));
#5=PRODUCT_DEFINITION_FORMATION('','',#4);
#6=PRODUCT_DEFINITION_CONTEXT('part definition',#1,'design');
#7=PRODUCT_DEFINITION('design','',#5,#6);
#8=PRODUCT_DEFINITION_SHAPE('','',#7);
#9=CARTESIAN_POINT('',(0.,0.,0.));
#10=DIRECTION('',(0.,0.,1.));
#11=DIRECTION('',(1.,0.,0.));
#12=AXIS2_PLACEMENT_3D('',#9,#10,#11);
#13=(GEOMETRIC_REPRESENTATION_CONTEXT(3) GLOBAL_UNCERTAINTY_ASSIGNED_CONTEXT((#17)) GLOBAL_UNIT_ASSIGNED_CONTEXT((#14,#15,#16)) REPRESENTATION_CONTEXT('',''));
#14=(LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.));
#15=(NAMED_UNIT(*) PLANE_ANGLE_UNIT() SI_UNIT($,.RADIAN.));
#16=(NAMED_UNIT(*) SI_UNIT($,.STERADIAN.) SOLID_ANGLE_UNIT());
#17=UNCERTAINTY_MEASURE_WITH_UNIT(LENGTH_MEASURE(1.E-07),#14,'distance_accuracy_value','');
#18=SHAPE_REPRESENTATION('',(#12),#13);
#19=SHAPE_DEFINITION_REPRESENTATION(#8,#18);
ENDSEC;
END-ISO-10303-21;
`;

function pseudoRandomBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

describe('occt: broken inputs', () => {
  const step = createOcctImporter('step', nodeOcctProvider);
  const iges = createOcctImporter('iges', nodeOcctProvider);
  const brep = createOcctImporter('brep', nodeOcctProvider);

  it('a STEP file cut in half is truncated (OpenCascade says where it stopped)', async () => {
    const whole = read('cax-if-as1/as1-oc-214.stp');
    const err = await expectRejects(registry.import(whole.subarray(0, whole.length >> 1), 'half.stp'), 'truncated', 'half.stp');
    expect(err.message).toContain("does not end with 'END-ISO-10303-21;'");
    expect(err.message).toMatch(/OpenCascade: .*Line \d+/);
  });

  it('random bytes after a STEP header: OpenCascade cannot read it', async () => {
    const head = text('ISO-10303-21;\n');
    const bytes = new Uint8Array(head.length + 5000);
    bytes.set(head);
    bytes.set(pseudoRandomBytes(5000, 7), head.length);
    const err = await expectRejects(registry.import(bytes, 'noise.stp'), 'unreadable-cad', 'noise.stp');
    expect(err.message).toContain('OpenCascade could not read this STEP file; the file contains binary data');
  });

  it('a STEP header without data: OpenCascade gives up, its messages are in ours', async () => {
    const bytes = text('ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n');
    const err = await expectRejects(registry.import(bytes, 'hollow.step'), 'unreadable-cad', 'hollow.step');
    expect(err.message).toMatch(/^hollow\.step: OpenCascade could not read this STEP file \(OpenCascade: .+\)$/);
  });

  it('a STEP that OpenCascade reads without finding any shape: no-bodies, mentioning external references', async () => {
    const err = await expectRejects(registry.import(text(NO_BODIES_STEP), 'assembly.stp'), 'no-bodies', 'assembly.stp');
    expect(err.message).toContain('external references');
  });

  it('empty and blank files', async () => {
    for (const imp of [step, iges, brep]) {
      await expectRejects(imp.import(new Uint8Array(0), 'empty.cad'), 'empty-file', 'empty.cad');
      await expectRejects(imp.import(text(' \n\t\n'), 'blank.cad'), 'empty-file', 'blank.cad');
    }
    await expectRejects(registry.import(new Uint8Array(0), 'empty.step'), 'empty-file', 'empty.step');
  });

  it('a non-CAD file given to a CAD importer directly says what it is', async () => {
    const stl = read('stl-models/polytopes/cube.ascii.stl');
    const e1 = await expectRejects(step.import(stl, 'cube.stl'), 'unreadable-cad', 'cube.stl');
    expect(e1.message).toBe("cube.stl: not a STEP file: it does not begin with 'ISO-10303-21;'");
    const e2 = await expectRejects(iges.import(stl, 'cube.stl'), 'unreadable-cad', 'cube.stl');
    expect(e2.message).toContain('not an IGES file');
    const png = new Uint8Array(300);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const e3 = await expectRejects(brep.import(png, 'photo.brep'), 'unreadable-cad', 'photo.brep');
    expect(e3.message).toBe('photo.brep: not a BREP file: it looks like a PNG image');
    // A STEP file given to the BREP importer.
    const e4 = await expectRejects(brep.import(read('cax-if-dm1/dm1-id-214.stp'), 'dm1.brep'), 'unreadable-cad', 'dm1.brep');
    expect(e4.message).toContain('it looks like a STEP file');
  });

  it('an IGES file cut short is truncated, whether its Terminate record is missing or its sections are short', async () => {
    const whole = read('iges-sunglasses-lens/sunglasses_lens.igs');
    const half = await expectRejects(registry.import(whole.subarray(0, whole.length >> 1), 'lens.igs'), 'truncated', 'lens.igs');
    expect(half.message).toContain("does not end with its Terminate ('T') record");
    // Remove 100 parameter lines from the middle, keep the Terminate record.
    const lines = new TextDecoder('latin1').decode(whole).split('\n');
    const cut = [...lines.slice(0, 1000), ...lines.slice(1100)].join('\n');
    const short = await expectRejects(iges.import(text(cut), 'lens.igs'), 'truncated', 'lens.igs');
    expect(short.message).toContain('declares 18 directory-entry lines and 1,908 parameter-data lines');
    expect(short.message).toContain('1,808 parameter-data lines');
  });

  it('a BREP file cut anywhere is truncated, without waiting for OpenCascade (which would loop forever)', async () => {
    const whole = read('cax-if-as1/as1_pe_203.brep');
    for (const fraction of [0.1, 0.5, 0.9, 0.999]) {
      const err = await expectRejects(brep.import(whole.subarray(0, Math.floor(whole.length * fraction)), 'as1.brep'), 'truncated', 'as1.brep');
      expect(err.message).toMatch(/BREP file is truncated/);
    }
    const text2 = new TextDecoder('latin1').decode(whole).trimEnd();
    const noRoot = text2.slice(0, text2.lastIndexOf('\n'));
    await expectRejects(brep.import(text(noRoot), 'as1.brep'), 'truncated', 'as1.brep');
  });

  it('cancelled before reading', async () => {
    await expectRejects(step.import(read('cax-if-dm1/dm1-id-214.stp'), 'dm1.stp', { signal: { aborted: true } }), 'aborted', 'dm1.stp');
  });

  it('too many triangles', async () => {
    const err = await expectRejects(step.import(read('cax-if-dm1/dm1-id-214.stp'), 'dm1.stp', { maxTriangles: 1000 }), 'too-large', 'dm1.stp');
    expect(err.message).toBe('dm1.stp: the file has 1,576 triangles; at most 1,000 are allowed');
  });
});
