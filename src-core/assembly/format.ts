/**
 * Reading, validating and writing saved assemblies (`*.assembly.json`, format v1 of
 * docs/formats.md).
 *
 * Reading is a small JSON scanner of its own rather than JSON.parse, so that every value knows the
 * line it starts on: a validation error names the file, the field (`parts[3].transform`) and the
 * line, e.g. `as1.assembly.json:42: parts[3].transform: part 'bolt-5': …`.
 *
 * Fields this version does not interpret are kept (top level in `doc.extra`, inside settings,
 * sources, parts and ignore entries in their `extra`) and written back after the known fields, so
 * a file survives being opened and saved by an older version.
 *
 * Pure TypeScript: no Node APIs.
 */
import { RIGID_TOLERANCE, rigidError } from '../collide/transform.js';
import type { LengthUnit } from '../io/types.js';
import { MAX_ID_LENGTH, MAX_NAME_LENGTH, MAX_PATH_LENGTH, MAX_REASON_LENGTH, boundedName } from './limits.js';
import { ASSEMBLY_FORMAT, ASSEMBLY_VERSION, AssemblyError, DEFAULT_SETTINGS } from './model.js';
import type { AssemblyDoc, AssemblySettings, IgnoreRule, PartDef, SourceDef } from './model.js';

/** The file name ending of a saved assembly. */
export const ASSEMBLY_EXTENSION = '.assembly.json';

/** The units a source may declare (what an STL's numbers mean). */
export const SOURCE_UNITS: readonly LengthUnit[] = ['mm', 'cm', 'm', 'in'];

const TOP_FIELDS = ['format', 'version', 'name', 'units', 'sources', 'parts', 'settings', 'ignore'] as const;
const SOURCE_FIELDS = ['id', 'path', 'units', 'bodyNames'] as const;
const PART_FIELDS = ['id', 'name', 'source', 'body', 'transform', 'visible', 'color'] as const;
const SETTINGS_FIELDS = ['touchToleranceMm', 'clearanceMm', 'contactIsInterference'] as const;
const IGNORE_FIELDS = ['a', 'b', 'reason'] as const;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/** Deepest nesting of arrays and objects the reader accepts. */
const MAX_DEPTH = 512;

// ---------------------------------------------------------------------------------------------
// JSON with line numbers

/** Where the members of one parsed object or array start. */
interface Located {
  /** Line of the opening bracket. */
  readonly line: number;
  /** Object: line of each key. Array: line of each element. */
  readonly members: Map<string, number> | number[];
}

const locations = new WeakMap<object, Located>();

/** The 1-based line of a member of a parsed object or array, else of the container, else null. */
function lineOf(container: unknown, key?: string | number): number | null {
  if (typeof container !== 'object' || container === null) return null;
  const loc = locations.get(container);
  if (loc === undefined) return null;
  if (key !== undefined) {
    const at = Array.isArray(loc.members) ? loc.members[Number(key)] : loc.members.get(String(key));
    if (at !== undefined) return at;
  }
  return loc.line;
}

/** Defines an own enumerable property, also for keys like `__proto__`. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function hasOwn(o: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

class JsonReader {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly fileName: string,
  ) {
    if (text.charCodeAt(0) === 0xfeff) this.pos = this.lineStart = 1; // byte order mark
  }

  read(): unknown {
    this.skipBlanks();
    if (this.pos >= this.text.length) {
      throw new AssemblyError(this.fileName, 'the file is empty: an assembly is a JSON object', null, this.line);
    }
    const value = this.value('the file');
    this.skipBlanks();
    if (this.pos < this.text.length) this.fail(`unexpected ${this.found()} after the end of the JSON value`);
    return value;
  }

  private fail(problem: string, line = this.line, column = this.pos - this.lineStart + 1): never {
    throw new AssemblyError(this.fileName, `invalid JSON at column ${column}: ${problem}`, null, line);
  }

  /** Describes the character at the current position (or the end of the file). */
  private found(): string {
    if (this.pos >= this.text.length) return 'end of file';
    const c = this.text.codePointAt(this.pos) ?? 0;
    if (c < 0x20 || c === 0x7f) return `control character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
    return `'${String.fromCodePoint(c)}'`;
  }

  private skipBlanks(): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x09) {
        this.pos++;
      } else if (c === 0x0a || c === 0x0d) {
        this.pos++;
        if (c === 0x0d && t.charCodeAt(this.pos) === 0x0a) this.pos++;
        this.line++;
        this.lineStart = this.pos;
      } else if (c === 0x2f /* / */ && (t.charCodeAt(this.pos + 1) === 0x2f || t.charCodeAt(this.pos + 1) === 0x2a)) {
        this.fail('comments are not allowed in JSON');
      } else {
        return;
      }
    }
  }

  /** `context` names what the value belongs to, for an unexpected end of the file. */
  private value(context: string): unknown {
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (c === 0x7b /* { */) return this.object();
    if (c === 0x5b /* [ */) return this.array();
    if (c === 0x22 /* " */) return this.string();
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) return this.number();
    if (t.startsWith('true', this.pos)) return this.literal('true', true);
    if (t.startsWith('false', this.pos)) return this.literal('false', false);
    if (t.startsWith('null', this.pos)) return this.literal('null', null);
    if (this.pos >= t.length) this.fail(`unexpected end of file: ${context} is not complete`);
    if (c === 0x27 /* ' */) this.fail("strings must be in double quotes, not single quotes");
    for (const word of ['NaN', 'Infinity', 'undefined']) {
      if (t.startsWith(word, this.pos)) this.fail(`'${word}' is not a JSON value`);
    }
    return this.fail(`expected a value, found ${this.found()}`);
  }

  private literal(word: string, value: boolean | null): boolean | null {
    this.pos += word.length;
    return value;
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) this.fail(`arrays and objects are nested more than ${MAX_DEPTH} deep`);
  }

  private object(): Record<string, unknown> {
    this.enter();
    const openLine = this.line;
    const out: Record<string, unknown> = {};
    const members = new Map<string, number>();
    locations.set(out, { line: openLine, members });
    this.pos++; // {
    this.skipBlanks();
    if (this.text.charCodeAt(this.pos) === 0x7d /* } */) {
      this.pos++;
      this.depth--;
      return out;
    }
    for (;;) {
      const c = this.text.charCodeAt(this.pos);
      if (c !== 0x22) {
        if (this.pos >= this.text.length) this.fail(`unexpected end of file: the object opened at line ${openLine} is not closed`);
        if (c === 0x7d) this.fail("trailing comma before '}' (JSON allows none)");
        if (c === 0x27) this.fail('property names must be in double quotes, not single quotes');
        this.fail(`expected a property name in double quotes, found ${this.found()}`);
      }
      const keyLine = this.line;
      const key = this.string();
      const first = members.get(key);
      if (first !== undefined) this.fail(`the key "${key}" appears twice in one object (first at line ${first})`, keyLine);
      this.skipBlanks();
      if (this.text.charCodeAt(this.pos) !== 0x3a /* : */) this.fail(`expected ':' after the key "${key}", found ${this.found()}`);
      this.pos++;
      this.skipBlanks();
      const value = this.value(`the value of "${key}" (line ${keyLine})`);
      members.set(key, keyLine);
      setOwn(out, key, value);
      this.skipBlanks();
      const next = this.text.charCodeAt(this.pos);
      if (next === 0x2c /* , */) {
        this.pos++;
        this.skipBlanks();
        continue;
      }
      if (next === 0x7d) {
        this.pos++;
        this.depth--;
        return out;
      }
      if (this.pos >= this.text.length) this.fail(`unexpected end of file: the object opened at line ${openLine} is not closed`);
      this.fail(`expected ',' or '}' after the value of "${key}", found ${this.found()}`);
    }
  }

  private array(): unknown[] {
    this.enter();
    const openLine = this.line;
    const out: unknown[] = [];
    const members: number[] = [];
    locations.set(out, { line: openLine, members });
    this.pos++; // [
    this.skipBlanks();
    if (this.text.charCodeAt(this.pos) === 0x5d /* ] */) {
      this.pos++;
      this.depth--;
      return out;
    }
    for (;;) {
      if (this.text.charCodeAt(this.pos) === 0x5d) this.fail("trailing comma before ']' (JSON allows none)");
      if (this.pos >= this.text.length) this.fail(`unexpected end of file: the array opened at line ${openLine} is not closed`);
      members.push(this.line);
      out.push(this.value(`the array opened at line ${openLine}`));
      this.skipBlanks();
      const next = this.text.charCodeAt(this.pos);
      if (next === 0x2c) {
        this.pos++;
        this.skipBlanks();
        continue;
      }
      if (next === 0x5d) {
        this.pos++;
        this.depth--;
        return out;
      }
      if (this.pos >= this.text.length) this.fail(`unexpected end of file: the array opened at line ${openLine} is not closed`);
      this.fail(`expected ',' or ']' after an array element, found ${this.found()}`);
    }
  }

  private string(): string {
    const t = this.text;
    const startLine = this.line;
    const startColumn = this.pos - this.lineStart + 1;
    this.pos++; // "
    let out = '';
    let chunk = this.pos;
    for (;;) {
      if (this.pos >= t.length) this.fail(`unexpected end of file: the string that starts at column ${startColumn} is not closed`, startLine);
      const c = t.charCodeAt(this.pos);
      if (c === 0x22) {
        out += t.slice(chunk, this.pos);
        this.pos++;
        return out;
      }
      if (c < 0x20) {
        if (c === 0x0a || c === 0x0d) {
          this.fail(`the string that starts at column ${startColumn} is not closed on its line (write a line break inside a string as \\n)`, startLine);
        }
        this.fail(`${this.found()} inside a string (write it as a \\u escape)`);
      }
      if (c !== 0x5c /* \ */) {
        this.pos++;
        continue;
      }
      out += t.slice(chunk, this.pos);
      const e = t[this.pos + 1];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          const hex = t.slice(this.pos + 2, this.pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('\\u in a string must be followed by four hexadecimal digits');
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 4;
          break;
        }
        default:
          if (e === undefined) this.fail(`unexpected end of file: the string that starts at column ${startColumn} is not closed`, startLine);
          this.fail(`invalid escape '\\${e}' in a string`);
      }
      this.pos += 2;
      chunk = this.pos;
    }
  }

  private number(): number {
    const t = this.text;
    const start = this.pos;
    const digits = (): number => {
      const from = this.pos;
      while (this.pos < t.length && t.charCodeAt(this.pos) >= 0x30 && t.charCodeAt(this.pos) <= 0x39) this.pos++;
      return this.pos - from;
    };
    if (t.charCodeAt(this.pos) === 0x2d) this.pos++;
    if (t.startsWith('Infinity', this.pos)) this.fail("'-Infinity' is not a JSON value");
    const intStart = this.pos;
    const intDigits = digits();
    if (intDigits === 0) this.fail(`expected a digit after '-', found ${this.found()}`);
    if (intDigits > 1 && t.charCodeAt(intStart) === 0x30) this.fail('numbers must not have leading zeros', this.line, intStart - this.lineStart + 1);
    if (t.charCodeAt(this.pos) === 0x2e /* . */) {
      this.pos++;
      if (digits() === 0) this.fail(`expected a digit after the decimal point, found ${this.found()}`);
    }
    const e = t.charCodeAt(this.pos);
    if (e === 0x65 || e === 0x45) {
      this.pos++;
      const sign = t.charCodeAt(this.pos);
      if (sign === 0x2b || sign === 0x2d) this.pos++;
      if (digits() === 0) this.fail(`expected a digit in the exponent, found ${this.found()}`);
    }
    const value = Number(t.slice(start, this.pos));
    if (!Number.isFinite(value)) {
      this.fail(`the number ${t.slice(start, this.pos)} is out of range (a double holds at most about 1.8e308)`, this.line, start - this.lineStart + 1);
    }
    return value === 0 ? 0 : value; // -0 is the same placement as 0; keep one of them
  }
}

/** Parses JSON text, recording the line of every object key and array element. Throws AssemblyError. */
function readJson(text: string, fileName: string): unknown {
  return new JsonReader(text, fileName).read();
}

// ---------------------------------------------------------------------------------------------
// Validation

/** Lines of fields the resolver may need to name, per parsed document. */
const docLines = new WeakMap<AssemblyDoc, ReadonlyMap<string, number>>();

/**
 * The line of a field of a document returned by parseAssembly (`sources[2].path`, `parts[3].body`,
 * `parts[3]`, …), or null when unknown (documents built in code, fields not recorded).
 */
export function fieldLine(doc: AssemblyDoc, field: string): number | null {
  return docLines.get(doc)?.get(field) ?? null;
}

/**
 * The document with `bodyNames` recorded for the sources named in `names` (source id → the names
 * of its bodies in import order); the same document when nothing changes. Field lines carry over.
 */
export function withBodyNames(doc: AssemblyDoc, names: ReadonlyMap<string, readonly string[]>): AssemblyDoc {
  let changed = false;
  const sources = doc.sources.map((s) => {
    const n = names.get(s.id);
    if (n === undefined || (s.bodyNames !== undefined && s.bodyNames.length === n.length && s.bodyNames.every((x, i) => x === n[i]))) return s;
    changed = true;
    return { ...s, bodyNames: n.slice() };
  });
  if (!changed) return doc;
  const out: AssemblyDoc = { ...doc, sources };
  const lines = docLines.get(doc);
  if (lines !== undefined) docLines.set(out, lines);
  return out;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length === 0 ? 'an empty array' : 'an array';
  switch (typeof v) {
    case 'string': return v === '' ? 'an empty string' : `the string ${JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v)}`;
    case 'number': return `the number ${String(v)}`;
    case 'boolean': return String(v);
    case 'object': return 'an object';
    default: return typeof v;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The members of `o` not named in `known`, or undefined when there are none. */
function extrasOf(o: Record<string, unknown>, known: readonly string[]): Record<string, unknown> | undefined {
  let extra: Record<string, unknown> | undefined;
  for (const key of Object.keys(o)) {
    if (known.includes(key)) continue;
    extra ??= {};
    setOwn(extra, key, o[key]);
  }
  return extra;
}

/**
 * What is wrong with a part's transform, or null when it is 16 finite numbers forming a rigid
 * placement (row-major, last row 0 0 0 1, rotation within RIGID_TOLERANCE). `entry` is the index
 * of the offending number, when one is at fault.
 */
export function transformProblem(m: unknown): { problem: string; entry: number | null } | null {
  if (!Array.isArray(m)) return { problem: `the transform must be an array of 16 numbers, found ${describe(m)}`, entry: null };
  if (m.length !== 16) return { problem: `the transform must have 16 numbers (a row-major 4×4 matrix), found ${m.length}`, entry: null };
  for (let i = 0; i < 16; i++) {
    const v: unknown = m[i];
    if (typeof v !== 'number') return { problem: `transform entry ${i} is not a number: ${describe(v)}`, entry: i };
    if (!Number.isFinite(v)) return { problem: `transform entry ${i} is not a finite number (${String(v)})`, entry: i };
  }
  const n = m as number[];
  if (n[12] !== 0 || n[13] !== 0 || n[14] !== 0 || n[15] !== 1) {
    return { problem: `the transform's last row must be 0 0 0 1, found ${n.slice(12).join(' ')}`, entry: null };
  }
  const r = [n[0], n[1], n[2], n[4], n[5], n[6], n[8], n[9], n[10]];
  const err = rigidError(r);
  if (err <= RIGID_TOLERANCE) return null;
  return { problem: `the transform is not a rotation plus a translation: ${nonRigidKind(r)} (orthonormality error ${err.toExponential(2)}, at most ${RIGID_TOLERANCE} allowed)`, entry: null };
}

/** Says how a 3×3 matrix (row-major) fails to be a rotation: reflection, scale or shear. */
function nonRigidKind(r: readonly number[]): string {
  const det = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6]) + r[2] * (r[3] * r[7] - r[4] * r[6]);
  const fmt = (x: number): string => String(Number(x.toPrecision(6)));
  const lengths = [0, 1, 2].map((j) => Math.hypot(r[j], r[3 + j], r[6 + j]));
  const dot = (i: number, j: number): number => r[i] * r[j] + r[3 + i] * r[3 + j] + r[6 + i] * r[6 + j];
  const sheared = Math.abs(dot(0, 1)) > RIGID_TOLERANCE * lengths[0] * lengths[1] ||
    Math.abs(dot(0, 2)) > RIGID_TOLERANCE * lengths[0] * lengths[2] ||
    Math.abs(dot(1, 2)) > RIGID_TOLERANCE * lengths[1] * lengths[2];
  const scaled = lengths.some((l) => Math.abs(l - 1) > RIGID_TOLERANCE);
  const parts: string[] = [];
  if (det < 0) parts.push(`it mirrors (determinant ${fmt(det)})`);
  if (scaled) {
    const same = lengths.every((l) => Math.abs(l - lengths[0]) <= RIGID_TOLERANCE);
    parts.push(same ? `it scales by ${fmt(lengths[0])}` : `it scales the axes by ${lengths.map(fmt).join(', ')}`);
  }
  if (sheared) parts.push('it shears (its columns are not perpendicular)');
  if (parts.length === 0) parts.push(`its determinant is ${fmt(det)}`);
  return parts.join('; ');
}

/**
 * Characters an id may not contain: C0 and C1 controls and DEL, the line and paragraph separators,
 * and bidirectional formatting characters. Ids are shown in terminals, tables and reports, where
 * such a character would move the cursor, end a line or reorder what is shown. Names may contain
 * them (the places that show names escape them).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const ID_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Why `id` cannot be an id (its first forbidden character and where), or null. */
export function idProblem(id: string): string | null {
  const m = ID_FORBIDDEN.exec(id);
  if (m === null) return null;
  const code = m[0].charCodeAt(0);
  const kind = code < 0x20 || (code >= 0x7f && code <= 0x9f) ? 'the control character' : code === 0x2028 || code === 0x2029 ? 'the separator' : 'the bidirectional formatting character';
  return `contains ${kind} U+${code.toString(16).toUpperCase().padStart(4, '0')} at position ${m.index + 1}; ids may not contain control, line separator or bidirectional formatting characters`;
}

class Validator {
  readonly lines = new Map<string, number>();

  constructor(readonly fileName: string) {}

  fail(problem: string, field: string | null, line: number | null): never {
    throw new AssemblyError(this.fileName, problem, field, line);
  }

  /** Records and returns the line of `container[key]`. */
  at(field: string, container: unknown, key?: string | number): number | null {
    const line = lineOf(container, key);
    if (line !== null) this.lines.set(field, line);
    return line;
  }

  /** A non-empty string id; `what` e.g. 'source', 'part'. */
  id(o: Record<string, unknown>, field: string, what: string): string {
    if (!hasOwn(o, 'id')) this.fail(`the ${what} has no 'id'`, `${field}.id`, this.at(field, o));
    const id = o.id;
    if (typeof id !== 'string') this.fail(`the ${what} id must be a string, found ${describe(id)}`, `${field}.id`, this.at(`${field}.id`, o, 'id'));
    if (id.trim() === '') this.fail(`the ${what} id is empty`, `${field}.id`, this.at(`${field}.id`, o, 'id'));
    const problem = idProblem(id);
    if (problem !== null) this.fail(`the ${what} id ${problem}`, `${field}.id`, this.at(`${field}.id`, o, 'id'));
    return id;
  }

  /**
   * Refuses a string longer than `max` characters (limits.ts: what the host and the renderer take).
   * `what` names it ('the part id', "part 'nut': 'name'"); `key` is its member in `o`.
   */
  bounded(value: string, max: number, what: string, o: Record<string, unknown>, key: string, field: string): void {
    if (value.length <= max) return;
    const at = field === '' ? key : `${field}.${key}`;
    this.fail(`${what} has ${value.length} characters, more than the ${max} allowed`, at, this.at(at, o, key));
  }

  optionalString(o: Record<string, unknown>, key: string, field: string, label: string): string | undefined {
    if (!hasOwn(o, key)) return undefined;
    const v = o[key];
    if (typeof v !== 'string') this.fail(`${label}: '${key}' must be a string, found ${describe(v)}`, `${field}.${key}`, this.at(`${field}.${key}`, o, key));
    return v;
  }

  nonNegative(o: Record<string, unknown>, key: string, field: string): number | undefined {
    if (!hasOwn(o, key)) return undefined;
    const v = o[key];
    const line = this.at(`${field}.${key}`, o, key);
    if (typeof v !== 'number') this.fail(`must be a number of millimetres ≥ 0, found ${describe(v)}`, `${field}.${key}`, line);
    if (!Number.isFinite(v)) this.fail(`must be a finite number of millimetres, found ${String(v)}`, `${field}.${key}`, line);
    if (v < 0) this.fail(`must be ≥ 0, found ${v}`, `${field}.${key}`, line);
    return v;
  }
}

/**
 * Parses and validates a saved assembly. Throws AssemblyError naming the file, the field and the
 * line of the first problem found.
 */
export function parseAssembly(text: string, fileName: string): AssemblyDoc {
  const root = readJson(text, fileName);
  const v = new Validator(fileName);
  const doc = validateRoot(root, v);
  docLines.set(doc, v.lines);
  return doc;
}

function validateRoot(root: unknown, v: Validator): AssemblyDoc {
  if (!isObject(root)) {
    v.fail(`not an Interfere assembly: the file holds ${describe(root)}, not a JSON object`, null, lineOf(root) ?? 1);
  }
  const rootLine = lineOf(root);

  // format and version first: a file of another kind or version gets that message, not a detail.
  if (!hasOwn(root, 'format')) {
    v.fail(`not an Interfere assembly: 'format' is missing (expected "${ASSEMBLY_FORMAT}")`, 'format', rootLine);
  }
  if (root.format !== ASSEMBLY_FORMAT) {
    const line = v.at('format', root, 'format');
    if (root.format === 'interfere-report') {
      v.fail(`this is a check report ("interfere-report"), not an assembly ("${ASSEMBLY_FORMAT}")`, 'format', line);
    }
    v.fail(`not an Interfere assembly: format is ${describe(root.format)}, expected "${ASSEMBLY_FORMAT}"`, 'format', line);
  }
  if (!hasOwn(root, 'version')) {
    v.fail(`'version' is missing (this version of Interfere reads assembly format version ${ASSEMBLY_VERSION})`, 'version', rootLine);
  }
  const version = root.version;
  const versionLine = v.at('version', root, 'version');
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    v.fail(`the version must be a whole number ≥ 1, found ${describe(version)}`, 'version', versionLine);
  }
  if (version > ASSEMBLY_VERSION) {
    v.fail(
      `written by a newer version of Interfere (assembly format version ${version}; this version reads version ${ASSEMBLY_VERSION}): update Interfere to open it`,
      'version',
      versionLine,
    );
  }

  let name = '';
  if (hasOwn(root, 'name')) {
    if (typeof root.name !== 'string') v.fail(`the assembly name must be a string, found ${describe(root.name)}`, 'name', v.at('name', root, 'name'));
    name = root.name;
    v.bounded(name, MAX_NAME_LENGTH, 'the assembly name', root, 'name', '');
  }
  if (hasOwn(root, 'units') && root.units !== 'mm') {
    v.fail(
      `units must be "mm", found ${describe(root.units)}: an assembly's transforms and settings are in millimetres (a source's own units go in sources[].units)`,
      'units',
      v.at('units', root, 'units'),
    );
  }

  const sources = validateSources(root, v, rootLine);
  const sourceIds = new Set(sources.map((s) => s.id));
  const parts = hasOwn(root, 'parts') ? validateParts(root.parts, root, v, sourceIds) : null;
  const settings = hasOwn(root, 'settings') ? validateSettings(root.settings, root, v) : DEFAULT_SETTINGS;
  const ignore = hasOwn(root, 'ignore') ? validateIgnore(root.ignore, root, v, parts) : [];

  return {
    format: ASSEMBLY_FORMAT,
    version: ASSEMBLY_VERSION,
    name,
    units: 'mm',
    sources,
    parts,
    settings,
    ignore,
    extra: extrasOf(root, TOP_FIELDS) ?? {},
  };
}

function validateSources(root: Record<string, unknown>, v: Validator, rootLine: number | null): SourceDef[] {
  if (!hasOwn(root, 'sources')) v.fail("'sources' is missing: an assembly lists the files its parts come from", 'sources', rootLine);
  const list = root.sources;
  if (!Array.isArray(list)) v.fail(`'sources' must be an array, found ${describe(list)}`, 'sources', v.at('sources', root, 'sources'));
  v.at('sources', root, 'sources');
  const firstLine = new Map<string, number | null>();
  return list.map((entry, i): SourceDef => {
    const field = `sources[${i}]`;
    const line = v.at(field, list, i);
    if (!isObject(entry)) v.fail(`a source must be an object with 'id' and 'path', found ${describe(entry)}`, field, line);
    const id = v.id(entry, field, 'source');
    v.bounded(id, MAX_ID_LENGTH, 'the source id', entry, 'id', field);
    if (firstLine.has(id)) {
      const first = firstLine.get(id);
      v.fail(`the source id '${id}' is used twice${first !== null ? ` (first at line ${first})` : ''}`, `${field}.id`, v.at(`${field}.id`, entry, 'id'));
    }
    firstLine.set(id, lineOf(entry, 'id'));
    if (!hasOwn(entry, 'path')) v.fail(`source '${id}' has no 'path'`, `${field}.path`, line);
    const path = entry.path;
    const pathLine = v.at(`${field}.path`, entry, 'path');
    if (typeof path !== 'string') v.fail(`source '${id}': 'path' must be a string, found ${describe(path)}`, `${field}.path`, pathLine);
    if (path.trim() === '') v.fail(`source '${id}': 'path' is empty`, `${field}.path`, pathLine);
    v.bounded(path, MAX_PATH_LENGTH, `source '${id}': 'path'`, entry, 'path', field);
    const out: Mutable<SourceDef> = { id, path };
    if (hasOwn(entry, 'units')) {
      const units = entry.units;
      if (typeof units !== 'string' || !(SOURCE_UNITS as readonly string[]).includes(units)) {
        v.fail(`source '${id}': units must be one of ${SOURCE_UNITS.join(', ')}, found ${describe(units)}`, `${field}.units`, v.at(`${field}.units`, entry, 'units'));
      }
      out.units = units as LengthUnit;
    }
    if (hasOwn(entry, 'bodyNames')) {
      const names = entry.bodyNames;
      const namesLine = v.at(`${field}.bodyNames`, entry, 'bodyNames');
      if (!Array.isArray(names)) {
        v.fail(`source '${id}': 'bodyNames' must be an array of the source's body names, found ${describe(names)}`, `${field}.bodyNames`, namesLine);
      }
      const bad = names.findIndex((n) => typeof n !== 'string');
      if (bad >= 0) {
        v.fail(`source '${id}': bodyNames[${bad}] must be a string (a body name, "" for none), found ${describe(names[bad])}`, `${field}.bodyNames[${bad}]`, lineOf(names, bad) ?? namesLine);
      }
      out.bodyNames = (names as string[]).slice();
    }
    const extra = extrasOf(entry, SOURCE_FIELDS);
    if (extra !== undefined) out.extra = extra;
    return out;
  });
}

function validateParts(list: unknown, root: Record<string, unknown>, v: Validator, sourceIds: ReadonlySet<string>): PartDef[] {
  const listLine = v.at('parts', root, 'parts');
  if (!Array.isArray(list)) v.fail(`'parts' must be an array, found ${describe(list)} (leave it out to use every body of every source)`, 'parts', listLine);
  const firstLine = new Map<string, number | null>();
  return list.map((entry, i): PartDef => {
    const field = `parts[${i}]`;
    const line = v.at(field, list, i);
    if (!isObject(entry)) v.fail(`a part must be an object with 'id' and 'source', found ${describe(entry)}`, field, line);
    const id = v.id(entry, field, 'part');
    v.bounded(id, MAX_ID_LENGTH, 'the part id', entry, 'id', field);
    if (firstLine.has(id)) {
      const first = firstLine.get(id);
      v.fail(`the part id '${id}' is used twice${first !== null ? ` (first at line ${first})` : ''}`, `${field}.id`, v.at(`${field}.id`, entry, 'id'));
    }
    firstLine.set(id, lineOf(entry, 'id'));
    const label = `part '${id}'`;
    const name = v.optionalString(entry, 'name', field, label);
    if (name !== undefined) v.bounded(name, MAX_NAME_LENGTH, `${label}: 'name'`, entry, 'name', field);

    if (!hasOwn(entry, 'source')) v.fail(`${label} has no 'source'`, `${field}.source`, line);
    const source = entry.source;
    const sourceLine = v.at(`${field}.source`, entry, 'source');
    if (typeof source !== 'string') v.fail(`${label}: 'source' must be a source id (a string), found ${describe(source)}`, `${field}.source`, sourceLine);
    if (!sourceIds.has(source)) v.fail(`${label} refers to source '${source}', which the file does not list`, `${field}.source`, sourceLine);

    let body = 0;
    if (hasOwn(entry, 'body')) {
      const b = entry.body;
      if (typeof b !== 'number' || !Number.isInteger(b) || b < 0) {
        v.fail(`${label}: 'body' must be a whole number ≥ 0 (the body's index in its source), found ${describe(b)}`, `${field}.body`, v.at(`${field}.body`, entry, 'body'));
      }
      v.at(`${field}.body`, entry, 'body');
      body = b;
    }

    const out: Mutable<PartDef> = { id, source, body };
    if (name !== undefined) out.name = name;
    if (hasOwn(entry, 'transform')) {
      const m = entry.transform;
      const tField = `${field}.transform`;
      const tLine = v.at(tField, entry, 'transform');
      const bad = transformProblem(m);
      if (bad !== null) {
        const at = bad.entry !== null ? `${tField}[${bad.entry}]` : tField;
        v.fail(`${label}: ${bad.problem}`, at, bad.entry !== null ? lineOf(m, bad.entry) : tLine);
      }
      out.transform = (m as number[]).slice();
    }
    if (hasOwn(entry, 'visible')) {
      if (typeof entry.visible !== 'boolean') {
        v.fail(`${label}: 'visible' must be true or false, found ${describe(entry.visible)}`, `${field}.visible`, v.at(`${field}.visible`, entry, 'visible'));
      }
      out.visible = entry.visible;
    }
    if (hasOwn(entry, 'color')) {
      const c = entry.color;
      if (typeof c !== 'string' || !COLOR_PATTERN.test(c)) {
        v.fail(`${label}: 'color' must be "#rrggbb" (six hexadecimal digits), found ${describe(c)}`, `${field}.color`, v.at(`${field}.color`, entry, 'color'));
      }
      out.color = c;
    }
    const extra = extrasOf(entry, PART_FIELDS);
    if (extra !== undefined) out.extra = extra;
    return out;
  });
}

function validateSettings(s: unknown, root: Record<string, unknown>, v: Validator): AssemblySettings {
  const line = v.at('settings', root, 'settings');
  if (!isObject(s)) v.fail(`'settings' must be an object, found ${describe(s)}`, 'settings', line);
  let touch: number | null = null;
  if (hasOwn(s, 'touchToleranceMm') && s.touchToleranceMm !== null) {
    touch = v.nonNegative(s, 'touchToleranceMm', 'settings') ?? null;
  }
  const clearance = v.nonNegative(s, 'clearanceMm', 'settings') ?? 0;
  let contact = false;
  if (hasOwn(s, 'contactIsInterference')) {
    const c = s.contactIsInterference;
    if (typeof c !== 'boolean') {
      v.fail(`must be true or false, found ${describe(c)}`, 'settings.contactIsInterference', v.at('settings.contactIsInterference', s, 'contactIsInterference'));
    }
    contact = c;
  }
  const out: Mutable<AssemblySettings> = {
    touchToleranceMm: touch,
    clearanceMm: clearance,
    contactIsInterference: contact,
  };
  const extra = extrasOf(s, SETTINGS_FIELDS);
  if (extra !== undefined) out.extra = extra;
  return out;
}

function validateIgnore(list: unknown, root: Record<string, unknown>, v: Validator, parts: readonly PartDef[] | null): IgnoreRule[] {
  const listLine = v.at('ignore', root, 'ignore');
  if (!Array.isArray(list)) v.fail(`'ignore' must be an array of {"a", "b"} part pairs, found ${describe(list)}`, 'ignore', listLine);
  const partIds = parts === null ? null : new Set(parts.map((p) => p.id));
  return list.map((entry, i): IgnoreRule => {
    const field = `ignore[${i}]`;
    const line = v.at(field, list, i);
    if (!isObject(entry)) v.fail(`an ignore rule must be an object {"a": part id, "b": part id}, found ${describe(entry)}`, field, line);
    const ends = (['a', 'b'] as const).map((key) => {
      if (!hasOwn(entry, key)) v.fail(`the ignore rule has no '${key}' (a part id)`, `${field}.${key}`, line);
      const id = entry[key];
      const idLine = v.at(`${field}.${key}`, entry, key);
      if (typeof id !== 'string') v.fail(`'${key}' must be a part id (a string), found ${describe(id)}`, `${field}.${key}`, idLine);
      const problem = idProblem(id);
      if (problem !== null) v.fail(`'${key}' is not a part id: it ${problem}`, `${field}.${key}`, idLine);
      v.bounded(id, MAX_ID_LENGTH, `'${key}'`, entry, key, field);
      if (partIds !== null && !partIds.has(id)) {
        v.fail(`the ignore rule names part '${id}', which is not a part of this assembly`, `${field}.${key}`, idLine);
      }
      return id;
    });
    const [a, b] = ends;
    if (a === b) v.fail(`the ignore rule pairs part '${a}' with itself`, field, line);
    const out: Mutable<IgnoreRule> = { a, b };
    const reason = v.optionalString(entry, 'reason', field, `ignore rule ${a}/${b}`);
    if (reason !== undefined) v.bounded(reason, MAX_REASON_LENGTH, `ignore rule ${a}/${b}: 'reason'`, entry, 'reason', field);
    if (reason !== undefined) out.reason = reason;
    const extra = extrasOf(entry, IGNORE_FIELDS);
    if (extra !== undefined) out.extra = extra;
    return out;
  });
}

// ---------------------------------------------------------------------------------------------
// Writing

/** A member of an object being written: its key and its value already rendered at that depth. */
type Member = readonly [string, string];

function renderObject(members: readonly Member[], indent: string): string {
  if (members.length === 0) return '{}';
  const inner = indent + '  ';
  return `{\n${members.map(([k, val]) => `${inner}${JSON.stringify(k)}: ${val}`).join(',\n')}\n${indent}}`;
}

function renderArray(items: readonly string[], indent: string): string {
  if (items.length === 0) return '[]';
  const inner = indent + '  ';
  return `[\n${items.map((item) => inner + item).join(',\n')}\n${indent}]`;
}

/** A finite number in JavaScript's shortest round-trip form. */
function renderNumber(x: number, field: string): string {
  if (!Number.isFinite(x)) throw new RangeError(`${field}: ${String(x)} cannot be written to JSON`);
  return String(x);
}

/** Any JSON value (an unknown field's value), in the same layout as the rest of the file. */
function renderValue(value: unknown, indent: string, field: string): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string': return JSON.stringify(value);
    case 'number': return renderNumber(value, field);
    case 'boolean': return String(value);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'bigint':
      throw new RangeError(`${field}: a bigint cannot be written to JSON`);
    default:
      break;
  }
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    return renderArray(value.map((item, i) => renderValue(item, inner, `${field}[${i}]`) ?? 'null'), indent);
  }
  const members: Member[] = [];
  for (const key of Object.keys(value as object)) {
    const rendered = renderValue((value as Record<string, unknown>)[key], inner, `${field}.${key}`);
    if (rendered !== undefined) members.push([key, rendered]);
  }
  return renderObject(members, indent);
}

/** Appends the extra members whose keys are not known fields (a known field always wins). */
function pushExtras(members: Member[], extra: Readonly<Record<string, unknown>> | undefined, known: readonly string[], indent: string, field: string): void {
  if (extra === undefined) return;
  for (const key of Object.keys(extra)) {
    if (known.includes(key)) continue;
    const rendered = renderValue(extra[key], indent, field === '' ? key : `${field}.${key}`);
    if (rendered !== undefined) members.push([key, rendered]);
  }
}

/** 16 numbers on one line, a space between the rows: `[1,0,0,0,  0,1,0,0.5,  0,0,1,0,  0,0,0,1]`. */
function renderTransform(m: readonly number[], field: string): string {
  const numbers = m.map((x, i) => renderNumber(x, `${field}[${i}]`));
  if (numbers.length !== 16) return `[${numbers.join(',')}]`;
  const rows = [0, 4, 8, 12].map((r) => numbers.slice(r, r + 4).join(','));
  return `[${rows.join(',  ')}]`;
}

/**
 * Writes a document as stable, readable JSON: 2-space indent, fields in the order of formats.md,
 * unknown fields after the known ones, transforms on one line, a final newline. Omits what reads
 * back the same when absent: `parts` when null, `ignore` when empty, optional part and source
 * fields when undefined, `touchToleranceMm` when automatic (null). Throws RangeError for a
 * number JSON cannot hold (NaN, ±Infinity).
 */
export function serializeAssembly(doc: AssemblyDoc): string {
  const i1 = '  ', i2 = '    ', i3 = '      ';
  const top: Member[] = [
    ['format', JSON.stringify(ASSEMBLY_FORMAT)],
    ['version', String(ASSEMBLY_VERSION)],
    ['name', JSON.stringify(doc.name)],
    ['units', JSON.stringify('mm')],
  ];

  top.push(['sources', renderArray(doc.sources.map((s, i) => {
    const m: Member[] = [['id', JSON.stringify(s.id)], ['path', JSON.stringify(s.path)]];
    if (s.units !== undefined) m.push(['units', JSON.stringify(s.units)]);
    if (s.bodyNames !== undefined) m.push(['bodyNames', `[${s.bodyNames.map((n) => JSON.stringify(n)).join(', ')}]`]);
    pushExtras(m, s.extra, SOURCE_FIELDS, i3, `sources[${i}]`);
    return renderObject(m, i2);
  }), i1)]);

  if (doc.parts !== null) {
    top.push(['parts', renderArray(doc.parts.map((p, i) => {
      const field = `parts[${i}]`;
      const m: Member[] = [['id', JSON.stringify(p.id)]];
      if (p.name !== undefined) m.push(['name', JSON.stringify(p.name)]);
      m.push(['source', JSON.stringify(p.source)]);
      m.push(['body', renderNumber(p.body, `${field}.body`)]);
      if (p.transform !== undefined) m.push(['transform', renderTransform(p.transform, `${field}.transform`)]);
      if (p.visible !== undefined) m.push(['visible', String(p.visible)]);
      if (p.color !== undefined) m.push(['color', JSON.stringify(p.color)]);
      pushExtras(m, p.extra, PART_FIELDS, i3, field);
      return renderObject(m, i2);
    }), i1)]);
  }

  const s = doc.settings;
  const settings: Member[] = [];
  if (s.touchToleranceMm !== null) settings.push(['touchToleranceMm', renderNumber(s.touchToleranceMm, 'settings.touchToleranceMm')]);
  settings.push(['clearanceMm', renderNumber(s.clearanceMm, 'settings.clearanceMm')]);
  settings.push(['contactIsInterference', String(s.contactIsInterference)]);
  pushExtras(settings, s.extra, SETTINGS_FIELDS, i2, 'settings');
  top.push(['settings', renderObject(settings, i1)]);

  if (doc.ignore.length > 0) {
    top.push(['ignore', renderArray(doc.ignore.map((r, i) => {
      const m: Member[] = [['a', JSON.stringify(r.a)], ['b', JSON.stringify(r.b)]];
      if (r.reason !== undefined) m.push(['reason', JSON.stringify(r.reason)]);
      pushExtras(m, r.extra, IGNORE_FIELDS, i3, `ignore[${i}]`);
      return renderObject(m, i2);
    }), i1)]);
  }

  pushExtras(top, doc.extra, TOP_FIELDS, i1, '');
  return renderObject(top, '') + '\n';
}

// ---------------------------------------------------------------------------------------------
// Bare CAD/STL files as assemblies, and the ids the checker assigns

/**
 * A name as an id fragment: lower case, every run of characters other than letters and digits
 * turned into one '-', none at either end ('' when nothing is left).
 */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Ids for bodies that become parts without the file naming them: `<slug of name>-<index>`
 * (`nut-0`, `l-bracket-9`), `body-<index>` when the name gives no slug, each prefixed with
 * `<prefix>-` when a prefix is given. An id already in `taken` (or assigned earlier) gets `_2`,
 * `_3`, … appended. Adds the ids to `taken`.
 */
export function assignPartIds(names: readonly string[], prefix: string | null = null, taken: Set<string> = new Set()): string[] {
  return names.map((name, index) => {
    const slug = slugify(name);
    const base = boundedId(`${prefix !== null && prefix !== '' ? `${prefix}-` : ''}${slug === '' ? 'body' : slug}`, `-${index}`);
    let id = base;
    for (let k = 2; taken.has(id); k++) id = `${base}_${k}`;
    taken.add(id);
    return id;
  });
}

/**
 * `stem + tail`, the stem shortened so that the id, with a `_k` suffix of up to 8 characters,
 * stays within MAX_ID_LENGTH (a long body name must not make an id the host cannot send).
 */
function boundedId(stem: string, tail: string): string {
  const room = MAX_ID_LENGTH - 8 - tail.length;
  if (stem.length <= room) return stem + tail;
  let cut = stem.slice(0, room);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1); // not half a character
  return cut.replace(/-+$/, '') + tail;
}

/** The last segment of a path, by either separator. */
export function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** A file name without its extension (`.assembly.json` counts as one). */
function stem(fileName: string): string {
  const base = baseName(fileName);
  if (base.toLowerCase().endsWith(ASSEMBLY_EXTENSION)) return base.slice(0, -ASSEMBLY_EXTENSION.length);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

export interface FromBodiesOptions {
  /** The source's id; default the slug of the file name without extension ('model' if empty). */
  readonly sourceId?: string;
  /** What an STL's numbers mean (default: not stated, i.e. mm). */
  readonly units?: LengthUnit;
}

/**
 * A bare CAD/STL file checked as an assembly: one source (the file, by its base name: the
 * assembly is taken to sit in the file's folder), every body a part at its own placement (no
 * transform) with the ids the checker assigns (assignPartIds) and the body's name, default
 * settings.
 */
export function assemblyFromBodies(
  fileName: string,
  bodies: readonly { readonly name: string }[],
  options: FromBodiesOptions = {},
): AssemblyDoc {
  const sourceId = options.sourceId ?? boundedId(slugify(stem(fileName)) || 'model', '');
  const source: Mutable<SourceDef> = { id: sourceId, path: baseName(fileName) };
  if (options.units !== undefined) source.units = options.units;
  const ids = assignPartIds(bodies.map((b) => b.name));
  const parts = bodies.map((b, index): PartDef => (b.name !== '' ? { id: ids[index], name: boundedName(b.name), source: sourceId, body: index } : { id: ids[index], source: sourceId, body: index }));
  return {
    format: ASSEMBLY_FORMAT,
    version: ASSEMBLY_VERSION,
    name: baseName(fileName),
    units: 'mm',
    sources: [source],
    parts,
    settings: DEFAULT_SETTINGS,
    ignore: [],
    extra: {},
  };
}
