import { describe, it, expect } from 'vitest';
import { parseAssembly } from '../../../../src-core/assembly/format/validate.js';
import { serializeAssembly } from '../../../../src-core/assembly/format/serialize.js';
import { resolveAssembly } from '../../../../src-core/assembly/resolve.js';
import type { ImportResult, ImportedBody } from '../../../../src-core/io/types.js';
import { SMALL, expectError, replaceOnce } from './helpers.js';

const WITH_PATH = replaceOnce(SMALL, '{ "id": "p0", "source": "s1" }', '{ "id": "p0", "source": "s1", "path": ["top", "sub<2>", "nut"] }');

function body(name: string, path?: string[]): ImportedBody {
  return {
    name, color: null, positions: Float64Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0), indices: Uint32Array.of(0, 1, 2), triangleCount: 1, faceRanges: null,
    ...(path !== undefined ? { path } : {}),
  };
}

describe("parts[].path (a part's place in its file's product tree)", () => {
  it('is read, kept and written back after the known fields', () => {
    const doc = parseAssembly(WITH_PATH, 'case.assembly.json');
    expect(doc.parts![0]!.path).toEqual(['top', 'sub<2>', 'nut']);
    expect(doc.parts![1]!.path).toBeUndefined();
    const text = serializeAssembly(doc);
    expect(text).toContain('"path": ["top", "sub<2>", "nut"]');
    expect(parseAssembly(text, 'again.assembly.json').parts![0]!.path).toEqual(['top', 'sub<2>', 'nut']);
  });

  it('must be a non-empty array of names', () => {
    const line = WITH_PATH.split('\n').findIndex((l) => l.includes('"p0"')) + 1;
    expectError(replaceOnce(WITH_PATH, '["top", "sub<2>", "nut"]', '"top"'), 'parts[0].path', line, "part 'p0': 'path' must be a non-empty array of names");
    expectError(replaceOnce(WITH_PATH, '["top", "sub<2>", "nut"]', '[]'), 'parts[0].path', line, 'non-empty array');
    expectError(replaceOnce(WITH_PATH, '["top", "sub<2>", "nut"]', '["top", 3]'), 'parts[0].path[1]', line, "part 'p0': path[1] must be a string");
    const deep = JSON.stringify(Array.from({ length: 65 }, (_, i) => `n${i}`));
    expectError(replaceOnce(WITH_PATH, '["top", "sub<2>", "nut"]', deep), 'parts[0].path', line, 'has 65 levels, more than 64');
  });

  it("is taken from the import when the file has none (older files), and the file's when it has one", async () => {
    const doc = parseAssembly(WITH_PATH, 'case.assembly.json');
    const imported = (fileName: string): ImportResult => ({
      format: 'stl-ascii', warnings: [], bodies: [fileName === 'a.stl' ? body('nut', ['file', 'nut']) : body('plate')],
    });
    const resolved = await resolveAssembly(doc, async (p) => new TextEncoder().encode(p), async (_b, fileName) => imported(fileName));
    expect(resolved.parts.map((p) => p.path)).toEqual([['top', 'sub<2>', 'nut'], ['plate']]);
    const older = parseAssembly(SMALL, 'case.assembly.json');
    const fromImport = await resolveAssembly(older, async (p) => new TextEncoder().encode(p), async (_b, fileName) => imported(fileName));
    expect(fromImport.parts.map((p) => p.path)).toEqual([['file', 'nut'], ['plate']]);
  });
});
