// Interference volumes in a worker thread (src-main/services/volumeWorker.ts) against the same
// computation in this thread: the check's results must not depend on where its booleans ran.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { createMesh, type TriangleMesh } from '../../../src-core/geometry/mesh';
import { buildObbTree } from '../../../src-core/obbtree/build';
import { runCheck } from '../../../src-core/check/check';
import { OverlapEngine, overlapFigures } from '../../../src-core/check/volume';
import type { CheckPart } from '../../../src-core/check/types';
import { parseRigid } from '../../../src-core/geometry/rigid';
import { loadManifold } from '../../../src-main/services/manifoldNode';
import { openVolumeSession, stopVolumeWorker, workerVolumes } from '../../../src-main/services/volumeWorker';

/** A closed UV sphere of radius r about c: `n` sectors, n/2 stacks. */
function sphere(r: number, n: number, c: readonly [number, number, number]): TriangleMesh {
  const p: number[] = [c[0], c[1], c[2] + r, c[0], c[1], c[2] - r];
  const stacks = n / 2;
  for (let i = 1; i < stacks; i++) {
    const th = (Math.PI * i) / stacks;
    for (let j = 0; j < n; j++) {
      const ph = (2 * Math.PI * j) / n;
      p.push(c[0] + r * Math.sin(th) * Math.cos(ph), c[1] + r * Math.sin(th) * Math.sin(ph), c[2] + r * Math.cos(th));
    }
  }
  const v = (i: number, j: number): number => 2 + (i - 1) * n + (j % n);
  const t: number[] = [];
  for (let j = 0; j < n; j++) {
    t.push(0, v(1, j), v(1, j + 1));
    t.push(1, v(stacks - 1, j + 1), v(stacks - 1, j));
    for (let i = 1; i + 1 < stacks; i++) t.push(v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j), v(i + 1, j + 1), v(i, j + 1));
  }
  return createMesh(Float64Array.from(p), Uint32Array.from(t));
}

const CENTRE = [300, -200, 50] as const;

/** Row-major 3×4: a rotation about the z axis through CENTRE by `turn` radians, then a shift. */
function placement(turn: number, dx: number, dy: number, dz: number): number[] {
  const c = Math.cos(turn), s = Math.sin(turn), [x, y] = CENTRE;
  return [c, -s, 0, x - (c * x - s * y) + dx, s, c, 0, y - (s * x + c * y) + dy, 0, 0, 1, dz];
}

const ball = sphere(10, 24, CENTRE);
const small = sphere(4, 16, CENTRE);
const trees = new Map([[ball, buildObbTree(ball)], [small, buildObbTree(small)]]);

describe('volumes in a worker thread', () => {
  it('equal overlapFigures in this thread, bit for bit, for random placements (seed 20261206)', async () => {
    const wasm = await loadManifold();
    const origin: [number, number, number] = [310, -190, 40];
    const here = new OverlapEngine(wasm, origin);
    const there = workerVolumes(origin);
    try {
      const samples = fc.sample(fc.tuple(fc.double({ min: 0, max: 6.3, noNaN: true }), fc.double({ min: -14, max: 14, noNaN: true }), fc.double({ min: -6, max: 6, noNaN: true })), { seed: 20261206, numRuns: 12 });
      const asked = samples.map(([turn, dx, dz], k) => {
        const a = { key: `a${k}`, mesh: ball, transform: parseRigid(placement(0, 0, 0, 0)) };
        const b = { key: `b${k}`, mesh: k % 2 ? small : ball, transform: parseRigid(placement(turn, dx, 0.5 * dx, dz)) };
        return { a, b, answer: there.overlap(a, b) };
      });
      for (const { a, b, answer } of asked) expect(await answer).toEqual(overlapFigures(here, a, b));
    } finally {
      there.dispose();
      here.dispose();
    }
  });

  it('serve one check after another on one thread, each with its own origin and bodies, and a new thread once stopped', async () => {
    const wasm = await loadManifold();
    const a = { key: 'a', mesh: ball, transform: parseRigid(placement(0, 0, 0, 0)) };
    const b = { key: 'b', mesh: small, transform: parseRigid(placement(0.4, 9, 2, 1)) };
    for (const origin of [[0, 0, 0], [310, -190, 40], [300, -200, 50]] as [number, number, number][]) {
      const here = new OverlapEngine(wasm, origin);
      const there = workerVolumes(origin);
      try {
        expect(await there.overlap(a, b)).toEqual(overlapFigures(here, a, b));
      } finally {
        there.dispose();
        here.dispose();
      }
      if (origin[0] === 310) await stopVolumeWorker();
    }
  });

  it('give a check the same results as volumes computed in its own thread', async () => {
    const parts: CheckPart[] = [
      { id: 'p0', name: 'p0', mesh: ball, tree: trees.get(ball)!, transform: placement(0, 0, 0, 0), chordErrorMm: null },
      { id: 'p1', name: 'p1', mesh: ball, tree: trees.get(ball)!, transform: placement(0.3, 12, 3, 1), chordErrorMm: null },
      { id: 'p2', name: 'p2', mesh: small, tree: trees.get(small)!, transform: placement(1.1, -11, -2, 0), chordErrorMm: null },
      { id: 'p3', name: 'p3', mesh: small, tree: trees.get(small)!, transform: placement(0, -11, -2, 7.5), chordErrorMm: null },
    ];
    const request = { parts, settings: { touchToleranceMm: 0.01, clearanceMm: 0, contactIsInterference: false }, ignore: [] };
    const here = await runCheck(request, { manifold: loadManifold });
    const there = await runCheck(request, { manifold: loadManifold, volumes: workerVolumes });
    expect(here.results.filter((r) => r.kind === 'interference' && r.volumeMm3! > 1).map((r) => `${r.a}|${r.b}`)).toEqual(['p0|p1', 'p0|p2', 'p0|p3']);
    expect(there.results).toEqual(here.results);
    expect(there.warnings).toEqual(here.warnings);
  });

  it('never keep the process alive when prestarted and not used, or used by a session that ended', () => {
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const module = path.resolve(__dirname, '../../../src-main/services/volumeWorker.ts');
    for (const body of [
      'm.prestartVolumeWorker();',
      'm.prestartVolumeWorker(); const s = m.openVolumeSession(); s.prefetch({ positions: new Float64Array(9), indices: Uint32Array.of(0, 1, 2), vertexCount: 3, triangleCount: 1 }); s.end();',
    ]) {
      const script = path.join(mkdtempSync(path.join(tmpdir(), 'interfere-volume-')), 'run.mjs');
      writeFileSync(script, `const m = await import(${JSON.stringify(module)});\n${body}\n`);
      const run = spawnSync(process.execPath, ['--import', tsx, script], { timeout: 20_000, encoding: 'utf8' });
      rmSync(path.dirname(script), { recursive: true, force: true });
      expect(run.error).toBeUndefined();
      expect(run.signal).toBeNull();
      expect(run.status).toBe(0);
    }
  });

  it('give the same figures for bodies sent ahead (prefetched, converted while idle) as for bodies sent with the request', async () => {
    const wasm = await loadManifold();
    const origin: [number, number, number] = [305, -195, 45];
    const here = new OverlapEngine(wasm, origin);
    const session = openVolumeSession();
    try {
      session.prefetch(ball);
      session.prefetch(small);
      session.prefetch(ball); // once is enough
      // Time for the worker to convert them before the check asks.
      await new Promise((r) => setTimeout(r, 200));
      const there = session.volumes(origin);
      const a = { key: 'a', mesh: ball, transform: parseRigid(placement(0, 0, 0, 0)) };
      const b = { key: 'b', mesh: small, transform: parseRigid(placement(0.7, 9, -3, 2)) };
      const c = { key: 'c', mesh: ball, transform: parseRigid(placement(2.1, 11, 4, -1)) };
      const answers = [there.overlap(a, b), there.overlap(a, c), there.overlap(b, c)];
      expect(await Promise.all(answers)).toEqual([overlapFigures(here, a, b), overlapFigures(here, a, c), overlapFigures(here, b, c)]);
      there.dispose();
      await expect(there.overlap(a, b)).rejects.toThrow('the check is over');
    } finally {
      session.end();
      here.dispose();
    }
  });

  it('keep the checks of one session apart: a part id placed anew with another body in a later check (refinement) is that body', async () => {
    const wasm = await loadManifold();
    const origin: [number, number, number] = [300, -200, 50];
    const session = openVolumeSession();
    try {
      const a = { key: 'a', mesh: ball, transform: parseRigid(placement(0, 0, 0, 0)) };
      const first = { key: 'b', mesh: ball, transform: parseRigid(placement(0.2, 8, 0, 0)) };
      const second = { key: 'b', mesh: small, transform: parseRigid(placement(0.2, 8, 0, 0)) };
      const check1 = session.volumes(origin);
      const v1 = await check1.overlap(a, first);
      check1.dispose();
      const check2 = session.volumes(origin);
      const v2 = await check2.overlap(a, second);
      check2.dispose();
      const here1 = new OverlapEngine(wasm, origin), here2 = new OverlapEngine(wasm, origin);
      expect(v1).toEqual(overlapFigures(here1, a, first));
      expect(v2).toEqual(overlapFigures(here2, a, second));
      expect(v2!.volume).toBeLessThan(v1!.volume);
      here1.dispose();
      here2.dispose();
    } finally {
      session.end();
    }
  });
});
