// What the saved-assembly format tests share: the assemblies of test/data, a small hand-written
// one, and the checks that parsing fails with an AssemblyError naming the field and the line.
import { expect } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseAssembly } from '../../../../src-core/assembly/format.js';
import { AssemblyError } from '../../../../src-core/assembly/model.js';

export const ASSEMBLIES = path.resolve(process.cwd(), 'test/data/assemblies');
export const FILES = readdirSync(ASSEMBLIES).filter((f) => f.endsWith('.assembly.json')).sort();

export function readShared(name: string): string {
  return readFileSync(path.join(ASSEMBLIES, name), 'utf8');
}

/** 1-based line of the `occurrence`-th appearance of `needle` in `text`. */
export function lineOfText(text: string, needle: string, occurrence = 0): number {
  let at = -1;
  for (let k = 0; k <= occurrence; k++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' not found`);
  }
  return text.slice(0, at).split('\n').length;
}

export function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0) throw new Error(`'${from}' not found`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

function parseError(text: string, fileName = 'case.assembly.json'): AssemblyError {
  let caught: unknown;
  try {
    parseAssembly(text, fileName);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(AssemblyError);
  const err = caught as AssemblyError;
  expect(err.fileName).toBe(fileName);
  expect(err.message.startsWith(`${fileName}:`)).toBe(true);
  return err;
}

/** Checks an error's field, line (also in the message) and message fragments. */
export function expectError(text: string, field: string | null, line: number, ...fragments: string[]): AssemblyError {
  const err = parseError(text);
  expect(err.field).toBe(field);
  expect(err.line).toBe(line);
  expect(err.message).toContain(`case.assembly.json:${line}: `);
  if (field !== null) expect(err.message).toContain(`${field}: `);
  for (const f of fragments) expect(err.message).toContain(f);
  return err;
}

export const MOVED = readShared('as1-oc-214-moved.assembly.json');
export const FANUC = readShared('fanuc-zero.assembly.json');
export const GEAR = readShared('stl-gear-polytopes.assembly.json');

/** A small assembly written out one field per line, for hand-made cases. */
export const SMALL = `{
  "format": "interfere-assembly",
  "version": 1,
  "name": "small",
  "units": "mm",
  "sources": [
    { "id": "s1", "path": "a.stl" },
    { "id": "s2", "path": "b.stl", "units": "cm" }
  ],
  "parts": [
    { "id": "p0", "source": "s1" },
    { "id": "p1", "source": "s2", "body": 0 }
  ],
  "settings": { "touchToleranceMm": 0.01, "clearanceMm": 0, "contactIsInterference": false },
  "ignore": [ { "a": "p0", "b": "p1" } ]
}
`;
