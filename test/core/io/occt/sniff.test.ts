import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { detectOcctFormat, forEachIgesRecord, igesLetter, sniffBrep, sniffIges, sniffStep } from '../../../../src-core/io/occt/sniff.js';
import type { OcctFormat } from '../../../../src-core/io/occt/provider.js';
import { createDefaultRegistry, CONFIDENT } from '../../../../src-core/io/registry.js';
import { stlImporter } from '../../../../src-core/io/stl.js';
import { read, registry, text } from './helpers.js';

// ---------------------------------------------------------------------------------------------
// Detection

const CAD_FILES: readonly [string, OcctFormat][] = [
  ['cax-if-as1/as1-oc-214.stp', 'step'],
  ['cax-if-as1/as1_pe_203.stp', 'step'],
  ['cax-if-as1/as1_pe_203.brep', 'brep'],
  ['cax-if-dm1/dm1-id-214.stp', 'step'],
  ['pythonocc-multi-root/stp_multiple_shp_at_root.stp', 'step'],
  ['occt-motor-brep/Motor-c.brep', 'brep'],
  ['iges-sunglasses-lens/sunglasses_lens.igs', 'iges'],
  ['endgame-trackball/SLA.step', 'step'],
  ['endgame-trackball/FDM_bottom.step', 'step'],
  ['endgame-trackball/FDM_shell.step', 'step'],
];

const SNIFF = { step: sniffStep, iges: sniffIges, brep: sniffBrep } as const;

describe('occt: detection by content', () => {
  it('every CAD file is recognised as its format and no other; STL does not claim it', () => {
    for (const [file, format] of CAD_FILES) {
      const bytes = read(file);
      for (const f of ['step', 'iges', 'brep'] as const) {
        if (f === format) expect(SNIFF[f](bytes), file).toBeGreaterThanOrEqual(CONFIDENT);
        else expect(SNIFF[f](bytes), `${file} as ${f}`).toBe(0);
      }
      expect(detectOcctFormat(bytes)).toBe(format);
      expect(stlImporter.sniff(bytes)).toBe(0);
      expect(registry.detect(bytes, 'misleading.stl')?.importer.id, file).toBe(format);
    }
  });

  it('STL files are not claimed by the CAD importers', () => {
    for (const file of ['stl-models/polytopes/cube.ascii.stl', 'stl-models/polytopes/cube.bin.stl', 'stl-models/objects/gearwheel.bin.stl']) {
      const bytes = read(file);
      expect([sniffStep(bytes), sniffIges(bytes), sniffBrep(bytes)]).toEqual([0, 0, 0]);
      expect(registry.detect(bytes, 'cube.step')?.importer.id).toBe('stl');
    }
  });

  it('STEP: after a BOM, blanks or a comment; damaged headers get a low claim', () => {
    expect(sniffStep(text('\xef\xbb\xbf  \r\nISO-10303-21;\nHEADER;'))).toBe(0.95);
    expect(sniffStep(text('/* written by us */\nISO-10303-21 ;\n'))).toBe(0.95);
    expect(sniffStep(text('ISO-10303-21\nHEADER;'))).toBe(0.7);
    expect(sniffStep(text('garbage\nISO-10303-21;\nHEADER;'))).toBe(0.3);
    expect(sniffStep(text("HEADER;\nFILE_SCHEMA(('AP214'));\n"))).toBe(0.3);
    expect(sniffStep(text('ISO-10303-28'))).toBe(0);
    expect(sniffStep(new Uint8Array(0))).toBe(0);
  });

  it('IGES: Start then Global records, with CR LF or as fixed 80-column records without line breaks', () => {
    const lines = new TextDecoder('latin1').decode(read('iges-sunglasses-lens/sunglasses_lens.igs')).split('\n').filter((l) => l !== '');
    expect(sniffIges(text(lines.join('\r\n')))).toBe(0.95);
    expect(sniffIges(text(lines.join('')))).toBe(0.95);
    expect(sniffIges(text(lines[0] + '\n'))).toBe(0.6);
    expect(sniffIges(text('junk\n' + lines.slice(1, 6).join('\n')))).toBe(0.3); // records, but no Start line first
    expect(sniffIges(text('S'.padStart(73) + '      x\n'))).toBe(0);
  });

  it('BREP: the two header forms, after blanks', () => {
    expect(sniffBrep(text('DBRep_DrawableShape\n\nCASCADE Topology V1, (c) Matra-Datavision\n'))).toBe(0.95);
    expect(sniffBrep(text('\n\nCASCADE Topology V3, (c) Open Cascade\n'))).toBe(0.95);
    expect(sniffBrep(text('# note\nCASCADE Topology V1\n'))).toBe(0.3);
    expect(sniffBrep(text('CASCADE'))).toBe(0);
  });

  it('a damaged STEP named .stp goes to the STEP importer (the extension breaks the tie)', () => {
    const bytes = text('garbage\nISO-10303-21;\nHEADER;\nENDSEC;\n');
    expect(registry.detect(bytes, 'part.stp')?.importer.id).toBe('step');
    expect(registry.detect(bytes, 'part.txt')).toBeNull();
  });

  it('the registry lists every extension once the provider is given', () => {
    expect(registry.importers.map((i) => i.id)).toEqual(['stl', 'step', 'iges', 'brep']);
    expect(registry.extensions()).toEqual(['stl', 'step', 'stp', 'p21', 'iges', 'igs', 'brep', 'brp']);
    expect(createDefaultRegistry().importers.map((i) => i.id)).toEqual(['stl']);
  });

  it('IGES: the score equals walking every record from the first, on IGES records, their fragments and binary noise (seed 20261207)', () => {
    // The sniffer as it read before it looked at the first record's column 73 first.
    const walked = (bytes: Uint8Array): number => {
      let index = 0, score = 0;
      forEachIgesRecord(bytes, (start, end) => {
        const letter = igesLetter(bytes, start, end);
        if (index++ === 0) {
          if (letter !== 'S') return false;
          score = 0.6;
          return true;
        }
        if (letter === 'S' && index < 1000) return true;
        if (letter === 'G') score = 0.95;
        return false;
      });
      return score;
    };
    const lens = read('iges-sunglasses-lens/sunglasses_lens.igs');
    const record = (letter: string, n: number): string => `${'x'.repeat(72)}${letter}${String(n).padStart(7)}`;
    const piece = fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc.constantFrom(...['S', 'G', 'D', 'P', 'T', ' '].map((l) => text(record(l, 1)))),
      fc.constantFrom(text('\n'), text('\r\n'), text('\r'), Uint8Array.of(0xef, 0xbb, 0xbf)),
      fc.nat({ max: 4000 }).map((k) => lens.subarray(k, k + 300)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const bytes = new Uint8Array(pieces.reduce((s, p) => s + p.length, 0));
        let at = 0;
        for (const p of pieces) { bytes.set(p, at); at += p.length; }
        const score = sniffIges(bytes);
        if (walked(bytes) > 0) expect(score).toBe(walked(bytes));
        else expect([0, 0.3]).toContain(score);
      }),
      { seed: 20261207, numRuns: 2000 },
    );
    expect(sniffIges(lens)).toBe(walked(lens));
  });
});
