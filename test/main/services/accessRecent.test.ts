import { describe, it, expect } from 'vitest';
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AccessPolicy, canonicalPath, isInside } from '../../../src-main/services/access.js';
import { MAX_RECENT_FILES, RECENT_FILE_NAME, RecentFiles } from '../../../src-main/services/recent.js';
import { tempDir } from '../host/helpers.js';

describe('access policy', () => {
  it('allows files inside allowed folders (read and write), and nothing next to them', async () => {
    const root = tempDir('access');
    const allowed = path.join(root, 'allowed');
    const sibling = path.join(root, 'allowed-not');
    mkdirSync(allowed);
    mkdirSync(sibling);
    writeFileSync(path.join(allowed, 'a.stl'), 'x');
    const p = new AccessPolicy([allowed]);
    expect((await p.check(path.join(allowed, 'a.stl'), 'read')).ok).toBe(true);
    expect((await p.check(path.join(allowed, 'new', 'deep.json'), 'write')).ok).toBe(true);
    expect((await p.check(path.join(sibling, 'a.stl'), 'read')).ok).toBe(false);
    expect((await p.check(`${allowed}/../allowed-not/a.stl`, 'read')).ok).toBe(false);
    expect((await p.check(root, 'read')).ok).toBe(false);
    const denied = await p.check(path.join(sibling, 'a.stl'), 'write');
    expect(denied.ok).toBe(false);
    if (!denied.ok) expect(denied.denial.message).toContain(path.join(sibling, 'a.stl'));
  });

  it('follows symbolic links before deciding', async () => {
    const root = tempDir('access-links');
    const allowed = path.join(root, 'allowed');
    const outside = path.join(root, 'outside');
    mkdirSync(allowed);
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'secret.stl'), 'x');
    writeFileSync(path.join(allowed, 'inside.stl'), 'x');
    symlinkSync(path.join(outside, 'secret.stl'), path.join(allowed, 'link.stl'));
    symlinkSync(outside, path.join(allowed, 'dir'));
    symlinkSync(path.join(allowed, 'inside.stl'), path.join(outside, 'back.stl'));
    const p = new AccessPolicy([allowed]);
    expect((await p.check(path.join(allowed, 'link.stl'), 'read')).ok).toBe(false);
    expect((await p.check(path.join(allowed, 'dir', 'secret.stl'), 'read')).ok).toBe(false);
    expect((await p.check(path.join(allowed, 'dir', 'not-yet.json'), 'write')).ok).toBe(false);
    // A link from outside to a file inside leads inside.
    expect((await p.check(path.join(outside, 'back.stl'), 'read')).ok).toBe(true);
    expect(await canonicalPath(path.join(allowed, 'dir', 'x', '..', 'secret.stl'))).toBe(path.join(outside, 'secret.stl'));
  });

  it('grants single files for reading, or for writing too, and consults the recent list', async () => {
    const root = tempDir('access-grants');
    const file = path.join(root, 'one.stl');
    writeFileSync(file, 'x');
    const p = new AccessPolicy();
    expect((await p.check(file, 'read')).ok).toBe(false);
    p.grant(file);
    expect((await p.check(file, 'read')).ok).toBe(true);
    expect((await p.check(file, 'write')).ok).toBe(false);
    const target = path.join(root, 'out.assembly.json');
    p.grant(target, 'write');
    expect((await p.check(target, 'write')).ok).toBe(true);
    expect((await p.check(path.join(root, 'other.json'), 'write')).ok).toBe(false);
    const recent = path.join(root, 'recent.stl');
    writeFileSync(recent, 'x');
    p.setRecentSource(() => [recent]);
    expect((await p.check(recent, 'read')).ok).toBe(true);
    expect((await p.check(recent, 'write')).ok).toBe(false);
    p.grantFolder(root, 'read');
    expect((await p.check(path.join(root, 'any.stl'), 'read')).ok).toBe(true);
    expect((await p.check(path.join(root, 'any.stl'), 'write')).ok).toBe(false);
  });

  it('tells folders apart by whole names', () => {
    expect(isInside('/a/b', '/a/b')).toBe(true);
    expect(isInside('/a/b', '/a/b/c')).toBe(true);
    expect(isInside('/a/b', '/a/bc')).toBe(false);
    expect(isInside('/a/b', '/a')).toBe(false);
    expect(isInside('/a/b', '/a/b/..c')).toBe(true);
  });
});

describe('recent files', () => {
  it('keeps the newest first, without duplicates, at most ten, written atomically', async () => {
    const dir = path.join(tempDir('recent'), 'user data');
    const r = new RecentFiles(dir);
    expect(await r.load()).toEqual([]);
    for (let i = 0; i < 12; i++) await r.add(`/files/f${i}.stl`);
    await r.add('/files/f5.stl');
    expect(r.list()[0]).toBe('/files/f5.stl');
    expect(r.list()).toHaveLength(MAX_RECENT_FILES);
    expect(new Set(r.list()).size).toBe(MAX_RECENT_FILES);
    const stored = JSON.parse(readFileSync(path.join(dir, RECENT_FILE_NAME), 'utf8')) as { version: number; files: string[] };
    expect(stored).toEqual({ version: 1, files: r.list() });
    expect(readdirSync(dir)).toEqual([RECENT_FILE_NAME]); // no temporary files left
    await r.remove('/files/f5.stl');
    const again = new RecentFiles(dir);
    expect(await again.load()).toEqual(r.list());
    expect(again.list()).not.toContain('/files/f5.stl');
  });

  it('starts empty from a damaged list, and drops entries that are not absolute paths', async () => {
    const dir = tempDir('recent-bad');
    const logs: string[] = [];
    writeFileSync(path.join(dir, RECENT_FILE_NAME), '{ not json');
    expect(await new RecentFiles(dir, (m) => logs.push(m)).load()).toEqual([]);
    expect(logs[0]).toMatch(/damaged/);
    writeFileSync(path.join(dir, RECENT_FILE_NAME), JSON.stringify({ version: 1, files: ['/ok.stl', 'relative.stl', 5, '/ok.stl', 'a\u0000b'] }));
    expect(await new RecentFiles(dir).load()).toEqual(['/ok.stl']);
  });
});
