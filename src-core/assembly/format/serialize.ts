/** Writing an assembly as stable, readable JSON (serializeAssembly), unknown fields kept. */
import { ASSEMBLY_FORMAT, ASSEMBLY_VERSION } from '../model.js';
import type { AssemblyDoc } from '../model.js';
import { IGNORE_FIELDS, PART_FIELDS, SETTINGS_FIELDS, SOURCE_FIELDS, TOP_FIELDS } from './fields.js';

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
      if (p.path !== undefined) m.push(['path', `[${p.path.map((n) => JSON.stringify(n)).join(', ')}]`]);
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
