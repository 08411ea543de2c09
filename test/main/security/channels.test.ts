// Every request channel of the host API against hostile input. For each channel in REQUESTS (the
// list is read from the contract, so a new channel is tested as soon as it exists): wrong shapes,
// oversize payloads, unknown fields and — where the channel takes paths — paths the user never
// chose are refused with a HostError of the right code, and the refusal is logged with its reason.
// Then the same through the Electron IPC layer (the real main process and host service over the
// stand-in `electron`): untrusted senders and channels outside the contract are refused.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  REQUESTS, type DocumentInfo, type HostError, type RequestChannel, type RequestOf,
} from '../../../src-main/contract/host.js';
import { MAX_REQUEST_BYTES, MAX_REQUEST_DEPTH } from '../../../src-main/contract/admission.js';
import { APP_INDEX_URL, type IpcEventLike } from '../../../src-main/main/security.js';
import { DROP_FILE_CHANNEL, type ReplyEnvelope } from '../../../src-main/preload/shellIpc.js';
import { createIpcTransport } from '../../../src-main/preload/transport.js';
import { boxMesh } from '../../support/meshArbitraries.js';
import { binaryStl } from '../../support/stlFiles.js';
import { createTestHost, refusal, tempDir, type TestHost } from '../host/helpers.js';
import { FakeBrowserWindow, resetFake, type Fake } from '../electron/fakeElectron.js';

const CHANNELS = Object.keys(REQUESTS) as RequestChannel[];
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const MIB = 1024 * 1024;

// ------------------------------------------------------------------------------------------------
// Files: an allowed folder with a two-part assembly, and a folder outside every grant

interface Files {
  readonly work: string;
  readonly outside: string;
  readonly assembly: string;
  readonly model: string;
}

function writeFiles(): Files {
  const work = tempDir('security-allowed');
  const outside = tempDir('security-outside');
  const cube = binaryStl(boxMesh([0, 0, 0], [10, 10, 10]));
  writeFileSync(path.join(work, 'cube.stl'), cube);
  const assembly = path.join(work, 'pair.assembly.json');
  writeFileSync(assembly, JSON.stringify({
    format: 'interfere-assembly', version: 1, name: 'two cubes', units: 'mm',
    sources: [{ id: 'cube', path: 'cube.stl' }],
    parts: [
      { id: 'left', source: 'cube' },
      { id: 'right', source: 'cube', transform: [1, 0, 0, 5, 0, 1, 0, 5, 0, 0, 1, 5, 0, 0, 0, 1] },
    ],
  }));
  mkdirSync(path.join(work, 'reports'));
  // A link to the outside folder inside the allowed one.
  symlinkSync(outside, path.join(work, 'out'));
  return { work, outside, assembly, model: path.join(work, 'cube.stl') };
}

// ------------------------------------------------------------------------------------------------
// A valid request of every channel, with every field its schema has

type FullRequests = { [C in RequestChannel]: RequestOf<C> };

interface Refs {
  readonly files: Files;
  readonly docId: string;
  readonly bodyKey: string;
}

/** Part ids of the test assembly (list limits below name them). */
const A = 'left';
const B = 'right';

function fullRequests({ files, docId, bodyKey }: Refs): FullRequests {
  return {
    'app.info': {},
    'doc.open': { path: files.assembly },
    'doc.new': {},
    'doc.import': { docId, path: files.model },
    'doc.geometry': { docId, bodyKeys: [bodyKey] },
    'doc.update': {
      docId,
      transforms: { [A]: IDENTITY },
      visible: { [A]: true },
      colors: { [A]: '#336699' },
      names: { [A]: 'left cube' },
      settings: { touchToleranceMm: 0.01, clearanceMm: 0.5, contactIsInterference: false },
      ignore: [{ a: A, b: B, reason: 'press fit' }],
      statuses: { [`${A}|${B}`]: 'active' },
    },
    'doc.save': { docId, saveAs: true, path: path.join(files.work, 'saved.assembly.json'), overwrite: false },
    'doc.close': { docId },
    'doc.recoverable': {},
    'doc.recover': { recoveryId: 'earlier-run_1' },
    'doc.discardRecovery': { recoveryId: 'earlier-run_1' },
    'check.run': { docId, scope: { kind: 'sets', a: [A], b: [B] }, refine: false },
    'check.pair': { docId, a: A, b: B, withinMm: 1, depth: true },
    'check.trace': { docId, a: A, b: B, maxDepth: 3, maxBoxes: 100 },
    'check.overlap': { docId, a: A, b: B },
    'job.cancel': { jobId: 'check-99' },
    'report.export': { docId, format: 'json', path: path.join(files.work, 'pair.report.json') },
    'batch.run': { paths: [files.assembly], reportFolder: path.join(files.work, 'reports'), format: 'json' },
  };
}

/**
 * The most entries each list of a request takes, by channel and field path; null: only the
 * request size (MAX_REQUEST_BYTES) bounds it. Every list in a request must be named here.
 */
const LIST_LIMITS: Readonly<Record<string, number | null>> = {
  'doc.geometry bodyKeys': 100_000,
  [`doc.update transforms.${A}`]: 16,
  'doc.update ignore': 100_000,
  'check.run scope.a': 100_000,
  'check.run scope.b': 100_000,
  'batch.run paths': 10_000,
};

// ------------------------------------------------------------------------------------------------
// Walking requests and their schemas

type Seg = string | number;

interface Node {
  readonly path: readonly Seg[];
  readonly value: unknown;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);
}

/** Every value inside a request (the request itself first), with its path. */
function nodesOf(value: unknown, at: readonly Seg[] = []): Node[] {
  const out: Node[] = [{ path: at, value }];
  if (Array.isArray(value)) value.forEach((v: unknown, i) => out.push(...nodesOf(v, [...at, i])));
  else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) out.push(...nodesOf(v, [...at, k]));
  return out;
}

/** A path as zod prints it in its messages ('ignore[0].reason', 'statuses["left|right"]'). */
function dotPath(p: readonly Seg[]): string {
  let out = '';
  for (const seg of p) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/[^\w$]/.test(seg)) out += `[${JSON.stringify(seg)}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  return out;
}

/** A copy of `root` with the value at `p` replaced. */
function setAt(root: unknown, p: readonly Seg[], value: unknown): unknown {
  if (p.length === 0) return value;
  const copy = structuredClone(root) as Record<Seg, unknown>;
  let parent = copy;
  for (const seg of p.slice(0, -1)) parent = parent[seg] as Record<Seg, unknown>;
  parent[p[p.length - 1]!] = value;
  return copy;
}

/** A copy of `root` with the key `from` of the object at `p` renamed to `to`. */
function renameKey(root: unknown, p: readonly Seg[], from: string, to: string): unknown {
  const copy = structuredClone(root) as Record<Seg, unknown>;
  let obj = copy;
  for (const seg of p) obj = obj[seg] as Record<Seg, unknown>;
  obj[to] = obj[from];
  delete obj[from];
  return copy;
}

/** A value of another JSON kind than `v`. */
function wrongKind(v: unknown): unknown {
  if (typeof v === 'string') return 12345;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return String(v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return { 0: v[0] };
  return ['not an object'];
}

function unwrap(s: z.ZodType): z.ZodType {
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
    else return s;
  }
}

/** A union resolved to the option that accepts `value` (discriminated unions: the scope kinds). */
function option(s: z.ZodType, value: unknown): z.ZodType {
  if (!(s instanceof z.ZodUnion)) return s;
  const options = s.options as readonly z.ZodType[];
  return unwrap(options.find((o) => o.safeParse(value).success) ?? options[0]!);
}

/** The schema of the value at `p` of a request. */
function schemaAt(channel: RequestChannel, request: unknown, p: readonly Seg[]): z.ZodType {
  let s: z.ZodType = REQUESTS[channel].request;
  let v = request;
  for (const seg of p) {
    s = option(unwrap(s), v);
    if (s instanceof z.ZodObject) s = (s.shape as Record<string, z.ZodType>)[String(seg)]!;
    else if (s instanceof z.ZodArray) s = s.element as z.ZodType;
    else if (s instanceof z.ZodRecord) s = s.valueType as z.ZodType;
    else throw new Error(`${channel}: no schema at ${dotPath(p)}`);
    v = (v as Record<Seg, unknown>)[seg];
  }
  return option(unwrap(s), v);
}

/** Whether the string field at `p` is a path (the contract's path strings refuse NUL). */
function isPathField(channel: RequestChannel, request: unknown, p: readonly Seg[]): boolean {
  const r = schemaAt(channel, request, p).safeParse('a\u0000b');
  return !r.success && r.error.issues.some((i) => /NUL/.test(i.message));
}

function pathFieldsOf(channel: RequestChannel, request: unknown): Node[] {
  return nodesOf(request).filter((n) => typeof n.value === 'string' && isPathField(channel, request, n.path));
}

/** Nested 40 deep, beyond MAX_REQUEST_DEPTH. */
function deeplyNested(): unknown {
  let v: unknown = 0;
  for (let i = 0; i < MAX_REQUEST_DEPTH + 8; i++) v = [v];
  return v;
}

let hugeString: string | null = null;
/** One string beyond MAX_REQUEST_BYTES (made once: 65 MiB). */
function huge(): string {
  hugeString ??= 'x'.repeat(MAX_REQUEST_BYTES + MIB);
  return hugeString;
}
const ONE_MIB = 'y'.repeat(MIB);

// ------------------------------------------------------------------------------------------------
// The host service

/** Placeholders for what only a running host knows: enough to walk the requests' shapes. */
const SHAPES = fullRequests({ files: { work: '/w', outside: '/o', assembly: '/w/a.assembly.json', model: '/w/m.stl' }, docId: 'doc-1', bodyKey: 'cube#0' });

/** The channels that take paths (found in their requests, see isPathField). */
const PATH_CHANNELS = CHANNELS.filter((c) => pathFieldsOf(c, SHAPES[c]).length > 0);

describe('the test requests', () => {
  it('cover every channel and every field of its schema, and are valid', () => {
    expect(Object.keys(SHAPES).sort()).toEqual([...CHANNELS].sort());
    for (const channel of CHANNELS) {
      const request = SHAPES[channel];
      expect(REQUESTS[channel].request.safeParse(request).success, channel).toBe(true);
      const shape = (REQUESTS[channel].request as unknown as z.ZodObject).shape as Record<string, unknown>;
      expect(Object.keys(request).sort(), channel).toEqual(Object.keys(shape).sort());
    }
  });

  it('find the path fields of the channels that take paths', () => {
    const found = CHANNELS.flatMap((c) => pathFieldsOf(c, SHAPES[c]).map((n) => `${c} ${dotPath(n.path)}`));
    expect(found).toEqual(expect.arrayContaining([
      'doc.open path', 'doc.import path', 'doc.save path', 'report.export path', 'batch.run paths[0]', 'batch.run reportFolder',
    ]));
  });

  it('name a limit for every list', () => {
    for (const channel of CHANNELS) {
      for (const n of nodesOf(SHAPES[channel]).filter((x) => Array.isArray(x.value))) {
        expect(Object.keys(LIST_LIMITS), `${channel} ${dotPath(n.path)}`).toContain(`${channel} ${dotPath(n.path)}`);
      }
    }
  });
});

describe('host service: every channel refuses hostile requests, with a logged reason', () => {
  let files: Files;
  let h: TestHost;
  let full: FullRequests;

  beforeAll(async () => {
    files = writeFiles();
    h = createTestHost({ allowedFolders: [files.work] }, { treeCache: false, autosave: false });
    const doc = (await h.call('doc.open', { path: files.assembly })) as DocumentInfo;
    expect(doc.parts.map((p) => p.id)).toEqual([A, B]);
    // report.export needs a check to report.
    const { jobId } = await h.call('check.run', { docId: doc.id });
    expect((await h.job(jobId)).kind).toBe('check');
    full = fullRequests({ files, docId: doc.id, bodyKey: doc.parts[0]!.bodyKey });
  });

  afterAll(async () => {
    await h?.service.dispose();
  });

  /** The request is refused with `code`; a log line gives the reason (the HostError's message). */
  async function refused(channel: string, payload: unknown, code: string, what: string): Promise<HostError> {
    const before = h.logs.length;
    const e = await refusal(h.service.handle(channel, payload));
    expect(e.code, what).toBe(code);
    expect(e.message.length, what).toBeGreaterThan(0);
    const logged = h.logs.slice(before);
    expect(logged.some((l) => l.includes(e.message) && l.includes(channel)), `${what}: logged ${JSON.stringify(logged).slice(0, 500)}`).toBe(true);
    return e;
  }

  async function invalid(channel: RequestChannel, payload: unknown, what: string, names?: string): Promise<HostError> {
    const e = await refused(channel, payload, 'invalid-request', what);
    expect(e.message, what).toContain(`invalid ${channel} request`);
    if (names !== undefined) expect(e.message, what).toContain(names);
    return e;
  }

  it.each(CHANNELS)('%s: wrong shapes', async (channel) => {
    const request = full[channel];
    const cases: [string, unknown, string?][] = [
      ['no payload', undefined],
      ['null', null],
      ['a string', 'doc-1'],
      ['a number', 7],
      ['a boolean', true],
      ['an array', [request]],
    ];
    for (const n of nodesOf(request).slice(1)) cases.push([`${dotPath(n.path)} of another kind`, setAt(request, n.path, wrongKind(n.value)), dotPath(n.path)]);
    const shape = (REQUESTS[channel].request as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
    for (const key of Object.keys(request)) {
      if (shape[key]!.safeParse(undefined).success) continue; // optional
      const { [key]: _dropped, ...rest } = request as Record<string, unknown>;
      cases.push([`without ${key}`, rest, key]);
    }
    for (const [what, payload, names] of cases) await invalid(channel, payload, `${channel}: ${what}`, names);
  });

  it.each(CHANNELS)('%s: oversize requests', async (channel) => {
    const request = full[channel] as Record<string, unknown>;
    const sizeCases: [string, unknown, RegExp][] = [];
    // Beyond the request limits, in each field (or beside the fields of a channel without any).
    for (const key of Object.keys(request).length > 0 ? Object.keys(request) : ['padding']) {
      sizeCases.push(
        [`${key}: a 65 MiB string`, { ...request, [key]: huge() }, /larger than 64 MiB/],
        [`${key}: a list of 65 strings of 1 MiB`, { ...request, [key]: Array.from({ length: 65 }, () => ONE_MIB) }, /larger than 64 MiB/],
        [`${key}: nested ${MAX_REQUEST_DEPTH + 8} deep`, { ...request, [key]: deeplyNested() }, new RegExp(`nested deeper than ${MAX_REQUEST_DEPTH}`)],
      );
    }
    for (const [what, payload, reason] of sizeCases) {
      const e = await invalid(channel, payload, `${channel}: ${what}`);
      expect(e.message, what).toMatch(reason);
      expect(e.message.length, what).toBeLessThan(3000);
    }
    // Beyond the limits of each field: every string, every key, every list.
    const long = 'z'.repeat(100_000);
    for (const n of nodesOf(request)) {
      const at = dotPath(n.path);
      if (typeof n.value === 'string') await invalid(channel, setAt(request, n.path, long), `${channel}: ${at} of 100,000 characters`, at);
      if (isPlainObject(n.value)) {
        for (const key of Object.keys(n.value)) {
          const e = await invalid(channel, renameKey(request, n.path, key, long), `${channel}: a key of ${at || 'the request'} of 100,000 characters`);
          expect(e.message.length).toBeLessThan(3000);
        }
      }
      if (Array.isArray(n.value)) {
        const limit = LIST_LIMITS[`${channel} ${at}`];
        if (limit === undefined) throw new Error(`${channel} ${at}: a list without a known limit`);
        if (limit === null) {
          const e = await invalid(channel, setAt(request, n.path, Array.from({ length: 65 }, () => ONE_MIB)), `${channel}: ${at} beyond the request size`);
          expect(e.message).toMatch(/larger than 64 MiB/);
        } else {
          const first: unknown = n.value[0];
          await invalid(channel, setAt(request, n.path, Array.from({ length: limit + 1 }, () => first)), `${channel}: ${at} with ${limit + 1} entries`, at);
        }
      }
    }
  });

  it.each(CHANNELS)('%s: unknown fields', async (channel) => {
    const request = full[channel];
    await invalid(channel, { ...request, unexpected: true }, `${channel}: an extra field`, "'unexpected'");
    // A key cannot write lines of its own into the log.
    const forged = await invalid(channel, { ...request, 'x\nrefused nothing\r': 1 }, `${channel}: a key with line breaks`, "'x?refused nothing?'");
    expect(forged.message).not.toMatch(/[\r\n]/);
    // Keys that name properties of every object.
    const inherited = JSON.parse(`{${Object.entries(request).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)},`).join('')}"__proto__":{"polluted":true},"constructor":1,"toString":2}`) as unknown;
    const e = await invalid(channel, inherited, `${channel}: __proto__, constructor, toString`, "'__proto__'");
    expect(e.message).toContain("'constructor'");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Inside nested objects (not maps: their keys are data).
    for (const n of nodesOf(request).slice(1)) {
      if (!isPlainObject(n.value) || schemaAt(channel, request, n.path) instanceof z.ZodRecord) continue;
      const at = dotPath([...n.path, 'unexpected']);
      await invalid(channel, setAt(request, [...n.path, 'unexpected'], 1), `${channel}: ${at}`, `'${at}'`);
    }
  });

  it.each(PATH_CHANNELS)('%s: paths the user never chose', async (channel) => {
    const request = full[channel];
    const fields = pathFieldsOf(channel, request);
    const outsideBefore = snapshot(files.outside);
    const eventsBefore = h.events.length;
    for (const field of fields) {
      const given = field.value as string;
      const folder = /folder/i.test(String(field.path[field.path.length - 1]));
      const name = path.basename(given);
      const variants: [string, string][] = folder
        ? [
          ['outside', files.outside],
          ['.. out of the allowed folder', `${files.work}/../${path.basename(files.outside)}`],
          ['a link out of the allowed folder', path.join(files.work, 'out')],
        ]
        : [
          ['outside', path.join(files.outside, name)],
          ['.. out of the allowed folder', `${files.work}/../${path.basename(files.outside)}/${name}`],
          ['a link to a file outside', path.join(files.work, `link-${name}`)],
          ['inside a linked folder', path.join(files.work, 'out', name)],
          ['a system file', '/etc/hostname'],
        ];
      // The files exist (links resolve to them), so they could be read or replaced.
      if (!folder) outsideFileWithLink(files, name);
      for (const [what, value] of variants) {
        const label = `${channel}: ${dotPath(field.path)} ${what}`;
        const e = await refused(channel, setAt(request, field.path, value), 'access-denied', label);
        expect(e.message, label).toMatch(/access denied/);
        expect(e.path, label).toBeTruthy();
        expect(e.message, label).toContain(e.path!);
        expect(path.resolve(e.path!), label).toContain(path.resolve(value));
      }
    }
    await new Promise((r) => setImmediate(r));
    // Nothing was read into a document, written, or started.
    expect(h.events.slice(eventsBefore)).toEqual([]);
    const after = snapshot(files.outside);
    for (const [file, content] of outsideBefore) expect(after.get(file), file).toBe(content);
    expect([...after.keys()].filter((f) => !outsideBefore.has(f)).every((f) => after.get(f) === 'outside')).toBe(true);
    expect(fields.length).toBeGreaterThan(0);
  });

  it('refuses channels outside the contract', async () => {
    for (const channel of ['doc.delete', 'shell.dropFile', 'shell.openExternal', '__proto__', 'constructor', 'hasOwnProperty', 'APP.INFO', 'app.info ', '']) {
      const e = await refused(channel, {}, 'unknown-channel', channel);
      expect(e.message).toMatch(/unknown request/);
    }
    const before = h.logs.length;
    const e = await refusal(h.service.handle(5 as unknown as string, {}));
    expect(e.code).toBe('unknown-channel');
    expect(h.logs.length).toBeGreaterThan(before);
  });
});

/** `name` in the outside folder, and a link to it in the allowed folder (`link-name`). */
function outsideFileWithLink(files: Files, name: string): void {
  const target = path.join(files.outside, name);
  if (!existsSync(target)) writeFileSync(target, 'outside');
  const link = path.join(files.work, `link-${name}`);
  if (!existsSync(link)) symlinkSync(target, link);
}

/** The files of a folder and their contents. */
function snapshot(folder: string): Map<string, string> {
  return new Map(readdirSync(folder).map((f) => [f, readFileSync(path.join(folder, f), 'utf8')]));
}

describe('host service: the same requests without the fault are taken', () => {
  it('answers each valid request (or refuses it for what the host holds, not its form)', async () => {
    const files = writeFiles();
    const h = createTestHost({ allowedFolders: [files.work] }, { treeCache: false, autosave: false });
    try {
      const doc = (await h.call('doc.open', { path: files.assembly })) as DocumentInfo;
      const { jobId } = await h.call('check.run', { docId: doc.id });
      await h.job(jobId);
      const full = fullRequests({ files, docId: doc.id, bodyKey: doc.parts[0]!.bodyKey });
      // doc.close last: the others need the document.
      for (const channel of [...CHANNELS.filter((c) => c !== 'doc.close'), 'doc.close' as const]) {
        try {
          const res = await h.service.handle(channel, full[channel]);
          expect(REQUESTS[channel].response.safeParse(res).success, channel).toBe(true);
        } catch (e) {
          const error = (e as { error?: HostError }).error;
          expect(error, channel).toBeDefined();
          // Only what the host holds: there is no recovery file of an earlier run to recover.
          expect(`${channel} ${error!.code}`).toMatch(/^doc\.(recover|discardRecovery) not-found$/);
        }
      }
      await vi.waitFor(() => expect(h.eventsOf('job.done').some((d) => d.kind === 'batch')).toBe(true), { timeout: 30_000 });
      const batch = h.eventsOf('job.done').find((d) => d.kind === 'batch');
      expect(batch?.kind === 'batch' ? batch.files.map((x) => [x.path, x.status]) : null).toEqual([[files.assembly, 'interference']]);
    } finally {
      await h.service.dispose();
    }
  });
});

// ------------------------------------------------------------------------------------------------
// Through the Electron IPC layer

describe('Electron IPC: untrusted senders and unknown channels are refused', () => {
  let f: Fake;
  let win: FakeBrowserWindow;
  let files: Files;
  const logs: string[] = [];
  let savedArgv: string[];

  beforeAll(async () => {
    files = writeFiles();
    f = resetFake();
    f.app.userData = tempDir('security-userdata');
    f.app.appPath = tempDir('security-app');
    mkdirSync(path.join(f.app.appPath, 'dist', 'renderer'), { recursive: true });
    writeFileSync(path.join(f.app.appPath, 'dist', 'renderer', 'index.html'), '<!doctype html>');
    savedArgv = process.argv;
    process.argv = ['/opt/Interfere/interfere'];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      logs.push(args.map(String).join(' '));
    });
    vi.resetModules();
    vi.doMock('electron', () => f.module);
    // The real main process with the real host service.
    await import('../../../src-main/main/main.js');
    await vi.waitFor(() => expect(FakeBrowserWindow.created[0]?.webContents.url).toBe(APP_INDEX_URL));
    win = FakeBrowserWindow.created[0]!;
  });

  afterAll(async () => {
    const quits = f.app.quits;
    f.app.quit();
    // The service is stopped, then the quit resumes.
    await vi.waitFor(() => expect(f.app.quits).toBeGreaterThan(quits + 1));
    process.argv = savedArgv;
    vi.doUnmock('electron');
    vi.restoreAllMocks();
  });

  const trusted = (): IpcEventLike => ({ sender: win.webContents, senderFrame: win.webContents.mainFrame });

  function invoke(channel: string, payload: unknown, event: IpcEventLike): Promise<ReplyEnvelope> {
    const handler = f.ipcHandlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(event, payload) as Promise<ReplyEnvelope>;
  }

  function untrustedSenders(): [string, IpcEventLike][] {
    const main = win.webContents.mainFrame;
    return [
      ['other web contents', { sender: { mainFrame: main }, senderFrame: main }],
      ['no frame', { sender: win.webContents, senderFrame: null }],
      ['a subframe', { sender: win.webContents, senderFrame: { ...main, routingId: 9, parent: main } }],
      ['another process', { sender: win.webContents, senderFrame: { ...main, processId: 99 } }],
      ['a foreign page', { sender: win.webContents, senderFrame: { ...main, url: 'https://evil.example/' } }],
      ['a local file', { sender: win.webContents, senderFrame: { ...main, url: 'file:///srv/x.html' } }],
    ];
  }

  it('registers handlers for the contract channels and the drop channel only', () => {
    expect([...f.ipcHandlers.keys()].sort()).toEqual([...CHANNELS, DROP_FILE_CHANNEL].sort());
    for (const channel of ['doc.delete', 'shell.openExternal', '__proto__', 'constructor', 'APP.INFO', 'app.info ']) {
      expect(f.ipcHandlers.has(channel), channel).toBe(false);
    }
  });

  it.each([...CHANNELS, DROP_FILE_CHANNEL])('%s: refuses untrusted senders before the service sees the request', async (channel) => {
    for (const [what, event] of untrustedSenders()) {
      const before = logs.length;
      // An invalid payload: the service would answer invalid-request had it been asked.
      const reply = await invoke(channel, null, event);
      expect(reply, what).toEqual({ ok: false, error: { code: 'access-denied', message: expect.stringMatching(/does not come from the app window/) } });
      const logged = logs.slice(before);
      expect(logged.some((l) => l.includes(`refused '${channel}'`)), `${what}: ${JSON.stringify(logged)}`).toBe(true);
      expect(logged.some((l) => l.includes('refused a request')), what).toBe(false);
    }
  });

  it.each(CHANNELS)('%s: the service refuses hostile payloads from the app window, and logs them', async (channel) => {
    const request = SHAPES[channel];
    const cases: [string, unknown, RegExp][] = [
      ['null', null, new RegExp(`invalid ${channel.replace('.', '\\.')} request`)],
      ['an unknown field', { ...request, unexpected: true }, /unknown field 'unexpected'/],
      ['a 65 MiB string', { ...request, padding: huge() }, /larger than 64 MiB/],
    ];
    for (const [what, payload, reason] of cases) {
      const before = logs.length;
      const reply = await invoke(channel, payload, trusted());
      expect(reply.ok, what).toBe(false);
      if (reply.ok) continue;
      expect(reply.error.code, what).toBe('invalid-request');
      expect(reply.error.message, what).toMatch(reason);
      expect(logs.slice(before).some((l) => l.includes('refused a request') && l.includes(reply.error.message)), what).toBe(true);
    }
  });

  it('refuses paths the user never chose through IPC', async () => {
    const secret = path.join(files.outside, 'secret.stl');
    writeFileSync(secret, 'outside');
    const cases: [RequestChannel, unknown][] = [
      ['doc.open', { path: secret }],
      ['doc.open', { path: files.assembly }], // not chosen in this app either
      ['batch.run', { paths: [secret] }],
      ['batch.run', { paths: [files.assembly], reportFolder: files.outside }],
    ];
    for (const [channel, payload] of cases) {
      const before = logs.length;
      const reply = await invoke(channel, payload, trusted());
      expect(reply.ok, channel).toBe(false);
      if (reply.ok) continue;
      expect(reply.error.code).toBe('access-denied');
      expect(reply.error.message).toMatch(/access denied/);
      expect(logs.slice(before).some((l) => l.includes(`${channel} refused`) && l.includes(reply.error.message))).toBe(true);
    }
    // A dropped file is the user's choice: granted, then opened.
    const dropped = await invoke(DROP_FILE_CHANNEL, { path: files.assembly }, trusted());
    expect(dropped).toMatchObject({ ok: true, result: { path: files.assembly } });
  });

  it("refuses unknown channels in the preload's transport, before any IPC", async () => {
    const sent: string[] = [];
    const ipcRenderer = {
      // As Electron's ipcRenderer.invoke: to main's handler, from the app window.
      async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
        sent.push(channel);
        const handler = f.ipcHandlers.get(channel);
        if (!handler) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
        return handler(trusted(), ...args);
      },
      on: () => undefined,
      removeListener: () => undefined,
    };
    const transport = createIpcTransport(ipcRenderer);
    for (const channel of ['doc.delete', 'shell.openExternal', '__proto__', 'constructor', DROP_FILE_CHANNEL]) {
      await expect(transport.invoke(channel, {}), channel).rejects.toMatchObject({ name: 'HostRequestError', error: { code: 'unknown-channel' } });
    }
    expect(sent).toEqual([]);
    // A contract channel goes through, and the host's refusal comes back as a HostRequestError.
    await expect(transport.invoke('doc.open', { path: 5 })).rejects.toMatchObject({ name: 'HostRequestError', error: { code: 'invalid-request' } });
    await expect(transport.invoke('app.info', {})).resolves.toMatchObject({ host: 'electron' });
    expect(sent).toEqual(['doc.open', 'app.info']);
  });
});
