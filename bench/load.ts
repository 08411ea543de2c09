// Load benchmark of `npm run bench -- --load`: a synthetic assembly of 1,000 parts and 2,000,000
// triangles checked all-pairs the way the command line checks it, and 50 saved assemblies checked
// by one `interfere check` command.
//
// The assembly is a grid of tessellated boxes, spheres and tori, one STL file per part (1,000
// distinct meshes, 2,000 triangles each), placed in rows along x. Neighbours in a row form pairs
// that are clear (6 mm apart), touching (boxes face to face, exactly) or overlapping (4 mm deep);
// parts are rotated about z except the touching boxes; everything else is at least 0.2 mm apart.
// The 50 saved assemblies reference the same files: consecutive slices of 20 parts.
//
// Three measurements:
//  - in this process, through checkFile with the process pool as the command line sets it up (its
//    bundled tree-building child):
//    time per phase (open, trees, broad phase, exact triangle pairs, classification with volumes,
//    report) and the RSS sampled in each phase, pair counts, and this process's peak RSS;
//  - the command line on a cold process (`interfere check load.assembly.json --report …`): wall
//    time, the command's peak RSS (./rssProbe.cjs), and, sampled from /proc on Linux, the peak
//    RSS of each tree-building child and of all of them together;
//  - the command line on the 50 saved assemblies in one command: the same figures.

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkFile, type CheckStage } from '../src-main/services/checkService';
import { poolTreeBuilder } from '../src-main/services/treeBuilder';
import { createImporter } from '../src-main/services/importers';
import { TreePool } from '../src-main/services/treePool';
import { reportToJson } from '../src-core/report/index';

export interface LoadOptions {
  /** Parts of the big assembly (default 1,000). */
  readonly parts: number;
  /** Triangles in total (default 2,000,000): each part gets an equal share. */
  readonly triangles: number;
  /** Saved assemblies of the batch command (default 50). */
  readonly batch: number;
  /** Where the generated files go (kept); default a temporary folder, removed afterwards. */
  readonly dir: string | null;
  /** Repository root (the built command line is dist/node/cli/interfere.cjs). */
  readonly root: string;
}

export const DEFAULT_LOAD: Omit<LoadOptions, 'dir' | 'root'> = { parts: 1000, triangles: 2_000_000, batch: 50 };

interface Mesh {
  readonly positions: Float64Array;
  readonly indices: Uint32Array;
}

// ------------------------------------------------------------------------------------------------
// Tessellation (closed, outward-facing surfaces)

/** A box of half extents h, with sx × sy × sz segments: 4(sy·sz + sz·sx + sx·sy) triangles. */
function boxMesh(h: readonly [number, number, number], seg: readonly [number, number, number]): Mesh {
  const coords: number[] = [];
  const tris: number[] = [];
  const index = new Map<string, number>();
  const vertex = (l: number[]): number => {
    const key = l.join(',');
    let v = index.get(key);
    if (v === undefined) {
      v = coords.length / 3;
      index.set(key, v);
      for (let c = 0; c < 3; c++) coords.push(-h[c]! + (2 * h[c]! * l[c]!) / seg[c]!);
    }
    return v;
  };
  for (let axis = 0; axis < 3; axis++) {
    const a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    for (let side = 0; side < 2; side++) {
      for (let i = 0; i < seg[a1]!; i++) {
        for (let j = 0; j < seg[a2]!; j++) {
          const at = (u: number, v: number): number => {
            const l = [0, 0, 0];
            l[axis] = side ? seg[axis]! : 0;
            l[a1] = i + u;
            l[a2] = j + v;
            return vertex(l);
          };
          const p00 = at(0, 0), p10 = at(1, 0), p01 = at(0, 1), p11 = at(1, 1);
          if (side) tris.push(p00, p10, p11, p00, p11, p01);
          else tris.push(p00, p11, p10, p00, p01, p11);
        }
      }
    }
  }
  return { positions: Float64Array.from(coords), indices: Uint32Array.from(tris) };
}

/** A UV sphere: 2·sectors·(stacks − 1) triangles. */
function sphereMesh(r: number, sectors: number, stacks: number): Mesh {
  const coords: number[] = [0, 0, r];
  for (let j = 1; j < stacks; j++) {
    const phi = (Math.PI * j) / stacks;
    for (let i = 0; i < sectors; i++) {
      const theta = (2 * Math.PI * i) / sectors;
      coords.push(r * Math.sin(phi) * Math.cos(theta), r * Math.sin(phi) * Math.sin(theta), r * Math.cos(phi));
    }
  }
  coords.push(0, 0, -r);
  const south = coords.length / 3 - 1;
  const ring = (j: number, i: number): number => 1 + (j - 1) * sectors + (i % sectors);
  const tris: number[] = [];
  for (let i = 0; i < sectors; i++) tris.push(0, ring(1, i), ring(1, i + 1));
  for (let j = 1; j < stacks - 1; j++) {
    for (let i = 0; i < sectors; i++) tris.push(ring(j, i), ring(j + 1, i), ring(j + 1, i + 1), ring(j, i), ring(j + 1, i + 1), ring(j, i + 1));
  }
  for (let i = 0; i < sectors; i++) tris.push(ring(stacks - 1, i), south, ring(stacks - 1, i + 1));
  return { positions: Float64Array.from(coords), indices: Uint32Array.from(tris) };
}

/** A torus about z (major radius R, minor r): 2·u·v triangles. */
function torusMesh(R: number, r: number, u: number, v: number): Mesh {
  const coords: number[] = [];
  for (let i = 0; i < u; i++) {
    const a = (2 * Math.PI * i) / u;
    for (let j = 0; j < v; j++) {
      const b = (2 * Math.PI * j) / v;
      coords.push((R + r * Math.cos(b)) * Math.cos(a), (R + r * Math.cos(b)) * Math.sin(a), r * Math.sin(b));
    }
  }
  const at = (i: number, j: number): number => (i % u) * v + (j % v);
  const tris: number[] = [];
  for (let i = 0; i < u; i++) {
    for (let j = 0; j < v; j++) tris.push(at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j), at(i + 1, j + 1), at(i, j + 1));
  }
  return { positions: Float64Array.from(coords), indices: Uint32Array.from(tris) };
}

/** Box segments with 4(ab + bc + ca) as close to `k` as possible (a = b, c near a). */
function boxSegments(k: number): [number, number, number] {
  let best: [number, number, number] = [1, 1, 1];
  let bestErr = Infinity;
  for (let a = 1; 4 * a * a <= k; a++) {
    // 4(a² + 2ac) = k  →  c = (k/4 − a²) / 2a
    const c = Math.max(1, Math.round((k / 4 - a * a) / (2 * a)));
    const err = Math.abs(4 * (a * a + 2 * a * c) - k) * 1000 + Math.abs(c - a);
    if (err < bestErr) {
      bestErr = err;
      best = [c, a, a];
    }
  }
  return best;
}

/**
 * Two factors of `n` with `first / second` as close to `ratio` as possible, or null when n has
 * none with both ≥ `least`.
 */
function factors(n: number, ratio: number, least: number): [number, number] | null {
  let best: [number, number] | null = null;
  for (let b = least; b * least <= n; b++) {
    if (n % b !== 0) continue;
    const a = n / b;
    if (best === null || Math.abs(Math.log(a / b / ratio)) < Math.abs(Math.log(best[0] / best[1] / ratio))) best = [a, b];
  }
  return best;
}

/** Sphere sectors and stacks with 2·s·(t − 1) = k (near it when k/2 has no fitting factors). */
function sphereSegments(k: number): [number, number] {
  const exact = k % 2 === 0 ? factors(k / 2, 2, 3) : null;
  if (exact) return [exact[0], exact[1] + 1];
  const t1 = Math.max(2, Math.round(Math.sqrt(k / 4)));
  return [Math.max(3, Math.round(k / (2 * t1))), t1 + 1];
}

/** Torus segments with 2·u·v = k (near it when k/2 has no fitting factors). */
function torusSegments(k: number): [number, number] {
  const exact = k % 2 === 0 ? factors(k / 2, 2.5, 3) : null;
  if (exact) return exact;
  const v = Math.max(3, Math.round(Math.sqrt(k / 5)));
  return [Math.max(3, Math.round(k / (2 * v))), v];
}

// ------------------------------------------------------------------------------------------------
// The generated assembly

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Relation = 'clear' | 'touching' | 'overlapping';
type Shape = 'box' | 'sphere' | 'torus';

interface GeneratedPart {
  readonly id: string;
  readonly file: string;
  readonly shape: Shape;
  readonly relation: Relation;
  readonly transform: number[];
  readonly triangles: number;
}

/** Cell size (mm): parts reach at most 7 mm from their centre along x, 9.9 mm across. */
const CELL = 20;
const ROW = 10;

function binaryStl(mesh: Mesh, name: string): Uint8Array {
  const count = mesh.indices.length / 3;
  const bytes = new Uint8Array(84 + 50 * count);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(`binary STL ${name}`.slice(0, 80)), 0);
  view.setUint32(80, count, true);
  for (let t = 0; t < count; t++) {
    const off = 84 + 50 * t;
    for (let k = 0; k < 3; k++) {
      const v = mesh.indices[3 * t + k]!;
      for (let c = 0; c < 3; c++) view.setFloat32(off + 12 + 12 * k + 4 * c, mesh.positions[3 * v + c]!, true);
    }
  }
  return bytes;
}

/**
 * Writes one STL per part under `dir/parts` (one mesh at a time, so that generating takes little
 * memory) and returns the parts with their placements.
 */
function generateParts(dir: string, parts: number, triangles: number): GeneratedPart[] {
  mkdirSync(path.join(dir, 'parts'), { recursive: true });
  const rand = random(20_261_129);
  const perPart = Math.max(12, Math.round(triangles / parts));
  const rows = Math.ceil(parts / ROW);
  const side = Math.ceil(Math.sqrt(rows));
  const out: GeneratedPart[] = [];
  let relation: Relation = 'clear';
  for (let i = 0; i < parts; i++) {
    const ix = i % ROW, row = Math.floor(i / ROW);
    const iy = row % side, iz = Math.floor(row / side);
    const first = ix % 2 === 0;
    const partnered = first ? i + 1 < parts && ix + 1 < ROW : true;
    if (first) {
      const r = rand();
      relation = !partnered ? 'clear' : r < 0.5 ? 'clear' : r < 0.75 ? 'touching' : 'overlapping';
    }
    const kinds: Shape[] = ['box', 'sphere', 'torus'];
    const shape: Shape = relation === 'touching' ? 'box' : kinds[Math.floor(rand() * 3)]!;
    let mesh: Mesh;
    if (shape === 'box') {
      // Half extent 7 along x (touching boxes meet exactly), 4–7 mm across.
      mesh = boxMesh([7, 4 + Math.round(rand() * 6) / 2, 4 + Math.round(rand() * 6) / 2], boxSegments(perPart));
    } else if (shape === 'sphere') {
      const [s, t] = sphereSegments(perPart);
      mesh = sphereMesh(5 + rand() * 2, s, t);
    } else {
      const [u, v] = torusSegments(perPart);
      const minor = 1 + rand() * 1.5;
      mesh = torusMesh(7 - minor - rand(), minor, u, v);
    }
    const id = `p${String(i + 1).padStart(4, '0')}`;
    const file = `parts/${id}-${shape}.stl`;
    writeFileSync(path.join(dir, file), binaryStl(mesh, id));
    // Pairs come closer: clear 6 mm apart, touching at 0, overlapping 4 mm deep (boxes; less
    // for rounder shapes, which still cross).
    const shift = relation === 'touching' ? 3 : relation === 'overlapping' ? 5 : 0;
    const x = ix * CELL + (first ? shift : -shift);
    const angle = relation === 'touching' ? 0 : rand() * 2 * Math.PI;
    const c = Math.cos(angle), s = Math.sin(angle);
    out.push({
      id, file, shape, relation,
      transform: [c, -s, 0, x, s, c, 0, iy * CELL, 0, 0, 1, iz * CELL, 0, 0, 0, 1],
      triangles: mesh.indices.length / 3,
    });
  }
  return out;
}

function writeAssembly(file: string, name: string, parts: readonly GeneratedPart[], prefix: string): void {
  writeFileSync(file, JSON.stringify({
    format: 'interfere-assembly',
    version: 1,
    name,
    units: 'mm',
    sources: parts.map((p) => ({ id: p.id, path: `${prefix}${p.file}` })),
    parts: parts.map((p) => ({ id: p.id, source: p.id, transform: p.transform })),
  }));
}

// ------------------------------------------------------------------------------------------------
// Running

export interface LoadRecord {
  impl: 'interfere';
  variant: 'load';
  parts: number;
  triangles: number;
  files_mb: number;
  generate_ms: number;
  relations: Record<Relation, number>;
  in_process: {
    open_ms: number;
    trees_ms: number;
    broad_phase_ms: number;
    collide_ms: number;
    classify_ms: number;
    check_ms: number;
    report_ms: number;
    total_ms: number;
    rss_mb_by_phase: Record<CheckStage | 'report', number>;
    peak_rss_mb: number;
  };
  pairs: {
    all: number;
    candidates: number;
    interference: number;
    contact: number;
    clearance: number;
    ignored: number;
    contained: number;
    triangle_pairs: number;
  };
  cli: ColdRun;
  batch: ColdRun & { assemblies: number; parts_each: number; reports: number };
}

interface ColdRun {
  ms: number;
  exit: number | null;
  peak_rss_mb: number | null;
  /** Peak RSS of each tree-building child the command started (sampled; Linux). */
  tree_builder_rss_mb: number[];
  /** Peak of the summed RSS of the command and its children (sampled; Linux). */
  process_tree_rss_mb: number | null;
}

const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;
const ms = (x: number): number => Math.round(x * 10) / 10;

function ensureBuilt(root: string): string {
  const cli = path.join(root, 'dist/node/cli/interfere.cjs');
  if (!existsSync(cli)) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  return cli;
}

/** Peak RSS (VmHWM) and current RSS (VmRSS) of a process in MB, from /proc (Linux); null elsewhere. */
function procMemory(pid: number): { hwm: number; rss: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { hwm: kb('VmHWM') / 1024, rss: kb('VmRSS') / 1024 };
  } catch {
    return null;
  }
}

/** The processes below `root` (Linux: /proc/<pid>/stat's parent pid). */
function descendants(root: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  const parent = new Map<number, number>();
  for (const e of entries) {
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      // pid (comm) state ppid …; comm may hold spaces and parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(e), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  for (const pid of parent.keys()) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        out.push(pid);
        break;
      }
    }
  }
  return out;
}

/**
 * The command line on a cold process: wall time, its peak RSS (./rssProbe.cjs), and — sampled
 * from /proc every 50 ms on Linux — the peak RSS of each tree-building child and of the whole
 * process tree at once.
 */
async function coldRun(root: string, args: string[], cwd: string): Promise<ColdRun & { stderr: string }> {
  const cli = ensureBuilt(root);
  const probe = path.join(root, 'bench/rssProbe.cjs');
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--require', probe, cli, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => {
    stderr += d;
  });
  const childPeaks = new Map<number, number>();
  let treePeak = 0;
  const sample = (): void => {
    if (child.pid === undefined) return;
    let total = procMemory(child.pid)?.rss ?? 0;
    for (const pid of descendants(child.pid)) {
      const m = procMemory(pid);
      if (m === null) continue;
      childPeaks.set(pid, Math.max(childPeaks.get(pid) ?? 0, m.hwm));
      total += m.rss;
    }
    treePeak = Math.max(treePeak, total);
  };
  const timer = setInterval(sample, 50);
  const exit = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  }).finally(() => clearInterval(timer));
  const elapsed = performance.now() - t0;
  const own = /BENCH_PEAK_RSS_MB ([\d.]+)/.exec(stderr);
  return {
    ms: ms(elapsed),
    exit,
    peak_rss_mb: own ? Number(own[1]) : null,
    tree_builder_rss_mb: [...childPeaks.values()].map((v) => Math.round(v * 10) / 10),
    process_tree_rss_mb: treePeak > 0 ? Math.round(treePeak * 10) / 10 : null,
    stderr,
  };
}

function note(message: string): void {
  process.stderr.write(`${message}\n`);
}

export async function runLoad(options: LoadOptions): Promise<LoadRecord> {
  const dir = options.dir ?? mkdtempSync(path.join(os.tmpdir(), 'interfere-load-'));
  mkdirSync(dir, { recursive: true });
  try {
    note(`load: generating ${options.parts} parts, ${options.triangles.toLocaleString('en-US')} triangles in ${dir}`);
    const g0 = performance.now();
    const parts = generateParts(dir, options.parts, options.triangles);
    const assembly = path.join(dir, 'load.assembly.json');
    writeAssembly(assembly, `load: ${parts.length} parts`, parts, '');
    const batchDir = path.join(dir, 'batch');
    mkdirSync(batchDir, { recursive: true });
    const perBatch = Math.ceil(parts.length / options.batch);
    const batchFiles: string[] = [];
    for (let b = 0; b < options.batch; b++) {
      const slice = parts.slice(b * perBatch, (b + 1) * perBatch);
      if (slice.length === 0) break;
      const file = path.join(batchDir, `slice-${String(b + 1).padStart(2, '0')}.assembly.json`);
      writeAssembly(file, `slice ${b + 1}`, slice, '../');
      batchFiles.push(file);
    }
    const generateMs = performance.now() - g0;
    let bytes = 0;
    for (const p of parts) bytes += statSync(path.join(dir, p.file)).size;
    const triangles = parts.reduce((s, p) => s + p.triangles, 0);
    const relations: Record<Relation, number> = { clear: 0, touching: 0, overlapping: 0 };
    for (let i = 0; i < parts.length; i += 2) relations[parts[i]!.relation]++;
    note(`load: ${mb(bytes)} MB of STL written in ${(generateMs / 1000).toFixed(1)} s; pairs in rows: ${JSON.stringify(relations)}`);

    // 1. In this process, as the command line does it (the process pool builds the trees).
    note('load: checking in this process…');
    const rss: Record<CheckStage | 'report', number> = { open: 0, trees: 0, check: 0, refine: 0, report: 0 };
    let lastSample = 0;
    const sample = (stage: CheckStage | 'report', force = false): void => {
      const now = performance.now();
      if (!force && now - lastSample < 20) return;
      lastSample = now;
      rss[stage] = Math.max(rss[stage], process.memoryUsage.rss());
    };
    // The command line's tree builder (a pool of one child per core) with its bundled child.
    const pool = new TreePool({ worker: { file: path.join(ensureBuilt(options.root), '../../compute/treeWorker.cjs'), execArgv: [] } });
    const buildTrees = poolTreeBuilder(pool);
    const t0 = performance.now();
    let result;
    try {
      result = await checkFile(assembly, {
        importer: createImporter(),
        buildTrees,
        onProgress: (stage, done, total) => sample(stage, done === 0 || done === total),
      });
    } finally {
      await pool.dispose();
    }
    const t1 = performance.now();
    const text = reportToJson(result.report);
    writeFileSync(path.join(dir, 'load.report.json'), text);
    const t2 = performance.now();
    sample('report', true);
    const s = result.report.summary;
    const record: LoadRecord = {
      impl: 'interfere',
      variant: 'load',
      parts: parts.length,
      triangles,
      files_mb: mb(bytes),
      generate_ms: ms(generateMs),
      relations,
      in_process: {
        open_ms: ms(result.timings.openMs),
        trees_ms: ms(result.timings.treesMs),
        broad_phase_ms: ms(result.check.phaseMs.broadPhase),
        collide_ms: ms(result.check.phaseMs.collide),
        classify_ms: ms(result.check.phaseMs.classify),
        check_ms: ms(result.timings.checkMs),
        report_ms: ms(t2 - t1),
        total_ms: ms(t2 - t0),
        rss_mb_by_phase: { open: mb(rss.open), trees: mb(rss.trees), check: mb(rss.check), refine: mb(rss.refine), report: mb(rss.report) },
        peak_rss_mb: ms(process.resourceUsage().maxRSS / 1024),
      },
      pairs: {
        all: (parts.length * (parts.length - 1)) / 2,
        candidates: result.check.candidatePairs,
        interference: s.interferences,
        contact: s.contacts,
        clearance: s.clearanceViolations,
        ignored: s.ignored,
        contained: s.contained,
        triangle_pairs: result.report.results.reduce((n, r) => n + r.trianglePairs.length, 0),
      },
      cli: { ms: 0, exit: null, peak_rss_mb: null, tree_builder_rss_mb: [], process_tree_rss_mb: null },
      batch: { ms: 0, exit: null, peak_rss_mb: null, tree_builder_rss_mb: [], process_tree_rss_mb: null, assemblies: batchFiles.length, parts_each: perBatch, reports: 0 },
    };
    result = null;

    // 2. The command line on a cold process.
    note('load: the command line on the whole assembly…');
    const cli = await coldRun(options.root, ['check', assembly, '--report', path.join(dir, 'cli.report.json'), '--quiet', '--no-progress'], dir);
    if (cli.exit !== 0 && cli.exit !== 1) throw new Error(`interfere exited with ${cli.exit}: ${cli.stderr.slice(0, 2000)}`);
    const cliReport = JSON.parse(readFileSync(path.join(dir, 'cli.report.json'), 'utf8')) as { summary: { interferences: number; contacts: number } };
    if (cliReport.summary.interferences !== s.interferences || cliReport.summary.contacts !== s.contacts) {
      throw new Error(`the command line found ${cliReport.summary.interferences} interference(s) and ${cliReport.summary.contacts} contact(s), this process ${s.interferences} and ${s.contacts}`);
    }
    record.cli = { ms: cli.ms, exit: cli.exit, peak_rss_mb: cli.peak_rss_mb, tree_builder_rss_mb: cli.tree_builder_rss_mb, process_tree_rss_mb: cli.process_tree_rss_mb };

    // 3. The saved assemblies in one command.
    note(`load: the command line on ${batchFiles.length} saved assemblies in one command…`);
    const reports = path.join(dir, 'reports');
    mkdirSync(reports, { recursive: true });
    const batch = await coldRun(options.root, ['check', ...batchFiles, '--report', path.join(reports, '{name}.json'), '--quiet', '--no-progress'], dir);
    if (batch.exit !== 0 && batch.exit !== 1) throw new Error(`interfere exited with ${batch.exit}: ${batch.stderr.slice(0, 2000)}`);
    const written = batchFiles.filter((f) => existsSync(path.join(reports, `${path.basename(f, '.assembly.json')}.json`))).length;
    record.batch = {
      ms: batch.ms, exit: batch.exit, peak_rss_mb: batch.peak_rss_mb, tree_builder_rss_mb: batch.tree_builder_rss_mb, process_tree_rss_mb: batch.process_tree_rss_mb,
      assemblies: batchFiles.length, parts_each: perBatch, reports: written,
    };
    return record;
  } finally {
    if (options.dir === null) rmSync(dir, { recursive: true, force: true });
  }
}

export function renderLoad(r: LoadRecord): string {
  const p = r.in_process;
  const f = (x: number): string => x.toLocaleString('en-US', { maximumFractionDigits: 1 });
  const children = (c: ColdRun): string =>
    (c.tree_builder_rss_mb.length > 0 ? `; tree-building children ${c.tree_builder_rss_mb.join(', ')} MB` : '') +
    (c.process_tree_rss_mb !== null ? `; all processes together ${c.process_tree_rss_mb} MB` : '');
  return [
    '',
    `== load: ${f(r.parts)} parts, ${f(r.triangles)} triangles (${f(r.files_mb)} MB of STL; pairs in rows: ${r.relations.clear} clear, ${r.relations.touching} touching, ${r.relations.overlapping} overlapping) ==`,
    `in this process (checkFile with the process pool, as the command line): ${f(p.total_ms)} ms`,
    `  open ${f(p.open_ms)} ms · trees ${f(p.trees_ms)} ms · check ${f(p.check_ms)} ms (broad phase ${f(p.broad_phase_ms)} · exact pairs ${f(p.collide_ms)} · classification and volumes ${f(p.classify_ms)}) · JSON report ${f(p.report_ms)} ms`,
    `  RSS by phase (sampled) open ${p.rss_mb_by_phase.open} · trees ${p.rss_mb_by_phase.trees} · check ${p.rss_mb_by_phase.check} · report ${p.rss_mb_by_phase.report} MB; peak ${p.peak_rss_mb} MB (this process)`,
    `pairs: ${f(r.pairs.all)} in all, ${f(r.pairs.candidates)} candidates after the broad phase → ${r.pairs.interference} interference (${r.pairs.contained} contained), ` +
      `${r.pairs.contact} contact, ${r.pairs.clearance} clearance, ${r.pairs.ignored} ignored; ${f(r.pairs.triangle_pairs)} intersecting triangle pairs`,
    `command line, cold process: ${f(r.cli.ms)} ms, exit ${r.cli.exit}, peak RSS ${r.cli.peak_rss_mb ?? '?'} MB${children(r.cli)}`,
    `command line, ${r.batch.assemblies} saved assemblies of ${r.batch.parts_each} parts in one command: ${f(r.batch.ms)} ms ` +
      `(${f(r.batch.ms / Math.max(1, r.batch.assemblies))} ms each), exit ${r.batch.exit}, ${r.batch.reports} reports, peak RSS ${r.batch.peak_rss_mb ?? '?'} MB${children(r.batch)}`,
  ].join('\n');
}
