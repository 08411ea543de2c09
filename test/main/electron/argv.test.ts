import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesFromArgv, filesFromSecondInstance, launchData } from '../../../src-main/main/argv.js';

const cwd = path.resolve('/home/user/here');

describe('files on the command line', () => {
  it('skips the executable and every flag of Electron, Chromium and the OS', () => {
    const argv = ['/opt/Interfere/interfere', '--no-sandbox', 'a.stp', '--inspect=9229', '-psn_0_12345', '/abs/b.assembly.json', '--enable-features=X'];
    expect(filesFromArgv(argv, { defaultApp: false, cwd })).toEqual([path.join(cwd, 'a.stp'), path.resolve('/abs/b.assembly.json')]);
  });

  it('skips the app folder when started as `electron .`', () => {
    expect(filesFromArgv(['/usr/bin/electron', '.', 'part.stl'], { defaultApp: true, cwd })).toEqual([path.join(cwd, 'part.stl')]);
    expect(filesFromArgv(['/usr/bin/electron', '--trace-warnings', '.', '--', 'part.stl'], { defaultApp: true, cwd })).toEqual([path.join(cwd, 'part.stl')]);
    expect(filesFromArgv(['/usr/bin/electron', '.'], { defaultApp: true, cwd })).toEqual([]);
  });

  it('resolves relative paths against the working directory, accepts file URLs and drops repeats', () => {
    const argv = ['exe', 'sub/../x.stp', './x.stp', 'file:///srv/y%20z.step', ''];
    expect(filesFromArgv(argv, { defaultApp: false, cwd })).toEqual([path.join(cwd, 'x.stp'), path.resolve('/srv/y z.step')]);
  });

  it('names a file starting with a dash through ./', () => {
    expect(filesFromArgv(['exe', '-odd.stp', './-odd.stp'], { defaultApp: false, cwd })).toEqual([path.join(cwd, '-odd.stp')]);
  });

  it('ignores malformed file URLs', () => {
    // A UNC host is a path on Windows only.
    if (process.platform !== 'win32') expect(filesFromArgv(['exe', 'file://remote-host/share/a.stp'], { defaultApp: false, cwd })).toEqual([]);
    expect(filesFromArgv(['exe', 'file:///a%2fb.stp'], { defaultApp: false, cwd })).toEqual([]);
  });
});

describe('a second launch', () => {
  it("prefers the files the second instance resolved itself", () => {
    const data = launchData([path.resolve('/a/one.stp'), path.resolve('/a/one.stp'), path.resolve('/b/two.stl')]);
    expect(filesFromSecondInstance(data, ['exe', '--weird-chromium-switch', 'ignored.stp'], { defaultApp: false, cwd }))
      .toEqual([path.resolve('/a/one.stp'), path.resolve('/b/two.stl')]);
  });

  it('falls back to its command line, resolved against its working directory', () => {
    expect(filesFromSecondInstance(undefined, ['exe', 'c.stp'], { defaultApp: false, cwd: path.resolve('/other') }))
      .toEqual([path.resolve('/other/c.stp')]);
    // Data that is not ours (relative paths, non-strings) is not trusted.
    expect(filesFromSecondInstance({ files: ['relative.stp'] }, ['exe', 'd.stp'], { defaultApp: false, cwd }))
      .toEqual([path.join(cwd, 'd.stp')]);
    expect(filesFromSecondInstance({ files: [42] }, ['exe'], { defaultApp: false, cwd })).toEqual([]);
  });
});
