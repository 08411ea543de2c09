import { describe, it, expect } from 'vitest';
import { deserializeTree, serializeTree } from '../../../src-core/obbtree/serialize.js';
import { buildObbTree } from '../../../src-core/obbtree/build.js';
import { buildAabbTree } from '../../../src-core/obbtree/build.js';
import {
  parseChildMessage, parseParentMessage, readJobId, withPositions, withoutPositions,
} from '../../../src-main/contract/compute.js';
import { connectToParent } from '../../../src-main/compute/childChannel.js';
import { treeDifferences } from './helpers.js';

// A tetrahedron.
const positions = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
const indices = new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
const mesh = { positions, indices, vertexCount: 4, triangleCount: 4 };
const build = { type: 'build', jobId: 3, meshId: 'm', positions, indices, options: {} };
const tree = withoutPositions(serializeTree(buildObbTree(mesh, { leafSize: 1 })));
const result = { type: 'result', jobId: 3, meshId: 'm', tree, buildMs: 0.5 };

describe('parent → child messages', () => {
  it('accepts build and cancel requests', () => {
    expect(parseParentMessage(build)).toEqual({ ok: true, value: build });
    expect(parseParentMessage({ ...build, options: { leafSize: 8 } })).toMatchObject({ ok: true, value: { options: { leafSize: 8 } } });
    expect(parseParentMessage({ type: 'cancel', jobId: 0 })).toEqual({ ok: true, value: { type: 'cancel', jobId: 0 } });
  });

  it.each([
    ['a non-object', 'build', /must be an object, got string/],
    ['null', null, /must be an object, got null/],
    ['an array', [build], /must be an object, got array/],
    ['an unknown type', { type: 'rebuild', jobId: 1 }, /unknown message type 'rebuild'/],
    ['no type', { jobId: 1 }, /unknown message type undefined/],
    ['a missing jobId', { ...build, jobId: undefined }, /'jobId' must be a non-negative integer/],
    ['a fractional jobId', { ...build, jobId: 1.5 }, /'jobId' must be a non-negative integer/],
    ['a missing meshId', (({ meshId: _m, ...rest }) => rest)(build), /'build' message has no 'meshId'/],
    ['Float32Array positions', { ...build, positions: new Float32Array(positions) }, /'positions' must be a Float64Array, got Float32Array/],
    ['plain-array positions', { ...build, positions: Array.from(positions) }, /'positions' must be a Float64Array, got array/],
    ['Int32Array indices', { ...build, indices: new Int32Array(indices) }, /'indices' must be a Uint32Array, got Int32Array/],
    ['an ArrayBuffer for indices', { ...build, indices: indices.buffer }, /'indices' must be a Uint32Array, got ArrayBuffer/],
    ['missing options', (({ options: _o, ...rest }) => rest)(build), /has no 'options'/],
    ['a bad leaf size', { ...build, options: { leafSize: 0 } }, /'options.leafSize' must be a positive integer/],
    ['a cancel without jobId', { type: 'cancel' }, /'cancel' message has no 'jobId'/],
  ])('refuses %s with a reason', (_what, message, reason) => {
    const parsed = parseParentMessage(message);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });

  it('reads the jobId of a message that does not parse, when it has one', () => {
    expect(readJobId({ type: 'nonsense', jobId: 7 })).toBe(7);
    expect(readJobId({ type: 'build', jobId: '7' })).toBeUndefined();
    expect(readJobId(null)).toBeUndefined();
  });
});

describe('child → parent messages', () => {
  it('accepts ready, progress, result and error', () => {
    expect(parseChildMessage({ type: 'ready', protocol: 1 })).toEqual({ ok: true, value: { type: 'ready', protocol: 1 } });
    expect(parseChildMessage({ type: 'progress', jobId: 3, done: 2, total: 4 })).toMatchObject({ ok: true });
    expect(parseChildMessage(result)).toEqual({ ok: true, value: result });
    expect(parseChildMessage({ type: 'error', jobId: 3, code: 'invalid-mesh', message: 'no' })).toMatchObject({ ok: true });
  });

  const badTree = (patch: Record<string, unknown>) => ({ ...result, tree: { ...tree, ...patch } });
  it.each([
    ['an unknown type', { type: 'done', jobId: 3 }, /unknown message type 'done'/],
    ['a non-object', 42, /must be an object, got number/],
    ['a typed array', new Uint8Array(4), /must be an object, got Uint8Array/],
    ['ready without protocol', { type: 'ready' }, /'ready' message has no 'protocol'/],
    ['progress past its total', { type: 'progress', jobId: 3, done: 5, total: 4 }, /done 5 exceeds total 4/],
    ['progress with a negative count', { type: 'progress', jobId: 3, done: -1, total: 4 }, /'done' must be a non-negative integer/],
    ['a result without tree', { type: 'result', jobId: 3, meshId: 'm', buildMs: 1 }, /has no 'tree'/],
    ['a result without meshId', { ...result, meshId: 5 }, /'meshId' must be a string, got number/],
    ['a tree of another format', badTree({ format: 'x' }), /not a serialised tree of version 2/],
    ['an AABB tree', badTree({ kind: 'aabb' }), /must be an OBB tree, got kind aabb/],
    ['a tree with a bad count', badTree({ nodeCount: -2 }), /'tree.nodeCount' must be a non-negative integer/],
    ['typed arrays for buffers', badTree({ buffers: tree.buffers.map((b) => new Float64Array(b)) }), /'tree.buffers\[0\]' must be an ArrayBuffer, got Float64Array/],
    ['too few buffers', badTree({ buffers: tree.buffers.slice(1) }), /array of 5 ArrayBuffers/],
    ['positions in the tree', badTree({ buffers: serializeTree(buildObbTree(mesh)).buffers }), /positions\) must be empty/],
    ['an error with an unknown code', { type: 'error', jobId: 3, code: 'oops', message: 'x' }, /'code' must be one of/],
    ['an error without message', { type: 'error', jobId: 3, code: 'build-failed' }, /has no 'message'/],
  ])('refuses %s with a reason', (_what, message, reason) => {
    const parsed = parseChildMessage(message);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });

  it('puts the parent\'s positions back into a result tree, sharing them', () => {
    const full = buildObbTree(mesh, { leafSize: 1 });
    const back = deserializeTree(withPositions(tree, positions));
    expect(back.kind).toBe('obb');
    if (back.kind === 'obb') expect(treeDifferences(back, full)).toEqual([]);
    expect(back.positions.buffer).toBe(positions.buffer);
    // A view into a larger buffer is copied to a buffer of its own size.
    const big = new Float64Array(30);
    big.set(positions, 6);
    const view = big.subarray(6, 18);
    const copied = deserializeTree(withPositions(tree, view));
    expect(copied.positions).toEqual(positions);
    expect(copied.positions.buffer).not.toBe(big.buffer);
  });

  it('leaves the positions out without touching the original', () => {
    const s = serializeTree(buildAabbTree(mesh));
    const out = withoutPositions(s);
    expect(out.buffers[4].byteLength).toBe(0);
    expect(s.buffers[4].byteLength).toBe(positions.byteLength);
  });
});

describe('child channel', () => {
  it('uses Electron\'s parentPort when there is one: messages are the events\' data', () => {
    const posted: unknown[] = [];
    let listener: ((e: { data: unknown }) => void) | undefined;
    let started = false;
    const parentPort = {
      on: (_event: 'message', l: (e: { data: unknown }) => void) => { listener = l; },
      postMessage: (m: unknown) => posted.push(m),
      start: () => { started = true; },
    };
    const channel = connectToParent({ parentPort } as unknown as Parameters<typeof connectToParent>[0]);
    expect(channel?.kind).toBe('electron');
    const got: unknown[] = [];
    channel?.onMessage((m) => got.push(m));
    expect(started).toBe(true);
    listener?.({ data: { type: 'cancel', jobId: 1 } });
    expect(got).toEqual([{ type: 'cancel', jobId: 1 }]);
    channel?.post({ type: 'ready', protocol: 1 });
    expect(posted).toEqual([{ type: 'ready', protocol: 1 }]);
  });

  it('uses process.send under child_process.fork, and nothing without a parent', () => {
    const sent: unknown[] = [];
    const handlers = new Map<string, (...a: unknown[]) => void>();
    const proc = {
      connected: true,
      send: (m: unknown) => { sent.push(m); return true; },
      on: (e: string, l: (...a: unknown[]) => void) => { handlers.set(e, l); },
      once: (e: string, l: (...a: unknown[]) => void) => { handlers.set(e, l); },
    };
    const channel = connectToParent(proc as unknown as Parameters<typeof connectToParent>[0]);
    expect(channel?.kind).toBe('node');
    const got: unknown[] = [];
    channel?.onMessage((m) => got.push(m));
    handlers.get('message')?.({ type: 'cancel', jobId: 2 });
    expect(got).toEqual([{ type: 'cancel', jobId: 2 }]);
    channel?.post({ type: 'ready', protocol: 1 });
    expect(sent).toEqual([{ type: 'ready', protocol: 1 }]);
    expect(connectToParent({} as unknown as Parameters<typeof connectToParent>[0])).toBeNull();
  });
});
