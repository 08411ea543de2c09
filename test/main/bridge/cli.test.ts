import { describe, it, expect } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { WebSocket } from 'ws';
import { decodeMessage, encodeMessage, parseWireMessage } from '../../../src-main/contract/wire.js';
import { TEST_DATA, tempDir } from '../host/helpers.js';

const CLI = path.resolve(process.cwd(), 'src-main/bridge/cli.ts');
const CUBE = path.join(TEST_DATA, 'stl-models/polytopes/cube.ascii.stl');

function run(args: string[], env: NodeJS.ProcessEnv = {}): ReturnType<typeof spawn> {
  return spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('dev:web entry (bridge/cli.ts)', () => {
  it('prints one line with the page URL, serves the host API with FILE open, and stops cleanly on SIGTERM', async () => {
    const child = run([CUBE, '--port', '0', '--allow', tempDir('cli-allow')], { XDG_DATA_HOME: tempDir('cli-data') });
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => {
          stdout += d.toString();
          if (stdout.includes('\n')) resolve(stdout.split('\n')[0]);
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
      });
      const m = /^Interfere is running at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{64}))$/.exec(line);
      expect(m, line).not.toBeNull();
      const [, , port, token] = m!;
      const ws = new WebSocket(`ws://127.0.0.1:${port}/host?token=${token}`);
      ws.binaryType = 'arraybuffer';
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      const answer = await new Promise<unknown>((resolve) => {
        ws.on('message', (data: ArrayBuffer) => {
          const message = parseWireMessage(decodeMessage(data));
          if (message.type === 'response') resolve(message); // events (the start-up's progress) may come first
        });
        ws.send(encodeMessage({ type: 'request', id: 1, channel: 'app.info', payload: {} }));
      });
      expect(answer).toMatchObject({ ok: true, result: { host: 'bridge', startupDocument: { path: CUBE, parts: [{ triangles: 12 }] } } });
      ws.close();
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
  });

  it('explains its usage and refuses bad options', () => {
    const help = spawnSync(process.execPath, ['--import', 'tsx', CLI, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: npm run dev:web/);
    const bad = spawnSync(process.execPath, ['--import', 'tsx', CLI, '--port', 'x'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--port needs a port number/);
  });
});
