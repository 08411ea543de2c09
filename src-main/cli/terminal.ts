/**
 * Text for a terminal: part ids, file names and messages come from files and command lines, and a
 * control character in one (ESC, CSI, BEL, NUL, …) would let a file set the window title, clear the
 * screen or print a line of its own; a bidirectional-formatting character (U+202E …) would reorder
 * what is shown. Every such character is written as a visible escape instead: `\x1b`, `\u202e`.
 */

/**
 * C0 controls (U+0000–U+001F), DEL, C1 controls (U+0080–U+009F), the bidirectional marks and
 * embeddings, overrides and isolates (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), and
 * the line and paragraph separators (U+2028, U+2029).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The same characters except the C0 controls, which JSON.stringify escapes already. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function hex(n: number, digits: number): string {
  return n.toString(16).padStart(digits, '0');
}

/** `s` with every character of UNSAFE written as `\xHH` (up to U+00FF) or `\uHHHH`. */
export function terminalText(s: string): string {
  return s.replace(UNSAFE, (c) => {
    const n = c.charCodeAt(0);
    return n <= 0xff ? `\\x${hex(n, 2)}` : `\\u${hex(n, 4)}`;
  });
}

/**
 * JSON text with the characters of UNSAFE_IN_JSON written as `\uHHHH` escapes: the same JSON value
 * (those characters can only occur inside strings), safe to show on a terminal.
 */
export function terminalJson(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${hex(c.charCodeAt(0), 4)}`);
}
