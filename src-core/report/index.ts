/**
 * The check report (format v1 of docs/formats.md): the model built from a check, and its
 * renderings: the JSON file tools read, CSV for spreadsheets, a self-contained HTML page, and
 * JUnit XML for CI (with the comparison with a baseline report). The JSON Schema's zod
 * definitions (./schema.ts) are not exported here, so that nothing bundled pulls in zod for them.
 */
export {
  REPORT_FORMAT, REPORT_VERSION, KIND_ORDER, ReportError, buildReport, exitCode, isoSeconds, resultId,
  countResults, checkReportConsistency,
  type InterferenceReport, type ReportSettings, type ReportSummary, type ReportResult, type ReportPart,
  type ReportGenerator, type ReportPartInput, type ReportInput, type ReportResolved, type ReportReviewInput, compareResultIds,
  type BuildReportInput, type TrianglePair, type Vec3, type UndecidedPolicy,
} from './model.js';
export { reportToJson, parseReport, type ParseReportOptions } from './json.js';
export { compareWithBaseline, resolvedSince, LENGTH_NOISE_MM, VOLUME_NOISE, type BaselineChange, type BaselineComparison, type BaselineEntry } from './baseline.js';
export { reportFindings, failingKind, resultFigures, type Finding, type ReportFindings, type Verdict } from './findings.js';
export { reportsToJunit, xmlText, xmlAttr, MAX_JUNIT_CASES, type JunitInput, type JunitOptions } from './junit.js';
export { reportToCsv, csvField, csvText, csvNumber, CSV_COLUMNS, type CsvOptions } from './csv.js';
export {
  reportToHtml, escapeHtml, formatNumber, contentSecurityPolicy,
  type HtmlOptions,
} from './html.js';
export {
  pairPicture, reportPictures, hasPicture, MAX_PICTURES, PICTURE_DEFAULTS,
  type PictureBody, type PictureInput, type PictureOptions, type ReportPicturesOptions,
} from './picture.js';
