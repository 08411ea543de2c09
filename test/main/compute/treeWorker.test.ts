// The tree-building child on its own (driven through forkNodeChild like the pool does), and the
// bundled worker built the way scripts/build.mjs builds it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it, expect } from 'vitest';
import { build } from 'esbuild';
import { buildObbTree } from '../../../src-core/obbtree/build.js';
import { deserializeTree } from '../../../src-core/obbtree/serialize.js';
import { parseChildMessage, withPositions, type ChildToParentMessage } from '../../../src-main/contract/compute.js';
import { forkNodeChild, type ChildHandle } from '../../../src-main/services/spawn.js';
import { TreePool, findTreeWorker } from '../../../src-main/services/treePool.js';
import { buildHere, loadMesh, processGone, treeDifferences, waitFor } from './helpers.js';

const REPO = process.cwd();

/** A child with every message it sent, parsed (a message that does not parse fails the test). */
function startChild(entry = findTreeWorker(path.join(REPO, 'src-main/services/treePool.ts'))): { child: ChildHandle; inbox: ChildToParentMessage[]; exit: Promise<[number | null, string | null]> } {
  const child = forkNodeChild(entry);
  const inbox: ChildToParentMessage[] = [];
  child.on('message', (raw) => {
    const parsed = parseChildMessage(raw);
    if (!parsed.ok) throw new Error(`the child sent a malformed message: ${parsed.reason}`);
    inbox.push(parsed.value);
  });
  const exit = new Promise<[number | null, string | null]>((resolve) => child.on('exit', (code, signal) => resolve([code, signal])));
  return { child, inbox, exit };
}

describe('tree worker child', () => {
  let c: ReturnType<typeof startChild>;
  beforeAll(async () => {
    c = startChild();
    await waitFor(() => c.inbox.find((m) => m.type === 'ready'), 20_000, 'ready');
  });
  afterAll(async () => {
    c.child.kill();
    await c.exit;
  });

  const answerTo = (jobId: number) => waitFor(() => c.inbox.find((m) => (m.type === 'result' || m.type === 'error') && m.jobId === jobId), 20_000, `an answer to job ${jobId}`);

  it('announces itself ready with the protocol version', () => {
    expect(c.inbox[0]).toEqual({ type: 'ready', protocol: 1 });
  });

  it('answers malformed requests with invalid-request when it can tell their jobId, and goes on', async () => {
    const box = loadMesh('box-48');
    c.child.postMessage('hello');
    c.child.postMessage({ type: 'rebuild', jobId: 11 });
    c.child.postMessage({ type: 'build', jobId: 12, meshId: 'b', positions: Array.from(box.positions), indices: box.indices, options: {} });
    c.child.postMessage({ type: 'build', jobId: 13, meshId: 'b', positions: box.positions, indices: new Int32Array(box.indices), options: {} });
    c.child.postMessage({ type: 'build', jobId: 14, meshId: 'b', positions: box.positions, indices: box.indices, options: {} });
    expect(await answerTo(11)).toMatchObject({ type: 'error', code: 'invalid-request', message: "unknown message type 'rebuild'" });
    expect(await answerTo(12)).toMatchObject({ type: 'error', code: 'invalid-request', message: expect.stringMatching(/'positions' must be a Float64Array, got array/) });
    expect(await answerTo(13)).toMatchObject({ type: 'error', code: 'invalid-request', message: expect.stringMatching(/'indices' must be a Uint32Array, got Int32Array/) });
    const result = await answerTo(14);
    expect(result.type).toBe('result');
  });

  it('sends the tree without positions; with the parent\'s positions it equals an in-process build', async () => {
    const m = loadMesh('bunny-3674');
    c.child.postMessage({ type: 'build', jobId: 20, meshId: m.meshId, positions: m.positions, indices: m.indices, options: { leafSize: 8 } });
    const answer = await answerTo(20);
    expect(answer.type).toBe('result');
    if (answer.type !== 'result') return;
    expect(answer.meshId).toBe(m.meshId);
    expect(answer.buildMs).toBeGreaterThan(0);
    expect(answer.tree.buffers[4].byteLength).toBe(0);
    const tree = deserializeTree(withPositions(answer.tree, m.positions));
    expect(tree.leafSize).toBe(8);
    const here = buildObbTree({ positions: m.positions, indices: m.indices, vertexCount: m.positions.length / 3, triangleCount: m.indices.length / 3 }, { leafSize: 8 });
    expect(tree.kind === 'obb' && treeDifferences(tree, here)).toEqual([]);
  });

  it('reports an invalid mesh or leaf size as an error, not a crash', async () => {
    c.child.postMessage({ type: 'build', jobId: 30, meshId: 'nan', positions: new Float64Array([0, 0, 0, 1, 0, 0, 0, NaN, 0]), indices: new Uint32Array([0, 1, 2]), options: {} });
    c.child.postMessage({ type: 'build', jobId: 31, meshId: 'empty', positions: new Float64Array(0), indices: new Uint32Array(0), options: {} });
    const box = loadMesh('box-48');
    c.child.postMessage({ type: 'build', jobId: 32, meshId: 'leaf', positions: box.positions, indices: box.indices, options: { leafSize: 500 } });
    expect(await answerTo(30)).toMatchObject({ code: 'invalid-mesh', message: "mesh 'nan': vertex 2 has a non-finite coordinate (0, NaN, 0)" });
    expect(await answerTo(31)).toMatchObject({ code: 'invalid-mesh', message: "mesh 'empty': mesh has no triangles" });
    expect(await answerTo(32)).toMatchObject({ code: 'build-failed', message: expect.stringMatching(/leafSize must be an integer from 1 to 64/) });
  });

  it('drops a queued build on cancel, and reports progress when a build starts', async () => {
    const big = loadMesh('cylinder-100k');
    const small = loadMesh('box-48');
    const before = c.inbox.length;
    await new Promise((r) => setTimeout(r, 120)); // past the progress throttle
    c.child.postMessage({ type: 'build', jobId: 40, meshId: big.meshId, positions: big.positions, indices: big.indices, options: {} });
    c.child.postMessage({ type: 'build', jobId: 41, meshId: small.meshId, positions: small.positions, indices: small.indices, options: {} });
    c.child.postMessage({ type: 'cancel', jobId: 41 });
    c.child.postMessage({ type: 'cancel', jobId: 999 });
    expect(await answerTo(40)).toMatchObject({ type: 'result', meshId: big.meshId });
    expect(await answerTo(41)).toMatchObject({ type: 'error', code: 'cancelled' });
    const mine = c.inbox.slice(before);
    expect(mine.find((m) => m.type === 'progress')).toEqual({ type: 'progress', jobId: 40, done: 0, total: 100_000 });
    expect(mine.some((m) => m.type === 'result' && m.jobId === 41)).toBe(false);
  });
});

describe('bundled tree worker', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'interfere-worker-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('is found next to a bundle and builds the same trees', async () => {
    // The same options as scripts/build.mjs.
    await build({
      entryPoints: [path.join(REPO, 'src-main/compute/treeWorker.ts')],
      outfile: path.join(out, 'node/compute/treeWorker.cjs'),
      bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true,
      external: ['occt-import-js', 'manifold-3d', 'electron'], logLevel: 'silent',
    });
    const entry = findTreeWorker(path.join(out, 'node/cli/interfere.cjs'));
    expect(entry).toEqual({ file: path.join(out, 'node/compute/treeWorker.cjs'), execArgv: [] });
    expect(() => findTreeWorker(path.join(out, 'elsewhere/deeper/main.cjs'))).toThrow(/bundled tree worker is missing/);

    const pool = new TreePool({ size: 1, inProcessBelowTriangles: 0, worker: entry, log: () => {} });
    try {
      const m = loadMesh('sphere-20k');
      const trees = await pool.buildTrees([m]);
      expect(treeDifferences(trees.get(m.meshId) as never, buildHere(m))).toEqual([]);
      const pid = pool.status()[0].pid as number;
      await pool.dispose();
      expect(processGone(pid)).toBe(true);
    } finally {
      await pool.dispose();
    }
  });

  it('finds the TypeScript worker (under tsx) when running from the sources', () => {
    const entry = findTreeWorker();
    expect(entry.file).toBe(path.join(REPO, 'src-main/compute/treeWorker.ts'));
    expect(entry.execArgv[0]).toBe('--import');
    expect(entry.execArgv[1]).toMatch(/^file:.*tsx/);
  });
});
