// The live check's line over the view: the kind, the depth or the distance, and the parts.
import { describe, expect, it } from 'vitest';
import type { LivePair } from '../../src-renderer/state/liveCheck';
import { liveKind, liveSummary } from '../../src-renderer/state/liveStatus';
import type { LiveState } from '../../src-renderer/state/types';

const CROSS = Uint32Array.of(1, 2);
const NONE = new Uint32Array(0);

function pair(other: string, o: { depth?: number; distance?: number }): LivePair {
  return o.depth !== undefined
    ? { other, trianglePairs: CROSS, distanceMm: null, depthMm: o.depth }
    : { other, trianglePairs: NONE, distanceMm: o.distance ?? null, depthMm: null };
}

function live(pairs: LivePair[], stoppedBy: string[] = []): LiveState {
  return { partId: 'bolt', placement: [], pairs, checked: pairs.length, stoppedBy, withinMm: 5 };
}

const label = (id: string) => id.toUpperCase();
const TOUCH = 0.05;

describe('the live check line', () => {
  it('tells an interference by its depth from a contact', () => {
    expect(liveKind(pair('p', { depth: 0.4 }), TOUCH)).toBe('interference');
    expect(liveKind(pair('p', { depth: 0.01 }), TOUCH)).toBe('contact');
    expect(liveKind(pair('p', { distance: 0.02 }), TOUCH)).toBe('contact');
    expect(liveKind(pair('p', { distance: 0.2 }), TOUCH)).toBe('near');
    expect(liveSummary(live([pair('plate', { depth: 0.4 })]), TOUCH, label)).toEqual({ tone: 'interference', text: 'Interference with PLATE 0.4 mm deep' });
    expect(liveSummary(live([pair('plate', { depth: 10 })]), TOUCH, label).text).toBe('Interference with PLATE 10 mm deep');
  });

  it('lists the deepest interference first, then the contacts', () => {
    const s = liveSummary(live([pair('nut', { distance: 0.01 }), pair('plate', { depth: 0.4 }), pair('bracket', { depth: 10 }), pair('washer', { depth: 0 })]), TOUCH, label);
    expect(s.tone).toBe('interference');
    expect(s.text).toBe('Interference with BRACKET 10 mm deep, PLATE 0.4 mm deep · Contact with WASHER touching, NUT at 0.01 mm');
  });

  it('says where the part stopped, and how near', () => {
    const s = liveSummary(live([pair('plate', { distance: 0.004 })], ['plate']), TOUCH, label);
    expect(s).toEqual({ tone: 'stopped', text: 'Stopped at contact with PLATE at 0.004 mm' });
    // Parts it rests in still show how deep they cross.
    expect(liveSummary(live([pair('plate', { distance: 0.004 }), pair('hole', { depth: 0.2 })], ['plate']), TOUCH, label).text).toBe(
      'Stopped at contact with PLATE at 0.004 mm · Interference with HOLE 0.2 mm deep',
    );
  });

  it('names the nearest part when clear', () => {
    expect(liveSummary(live([pair('a', { distance: 3 }), pair('b', { distance: 1.5 })]), TOUCH, label)).toEqual({ tone: 'clear', text: 'Clear · nearest B at 1.5 mm' });
    expect(liveSummary(live([]), TOUCH, label).text).toBe('Clear of every part within 5 mm');
  });
});
