import { describe, expect, it } from 'vitest';
import { partLook, partMarks } from '../../src-renderer/state/marks';
import { filterRows, tableRows } from '../../src-renderer/state/results';
import { createAppStore } from '../../src-renderer/state/store';
import { intersectionCurves } from '../../src-renderer/scene/intersectionCurves';
import { checkOutcome, pairResult } from '../support/fakeHost';

const results = [
  pairResult('a', 'b', { kind: 'contact' }),
  pairResult('b', 'c', { kind: 'clearance', distanceMm: 0.2 }),
  pairResult('c', 'd', { kind: 'interference', volumeMm3: 3 }),
  pairResult('d', 'e', { kind: 'ignored' }),
  pairResult('e', 'f', { kind: 'contact', status: 'ignored' }),
];
const outcome = checkOutcome('doc-1', results);

/** The fields of the state partLook reads. */
function lookState(over: Partial<Parameters<typeof partLook>[0]> = {}): Parameters<typeof partLook>[0] {
  return { check: { outcome } as never, selectedResult: null, selectedParts: [], hoveredPart: null, othersWhenResult: 'transparent', drag: null, live: null, ...over };
}

describe('the overview after a check', () => {
  it('marks each part with the worst kind of its findings; ignored pairs do not count', () => {
    const marks = partMarks(outcome);
    expect(Object.fromEntries(marks)).toEqual({ a: 'contact', b: 'clearance', c: 'interference', d: 'interference' });
    // Computed once per outcome.
    expect(partMarks(outcome)).toBe(marks);
  });

  it('shows marks only while no result is selected; then the pair is neutral and the others faded or hidden', () => {
    expect(partLook(lookState(), 'c')).toEqual({ role: 'normal', mark: 'interference', selected: false, hovered: false });
    expect(partLook(lookState(), 'f').mark).toBeNull();
    const result = results[2];
    expect(partLook(lookState({ selectedResult: 'c|d' }), 'c', result)).toMatchObject({ role: 'involvedA', mark: null });
    expect(partLook(lookState({ selectedResult: 'c|d' }), 'd', result).role).toBe('involvedB');
    expect(partLook(lookState({ selectedResult: 'c|d' }), 'a', result).role).toBe('ghost');
    expect(partLook(lookState({ selectedResult: 'c|d', othersWhenResult: 'hidden' }), 'a', result).role).toBe('hidden');
  });

  it('filters the table to one part', () => {
    const rows = tableRows(outcome, {}, new Set(['a', 'b', 'c', 'd', 'e', 'f']));
    expect(filterRows(rows, new Map(), { part: 'c' }).map((r) => r.key)).toEqual(['b|c', 'c|d']);
    expect(filterRows(rows, new Map(), { part: null })).toHaveLength(rows.length);
  });

  it('a click on a marked part in the view filters the results to it; on an unmarked one it only selects', () => {
    const store = createAppStore({ geometry: { add() {}, has: () => false, retain() {}, bodyBounds: () => null } });
    store.setState({ check: { ...store.getState().check, outcome } });
    store.getState().pickPart('f');
    expect(store.getState().resultFilter.part ?? null).toBeNull();
    expect(store.getState().selectedParts).toEqual(['f']);
    store.getState().pickPart('b');
    expect(store.getState().resultFilter.part).toBe('b');
    expect(store.getState().selectedParts).toEqual(['b']);
  });

  it('toggles the section view and the crossing triangles by their commands', () => {
    const store = createAppStore({ geometry: { add() {}, has: () => false, retain() {}, bodyBounds: () => null } });
    expect(store.getState().showCrossing).toBe(false);
    store.getState().runCommand('view.crossing');
    expect(store.getState().showCrossing).toBe(true);
    store.setState({ doc: { id: 'doc-1' } as never });
    const seq = store.getState().section.seq;
    store.getState().runCommand('view.section');
    expect(store.getState().section).toMatchObject({ on: true, offsetMm: 0, seq: seq + 1 });
    store.getState().setSection({ offsetMm: 4 });
    expect(store.getState().section).toMatchObject({ offsetMm: 4, seq: seq + 1 });
    store.getState().runCommand('view.section');
    expect(store.getState().section.on).toBe(false);
  });
});

describe('intersection curves of a result', () => {
  it('places both triangles and cuts them: a segment for crossing faces, a patch for faces on each other', () => {
    // Body a: one triangle in z = 0; body b: a vertical triangle, and one lying in z = 0.
    const a = { positions: [0, 0, 0, 4, 0, 0, 0, 4, 0], indices: [0, 1, 2] };
    const b = { positions: [1, -1, -1, 1, 5, -1, 1, 2, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0], indices: [0, 1, 2, 3, 4, 5] };
    const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    const curves = intersectionCurves(new Uint32Array([0, 0, 0, 1]), a, identity, b, identity);
    expect(curves.segments).toHaveLength(6);
    expect(curves.patches).toHaveLength(9);
    // Moved 10 mm along x, body b crosses nothing of a.
    const moved = [1, 0, 0, 10, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    const apart = intersectionCurves(new Uint32Array([0, 0, 0, 1]), a, identity, b, moved);
    expect(apart.segments).toHaveLength(0);
    expect(apart.patches).toHaveLength(0);
    expect(apart.bounds).toBeNull();
    expect(curves.bounds?.[0]).toBe(0);
    expect(curves.bounds?.[5]).toBe(0);
  });
});
