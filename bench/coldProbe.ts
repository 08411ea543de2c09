// Cold-start probe of the engine: in a fresh process, load one scenario's meshes, build both OBB
// trees (timing each) and run its poses once (timing each), so that the first build and the first
// query are measured with code V8 has not compiled yet. Meant to be run under V8's tracing and
// profiling flags:
//
//   node --import tsx bench/coldProbe.ts --scenario spheres-20k-sweep-any
//   node --trace-opt --trace-deopt --import tsx bench/coldProbe.ts --scenario lumpy-random > trace.txt
//   node --cpu-prof --cpu-prof-dir=prof --import tsx bench/coldProbe.ts --scenario torus-20k-env-100k
//
// Options: --scenario NAME (required), --poses N (default: all; 1 = the first pose only),
// --strategy obb|aabb|hybrid (default obb), --rounds N (repeat builds and poses N times in the
// same process: round 1 is cold, the last warm), --json (one JSON line per round).
// Prints, on stdout, the build of each tree, the first pose and the rest as wall ms, and as ms on
// the CPU of the main thread, which a busy machine does not inflate by preempting it.

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildTree, collide, createMesh, type StrategyName } from '../src-core/index';
import { BENCH_DATA_DIR, ensureBenchData } from './generate';
import { cloneMesh, loadScenarios, meshPath, readStlFile } from './scenarios';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string' },
    poses: { type: 'string' },
    strategy: { type: 'string', default: 'obb' },
    json: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '1' },
  },
});
if (!values.scenario) {
  process.stderr.write('usage: bench/coldProbe.ts --scenario NAME [--poses N] [--strategy obb] [--json]\n');
  process.exit(2);
}
ensureBenchData();
const file = loadScenarios(path.join(BENCH_DATA_DIR, 'scenarios.json'));
const found = file.scenarios.find((x) => x.name === values.scenario);
if (!found) {
  process.stderr.write(`unknown scenario ${values.scenario}\n`);
  process.exit(2);
}
const s = found;
const ma = readStlFile(meshPath(file, s.meshA));
const mb = s.meshB === s.meshA ? cloneMesh(ma) : readStlFile(meshPath(file, s.meshB));
const strategy = values.strategy as StrategyName;
const rounds = Number(values.rounds);
const poseCount = Math.min(s.poses.length, values.poses ? Number(values.poses) : s.poses.length);

/**
 * On-CPU time of this process's main thread in ms (Linux: /proc/self/task/PID/schedstat, in ns), so
 * that time the thread spends preempted on a busy machine does not count; wall time elsewhere.
 */
const schedstat = `/proc/self/task/${process.pid}/schedstat`;
function cpuMs(): number {
  try {
    return Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

function round(): void {
  const c0 = cpuMs(), t0 = performance.now();
  const a = buildTree(createMesh(ma.positions, ma.indices), strategy);
  const t1 = performance.now(), c1 = cpuMs();
  const b = buildTree(createMesh(mb.positions, mb.indices), strategy);
  const t2 = performance.now(), c2 = cpuMs();
  const poseMs: number[] = [];
  const poseCpuMs: number[] = [];
  let count = 0, boxTests = 0, triTests = 0;
  let prevCpu = cpuMs();
  let prev = performance.now();
  for (let k = 0; k < poseCount; k++) {
    const r = collide(a, b, s.poses[k], s.query);
    const now = performance.now();
    const nowCpu = cpuMs();
    poseMs.push(now - prev);
    poseCpuMs.push(nowCpu - prevCpu);
    // The reading itself (a file read) is not the query's: start the next pose after it.
    prevCpu = cpuMs();
    prev = performance.now();
    count += s.query === 'all' ? r.pairCount : r.hit ? 1 : 0;
    boxTests += r.boxTests;
    triTests += r.triTests;
  }
  const rest = poseMs.slice(1);
  const restSum = rest.reduce((x, y) => x + y, 0);
  const sorted = [...poseMs].sort((x, y) => x - y);
  const record = {
    scenario: s.name,
    strategy,
    buildA_ms: +(t1 - t0).toFixed(3),
    buildB_ms: +(t2 - t1).toFixed(3),
    buildA_cpu_ms: +(c1 - c0).toFixed(3),
    buildB_cpu_ms: +(c2 - c1).toFixed(3),
    first_pose_ms: +(poseMs[0] ?? 0).toFixed(3),
    first_pose_cpu_ms: +(poseCpuMs[0] ?? 0).toFixed(3),
    query_cpu_ms: +poseCpuMs.reduce((x, y) => x + y, 0).toFixed(3),
    rest_ms: +restSum.toFixed(3),
    median_pose_ms: +(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(4),
    query_ms: +poseMs.reduce((x, y) => x + y, 0).toFixed(3),
    poses: poseCount,
    count,
    boxTests,
    triTests,
  };
  if (values.json) {
    process.stdout.write(`${JSON.stringify(record)}\n`);
  } else {
    process.stdout.write(
      `${s.name} (${strategy}): build A ${record.buildA_ms} ms (cpu ${record.buildA_cpu_ms}), ` +
      `B ${record.buildB_ms} ms (cpu ${record.buildB_cpu_ms}); first pose ${record.first_pose_ms} ms ` +
      `(cpu ${record.first_pose_cpu_ms}), other ${poseCount - 1} poses ${record.rest_ms} ms; all poses cpu ` +
      `${record.query_cpu_ms} ms (median pose ${record.median_pose_ms} ms); count ${count}, ${boxTests} box and ` +
      `${triTests} triangle tests\n`,
    );
  }
  if (process.env.COLD_PROBE_POSES) process.stdout.write(`${poseCpuMs.map((x) => x.toFixed(2)).join(' ')}\n`);
}
for (let k = 0; k < rounds; k++) round();
