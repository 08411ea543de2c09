import type { BufferGeometry, Material } from 'three';
import { afterEach, describe, expect, it } from 'vitest';
import type { PairResultInfo } from '../../src-main/contract/host';
import { geometryRegistry } from '../../src-renderer/scene/geometryRegistry';
import { bindResultObjects, buildOverlapObjects, curveObjects, curveObjectsOf, overlapObjects, ResultObjectCache, type CurveObjects } from '../../src-renderer/scene/resultObjects';
import { resultKey } from '../../src-renderer/state/results';
import { createAppStore } from '../../src-renderer/state/store';
import { checkOutcome, createFakeHost, cubeBody, documentInfo, FakeRegistry, flush, pairResult, part, translation } from '../support/fakeHost';

/** Counts 'dispose' events of geometries and materials. */
function disposals(objects: readonly (BufferGeometry | Material)[]): () => number[] {
  const counts = objects.map(() => 0);
  objects.forEach((o, i) => o.addEventListener('dispose', () => (counts[i] += 1)));
  return () => counts;
}

function curveParts(o: CurveObjects): (BufferGeometry | Material)[] {
  const lines = o.lines;
  if (!lines) throw new Error('no lines');
  return [lines.geometry, lines.front.material as Material, lines.through.material as Material];
}

describe('ResultObjectCache', () => {
  it('builds a result once per variant, disposes what another variant replaced on sweep, and everything on clear, once', () => {
    const disposed: string[] = [];
    const cache = new ResultObjectCache<string>((v) => disposed.push(v));
    let builds = 0;
    const make = (name: string) => () => {
      builds += 1;
      return name;
    };
    const v1 = {};
    expect(cache.get('a|b', v1, make('ab-1'))).toBe('ab-1');
    expect(cache.get('a|b', v1, make('ab-again'))).toBe('ab-1');
    expect(builds).toBe(1);
    expect(cache.get('a|c', v1, make('ac-1'))).toBe('ac-1');
    // Other placements: built again; the old objects wait until they are no longer drawn.
    expect(cache.get('a|b', {}, make('ab-2'))).toBe('ab-2');
    expect(builds).toBe(3);
    expect(disposed).toEqual([]);
    cache.sweep();
    expect(disposed).toEqual(['ab-1']);
    cache.sweep();
    expect(disposed).toEqual(['ab-1']);
    cache.clear();
    expect(disposed.sort()).toEqual(['ab-1', 'ab-2', 'ac-1']);
    expect(cache.size).toBe(0);
    cache.clear();
    expect(disposed).toHaveLength(3);
  });
});

describe('the objects of a result', () => {
  afterEach(() => {
    curveObjects.clear();
    overlapObjects.clear();
    geometryRegistry.retain(new Set());
  });

  // Cube b (10 mm, at 5 5 5) crosses cube a's top face (triangles 2, 3) with its left face
  // (triangles 10, 11).
  const parts = [part('a', { bodyKey: 'k#a' }), part('b', { bodyKey: 'k#b', transform: translation(5, 5, 5) })];
  const crossing = (overrides: Partial<PairResultInfo> = {}) => pairResult('a', 'b', { kind: 'interference', trianglePairs: new Uint32Array([2, 10, 2, 11, 3, 10, 3, 11]), ...overrides });

  it('builds the curves of a result selected again once, and a new check disposes them once', async () => {
    geometryRegistry.add([cubeBody('k#a'), cubeBody('k#b')]);
    const host = createFakeHost(documentInfo({ parts }));
    const store = createAppStore({ geometry: new FakeRegistry(), confirm: () => true });
    const unbind = bindResultObjects(store);
    await store.getState().connect(host.api);
    await flush();
    const first = crossing();
    host.emit('job.done', { jobId: 'job-1', kind: 'check', outcome: checkOutcome('doc-1', [first, pairResult('a', 'c')]) });

    const built = curveObjectsOf(first, parts, 1);
    expect(built?.lines?.geometry.instanceCount).toBeGreaterThan(0);
    const counts = disposals(curveParts(built as CurveObjects));
    // Selected again (another row in between): the same objects.
    expect(curveObjectsOf(first, parts, 1)).toBe(built);
    expect(curveObjectsOf(first, parts, 1)).toBe(built);
    expect(curveObjects.size).toBe(1);
    expect(counts()).toEqual([0, 0, 0]);

    // A new check replaces the results: disposed, once.
    const next = crossing();
    host.emit('job.done', { jobId: 'job-2', kind: 'check', outcome: checkOutcome('doc-1', [next], { checkId: 'check-2' }) });
    expect(counts()).toEqual([1, 1, 1]);
    expect(curveObjects.size).toBe(0);
    const rebuilt = curveObjectsOf(next, parts, 1);
    expect(rebuilt).not.toBe(built);

    // Closing the document disposes the new ones; the old stay disposed once.
    const later = disposals(curveParts(rebuilt as CurveObjects));
    store.setState({ doc: null });
    expect(later()).toEqual([1, 1, 1]);
    expect(counts()).toEqual([1, 1, 1]);
    unbind();
  });

  it('keeps an overlap solid\'s objects per result and solid, and disposes them when the check is replaced', () => {
    const store = createAppStore({ geometry: new FakeRegistry(), confirm: () => true });
    const unbind = bindResultObjects(store);
    const solid = { a: 'a', b: 'b', positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]), indices: new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]), volumeMm3: 1 / 6 };
    const key = resultKey(crossing());
    let builds = 0;
    const make = () => {
      builds += 1;
      return buildOverlapObjects(solid);
    };
    const built = overlapObjects.get(key, solid, make);
    expect(overlapObjects.get(key, solid, make)).toBe(built);
    expect(builds).toBe(1);
    const counts = disposals([built.geometry, built.lineGeometry, built.edgeMaterial, built.fill, built.cap]);
    store.setState((s) => ({ check: { ...s.check, outcome: checkOutcome('doc-1', [crossing()]) } }));
    expect(counts()).toEqual([1, 1, 1, 1, 1]);
    store.setState((s) => ({ check: { ...s.check, outcome: null } }));
    expect(counts()).toEqual([1, 1, 1, 1, 1]);
    unbind();
  });
});

describe('the overlap solid of a result selected again', () => {
  it('is asked of the host once per check', async () => {
    const doc = documentInfo({ parts: [part('a', { bodyKey: 'k#a' }), part('b', { bodyKey: 'k#b', transform: translation(5, 5, 5) }), part('c', { bodyKey: 'k#c' })] });
    const host = createFakeHost(doc);
    host.handle('check.overlap', (req) => ({ a: req.a, b: req.b, positions: new Float32Array(9), indices: new Uint32Array([0, 1, 2]), volumeMm3: 1 }));
    const store = createAppStore({ geometry: new FakeRegistry(), confirm: () => true });
    await store.getState().connect(host.api);
    await flush();
    const emit = (checkId: string) =>
      host.emit('job.done', { jobId: checkId, kind: 'check', outcome: checkOutcome('doc-1', [pairResult('a', 'b', { kind: 'interference' }), pairResult('a', 'c', { kind: 'interference' })], { checkId }) });
    const asked = () => host.calls.filter(([c]) => c === 'check.overlap').length;
    emit('check-1');
    const select = async (key: string) => {
      store.getState().selectResult(key);
      await flush();
      return store.getState().overlap;
    };
    const ab = await select(resultKey({ a: 'a', b: 'b' }));
    expect(ab?.status).toBe('ready');
    await select(resultKey({ a: 'a', b: 'c' }));
    expect(asked()).toBe(2);
    const again = await select(resultKey({ a: 'a', b: 'b' }));
    expect(asked()).toBe(2);
    expect(again?.solid).toBe(ab?.solid);

    // A new check: asked again.
    emit('check-2');
    store.getState().selectResult(null);
    await select(resultKey({ a: 'a', b: 'b' }));
    expect(asked()).toBe(3);
  });
});
