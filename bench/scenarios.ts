// Reading benchmark input: scenarios.json (the generated set of ./generate.ts or any other file in
// that format), peers.json next to it or bench/peers.json, and binary STL meshes.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PreparedMesh, QueryMode } from './strategies';

export interface Scenario {
  name: string;
  description: string;
  /** Mesh paths as written in scenarios.json (relative to its folder). */
  meshA: string;
  meshB: string;
  query: QueryMode;
  /** false for semantics probes, which are excluded from timing summaries. */
  timing: boolean;
  /** Row-major 4 × 4 matrices mapping meshB's coordinates into meshA's frame. */
  poses: Float64Array[];
  /** The scenario of the original set whose peers' figures belong beside this one (its name unless given). */
  peersScenario: string;
}

export interface ScenarioFile {
  /** Absolute path of scenarios.json. */
  file: string;
  /** Its folder: mesh paths and peers.json resolve against it. */
  dir: string;
  format: string;
  /** bench/generate.ts's version for the generated set, null for any other file. */
  generatorVersion: number | null;
  scenarios: Scenario[];
}

export interface PeerFigures {
  build_ms: number;
  query_ms: number;
  query_ratio_to_fcl_obbrss?: number;
  contacts: number;
  model_bytes_per_tri?: number;
}

/** Exact per-pose counts of a scenario and their sum and FNV-1a fingerprint. */
export interface ExactCounts {
  exactContacts: number;
  perPoseHash: string;
  perPose: number[];
}

export interface PeerScenario {
  name: string;
  query: QueryMode;
  timing: boolean;
  triangles: [number, number];
  poses: number;
  exactContacts: number;
  perPoseHash: string;
  /** Present in a peers.json that belongs to its scenarios.json (absent in bench/peers.json). */
  perPose?: number[];
  /** Keyed like 'RAPID-2.01', 'fcl/obbrss', 'three-mesh-bvh/sah'. */
  peers: Record<string, PeerFigures>;
}

export interface PeersFile {
  format: string;
  /** Where the figures come from (bench/peers.json). */
  source?: string;
  measured?: string;
  machine?: string;
  peers: Record<string, string>;
  scenarios: PeerScenario[];
  geomean_query_ratio_to_fcl_obbrss?: Record<string, number>;
}

/** Malformed or missing benchmark input. */
export class BenchInputError extends Error {}

function fail(file: string, message: string): never {
  throw new BenchInputError(`${file}: ${message}`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads and checks scenarios.json; poses become Float64Arrays of 16 numbers. */
export function loadScenarios(file: string): ScenarioFile {
  const abs = path.resolve(file);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(abs, 'utf8'));
  } catch (e) {
    fail(abs, `cannot read scenarios (${(e as Error).message})`);
  }
  if (!isRecord(raw) || !Array.isArray(raw.scenarios)) fail(abs, 'no "scenarios" array');
  const names = new Set<string>();
  const scenarios = raw.scenarios.map((s: unknown, i: number): Scenario => {
    if (!isRecord(s)) fail(abs, `scenario ${i} is not an object`);
    const name = s.name;
    if (typeof name !== 'string' || name === '') fail(abs, `scenario ${i} has no name`);
    if (names.has(name)) fail(abs, `duplicate scenario name ${name}`);
    names.add(name);
    if (typeof s.meshA !== 'string' || typeof s.meshB !== 'string') fail(abs, `${name}: meshA/meshB missing`);
    if (s.query !== 'all' && s.query !== 'any') fail(abs, `${name}: query must be "all" or "any"`);
    if (!Array.isArray(s.poses)) fail(abs, `${name}: no poses`);
    const poses = s.poses.map((p: unknown, k: number) => {
      if (!Array.isArray(p) || p.length !== 16 || !p.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        fail(abs, `${name}: pose ${k} is not 16 finite numbers`);
      }
      return Float64Array.from(p as number[]);
    });
    return {
      name,
      description: typeof s.description === 'string' ? s.description : '',
      meshA: s.meshA,
      meshB: s.meshB,
      query: s.query,
      timing: s.timing !== false,
      poses,
      peersScenario: typeof s.peersScenario === 'string' ? s.peersScenario : name,
    };
  });
  return {
    file: abs,
    dir: path.dirname(abs),
    format: typeof raw.format === 'string' ? raw.format : '',
    generatorVersion: typeof raw.generatorVersion === 'number' ? raw.generatorVersion : null,
    scenarios,
  };
}

/** Absolute path of a mesh named in scenarios.json. */
export function meshPath(scenarios: ScenarioFile, relative: string): string {
  return path.resolve(scenarios.dir, relative);
}

/** peers.json from the scenarios' folder, or null when there is none. */
export function loadPeers(scenarios: ScenarioFile): PeersFile | null {
  return loadPeersFile(path.join(scenarios.dir, 'peers.json'));
}

/** A peers file (the format of peers.json), or null when it does not exist. */
export function loadPeersFile(file: string): PeersFile | null {
  if (!existsSync(file)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    fail(file, `cannot read peers (${(e as Error).message})`);
  }
  if (!isRecord(raw) || !Array.isArray(raw.scenarios)) fail(file, 'no "scenarios" array');
  return raw as unknown as PeersFile;
}

export function readStlFile(file: string): PreparedMesh {
  let data: Uint8Array;
  try {
    data = readFileSync(file);
  } catch (e) {
    fail(file, `cannot read mesh (${(e as Error).message})`);
  }
  return readBinaryStl(data, file);
}

function mixHash(x: number, y: number, z: number): number {
  let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y ^ 0x7f4a7c15, 0x85ebca77) ^ Math.imul(z ^ 0x165667b1, 0xc2b2ae3d);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}

/**
 * Parses a binary STL (80-byte header, uint32 count, 50 bytes per triangle, little-endian) and
 * welds vertices whose float32 coordinates are exactly equal (−0 and +0 count as equal). Triangle
 * i of the result is triangle i of the file, with its corners in file order; vertices are numbered
 * in order of first appearance. Stored normals are ignored.
 */
export function readBinaryStl(data: Uint8Array, name = 'STL'): PreparedMesh {
  if (data.byteLength < 84) fail(name, `too short for a binary STL (${data.byteLength} bytes)`);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const triangleCount = view.getUint32(80, true);
  const expected = 84 + 50 * triangleCount;
  if (data.byteLength !== expected) {
    fail(name, `not a binary STL: ${data.byteLength} bytes, but ${triangleCount} triangles need ${expected}`);
  }
  const corners = 3 * triangleCount;
  let capacity = 16;
  while (capacity < 2 * corners) capacity *= 2;
  const mask = capacity - 1;
  const table = new Int32Array(capacity).fill(-1);
  const bits = new Uint32Array(3 * corners); // float32 bit patterns of each distinct vertex
  const coords = new Float64Array(3 * corners);
  const indices = new Uint32Array(corners);
  let vertexCount = 0;
  for (let t = 0; t < triangleCount; t++) {
    const base = 84 + 50 * t + 12; // skip the stored normal
    for (let k = 0; k < 3; k++) {
      const off = base + 12 * k;
      const x = view.getFloat32(off, true);
      const y = view.getFloat32(off + 4, true);
      const z = view.getFloat32(off + 8, true);
      if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
        fail(name, `triangle ${t} has a non-finite coordinate`);
      }
      // Bit patterns as the key, with −0 folded onto +0.
      const bx = x === 0 ? 0 : view.getUint32(off, true);
      const by = y === 0 ? 0 : view.getUint32(off + 4, true);
      const bz = z === 0 ? 0 : view.getUint32(off + 8, true);
      let slot = mixHash(bx, by, bz) & mask;
      let v: number;
      for (;;) {
        v = table[slot];
        if (v < 0) {
          v = vertexCount++;
          table[slot] = v;
          bits[3 * v] = bx;
          bits[3 * v + 1] = by;
          bits[3 * v + 2] = bz;
          coords[3 * v] = x === 0 ? 0 : x;
          coords[3 * v + 1] = y === 0 ? 0 : y;
          coords[3 * v + 2] = z === 0 ? 0 : z;
          break;
        }
        if (bits[3 * v] === bx && bits[3 * v + 1] === by && bits[3 * v + 2] === bz) break;
        slot = (slot + 1) & mask;
      }
      indices[3 * t + k] = v;
    }
  }
  return { positions: coords.slice(0, 3 * vertexCount), indices, triangleCount };
}

/** An independent copy, so that meshA and meshB never share arrays. */
export function cloneMesh(mesh: PreparedMesh): PreparedMesh {
  return { positions: mesh.positions.slice(), indices: mesh.indices.slice(), triangleCount: mesh.triangleCount };
}
