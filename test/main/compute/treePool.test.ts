// The tree-building pool with real child processes (the TypeScript worker under tsx, forced onto
// the process path with inProcessBelowTriangles: 0), and with scripted fake children for the
// protocol's failure cases.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it, expect } from 'vitest';
import { buildObbTree } from '../../../src-core/obbtree/build.js';
import { serializeTree } from '../../../src-core/obbtree/serialize.js';
import { withoutPositions, type BuildRequest } from '../../../src-main/contract/compute.js';
import { TreeBuildError, TreePool, type TreeMeshInput } from '../../../src-main/services/treePool.js';
import { buildHere, fakeFork, loadMesh, processGone, resultFor, treeDifferences, waitFor } from './helpers.js';

const isBuild = (m: unknown): m is BuildRequest => (m as { type?: unknown }).type === 'build';

function capture(): { log: (m: string) => void; lines: string[] } {
  const lines: string[] = [];
  return { lines, log: (m) => lines.push(m) };
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

describe('tree pool with child processes', () => {
  const logged = capture();
  const pool = new TreePool({ size: 2, inProcessBelowTriangles: 0, log: logged.log });
  afterAll(() => pool.dispose());

  it('builds trees equal to in-process builds, sharing the caller\'s positions, with progress to the total', async () => {
    const meshes = ['box-48', 'bunny-3674', 'sphere-20k', 'cylinder-100k'].map(loadMesh);
    const progress: [number, number][] = [];
    const trees = await pool.buildTrees(meshes, { onProgress: (d, t) => progress.push([d, t]) });
    expect([...trees.keys()].sort()).toEqual(meshes.map((m) => m.meshId).sort());
    for (const m of meshes) {
      const tree = trees.get(m.meshId);
      expect(tree?.kind).toBe('obb');
      if (!tree) continue;
      expect(treeDifferences(tree, buildHere(m)), m.meshId).toEqual([]);
      expect(tree.positions.buffer, m.meshId).toBe(m.positions.buffer);
    }
    const total = 48 + 3674 + 20_000 + 100_000;
    expect(progress[0]).toEqual([0, total]);
    expect(progress.at(-1)).toEqual([total, total]);
    for (let i = 1; i < progress.length; i++) expect(progress[i][0]).toBeGreaterThan(progress[i - 1][0]);
    expect(logged.lines).toEqual([]);
  });

  it('runs two children in parallel', async () => {
    const meshes = ['cylinder-100k', 'tube-100k', 'env-100k'].map(loadMesh);
    const busyPids = new Set<number>();
    let bothBusy = false;
    const poll = setInterval(() => {
      const busy = pool.status().filter((c) => c.state === 'busy');
      for (const c of busy) if (c.pid !== undefined) busyPids.add(c.pid);
      if (busy.length === 2 && busy[0].pid !== busy[1].pid) bothBusy = true;
    }, 2);
    try {
      const trees = await pool.buildTrees(meshes);
      expect(trees.size).toBe(3);
    } finally {
      clearInterval(poll);
    }
    expect(bothBusy).toBe(true);
    expect(busyPids.size).toBe(2);
  });

  it('cancels in the middle of a 500k-triangle build within a second; the next build works', async () => {
    const big = loadMesh('torus-500k');
    const controller = new AbortController();
    const pending = pool.buildTrees([big], { signal: controller.signal });
    pending.catch(() => {});
    const busy = await waitFor(() => pool.status().find((c) => c.meshId === big.meshId), 10_000, 'the build to start');
    // Let the mesh arrive and the build get under way.
    await new Promise((r) => setTimeout(r, 150));
    const t0 = performance.now();
    controller.abort();
    const error = await rejection(pending);
    const ms = performance.now() - t0;
    expect(error.name).toBe('AbortError');
    expect(ms).toBeLessThan(1000);
    // The busy child was killed (and is gone soon after), not left building.
    expect(pool.status().some((c) => c.pid === busy.pid)).toBe(false);
    await waitFor(() => processGone(busy.pid as number), 2000, 'the cancelled child to exit');
    const after = loadMesh('sphere-20k');
    const trees = await pool.buildTrees([after]);
    expect(treeDifferences(trees.get(after.meshId) as never, buildHere(after))).toEqual([]);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const error = await rejection(pool.buildTrees([loadMesh('box-48')], { signal: AbortSignal.abort() }));
    expect(error.name).toBe('AbortError');
  });

  it('fails a batch whose mesh is invalid with the child\'s error code and the mesh named', async () => {
    const bad: TreeMeshInput = { meshId: 'broken', positions: new Float64Array(9), indices: new Uint32Array([0, 1, 7]) };
    const error = await rejection(pool.buildTrees([loadMesh('bunny-3674'), bad]));
    expect(error).toBeInstanceOf(TreeBuildError);
    expect(error).toMatchObject({ code: 'invalid-mesh', meshId: 'broken' });
    expect(error.message).toMatch(/mesh 'broken': triangle 0 refers to vertex 7/);
  });

  it('refuses malformed input', async () => {
    await expect(pool.buildTrees([{ meshId: 'a', positions: new Float32Array(9), indices: new Uint32Array(3) } as unknown as TreeMeshInput]))
      .rejects.toThrow(/positions must be a Float64Array/);
    const box = loadMesh('box-48');
    await expect(pool.buildTrees([box, box])).rejects.toThrow(/appears twice/);
  });
});

describe('tree pool: children that die', () => {
  it('retries a mesh whose child was killed (SIGKILL) on a fresh child', async () => {
    const logged = capture();
    const pool = new TreePool({ size: 1, inProcessBelowTriangles: 0, log: logged.log });
    try {
      const m = loadMesh('cylinder-100k');
      const pending = pool.buildTrees([m]);
      const busy = await waitFor(() => pool.status().find((c) => c.state === 'busy'), 10_000, 'a busy child');
      process.kill(busy.pid as number, 'SIGKILL');
      const trees = await pending;
      expect(treeDifferences(trees.get(m.meshId) as never, buildHere(m))).toEqual([]);
      expect(logged.lines.join('\n')).toMatch(/stopped unexpectedly \(exit code none, signal SIGKILL\) while building mesh 'cylinder-100k'; retrying/);
      expect(pool.status().map((c) => c.pid)).not.toContain(busy.pid);
    } finally {
      await pool.dispose();
    }
  });

  it('fails the batch when the retry dies too; the next batch runs', async () => {
    const logged = capture();
    const pool = new TreePool({ size: 1, inProcessBelowTriangles: 0, log: logged.log });
    try {
      const m = loadMesh('cylinder-100k');
      const pending = pool.buildTrees([m]);
      pending.catch(() => {});
      const killed: number[] = [];
      for (let i = 0; i < 2; i++) {
        const busy = await waitFor(() => pool.status().find((c) => c.state === 'busy' && !killed.includes(c.pid as number)), 10_000, 'a busy child');
        killed.push(busy.pid as number);
        process.kill(busy.pid as number, 'SIGKILL');
      }
      const error = await rejection(pending);
      expect(error).toBeInstanceOf(TreeBuildError);
      expect(error).toMatchObject({ code: 'crashed', meshId: m.meshId });
      expect(error.message).toMatch(/^the tree-building process stopped unexpectedly \(exit code none, signal SIGKILL\)/);
      const next = loadMesh('torus-20k');
      const trees = await pool.buildTrees([next]);
      expect(treeDifferences(trees.get(next.meshId) as never, buildHere(next))).toEqual([]);
    } finally {
      await pool.dispose();
    }
  });

  it('fails with start-failed when the worker cannot start', async () => {
    // A worker that ends before it reports ready.
    const dir = mkdtempSync(path.join(tmpdir(), 'interfere-pool-'));
    const file = path.join(dir, 'quits.cjs');
    writeFileSync(file, 'process.exitCode = 3;\n');
    const logged = capture();
    const pool = new TreePool({ size: 2, inProcessBelowTriangles: 0, log: logged.log, worker: { file, execArgv: [] } });
    try {
      const error = await rejection(pool.buildTrees([loadMesh('box-48')]));
      expect(error).toMatchObject({ name: 'TreeBuildError', code: 'start-failed' });
      expect(error.message).toMatch(/could not start: it stopped while starting \(exit code 3\)/);
    } finally {
      await pool.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('tree pool: disposal and the in-process path', () => {
  it('dispose fails the running batch and leaves no child process', async () => {
    const pool = new TreePool({ size: 2, inProcessBelowTriangles: 0, log: () => {} });
    await pool.warmUp();
    const pids = pool.status().map((c) => c.pid as number);
    expect(pids).toHaveLength(2);
    const pending = pool.buildTrees([loadMesh('torus-500k')]);
    pending.catch(() => {});
    await waitFor(() => pool.status().some((c) => c.state === 'busy'), 10_000, 'a busy child');
    await pool.dispose();
    await expect(pending).rejects.toMatchObject({ code: 'disposed' });
    for (const pid of pids) {
      expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    }
    await expect(pool.buildTrees([loadMesh('box-48')])).rejects.toMatchObject({ code: 'disposed' });
  });

  it('builds small batches in this process, without starting a child', async () => {
    const pool = new TreePool({ size: 2, log: () => {}, fork: () => { throw new Error('no child expected'); } });
    const meshes = ['box-48', 'bunny-3674'].map(loadMesh);
    const progress: number[] = [];
    const trees = await pool.buildTrees(meshes, { onProgress: (d) => progress.push(d) });
    for (const m of meshes) expect(treeDifferences(trees.get(m.meshId) as never, buildHere(m))).toEqual([]);
    expect(progress).toEqual([0, 48, 48 + 3674]);
    expect(pool.status()).toEqual([]);
    await pool.dispose();
  });
});

describe('tree pool with scripted children', () => {
  it('sends the largest meshes first', async () => {
    const fork = fakeFork((m, child) => { if (isBuild(m)) child.send(resultFor(m)); });
    const pool = new TreePool({ size: 1, inProcessBelowTriangles: 0, fork, log: () => {} });
    const meshes = ['box-48', 'sphere-20k', 'bunny-3674', 'torus-20k'].map(loadMesh);
    await pool.buildTrees(meshes);
    const order = fork.children[0].received.filter(isBuild).map((r) => r.meshId);
    expect(order.slice(0, 2).sort()).toEqual(['sphere-20k', 'torus-20k']);
    expect(order.slice(2)).toEqual(['bunny-3674', 'box-48']);
    await pool.dispose();
  });

  it('refuses malformed messages with a logged reason and keeps working', async () => {
    const logged = capture();
    const fork = fakeFork((m, child) => {
      if (!isBuild(m)) return;
      const good = resultFor(m) as { tree: { buffers: ArrayBuffer[] } };
      for (const junk of [
        null,
        'result',
        { type: 'finished', jobId: m.jobId },
        { type: 'result', jobId: m.jobId + 100 },
        { type: 'progress', jobId: m.jobId, done: 10, total: 5 },
        { ...good, tree: { ...good.tree, buffers: good.tree.buffers.map((b) => new Float64Array(b)) }, jobId: m.jobId + 1000 },
        { ...good, jobId: m.jobId + 100 },
        { type: 'error', jobId: m.jobId + 100, code: 'meltdown', message: '?' },
      ]) child.send(junk);
      child.send(good);
    });
    const pool = new TreePool({ size: 1, inProcessBelowTriangles: 0, fork, log: logged.log });
    const m = loadMesh('bunny-3674');
    const trees = await pool.buildTrees([m]);
    expect(treeDifferences(trees.get(m.meshId) as never, buildHere(m))).toEqual([]);
    const text = logged.lines.join('\n');
    expect(logged.lines).toHaveLength(8);
    expect(text).toMatch(/refused a message: message must be an object, got null/);
    expect(text).toMatch(/refused a message: message must be an object, got string/);
    expect(text).toMatch(/refused a message: unknown message type 'finished'/);
    expect(text).toMatch(/refused a message: 'result' message has no 'meshId'/);
    expect(text).toMatch(/refused a message: 'progress' message: done 10 exceeds total 5/);
    expect(text).toMatch(/'tree.buffers\[0\]' must be an ArrayBuffer, got Float64Array/);
    expect(text).toMatch(/refused a 'result' for job \d+, which it is not working on/);
    expect(text).toMatch(/'code' must be one of/);
    expect(fork.children[0].killed).toBe(false);
    await pool.dispose();
  });

  it.each([
    ['a result without meshId', (r: Record<string, unknown>) => ({ ...r, meshId: undefined }), /'result' message: 'meshId' must be a string/],
    ['a result with typed arrays for buffers', (r: Record<string, unknown>) => {
      const tree = r.tree as { buffers: ArrayBuffer[] };
      return { ...r, tree: { ...tree, buffers: tree.buffers.map((b) => new Float64Array(b)) } };
    }, /'tree.buffers\[0\]' must be an ArrayBuffer, got Float64Array/],
    ['an error with an unknown code', (r: Record<string, unknown>) => ({ type: 'error', jobId: r.jobId, code: 'meltdown', message: '?' }), /'code' must be one of/],
  ])('fails the mesh on a malformed answer to it (%s) and replaces that child', async (_what, spoil, reason) => {
    let calls = 0;
    const fork = fakeFork((m, child) => {
      if (!isBuild(m)) return;
      const good = resultFor(m) as Record<string, unknown>;
      child.send(calls++ === 0 ? spoil(good) : good);
    });
    const logged = capture();
    const pool = new TreePool({ size: 1, inProcessBelowTriangles: 0, fork, log: logged.log });
    const m = loadMesh('bunny-3674');
    const error = await rejection(pool.buildTrees([m]));
    expect(error).toMatchObject({ code: 'invalid-result', meshId: m.meshId });
    expect(error.message).toMatch(/the tree-building process sent a malformed answer/);
    expect(error.message).toMatch(reason);
    expect(logged.lines.join('\n')).toMatch(reason);
    expect(fork.children[0].killed).toBe(true);
    expect((await pool.buildTrees([m])).has(m.meshId)).toBe(true);
    await pool.dispose();
  });

  it('fails the batch on a tree that does not deserialise, and replaces that child', async () => {
    let calls = 0;
    const fork = fakeFork((m, child) => {
      if (!isBuild(m)) return;
      const tree = withoutPositions(serializeTree(buildObbTree({
        positions: m.positions, indices: m.indices, vertexCount: m.positions.length / 3, triangleCount: m.indices.length / 3,
      })));
      // The first answer's box buffer is one node short.
      const buffers = calls++ === 0 ? [tree.buffers[0].slice(8 * 15), ...tree.buffers.slice(1)] : tree.buffers;
      child.send({ type: 'result', jobId: m.jobId, meshId: m.meshId, tree: { ...tree, buffers }, buildMs: 1 });
    });
    const pool = new TreePool({ size: 1, inProcessBelowTriangles: 0, fork, log: () => {} });
    const m = loadMesh('bunny-3674');
    const error = await rejection(pool.buildTrees([m]));
    expect(error).toMatchObject({ code: 'invalid-result', meshId: m.meshId });
    expect(error.message).toMatch(/sent an unusable tree \(serialised tree: boxes has the wrong size\)/);
    expect(fork.children[0].killed).toBe(true);
    const trees = await pool.buildTrees([m]);
    expect(trees.has(m.meshId)).toBe(true);
    expect(fork.children).toHaveLength(2);
    await pool.dispose();
  });

  it('does not use a child that speaks another protocol version', async () => {
    const fork = fakeFork(() => {}, { type: 'ready', protocol: 99 });
    const logged = capture();
    const pool = new TreePool({ size: 1, inProcessBelowTriangles: 0, fork, log: logged.log });
    const error = await rejection(pool.buildTrees([loadMesh('box-48')]));
    expect(error).toMatchObject({ code: 'start-failed' });
    expect(error.message).toMatch(/speaks protocol 99, not 1/);
    expect(fork.children.every((c) => c.killed && c.received.length === 0)).toBe(true);
    await pool.dispose();
  });

  it('kills a child that never reports ready', async () => {
    const fork = fakeFork(() => {}, { type: 'not ready' });
    const pool = new TreePool({ size: 1, inProcessBelowTriangles: 0, fork, startTimeoutMs: 50, log: () => {} });
    const error = await rejection(pool.buildTrees([loadMesh('box-48')]));
    expect(error.message).toMatch(/did not report ready within 50 ms/);
    expect(fork.children.length).toBeGreaterThan(0);
    expect(fork.children.every((c) => c.killed)).toBe(true);
    await pool.dispose();
  });
});

beforeAll(() => {
  // Read the large meshes once, before any timing.
  for (const name of ['cylinder-100k', 'tube-100k', 'env-100k', 'torus-500k']) loadMesh(name);
});
