// The data folder another local user must not reach: the bridge keeps its tree cache, recent list
// and recovery records in a private per-user folder (not a shared temporary one) and refuses one
// that others could write; a planted tree whose boxes do not enclose their triangles is discarded
// and rebuilt; a planted recovery record grants no writing.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAssembly } from '../../../src-core/assembly/format.js';
import { runCheck } from '../../../src-core/check/check.js';
import type { CheckPart } from '../../../src-core/check/types.js';
import { createMesh, type TriangleMesh } from '../../../src-core/geometry/mesh.js';
import { buildObbTree } from '../../../src-core/obbtree/build.js';
import { OBB_STRIDE, type ObbTree } from '../../../src-core/obbtree/layout.js';
import { DataFolderError, defaultDataFolder, ensurePrivateFolder } from '../../../src-main/services/dataFolder.js';
import { RecoveryStore } from '../../../src-main/services/recovery.js';
import { TreeCache, treeProblem } from '../../../src-main/services/treeCache.js';
import { TreePool } from '../../../src-main/services/treePool.js';
import { boxMesh, cylinderMesh, gridMesh, scaleShiftMesh, shuffleTriangles, uvSphereMesh } from '../../support/meshArbitraries.js';
import { createTestHost, GEAR, refusal, TEST_DATA, tempDir } from '../host/helpers.js';

const CLI = path.resolve(process.cwd(), 'src-main/bridge/cli.ts');
const CUBE = path.join(TEST_DATA, 'stl-models/polytopes/cube.ascii.stl');
const made: string[] = [];
function temp(label: string): string {
  const d = tempDir(label);
  made.push(d);
  return d;
}
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** Runs the bridge until it prints its address (then SIGTERM), or until it exits by itself. */
async function runBridge(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, CUBE, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    // (a moment later: the signal handlers are set up just after the line is printed)
    if (stdout.includes('\n')) setTimeout(() => child.kill('SIGTERM'), 500);
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  return { code, stdout, stderr };
}

function envWithout(keys: string[], extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const k of keys) delete env[k];
  return env;
}

describe('the bridge\'s data folder', () => {
  it('is ~/.local/share/interfere (mode 0700) without XDG_DATA_HOME, $XDG_DATA_HOME/interfere with it — never a shared temporary folder', async () => {
    expect(defaultDataFolder({ XDG_DATA_HOME: '/x/data' }, '/home/u')).toBe('/x/data/interfere');
    expect(defaultDataFolder({}, '/home/u')).toBe('/home/u/.local/share/interfere');
    expect(defaultDataFolder({ XDG_DATA_HOME: 'relative/data' }, '/home/u')).toBe('/home/u/.local/share/interfere');

    const home = temp('datafolder-home');
    const r = await runBridge(envWithout(['XDG_DATA_HOME'], { HOME: home }));
    expect(r.stdout, r.stderr).toMatch(/^Interfere is running at /);
    expect(r.code).toBe(0);
    const folder = path.join(home, '.local', 'share', 'interfere');
    expect(statSync(folder).isDirectory()).toBe(true);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  }, 60_000);

  it('refuses, with a clear message, a data folder that others may write or that another user owns', async () => {
    const xdg = temp('datafolder-xdg');
    const folder = path.join(xdg, 'interfere');
    mkdirSync(folder);
    chmodSync(folder, 0o777);
    const open = await runBridge(envWithout([], { XDG_DATA_HOME: xdg }));
    expect(open.code).toBe(2);
    expect(open.stdout).toBe('');
    expect(open.stderr).toContain(`dev:web: the data folder ${folder}: is writable by every user (mode 777)`);

    chmodSync(folder, 0o770);
    await expect(ensurePrivateFolder(folder)).rejects.toThrow(/is writable by its group \(mode 770\)/);
    chmodSync(folder, 0o700);
    await expect(ensurePrivateFolder(folder)).resolves.toBe(folder);

    if (process.getuid?.() === 0) {
      chownSync(folder, 4242, 4242);
      const theirs = await runBridge(envWithout([], { XDG_DATA_HOME: xdg }));
      expect(theirs.code).toBe(2);
      expect(theirs.stderr).toContain(`${folder}: is owned by user 4242, not by the current user (0)`);
      chownSync(folder, 0, 0);
    }

    const elsewhere = temp('datafolder-elsewhere');
    const link = path.join(temp('datafolder-link'), 'interfere');
    symlinkSync(elsewhere, link);
    const e = await ensurePrivateFolder(link).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DataFolderError);
    expect((e as Error).message).toMatch(/is a symbolic link/);
  }, 60_000);
});

// ---- The tree cache ------------------------------------------------------------------------------

function meshOf(m: { positions: Float64Array; indices: Uint32Array }): TriangleMesh {
  return createMesh(m.positions, m.indices);
}

/** The tree with every box moved 1 m along x: header and sizes as before, boxes enclosing nothing. */
function planted(tree: ObbTree): ObbTree {
  const boxes = tree.boxes.slice();
  for (let i = 0; i < tree.nodeCount; i++) boxes[i * OBB_STRIDE] += 1000;
  return { ...tree, boxes };
}

function part(id: string, mesh: TriangleMesh, tree: ObbTree, x: number): CheckPart {
  return { id, name: id, mesh, tree, transform: [1, 0, 0, x, 0, 1, 0, 0, 0, 0, 1, 0], chordErrorMm: null };
}

async function interferences(mesh: TriangleMesh, tree: ObbTree): Promise<number> {
  const r = await runCheck({ parts: [part('a', mesh, tree, 0), part('b', mesh, tree, 5)], settings: { touchToleranceMm: null, clearanceMm: 0, contactIsInterference: false }, ignore: [] });
  return r.summary.interferences;
}

describe('the tree cache', () => {
  it('discards a planted tree whose boxes do not enclose their triangles, says so, and the rebuilt tree finds the interference', async () => {
    const dir = path.join(temp('datafolder-cache'), 'tree-cache');
    const logs: string[] = [];
    const cache = new TreeCache({ dir, log: (m) => logs.push(m) });
    const sphere = uvSphereMesh(10, 48, 24);
    const mesh = meshOf(sphere);
    const good = buildObbTree(mesh);
    const bad = planted(good);
    // What the attack does: two spheres 5 mm apart interfere, but not with the planted tree.
    expect(await interferences(mesh, good)).toBe(1);
    expect(await interferences(mesh, bad)).toBe(0);

    const key = await TreeCache.keyOf(mesh.positions, mesh.indices);
    await cache.put(key, bad);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(await cache.get(key, mesh.positions, mesh.indices)).toBeNull();
    expect(existsSync(path.join(dir, `${key}.obbtree`))).toBe(false);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/deleting unusable cache file .*\.obbtree: the tree is not sound: triangle \d+ \(slot \d+\) is not inside the box of node \d+/);

    // Behind the pool (as the host uses it): the planted file is a miss, the tree is rebuilt.
    await cache.put(key, bad);
    const pool = new TreePool({ size: 1, inProcessBelowTriangles: Infinity, cache, log: (m) => logs.push(m) });
    try {
      const trees = await pool.buildTrees([{ meshId: 'sphere', positions: mesh.positions, indices: mesh.indices }]);
      expect(await interferences(mesh, trees.get('sphere')!)).toBe(1);
    } finally {
      await pool.dispose();
    }
    expect(logs.filter((l) => l.includes('not sound'))).toHaveLength(2);
    // A sound tree still reads back.
    await cache.put(key, good);
    expect(await cache.get(key, mesh.positions, mesh.indices)).not.toBeNull();

    // Boxes whose axes are not unit vectors (a half-size box that claims to enclose), and a
    // largest coordinate that would widen validateTree's tolerance: refused too.
    const squeezed = { ...good, boxes: good.boxes.slice() };
    for (let k = 6; k < 15; k++) squeezed.boxes[k] *= 0.5;
    for (let k = 3; k < 6; k++) squeezed.boxes[k] *= 0.5;
    await cache.put(key, squeezed);
    expect(await cache.get(key, mesh.positions, mesh.indices)).toBeNull();
    expect(logs.at(-1)).toMatch(/axes of the box of node 0 are not orthonormal/);
    await cache.put(key, { ...bad, maxAbsCoordinate: 1e12 });
    expect(await cache.get(key, mesh.positions, mesh.indices)).toBeNull();
    expect(logs.at(-1)).toMatch(/largest coordinate 1000000000000 is not the mesh's 10/);
  });

  it('accepts every tree the builder makes (no sound tree is thrown away)', () => {
    const meshes = [
      uvSphereMesh(10, 48, 24), boxMesh([-3, -2, -1], [3, 2, 1], 8), gridMesh(40, 30, 0.5), cylinderMesh(4, 20, 64, 10),
      shuffleTriangles(uvSphereMesh(1e4, 32, 16), 3), scaleShiftMesh(boxMesh([0, 0, 0], [1, 1, 1], 4), 1e-3, [1e5, -2e5, 3e5]),
    ];
    for (const data of meshes) {
      const mesh = meshOf(data);
      for (const leafSize of [1, 4, 16]) expect(treeProblem(buildObbTree(mesh, { leafSize }), mesh.positions), `${mesh.triangleCount} triangles, leaf ${leafSize}`).toBeNull();
    }
  });

  it('uses no cache folder that others may write: reads nothing from it, writes nothing to it, says so once', async () => {
    const dir = path.join(temp('datafolder-opencache'), 'tree-cache');
    const mesh = meshOf(uvSphereMesh(5, 16, 8));
    const key = await TreeCache.keyOf(mesh.positions, mesh.indices);
    await new TreeCache({ dir }).put(key, buildObbTree(mesh));
    chmodSync(dir, 0o777);
    const logs: string[] = [];
    const cache = new TreeCache({ dir, log: (m) => logs.push(m) });
    expect(await cache.get(key, mesh.positions, mesh.indices)).toBeNull();
    expect(await cache.get(key, mesh.positions, mesh.indices)).toBeNull();
    rmSync(path.join(dir, `${key}.obbtree`));
    await cache.put(key, buildObbTree(mesh));
    expect(readdirSync(dir)).toEqual([]);
    expect(logs).toEqual([`not using the tree cache ${dir}: it is writable by every user (mode 777): refusing to keep private data there; make it private with 'chmod 700 <folder>'`]);
  });
});

// ---- Recovery ------------------------------------------------------------------------------------

describe('a recovery record', () => {
  /** A record, as another user could plant it, naming `victim` as the document's file. */
  async function plant(userDataDir: string, victim: string): Promise<string> {
    const store = new RecoveryStore(userDataDir, () => {});
    const recoveryId = 'planted-1';
    await store.save({
      recoveryId, session: 'planted', pid: 0x3fffff, savedAt: new Date().toISOString(), name: 'planted', kind: 'assembly',
      originalPath: victim, base: GEAR, absoluteSources: [], fingerprint: null,
      assembly: parseAssembly(readFileSync(GEAR, 'utf8'), GEAR),
    });
    expect(statSync(store.dir).mode & 0o777).toBe(0o700);
    return recoveryId;
  }

  it('grants no writing: saving the recovered document over the file it names follows the access policy', async () => {
    const outside = temp('datafolder-victim');
    const victim = path.join(outside, 'precious.assembly.json');
    writeFileSync(victim, readFileSync(GEAR));
    const before = readFileSync(victim, 'utf8');

    // A host without dialogs (the bridge): refused.
    const userDataDir = temp('datafolder-recovery');
    const recoveryId = await plant(userDataDir, victim);
    const bridge = createTestHost({ userDataDir, dialogs: null, allowedFolders: [TEST_DATA] }, { treeCache: false, autosave: false });
    try {
      const doc = await bridge.call('doc.recover', { recoveryId });
      expect(doc.path).toBe(victim);
      expect(await refusal(bridge.call('doc.save', { docId: doc.id }))).toMatchObject({ code: 'access-denied', path: victim });
      expect(await refusal(bridge.call('doc.save', { docId: doc.id, path: victim, overwrite: true }))).toMatchObject({ code: 'access-denied' });
      expect(readFileSync(victim, 'utf8')).toBe(before);
    } finally {
      await bridge.service.dispose();
    }

    // A host with dialogs: Save asks where (suggesting the file), and writes only what the user picks.
    const userDataDir2 = temp('datafolder-recovery2');
    const recoveryId2 = await plant(userDataDir2, victim);
    const app = createTestHost({ userDataDir: userDataDir2, allowedFolders: [TEST_DATA] }, { treeCache: false, autosave: false });
    try {
      const doc = await app.call('doc.recover', { recoveryId: recoveryId2 });
      expect(await app.call('doc.save', { docId: doc.id })).toBeNull();
      expect(app.dialogs.asked).toEqual(['saveFile:Save Assembly']);
      expect(readFileSync(victim, 'utf8')).toBe(before);
      const picked = path.join(temp('datafolder-picked'), 'mine.assembly.json');
      app.dialogs.save.push(picked);
      expect(await app.call('doc.save', { docId: doc.id })).toEqual({ path: picked });
      // Saved where the user chose: that is its own file now.
      expect(await app.call('doc.save', { docId: doc.id })).toEqual({ path: picked });
      expect(app.dialogs.asked).toHaveLength(2);
    } finally {
      await app.service.dispose();
    }

    // Inside an allowed folder the policy allows it, as for any document.
    const userDataDir3 = temp('datafolder-recovery3');
    const recoveryId3 = await plant(userDataDir3, victim);
    const allowed = createTestHost({ userDataDir: userDataDir3, dialogs: null, allowedFolders: [TEST_DATA, outside] }, { treeCache: false, autosave: false });
    try {
      const doc = await allowed.call('doc.recover', { recoveryId: recoveryId3 });
      expect(await allowed.call('doc.save', { docId: doc.id })).toEqual({ path: victim });
    } finally {
      await allowed.service.dispose();
    }
  });

  it('is not read from a recovery folder that others may write', async () => {
    const userDataDir = temp('datafolder-openrecovery');
    const recoveryId = await plant(userDataDir, path.join(userDataDir, 'x.assembly.json'));
    chmodSync(path.join(userDataDir, 'recovery'), 0o777);
    const h = createTestHost({ userDataDir, dialogs: null }, { treeCache: false, autosave: false });
    try {
      expect(await h.call('doc.recoverable', {})).toEqual({ documents: [] });
      expect(h.logs.some((l) => /recovery folder .* is not used: it is writable by every user/.test(l))).toBe(true);
      expect(await refusal(h.call('doc.recover', { recoveryId }))).toMatchObject({ code: 'invalid-recovery' });
    } finally {
      await h.service.dispose();
    }
  });
});
