// Shared by the host service and bridge tests: paths of the shared data, a service with fake
// dialogs in a temporary user-data folder, typed calls, and event collection.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { EVENTS, REQUESTS, type CheckOutcome, type EventChannel, type EventOf, type RequestChannel, type RequestOf, type ResponseOf } from '../../../src-main/contract/host.js';
import { HostService, type HostServiceTuning } from '../../../src-main/services/host/hostService.js';
import type { HostDialogs, HostServiceOptions } from '../../../src-main/services/host/api.js';

// As the command line does: OpenCascade's wasm compiles far faster with baseline code only, and a
// test process reads only a few files (each test file runs in its own process).
setFlagsFromString('--liftoff-only');

export const TEST_DATA = path.resolve(process.cwd(), 'test/data');
export const ASSEMBLIES = path.join(TEST_DATA, 'assemblies');
export const SAMPLE = path.resolve(process.cwd(), 'assets/samples/as1-oc-214.stp');
export const MOVED = path.join(ASSEMBLIES, 'as1-oc-214-moved.assembly.json');
export const SO101 = path.join(ASSEMBLIES, 'so101-zero.assembly.json');
export const GEAR = path.join(ASSEMBLIES, 'stl-gear-polytopes.assembly.json');
export const FANUC = path.join(ASSEMBLIES, 'fanuc-zero.assembly.json');
export const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
export const STL = path.join(TEST_DATA, 'stl-models/polytopes');

/**
 * The two places a host runs checks (src-main/services/checkRunner.ts): its check child (the
 * default, as in the app and the bridge) and its own process; check tests run against both.
 */
export const CHECK_RUNNERS: [string, HostServiceTuning][] = [
  ['in a child process', {}],
  ['in-process', { checks: 'in-process' }],
];

export function tempDir(label: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `interfere-${label}-`));
}

/** Dialogs that answer from queues (null / [] when a queue is empty) and record what was asked. */
export class FakeDialogs implements HostDialogs {
  readonly asked: string[] = [];
  open: (string | null)[] = [];
  openMany: string[][] = [];
  save: (string | null)[] = [];
  folder: (string | null)[] = [];
  async openFile(o: { title: string }): Promise<string | null> {
    this.asked.push(`openFile:${o.title}`);
    return this.open.shift() ?? null;
  }
  async openFiles(o: { title: string }): Promise<string[]> {
    this.asked.push(`openFiles:${o.title}`);
    return this.openMany.shift() ?? [];
  }
  async saveFile(o: { title: string }): Promise<string | null> {
    this.asked.push(`saveFile:${o.title}`);
    return this.save.shift() ?? null;
  }
  async chooseFolder(o: { title: string }): Promise<string | null> {
    this.asked.push(`chooseFolder:${o.title}`);
    return this.folder.shift() ?? null;
  }
}

export interface TestHost {
  readonly service: HostService;
  readonly dialogs: FakeDialogs;
  readonly userDataDir: string;
  readonly logs: string[];
  readonly events: { event: EventChannel; payload: unknown }[];
  /** A request, its response checked against the contract's schema. */
  call<C extends RequestChannel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>>;
  /** Resolves with a job's job.done or job.failed payload. */
  job(jobId: string): Promise<EventOf<'job.done'> | EventOf<'job.failed'>>;
  eventsOf<E extends EventChannel>(event: E): EventOf<E>[];
}

export function createTestHost(options: Partial<HostServiceOptions> = {}, tuning: HostServiceTuning = {}): TestHost {
  const userDataDir = options.userDataDir ?? tempDir('userdata');
  const dialogs = new FakeDialogs();
  const logs: string[] = [];
  const service = new HostService(
    { host: 'electron', dialogs, userDataDir, allowedFolders: [TEST_DATA, path.dirname(SAMPLE)], log: (m) => logs.push(m), ...options },
    tuning,
  );
  const events: { event: EventChannel; payload: unknown }[] = [];
  const finished = new Map<string, EventOf<'job.done'> | EventOf<'job.failed'>>();
  const waiters = new Map<string, ((p: EventOf<'job.done'> | EventOf<'job.failed'>) => void)[]>();
  for (const event of Object.keys(EVENTS) as EventChannel[]) {
    service.on(event, (payload) => {
      // Every event a host emits must satisfy the contract.
      const parsed = EVENTS[event].safeParse(payload);
      if (!parsed.success) throw new Error(`event ${event} breaks the contract: ${parsed.error.message}`);
      events.push({ event, payload });
      if (event === 'job.done' || event === 'job.failed') {
        const p = payload as EventOf<'job.done'>;
        finished.set(p.jobId, p);
        for (const w of waiters.get(p.jobId) ?? []) w(p);
      }
    });
  }
  return {
    service, dialogs, userDataDir, logs, events,
    async call(channel, request) {
      const res = await service.handle(channel, request);
      return REQUESTS[channel].response.parse(res) as never;
    },
    job(jobId) {
      const done = finished.get(jobId);
      if (done) return Promise.resolve(done);
      return new Promise((resolve) => {
        waiters.set(jobId, [...(waiters.get(jobId) ?? []), resolve]);
      });
    },
    eventsOf(event) {
      return events.filter((e) => e.event === event).map((e) => e.payload) as never;
    },
  };
}

/** The HostError a request was refused with (fails when it succeeds or rejects otherwise). */
export async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string; path?: string | null }> {
  try {
    await p;
  } catch (e) {
    const error = (e as { error?: { code: string; message: string } }).error;
    if ((e as Error).name !== 'HostRequestError' || !error) throw e;
    return error;
  }
  throw new Error('the request succeeded');
}

export function translation(x: number, y: number, z: number): number[] {
  return [1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z, 0, 0, 0, 1];
}

/** Checks a document (or a scope of it) and returns the outcome; fails when the check does. */
export async function runCheck(h: TestHost, docId: string, scope?: { kind: 'all' }): Promise<CheckOutcome> {
  const { jobId } = await h.call('check.run', { docId, ...(scope ? { scope } : {}) });
  const end = await h.job(jobId);
  if (end.kind !== 'check' || !('outcome' in end)) throw new Error(`check failed: ${JSON.stringify(end)}`);
  return end.outcome;
}

/** The pairs of an outcome's results (of one kind), as `a/b`. */
export function pairsOf(o: CheckOutcome, kind?: string): string[] {
  return o.results.filter((r) => kind === undefined || r.kind === kind).map((r) => `${r.a}/${r.b}`);
}
