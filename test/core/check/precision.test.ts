// Placements too far from the origin for the check's precision: a warning naming each part, in
// the check result and in the command line's output; none for ordinary placements.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMesh } from '../../../src-core/geometry/mesh';
import { buildObbTree } from '../../../src-core/obbtree/build';
import { runCheck } from '../../../src-core/check/check';
import { PLACEMENT_ROUNDING, precisionWarnings } from '../../../src-core/check/precision';
import type { CheckPart } from '../../../src-core/check/types';

/** A closed unit-ish box of side 10 at the origin, placed at x = `tx`. */
function boxPart(id: string, tx: number): CheckPart {
  const positions = Float64Array.of(0, 0, 0, 10, 0, 0, 10, 10, 0, 0, 10, 0, 0, 0, 10, 10, 0, 10, 10, 10, 10, 0, 10, 10);
  const indices = Uint32Array.of(0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 3, 7, 6, 3, 6, 2, 0, 4, 7, 0, 7, 3, 1, 2, 6, 1, 6, 5);
  const mesh = createMesh(positions, indices);
  return { id, name: id, mesh, tree: buildObbTree(mesh), transform: [1, 0, 0, tx, 0, 1, 0, 0, 0, 0, 1, 0], chordErrorMm: null };
}

async function warningsAt(tx: number, touchToleranceMm: number | null = null): Promise<readonly string[]> {
  const result = await runCheck(
    { parts: [boxPart('near', tx), boxPart('far', tx + 5)], settings: { touchToleranceMm, clearanceMm: 0, contactIsInterference: false }, ignore: [] },
    { manifold: null },
  );
  return result.warnings;
}

describe('coordinates too large for the precision of the check', () => {
  it('warns for each part placed 1e16 mm away, naming it, the rounding and the tolerance', async () => {
    const w = await warningsAt(1e16);
    expect(w).toHaveLength(2);
    expect(w[0]).toBe("part 'near' reaches 1.0e+16 mm from the origin once placed, where its placed vertices are rounded by up to 71 mm, " +
      'more than the touch tolerance of 0.01 mm: its contacts, depths and volumes are decided by rounding, not by its geometry; ' +
      'place the assembly nearer the origin (within 1.4e+12 mm)');
    expect(w[1]).toMatch(/^part 'far' reaches 1\.0e\+16 mm/);
  });

  it('the bound is the touch tolerance over 2^-47 (at least 0.01 mm): none below it, a warning above', async () => {
    expect(PLACEMENT_ROUNDING).toBe(2 ** -47);
    expect(await warningsAt(0)).toEqual([]);
    expect(await warningsAt(1e6)).toEqual([]);
    expect(await warningsAt(1.4e12 - 20)).toEqual([]);
    expect(await warningsAt(1.41e12)).toHaveLength(2);
    // A larger tolerance moves the bound out; a smaller one than 0.01 mm does not move it in.
    expect(await warningsAt(1e13, 1)).toEqual([]);
    expect(await warningsAt(1e15, 1)).toHaveLength(2);
    expect(await warningsAt(1e12, 0)).toEqual([]);
  });

  it('names five parts and counts the rest', () => {
    const parts = Array.from({ length: 7 }, (_, k) => ({ id: `p${k}`, bounds: [-1e17, 0, 0, 0, 1, 1] }));
    const w = precisionWarnings(parts, 0.01);
    expect(w).toHaveLength(6);
    expect(w[5]).toBe('2 more part(s) reach as far from the origin, with the same loss of precision');
  });

  it('interfere check prints the warning', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'interfere-precision-'));
    const cube = path.resolve('test/data/stl-models/polytopes/cube.bin.stl');
    const file = path.join(dir, 'far.assembly.json');
    writeFileSync(file, JSON.stringify({
      format: 'interfere-assembly', version: 1, sources: [{ id: 'cube', path: cube }],
      parts: [
        { id: 'a', source: 'cube', transform: [1, 0, 0, 1e16, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] },
        { id: 'b', source: 'cube', transform: [1, 0, 0, 1e16, 0, 1, 0, 0.5, 0, 0, 1, 0, 0, 0, 0, 1] },
      ],
    }));
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src-main/cli/interfere.ts', 'check', file, '--jobs', '1'], { encoding: 'utf8', timeout: 120_000 });
    expect(r.stdout).toMatch(/\n {2}warning: part 'a' reaches 1\.0e\+16 mm from the origin once placed, where its placed vertices are rounded by up to 71 mm/);
    expect(r.stdout).toMatch(/\n {2}warning: part 'b' reaches 1\.0e\+16 mm/);
  }, 120_000);
});
