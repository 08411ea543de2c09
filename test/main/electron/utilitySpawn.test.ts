import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createUtilityFork, DEFAULT_SERVICE_NAME, type UtilityProcessModule } from '../../../src-main/main/utilitySpawn.js';

/** A stand-in for Electron's UtilityProcess: an emitter with the same methods and streams. */
class FakeUtilityProcess extends EventEmitter {
  pid: number | undefined = undefined;
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly posted: unknown[] = [];
  kills = 0;
  postMessage(message: unknown): void { this.posted.push(message); }
  kill(): boolean { this.kills++; return true; }
  spawn(pid: number): void { this.pid = pid; this.emit('spawn'); }
  exit(code: number): void { this.pid = undefined; this.emit('exit', code); }
}

function fakeModule(options: { throws?: boolean } = {}) {
  const forks: { file: string; args: unknown; options: Record<string, unknown>; child: FakeUtilityProcess }[] = [];
  const utility = {
    fork(file: string, args: unknown, opts: Record<string, unknown>) {
      if (options.throws) throw new Error('bad module path');
      const child = new FakeUtilityProcess();
      forks.push({ file, args, options: opts, child });
      return child;
    },
  } as unknown as UtilityProcessModule;
  return { utility, forks };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('the utilityProcess ForkFn', () => {
  it('forks the entry with a service name and piped output, and no execArgv unless asked', () => {
    const { utility, forks } = fakeModule();
    const fork = createUtilityFork(utility, () => {});
    fork({ file: '/app.asar/dist/node/compute/treeWorker.cjs' });
    fork({ file: '/w.cjs', name: 'Tree builder', execArgv: ['--max-old-space-size=4096'] });
    expect(forks[0]).toMatchObject({ file: '/app.asar/dist/node/compute/treeWorker.cjs', args: [], options: { serviceName: DEFAULT_SERVICE_NAME, stdio: 'pipe' } });
    expect(forks[0].options).not.toHaveProperty('execArgv');
    expect(forks[1].options).toEqual({ serviceName: 'Tree builder', stdio: 'pipe', execArgv: ['--max-old-space-size=4096'] });
  });

  it('maps messages, pid, exit (code, null) and kill one to one', () => {
    const { utility, forks } = fakeModule();
    const handle = createUtilityFork(utility, () => {})({ file: '/w.cjs' });
    const child = forks[0].child;
    expect(handle.pid).toBeUndefined();
    child.spawn(4242);
    expect(handle.pid).toBe(4242);
    const messages: unknown[] = [];
    handle.on('message', (m) => messages.push(m));
    const exits: [number | null, string | null][] = [];
    handle.on('exit', (code, signal) => exits.push([code, signal]));
    const positions = new Float64Array([1, 2, 3]);
    handle.postMessage({ type: 'build', positions });
    expect(child.posted).toEqual([{ type: 'build', positions }]);
    child.emit('message', { type: 'ready', protocol: 1 });
    expect(messages).toEqual([{ type: 'ready', protocol: 1 }]);
    handle.kill();
    expect(child.kills).toBe(1);
    child.exit(1);
    child.exit(1);
    expect(exits).toEqual([[1, null]]);
    // Electron clears the pid at exit; the handle still names the process.
    expect(handle.pid).toBe(4242);
    // Gone: no more messages or kills.
    handle.postMessage('late');
    handle.kill();
    expect(child.posted).toHaveLength(1);
    expect(child.kills).toBe(1);
  });

  it('tells a listener added after the exit at once', async () => {
    const { utility, forks } = fakeModule();
    const handle = createUtilityFork(utility, () => {})({ file: '/w.cjs' });
    forks[0].child.exit(3);
    const exits: unknown[] = [];
    handle.on('exit', (code, signal) => exits.push([code, signal]));
    await tick();
    expect(exits).toEqual([[3, null]]);
  });

  it('reports a fork that throws as a child that exited without a code', async () => {
    const { utility } = fakeModule({ throws: true });
    const logs: string[] = [];
    const handle = createUtilityFork(utility, (m) => logs.push(m))({ file: '/missing.cjs' });
    const exits: unknown[] = [];
    handle.on('exit', (code, signal) => exits.push([code, signal]));
    handle.postMessage('ignored');
    handle.kill();
    expect(handle.pid).toBeUndefined();
    await tick();
    expect(exits).toEqual([[null, null]]);
    expect(logs).toEqual(['could not start /missing.cjs: bad module path']);
  });

  it('logs the child output line by line and its fatal errors', async () => {
    const { utility, forks } = fakeModule();
    const logs: string[] = [];
    createUtilityFork(utility, (m) => logs.push(m))({ file: '/w.cjs' });
    const child = forks[0].child;
    child.spawn(7);
    child.stderr.write('[treeWorker 7] refused a mess');
    child.stderr.write('age\r\nsecond line\n\n');
    child.stdout.write('tail without newline');
    child.stdout.end();
    await tick();
    child.emit('error', 'FatalError', 'v8::Isolate', '');
    expect(logs).toEqual([
      `[${DEFAULT_SERVICE_NAME} 7] [treeWorker 7] refused a message`,
      `[${DEFAULT_SERVICE_NAME} 7] second line`,
      `[${DEFAULT_SERVICE_NAME} 7] tail without newline`,
      `[${DEFAULT_SERVICE_NAME} 7] FatalError at v8::Isolate`,
    ]);
  });
});
