/**
 * The JSON report's schema (format v1 of docs/formats.md) as zod definitions, and the JSON Schema
 * made from them, which is published as `docs/report.schema.json` (`npm run schema` writes it; a
 * test checks that the committed file is what this module generates, and that real reports
 * validate against it).
 *
 * It describes exactly what this version writes (./model.ts buildReport, ./json.ts
 * reportToJson): every field it writes is required, except `title` and `generator`, and no other
 * field is allowed — so a field added to the report without its place here fails the tests. Each
 * value has the type and bounds parseReport (./json.ts) requires of it. A
 * later version may add fields (formats.md): a reader that must accept those validates with the
 * schema of the version that wrote the report, or ignores `additionalProperties`. What a schema
 * cannot say — the summary's counts equal to the results', each pair once, ids naming listed
 * parts — parseReport checks (checkReportConsistency).
 *
 * Only this module of src-core imports zod, and nothing bundled into the app imports it.
 */
import { z } from 'zod';
import { REPORT_FORMAT, REPORT_VERSION } from './model.js';

const length = (description: string) => z.number().meta({ description });
const nonNegative = (description: string) => z.number().min(0).meta({ description });
const count = (description: string) => z.int().min(0).meta({ description });
const vec3 = z.tuple([z.number(), z.number(), z.number()]).meta({ description: '[x, y, z] in assembly coordinates (mm)' });

const RESULT_KIND = z.enum(['interference', 'contact', 'clearance', 'undecided', 'ignored']);
const GEOMETRY_KIND = z.enum(['interference', 'contact', 'clearance', 'clear']);

export const ReportSettingsSchema = z.strictObject({
  touchToleranceMm: nonNegative('the touch tolerance used (mm)'),
  clearanceMm: nonNegative('the clearance used (mm; 0: off)'),
  contactIsInterference: z.boolean().meta({ description: 'contacts were reported as interferences' }),
  touchToleranceAuto: z.boolean().meta({ description: 'the assembly and the command line set no touch tolerance (the default was used)' }),
}).meta({ description: 'the settings the check applied' });

export const ReportSummarySchema = z.strictObject({
  parts: count('number of parts checked'),
  triangles: count('their triangles in all (a part placed twice counts twice)'),
  interferences: count('number of results of kind interference'),
  contacts: count('number of results of kind contact'),
  clearanceViolations: count('number of results of kind clearance'),
  ignored: count('number of results of kind ignored'),
  elapsedMs: nonNegative('how long the check took (ms; importing and tree building not included)'),
  contained: count('results that are not ignored with one part wholly inside the other'),
  undecided: count('number of results of kind undecided'),
  refinedPairs: count('results checked again on bodies re-tessellated finer'),
  finestDeflectionMm: nonNegative('the finest linear deflection used to re-tessellate (mm)').nullable(),
}).meta({ description: 'counts; the per-kind counts always equal those of results' });

const STATUS = z.enum(['new', 'active', 'resolved', 'ignored']);
const RESULT_ID = z.string().regex(/^R[1-9][0-9]*$/)
  .meta({ description: "the result's number, R1, R2, …: kept from check to check for the same pair of a saved assembly, else numbered in the report's order" });

export const ReportResultSchema = z.strictObject({
  id: RESULT_ID,
  a: z.string().meta({ description: 'the id of the first part (in part order)' }),
  b: z.string().meta({ description: 'the id of the second part' }),
  kind: RESULT_KIND.meta({ description: 'what is reported' }),
  status: STATUS.nullable()
    .meta({ description: "the pair's review status: the app's review (new, active, resolved, ignored); else ignored for an ignored pair and null" }),
  geometricKind: z.enum(['interference', 'contact', 'clearance', 'undecided', 'ignored', 'clear'])
    .meta({ description: 'the kind by geometry alone, before contactIsInterference and the ignore rules (clear for an ignored pair)' }),
  volumeMm3: length('the shared volume (mm³) when both bodies are closed solids').nullable(),
  centroidMm: vec3.nullable().meta({ description: 'the centroid of volumeMm3' }),
  contained: z.boolean().meta({ description: 'one part lies wholly inside the other' }),
  containedPart: z.string().nullable().meta({ description: 'the id of the inner part, when contained' }),
  distanceMm: length('the smallest distance between the surfaces (mm; 0 when they cross or touch), when measured').nullable(),
  closestPointsMm: z.tuple([vec3, vec3]).nullable().meta({ description: 'the closest points on a and on b' }),
  depthMm: length('how far the surfaces reach into each other (mm)').nullable(),
  toleranceMm: nonNegative('the touch tolerance applied to this pair (mm)'),
  reason: z.string().nullable().meta({ description: "the ignore rule's reason, for an ignored pair" }),
  resolutionMm: nonNegative('the ± of depthMm or distanceMm (mm); null for meshes decided as given').nullable(),
  refinedDeflectionMm: nonNegative('the finest linear deflection the pair was re-tessellated with (mm)').nullable(),
  separationRangeMm: z.tuple([z.number(), z.number()]).nullable()
    .meta({ description: '[low, high]: the exact signed separation (mm; negative: overlap) lies in this range' }),
  possibleKinds: z.array(GEOMETRY_KIND).nullable().meta({ description: 'for an undecided pair, every kind the exact solids may have' }),
  trianglePairs: z.array(z.tuple([z.int().min(0), z.int().min(0)]))
    .meta({ description: 'every pair of intersecting triangles, [triangle of a, triangle of b], in import order' }),
  coincident: z.array(z.string()).min(2).optional()
    .meta({ description: 'only on the result of a group of coincident copies: every part of the group; it stands for every pair among them' }),
}).meta({ description: 'one part pair that is not clear' });

export const ReportPartSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  path: z.array(z.string()).min(1)
    .meta({ description: "its place in its file's product tree, from the root's children down to the body; a file without a tree: its name's stem" }),
  displayName: z.string().meta({ description: 'the name the part is shown by in the app and every report: the sub-assemblies above it, then its name, numbered <k> among same-named siblings' }),
  transform: z.array(z.number()).length(16).nullable()
    .meta({ description: 'its placement: a row-major 4×4 rigid transform applied to the body (mm)' }),
  source: z.string().meta({ description: "the source's path as written in the assembly" }),
  body: count("the body's index in its source"),
  triangles: count("the body's triangle count").nullable(),
  closed: z.boolean().nullable().meta({ description: "the body's mesh is a closed surface" }),
});

export const ReportResolvedSchema = z.strictObject({
  id: RESULT_ID,
  a: z.string(),
  b: z.string(),
}).meta({ description: "a finding of the document's review that this check found clear (status resolved)" });

export const ReportInputSchema = z.strictObject({
  role: z.enum(['assembly', 'source']).meta({ description: 'the file checked, or a CAD or mesh file its parts come from' }),
  sourceId: z.string().nullable().meta({ description: "the source's id in the assembly; null for the assembly file" }),
  path: z.string().meta({ description: 'the full path it was read from' }),
  sizeBytes: count('its size in bytes'),
  modifiedAt: z.string().meta({ description: 'its modification time when read, ISO 8601 UTC' }),
  sha256: z.string().regex(/^[0-9a-f]{64}$/).meta({ description: 'SHA-256 of the bytes read, lower-case hexadecimal' }),
}).meta({ description: 'a file the check read' });

export const InterferenceReportSchema = z.strictObject({
  format: z.literal(REPORT_FORMAT),
  version: z.literal(REPORT_VERSION),
  assembly: z.string().meta({ description: 'the file name of the checked file, as given' }),
  title: z.string().optional().meta({ description: "the assembly's name, when it has one" }),
  generatedAt: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
    .meta({ description: 'when the check ran: ISO 8601 UTC to the second' }),
  generator: z.strictObject({ name: z.string(), version: z.string() }).optional()
    .meta({ description: 'the program that wrote the report' }),
  settings: ReportSettingsSchema,
  summary: ReportSummarySchema,
  results: z.array(ReportResultSchema),
  resolved: z.array(ReportResolvedSchema),
  parts: z.array(ReportPartSchema),
  inputs: z.array(ReportInputSchema).meta({ description: 'every file read for the check, in reading order; empty when not known' }),
  warnings: z.array(z.string()),
}).meta({
  title: 'Interfere check report, format version 1',
  description: 'What one interference check found (docs/formats.md). Generated from src-core/report/schema.ts by npm run schema.',
});

/** The JSON Schema (draft 2020-12) of the report. */
export function reportJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(InterferenceReportSchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
}

/** The text of `docs/report.schema.json`: the JSON Schema, two-space indented, with a final newline. */
export function reportSchemaText(): string {
  return `${JSON.stringify(reportJsonSchema(), null, 2)}\n`;
}
