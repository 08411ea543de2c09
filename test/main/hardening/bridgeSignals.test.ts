/**
 * The browser bridge (`npm run dev:web`, src-main/bridge/cli.ts) stops promptly on SIGTERM and
 * SIGINT whatever its start-up file is doing: a FIFO used to block the open (and with it the
 * shutdown) for ever; a large file being read and built is cancelled.
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { uvSphereMesh } from '../../support/meshArbitraries.js';
import { binaryStl } from '../../support/stlFiles.js';
import { tempDir } from '../host/helpers.js';

const CLI = path.resolve(process.cwd(), 'src-main/bridge/cli.ts');

/** Starts the bridge on FILE, waits for its one line, sends `signal`; resolves with the exit code and the time it took. */
async function startAndStop(file: string, signal: NodeJS.Signals, delayMs = 0): Promise<{ code: number | null; ms: number; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, file, '--port', '0'], {
    env: { ...process.env, XDG_DATA_HOME: tempDir('bridge-signal-data') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before it was running: ${stderr}`)));
  });
  await new Promise((r) => setTimeout(r, delayMs));
  const t0 = performance.now();
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await exited;
  clearTimeout(timer);
  return { code, ms: performance.now() - t0, stderr };
}

describe.runIf(process.platform !== 'win32')('dev:web stops on SIGTERM and SIGINT with work in flight', () => {
  it('with a FIFO as its file: refused at once, and SIGTERM ends the process', async () => {
    const dir = tempDir('bridge-fifo');
    const fifo = path.join(dir, 'pipe.stl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const r = await startAndStop(fifo, 'SIGTERM', 500);
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(5000);
    expect(r.stderr).toContain(`${fifo}: this is not a regular file (a FIFO (named pipe))`);
  }, 60_000);

  it('while it reads and builds a large file: SIGINT ends the process within the grace period', async () => {
    const dir = tempDir('bridge-large');
    const file = path.join(dir, 'sphere.stl');
    writeFileSync(file, binaryStl(uvSphereMesh(10, 1000, 500))); // about 1,000,000 triangles
    const r = await startAndStop(file, 'SIGINT', 200);
    expect(r.code === 0 || r.code === 1, `exit code ${r.code}: ${r.stderr}`).toBe(true);
    expect(r.ms).toBeLessThan(6000);
  }, 90_000);
});
