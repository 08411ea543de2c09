// Exact reference counts of the generated scenarios (bench/reference.json), and the command that
// computes them:
//
//   npx tsx bench/reference.ts              recompute every scenario and write bench/reference.json
//   npx tsx bench/reference.ts --check      recompute and compare with bench/reference.json (no write)
//   … --scenario NAME                       only this scenario (repeatable; with --check)
//
// How a count is made (the same text goes into the file as `method`): for every pose, the pairs
// of the grid brute force (./bruteForce.ts: every pair of triangles with overlapping bounds through
// the engine's exact closed-triangle test) must equal, as a set, the pairs of the engine's OBBTree
// query; on a sample of poses (every pose of the small scenarios) the project's quadratic oracle
// collideBruteForce must give the same set again. For the generic scenarios the count must also
// not change when B is moved by 1e-9 mm along two unrelated directions: no pair is within
// rounding of touching, so any correct implementation gets the same numbers. 'any' twins count
// the poses whose 'all' count is not zero (and the engine's 'any' query must agree).

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createMesh } from '../src-core/geometry/mesh';
import { buildObbTree } from '../src-core/obbtree/build';
import { collide } from '../src-core/collide/collide';
import { collideBruteForce } from '../src-core/collide/bruteForce';
import { gridBruteForce } from './bruteForce';
import { perPoseHash } from './report';
import { BenchInputError, loadScenarios, meshPath, readStlFile } from './scenarios';
import type { Scenario, ScenarioFile } from './scenarios';
import { BENCH_DATA_DIR, ensureBenchData, GENERATOR_VERSION } from './generate';

export const REFERENCE_FILE = fileURLToPath(new URL('./reference.json', import.meta.url));

export const REFERENCE_FORMAT = 'interfere-bench-reference/1';

export const METHOD =
  'Per pose, the intersecting (iA, iB) pairs of the grid brute force (bench/bruteForce.ts: every pair of triangles ' +
  'whose axis-aligned bounds overlap, through the engine\'s exact closed-triangle test triTriIntersect, exact ' +
  'orientation predicates on the float64 coordinates M * p_B computed as the README writes them) equal as a set ' +
  'the pairs of the engine\'s OBBTree query (collide, strategy obb); on the poses listed in bruteForcePoses the ' +
  'quadratic oracle collideBruteForce gives the same set again. Generic scenarios (all but boxes-touching): the ' +
  'count of every pose is unchanged when B is also translated by 1e-9 mm along either of two fixed unrelated ' +
  'directions, so no pair is within rounding of touching. An "any" twin counts the poses of its "all" scenario ' +
  'with a non-zero count; the engine\'s "any" query agrees on every pose.';

export interface ReferenceScenario {
  name: string;
  query: 'all' | 'any';
  poses: number;
  /** sha256 of JSON.stringify(poses) as written in scenarios.json. */
  posesSha256: string;
  meshA: string;
  meshB: string;
  exactContacts: number;
  perPoseHash: string;
  perPose: number[];
  /** Poses whose pairs the quadratic oracle also produced ('all' scenarios). */
  bruteForcePoses?: number[];
  /** Whether the 1e-9 mm stability check ran on every pose. */
  stable?: boolean;
}

export interface ReferenceFile {
  format: string;
  generatorVersion: number;
  computed: string;
  method: string;
  /** sha256 of each generated mesh file the counts were computed on. */
  meshes: Record<string, string>;
  scenarios: ReferenceScenario[];
}

export function posesSha256(poses: readonly ArrayLike<number>[]): string {
  return createHash('sha256').update(JSON.stringify(poses.map((p) => Array.from(p)))).digest('hex');
}

export function fileSha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** bench/reference.json, checked for shape; null when the file is missing. */
export function loadReference(file = REFERENCE_FILE): ReferenceFile | null {
  if (!existsSync(file)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new BenchInputError(`${file}: cannot read reference counts (${(e as Error).message})`);
  }
  const r = raw as Partial<ReferenceFile>;
  if (r.format !== REFERENCE_FORMAT || !Array.isArray(r.scenarios) || typeof r.meshes !== 'object' || r.meshes === null) {
    throw new BenchInputError(`${file}: not a ${REFERENCE_FORMAT} file`);
  }
  for (const s of r.scenarios) {
    if (!Array.isArray(s.perPose) || s.perPose.length !== s.poses || perPoseHash(s.perPose) !== s.perPoseHash) {
      throw new BenchInputError(`${file}: scenario ${String(s.name)}: perPose does not match its pose count or hash`);
    }
  }
  return r as ReferenceFile;
}

/**
 * Why the reference does not apply to a scenario of the loaded file (a different generator
 * version, changed meshes or poses), or null when it applies. `meshSha` hashes a mesh file.
 */
export function referenceMismatch(ref: ReferenceFile, entry: ReferenceScenario, file: ScenarioFile, s: Scenario, meshSha: (p: string) => string): string | null {
  if (s.poses.length !== entry.poses || posesSha256(s.poses) !== entry.posesSha256) return 'its poses differ from the ones the reference was computed for';
  for (const m of [s.meshA, s.meshB]) {
    const key = path.basename(m, '.stl');
    const want = ref.meshes[key];
    if (want === undefined) return `no reference hash for mesh ${key}`;
    const got = meshSha(meshPath(file, m));
    if (got !== want) return `${m} (sha256 ${got.slice(0, 12)}…) is not the mesh the reference was computed on (${want.slice(0, 12)}…)`;
  }
  return null;
}

// ------------------------------------------------------------------------------------------------
// Computing

function pairKeys(pairs: Uint32Array, nB: number): Float64Array {
  const keys = new Float64Array(pairs.length / 2);
  for (let k = 0; k < keys.length; k++) keys[k] = pairs[2 * k] * nB + pairs[2 * k + 1];
  return keys.sort();
}

function sameKeys(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** Translated by δ along d (B moves by δ·d in A's frame). */
function nudged(pose: Float64Array, d: readonly number[], delta: number): Float64Array {
  const p = pose.slice();
  p[3] += delta * d[0];
  p[7] += delta * d[1];
  p[11] += delta * d[2];
  return p;
}

const NUDGES: readonly (readonly number[])[] = [
  [0.6, 0.7, 0.3873],
  [-0.4, 0.2, -0.8944],
];

/** Poses run through the quadratic oracle too (it costs nA · nB triangle tests per pose). */
function bruteForceSample(s: Scenario, nA: number, nB: number): number[] {
  const work = nA * nB;
  const all = s.poses.map((_, k) => k);
  if (work <= 1e6) return all;
  if (work <= 2e7) return all.filter((k) => k % 5 === 0);
  if (work <= 5e8) return [s.poses.length - 1];
  return [];
}

function note(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** The reference entry of one 'all' scenario (throws when the methods disagree). */
function computeAll(file: ScenarioFile, s: Scenario): ReferenceScenario {
  const ra = readStlFile(meshPath(file, s.meshA));
  const rb = readStlFile(meshPath(file, s.meshB));
  const A = createMesh(ra.positions, ra.indices);
  const B = createMesh(rb.positions.slice(), rb.indices.slice());
  const ta = buildObbTree(A), tb = buildObbTree(B);
  const generic = s.timing;
  const sample = new Set(bruteForceSample(s, A.triangleCount, B.triangleCount));
  const perPose: number[] = [];
  const t0 = performance.now();
  for (const [k, pose] of s.poses.entries()) {
    const grid = pairKeys(gridBruteForce(A, B, pose), B.triangleCount);
    const engine = pairKeys(collide(ta, tb, pose, 'all').pairs, B.triangleCount);
    if (!sameKeys(grid, engine)) throw new Error(`${s.name} pose ${k}: grid brute force ${grid.length} pairs, engine ${engine.length}: the sets differ`);
    if (sample.has(k)) {
      const quadratic = pairKeys(collideBruteForce(A, B, pose), B.triangleCount);
      if (!sameKeys(grid, quadratic)) throw new Error(`${s.name} pose ${k}: grid brute force ${grid.length} pairs, collideBruteForce ${quadratic.length}`);
    }
    if (generic) {
      for (const d of NUDGES) {
        for (const delta of [1e-9, -1e-9]) {
          const n = gridBruteForce(A, B, nudged(pose, d, delta)).length / 2;
          if (n !== grid.length) throw new Error(`${s.name} pose ${k}: ${grid.length} pairs, but ${n} with B moved by ${delta} mm along [${d.join(', ')}]: a pair is within rounding of touching`);
        }
      }
    }
    perPose.push(grid.length);
    if (k % 10 === 9 || k === s.poses.length - 1) note(`  ${s.name}: pose ${k + 1}/${s.poses.length}, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  return {
    name: s.name,
    query: 'all',
    poses: s.poses.length,
    posesSha256: posesSha256(s.poses),
    meshA: s.meshA,
    meshB: s.meshB,
    exactContacts: perPose.reduce((a, b) => a + b, 0),
    perPoseHash: perPoseHash(perPose),
    perPose,
    bruteForcePoses: [...sample].sort((p, q) => p - q),
    stable: generic,
  };
}

/** The 'any' twin of a computed 'all' entry, after checking the engine's 'any' query on every pose. */
function computeAny(file: ScenarioFile, s: Scenario, all: ReferenceScenario): ReferenceScenario {
  if (posesSha256(s.poses) !== all.posesSha256 || s.meshA !== all.meshA || s.meshB !== all.meshB) {
    throw new Error(`${s.name}: not the same meshes and poses as ${all.name}`);
  }
  const ra = readStlFile(meshPath(file, s.meshA));
  const rb = readStlFile(meshPath(file, s.meshB));
  const ta = buildObbTree(createMesh(ra.positions, ra.indices));
  const tb = buildObbTree(createMesh(rb.positions.slice(), rb.indices.slice()));
  const perPose = all.perPose.map((c): number => (c > 0 ? 1 : 0));
  for (const [k, pose] of s.poses.entries()) {
    const hit = collide(ta, tb, pose, 'any').hit ? 1 : 0;
    if (hit !== perPose[k]) throw new Error(`${s.name} pose ${k}: engine 'any' says ${hit}, the 'all' count is ${all.perPose[k]}`);
  }
  return {
    name: s.name, query: 'any', poses: s.poses.length, posesSha256: all.posesSha256, meshA: s.meshA, meshB: s.meshB,
    exactContacts: perPose.reduce((a, b) => a + b, 0), perPoseHash: perPoseHash(perPose), perPose,
  };
}

export function computeReference(file: ScenarioFile, names: readonly string[] = []): ReferenceFile {
  const pick = names.length === 0 ? file.scenarios : file.scenarios.filter((s) => names.includes(s.name));
  const alls = new Map<string, ReferenceScenario>();
  const out: ReferenceScenario[] = [];
  for (const s of pick) {
    let entry: ReferenceScenario;
    if (s.query === 'all') {
      note(`${s.name}: computing`);
      entry = computeAll(file, s);
      alls.set(s.name, entry);
    } else {
      const twin = file.scenarios.find((t) => t.query === 'all' && `${t.name}-any` === s.name);
      if (!twin) throw new Error(`${s.name}: no 'all' scenario named ${s.name.replace(/-any$/, '')}`);
      let all = alls.get(twin.name);
      if (!all) {
        note(`${twin.name}: computing (for ${s.name})`);
        all = computeAll(file, twin);
        alls.set(twin.name, all);
      }
      entry = computeAny(file, s, all);
    }
    note(`${s.name}: ${entry.exactContacts} contacts, hash ${entry.perPoseHash}`);
    out.push(entry);
  }
  const meshes: Record<string, string> = {};
  for (const s of pick) for (const m of [s.meshA, s.meshB]) meshes[path.basename(m, '.stl')] = fileSha256(meshPath(file, m));
  return { format: REFERENCE_FORMAT, generatorVersion: GENERATOR_VERSION, computed: new Date().toISOString().slice(0, 10), method: METHOD, meshes, scenarios: out };
}

function main(argv: string[]): number {
  const { values } = parseArgs({
    args: argv,
    options: { check: { type: 'boolean' }, scenario: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write('Usage: npx tsx bench/reference.ts [--check] [--scenario NAME]...\n\nComputes the exact per-pose contact counts of the generated scenarios (bench-data, generated\nwhen missing) and writes bench/reference.json; with --check, compares with it instead.\n');
    return 0;
  }
  const file = loadScenarios(ensureBenchData(BENCH_DATA_DIR, note));
  const names = values.scenario ?? [];
  for (const n of names) if (!file.scenarios.some((s) => s.name === n)) throw new BenchInputError(`unknown scenario '${n}'`);
  if (!values.check && names.length > 0) throw new BenchInputError('--scenario goes with --check (the file is always written whole)');
  const t0 = performance.now();
  const ref = computeReference(file, names);
  note(`computed in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  if (values.check) {
    const old = loadReference();
    if (!old) throw new BenchInputError(`${REFERENCE_FILE} is missing`);
    let ok = true;
    for (const s of ref.scenarios) {
      const o = old.scenarios.find((x) => x.name === s.name);
      const same = o !== undefined && o.perPoseHash === s.perPoseHash && o.posesSha256 === s.posesSha256 && o.perPose.every((c, k) => c === s.perPose[k]);
      ok &&= same;
      process.stdout.write(`${same ? 'ok  ' : 'FAIL'} ${s.name}: ${s.exactContacts} contacts, hash ${s.perPoseHash}${o ? ` (reference.json: ${o.exactContacts}, ${o.perPoseHash})` : ' (not in reference.json)'}\n`);
    }
    for (const [k, sha] of Object.entries(ref.meshes)) {
      if (old.meshes[k] !== sha) {
        ok = false;
        process.stdout.write(`FAIL mesh ${k}: sha256 ${sha} but reference.json has ${old.meshes[k]}\n`);
      }
    }
    return ok ? 0 : 1;
  }
  const tmp = `${REFERENCE_FILE}.${process.pid}.tmp`;
  // One line per number list (perPose, bruteForcePoses).
  const text = JSON.stringify(ref, null, 1).replace(/\[\s*(-?\d[\d\s,.e+-]*?)\s*\]/g, (_, list: string) => `[${list.split(/\s*,\s*/).join(',')}]`);
  writeFileSync(tmp, `${text}\n`);
  renameSync(tmp, REFERENCE_FILE);
  process.stdout.write(`wrote ${REFERENCE_FILE}\n`);
  return 0;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`reference: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  }
}
