/**
 * The command line's WebAssembly tiers (services/wasmTiers.ts): OpenCascade's module runs in
 * baseline code only (--liftoff-only), while the engine's kernel, compiled before that flag is
 * set, is optimised throughout from the start. This holds V8 to the behaviour the design relies
 * on (a module's tiers are fixed when it is compiled, by the flags of that moment), in a fresh
 * process traced with --trace-wasm-compilation-times.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cliSupport.js';

const FIXTURE = path.join(ROOT, 'test/main/cli/fixtures/kernelTiers.ts');
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/esm/index.mjs')).href;

/**
 * How many of the kernel's functions were compiled by each tier. The child's standard output is a
 * file, not a pipe: V8 writes its trace through C's stdio on the same descriptor that Node makes
 * non-blocking, so a pipe that fills (a loaded machine shrinks new pipes to one page) loses lines.
 */
function tiers(mode: 'kernel-first' | 'flag-first' | 'restored'): { liftoff: number; turbofan: number } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'interfere-tiers-'));
  try {
    const file = path.join(dir, 'stdout.txt');
    const fd = openSync(file, 'w');
    let r;
    try {
      r = spawnSync(process.execPath, ['--trace-wasm-compilation-times', '--import', TSX, FIXTURE, mode], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, stdio: ['ignore', fd, 'pipe'] });
    } finally {
      closeSync(fd);
    }
    expect(r.status, r.stderr).toBe(0);
    const stdout = readFileSync(file, 'utf8');
    expect(stdout).toContain('done');
    const lines = stdout.split('\n').filter((l) => l.startsWith('Compiled function'));
    return { liftoff: lines.filter((l) => l.includes('using Liftoff')).length, turbofan: lines.filter((l) => l.includes('using TurboFan')).length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('WebAssembly tiers of the command line', () => {
  it('optimise all of the kernel compiled before --liftoff-only, and only baseline code after it', () => {
    const first = tiers('kernel-first');
    expect(first.liftoff).toBe(0);
    expect(first.turbofan).toBeGreaterThan(20);
    // The flags are back at V8's defaults once the kernel is compiled: a module compiled next starts in baseline
    // code (its one function is the only one compiled by Liftoff; the kernel's are all TurboFan's).
    expect(tiers('restored').liftoff).toBe(1);
    const late = tiers('flag-first');
    expect(late.liftoff).toBeGreaterThan(0);
    expect(late.turbofan).toBe(0);
  }, 240_000);
});
