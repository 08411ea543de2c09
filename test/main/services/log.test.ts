// The app's log file: lines as written, rotation by renaming at the size cap, and failures that
// never reach the caller.
import { describe, it, expect } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LogFile, MAX_LINE_BYTES, errorFields, formatLine, logFolder } from '../../../src-main/services/log.js';

function temp(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'interfere-log-'));
}

const AT = new Date('2026-12-02T03:46:24.123Z');

describe('the log file', () => {
  it('writes one line per event: time, level, event and quoted fields', () => {
    const folder = logFolder(temp());
    const log = new LogFile({ folder, now: () => AT });
    log.info('open', { path: '/models/a "b".assembly.json', parts: 18, triangles: 53240, ms: 812.5, closed: true, gone: undefined });
    log.warn('request-refused', { channel: 'doc.open', message: 'line one\nline two' });
    log.error('check-failed', new TypeError('bad thing'), { path: '/m/x.stl' });
    expect(log.path).toBe(path.join(folder, 'interfere.log'));
    const lines = readFileSync(log.path, 'utf8').split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
    expect(lines[0]).toBe('2026-12-02T03:46:24.123Z INFO open path="/models/a \\"b\\".assembly.json" parts=18 triangles=53240 ms=812.5 closed=true');
    expect(lines[1]).toBe('2026-12-02T03:46:24.123Z WARN request-refused channel="doc.open" message="line one\\nline two"');
    expect(lines[2]).toMatch(/^2026-12-02T03:46:24\.123Z ERROR check-failed path="\/m\/x\.stl" error="bad thing" stack="TypeError: bad thing\\n {4}at /);
    // The stack reads back whole.
    const stack = JSON.parse(lines[2]!.slice(lines[2]!.indexOf('stack=') + 6)) as string;
    expect(stack.split('\n').length).toBeGreaterThan(2);
    if (process.platform !== 'win32') {
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      expect(statSync(log.path).mode & 0o777).toBe(0o600);
    }
    expect(log.failures).toBe(0);
  });

  it('rotates by renaming at the size cap, keeping the given number of files', () => {
    const folder = temp();
    const log = new LogFile({ folder, maxBytes: 1000, files: 3, now: () => AT });
    const line = (i: number): string => formatLine(AT, 'info', 'check', { n: i, pad: 'x'.repeat(60) });
    const bytes = Buffer.byteLength(`${line(0)}\n`);
    const perFile = Math.floor(1000 / bytes);
    const total = perFile * 4 + 2;
    for (let i = 0; i < total; i++) log.info('check', { n: i, pad: 'x'.repeat(60) });
    const files = ['interfere.log', 'interfere.1.log', 'interfere.2.log'].map((f) => path.join(folder, f));
    expect(existsSync(path.join(folder, 'interfere.3.log'))).toBe(false);
    for (const f of files) expect(statSync(f).size).toBeLessThanOrEqual(1000);
    const read = (f: string): number[] => readFileSync(f, 'utf8').trim().split('\n').map((l) => Number(/ n=(\d+)/.exec(l)![1]));
    // Newest in interfere.log, then .1, then .2; the oldest lines are gone.
    expect(read(files[0]!)).toEqual([perFile * 4, perFile * 4 + 1]);
    expect(read(files[1]!)).toEqual(Array.from({ length: perFile }, (_, k) => perFile * 3 + k));
    expect(read(files[2]!)).toEqual(Array.from({ length: perFile }, (_, k) => perFile * 2 + k));
  });

  it('goes on with a file that is already there, counting its size', () => {
    const folder = temp();
    writeFileSync(path.join(folder, 'interfere.log'), 'x'.repeat(990) + '\n');
    const log = new LogFile({ folder, maxBytes: 1000 });
    log.info('open', { path: '/a' });
    expect(readFileSync(path.join(folder, 'interfere.1.log'), 'utf8')).toBe('x'.repeat(990) + '\n');
    expect(readFileSync(log.path, 'utf8')).toMatch(/ INFO open path="\/a"\n$/);
  });

  it('swallows a failing write, counts it, and writes again once it can', () => {
    const base = temp();
    const blocker = path.join(base, 'logs');
    writeFileSync(blocker, 'a file where the log folder should be');
    const log = new LogFile({ folder: blocker });
    expect(() => log.info('open', { path: '/a' })).not.toThrow();
    expect(() => log.error('check-failed', new Error('disk full'))).not.toThrow();
    expect(log.failures).toBe(2);
    expect(log.lastFailure).toMatch(/EEXIST|ENOTDIR|exists|not a directory/i);

    // A field that cannot be serialised is written as a note, not thrown.
    const folder = temp();
    const ok = new LogFile({ folder });
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    expect(() => ok.info('open', { doc: circular, big: 10n })).not.toThrow();
    expect(readFileSync(ok.path, 'utf8')).toMatch(/doc="\(not written: .*circular.*\)" big=10\n$/i);
    expect(ok.failures).toBe(0);
  });

  it('cuts a line that is too long, and names an error without a stack', () => {
    const line = formatLine(AT, 'info', 'open', { path: 'é'.repeat(MAX_LINE_BYTES) });
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_LINE_BYTES);
    expect(line.endsWith('…(line cut)')).toBe(true);
    expect(errorFields('plain')).toEqual({ error: 'plain' });
    const coded = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    expect(errorFields(coded)).toMatchObject({ error: 'no space left on device', code: 'ENOSPC' });
  });
});
