/**
 * `interfere check --timings`: the table of where a run's time went, and the launcher that starts
 * OpenCascade before the command line is loaded (the built dist/node/cli/interfere.cjs).
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseTimings, Timings, type TimingLine } from '../../../src-main/cli/timings.js';
import type { OcctWorkerStats } from '../../../src-main/services/occtWorker.js';
import { CUBE_STL, DATA, ROOT, ensureBuilt, run } from './cliSupport.js';
import { coldPhases } from '../../../bench/pipeline.js';

const AS1 = path.join(ROOT, 'assets/samples/as1-oc-214.stp');

function line(lines: TimingLine[], phase: string): TimingLine {
  const found = lines.find((l) => l.phase === phase);
  if (!found) throw new Error(`no '${phase}' line in ${JSON.stringify(lines)}`);
  return found;
}

describe('the timings table', () => {
  it('renders the phases of each input in order, and parses back', () => {
    const stats = { workersStarted: 1, adopted: 1, firstReadyAtMs: 400, lastInitMs: 350, readMs: 900 } as OcctWorkerStats;
    const clock = new Timings(() => stats);
    const row = clock.input({
      input: 'a b 2.stp', startMs: 300, openMs: 1000, occtReadMs: 900, refineOcctReadMs: 0, treesMs: 50, checkMs: 200,
      phaseMs: { broadPhase: 1, collide: 120, classify: 60 },
    });
    row.reportMs = 7;
    const text = clock.render(1600);
    const lines = parseTimings(`other output\n${text}\n`);
    expect(lines.map((l) => l.phase)).toEqual([
      'start-up and loading', 'OpenCascade ready', 'a b 2.stp', '  read and import', '  trees', '  check', '  report', 'done',
    ]);
    expect(line(lines, 'a b 2.stp')).toEqual({ phase: 'a b 2.stp', fromMs: 300, tookMs: 1257 });
    expect(line(lines, '  trees')).toEqual({ phase: '  trees', fromMs: 1300, tookMs: 50 });
    expect(line(lines, '  report')).toEqual({ phase: '  report', fromMs: 1550, tookMs: 7 });
    expect(line(lines, 'OpenCascade ready')).toEqual({ phase: 'OpenCascade ready', fromMs: 400, tookMs: null });
    expect(line(lines, 'done').fromMs).toBe(1600);
    expect(text).toContain("OpenCascade's reads 900");
    expect(text).toContain('the first started by the launcher');
    expect(text).toContain('pair tests 120, classification 60, other 19');
    expect(text).not.toContain("refinement's");
  });

  it("gives the pipeline benchmark each phase and the share of the wall time outside OpenCascade's reads", () => {
    const stats = { workersStarted: 2, adopted: 1, firstReadyAtMs: 400, lastInitMs: 350, readMs: 0 } as OcctWorkerStats;
    const clock = new Timings(() => stats);
    const phaseMs = { broadPhase: 1, collide: 20, classify: 10 };
    clock.input({ input: 'a.assembly.json', startMs: 200, openMs: 1000, occtReadMs: 1500, refineOcctReadMs: 0, treesMs: 100, checkMs: 100, phaseMs }).reportMs = 0;
    const text = clock.render(2000);
    const p = coldPhases(parseTimings(text), text);
    const { 'start-up and loading': startUp, ...rest } = p.phases;
    expect(startUp).toBeGreaterThan(0); // this process's own, as no launcher ran
    expect(rest).toEqual({ 'read and import': 1000, "OpenCascade's reads": 1500, trees: 100, check: 100, report: 0, wall: 2000 });
    // Two workers read 1,500 ms in all within a 1,000 ms phase: at most that phase is OpenCascade's.
    expect(p.nonOcctShare).toBeCloseTo(0.5, 9);
    // At most: the two workers' 1,500 ms as if they had overlapped fully (750 ms).
    expect(p.nonOcctShareMax).toBeCloseTo(1 - 750 / 2000, 9);
  });

  it("counts refinement's OpenCascade reads against the check they happened in", () => {
    const stats = { workersStarted: 1, adopted: 1, firstReadyAtMs: 400, lastInitMs: 350, readMs: 0 } as OcctWorkerStats;
    const clock = new Timings(() => stats);
    const phaseMs = { broadPhase: 1, collide: 20, classify: 10 };
    clock.input({ input: 'a.stp', startMs: 200, openMs: 1000, occtReadMs: 800, refineOcctReadMs: 2500, treesMs: 100, checkMs: 3000, phaseMs }).reportMs = 100;
    const text = clock.render(4500);
    expect(text).toContain("of the check, OpenCascade's reads 2500 (refinement's, in its workers, added up)");
    const p = coldPhases(parseTimings(text), text);
    expect(p.phases["OpenCascade's reads"]).toBe(800);
    expect(p.phases["refinement's OpenCascade reads"]).toBe(2500);
    expect(p.nonOcctShare).toBeCloseTo(1 - 3300 / 4500, 9);
    expect(p.nonOcctShareMax).toBe(p.nonOcctShare); // one worker: nothing overlapped
  });

  it('finds no lines in output without a table', () => {
    expect(parseTimings('nothing here')).toEqual([]);
  });
});

describe('interfere check --timings (built command line)', () => {
  beforeAll(() => ensureBuilt());

  it('times a STEP file phase by phase; OpenCascade was started by the launcher, before the program loaded', () => {
    const r = run(['check', AS1, '--quiet', '--no-progress', '--timings']);
    expect(r.status).toBe(0);
    const lines = parseTimings(r.stderr);
    const startUp = line(lines, 'node start-up');
    const loaded = line(lines, 'load the program');
    expect(loaded.fromMs).toBe(startUp.tookMs);
    const input = lines.find((l) => l.phase.endsWith('as1-oc-214.stp'))!;
    expect(input.fromMs!).toBeGreaterThanOrEqual(loaded.fromMs!);
    const phases = ['  read and import', '  trees', '  check', '  report'].map((p) => line(lines, p));
    // The phases follow one another and add up to the input's line (each rounded to 1 ms).
    expect(Math.abs(phases.reduce((n, p) => n + p.tookMs!, 0) - input.tookMs!)).toBeLessThanOrEqual(4);
    for (let k = 1; k < phases.length; k++) expect(Math.abs(phases[k].fromMs! - (phases[k - 1].fromMs! + phases[k - 1].tookMs!))).toBeLessThanOrEqual(2);
    expect(r.stderr).toMatch(/OpenCascade ready .*1 worker\(s\), the first started by the launcher/);
    expect(r.stderr).toMatch(/OpenCascade's reads \d+/);
  });

  it('starts no OpenCascade for an STL file', () => {
    const r = run(['check', CUBE_STL, '--quiet', '--no-progress', '--timings']);
    expect(r.status).toBe(0);
    const lines = parseTimings(r.stderr);
    expect(lines.some((l) => l.phase === 'OpenCascade ready')).toBe(false);
    expect(line(lines, '  read and import').tookMs).not.toBeNull();
  });

  it('looks into a saved assembly for CAD sources', () => {
    const r = run(['check', path.join(DATA, 'assemblies/as1-oc-214-asis.assembly.json'), '--quiet', '--no-progress', '--timings', '--refine', 'off']);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/the first started by the launcher/);
  });
});
