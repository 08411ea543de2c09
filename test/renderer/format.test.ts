import { describe, expect, it } from 'vitest';
import { formatCount, formatDuration, formatMeasure, formatSignedMeasure, mmFieldText, parseMmInput, percentDone } from '../../src-renderer/state/format';

describe('formatMeasure', () => {
  it('shows about four significant digits with separators', () => {
    expect(formatMeasure(0.0607319250702858)).toBe('0.06073');
    expect(formatMeasure(1.5)).toBe('1.5');
    expect(formatMeasure(12.3456)).toBe('12.35');
    expect(formatMeasure(1234.567)).toBe('1,235');
    expect(formatMeasure(123456.7)).toBe('123,457');
    expect(formatMeasure(-2.5)).toBe('-2.5');
  });
  it('shows zero as 0, tiny values with an exponent, and unknowns as a dash', () => {
    expect(formatMeasure(0)).toBe('0');
    expect(formatMeasure(0.0000123)).toBe('1.23e-5');
    expect(formatMeasure(null)).toBe('—');
    expect(formatMeasure(undefined)).toBe('—');
    expect(formatMeasure(Number.NaN)).toBe('—');
  });
});

describe('formatSignedMeasure', () => {
  it('always writes the sign, with a true minus sign, and none on zero', () => {
    expect(formatSignedMeasure(-0.012)).toBe('\u22120.012');
    expect(formatSignedMeasure(0.003)).toBe('+0.003');
    expect(formatSignedMeasure(-1234.5)).toBe('\u22121,235');
    expect(formatSignedMeasure(-0.0000123)).toBe('\u22121.23e-5');
    expect(formatSignedMeasure(0)).toBe('0');
    expect(formatSignedMeasure(-0)).toBe('0');
    expect(formatSignedMeasure(null)).toBe('—');
  });
});

describe('counts, durations and progress', () => {
  it('formats counts and durations', () => {
    expect(formatCount(5040)).toBe('5,040');
    expect(formatDuration(442)).toBe('442 ms');
    expect(formatDuration(1234)).toBe('1.23 s');
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(-1)).toBe('—');
  });
  it('computes a bounded percentage, or null without a total', () => {
    expect(percentDone(5, 10)).toBe(50);
    expect(percentDone(12, 10)).toBe(100);
    expect(percentDone(3, 0)).toBeNull();
  });
});

describe('parseMmInput', () => {
  it('reads lengths in millimetres, with a comma or a unit', () => {
    expect(parseMmInput('0.05', false)).toEqual({ ok: true, value: 0.05 });
    expect(parseMmInput(' 2,5 mm ', false)).toEqual({ ok: true, value: 2.5 });
    expect(parseMmInput('.5', false)).toEqual({ ok: true, value: 0.5 });
    expect(parseMmInput('1e-3', false)).toEqual({ ok: true, value: 0.001 });
  });
  it('takes empty or "auto" as automatic only where allowed', () => {
    expect(parseMmInput('', true)).toEqual({ ok: true, value: null });
    expect(parseMmInput('Auto', true)).toEqual({ ok: true, value: null });
    expect(parseMmInput('', false).ok).toBe(false);
  });
  it('refuses negative, non-numeric and huge values with a reason', () => {
    for (const text of ['-1', 'abc', '1.2.3', '2e7', '5 cm']) {
      const r = parseMmInput(text, true);
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.message.length).toBeGreaterThan(0);
    }
  });
  it('shows automatic as "auto"', () => {
    expect(mmFieldText(null)).toBe('auto');
    expect(mmFieldText(0.1)).toBe('0.1');
  });
});
