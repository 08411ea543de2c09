// The host's lines in the app's log: what was opened, what was checked, what was refused or
// failed; with a log file in a temporary data folder, read back as a user would send it.
import { describe, it, expect, afterAll } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DocumentInfo } from '../../../src-main/contract/host.js';
import { LogFile, logFolder } from '../../../src-main/services/log.js';
import { logCheckFailed } from '../../../src-main/services/host/activity.js';
import type { ActivityLog, LogFields, LogLevel } from '../../../src-main/services/log.js';
import { createTestHost, GEAR, refusal, runCheck, tempDir, type TestHost } from './helpers.js';

/** The log's lines as [level, event, fields]. */
function lines(log: LogFile): { level: string; event: string; fields: Record<string, unknown> }[] {
  return readFileSync(log.path, 'utf8').trim().split('\n').map((line) => {
    const m = /^\S+Z (INFO|WARN|ERROR) (\S+)(.*)$/.exec(line);
    if (!m) throw new Error(`not a log line: ${line}`);
    const fields: Record<string, unknown> = {};
    for (const f of m[3]!.matchAll(/ (\w+)=("(?:[^"\\]|\\.)*"|\S+)/g)) fields[f[1]!] = JSON.parse(f[2]!);
    return { level: m[1]!, event: m[2]!, fields };
  });
}

describe('host service: the log', () => {
  const hosts: TestHost[] = [];
  afterAll(async () => {
    for (const h of hosts) await h.service.dispose();
  });

  it('records an opened document, a check with its settings and counts, and a refused open', async () => {
    const data = tempDir('log-data');
    const work = tempDir('log-work');
    const log = new LogFile({ folder: logFolder(data) });
    const h = createTestHost({ userDataDir: data, activity: log, allowedFolders: [path.dirname(GEAR), path.dirname(path.dirname(GEAR)), work] });
    hosts.push(h);
    const doc = (await h.call('doc.open', { path: GEAR })) as DocumentInfo;
    const outcome = await runCheck(h, doc.id);
    const bad = path.join(work, 'broken.stl');
    writeFileSync(bad, 'solid broken\nthis is not an STL file\n');
    const refused = await refusal(h.call('doc.open', { path: bad }));

    const all = lines(log);
    const open = all.find((l) => l.event === 'open')!;
    expect(open.level).toBe('INFO');
    expect(open.fields).toMatchObject({ path: GEAR, kind: 'assembly', parts: doc.parts.length, triangles: doc.parts.reduce((n, p) => n + p.triangles, 0) });
    expect(open.fields['ms']).toBeGreaterThan(0);

    const check = all.find((l) => l.event === 'check')!;
    expect(check.fields).toMatchObject({
      path: GEAR, scope: 'all',
      touchToleranceMm: outcome.settings.touchToleranceMm, clearanceMm: outcome.settings.clearanceMm,
      contactIsInterference: outcome.settings.contactIsInterference,
      parts: outcome.summary.parts, triangles: outcome.summary.triangles,
      interferences: outcome.summary.interferences, contacts: outcome.summary.contacts,
      clearanceViolations: outcome.summary.clearanceViolations,
    });
    expect(check.fields['ms']).toBeGreaterThan(0);

    const no = all.find((l) => l.event === 'request-refused' && l.fields['channel'] === 'doc.open')!;
    expect(no.level).toBe('WARN');
    expect(no.fields).toMatchObject({ code: refused.code, message: refused.message });
    expect(log.failures).toBe(0);
  });

  it('keeps working when the log cannot be written', async () => {
    const data = tempDir('log-data');
    const blocked = path.join(data, 'logs');
    writeFileSync(blocked, 'not a folder');
    const log = new LogFile({ folder: blocked });
    const h = createTestHost({ userDataDir: data, activity: log });
    hosts.push(h);
    const doc = (await h.call('doc.open', { path: GEAR })) as DocumentInfo;
    const outcome = await runCheck(h, doc.id);
    expect(outcome.summary.parts).toBe(doc.parts.length);
    expect(log.failures).toBeGreaterThanOrEqual(2);
  });

  it('records a failed check with the error\'s message and stack, a cancelled one without', () => {
    const got: [LogLevel, string, LogFields | undefined][] = [];
    const memory: ActivityLog = { write: (level, event, fields) => got.push([level, event, fields]) };
    logCheckFailed(memory, '/m/a.assembly.json', 'a.assembly.json', new RangeError('tree too deep'), false, 12.34);
    logCheckFailed(memory, null, 'Untitled', new Error('cancelled'), true, 5);
    expect(got[0]![0]).toBe('error');
    expect(got[0]![1]).toBe('check-failed');
    expect(got[0]![2]).toMatchObject({ path: '/m/a.assembly.json', ms: 12.3, error: 'tree too deep' });
    expect(String(got[0]![2]!['stack'])).toMatch(/^RangeError: tree too deep\n/);
    expect(got[1]).toEqual(['info', 'check-cancelled', { path: 'Untitled', ms: 5 }]);
  });
});
