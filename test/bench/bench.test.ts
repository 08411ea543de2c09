import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it, expect } from 'vitest';
import { fnv1a32, geomean, median, perPoseHash, renderReport, renderTable } from '../../bench/report';
import type { BenchRecord, BenchSources, ScenarioSummary } from '../../bench/report';
import { loadPeersFile, loadScenarios, meshPath, readBinaryStl, readStlFile } from '../../bench/scenarios';
import {
  ensureBenchData, ensureMeshFile, generatedScenarios, meshStl, MESHES, scenarioSpecs, toBinaryStl, meshSpec,
} from '../../bench/generate';
import { fileSha256, loadReference, posesSha256, referenceMismatch } from '../../bench/reference';

const PEERS = fileURLToPath(new URL('../../bench/peers.json', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `npm run bench -- …args` in a child process. */
function bench(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('bench report helpers', () => {
  it('hashes per-pose counts with 32-bit FNV-1a as 8 lower-case hex digits', () => {
    expect(fnv1a32('')).toBe('811c9dc5');
    expect(fnv1a32('a')).toBe('e40c292c');
    expect(fnv1a32('0,0,46,112')).toBe('ab20d61b');
    expect(perPoseHash([0, 0, 46, 112])).toBe('ab20d61b');
  });

  it('reproduces the per-pose hashes stored in reference.json, which covers every generated scenario', () => {
    const ref = loadReference();
    expect(ref).not.toBeNull();
    const scenarios = scenarioSpecs();
    expect(ref?.scenarios.map((s) => s.name)).toEqual(scenarios.map((s) => s.name));
    for (const s of ref?.scenarios ?? []) {
      expect(perPoseHash(s.perPose), s.name).toBe(s.perPoseHash);
      expect(s.perPose.reduce((a, b) => a + b, 0), s.name).toBe(s.exactContacts);
      expect(s.perPose.length, s.name).toBe(s.poses);
      // The reference was computed on these poses.
      const spec = scenarios.find((x) => x.name === s.name);
      expect(s.posesSha256, s.name).toBe(posesSha256(spec?.poses ?? []));
      if (s.query === 'any') {
        const all = ref?.scenarios.find((x) => x.name === s.name.replace(/-any$/, ''));
        expect(s.perPose, s.name).toEqual(all?.perPose.map((c) => (c > 0 ? 1 : 0)));
      } else {
        expect(s.stable, s.name).toBe(s.name !== 'boxes-touching');
      }
    }
    // The quadratic oracle agreed on every pose of the box probe, and on samples of the small scenarios.
    const sampled = (name: string): number[] => ref?.scenarios.find((x) => x.name === name)?.bruteForcePoses ?? [];
    expect(sampled('boxes-touching')).toEqual(Array.from({ length: 13 }, (_, k) => k));
    expect(sampled('lumpy-random').length).toBe(30);
    expect(sampled('spheres-20k-sweep')).toEqual([99]);
    expect(ref?.method).toMatch(/1e-9 mm/);
  });

  it("carries the peers' figures with their source, for every generated scenario's counterpart", () => {
    const peers = loadPeersFile(PEERS);
    expect(peers?.source).toMatch(/original .*scenario set/);
    expect(Object.keys(peers?.peers ?? {})).toEqual(expect.arrayContaining(['RAPID-2.01', 'PQP-1.3', 'fcl/obbrss', 'fcl/obb', 'three-mesh-bvh/sah']));
    for (const s of generatedScenarios()) {
      const p = peers?.scenarios.find((x) => x.name === s.peersScenario);
      expect(p, s.name).toBeDefined();
      expect(p?.query, s.name).toBe(s.query);
      expect(p?.poses, s.name).toBe(s.poses.length);
      if (s.timing) for (const impl of ['RAPID-2.01', 'PQP-1.3', 'fcl/obbrss']) expect(p?.peers[impl]?.query_ms, `${s.name} ${impl}`).toBeGreaterThan(0);
    }
    expect(peers?.geomean_query_ratio_to_fcl_obbrss?.['RAPID-2.01']).toBe(0.603);
  });

  it('takes medians and geometric means', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([])).toBeNaN();
    expect(geomean([1, 4])).toBeCloseTo(2, 12);
    expect(geomean([2, 2, 2])).toBeCloseTo(2, 12);
    expect(geomean([])).toBeNaN();
  });

  it('aligns table columns', () => {
    const text = renderTable(['name', 'ms'], [['a', '1.5'], ['longer', '10']]);
    expect(text.split('\n')).toEqual(['name     ms', '------  ---', 'a       1.5', 'longer   10']);
  });
});

describe('generated benchmark data', () => {
  it('is byte-identical from run to run, and equal to what reference.json was computed on (all but the 500k meshes)', () => {
    const ref = loadReference();
    for (const spec of MESHES.filter((m) => !m.key.endsWith('-500k'))) {
      const first = toBinaryStl(spec.make(), spec.key);
      const second = meshStl(spec.key);
      expect(sha256(second), spec.key).toBe(sha256(first));
      expect(sha256(first), `${spec.key} vs reference.json`).toBe(ref?.meshes[spec.key]);
      // The README's layout: a header not starting with "solid", the count, 50 bytes per triangle.
      expect(new TextDecoder().decode(first.subarray(0, 5))).not.toBe('solid');
      expect(first.byteLength).toBe(84 + 50 * new DataView(first.buffer).getUint32(80, true));
    }
    expect(JSON.stringify(scenarioSpecs())).toBe(JSON.stringify(scenarioSpecs()));
  });

  it('writes every file whole into a folder, twice the same bytes, with the facts of the README', () => {
    const dirs = [mkdtempSync(path.join(os.tmpdir(), 'bench-gen-')), mkdtempSync(path.join(os.tmpdir(), 'bench-gen-'))];
    try {
      // The 48-triangle box alone is enough to check the folder layout; ensureMeshFile writes one mesh.
      const files = dirs.map((d) => ensureMeshFile('box-48', d));
      expect(readFileSync(files[0])).toEqual(readFileSync(files[1]));
      expect(readFileSync(files[0])).toEqual(Buffer.from(meshStl('box-48')));
      expect(files[0]).toBe(path.join(dirs[0], 'meshes', 'box-48.stl'));
    } finally {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    }
    expect(meshSpec('tube-100k').description).toMatch(/Rin=50\.005/);
    expect(() => meshSpec('bunny-3674')).toThrow(/no generated benchmark mesh 'bunny-3674'/);
  });

  it('the bench-data folder (generated on first use) loads, and reference.json applies to every scenario of it', () => {
    const file = loadScenarios(ensureBenchData());
    expect(file.generatorVersion).toBe(loadReference()?.generatorVersion);
    const ref = loadReference();
    const names = file.scenarios.map((s) => s.name);
    expect(names).toEqual(generatedScenarios().map((s) => s.name));
    for (const s of file.scenarios) {
      const entry = ref?.scenarios.find((x) => x.name === s.name);
      expect(entry, s.name).toBeDefined();
      if (ref && entry) expect(referenceMismatch(ref, entry, file, s, fileSha256), s.name).toBeNull();
    }
    const raw = JSON.parse(readFileSync(file.file, 'utf8')) as { meshes: Record<string, { sha256: string; triangles: number; closed: boolean; degenerateTriangles: number }> };
    for (const m of MESHES) {
      expect(raw.meshes[m.key].sha256, m.key).toBe(ref?.meshes[m.key]);
      expect(raw.meshes[m.key].degenerateTriangles, m.key).toBe(0);
      expect(raw.meshes[m.key].closed, m.key).toBe(m.key !== 'env-100k');
      expect(readStlFile(meshPath(file, `meshes/${m.key}.stl`)).triangleCount, m.key).toBe(raw.meshes[m.key].triangles);
    }
  });

  it('a reference computed on other meshes or poses is refused with the reason', () => {
    const ref = loadReference();
    const file = loadScenarios(ensureBenchData());
    const s = file.scenarios.find((x) => x.name === 'boxes-touching');
    const entry = ref?.scenarios.find((x) => x.name === 'boxes-touching');
    if (!ref || !s || !entry) throw new Error('boxes-touching is missing');
    expect(referenceMismatch(ref, entry, file, { ...s, poses: s.poses.slice(1) }, fileSha256)).toMatch(/poses differ/);
    expect(referenceMismatch(ref, entry, file, s, () => '0'.repeat(64))).toMatch(/box-48\.stl .* is not the mesh the reference was computed on/);
  });

});

describe('bench scenario input', () => {
  it('reads box-48.stl: 48 triangles in file order over 26 welded vertices', () => {
    const file = ensureMeshFile('box-48');
    const mesh = readStlFile(file);
    expect(mesh.triangleCount).toBe(48);
    expect(mesh.indices.length).toBe(144);
    // A 2 × 2 grid on each face of a cube: the 3 × 3 × 3 lattice without its centre.
    expect(mesh.positions.length).toBe(3 * 26);

    // Every corner of every triangle is the file's vertex, in the file's order.
    const bytes = readFileSync(file);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let t = 0; t < 48; t++) {
      for (let k = 0; k < 3; k++) {
        const v = mesh.indices[3 * t + k];
        for (let c = 0; c < 3; c++) {
          expect(mesh.positions[3 * v + c]).toBe(view.getFloat32(84 + 50 * t + 12 + 12 * k + 4 * c, true));
        }
      }
    }
    // Welded vertices are distinct.
    const keys = new Set<string>();
    for (let v = 0; v < 26; v++) keys.add(Array.from(mesh.positions.subarray(3 * v, 3 * v + 3)).join(','));
    expect(keys.size).toBe(26);
  });

  it('welds exact duplicates only, folds -0 onto +0, and rejects malformed files', () => {
    const tris = [
      [0, 0, 0, 1, 0, 0, 0, 1, 0],
      [1, 0, 0, -0, 1, 0, 1, 1, 0],
      [1, 0, 0, 1 + 2 ** -23, 0, 0, 1, 1, 0],
    ];
    const data = new Uint8Array(84 + 50 * tris.length);
    const view = new DataView(data.buffer);
    view.setUint32(80, tris.length, true);
    tris.forEach((tri, t) => tri.forEach((x, i) => view.setFloat32(84 + 50 * t + 12 + 4 * i, x, true)));
    const mesh = readBinaryStl(data);
    expect(mesh.triangleCount).toBe(3);
    expect(Array.from(mesh.indices)).toEqual([0, 1, 2, 1, 2, 3, 1, 4, 3]);
    expect(mesh.positions.length).toBe(15);
    expect(Object.is(mesh.positions[6], 0)).toBe(true);
    expect(() => readBinaryStl(data.subarray(0, data.length - 1))).toThrow(/not a binary STL/);
    expect(() => readBinaryStl(new Uint8Array(10))).toThrow(/too short/);
  });

  it('loads scenarios.json with 16-number poses and resolvable meshes', () => {
    const file = loadScenarios(ensureBenchData());
    const names = file.scenarios.map((s) => s.name);
    expect(names).toContain('lumpy-random');
    expect(names).toContain('boxes-touching');
    const boxes = file.scenarios.find((s) => s.name === 'boxes-touching');
    expect(boxes?.timing).toBe(false);
    expect(boxes?.poses.length).toBe(13);
    const lumpy = file.scenarios.find((s) => s.name === 'lumpy-random');
    expect(lumpy?.timing).toBe(true);
    expect(lumpy?.peersScenario).toBe('bunny-random');
    expect(file.scenarios.find((s) => s.name === 'spheres-20k-sweep')?.peersScenario).toBe('spheres-20k-sweep');
    for (const s of file.scenarios) {
      for (const p of s.poses) {
        expect(p.length).toBe(16);
        expect(Array.from(p.subarray(12))).toEqual([0, 0, 0, 1]);
      }
    }
  });
});

describe('the runner checks counts against the reference and says so per scenario', () => {
  const record = (variant: string, impl: string, perPose: number[], ok: boolean): BenchRecord => ({
    impl, variant, version: '0', scenario: 'probe', query: 'all', triangles: [48, 48], poses: perPose.length, reps: 1,
    build_ms: 1, query_ms: 2, build_ms_all: [1], query_ms_all: [2], contacts: perPose.reduce((a, b) => a + b, 0), per_pose: perPose,
    per_pose_hash: perPoseHash(perPose), per_pose_ms: perPose.map(() => 0.1), peak_rss_mb: 1, model_bytes: 96, model_bytes_per_tri: 1,
    model_bytes_note: '', box_tests: null, tri_tests: null, exact_contacts_ok: ok,
  });
  const summary: ScenarioSummary = { name: 'probe', query: 'all', timing: true, poses: 3, triangles: [48, 48], poseIndices: [0, 1, 2] };
  const exact = { exactContacts: 9, perPoseHash: perPoseHash([0, 4, 5]), perPose: [0, 4, 5] };
  const peer = {
    name: 'original-probe', query: 'all' as const, timing: true, triangles: [48, 48] as [number, number], poses: 3, exactContacts: 7, perPoseHash: '0',
    peers: { 'RAPID-2.01': { build_ms: 1, query_ms: 1, contacts: 7 }, 'three-mesh-bvh/sah': { build_ms: 1, query_ms: 4, contacts: 7 } },
  };
  const sources = (elsewhere: boolean): BenchSources => ({
    exact: new Map([['probe', exact]]), exactSource: 'bench/reference.json', exactProblems: new Map(),
    peers: new Map([['probe', peer]]), peersFile: null, peersSource: 'bench/peers.json', peersElsewhere: elsewhere,
  });

  it('a line of ✓ when every strategy matches, FAIL for an engine strategy that does not, MISMATCH for a peer', () => {
    const good = renderReport([record('obb', 'interfere', [0, 4, 5], true), record('sah', 'three-mesh-bvh', [0, 4, 5], true)], [summary], sources(true));
    expect(good).toMatch(/counts ✓ every strategy equals bench\/reference\.json on all 3 poses \(hash [0-9a-f]{8}\)/);
    expect(good).not.toMatch(/FAIL|MISMATCH/);
    const bad = renderReport([record('obb', 'interfere', [0, 5, 5], false), record('sah', 'three-mesh-bvh', [1, 4, 5], false)], [summary], sources(true));
    expect(bad).toMatch(/ {2}FAIL: obb counts differ from bench\/reference\.json: pose 1: 5 \(exact 4\)/);
    expect(bad).toMatch(/ {2}MISMATCH: three-mesh-bvh\/sah counts differ from bench\/reference\.json: pose 0: 1 \(exact 0\)/);
    expect(bad).not.toMatch(/counts ✓/);
  });

  it("states that the peers' figures were measured on the original scenario set, unless they belong to these meshes", () => {
    const rs = [record('obb', 'interfere', [0, 4, 5], true), record('sah', 'three-mesh-bvh', [0, 4, 5], true)];
    const elsewhere = renderReport(rs, [summary], sources(true));
    expect(elsewhere).toMatch(/peers, for reference \(bench\/peers\.json: measured on the original scenario set, whose meshes are of the same kinds as these but not the same; there named original-probe;/);
    expect(elsewhere).toMatch(/RAPID-2\.01 1\.00 ms/);
    // The peers' contacts are of other meshes: not compared with ours.
    expect(elsewhere).not.toMatch(/peers\.json 7/);
    const here = renderReport(rs, [summary], { ...sources(false), peersSource: 'x/peers.json' });
    expect(here).toMatch(/x\/peers\.json: measured on these meshes in another run/);
    expect(here).toMatch(/\(peers\.json 7\)/);
  });

  it('npm run bench on the generated boxes-touching: every count equal to bench/reference.json, exit 0', () => {
    const r = bench('--scenario', 'boxes-touching', '--reps', '1', '--warmup', '0');
    expect(r.stderr).not.toMatch(/FAIL/);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/== boxes-touching {2}\(all · 13 poses · 48 × 48 triangles · exact contacts [\d,]+ · semantics probe/);
    expect(r.stdout).toMatch(/counts ✓ every strategy equals bench\/reference\.json on all 13 poses/);
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as BenchRecord);
    const engine = lines.filter((l) => l.impl === 'interfere');
    // obb (the WebAssembly kernel), aabb, hybrid and obb-ts (the TypeScript kernel).
    expect(engine.map((l) => l.variant).sort()).toEqual(['aabb', 'hybrid', 'obb', 'obb-ts']);
    expect(engine.map((l) => l.exact_contacts_ok)).toEqual([true, true, true, true]);
  });

  it('npm run bench refuses, loudly and with exit 1, a reference that does not belong to the data it runs', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-stale-'));
    try {
      const file = loadScenarios(ensureBenchData());
      const raw = JSON.parse(readFileSync(file.file, 'utf8')) as { scenarios: { name: string; poses: number[][] }[] };
      const boxes = raw.scenarios.find((s) => s.name === 'boxes-touching');
      if (!boxes) throw new Error('boxes-touching is missing');
      boxes.poses[0][3] = 12; // 2 mm apart instead of 1: other poses than the reference's
      mkdirSync(path.join(dir, 'meshes'));
      copyFileSync(meshPath(file, 'meshes/box-48.stl'), path.join(dir, 'meshes/box-48.stl'));
      writeFileSync(path.join(dir, 'scenarios.json'), JSON.stringify(raw));
      const r = bench('--scenarios', path.join(dir, 'scenarios.json'), '--scenario', 'boxes-touching', '--strategy', 'obb', '--reps', '1', '--warmup', '0');
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(/FAIL: bench\/reference\.json does not apply: its poses differ from the ones the reference was computed for/);
      expect(r.stderr).toMatch(/FAIL: bench\/reference\.json does not apply to boxes-touching/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the cold-run probe', () => {
  it('reports the peak RSS and the minor page faults of the process it is preloaded into', () => {
    // 16 MB written page by page: at least that many pages first touched (fewer faults only with huge pages).
    const r = spawnSync(process.execPath, ['--require', path.join(ROOT, 'bench/rssProbe.cjs'), '-e', 'const b = new Uint8Array(16 << 20); for (let i = 0; i < b.length; i += 4096) b[i] = 1;'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const rss = Number(/BENCH_PEAK_RSS_MB ([\d.]+)/.exec(r.stderr)?.[1]);
    const faults = Number(/BENCH_MINOR_FAULTS (\d+)/.exec(r.stderr)?.[1]);
    expect(rss).toBeGreaterThan(16);
    expect(faults).toBeGreaterThan(0);
  });

  it("measures this machine's cost of a page's first touch as a positive number of microseconds", async () => {
    const { firstTouchMicros } = await import('../../bench/pipeline');
    const us = firstTouchMicros();
    expect(Number.isFinite(us)).toBe(true);
    expect(us).toBeGreaterThan(0);
  });
});
