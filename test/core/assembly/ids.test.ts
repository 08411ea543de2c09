/** Part and source ids may not hold control or bidirectional formatting characters; names may. */
import { describe, expect, it } from 'vitest';
import { idProblem, parseAssembly } from '../../../src-core/assembly/format.js';
import { AssemblyError } from '../../../src-core/assembly/model.js';

function doc(sourceId: string, partId: string, name = 'ok', ignore: [string, string] | null = null): string {
  const lines = [
    '{',
    '  "format": "interfere-assembly",',
    '  "version": 1,',
    `  "sources": [{ "id": ${JSON.stringify(sourceId)}, "path": "a.stl" }],`,
    '  "parts": [',
    `    { "id": ${JSON.stringify(partId)}, "name": ${JSON.stringify(name)}, "source": ${JSON.stringify(sourceId)} },`,
    `    { "id": "other", "source": ${JSON.stringify(sourceId)} }`,
    `  ]${ignore ? ',' : ''}`,
    ...(ignore ? [`  "ignore": [{ "a": ${JSON.stringify(ignore[0])}, "b": ${JSON.stringify(ignore[1])} }]`] : []),
    '}',
  ];
  return lines.join('\n');
}

function failure(text: string): AssemblyError {
  try {
    parseAssembly(text, 'x.assembly.json');
  } catch (e) {
    if (e instanceof AssemblyError) return e;
    throw e;
  }
  throw new Error('parseAssembly accepted the file');
}

const FORBIDDEN: readonly [string, string][] = [
  ['\u0000', 'the control character U+0000'], ['\u001b', 'the control character U+001B'], ['\u007f', 'the control character U+007F'],
  ['\u009b', 'the control character U+009B'], ['\u061c', 'the bidirectional formatting character U+061C'],
  ['\u200e', 'the bidirectional formatting character U+200E'], ['\u200f', 'the bidirectional formatting character U+200F'],
  ['\u202a', 'the bidirectional formatting character U+202A'], ['\u202e', 'the bidirectional formatting character U+202E'],
  ['\u2066', 'the bidirectional formatting character U+2066'], ['\u2069', 'the bidirectional formatting character U+2069'],
  ['\u2028', 'the separator U+2028'], ['\n', 'the control character U+000A'], ['\t', 'the control character U+0009'],
];

describe('ids with control or bidirectional characters', () => {
  it('a part id is refused, naming the file, the line, the field and the character', () => {
    for (const [c, words] of FORBIDDEN) {
      const e = failure(doc('src', `bolt${c}5`));
      expect(e.field).toBe('parts[0].id');
      expect(e.line).toBe(6);
      expect(e.message).toBe(`x.assembly.json:6: parts[0].id: the part id contains ${words} at position 5; ids may not contain control, line separator or bidirectional formatting characters`);
      expect(e.message).not.toContain(c); // the message itself is safe to print
    }
  });

  it('a source id is refused the same way', () => {
    const e = failure(doc('s\u202erc', 'bolt'));
    expect(e.field).toBe('sources[0].id');
    expect(e.line).toBe(4);
    expect(e.problem).toMatch(/^the source id contains the bidirectional formatting character U\+202E at position 2/);
  });

  it('an ignore rule naming such an id is refused at its own line', () => {
    const e = failure(doc('src', 'bolt', 'ok', ['other', 'bo\u001blt']));
    expect(e.field).toBe('ignore[0].b');
    expect(e.line).toBe(9);
    expect(e.problem).toMatch(/^'b' is not a part id: it contains the control character U\+001B at position 3/);
  });

  it('names may hold them; ordinary ids (Unicode letters, punctuation, spaces) are accepted', () => {
    const parsed = parseAssembly(doc('src', 'Mutter M6 — links', 'left\u202e\u001b[2J\u0000'), 'x.assembly.json');
    expect(parsed.parts?.[0].id).toBe('Mutter M6 — links');
    expect(parsed.parts?.[0].name).toBe('left\u202e\u001b[2J\u0000');
    for (const id of ['bolt-5', 'ボルト', 'a.b/c', 'x y', 'ü\u00a0z']) expect(idProblem(id)).toBeNull();
  });
});
