/**
 * What is checked around OpenCascade's read, because occt reports a damaged or partly
 * understood file as a success: that a STEP file ends with its end line, that an IGES file has its
 * Terminate record and the section sizes it declares, and agrees with itself on its unit, which
 * independent IGES entities should become bodies, that a BREP's layout is whole (a damaged one
 * makes the WASM reader loop forever), and the STEP census's verdict on the file's length units.
 */
import { PLAUSIBLE_UNIT_TEXT, stepCensus, unitLabel, unitSize, unitVerdict } from '../stepCensus.js';
import type { StepCensus } from '../stepCensus.js';
import { ImportError, groupDigits, listSome, plural } from '../types.js';
import { occtErrorText } from './provider.js';
import { IGES_LETTER_COLUMN, STEP_END, containsAscii, forEachIgesRecord, igesLetter, latin1 } from './sniff.js';

/** Space, tab, LF, VT, FF, CR (local copy: see the note in stl.ts about imported bindings in loops). */
function isBlank(b: number): boolean {
  return b === 0x20 || (b >= 0x09 && b <= 0x0d);
}

// ---------------------------------------------------------------------------------------------
// STEP

/** Whether the last 4 KB hold the STEP end line. */
export function hasStepEnd(bytes: Uint8Array): boolean {
  return containsAscii(bytes, STEP_END, Math.max(0, bytes.length - 4096));
}

// ---------------------------------------------------------------------------------------------
// IGES

interface IgesLayout {
  /** Records per section letter. */
  counts: Record<string, number>;
  first: string;
  last: string;
  /** The Terminate record's S G D P counts, or null when there is none or it cannot be read. */
  declared: Record<'S' | 'G' | 'D' | 'P', number> | null;
}

function igesLayout(bytes: Uint8Array): IgesLayout {
  const counts: Record<string, number> = {};
  let first = '';
  let last = '';
  let lastStart = 0;
  let lastEnd = 0;
  forEachIgesRecord(bytes, (start, end) => {
    const letter = igesLetter(bytes, start, end);
    if (letter === '') {
      for (let i = start; i < end; i++) if (!isBlank(bytes[i]) && bytes[i] !== 0x1a && bytes[i] !== 0) {
        last = '?'; // a record without a section letter
        return true;
      }
      return true; // blank line: ignored
    }
    if (first === '') first = letter;
    counts[letter] = (counts[letter] ?? 0) + 1;
    last = letter;
    lastStart = start;
    lastEnd = end;
    return true;
  });
  let declared: IgesLayout['declared'] = null;
  if (last === 'T') {
    const t = latin1(bytes, lastStart, lastEnd);
    const m = /^S([ \d]{7})G([ \d]{7})D([ \d]{7})P([ \d]{7})/.exec(t);
    if (m) declared = { S: Number(m[1]), G: Number(m[2]), D: Number(m[3]), P: Number(m[4]) };
  }
  return { counts, first, last, declared };
}

/**
 * occt reads an IGES file cut off anywhere as a success holding the entities before the cut, so the
 * file's own bookkeeping is checked first: it must end with its Terminate record, and the sections
 * must have at least as many records as that record declares. Files that are not laid out in IGES
 * records at all are left to occt.
 */
export function checkIgesComplete(bytes: Uint8Array, fileName: string, warnings: string[]): void {
  const layout = igesLayout(bytes);
  if (layout.first !== 'S') return;
  const c = (k: string): number => layout.counts[k] ?? 0;
  const found = `${plural(c('D'), 'directory-entry line')} and ${plural(c('P'), 'parameter-data line')}`;
  if (layout.last !== 'T') {
    throw new ImportError(
      'truncated',
      fileName,
      `the IGES file is truncated: it does not end with its Terminate ('T') record (it has ${found})`,
    );
  }
  const d = layout.declared;
  if (d === null) {
    warnings.push("the IGES Terminate ('T') record could not be read; the section sizes were not checked");
    return;
  }
  const short = (['S', 'G', 'D', 'P'] as const).filter((k) => c(k) < d[k]);
  if (short.length > 0) {
    throw new ImportError(
      'truncated',
      fileName,
      `the IGES file is truncated: its Terminate record declares ${plural(d.D, 'directory-entry line')} and ` +
      `${plural(d.P, 'parameter-data line')} (S ${d.S}, G ${d.G}), but the file has ${found} (S ${c('S')}, G ${c('G')})`,
    );
  }
  const long = (['S', 'G', 'D', 'P'] as const).filter((k) => c(k) > d[k]);
  if (long.length > 0) {
    warnings.push(`the IGES sections ${long.join(', ')} have more lines than the Terminate record declares`);
  }
}

/**
 * The parameters of an IGES Global section (columns 1–72 of its 'G' records), values of
 * Hollerith strings unwrapped, others trimmed; [] when the file is not laid out in records.
 */
export function igesGlobalParameters(bytes: Uint8Array): string[] {
  let text = '';
  forEachIgesRecord(bytes, (start, end) => {
    const letter = igesLetter(bytes, start, end);
    if (letter === 'G') text += latin1(bytes, start, start + IGES_LETTER_COLUMN);
    return letter === 'S' || letter === 'G' || letter === '';
  });
  if (text === '') return [];
  let pos = 0;
  let pd = ',';
  let rd = ';';
  const out: string[] = [];
  const hollerith = (): string | null => {
    const m = /^\s*(\d+)H/.exec(text.slice(pos, pos + 24));
    if (m === null) return null;
    const n = Number(m[1]);
    const from = pos + m[0].length;
    pos = from + n;
    return text.slice(from, from + n);
  };
  // Parameters 1 and 2 name the delimiters themselves (default ',' and ';').
  for (const k of [0, 1]) {
    while (text[pos] === ' ') pos++;
    if (text[pos] === pd || (k === 1 && text[pos] === rd)) {
      out.push('');
    } else {
      const h = hollerith();
      if (h === null || h.length !== 1) return out;
      if (k === 0) pd = h;
      else rd = h;
      out.push(h);
    }
    while (text[pos] === ' ') pos++;
    if (text[pos] === rd) return out;
    if (text[pos] !== pd) return out;
    pos++;
  }
  while (pos < text.length) {
    const h = hollerith();
    let value: string;
    if (h !== null) {
      value = h;
    } else {
      let e = pos;
      while (e < text.length && text[e] !== pd && text[e] !== rd) e++;
      value = text.slice(pos, e).trim();
      pos = e;
    }
    out.push(value);
    while (text[pos] === ' ') pos++;
    if (text[pos] !== pd) break;
    pos++;
  }
  return out;
}

/** IGES entity types OpenCascade turns into a face (108 only in its bounded form 1), a shell or a solid. */
const IGES_FACE_TYPES = new Set([108, 114, 118, 120, 122, 128, 140, 143, 144, 190, 192, 194, 196, 198, 510]);
const IGES_BODY_TYPES = new Set([186, 514]);

/** One independent IGES entity OpenCascade should mesh: its Directory Entry sequence number, type and label. */
export interface IgesBodyEntity {
  readonly de: number;
  readonly type: number;
  readonly label: string;
}

/**
 * The entities of an IGES file that become bodies: every independent (subordinate switch 00)
 * geometry entity (use flag 00) that is a surface, a face, a shell (514) or a solid (186).
 * OpenCascade transfers each independent entity as one shape and makes one mesh of it, so it
 * should give at least this many meshes. Entities this does not count (CSG primitives, subfigure
 * instances, groups) only make it count fewer. Null when the file has no Directory Entry section.
 */
export function igesBodyEntities(bytes: Uint8Array): IgesBodyEntity[] | null {
  /** The integer in bytes[at, at + width) (blanks around it), NaN when it is not one; blank is 0. */
  const field = (at: number, width = 8): number => {
    let v = 0;
    let digits = 0;
    for (let k = at; k < at + width; k++) {
      const c = bytes[k];
      if (c >= 0x30 && c <= 0x39) {
        v = v * 10 + (c - 0x30);
        digits++;
      } else if (c !== 0x20 && !(c === 0x2d && digits === 0)) {
        return NaN;
      }
    }
    return v;
  };
  const out: IgesBodyEntity[] = [];
  let first = -1; // start of the first line of the entry being read
  let lines = 0;
  forEachIgesRecord(bytes, (start, end) => {
    if (igesLetter(bytes, start, end) !== 'D') return true;
    lines++;
    if (first < 0) {
      first = start;
      return true;
    }
    const a = first, b = start;
    first = -1;
    if (end - b < IGES_LETTER_COLUMN) return true;
    const type = field(a);
    // Status number (columns 65–72): blank status, subordinate switch, use flag, hierarchy, two digits each.
    const status = field(a + 64);
    if (!Number.isInteger(type) || !Number.isInteger(status)) return true;
    const subordinate = Math.floor(status / 10000) % 100;
    const use = Math.floor(status / 100) % 100;
    if (subordinate !== 0 || use !== 0) return true;
    const form = field(b + 32);
    if (!(IGES_BODY_TYPES.has(type) || (IGES_FACE_TYPES.has(type) && (type !== 108 || form === 1)))) return true;
    const de = field(a + IGES_LETTER_COLUMN + 1, 7);
    out.push({ de: Number.isInteger(de) && de > 0 ? de : lines - 1, type, label: latin1(bytes, b + 56, b + 64).trim() });
    return true;
  });
  return lines === 0 ? null : out;
}

/**
 * A warning when OpenCascade made fewer meshes than the IGES file has independent surfaces and
 * solids (OpenCascade drops an entity it cannot translate without a word); null otherwise.
 */
export function igesMissingBodies(entities: readonly IgesBodyEntity[], meshCount: number): string | null {
  if (meshCount >= entities.length) return null;
  const byType = new Map<number, number>();
  for (const e of entities) byType.set(e.type, (byType.get(e.type) ?? 0) + 1);
  const types = [...byType].sort((x, y) => x[0] - y[0]).map(([type, n]) => `type ${type} ×${n}`).join(', ');
  const at = `DE ${listSome(entities.map((e) => e.de))}`;
  const missing = entities.length - meshCount;
  return `the file has ${groupDigits(entities.length)} independent surface or solid ${entities.length === 1 ? 'entity' : 'entities'} (${types}; ${at}) ` +
    `but OpenCascade made ${meshCount === 1 ? '1 body' : `${groupDigits(meshCount)} bodies`} of them: ` +
    `${missing === 1 ? '1 body' : `${groupDigits(missing)} bodies`} missing (which cannot be told: OpenCascade's bodies do not say which entity they come from)`;
}

/** IGES unit flags (Global parameter 14) and the unit names parameter 15 may give for them. */
const IGES_UNITS: Readonly<Record<number, { readonly name: string; readonly plural?: string; readonly words: readonly string[] }>> = {
  1: { name: 'inch', plural: 'inches', words: ['IN', 'INCH'] },
  2: { name: 'millimetre', words: ['MM'] },
  4: { name: 'foot', plural: 'feet', words: ['FT'] },
  5: { name: 'mile', words: ['MI'] },
  6: { name: 'metre', words: ['M'] },
  7: { name: 'kilometre', words: ['KM'] },
  8: { name: 'mil', words: ['MIL'] },
  9: { name: 'micron', words: ['UM', 'MICRON'] },
  10: { name: 'centimetre', words: ['CM'] },
  11: { name: 'microinch', plural: 'microinches', words: ['UIN'] },
};

/**
 * An IGES file states its unit twice, as a flag (Global parameter 14) and as a name (parameter
 * 15). OpenCascade scales by the flag (by the name only for flag 3, "named by parameter 15"), so
 * when the two disagree the file is read in the flag's unit: warned, naming both.
 */
export function checkIgesUnit(bytes: Uint8Array, warnings: string[]): void {
  const g = igesGlobalParameters(bytes);
  if (g.length < 15) return;
  const flagText = g[13];
  const name = g[14].trim().toUpperCase();
  const flag = Number(flagText);
  if (flagText === '' || !Number.isInteger(flag) || flag === 3 || name === '') return;
  const unit = IGES_UNITS[flag];
  if (unit === undefined || unit.words.includes(name)) return;
  const named = Object.values(IGES_UNITS).find((u) => u.words.includes(name));
  warnings.push(
    `the IGES Global section gives the unit twice and they disagree: unit flag (parameter 14) ${flag} (${unit.name}), ` +
    `unit name (parameter 15) '${g[14].trim()}'${named !== undefined ? ` (${named.name})` : ''}; OpenCascade uses the flag, ` +
    `so the file is read in ${unit.plural ?? `${unit.name}s`}`,
  );
}

// ---------------------------------------------------------------------------------------------
// BREP

const BREP_SHAPE_TYPES = new Set(['Ve', 'Ed', 'Wi', 'Fa', 'Sh', 'So', 'CS', 'Co']);
/** The sections before the shapes, each a `Name n` line and n entries of numbers. */
const BREP_SECTION = /^(Locations|Curve2ds|Curves|Polygon3D|PolygonOnTriangulations|Surfaces|Triangulations)\s+(\d+)$/;

/**
 * A BREP cut off inside its shape section makes the WASM reader loop without end, so the layout is
 * checked first: a `TShapes n` line, n shape records after it (each begins with a line holding only
 * its type: Ve, Ed, Wi, Fa, Sh, So, CS or Co), and the root shape reference as the last line
 * (`+1 0`, or `*` for a null shape). The reader also runs once per entry a section header declares
 * (`Locations 2147483647` kept it busy for more than 8 minutes, in a 1 kB file), so every section
 * must hold at least as many values (blank-separated words) as it declares entries.
 */
export function checkBrepComplete(bytes: Uint8Array, fileName: string): void {
  const n = bytes.length;
  let declared = -1;
  let shapes = 0;
  /** The sections before TShapes: header name, entries declared, values found. */
  const sections: { name: string; declared: number; values: number }[] = [];
  let lastStart = 0;
  let lastEnd = 0;
  let p = 0;
  while (p < n) {
    let e = p;
    while (e < n && bytes[e] !== 0x0a && bytes[e] !== 0x0d) e++;
    let a = p;
    let b = e;
    while (a < b && isBlank(bytes[a])) a++;
    while (b > a && isBlank(bytes[b - 1])) b--;
    if (b > a) {
      if (declared < 0) {
        const header = b - a <= 64 && bytes[a] >= 0x41 && bytes[a] <= 0x5a ? latin1(bytes, a, b) : '';
        const m = /^TShapes\s+(\d+)$/.exec(header);
        const s = m === null ? BREP_SECTION.exec(header) : null;
        const section = sections.at(-1);
        if (m) declared = Number(m[1]);
        else if (s) sections.push({ name: s[1], declared: Number(s[2]), values: 0 });
        else if (section !== undefined) {
          for (let i = a; i < b; i++) if (!isBlank(bytes[i]) && (i === a || isBlank(bytes[i - 1]))) section.values++;
        }
      } else if (b - a === 2 && BREP_SHAPE_TYPES.has(latin1(bytes, a, b))) {
        shapes++;
      }
      lastStart = a;
      lastEnd = b;
    }
    p = e + 1;
  }
  const lastLine = lastEnd - lastStart <= 64 ? latin1(bytes, lastStart, lastEnd) : latin1(bytes, lastStart, lastStart + 60) + '…';
  if (declared < 0) {
    throw new ImportError('truncated', fileName, "the BREP file is truncated or damaged: it has no shape section ('TShapes' line)");
  }
  const short = sections.find((s) => s.values < s.declared);
  if (short !== undefined) {
    throw new ImportError(
      'unreadable-cad',
      fileName,
      `the BREP file is damaged: its '${short.name}' section declares ${groupDigits(short.declared)} ` +
      `${short.declared === 1 ? 'entry' : 'entries'} but holds only ${plural(short.values, 'value')}`,
    );
  }
  if (shapes < declared) {
    throw new ImportError(
      'truncated',
      fileName,
      `the BREP file is truncated: its shape section declares ${plural(declared, 'shape')} but holds ${groupDigits(shapes)}`,
    );
  }
  if (!/^(\*|[+\-ie]\d+\s+\d+)$/.test(lastLine)) {
    throw new ImportError(
      'truncated',
      fileName,
      `the BREP file is truncated: it does not end with the reference to its root shape (last line '${lastLine}')`,
    );
  }
}

/**
 * The STEP census (stepCensus.ts), and its verdict on the file's length units: a unit that is not
 * a positive size (OpenCascade would mirror or collapse every solid measured in it) is an
 * ImportError; one outside PLAUSIBLE_UNIT_MM, or one that cannot be evaluated, is a warning naming
 * the products measured in it. Returns null when the DATA section cannot be followed.
 */
export function takeStepCensus(bytes: Uint8Array, fileName: string, warnings: string[]): StepCensus | null {
  let census: StepCensus | null;
  try {
    census = stepCensus(bytes);
  } catch (err) {
    warnings.push(`the file's solids could not be counted, so bodies OpenCascade drops would go unnoticed (${occtErrorText(err)})`);
    return null;
  }
  if (census === null) return null;
  for (const u of census.lengthUnits) {
    const verdict = unitVerdict(u);
    if (verdict === 'ok') continue;
    const reps = [...census.unitOfRepresentation].filter(([, unit]) => unit === u.id).map(([rep]) => rep);
    const products = [...new Set(census.products.filter((p) => p.representations.some((r) => reps.includes(r))).map((p) => `'${p.name}'`))];
    const measured = products.length > 0
      ? `the product${products.length === 1 ? '' : 's'} ${products.slice(0, 6).join(', ')}${products.length > 6 ? ', …' : ''}`
      : reps.length > 0 ? `representation${reps.length === 1 ? '' : 's'} ${reps.slice(0, 6).map((r) => `#${r}`).join(', ')}${reps.length > 6 ? ', …' : ''}` +
        ' (the placements of an assembly, or shapes without a product)'
        : 'its representation context';
    if (verdict === 'unusable' && !Number.isNaN(u.mm)) {
      throw new ImportError(
        'unreadable-cad',
        fileName,
        `the STEP file's ${unitLabel(u)} is ${unitSize(u)}: a length unit must be a positive size, and OpenCascade would ` +
        `${u.mm === 0 ? 'collapse' : u.mm < 0 ? 'mirror' : 'lose'} every solid measured in it (${measured})`,
      );
    }
    warnings.push(
      Number.isNaN(u.mm)
        ? `the STEP file's ${unitLabel(u)} has ${unitSize(u)}; the coordinates of ${measured} may be wrongly scaled`
        : `the STEP file's ${unitLabel(u)} is ${unitSize(u)}, not a plausible CAD unit (${PLAUSIBLE_UNIT_TEXT}): ` +
          `OpenCascade scales the coordinates of ${measured} by it, which can make bodies vanish from the mesh`,
    );
  }
  return census;
}

/** For an error after OpenCascade's read: the implausible length units the census found, '' when none. */
export function unitSuspicion(census: StepCensus | null): string {
  const odd = census?.lengthUnits.filter((u) => unitVerdict(u) !== 'ok') ?? [];
  if (odd.length === 0) return '';
  const list = odd.slice(0, 3).map((u) => `${unitLabel(u)} is ${unitSize(u)}`).join(', ');
  return `; the file's ${list}${odd.length > 3 ? ', …' : ''}, not a plausible CAD unit (${PLAUSIBLE_UNIT_TEXT}), which may be why`;
}
