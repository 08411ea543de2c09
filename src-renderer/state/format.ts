/**
 * Number and time formatting for the UI. Lengths are millimetres and volumes cubic millimetres
 * everywhere; the unit is written in column headers and labels, so these return bare numbers.
 */

const EM_DASH = '\u2014';

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A count with thousands separators: 5040 → "5,040". */
export function formatCount(n: number): string {
  return grouped.format(n);
}

/**
 * A measurement with about four significant digits, thousands separators and no exponent for
 * ordinary sizes: 0.0607319 → "0.06073", 1234.567 → "1,235", 0 → "0", null → "—".
 */
export function formatMeasure(value: number | null | undefined, significant = 4): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return EM_DASH;
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs < 1e-4) return value.toExponential(Math.max(0, significant - 2));
  if (abs >= 10 ** significant) return grouped.format(value);
  const digits = Math.max(0, significant - 1 - Math.floor(Math.log10(abs)));
  const fixed = new Intl.NumberFormat('en-US', { maximumFractionDigits: Math.min(digits, 8), minimumFractionDigits: 0 });
  return fixed.format(value);
}

/**
 * A signed measurement with its sign always written (a true minus sign): −0.012 → "−0.012",
 * 0.003 → "+0.003", 0 → "0", null → "—".
 */
export function formatSignedMeasure(value: number | null | undefined, significant = 4): string {
  const text = formatMeasure(value, significant);
  if (value === null || value === undefined || !Number.isFinite(value) || text === '0') return text;
  return value < 0 ? `\u2212${text.slice(1)}` : `+${text}`;
}

/** A duration: 442 → "442 ms", 1234 → "1.23 s", 125000 → "2 min 5 s". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return EM_DASH;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms - minutes * 60_000) / 1000);
  return `${minutes} min ${seconds} s`;
}

/** Local time of day, "14:03:27". */
export function formatClock(epochMs: number): string {
  const d = new Date(epochMs);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/**
 * A moment given as ISO 8601, in local time to the minute: "2026-11-29 14:03"; "today 14:03" on
 * the day of `nowMs`. Text that is not a date is returned as it is.
 */
export function formatDateTime(iso: string, nowMs: number = Date.now()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  const day = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
  const now = new Date(nowMs);
  const today = `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
  return `${day === today ? 'today' : day} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** Percent of work done, 0–100, or null when the total is unknown. */
export function percentDone(done: number, total: number): number | null {
  if (!(total > 0) || !Number.isFinite(done)) return null;
  return Math.max(0, Math.min(100, (done / total) * 100));
}

/**
 * Reads a length typed by the user, in millimetres. With `allowAuto`, an empty field or "auto"
 * means automatic (null). Commas are accepted as decimal separators.
 */
export function parseMmInput(text: string, allowAuto: boolean):
  | { ok: true; value: number | null }
  | { ok: false; message: string } {
  const t = text.trim().toLowerCase().replace(/\s*mm$/, '').replace(',', '.');
  if (t === '' || t === 'auto') {
    if (allowAuto) return { ok: true, value: null };
    return { ok: false, message: 'enter a length in millimetres' };
  }
  if (!/^[+]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(t)) return { ok: false, message: `"${text.trim()}" is not a length in millimetres` };
  const value = Number(t);
  if (!Number.isFinite(value) || value < 0) return { ok: false, message: 'the length must be zero or more millimetres' };
  if (value > 1e6) return { ok: false, message: 'the length must be at most 1,000,000 mm' };
  return { ok: true, value };
}

/** The text a length field shows: "auto" for null. */
export function mmFieldText(value: number | null): string {
  return value === null ? 'auto' : String(value);
}

/**
 * Reads a signed number typed by the user (an offset in millimetres or an angle in degrees):
 * commas as decimal separators, an optional unit ("mm", "°", "deg") and spaces are accepted.
 */
export function parseSignedInput(text: string, unit: 'mm' | 'deg'):
  | { ok: true; value: number }
  | { ok: false; message: string } {
  const t = text.trim().toLowerCase().replace(unit === 'mm' ? /\s*mm$/ : /\s*(°|deg)$/, '').replace(',', '.').replace(/^\u2212/, '-');
  const what = unit === 'mm' ? 'an offset in millimetres' : 'an angle in degrees';
  if (t === '') return { ok: false, message: `enter ${what}` };
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(t)) return { ok: false, message: `"${text.trim()}" is not ${what}` };
  const value = Number(t);
  const limit = unit === 'mm' ? 1e6 : 1e5;
  if (!Number.isFinite(value) || Math.abs(value) > limit) return { ok: false, message: `${what} must be between −${formatCount(limit)} and ${formatCount(limit)}` };
  return { ok: true, value: value === 0 ? 0 : value };
}

/** The text of a placement field: up to 6 decimals, no trailing zeros, "0" for tiny values. */
export function placementFieldText(value: number): string {
  if (Math.abs(value) < 5e-7) return '0';
  return String(Number(value.toFixed(6)));
}
