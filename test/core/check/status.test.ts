import { describe, expect, it } from 'vitest';
import { diffStatuses, pairKey, splitPairKey, type FindingKind, type Review, type ReviewEntry } from '../../../src-core/check/status.js';

const PARTS = ['bolt', 'nut', 'plate', 'washer'];

function review(entries: Record<string, ReviewEntry>): Review {
  return new Map(Object.entries(entries));
}

function result(a: string, b: string, kind: FindingKind): { a: string; b: string; kind: FindingKind } {
  return { a, b, kind };
}

describe('pair keys', () => {
  it('name an unordered pair as a|b with a < b, and split back into two parts', () => {
    expect(pairKey('nut', 'bolt')).toBe('bolt|nut');
    expect(pairKey('bolt', 'nut')).toBe('bolt|nut');
    // Ids may hold '|': the split is the one naming two parts.
    expect(splitPairKey('a|b|c', new Set(['a|b', 'c']))).toEqual(['a|b', 'c']);
    expect(splitPairKey('a|b|c', new Set(['a', 'b|c']))).toEqual(['a', 'b|c']);
    const ids = new Set(['a', 'b']);
    expect(splitPairKey('a|a', ids)).toBeNull();
    expect(splitPairKey('x|y', ids)).toBeNull();
  });
});

describe('the status diff', () => {
  it('a finding seen for the first time is new', () => {
    const d = diffStatuses({ before: new Map(), results: [result('bolt', 'nut', 'interference')], partOrder: PARTS });
    expect(d.statuses).toEqual(['new']);
    expect(d.review.get('bolt|nut')).toEqual({ status: 'new', kind: 'interference' });
    expect(d.changed).toBe(true);
  });

  it('a finding seen again with the same kind is active, and so is one still active', () => {
    for (const status of ['new', 'active'] as const) {
      const d = diffStatuses({ before: review({ 'bolt|nut': { status, kind: 'contact' } }), results: [result('bolt', 'nut', 'contact')], partOrder: PARTS });
      expect(d.statuses).toEqual(['active']);
    }
  });

  it('a contact that becomes an interference is new; an interference that becomes a contact is active', () => {
    const worse = diffStatuses({ before: review({ 'bolt|nut': { status: 'active', kind: 'contact' } }), results: [result('bolt', 'nut', 'interference')], partOrder: PARTS });
    expect(worse.statuses).toEqual(['new']);
    const clearance = diffStatuses({ before: review({ 'bolt|nut': { status: 'active', kind: 'contact' } }), results: [result('bolt', 'nut', 'clearance')], partOrder: PARTS });
    expect(clearance.statuses).toEqual(['new']);
    const better = diffStatuses({ before: review({ 'bolt|nut': { status: 'new', kind: 'interference' } }), results: [result('bolt', 'nut', 'contact')], partOrder: PARTS });
    expect(better.statuses).toEqual(['active']);
    // A kind not known (a review read from a file) counts as the same finding.
    const read = diffStatuses({ before: review({ 'bolt|nut': { status: 'active', kind: null } }), results: [result('bolt', 'nut', 'interference')], partOrder: PARTS });
    expect(read.statuses).toEqual(['active']);
  });

  it('a finding the user ignored stays ignored, whatever its kind', () => {
    const d = diffStatuses({ before: review({ 'bolt|nut': { status: 'ignored', kind: 'contact' } }), results: [result('bolt', 'nut', 'interference')], partOrder: PARTS });
    expect(d.statuses).toEqual(['ignored']);
    expect(d.changed).toBe(false);
  });

  it('a finding resolved before and found again is new', () => {
    const d = diffStatuses({ before: review({ 'bolt|nut': { status: 'resolved', kind: 'interference' } }), results: [result('bolt', 'nut', 'interference')], partOrder: PARTS });
    expect(d.statuses).toEqual(['new']);
  });

  it('a finding gone is listed resolved, the earlier part first, and stays in the review as resolved', () => {
    const before = review({ 'nut|plate': { status: 'active', kind: 'interference' }, 'bolt|washer': { status: 'new', kind: 'contact' } });
    const d = diffStatuses({ before, results: [], partOrder: ['plate', 'nut', 'bolt', 'washer'] });
    expect(d.resolved).toEqual([{ a: 'plate', b: 'nut' }, { a: 'bolt', b: 'washer' }]);
    expect(d.review.get('nut|plate')).toEqual({ status: 'resolved', kind: 'interference' });
    expect(d.counts).toEqual({ new: 0, active: 0, resolved: 2, ignored: 0 });
    // A user-ignored finding that is gone is resolved too.
    const ignored = diffStatuses({ before: review({ 'bolt|nut': { status: 'ignored', kind: 'contact' } }), results: [], partOrder: PARTS });
    expect(ignored.resolved).toEqual([{ a: 'bolt', b: 'nut' }]);
  });

  it('a pair resolved before and still gone is listed no more and leaves the review', () => {
    const d = diffStatuses({ before: review({ 'bolt|nut': { status: 'resolved', kind: 'contact' } }), results: [], partOrder: PARTS });
    expect(d.resolved).toEqual([]);
    expect(d.review.size).toBe(0);
  });

  it('an ignore rule makes the pair ignored in the review, not resolved', () => {
    // Found before, then an ignore rule leaves it out: the check lists it as ignored.
    const d = diffStatuses({ before: review({ 'bolt|nut': { status: 'new', kind: 'interference' } }), results: [result('bolt', 'nut', 'ignored')], partOrder: PARTS });
    expect(d.statuses).toEqual(['ignored']);
    expect(d.resolved).toEqual([]);
    expect(d.review.get('bolt|nut')).toEqual({ status: 'ignored', kind: 'ignored' });
    // Read back from the saved file (kind not known) and checked again with the rule: ignored.
    const reopened = diffStatuses({ before: review({ 'bolt|nut': { status: 'ignored', kind: null } }), results: [result('bolt', 'nut', 'ignored')], partOrder: PARTS });
    expect(reopened.statuses).toEqual(['ignored']);
    expect(reopened.review.get('bolt|nut')?.status).toBe('ignored');
  });

  it('a pair left out by a rule that is removed: new when found, dropped when clear', () => {
    const before = review({ 'bolt|nut': { status: 'ignored', kind: 'ignored' }, 'nut|plate': { status: 'ignored', kind: 'ignored' } });
    const d = diffStatuses({ before, results: [result('bolt', 'nut', 'contact')], partOrder: PARTS });
    expect(d.statuses).toEqual(['new']);
    expect(d.resolved).toEqual([]);
    expect([...d.review.keys()]).toEqual(['bolt|nut']);
  });

  it('pairs outside the scope keep their status; pairs naming no two parts are kept as they are', () => {
    const before = review({
      'bolt|nut': { status: 'active', kind: 'contact' },
      'plate|washer': { status: 'new', kind: 'interference' },
      'gone|bolt': { status: 'active', kind: 'contact' },
    });
    const inScope = (a: string, b: string): boolean => a === 'bolt' || b === 'bolt';
    const d = diffStatuses({ before, results: [], partOrder: PARTS, inScope });
    expect(d.resolved).toEqual([{ a: 'bolt', b: 'nut' }]);
    expect(d.review.get('plate|washer')).toEqual({ status: 'new', kind: 'interference' });
    expect(d.review.get('gone|bolt')).toEqual({ status: 'active', kind: 'contact' });
  });

  it('counts the rows per status: the results and the resolved pairs', () => {
    const before = review({
      'bolt|nut': { status: 'active', kind: 'contact' },
      'nut|plate': { status: 'ignored', kind: 'contact' },
      'plate|washer': { status: 'new', kind: 'contact' },
    });
    const results = [result('bolt', 'nut', 'contact'), result('nut', 'plate', 'interference'), result('bolt', 'washer', 'clearance'), result('bolt', 'plate', 'ignored')];
    const d = diffStatuses({ before, results, partOrder: PARTS });
    expect(d.statuses).toEqual(['active', 'ignored', 'new', 'ignored']);
    expect(d.resolved).toEqual([{ a: 'plate', b: 'washer' }]);
    expect(d.counts).toEqual({ new: 1, active: 1, resolved: 1, ignored: 2 });
    const rows = d.statuses.length + d.resolved.length;
    expect(d.counts.new + d.counts.active + d.counts.resolved + d.counts.ignored).toBe(rows);
  });

  it('reports no change when every status stays', () => {
    const before = review({ 'bolt|nut': { status: 'active', kind: 'contact' } });
    expect(diffStatuses({ before, results: [result('bolt', 'nut', 'contact')], partOrder: PARTS }).changed).toBe(false);
  });
});
