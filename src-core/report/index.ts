/**
 * The check report (format v1 of docs/formats.md): the model built from a check, and its
 * three renderings: the JSON file tools read, CSV for spreadsheets, and a self-contained HTML page.
 */
export {
  REPORT_FORMAT, REPORT_VERSION, KIND_ORDER, ReportError, buildReport, exitCode, isoSeconds, resultId,
  countResults, checkReportConsistency,
  type InterferenceReport, type ReportSettings, type ReportSummary, type ReportResult, type ReportPart,
  type ReportGenerator, type ReportPartInput, type BuildReportInput, type TrianglePair, type Vec3, type UndecidedPolicy,
} from './model.js';
export { reportToJson, parseReport, type ParseReportOptions } from './json.js';
export { reportToCsv, csvField, csvText, csvNumber, CSV_COLUMNS, type CsvOptions } from './csv.js';
export {
  reportToHtml, escapeHtml, formatNumber, contentSecurityPolicy, cspHash, sha256, utf8Encode, base64,
  type HtmlOptions,
} from './html.js';
