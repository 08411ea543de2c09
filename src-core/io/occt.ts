/**
 * STEP, IGES and BREP importers through OpenCascade (occt-import-js 0.0.23).
 *
 * The core never loads the WASM module itself: the host injects an OcctProvider, a function that
 * returns the initialised module (Node: src-main/services/occtNode.ts; a browser host passes
 * `locateFile`). Every file is tessellated with occt's DEFAULT parameters (`params` null) because the
 * ground truth does exactly that, so our triangles are occt's triangles, bit for bit.
 *
 * Output: one body per entry of `result.meshes`, in that order (an assembly refers to bodies by this
 * index). occt places every solid instance in world coordinates and converts the file's declared
 * unit to millimetres (STEP, IGES); a BREP has no unit and its numbers are taken as millimetres,
 * OpenCascade's convention. Nothing is rescaled here (`options.units` applies to STL only).
 * Observed on the test data (test/data):
 *   - as1-oc-214.stp (AP214, mm): bounding box −10…190 × 0…150 × −4…80 mm, as in the file;
 *   - as1_pe_203.stp (AP203, declares INCH): −3810…1270 × −685.8…1524 × −1905…1905, i.e. the
 *     file's numbers × 25.4 (the exporter wrote millimetre-sized numbers under an inch unit);
 *   - as1_pe_203.brep: exactly the same coordinates as as1_pe_203.stp (the BREP holds the already
 *     converted millimetres; occt does not scale BREP);
 *   - sunglasses_lens.igs (unit flag 2HIN, max coordinate 14.0134 in): −355.9…−293.0 mm, i.e. ×25.4.
 *
 * occt repeats vertices for every B-rep face; they are welded by exact equality (weldVertices) so
 * that faces share edges, keeping triangle order. `faceRanges` are occt's `brep_faces`; a face occt
 * could not tessellate (no triangles) is left out, with a warning.
 *
 * Before welding, a chordal-error estimate is computed per triangle from occt's vertex normals
 * (see estimateChordErrors in occt/chord.ts).
 *
 * Robustness: occt reports failure only as `{ success: false }` (its messages go to the host's
 * print/printErr, handed over through `takeOutput`), a STEP whose parts live in external files
 * reads as success with no meshes, a truncated IGES reads as success with the surfaces before the
 * cut, and a BREP cut off inside its shape section makes the WASM reader loop forever. Hence the
 * checks before (IGES Terminate record, BREP shape count and root line) and after (STEP end line,
 * mesh structure, finiteness) the call. Every failure is an ImportError naming the file.
 *
 * Bodies never go missing silently. occt drops, as a success and without a word, a STEP solid that
 * refers to an entity the file does not define, a solid measured in an absurd unit, a root shape
 * whose bounding box is void, and an IGES entity it cannot translate; an assembly that refers to
 * bodies by index would then bind every later part to the next body. So the file is counted
 * independently: for STEP, the solids its product tree places (stepCensus.ts), by product name;
 * for IGES, its independent surface and solid entities (igesBodyEntities). When occt returns
 * fewer meshes, a warning names what is missing (the product, its solid's entity number, and why
 * when known: the entity it refers to that the file lacks, or its unit). A STEP length unit that
 * is not a positive size (occt would mirror or collapse the solids) is an ImportError; one outside
 * 1 nm to 10 km is a warning. An IGES file whose unit flag and unit name disagree is read in the
 * flag's unit (as occt does), with a warning naming both. A BREP is not counted: occt reads its
 * shape whole or not at all (the layout checks above stop a damaged one) and makes a mesh of every
 * solid and shell in it, even one without triangles (then named in a warning below).
 *
 * This file is the importers' public face; the work is in ./occt/: provider.ts (what a host
 * gives: the module, in this thread or remote), sniff.ts (recognising the formats by content, and
 * the byte-level reading shared with the checks), checks.ts (the completeness, unit and body-count
 * checks around the read), read.ts (the importers and the OpenCascade call), convert.ts (occt's
 * meshes as bodies) and chord.ts (the chordal-error estimate).
 */
export type { OcctFormat, OcctModule, OcctProvider, OcctReadContext, OcctRemoteModule, OcctRemoteRead } from './occt/provider.js';
export { occtErrorText } from './occt/provider.js';
export { detectOcctFormat, sniffBrep, sniffIges, sniffStep } from './occt/sniff.js';
export { igesBodyEntities, igesGlobalParameters, type IgesBodyEntity } from './occt/checks.js';
export { createOcctImporter, createOcctImporters } from './occt/read.js';
export { convertOcctMeshes } from './occt/convert.js';
export { CHORD_SAFETY_FACTOR, estimateChordErrors, estimateChordSides, maxChordErrorMm } from './occt/chord.js';
