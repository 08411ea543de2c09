/**
 * One set of length limits (src-core/assembly/limits.ts) for the assembly reader, the host's
 * contract and so the renderer: the reader refuses a longer id, name, path or reason naming the
 * field; what it accepts at the limits the host can open, show and check (every response and event
 * passes the contract); ids and names made from a file's bodies stay within the limits.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assemblyFromBodies, assignPartIds, parseAssembly } from '../../../src-core/assembly/format.js';
import { MAX_ID_LENGTH, MAX_NAME_LENGTH, MAX_PATH_LENGTH, MAX_REASON_LENGTH } from '../../../src-core/assembly/limits.js';
import { AssemblyError } from '../../../src-core/assembly/model.js';
import { DocumentInfoSchema, IgnoreRuleSchema, PartInfoSchema, REQUESTS } from '../../../src-main/contract/host.js';
import { TEST_DATA, createTestHost, refusal, tempDir } from '../host/helpers.js';

const CUBE = path.join(TEST_DATA, 'stl-models/polytopes/cube.bin.stl');

function doc(over: { partId?: string; sourceId?: string; name?: string; partName?: string; path?: string; reason?: string }): string {
  const sourceId = over.sourceId ?? 's';
  const partId = over.partId ?? 'p';
  return JSON.stringify({
    format: 'interfere-assembly',
    version: 1,
    name: over.name ?? 'limits',
    sources: [{ id: sourceId, path: over.path ?? CUBE }],
    parts: [
      { id: partId, source: sourceId, ...(over.partName !== undefined ? { name: over.partName } : {}) },
      { id: 'other', source: sourceId, transform: [1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] },
    ],
    ignore: over.reason !== undefined ? [{ a: partId, b: 'other', reason: over.reason }] : [],
  }, null, 2);
}

function refusedField(text: string): { field: string | null; message: string } {
  try {
    parseAssembly(text, 'limits.assembly.json');
  } catch (e) {
    expect(e).toBeInstanceOf(AssemblyError);
    return { field: (e as AssemblyError).field, message: (e as Error).message };
  }
  throw new Error('the assembly was accepted');
}

describe('one set of length limits', () => {
  it('the contract the host and the renderer validate with uses the same limits', () => {
    expect(PartInfoSchema.shape.id.maxLength).toBe(MAX_ID_LENGTH);
    expect(PartInfoSchema.shape.sourceId.maxLength).toBe(MAX_ID_LENGTH);
    expect(PartInfoSchema.shape.name.maxLength).toBe(MAX_NAME_LENGTH);
    expect(PartInfoSchema.shape.sourcePath.maxLength).toBe(MAX_PATH_LENGTH);
    expect(DocumentInfoSchema.shape.name.maxLength).toBe(MAX_NAME_LENGTH);
    expect(IgnoreRuleSchema.shape.a.maxLength).toBe(MAX_ID_LENGTH);
    expect(IgnoreRuleSchema.shape.reason.unwrap().maxLength).toBe(MAX_REASON_LENGTH);
    expect(REQUESTS['doc.open'].request.safeParse({ path: 'x'.repeat(MAX_PATH_LENGTH) }).success).toBe(true);
    expect(REQUESTS['doc.open'].request.safeParse({ path: 'x'.repeat(MAX_PATH_LENGTH + 1) }).success).toBe(false);
  });

  it('the assembly reader refuses each over-long field, naming it', () => {
    const cases: [Parameters<typeof doc>[0], string, string][] = [
      [{ partId: 'p'.repeat(MAX_ID_LENGTH + 1) }, 'parts[0].id', `the part id has ${MAX_ID_LENGTH + 1} characters, more than the ${MAX_ID_LENGTH} allowed`],
      [{ sourceId: 's'.repeat(MAX_ID_LENGTH + 1) }, 'sources[0].id', `the source id has ${MAX_ID_LENGTH + 1} characters, more than the ${MAX_ID_LENGTH} allowed`],
      [{ name: 'n'.repeat(MAX_NAME_LENGTH + 1) }, 'name', `the assembly name has ${MAX_NAME_LENGTH + 1} characters, more than the ${MAX_NAME_LENGTH} allowed`],
      [{ partName: 'n'.repeat(MAX_NAME_LENGTH + 1) }, 'parts[0].name', `part 'p': 'name' has ${MAX_NAME_LENGTH + 1} characters, more than the ${MAX_NAME_LENGTH} allowed`],
      [{ path: `/${'d'.repeat(MAX_PATH_LENGTH)}` }, 'sources[0].path', `source 's': 'path' has ${MAX_PATH_LENGTH + 1} characters, more than the ${MAX_PATH_LENGTH} allowed`],
      [{ reason: 'r'.repeat(MAX_REASON_LENGTH + 1) }, 'ignore[0].reason', `ignore rule p/other: 'reason' has ${MAX_REASON_LENGTH + 1} characters, more than the ${MAX_REASON_LENGTH} allowed`],
    ];
    for (const [over, field, problem] of cases) {
      const r = refusedField(doc(over));
      expect(r.field).toBe(field);
      expect(r.message).toMatch(new RegExp(`^limits\\.assembly\\.json:\\d+: ${field.replace(/[[\].]/g, '\\$&')}: ${problem.replace(/[()[\].*+?/]/g, '\\$&')}$`));
    }
  });

  it('what the reader accepts at the limits the host opens, shows and checks: every response and event passes the contract', async () => {
    const file = path.join(tempDir('length-limits'), 'long.assembly.json');
    const partId = 'p'.repeat(MAX_ID_LENGTH);
    writeFileSync(file, doc({ partId, sourceId: 's'.repeat(MAX_ID_LENGTH), name: 'n'.repeat(MAX_NAME_LENGTH), partName: 'm'.repeat(MAX_NAME_LENGTH), reason: 'r'.repeat(MAX_REASON_LENGTH) }));
    const host = createTestHost({ allowedFolders: [path.dirname(file), TEST_DATA] });
    try {
      const info = (await host.call('doc.open', { path: file }))!;
      expect(info.parts.map((p) => p.id)).toEqual([partId, 'other']);
      const { jobId } = await host.call('check.run', { docId: info.id });
      const done = await host.job(jobId);
      expect(done).toMatchObject({ jobId });
      expect(host.eventsOf('job.failed')).toEqual([]);
      // One character more: refused when opened, naming the field, instead of a document the app cannot show.
      writeFileSync(file, doc({ partId: `${partId}p` }));
      const r = await refusal(host.call('doc.open', { path: file }));
      expect(r.code).toBe('invalid-assembly');
      expect(r.message).toContain(`parts[0].id: the part id has ${MAX_ID_LENGTH + 1} characters, more than the ${MAX_ID_LENGTH} allowed`);
    } finally {
      await host.service.dispose();
    }
  }, 60_000);

  it('ids and names made from a file\'s bodies stay within the limits', () => {
    const long = 'Bracket '.repeat(300);
    const ids = assignPartIds([long, long], 'x'.repeat(MAX_ID_LENGTH));
    for (const id of ids) expect(id.length).toBeLessThanOrEqual(MAX_ID_LENGTH);
    expect(new Set(ids).size).toBe(2);
    expect(ids[1]).toMatch(/-1$/);
    const fromBodies = assemblyFromBodies(`${'f'.repeat(250)}.stl`, [{ name: long }]);
    expect(fromBodies.parts![0].name!.length).toBe(MAX_NAME_LENGTH);
    expect(fromBodies.parts![0].name!.endsWith('…')).toBe(true);
    expect(fromBodies.sources[0].id.length).toBeLessThanOrEqual(MAX_ID_LENGTH);
    // What assemblyFromBodies makes, the reader takes back.
    expect(() => parseAssembly(JSON.stringify({ ...fromBodies, extra: undefined }), 'round.assembly.json')).not.toThrow();
  });
});
