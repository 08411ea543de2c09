import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it, expect } from 'vitest';
import { fnv1a32, geomean, median, perPoseHash, renderTable } from '../../bench/report';
import { loadPeers, loadScenarios, readBinaryStl, readStlFile } from '../../bench/scenarios';

const BENCH_DIR = fileURLToPath(new URL('../../../shared/bench/', import.meta.url));

describe('bench report helpers', () => {
  it('hashes per-pose counts with 32-bit FNV-1a as 8 lower-case hex digits', () => {
    expect(fnv1a32('')).toBe('811c9dc5');
    expect(fnv1a32('a')).toBe('e40c292c');
    expect(fnv1a32('0,0,46,112')).toBe('ab20d61b');
    expect(perPoseHash([0, 0, 46, 112])).toBe('ab20d61b');
  });

  it('reproduces the per-pose hashes stored in peers.json', () => {
    const peers = loadPeers(loadScenarios(`${BENCH_DIR}scenarios.json`));
    expect(peers).not.toBeNull();
    for (const s of peers?.scenarios ?? []) {
      expect(perPoseHash(s.perPose), s.name).toBe(s.perPoseHash);
      expect(s.perPose.reduce((a, b) => a + b, 0), s.name).toBe(s.exactContacts);
    }
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

describe('bench scenario input', () => {
  it('reads box-48.stl: 48 triangles in file order over 26 welded vertices', () => {
    const file = `${BENCH_DIR}meshes/box-48.stl`;
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
    const file = loadScenarios(`${BENCH_DIR}scenarios.json`);
    const names = file.scenarios.map((s) => s.name);
    expect(names).toContain('bunny-random');
    expect(names).toContain('boxes-touching');
    const boxes = file.scenarios.find((s) => s.name === 'boxes-touching');
    expect(boxes?.timing).toBe(false);
    expect(boxes?.poses.length).toBe(13);
    expect(file.scenarios.find((s) => s.name === 'bunny-random')?.timing).toBe(true);
    for (const s of file.scenarios) for (const p of s.poses) expect(p.length).toBe(16);
  });
});
