import { describe, it, expect } from 'vitest';
import { maxChordErrorMm } from '../../../../src-core/io/occt/chord.js';
import { convertOcctMeshes } from '../../../../src-core/io/occt/convert.js';
import type { OcctModule, OcctProvider } from '../../../../src-core/io/occt/provider.js';
import { createOcctImporter, createOcctImporters } from '../../../../src-core/io/occt/read.js';
import type { OcctMesh, OcctResult } from 'occt-import-js';
import { expectRejects, read, text } from './helpers.js';

// ---------------------------------------------------------------------------------------------
// With a stand-in module: what real files cannot show

function fakeMesh(overrides: Partial<OcctMesh> = {}): OcctMesh {
  // Two triangles of a unit square in z = 0, one face; vertices repeated as occt does.
  return {
    name: 'square',
    attributes: {
      position: { array: [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0] },
      normal: { array: [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1] },
    },
    index: { array: [0, 1, 2, 3, 4, 5] },
    brep_faces: [{ first: 0, last: 1, color: null }],
    ...overrides,
  };
}

function fakeProvider(result: () => OcctResult, output: string[] = []): OcctProvider & { calls: number } {
  const lines = [...output];
  const module: OcctModule = {
    ReadStepFile: () => result(),
    ReadIgesFile: () => result(),
    ReadBrepFile: () => result(),
    takeOutput: () => lines.splice(0),
  };
  const provider = Object.assign(async () => {
    provider.calls++;
    return module;
  }, { calls: 0 });
  return provider;
}

const STEP_BYTES = text('ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n');

describe('occt: conversion details (stand-in module)', () => {
  it('welds the repeated square vertices and keeps triangle order; planar chord error is 0', async () => {
    const [step] = createOcctImporters(fakeProvider(() => ({ success: true, meshes: [fakeMesh()] })));
    const r = await step.import(STEP_BYTES, 'sq.stp');
    const b = r.bodies[0];
    expect(b.positions.length).toBe(12);
    expect(Array.from(b.indices)).toEqual([0, 1, 2, 0, 2, 3]);
    expect(Array.from(b.faceRanges!)).toEqual([0, 1]);
    expect(Array.from(b.chordErrorMm!)).toEqual([0, 0]);
    expect(b.color).toBeNull();
    expect(b.name).toBe('square');
  });

  it('a non-finite coordinate is an error naming the body and vertex', async () => {
    const m = fakeMesh();
    m.attributes.position.array[4] = NaN;
    const [step] = createOcctImporters(fakeProvider(() => ({ success: true, meshes: [fakeMesh(), m] })));
    const err = await expectRejects(step.import(STEP_BYTES, 'bad.stp'), 'non-finite-coordinate', 'bad.stp');
    expect(err.message).toBe("bad.stp: body 1 ('square'): vertex 1 has a non-finite coordinate (1, NaN, 0)");
  });

  it('malformed meshes are unreadable-cad, not crashes', async () => {
    for (const bad of [
      { index: { array: [0, 1, 9] } },
      { index: { array: [0, 1] } },
      { attributes: { position: { array: [0, 0] } } },
    ] as Partial<OcctMesh>[]) {
      const [step] = createOcctImporters(fakeProvider(() => ({ success: true, meshes: [fakeMesh(bad)] })));
      const err = await expectRejects(step.import(STEP_BYTES, 'm.stp'), 'unreadable-cad', 'm.stp');
      expect(err.message).toContain('malformed mesh for body 0');
    }
    const [step] = createOcctImporters(fakeProvider(() => ({ success: true })));
    await expectRejects(step.import(STEP_BYTES, 'm.stp'), 'unreadable-cad', 'm.stp');
  });

  it('untessellated faces are left out of faceRanges and reported; a face list that does not tile is dropped', async () => {
    const faces = [{ first: 0, last: -1, color: null }, { first: 0, last: 1, color: null }, { first: 2, last: 1, color: null }];
    const [step] = createOcctImporters(fakeProvider(() => ({ success: true, meshes: [fakeMesh({ brep_faces: faces }), fakeMesh({ brep_faces: [{ first: 1, last: 1, color: null }] })] })));
    const r = await step.import(STEP_BYTES, 'f.stp');
    expect(Array.from(r.bodies[0].faceRanges!)).toEqual([0, 1]);
    expect(r.bodies[1].faceRanges).toBeNull();
    expect(r.warnings).toEqual([
      "body 1: OpenCascade's face list does not cover its triangles in order; the body has no face ranges",
      '2 B-rep faces could not be tessellated and are missing from the mesh',
    ]);
  });

  it('no normals: no chord estimate, with a warning; colours from the mesh or the shared face colour', async () => {
    const noNormal = fakeMesh({ attributes: { position: fakeMesh().attributes.position } });
    const red = fakeMesh({ color: [1, 0, 0] });
    const faceBlue = fakeMesh({ brep_faces: [{ first: 0, last: 1, color: [0, 0, 1] }] });
    const mixed = fakeMesh({ brep_faces: [{ first: 0, last: 0, color: [0, 0, 1] }, { first: 1, last: 1, color: [0, 1, 0] }] });
    const [step] = createOcctImporters(fakeProvider(() => ({ success: true, meshes: [noNormal, red, faceBlue, mixed] })));
    const r = await step.import(STEP_BYTES, 'c.stp');
    expect(r.bodies[0].chordErrorMm).toBeNull();
    expect(maxChordErrorMm(r.bodies[0])).toBeNull();
    expect(r.bodies.map((b) => b.color)).toEqual([null, [1, 0, 0], [0, 0, 1], null]);
    expect(r.warnings).toEqual(['1 body (0) came without normals: no chordal-error estimate']);
  });

  it('bodies without triangles keep their place (assemblies count bodies); all empty is an error', async () => {
    const empty = fakeMesh({ attributes: { position: { array: [] }, normal: { array: [] } }, index: { array: [] }, brep_faces: [] });
    const [step] = createOcctImporters(fakeProvider(() => ({ success: true, meshes: [empty, fakeMesh()] })));
    const r = await step.import(STEP_BYTES, 'e.stp');
    expect(r.bodies.map((b) => b.triangleCount)).toEqual([0, 2]);
    expect(r.warnings).toEqual(["1 body (0 'square') could not be tessellated and has no triangles"]);
    const [onlyEmpty] = createOcctImporters(fakeProvider(() => ({ success: true, meshes: [empty] })));
    await expectRejects(onlyEmpty.import(STEP_BYTES, 'e.stp'), 'no-triangles', 'e.stp');
  });

  it('an exception from the WASM and a provider that cannot start are unreadable-cad', async () => {
    const [step] = createOcctImporters(fakeProvider(() => {
      throw new Error('RuntimeError: memory access out of bounds');
    }, ['some output']));
    const err = await expectRejects(step.import(STEP_BYTES, 'x.stp'), 'unreadable-cad', 'x.stp');
    expect(err.message).toContain('OpenCascade failed while reading this STEP file: RuntimeError: memory access out of bounds');
    const broken: OcctProvider = () => Promise.reject(new Error('ENOENT: occt-import-js.wasm'));
    const err2 = await expectRejects(createOcctImporter('iges', broken).import(read('iges-sunglasses-lens/sunglasses_lens.igs'), 'l.igs'), 'unreadable-cad', 'l.igs');
    expect(err2.message).toContain('could not be started: ENOENT');
  });

  it('cancellation is checked after OpenCascade returns', async () => {
    const signal = { aborted: false };
    const [step] = createOcctImporters(fakeProvider(() => {
      signal.aborted = true;
      return { success: true, meshes: [fakeMesh()] };
    }));
    await expectRejects(step.import(STEP_BYTES, 'a.stp', { signal }), 'aborted', 'a.stp');
  });

  it('convertOcctMeshes alone', () => {
    const bodies = convertOcctMeshes([fakeMesh(), fakeMesh({ name: '' })], 'x.stp');
    expect(bodies.map((b) => b.triangleCount)).toEqual([2, 2]);
    expect(bodies[1].name).toBe('');
  });
});
