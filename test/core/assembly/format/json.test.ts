import { describe, it, expect } from 'vitest';
import { parseAssembly } from '../../../../src-core/assembly/format/validate.js';
import { SMALL, expectError, replaceOnce } from './helpers.js';

describe('parseAssembly: JSON errors name the line', () => {
  it('a trailing comma', () => {
    const text = replaceOnce(SMALL, '"contactIsInterference": false }', '"contactIsInterference": false, }');
    expectError(text, null, 14, 'invalid JSON at column', "trailing comma before '}'");
  });

  it('a missing comma between fields', () => {
    const text = replaceOnce(SMALL, '"version": 1,', '"version": 1');
    expectError(text, null, 4, "expected ',' or '}' after the value of \"version\"", "found '\"'");
  });

  it('a string left open', () => {
    expectError(replaceOnce(SMALL, '"small"', '"small'), null, 4, 'is not closed on its line');
  });

  it('comments, single quotes, NaN, leading zeros, duplicate keys, numbers out of range', () => {
    expectError(replaceOnce(SMALL, '"units": "mm",', '// metric\n  "units": "mm",'), null, 5, 'comments are not allowed');
    expectError(replaceOnce(SMALL, '"small"', "'small'"), null, 4, 'double quotes');
    expectError(replaceOnce(SMALL, '"clearanceMm": 0,', '"clearanceMm": NaN,'), null, 14, "'NaN' is not a JSON value");
    expectError(replaceOnce(SMALL, '"clearanceMm": 0,', '"clearanceMm": 00,'), null, 14, 'leading zeros');
    expectError(replaceOnce(SMALL, '"units": "mm",', '"units": "mm", "name": "again",'), null, 5, 'the key "name" appears twice', 'first at line 4');
    expectError(replaceOnce(SMALL, '"clearanceMm": 0,', '"clearanceMm": 1e400,'), null, 14, '1e400 is out of range');
  });

  it('a file cut short', () => {
    const cut = SMALL.slice(0, SMALL.indexOf('"settings"'));
    expectError(cut, null, 14, 'unexpected end of file', 'the object opened at line 1 is not closed');
    expectError(SMALL.slice(0, SMALL.indexOf('"p1"') + 3), null, 12, 'unexpected end of file', 'the string that starts at column 13 is not closed');
  });

  it('an empty file, text after the value, and CRLF line ends', () => {
    expectError('   \n  ', null, 2, 'the file is empty');
    expectError(SMALL + '}\n', null, 17, "unexpected '}' after the end of the JSON value");
    const crlf = replaceOnce(SMALL, '"version": 1,', '"version": 1').replace(/\n/g, '\r\n');
    expectError(crlf, null, 4, 'invalid JSON');
  });

  it('accepts a byte order mark and escapes', () => {
    const doc = parseAssembly('\uFEFF' + replaceOnce(SMALL, '"small"', '"sm\\u00e4ll \\"q\\" \\ud83d\\ude00 \\n"'), 'x');
    expect(doc.name).toBe('smäll "q" 😀 \n');
  });

  it('reads -0 as 0 (the same placement)', () => {
    const text = replaceOnce(SMALL, '{ "id": "p0", "source": "s1" }', '{ "id": "p0", "source": "s1", "transform": [1,-0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1] }');
    const t = parseAssembly(text, 'x').parts?.[0].transform as number[];
    expect(Object.is(t[1], 0)).toBe(true);
  });
});
