/**
 * The report as one self-contained HTML page that opens offline: inline CSS and a small inline
 * script (click or press a column header to sort), no external URL of any kind.
 *
 * Safety: every string that came from a file (assembly name, title, part ids and names, source
 * paths, ignore reasons, warnings) goes through escapeHtml; the table data is written as HTML
 * rows, never as data inside the script. A Content-Security-Policy meta tag allows nothing but
 * the page's own inline style and script, named by their SHA-256 hashes (written out below: the
 * style and the script are constant text, and test/core/report/csp.test.ts checks the hashes
 * against node:crypto), so even markup that slipped through could not run a script or load
 * anything.
 */
import type { ResultKind } from '../check/types.js';
import type { ResultStatus } from '../check/status.js';
import { KIND_ORDER, coincidentText, compareResultIds, type InterferenceReport, type ReportInput, type ReportPart, type ReportResult } from './model.js';
import { isIdentityTransform, rotationAnglesOf, translationOf } from './placement.js';

export interface HtmlOptions {
  /** Heading of the page; default: the report's title, else its assembly name. */
  readonly title?: string;
  /** The application named in the footer; default: the report's generator, else "Interfere". */
  readonly generator?: { readonly name: string; readonly version?: string };
  /**
   * Pictures of findings (./picture.ts reportPictures): SVG markup made by pairPicture, by the
   * index of the result in `report.results`, shown in a Pictures section after the results.
   */
  readonly pictures?: ReadonlyMap<number, string>;
}

// ---------------------------------------------------------------------------------------------
// Text

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;',
};

/** Text safe inside HTML elements and quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

function groupInteger(digits: string): string {
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return out;
}

/**
 * A number for people: four significant digits (at least the integer part), thousands grouped
 * with commas, trailing zeros dropped: 533,001 · 9,096 · 58.9 · 2.29 · 0.0004. Magnitudes below
 * 1e-6 in exponent form.
 */
export function formatNumber(n: number, significant = 4): string {
  if (!Number.isFinite(n)) return String(n);
  if (n === 0) return '0';
  const abs = Math.abs(n);
  if (abs < 1e-6) return n.toExponential(Math.max(0, significant - 2));
  const magnitude = Math.floor(Math.log10(abs));
  const decimals = Math.min(20, Math.max(0, significant - 1 - magnitude));
  let s = abs.toFixed(decimals);
  if (s.includes('e')) return String(n);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  const dot = s.indexOf('.');
  const intPart = dot < 0 ? s : s.slice(0, dot);
  const grouped = groupInteger(intPart) + (dot < 0 ? '' : s.slice(dot));
  return (n < 0 && grouped !== '0' ? '-' : '') + grouped;
}

function formatCount(n: number): string {
  return groupInteger(String(Math.trunc(Math.abs(n))));
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${formatNumber(Math.round(ms))} ms` : `${formatNumber(ms / 1000, 3)} s`;
}

function withUnit(n: number | null, unit: string): string {
  return n === null ? '—' : `${formatNumber(n)} ${unit}`;
}

/** A point to 0.1 µm, so that rounding noise such as -2.8e-15 reads as 0. */
function pointText(p: readonly number[]): string {
  return `(${p.map((c) => formatNumber(Math.round(c * 1e4) / 1e4 || 0)).join(', ')}) mm`;
}

// ---------------------------------------------------------------------------------------------
// The page's style and script (constant text: their hashes go into the CSP)

export const STYLE = `
:root {
  --fg: #1f2328; --muted: #59636e; --line: #d8dee4; --head: #f3f5f7; --bg: #fff;
  --interference: #c62828; --clearance: #d35400; --undecided: #8e24aa; --contact: #1565c0; --ignored: #6e7781; --ok: #1a7f37;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; padding: 24px 32px 40px; color: var(--fg); background: var(--bg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif;
}
header { border-bottom: 1px solid var(--line); padding-bottom: 12px; margin-bottom: 8px; }
h1 { font-size: 22px; margin: 0 0 2px; overflow-wrap: anywhere; }
h2 { font-size: 16px; margin: 28px 0 10px; }
.sub { color: var(--muted); overflow-wrap: anywhere; }
.status { display: inline-block; margin-top: 10px; padding: 4px 12px; border-radius: 6px; font-weight: 600; color: #fff; }
.status.pass { background: var(--ok); }
.status.fail { background: var(--interference); }
.badges { display: flex; flex-wrap: wrap; gap: 8px; margin: 0; padding: 0; list-style: none; }
.badge {
  display: inline-block; padding: 1px 9px; border-radius: 999px; color: #fff; font-weight: 600;
  font-size: 12px; line-height: 20px; white-space: nowrap;
  -webkit-print-color-adjust: exact; print-color-adjust: exact;
}
.badges .badge { font-size: 14px; padding: 3px 12px; line-height: 22px; }
.badge .n { font-variant-numeric: tabular-nums; }
.badge.zero { opacity: .45; }
.k-interference { background: var(--interference); }
.k-clearance { background: var(--clearance); }
.k-undecided { background: var(--undecided); }
.k-contact { background: var(--contact); }
.k-ignored { background: var(--ignored); }
dl.settings { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
dl.settings dt { color: var(--muted); }
dl.settings dd { margin: 0; font-variant-numeric: tabular-nums; }
.table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; max-height: 80vh; overflow-y: auto; }
table { border-collapse: separate; border-spacing: 0; width: 100%; }
th, td { padding: 6px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
tbody tr:last-child td { border-bottom: 0; }
tbody tr:nth-child(even) td { background: #fafbfc; }
thead th { position: sticky; top: 0; z-index: 1; background: var(--head); font-weight: 600; white-space: nowrap; }
th.num, td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
th button {
  font: inherit; color: inherit; background: none; border: 0; padding: 0; margin: 0; cursor: pointer;
  text-align: inherit; display: inline-flex; gap: 4px; align-items: baseline;
}
th button:focus-visible { outline: 2px solid var(--contact); outline-offset: 2px; border-radius: 2px; }
th button::after { content: "\\2195"; color: var(--muted); font-size: 11px; }
th[aria-sort="ascending"] button::after { content: "\\25B2"; color: var(--fg); }
th[aria-sort="descending"] button::after { content: "\\25BC"; color: var(--fg); }
.id { color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
.name { overflow-wrap: anywhere; }
.reason { color: var(--muted); font-size: 12px; margin-top: 2px; overflow-wrap: anywhere; }
.source { overflow-wrap: anywhere; }
.empty { color: var(--muted); text-align: center; padding: 16px; }
.warnings { color: var(--clearance); margin: 0; padding-left: 20px; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--line); padding-top: 8px; }
.point { white-space: nowrap; font-variant-numeric: tabular-nums; }
.hash { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; overflow-wrap: anywhere; }
.st-new { color: var(--interference); font-weight: 600; }
.st-resolved { color: var(--ok); }
.st-ignored { color: var(--ignored); }
@media print {
  @page { margin: 12mm; }
  body { padding: 0; font-size: 10px; }
  .table-wrap { overflow: visible; max-height: none; border: 0; border-radius: 0; }
  table { width: 100%; }
  thead { display: table-header-group; }
  thead th, th { position: static; }
  th button { cursor: auto; }
  th button::after { content: none !important; }
  tr, li, dl.settings > * { break-inside: avoid; page-break-inside: avoid; }
  h1, h2 { break-after: avoid; page-break-after: avoid; }
  tbody tr:nth-child(even) td { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  a[href] { color: inherit; text-decoration: underline; }
  a[href]::after { content: " (" attr(href) ")"; font-size: 9px; color: var(--muted); overflow-wrap: anywhere; }
  a[href^="#"]::after { content: none; }
  .status { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;

export const SCRIPT = `
(function () {
  'use strict';
  function key(row, col, numeric) {
    var cell = row.cells[col];
    if (!cell) return null;
    var v = cell.hasAttribute('data-v') ? cell.getAttribute('data-v') : cell.textContent;
    if (!numeric) return v.trim().toLowerCase();
    if (v === '') return null;
    var n = Number(v);
    return isNaN(n) ? null : n;
  }
  function sortBy(table, th, col) {
    var numeric = th.getAttribute('data-type') === 'num';
    var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows).map(function (row, i) {
      return { row: row, i: i, k: key(row, col, numeric) };
    });
    rows.sort(function (p, q) {
      if (p.k === null || q.k === null) return p.k === q.k ? p.i - q.i : (p.k === null ? 1 : -1);
      var c = numeric ? p.k - q.k : p.k.localeCompare(q.k, undefined, { numeric: true });
      return c !== 0 ? dir * c : p.i - q.i;
    });
    var frag = document.createDocumentFragment();
    rows.forEach(function (r) { frag.appendChild(r.row); });
    body.appendChild(frag);
    Array.prototype.forEach.call(th.parentNode.cells, function (other) { other.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      var button = th.querySelector('button');
      if (button) button.addEventListener('click', function () { sortBy(table, th, col); });
    });
  });
})();
`;

/** Base64 SHA-256 of STYLE's UTF-8 text, for its CSP hash source (checked by a test: update it with STYLE). */
export const STYLE_SHA256 = 'TFSbOcMMoO24OsFE62ZZOD3h3lKIRKopmriDq4xrSoQ=';

/** Base64 SHA-256 of SCRIPT's UTF-8 text, for its CSP hash source (checked by a test: update it with SCRIPT). */
export const SCRIPT_SHA256 = 'Ye43rDAFwZKJiO5qL4cSKNpY7+TL3+FmoMQRkWHGg/s=';

const CSP = [
  "default-src 'none'",
  `style-src 'sha256-${STYLE_SHA256}'`,
  `script-src 'sha256-${SCRIPT_SHA256}'`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The page's Content-Security-Policy: nothing but its own inline style and script. */
export function contentSecurityPolicy(): string {
  return CSP;
}

// ---------------------------------------------------------------------------------------------
// The page

const KIND_LABEL: Readonly<Record<ResultKind, string>> = {
  interference: 'interference',
  clearance: 'clearance',
  undecided: 'undecided',
  contact: 'contact',
  ignored: 'ignored',
};

/** How finely the pair was decided: "±0.0011 mm", refined or not, or "as given" (STL). */
function resolutionText(r: ReportResult): string {
  if (r.kind === 'ignored') return '—';
  if (r.resolutionMm === null) return 'as given';
  const res = `±${formatNumber(r.resolutionMm)} mm`;
  return r.refinedDeflectionMm !== null ? `${res}, refined to ${formatNumber(r.refinedDeflectionMm)} mm` : res;
}

function badge(kind: ResultKind, text: string, extraClass = ''): string {
  return `<span class="badge k-${kind}${extraClass}">${text}</span>`;
}

/** A numeric cell: the formatted text, and the exact value for sorting ('' sorts last). */
function numCell(n: number | null, text: string, title?: string): string {
  const t = title !== undefined ? ` title="${escapeHtml(title)}"` : '';
  return `<td class="num" data-v="${n === null ? '' : String(n)}"${t}>${escapeHtml(text)}</td>`;
}

function partCell(id: string, names: ReadonlyMap<string, string>): string {
  const name = names.get(id);
  const inner = name !== undefined && name !== '' && name !== id
    ? `<span class="name">${escapeHtml(name)}</span> <span class="id">${escapeHtml(id)}</span>`
    : `<span class="name">${escapeHtml(id)}</span>`;
  return `<td data-v="${escapeHtml(name || id)}">${inner}</td>`;
}

/** A sortable column header; `numeric` sorts by the cells' data-v numbers and aligns right. */
function th(label: string, numeric: boolean, extra = ''): string {
  return `<th scope="col"${numeric ? ' class="num" data-type="num"' : ''}${extra}><button type="button">${label}</button></th>`;
}

const STATUS_LABEL: Readonly<Record<ResultStatus, string>> = { new: 'New', active: 'Active', resolved: 'Resolved', ignored: 'Ignored' };
const STATUS_RANK: Readonly<Record<ResultStatus, number>> = { new: 0, active: 1, resolved: 2, ignored: 3 };

/** The result's id, sortable by its number. */
function idCell(id: string, rank: number): string {
  return `<td class="num" data-v="${rank}">${escapeHtml(id)}</td>`;
}

function statusCell(status: ResultStatus | null): string {
  if (status === null) return '<td data-v="">—</td>';
  return `<td data-v="${STATUS_RANK[status]}" class="st-${status}">${STATUS_LABEL[status]}</td>`;
}

/** A point as a printed cell (sorted by its x). */
function pointCell(p: readonly number[] | null): string {
  return p === null ? '<td data-v="">—</td>' : `<td data-v="${String(p[0])}"><span class="point">${escapeHtml(pointText(p))}</span></td>`;
}

function closestCell(points: readonly [readonly number[], readonly number[]] | null): string {
  if (points === null) return '<td data-v="">—</td>';
  return `<td data-v="${String(points[0][0])}"><span class="point">${escapeHtml(pointText(points[0]))}</span><br><span class="point">${escapeHtml(pointText(points[1]))}</span></td>`;
}

function resultRow(r: ReportResult, names: ReadonlyMap<string, string>, idRank: number): string {
  const rank = KIND_ORDER.indexOf(r.kind);
  const reason = r.reason !== null && r.reason !== '' ? `<div class="reason">${escapeHtml(r.reason)}</div>` : '';
  const geometric = r.kind === 'ignored' && r.geometricKind !== 'ignored' && r.geometricKind !== 'clear'
    ? `<div class="reason">geometry: ${escapeHtml(r.geometricKind)}</div>` : '';
  const undecided = r.kind === 'undecided' && r.possibleKinds !== null && r.separationRangeMm !== null
    ? `<div class="reason">${escapeHtml(r.possibleKinds.join(' or '))}: separation ${formatNumber(r.separationRangeMm[0])} … ${formatNumber(r.separationRangeMm[1])} mm</div>` : '';
  const coincident = r.coincident !== undefined ? `<div class="reason">${escapeHtml(coincidentText(r.coincident, 10))}</div>` : '';
  const containedText = r.contained
    ? (r.containedPart !== null ? `yes: ${names.get(r.containedPart) || r.containedPart} inside` : 'yes')
    : 'no';
  return [
    `<tr id="${escapeHtml(r.id)}">`,
    idCell(r.id, idRank),
    `<td data-v="${rank}">${badge(r.kind, KIND_LABEL[r.kind])}${reason}${geometric}${undecided}${coincident}</td>`,
    statusCell(r.status),
    partCell(r.a, names),
    partCell(r.b, names),
    numCell(r.volumeMm3, withUnit(r.volumeMm3, 'mm³')),
    pointCell(r.centroidMm),
    numCell(r.depthMm, withUnit(r.depthMm, 'mm')),
    numCell(r.distanceMm, withUnit(r.distanceMm, 'mm')),
    closestCell(r.closestPointsMm),
    numCell(r.trianglePairs.length, formatCount(r.trianglePairs.length)),
    `<td data-v="${r.contained ? 'yes' : 'no'}">${escapeHtml(containedText)}</td>`,
    numCell(r.toleranceMm, withUnit(r.toleranceMm, 'mm')),
    numCell(r.resolutionMm, resolutionText(r)),
    '</tr>',
  ].join('');
}

function partRow(p: ReportPart): string {
  const m = p.transform;
  let translation = '<td class="num" data-v="">—</td>';
  let rotation = '<td data-v="">—</td>';
  if (m !== null) {
    const t = translationOf(m);
    const r = rotationAnglesOf(m);
    const atFile = isIdentityTransform(m) ? ' (as in its file)' : '';
    translation = `<td class="num" data-v="${String(t[0])}"><span class="point">${escapeHtml(t.map((x) => formatNumber(x, 6)).join(', '))}</span>${escapeHtml(atFile)}</td>`;
    rotation = `<td data-v="${String(r[0])}"><span class="point">${escapeHtml(r.map((x) => formatNumber(x, 6)).join(', '))}</span></td>`;
  }
  const name = p.displayName !== '' ? p.displayName : p.id;
  return [
    '<tr>',
    `<td>${escapeHtml(p.id)}</td>`,
    `<td data-v="${escapeHtml(name)}"><span class="name">${escapeHtml(name)}</span></td>`,
    `<td class="source">${escapeHtml(p.source)}</td>`,
    numCell(p.body, String(p.body)),
    numCell(p.triangles, p.triangles === null ? '—' : formatCount(p.triangles)),
    `<td>${p.closed === null ? '—' : p.closed ? 'yes' : 'no'}</td>`,
    translation,
    rotation,
    '</tr>',
  ].join('');
}

function resolvedSection(report: InterferenceReport, names: ReadonlyMap<string, string>): string {
  const rows = report.resolved.map((r) => `<tr>${idCell(r.id, 0)}<td class="st-resolved">Resolved</td>${partCell(r.a, names)}${partCell(r.b, names)}</tr>\n`);
  return [
    '<section aria-labelledby="h-resolved">\n<h2 id="h-resolved">Resolved</h2>\n',
    '<p class="sub">Findings of the review before this check that this check found clear.</p>\n',
    '<div class="table-wrap"><table class="resolved" aria-labelledby="h-resolved">\n<thead><tr>',
    '<th scope="col" class="num">No.</th><th scope="col">Status</th><th scope="col">Part A</th><th scope="col">Part B</th>',
    '</tr></thead>\n<tbody>\n', ...rows, '</tbody>\n</table></div>\n</section>\n',
  ].join('');
}

function byteCount(n: number): string {
  return `${formatCount(n)} bytes`;
}

function inputsSection(inputs: readonly ReportInput[]): string {
  const rows = inputs.map((f) => [
    '<tr>',
    `<td>${f.role === 'assembly' ? 'checked file' : `source ${escapeHtml(f.sourceId ?? '')}`}</td>`,
    `<td class="source">${escapeHtml(f.path)}</td>`,
    numCell(f.sizeBytes, byteCount(f.sizeBytes)),
    `<td><time datetime="${escapeHtml(f.modifiedAt)}">${escapeHtml(f.modifiedAt.replace('T', ' ').replace(/Z$/, ' UTC'))}</time></td>`,
    `<td class="hash">${escapeHtml(f.sha256)}</td>`,
    '</tr>\n',
  ].join(''));
  return [
    '<section aria-labelledby="h-inputs">\n<h2 id="h-inputs">Input files</h2>\n',
    '<p class="sub">Every file the check read, as it was read: compare a file\'s SHA-256 with <code>sha256sum FILE</code> to know it is the one checked.</p>\n',
    '<div class="table-wrap"><table class="inputs" aria-labelledby="h-inputs">\n<thead><tr>',
    '<th scope="col">Role</th><th scope="col">Path</th><th scope="col" class="num">Size</th><th scope="col">Modified</th><th scope="col">SHA-256</th>',
    '</tr></thead>\n<tbody>\n', ...rows, '</tbody>\n</table></div>\n</section>\n',
  ].join('');
}

function summaryBadges(report: InterferenceReport): string {
  const s = report.summary;
  const items: [ResultKind, number, string, string][] = [
    ['interference', s.interferences, 'interference', 'interferences'],
    ['undecided', s.undecided, 'undecided pair', 'undecided pairs'],
    ['clearance', s.clearanceViolations, 'clearance violation', 'clearance violations'],
    ['contact', s.contacts, 'contact', 'contacts'],
    ['ignored', s.ignored, 'ignored pair', 'ignored pairs'],
  ];
  return `<ul class="badges">${items
    .map(([kind, n, one, many]) => `<li>${badge(kind, `<span class="n">${formatCount(n)}</span> ${n === 1 ? one : many}`, n === 0 ? ' zero' : '')}</li>`)
    .join('')}</ul>`;
}

/** The Pictures section: one figure per picture, most severe first, with what it shows in words. */
function picturesSection(report: InterferenceReport, pictures: ReadonlyMap<number, string>, names: ReadonlyMap<string, string>): string {
  const out: string[] = [
    '<section aria-labelledby="h-pictures">\n<h2 id="h-pictures">Pictures</h2>\n',
    '<p>Each pair where the parts meet, isometric and along the axis the contact is thinnest in. Part A blue, part B olive, ',
    'the crossing triangles red; the black line is where the surfaces cross (the outline of the overlap), a dashed line the overlap solid\'s silhouette where it was computed, the ring its centroid; ',
    'for a clearance violation, the orange line joins the closest points.</p>\n',
  ];
  const found = report.results.filter((r) => r.kind === 'interference' || r.kind === 'clearance').length;
  if (found > pictures.size) out.push(`<p>${formatCount(pictures.size)} of ${formatCount(found)} interferences and clearance violations are pictured.</p>\n`);
  const ordered = [...pictures.keys()].filter((i) => report.results[i] !== undefined)
    .sort((p, q) => KIND_ORDER.indexOf(report.results[p]!.kind) - KIND_ORDER.indexOf(report.results[q]!.kind) || p - q);
  for (const i of ordered) {
    const r = report.results[i]!;
    const name = (id: string): string => {
      const n = names.get(id);
      return n !== undefined && n !== '' && n !== id
        ? `<span class="name">${escapeHtml(n)}</span> <span class="id">${escapeHtml(id)}</span>`
        : `<span class="name">${escapeHtml(id)}</span>`;
    };
    const figures = r.kind === 'clearance'
      ? `min distance ${withUnit(r.distanceMm, 'mm')}`
      : [r.volumeMm3 !== null ? `volume ${withUnit(r.volumeMm3, 'mm³')}` : '', r.depthMm !== null ? `depth ${withUnit(r.depthMm, 'mm')}` : '',
        `${formatCount(r.trianglePairs.length)} triangle pairs`].filter((t) => t !== '').join(', ');
    out.push(
      `<figure id="picture-${i + 1}">\n${pictures.get(i)}\n`,
      `<figcaption>${badge(r.kind, KIND_LABEL[r.kind])} ${name(r.a)} (A) and ${name(r.b)} (B): ${escapeHtml(figures)}</figcaption>\n</figure>\n`,
    );
  }
  out.push('</section>\n');
  return out.join('');
}

/** The report as one self-contained HTML page (see the module comment). Linear in the results. */
export function reportToHtml(report: InterferenceReport, options: HtmlOptions = {}): string {
  const names = new Map(report.parts.map((p) => [p.id, p.displayName] as const));
  const idRanks = new Map([...report.results.map((r) => r.id), ...report.resolved.map((r) => r.id)].sort(compareResultIds).map((id, i) => [id, i] as const));
  const title = options.title ?? report.title ?? report.assembly;
  const generator = options.generator ?? report.generator ?? { name: 'Interfere' };
  const appText = generator.version ? `${generator.name} ${generator.version}` : generator.name;
  const s = report.summary;
  const st = report.settings;
  const failed = s.interferences > 0 || s.clearanceViolations > 0 || report.results.some((r) => r.kind === 'interference' || r.kind === 'clearance');
  const undecidedOnly = !failed && s.undecided > 0;

  // Most severe first, the report's order within a kind.
  const ordered = report.results
    .map((r, i) => ({ r, i, rank: KIND_ORDER.indexOf(r.kind) }))
    .sort((p, q) => p.rank - q.rank || p.i - q.i);

  const out: string[] = [];
  out.push(
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}">\n`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
    `<meta name="generator" content="${escapeHtml(appText)}">\n`,
    `<title>Interference report: ${escapeHtml(title)}</title>\n`,
    `<style>${STYLE}</style>\n</head>\n<body>\n`,
  );

  out.push(
    '<header>\n',
    `<h1>Interference report: ${escapeHtml(title)}</h1>\n`,
    `<div class="sub">Assembly <span class="source">${escapeHtml(report.assembly)}</span> · `,
    `${formatCount(s.parts)} ${s.parts === 1 ? 'part' : 'parts'} · ${formatCount(s.triangles)} triangles · checked in ${escapeHtml(formatDuration(s.elapsedMs))}</div>\n`,
    failed
      ? '<div class="status fail">Fail: interference or clearance violation found (exit status 1)</div>\n'
      : undecidedOnly
        ? '<div class="status fail">Undecided: the tessellation could not tell whether some pairs interfere (exit status 1 unless undecided pairs are allowed)</div>\n'
        : '<div class="status pass">Pass: no interference (exit status 0)</div>\n',
    '</header>\n',
  );

  out.push('<section aria-labelledby="h-summary">\n<h2 id="h-summary">Summary</h2>\n', summaryBadges(report), '\n');
  if (s.contained > 0) {
    out.push(`<p>${formatCount(s.contained)} of the results ${s.contained === 1 ? 'is a part' : 'are parts'} wholly inside another part.</p>\n`);
  }
  if (s.refinedPairs > 0 && s.finestDeflectionMm !== null) {
    out.push(`<p>${formatCount(s.refinedPairs)} ${s.refinedPairs === 1 ? 'pair was' : 'pairs were'} checked again on bodies re-tessellated finer, down to ${formatNumber(s.finestDeflectionMm)} mm.</p>\n`);
  }
  out.push('</section>\n');

  out.push(
    '<section aria-labelledby="h-settings">\n<h2 id="h-settings">Settings</h2>\n<dl class="settings">\n',
    `<dt>Touch tolerance</dt><dd>${formatNumber(st.touchToleranceMm)} mm (${st.touchToleranceAuto ? 'the default' : 'as set'}): surfaces closer than this are contact; CAD solids that overlap are interference at any depth, meshes given as such (STL) that overlap by less than this are contact</dd>\n`,
    `<dt>Clearance</dt><dd>${st.clearanceMm > 0 ? `${formatNumber(st.clearanceMm)} mm: pairs closer than this are clearance violations` : 'off (0 mm)'}</dd>\n`,
    `<dt>Contact counts as interference</dt><dd>${st.contactIsInterference ? 'yes' : 'no'}</dd>\n`,
    `<dt>Software</dt><dd>${escapeHtml(appText)}</dd>\n`,
    '</dl>\n</section>\n',
  );

  if (report.warnings.length > 0) {
    out.push('<section aria-labelledby="h-warnings">\n<h2 id="h-warnings">Warnings</h2>\n<ul class="warnings">\n');
    for (const w of report.warnings) out.push(`<li>${escapeHtml(w)}</li>\n`);
    out.push('</ul>\n</section>\n');
  }

  out.push(
    '<section aria-labelledby="h-results">\n<h2 id="h-results">Results</h2>\n',
    '<div class="table-wrap"><table class="sortable results" aria-labelledby="h-results">\n<thead><tr>',
    // Sorted by severity rank (data-v), left-aligned like text.
    th('No.', true),
    th('Kind', false, ' data-type="num" aria-sort="ascending"'),
    th('Status', false, ' data-type="num"'),
    th('Part A', false),
    th('Part B', false),
    th('Volume (mm³)', true),
    th('Centroid (mm)', true),
    th('Depth (mm)', true),
    th('Min distance (mm)', true),
    th('Closest points (mm)', true),
    th('Triangle pairs', true),
    th('Contained', false),
    th('Tolerance (mm)', true),
    th('Resolution', true),
    '</tr></thead>\n<tbody>\n',
  );
  for (const { r } of ordered) out.push(resultRow(r, names, idRanks.get(r.id) ?? 0), '\n');
  if (ordered.length === 0) {
    out.push('<tr><td class="empty" colspan="14">No pair interferes, touches or violates the clearance.</td></tr>\n');
  }
  out.push('</tbody>\n</table></div>\n</section>\n');
  if (report.resolved.length > 0) out.push(resolvedSection(report, names));

  out.push(
    '<section aria-labelledby="h-parts">\n<h2 id="h-parts">Parts</h2>\n',
    '<div class="table-wrap"><table class="sortable parts" aria-labelledby="h-parts">\n<thead><tr>',
    th('Id', false),
    th('Name', false),
    th('Source', false),
    th('Body', true),
    th('Triangles', true),
    th('Closed solid', false),
    th('Translation (mm)', true),
    th('Rotation X, Y, Z (°)', false),
    '</tr></thead>\n<tbody>\n',
  );
  for (const p of report.parts) out.push(partRow(p), '\n');
  if (report.parts.length === 0) out.push('<tr><td class="empty" colspan="8">The report lists no parts.</td></tr>\n');
  out.push(
    '</tbody>\n</table></div>\n',
    '<p class="sub">Placement: the translation is the last column of the part\'s transform; the rotation is about the fixed X, Y and Z axes through the origin of the part\'s file, X first. The JSON report has each whole 4×4 matrix.</p>\n',
    '</section>\n',
  );
  if (report.inputs.length > 0) out.push(inputsSection(report.inputs));
  if (options.pictures !== undefined && options.pictures.size > 0) out.push(picturesSection(report, options.pictures, names));

  out.push(
    `<footer>Generated <time datetime="${escapeHtml(report.generatedAt)}">${escapeHtml(report.generatedAt.replace('T', ' ').replace(/Z$/, ' UTC'))}</time>`,
    ` by ${escapeHtml(appText)} · report format interfere-report v${report.version}</footer>\n`,
    `<script>${SCRIPT}</script>\n</body>\n</html>\n`,
  );
  return out.join('');
}
