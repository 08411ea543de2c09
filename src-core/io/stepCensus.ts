/**
 * What a STEP file declares, read independently of OpenCascade, so that a body OpenCascade drops
 * without a word (a solid whose shell the file does not define, a solid measured in an absurd unit)
 * is noticed and named.
 *
 * The census reads the DATA section once, recording where every entity instance is, and then looks
 * only at the entities that say which bodies there are:
 *   - solids: MANIFOLD_SOLID_BREP, BREP_WITH_VOIDS, FACETED_BREP (one body each) and
 *     SHELL_BASED_SURFACE_MODEL (one body per shell), the items of a shape representation
 *     (`*SHAPE_REPRESENTATION`), also through MAPPED_ITEM → REPRESENTATION_MAP when the mapped
 *     representation belongs to no product;
 *   - which product a representation belongs to: SHAPE_DEFINITION_REPRESENTATION →
 *     PRODUCT_DEFINITION_SHAPE → PRODUCT_DEFINITION → PRODUCT_DEFINITION_FORMATION → PRODUCT, and
 *     plain SHAPE_REPRESENTATION_RELATIONSHIPs (without a transformation) between two
 *     representations of one product;
 *   - how often a product is placed: NEXT_ASSEMBLY_USAGE_OCCURRENCE, from the products no
 *     occurrence uses (the roots, placed once).
 * OpenCascade (occt-import-js) makes one mesh per solid and per shell outside a solid, per placed
 * instance, named after its product, so the census expects Σ instances × solids meshes, by product
 * name. What it cannot count it leaves out (tessellated AP242 geometry, surfaces outside a shell,
 * solids in representations no product owns, CSG primitives): it can only under-count, and a
 * shortfall is reported only where OpenCascade gave fewer meshes than it counted.
 *
 * It also evaluates every length unit a representation context assigns (SI_UNIT with its prefix,
 * CONVERSION_BASED_UNIT through LENGTH_MEASURE_WITH_UNIT), in millimetres, because OpenCascade
 * scales coordinates by it without question: a negative factor mirrors every solid, zero collapses
 * it, and 1e30 makes it vanish from the mesh.
 *
 * Pure TypeScript, no Node APIs. Linear in the file size; explaining a shortfall walks the
 * references of the solids concerned.
 */

// ---------------------------------------------------------------------------------------------
// Entity index

/**
 * Where each entity instance `#id = …;` of the DATA section is: per entity (in file order) its
 * number, body start (after '=') and end (at the ';'), and its type name (an index into
 * `typeNames`; '' for a complex instance `( A() B() )`). Typed arrays, so that a file of millions of
 * entities costs tens of bytes per entity.
 */
interface EntityIndex {
  readonly bytes: Uint8Array;
  readonly count: number;
  readonly ids: Float64Array;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  readonly typeOf: Uint16Array;
  readonly typeNames: readonly string[];
  /** The position of entity #id, or -1 when the file does not define it. */
  find(id: number): number;
}

/** The type of entities past the 65,534 distinct type names the index holds (only in damaged files). */
const OVERFLOW = 1;
const OVERFLOW_NAME = '(too many type names)';

function typeAt(index: EntityIndex, i: number): string {
  return index.typeNames[index.typeOf[i]];
}

function grow<T extends Float64Array | Uint32Array | Uint16Array>(a: T, make: (n: number) => T): T {
  const out = make(a.length * 2);
  out.set(a);
  return out;
}

function isBlank(b: number): boolean {
  return b === 0x20 || (b >= 0x09 && b <= 0x0d);
}

function isIdentChar(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39) || b === 0x5f;
}

function sameAscii(bytes: Uint8Array, start: number, end: number, s: string): boolean {
  if (end - start !== s.length) return false;
  for (let k = 0; k < s.length; k++) if (bytes[start + k] !== s.charCodeAt(k)) return false;
  return true;
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

/** Offset after a comment `/* … *\/` starting at p, or p when there is none. */
function skipComment(bytes: Uint8Array, p: number): number {
  if (bytes[p] !== 0x2f || bytes[p + 1] !== 0x2a) return p;
  let q = p + 2;
  while (q + 1 < bytes.length && !(bytes[q] === 0x2a && bytes[q + 1] === 0x2f)) q++;
  return Math.min(bytes.length, q + 2);
}

function skipSpace(bytes: Uint8Array, p: number, end: number): number {
  for (;;) {
    while (p < end && isBlank(bytes[p])) p++;
    const q = skipComment(bytes, p);
    if (q === p) return p;
    p = q;
  }
}

/** Offset of `DATA;` (after it), or -1. */
function dataStart(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let p = 0; p + 5 <= n; p++) {
    if (bytes[p] === 0x44 && bytes[p + 1] === 0x41 && bytes[p + 2] === 0x54 && bytes[p + 3] === 0x41) {
      let q = p + 4;
      while (q < n && isBlank(bytes[q])) q++;
      if (bytes[q] === 0x3b && (p === 0 || !isIdentChar(bytes[p - 1]))) return q + 1;
    }
  }
  return -1;
}

export function indexEntities(bytes: Uint8Array): EntityIndex | null {
  const start = dataStart(bytes);
  if (start < 0) return null;
  let capacity = Math.max(1024, Math.ceil(bytes.length / 48));
  let ids = new Float64Array(capacity);
  let starts = new Uint32Array(capacity);
  let ends = new Uint32Array(capacity);
  let typeOf = new Uint16Array(capacity);
  const typeNames: string[] = ['', OVERFLOW_NAME];
  const byHash = new Map<number, number>();
  const byName = new Map<string, number>();
  const n = bytes.length;
  let count = 0;
  let maxId = 0;
  let p = start;
  for (;;) {
    p = skipSpace(bytes, p, n);
    if (p >= n || bytes[p] !== 0x23 /* # */) break; // ENDSEC, or something this reader does not follow
    let q = p + 1;
    let id = 0;
    while (q < n && bytes[q] >= 0x30 && bytes[q] <= 0x39) id = id * 10 + (bytes[q++] - 0x30);
    q = skipSpace(bytes, q, n);
    if (bytes[q] !== 0x3d /* = */) break;
    const body = skipSpace(bytes, q + 1, n);
    // The end: the first ';' outside strings.
    let e = body;
    while (e < n && bytes[e] !== 0x3b) {
      if (bytes[e] === 0x27 /* ' */) {
        e++;
        while (e < n && !(bytes[e] === 0x27 && bytes[e + 1] !== 0x27)) e += bytes[e] === 0x27 ? 2 : 1;
      }
      e++;
    }
    if (e >= n) break;
    // The type name, interned by a hash of its bytes (building a string per entity is slow).
    let t = body;
    let h = 0x811c9dc5;
    while (t < e && isIdentChar(bytes[t])) h = Math.imul(h ^ bytes[t++], 0x01000193);
    let type = 0;
    if (t > body) {
      const known = byHash.get(h);
      if (known !== undefined && sameAscii(bytes, body, t, typeNames[known])) {
        type = known;
      } else {
        // A new name, or another name with the same hash (then looked up by name).
        const name = latin1(bytes, body, t);
        const named = byName.get(name);
        if (named !== undefined) {
          type = named;
        } else if (typeNames.length < 0xffff) {
          type = typeNames.length;
          typeNames.push(name);
          byName.set(name, type);
          if (known === undefined) byHash.set(h, type);
        } else {
          type = OVERFLOW;
        }
      }
    }
    if (count === capacity) {
      ids = grow(ids, (k) => new Float64Array(k));
      starts = grow(starts, (k) => new Uint32Array(k));
      ends = grow(ends, (k) => new Uint32Array(k));
      typeOf = grow(typeOf, (k) => new Uint16Array(k));
      capacity *= 2;
    }
    ids[count] = id;
    starts[count] = body;
    ends[count] = e;
    typeOf[count] = type;
    count++;
    if (id > maxId) maxId = id;
    p = e + 1;
  }
  // Entity numbers are usually dense: a table by number; else a map.
  let find: (id: number) => number;
  if (maxId <= 8 * count + 1024) {
    const table = new Int32Array(maxId + 1).fill(-1);
    for (let i = count - 1; i >= 0; i--) table[ids[i]] = i;
    find = (id) => (id >= 0 && id <= maxId ? table[id] : -1);
  } else {
    const map = new Map<number, number>();
    for (let i = count - 1; i >= 0; i--) map.set(ids[i], i);
    find = (id) => map.get(id) ?? -1;
  }
  return { bytes, count, ids, starts, ends, typeOf, typeNames, find };
}

// ---------------------------------------------------------------------------------------------
// Parameters

type Param =
  | { readonly k: 'ref'; readonly v: number }
  | { readonly k: 'str'; readonly v: string }
  | { readonly k: 'num'; readonly v: number }
  | { readonly k: 'enum'; readonly v: string }
  | { readonly k: 'list'; readonly v: Param[] }
  | { readonly k: 'typed'; readonly t: string; readonly v: Param[] }
  | { readonly k: 'none' };

/** One record of an instance: `TYPE(params)`; a complex instance has several. */
interface StepRecord {
  readonly type: string;
  readonly params: Param[];
}

class ParamReader {
  constructor(private readonly bytes: Uint8Array, public p: number, private readonly end: number) {}

  private space(): void {
    this.p = skipSpace(this.bytes, this.p, this.end);
  }

  /** `(a, b, …)` at p. */
  list(): Param[] {
    const out: Param[] = [];
    this.space();
    if (this.bytes[this.p] !== 0x28) return out;
    this.p++;
    this.space();
    if (this.bytes[this.p] === 0x29) {
      this.p++;
      return out;
    }
    while (this.p < this.end) {
      out.push(this.value());
      this.space();
      const c = this.bytes[this.p];
      this.p++;
      if (c !== 0x2c) break; // ')' or damage
      this.space();
    }
    return out;
  }

  value(): Param {
    const b = this.bytes;
    this.space();
    const c = b[this.p];
    if (c === 0x23) {
      let q = this.p + 1;
      let v = 0;
      while (q < this.end && b[q] >= 0x30 && b[q] <= 0x39) v = v * 10 + (b[q++] - 0x30);
      this.p = q;
      return { k: 'ref', v };
    }
    if (c === 0x27) {
      let s = '';
      let q = this.p + 1;
      while (q < this.end) {
        if (b[q] === 0x27) {
          if (b[q + 1] === 0x27) {
            s += "'";
            q += 2;
            continue;
          }
          break;
        }
        s += String.fromCharCode(b[q++]);
      }
      this.p = q + 1;
      return { k: 'str', v: s };
    }
    if (c === 0x28) return { k: 'list', v: this.list() };
    if (c === 0x2e) {
      let q = this.p + 1;
      while (q < this.end && b[q] !== 0x2e) q++;
      const v = latin1(b, this.p + 1, q);
      this.p = q + 1;
      return { k: 'enum', v };
    }
    if (c === 0x24 || c === 0x2a) {
      this.p++;
      return { k: 'none' };
    }
    if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f) {
      const s = this.p;
      while (this.p < this.end && isIdentChar(b[this.p])) this.p++;
      const t = latin1(b, s, this.p);
      return { k: 'typed', t, v: this.list() };
    }
    const s = this.p;
    while (this.p < this.end && b[this.p] !== 0x2c && b[this.p] !== 0x29 && !isBlank(b[this.p])) this.p++;
    const text = latin1(b, s, this.p);
    const v = Number(text);
    return Number.isNaN(v) && text !== 'NaN' ? { k: 'none' } : { k: 'num', v };
  }
}

/** The records of entity #id, or null when the file does not define it. */
function recordsOf(index: EntityIndex, id: number): StepRecord[] | null {
  const i = index.find(id);
  if (i < 0) return null;
  const { bytes } = index;
  const start = index.starts[i], end = index.ends[i];
  const r = new ParamReader(bytes, start, end);
  const type = typeAt(index, i);
  if (index.typeOf[i] === OVERFLOW) return null;
  if (type !== '') {
    r.p = start + type.length;
    return [{ type, params: r.list() }];
  }
  // Complex: ( A(…) B(…) … )
  const out: StepRecord[] = [];
  r.p = start + 1;
  for (;;) {
    r.p = skipSpace(bytes, r.p, end);
    const s = r.p;
    while (r.p < end && isIdentChar(bytes[r.p])) r.p++;
    if (r.p === s) break;
    out.push({ type: latin1(bytes, s, r.p), params: r.list() });
  }
  return out;
}

function simple(index: EntityIndex, id: number): StepRecord | null {
  const rs = recordsOf(index, id);
  return rs !== null && rs.length === 1 ? rs[0] : null;
}

function refAt(params: readonly Param[], i: number): number | null {
  const p = params[i];
  return p !== undefined && p.k === 'ref' ? p.v : null;
}

function strAt(params: readonly Param[], i: number): string {
  const p = params[i];
  return p !== undefined && p.k === 'str' ? p.v : '';
}

function refsIn(p: Param | undefined, out: number[]): number[] {
  if (p === undefined) return out;
  if (p.k === 'ref') out.push(p.v);
  else if (p.k === 'list' || p.k === 'typed') for (const x of p.v) refsIn(x, out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Units

const SI_PREFIX: Readonly<Record<string, number>> = {
  EXA: 1e18, PETA: 1e15, TERA: 1e12, GIGA: 1e9, MEGA: 1e6, KILO: 1e3, HECTO: 1e2, DECA: 1e1,
  DECI: 1e-1, CENTI: 1e-2, MILLI: 1e-3, MICRO: 1e-6, NANO: 1e-9, PICO: 1e-12, FEMTO: 1e-15, ATTO: 1e-18,
};

/** A length unit a representation context assigns. */
export interface StepLengthUnit {
  /** The unit's entity number. */
  readonly id: number;
  /** Its name: the CONVERSION_BASED_UNIT's, or e.g. 'MILLI METRE'. */
  readonly name: string;
  /** Millimetres per unit; NaN when the file's definition cannot be evaluated. */
  readonly mm: number;
  /** Entity numbers of the representation contexts that assign it. */
  readonly contexts: number[];
}

/** Millimetres per unit of length-unit entity #id (NaN when it cannot be evaluated), and its name. */
function lengthUnit(index: EntityIndex, id: number, depth = 0): { name: string; mm: number } | null {
  const rs = recordsOf(index, id);
  if (rs === null || depth > 8) return null;
  const has = (t: string): StepRecord | undefined => rs.find((r) => r.type === t);
  const si = has('SI_UNIT');
  if (si !== undefined && (has('LENGTH_UNIT') !== undefined || rs.length === 1)) {
    const prefix = si.params[0];
    const name = si.params[1];
    if (name?.k !== 'enum' || name.v !== 'METRE') return has('LENGTH_UNIT') ? { name: 'SI unit', mm: NaN } : null;
    const factor = prefix?.k === 'enum' ? SI_PREFIX[prefix.v] : 1;
    return { name: prefix?.k === 'enum' ? `${prefix.v} METRE` : 'METRE', mm: factor === undefined ? NaN : factor * 1000 };
  }
  const conv = has('CONVERSION_BASED_UNIT');
  if (conv !== undefined && has('LENGTH_UNIT') !== undefined) {
    const name = strAt(conv.params, 0);
    const measureId = refAt(conv.params, 1);
    const measure = measureId === null ? null : simple(index, measureId);
    if (measure === null) return { name, mm: NaN };
    const value = measure.params[0];
    const v = value?.k === 'typed' ? value.v[0] : value;
    const base = refAt(measure.params, 1);
    const baseUnit = base === null ? null : lengthUnit(index, base, depth + 1);
    if (v?.k !== 'num' || baseUnit === null) return { name, mm: NaN };
    return { name, mm: v.v * baseUnit.mm };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Census

const SOLID_TYPES = new Set(['MANIFOLD_SOLID_BREP', 'BREP_WITH_VOIDS', 'FACETED_BREP']);
const SURFACE_MODEL = 'SHELL_BASED_SURFACE_MODEL';

/** One product whose solids OpenCascade should mesh. */
export interface StepProduct {
  /** The PRODUCT_DEFINITION's entity number. */
  readonly definition: number;
  /** The product's name (its id when the name is empty): what OpenCascade names its meshes. */
  readonly name: string;
  /** How many times the product tree places it. */
  readonly instances: number;
  /** The solids (and shells of surface models) of its shape, as `TYPE #id`, each one mesh per instance. */
  readonly solids: { readonly id: number; readonly type: string }[];
  /** Its shape representations. */
  readonly representations: number[];
}

export interface StepCensus {
  /** Products with solids, in file order of their definitions. */
  readonly products: StepProduct[];
  /** Σ instances × solids: the meshes OpenCascade should return (at least). */
  readonly expectedMeshes: number;
  /** The length units representation contexts assign. */
  readonly lengthUnits: StepLengthUnit[];
  /** Per representation: its context's length unit entity, when it has one. */
  readonly unitOfRepresentation: Map<number, number>;
  /** For explain(): the index. */
  readonly index: EntityIndex;
}

/** The census of a STEP file, or null when its DATA section cannot be followed. */
export function stepCensus(bytes: Uint8Array): StepCensus | null {
  const index = indexEntities(bytes);
  if (index === null) return null;
  const { ids } = index;

  // Representation contexts and their length units (complex entities naming GLOBAL_UNIT_ASSIGNED_CONTEXT).
  const contextUnit = new Map<number, number>();
  const units = new Map<number, StepLengthUnit>();
  for (let i = 0; i < index.count; i++) {
    const type = typeAt(index, i);
    if (type !== '' && type !== 'GLOBAL_UNIT_ASSIGNED_CONTEXT') continue;
    if (type === '' && !containsAscii(index.bytes, 'GLOBAL_UNIT_ASSIGNED_CONTEXT', index.starts[i], index.ends[i])) continue;
    const rs = recordsOf(index, ids[i]) ?? [];
    const g = rs.find((r) => r.type === 'GLOBAL_UNIT_ASSIGNED_CONTEXT');
    if (g === undefined) continue;
    for (const u of refsIn(g.params[0], [])) {
      let unit = units.get(u);
      if (unit === undefined) {
        const lu = lengthUnit(index, u);
        if (lu === null) continue;
        unit = { id: u, name: lu.name, mm: lu.mm, contexts: [] };
        units.set(u, unit);
      }
      unit.contexts.push(ids[i]);
      contextUnit.set(ids[i], u);
    }
  }

  // Representations, their items and contexts; mapped items; products.
  const repItems = new Map<number, number[]>();
  const unitOfRepresentation = new Map<number, number>();
  const mappedRepOfMap = new Map<number, number>();
  const sdr: [number, number][] = [];
  const srr: [number, number][] = [];
  const nauo: [number, number][] = [];
  const pds: number[] = [];
  for (let i = 0; i < index.count; i++) {
    const t = typeAt(index, i);
    if (t === '') continue;
    const id = ids[i];
    if (t.endsWith('SHAPE_REPRESENTATION')) {
      const r = simple(index, id);
      if (r === null) continue;
      repItems.set(id, refsIn(r.params[1], []));
      const ctx = refAt(r.params, 2);
      const u = ctx === null ? undefined : contextUnit.get(ctx);
      if (u !== undefined) unitOfRepresentation.set(id, u);
    } else if (t === 'REPRESENTATION_MAP') {
      const r = simple(index, id);
      const rep = r === null ? null : refAt(r.params, 1);
      if (rep !== null) mappedRepOfMap.set(id, rep);
    } else if (t === 'SHAPE_DEFINITION_REPRESENTATION') {
      const r = simple(index, id);
      const a = r === null ? null : refAt(r.params, 0), b = r === null ? null : refAt(r.params, 1);
      if (a !== null && b !== null) sdr.push([a, b]);
    } else if (t === 'SHAPE_REPRESENTATION_RELATIONSHIP') {
      const r = simple(index, id);
      const a = r === null ? null : refAt(r.params, 2), b = r === null ? null : refAt(r.params, 3);
      if (a !== null && b !== null) srr.push([a, b]);
    } else if (t === 'NEXT_ASSEMBLY_USAGE_OCCURRENCE') {
      const r = simple(index, id);
      const a = r === null ? null : refAt(r.params, 3), b = r === null ? null : refAt(r.params, 4);
      if (a !== null && b !== null) nauo.push([a, b]);
    } else if (t.startsWith('PRODUCT_DEFINITION') && !t.startsWith('PRODUCT_DEFINITION_')) {
      pds.push(id);
    } else if (t === 'PRODUCT_DEFINITION_WITH_ASSOCIATED_DOCUMENTS') {
      pds.push(id);
    }
  }

  // Which product definition each representation belongs to.
  const pdSet = new Set(pds);
  const owner = new Map<number, number>();
  for (const [pdsId, rep] of sdr) {
    const r = simple(index, pdsId);
    const def = r === null ? null : refAt(r.params, 2);
    if (def !== null && pdSet.has(def) && repItems.has(rep) && !owner.has(rep)) owner.set(rep, def);
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const [a, b] of srr) {
      const oa = owner.get(a), ob = owner.get(b);
      if (oa !== undefined && ob === undefined && repItems.has(b)) {
        owner.set(b, oa);
        changed = true;
      } else if (ob !== undefined && oa === undefined && repItems.has(a)) {
        owner.set(a, ob);
        changed = true;
      }
    }
  }

  // Solids of a representation (through mapped items of representations no product owns).
  const solidsOfRep = (rep: number, out: { id: number; type: string }[], depth: number): void => {
    for (const item of repItems.get(rep) ?? []) {
      const i = index.find(item);
      if (i < 0) continue;
      const t = typeAt(index, i);
      if (SOLID_TYPES.has(t)) out.push({ id: item, type: t });
      else if (t === SURFACE_MODEL) {
        const r = simple(index, item);
        for (const shell of refsIn(r?.params[1], [])) out.push({ id: shell, type: `${SURFACE_MODEL} #${item} shell` });
      } else if (t === 'MAPPED_ITEM' && depth < 16) {
        const r = simple(index, item);
        const map = r === null ? null : refAt(r.params, 1);
        const mapped = map === null ? undefined : mappedRepOfMap.get(map);
        if (mapped !== undefined && !owner.has(mapped)) solidsOfRep(mapped, out, depth + 1);
      }
    }
  };

  // Instances: products no occurrence uses are roots, placed once.
  const parents = new Map<number, number[]>();
  for (const [parent, child] of nauo) {
    const list = parents.get(child);
    if (list === undefined) parents.set(child, [parent]);
    else list.push(parent);
  }
  const instances = new Map<number, number>();
  const visiting = new Set<number>();
  let cyclic = false;
  const instancesOf = (pd: number): number => {
    const known = instances.get(pd);
    if (known !== undefined) return known;
    if (visiting.has(pd)) {
      cyclic = true;
      return 0;
    }
    visiting.add(pd);
    const ps = parents.get(pd);
    let n = 0;
    if (ps === undefined) n = 1;
    else for (const p of ps) n += instancesOf(p);
    visiting.delete(pd);
    instances.set(pd, n);
    return n;
  };

  const products: StepProduct[] = [];
  const repsOf = new Map<number, number[]>();
  for (const [rep, pd] of owner) {
    const list = repsOf.get(pd);
    if (list === undefined) repsOf.set(pd, [rep]);
    else list.push(rep);
  }
  let expectedMeshes = 0;
  for (const pd of pds) {
    const reps = repsOf.get(pd);
    if (reps === undefined) continue;
    const found: { id: number; type: string }[] = [];
    for (const rep of reps) solidsOfRep(rep, found, 0);
    const seen = new Set<number>();
    const solids = found.filter((s) => (seen.has(s.id) ? false : (seen.add(s.id), true)));
    if (solids.length === 0) continue;
    const n = instancesOf(pd);
    products.push({ definition: pd, name: productName(index, pd), instances: n, solids, representations: reps });
    expectedMeshes += n * solids.length;
  }
  if (cyclic) return { products: [], expectedMeshes: 0, lengthUnits: [...units.values()], unitOfRepresentation, index };
  return { products, expectedMeshes, lengthUnits: [...units.values()], unitOfRepresentation, index };
}

/** The name of the product of PRODUCT_DEFINITION #pd (its id when the name is empty). */
function productName(index: EntityIndex, pd: number): string {
  const def = simple(index, pd);
  const formation = def === null ? null : refAt(def.params, 2);
  const f = formation === null ? null : simple(index, formation);
  const product = f === null ? null : refAt(f.params, 2);
  const p = product === null ? null : simple(index, product);
  if (p === null) return '';
  const name = strAt(p.params, 1);
  return name !== '' ? name : strAt(p.params, 0);
}

function containsAscii(bytes: Uint8Array, s: string, start: number, end: number): boolean {
  const first = s.charCodeAt(0);
  for (let p = start; p + s.length <= end; p++) {
    if (bytes[p] !== first) continue;
    let k = 1;
    while (k < s.length && bytes[p + k] === s.charCodeAt(k)) k++;
    if (k === s.length) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Explaining

/**
 * The first reference, from entity #from through everything it refers to, to an entity the file
 * does not define: `{ missing, by }` (by: the entity that refers to it), or null. Stops after
 * `budget` entities.
 */
export function findUnresolvedReference(census: StepCensus, from: number, budget = 1_000_000): { missing: number; by: number } | null {
  const { index } = census;
  const { bytes } = index;
  const seen = new Set<number>([from]);
  const stack = [from];
  while (stack.length > 0 && seen.size <= budget) {
    const id = stack.pop() as number;
    const i = index.find(id);
    if (i < 0) continue;
    const end = index.ends[i];
    let inString = false;
    for (let p = index.starts[i]; p < end; p++) {
      const c = bytes[p];
      if (c === 0x27) inString = !inString;
      if (inString || c !== 0x23) continue;
      let v = 0;
      let q = p + 1;
      while (q < end && bytes[q] >= 0x30 && bytes[q] <= 0x39) v = v * 10 + (bytes[q++] - 0x30);
      p = q - 1;
      if (seen.has(v)) continue;
      if (index.find(v) < 0) return { missing: v, by: id };
      seen.add(v);
      stack.push(v);
    }
  }
  return null;
}

/** Millimetres per unit outside this range are not a plausible CAD unit: 1 nm to 10 km. */
export const PLAUSIBLE_UNIT_MM: readonly [number, number] = [1e-6, 1e7];
export const PLAUSIBLE_UNIT_TEXT = '1 nm to 10 km';

/** `length unit #736 ('INCH')`. */
export function unitLabel(u: StepLengthUnit): string {
  return `length unit #${u.id}${u.name !== '' ? ` ('${u.name}')` : ''}`;
}

/** `25.4 mm`, or that it cannot be evaluated. */
export function unitSize(u: StepLengthUnit): string {
  return Number.isNaN(u.mm) ? 'a size that cannot be evaluated' : `${formatFactor(u.mm)} mm`;
}

/** A factor in the shortest readable form: 25.4, 1e+30, -1. */
export function formatFactor(x: number): string {
  if (x === 0 || !Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  return a >= 1e6 || a < 1e-4 ? x.toExponential().replace(/\.?0+e/, 'e') : String(Number(x.toPrecision(12)));
}

/** Whether a unit is a usable length (positive, finite) and whether it is plausible. */
export function unitVerdict(u: StepLengthUnit): 'unusable' | 'implausible' | 'ok' {
  if (!(u.mm > 0) || !Number.isFinite(u.mm)) return 'unusable';
  if (u.mm < PLAUSIBLE_UNIT_MM[0] || u.mm > PLAUSIBLE_UNIT_MM[1]) return 'implausible';
  return 'ok';
}

/**
 * Compares OpenCascade's mesh names with the census and returns one warning per product with fewer
 * meshes than it declares (naming the product, its solids and why when known), or a single warning
 * for the shortfall when the names do not tell which product lost them. [] when nothing is missing.
 */
export function missingBodyWarnings(census: StepCensus, meshNames: readonly string[]): string[] {
  const got = meshNames.length;
  if (got >= census.expectedMeshes) return [];
  const missing = census.expectedMeshes - got;
  const expectedByName = new Map<string, number>();
  for (const p of census.products) expectedByName.set(p.name, (expectedByName.get(p.name) ?? 0) + p.instances * p.solids.length);
  const gotByName = new Map<string, number>();
  for (const n of meshNames) gotByName.set(n, (gotByName.get(n) ?? 0) + 1);
  const allKnown = [...gotByName.keys()].every((n) => expectedByName.has(n));
  let deficit = 0;
  for (const [name, e] of expectedByName) deficit += Math.max(0, e - (gotByName.get(name) ?? 0));
  const head = `the file declares ${count(census.expectedMeshes, 'solid')} (instances included) but OpenCascade made ` +
    `${count(got, 'body', 'bodies')} of them: ${count(missing, 'body', 'bodies')} missing`;
  if (!allKnown || deficit !== missing) {
    const reasons = census.products.flatMap((p) => p.solids.map((s) => reasonFor(census, p, s)).filter((r) => r !== null));
    return [`${head}${reasons.length > 0 ? `; ${[...new Set(reasons)].slice(0, 4).join('; ')}` : ''}`];
  }
  const out: string[] = [];
  for (const [name, e] of expectedByName) {
    const g = gotByName.get(name) ?? 0;
    if (g >= e) continue;
    const products = census.products.filter((p) => p.name === name);
    const solids = products.flatMap((p) => p.solids.map((s) => `${s.type} #${s.id}`));
    const reasons = products.flatMap((p) => p.solids.map((s) => reasonFor(census, p, s)).filter((r) => r !== null));
    const placed = products.reduce((n, p) => n + p.instances, 0);
    out.push(
      `product '${name}' (${solids.slice(0, 4).join(', ')}${solids.length > 4 ? ', …' : ''}; placed ${count(placed, 'time')}) ` +
      `should give ${count(e, 'body', 'bodies')}, OpenCascade made ${g === 0 ? 'none' : g}` +
      (reasons.length > 0 ? ` (${[...new Set(reasons)].slice(0, 3).join('; ')})` : ' (OpenCascade did not say why)'),
    );
  }
  return [`${head}: ${out.join('; ')}`];
}

function count(n: number, word: string, many = `${word}s`): string {
  if (word === 'time') return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`;
  return `${n} ${n === 1 ? word : many}`;
}

function reasonFor(census: StepCensus, p: StepProduct, s: { id: number; type: string }): string | null {
  const ref = findUnresolvedReference(census, s.id);
  if (ref !== null) {
    return `${s.type} #${s.id} refers${ref.by !== s.id ? ` through #${ref.by}` : ''} to #${ref.missing}, which the file does not define`;
  }
  for (const rep of p.representations) {
    const u = census.unitOfRepresentation.get(rep);
    const unit = u === undefined ? undefined : census.lengthUnits.find((x) => x.id === u);
    if (unit !== undefined && unitVerdict(unit) !== 'ok') return `its representation #${rep} measures lengths in ${unitLabel(unit)}, ${unitSize(unit)}`;
  }
  return null;
}
