/**
 * The saved-assembly reader's JSON: a small scanner of its own rather than JSON.parse, so that
 * every value knows the line it starts on (lineOf: the line of an object's key or an array's
 * element, for the messages of validate.ts). An error names the line, the column and what is
 * wrong: comments, single quotes, trailing commas, leading zeros, numbers out of range, and also a
 * key that appears twice in one object (JSON.parse would keep the last). -0 reads as 0; arrays and
 * objects nest at most MAX_DEPTH deep. Throws AssemblyError.
 */
import { AssemblyError } from '../model.js';

/** Deepest nesting of arrays and objects the reader accepts. */
const MAX_DEPTH = 512;

/** Where the members of one parsed object or array start. */
interface Located {
  /** Line of the opening bracket. */
  readonly line: number;
  /** Object: line of each key. Array: line of each element. */
  readonly members: Map<string, number> | number[];
}

const locations = new WeakMap<object, Located>();

/** The 1-based line of a member of a parsed object or array, else of the container, else null. */
export function lineOf(container: unknown, key?: string | number): number | null {
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
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function hasOwn(o: object, key: string): boolean {
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
export function readJson(text: string, fileName: string): unknown {
  return new JsonReader(text, fileName).read();
}
