/**
 * Validating a parsed assembly field by field (parseAssembly): every error names the file, the
 * field (`parts[3].transform`), the line and the part or source. Fields this version does not
 * interpret are kept in `extra`.
 */
import { RIGID_TOLERANCE, rigidError } from '../../geometry/rigid.js';
import { MAX_BODY_PATH_DEPTH, type LengthUnit } from '../../io/types.js';
import { MAX_ID_LENGTH, MAX_NAME_LENGTH, MAX_PATH_LENGTH, MAX_REASON_LENGTH } from '../limits.js';
import { ASSEMBLY_FORMAT, ASSEMBLY_VERSION, AssemblyError, DEFAULT_SETTINGS } from '../model.js';
import type { AssemblyDoc, AssemblySettings, IgnoreRule, PartDef, SourceDef } from '../model.js';
import { IGNORE_FIELDS, PART_FIELDS, SETTINGS_FIELDS, SOURCE_FIELDS, SOURCE_UNITS, TOP_FIELDS } from './fields.js';
import type { Mutable } from './fields.js';
import { hasOwn, lineOf, readJson, setOwn } from './json.js';

const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

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
  const err = rigidError(n);
  if (err <= RIGID_TOLERANCE) return null;
  const r = [n[0], n[1], n[2], n[4], n[5], n[6], n[8], n[9], n[10]];
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
    if (hasOwn(entry, 'path')) {
      const path = entry.path;
      const pField = `${field}.path`;
      const pLine = v.at(pField, entry, 'path');
      if (!Array.isArray(path) || path.length === 0) {
        v.fail(`${label}: 'path' must be a non-empty array of names (the part's place in its file's product tree), found ${describe(path)}`, pField, pLine);
      }
      if (path.length > MAX_BODY_PATH_DEPTH) v.fail(`${label}: 'path' has ${path.length} levels, more than ${MAX_BODY_PATH_DEPTH}`, pField, pLine);
      path.forEach((n, k) => {
        if (typeof n !== 'string') v.fail(`${label}: path[${k}] must be a string (a name), found ${describe(n)}`, `${pField}[${k}]`, lineOf(path, k) ?? pLine);
        if (n.length > MAX_NAME_LENGTH) v.fail(`${label}: path[${k}] has ${n.length} characters, more than ${MAX_NAME_LENGTH}`, `${pField}[${k}]`, lineOf(path, k) ?? pLine);
      });
      out.path = (path as string[]).slice();
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
