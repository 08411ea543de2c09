// What Save as proposes, and how the status bar names a document.
import { describe, expect, it } from 'vitest';
import { assemblyPathFor, documentLabel, fileNameOf, saveAsPathFor } from '../../src-renderer/state/paths';

describe('file names the window proposes and shows', () => {
  it('proposes a copy next to a saved assembly, never the file itself', () => {
    expect(saveAsPathFor('/p/as1-review.assembly.json', 'AS1')).toBe('/p/as1-review copy.assembly.json');
    expect(saveAsPathFor('C:\\p\\a.assembly.json', 'A')).toBe('C:\\p\\a copy.assembly.json');
    const taken = new Set(['/p/a copy.assembly.json', '/p/a copy 2.assembly.json']);
    expect(saveAsPathFor('/p/a.assembly.json', 'A', (p) => taken.has(p))).toBe('/p/a copy 3.assembly.json');
  });

  it('proposes an assembly of a CAD file next to it, and of a new document by its name', () => {
    expect(saveAsPathFor('/p/as1-oc-214.stp', 'as1-oc-214.stp')).toBe('/p/as1-oc-214.assembly.json');
    expect(saveAsPathFor(null, 'Untitled assembly')).toBe('Untitled assembly.assembly.json');
    expect(assemblyPathFor('/p/a.assembly.json', 'A')).toBe('/p/a.assembly.json');
  });

  it('names the document by its file, with its own name and the path as tooltip', () => {
    expect(fileNameOf('/p/q/a.stp')).toBe('a.stp');
    expect(documentLabel({ name: 'AS1 bracket review', path: '/p/as1.assembly.json' })).toEqual({ text: 'as1.assembly.json', title: 'AS1 bracket review\n/p/as1.assembly.json' });
    expect(documentLabel({ name: 'a.stp', path: '/p/a.stp' })).toEqual({ text: 'a.stp', title: '/p/a.stp' });
    expect(documentLabel({ name: 'Untitled assembly', path: null }).text).toBe('Untitled assembly');
  });
});
