// The on-disk tree cache, alone and behind the pool.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import { TreeCache } from '../../../src-main/services/treeCache.js';
import { TreePool } from '../../../src-main/services/treePool.js';
import { buildHere, loadMesh, treeDifferences } from './helpers.js';

let dir: string;
beforeEach(() => { dir = mkdtempSync(path.join(tmpdir(), 'interfere-tree-cache-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function capture(): { log: (m: string) => void; lines: string[] } {
  const lines: string[] = [];
  return { lines, log: (m) => lines.push(m) };
}

describe('tree cache', () => {
  it('gives back a stored tree, sharing the caller\'s positions, and nothing for other content or options', async () => {
    const cache = new TreeCache({ dir });
    const m = loadMesh('bunny-3674');
    const key = await TreeCache.keyOf(m.positions, m.indices);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(await cache.get(key, m.positions, m.indices)).toBeNull();
    const tree = buildHere(m);
    await cache.put(key, tree);
    // No positions on disk: the file is smaller than the tree.
    const [file] = readdirSync(dir);
    expect(file).toBe(`${key}.obbtree`);
    expect(statSync(path.join(dir, file)).size).toBeLessThan(tree.boxes.byteLength + tree.nodes.byteLength + 2 * tree.triOrder.byteLength + tree.triVerts.byteLength);
    const back = await cache.get(key, m.positions, m.indices);
    expect(back && treeDifferences(back, tree)).toEqual([]);
    expect(back?.positions.buffer).toBe(m.positions.buffer);

    const moved = m.positions.slice();
    moved[5] += 1e-9;
    expect(await TreeCache.keyOf(moved, m.indices)).not.toBe(key);
    expect(await TreeCache.keyOf(m.positions, m.indices, 8)).not.toBe(key);
    expect(await TreeCache.keyOf(m.positions, m.indices.slice(3))).not.toBe(key);
  });

  it('treats damaged or foreign files as misses and deletes them', async () => {
    const logged = capture();
    const cache = new TreeCache({ dir, log: logged.log });
    const m = loadMesh('bunny-3674');
    const other = loadMesh('box-48');
    const key = await TreeCache.keyOf(m.positions, m.indices);
    const file = path.join(dir, `${key}.obbtree`);

    await cache.put(key, buildHere(m));
    truncateSync(file, statSync(file).size - 8);
    expect(await cache.get(key, m.positions, m.indices)).toBeNull();
    expect(readdirSync(dir)).toEqual([]);

    writeFileSync(file, 'this is not a tree, only some text');
    expect(await cache.get(key, m.positions, m.indices)).toBeNull();
    expect(readdirSync(dir)).toEqual([]);

    // Another mesh's tree under this key (as a hash collision would give): its triangles differ.
    const otherKey = await TreeCache.keyOf(other.positions, other.indices);
    await cache.put(otherKey, buildHere(other));
    const bytes = readFileSync(path.join(dir, `${otherKey}.obbtree`));
    writeFileSync(file, Buffer.from(bytes.toString('latin1').replace(otherKey, key), 'latin1'));
    expect(await cache.get(key, other.positions, m.indices)).toBeNull();
    expect(readdirSync(dir)).toEqual([`${otherKey}.obbtree`]);

    expect(logged.lines).toHaveLength(3);
    expect(logged.lines[0]).toMatch(/deleting unusable cache file .*: file size does not match its header/);
    expect(logged.lines[1]).toMatch(/not a tree cache file/);
    expect(logged.lines[2]).toMatch(/its triangles are not the mesh's/);
  });

  it('deletes the least recently used files beyond its size limit, and abandoned temporary files', async () => {
    const size = new Map<string, number>();
    const probe = new TreeCache({ dir });
    for (const n of ['box-48', 'bunny-3674', 'sphere-20k']) {
      const m = loadMesh(n);
      const key = await TreeCache.keyOf(m.positions, m.indices);
      await probe.put(key, buildHere(m));
      size.set(n, statSync(path.join(dir, `${key}.obbtree`)).size);
    }
    rmSync(dir, { recursive: true, force: true });

    // Room for the box and the sphere, not for all three: storing the sphere drops the bunny.
    const maxBytes = Math.ceil(((size.get('box-48') as number) + (size.get('sphere-20k') as number)) / 0.9) + 1;
    expect([...size.values()].reduce((a, b) => a + b)).toBeGreaterThan(maxBytes);
    const cache = new TreeCache({ dir, maxBytes });
    const keys: string[] = [];
    for (const [i, n] of ['box-48', 'bunny-3674'].entries()) {
      const m = loadMesh(n);
      keys.push(await TreeCache.keyOf(m.positions, m.indices));
      await cache.put(keys[i], buildHere(m));
      const t = new Date(Date.now() - (10 - i) * 60_000);
      utimesSync(path.join(dir, `${keys[i]}.obbtree`), t, t);
    }
    const stale = path.join(dir, `${keys[0]}.obbtree.1-abcd.tmp`);
    writeFileSync(stale, 'x');
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(stale, old, old);
    // Reading the box's tree makes it the most recently used.
    const box = loadMesh('box-48');
    expect(await cache.get(keys[0], box.positions, box.indices)).not.toBeNull();
    const sphere = loadMesh('sphere-20k');
    await cache.put(await TreeCache.keyOf(sphere.positions, sphere.indices), buildHere(sphere));
    const left = readdirSync(dir);
    expect(left).not.toContain(`${keys[1]}.obbtree`);
    expect(left).toContain(`${keys[0]}.obbtree`);
    expect(left.some((f) => f.endsWith('.tmp'))).toBe(false);
  });
});

describe('tree pool with a cache', () => {
  it('builds what is missing, stores it, and reads it back the next time without a child', async () => {
    const cache = new TreeCache({ dir });
    const meshes = ['bunny-3674', 'sphere-20k'].map(loadMesh);
    const first = new TreePool({ size: 1, inProcessBelowTriangles: 0, cache, log: () => {} });
    try {
      await first.buildTrees([meshes[0]]);
      await first.flush();
      expect(readdirSync(dir)).toHaveLength(1);
      // One hit, one miss: only the miss goes to a child.
      const progress: number[] = [];
      const trees = await first.buildTrees(meshes, { onProgress: (d) => progress.push(d) });
      for (const m of meshes) expect(treeDifferences(trees.get(m.meshId) as never, buildHere(m))).toEqual([]);
      expect(progress).toEqual([0, 3674, 23_674]);
    } finally {
      await first.dispose();
    }
    expect(readdirSync(dir)).toHaveLength(2);

    const second = new TreePool({ size: 1, inProcessBelowTriangles: 0, cache, fork: () => { throw new Error('no child expected'); } });
    const trees = await second.buildTrees(meshes);
    for (const m of meshes) {
      expect(treeDifferences(trees.get(m.meshId) as never, buildHere(m))).toEqual([]);
      expect(trees.get(m.meshId)?.positions.buffer).toBe(m.positions.buffer);
    }
    expect(second.status()).toEqual([]);
    await second.dispose();
  });
});
