// What the OpenCascade importer tests share: the test data, a registry with the Node provider,
// and the check that an import fails with an ImportError of a given code naming the file.
import { expect } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createDefaultRegistry } from '../../../../src-core/io/registry.js';
import { ImportError } from '../../../../src-core/io/types.js';
import type { ImportErrorCode } from '../../../../src-core/io/types.js';
import { nodeOcctProvider } from '../../../../src-main/services/occtNode.js';

export const DATA = path.resolve(process.cwd(), 'test/data');

export function read(rel: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(DATA, rel)));
}

export function text(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, 'latin1'));
}

export const registry = createDefaultRegistry({ occt: nodeOcctProvider });

export async function expectRejects(p: Promise<unknown>, code: ImportErrorCode, fileName: string): Promise<ImportError> {
  let caught: unknown;
  try {
    await p;
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ImportError);
  const err = caught as ImportError;
  expect(err.code, err.message).toBe(code);
  expect(err.message.startsWith(`${fileName}: `)).toBe(true);
  expect(err.fileName).toBe(fileName);
  return err;
}
