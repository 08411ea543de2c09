// Result records, the statistics the runner reports (FNV-1a fingerprint, median, geomean) and the
// human-readable table.

import type { ExactCounts, PeerScenario, PeersFile } from './scenarios';

/** One JSON line of output: one strategy on one scenario. Field names follow bench/README.md's runner protocol. */
export interface BenchRecord {
  impl: string;
  variant: string;
  version: string;
  scenario: string;
  query: 'all' | 'any';
  triangles: [number, number];
  poses: number;
  reps: number;
  build_ms: number;
  query_ms: number;
  build_ms_all: number[];
  query_ms_all: number[];
  contacts: number;
  per_pose: number[];
  per_pose_hash: string;
  per_pose_ms: number[];
  peak_rss_mb: number;
  model_bytes: number;
  model_bytes_per_tri: number;
  model_bytes_note: string;
  /** Over all poses of one run; null when the implementation does not count them. */
  box_tests: number | null;
  tri_tests: number | null;
  /** Agreement with the exact reference counts (sampled poses only under --pose-stride); null if there are none. */
  exact_contacts_ok: boolean | null;
  /** Native runners: false when the reps (or the counting pass) disagreed on a pose's count. */
  reps_consistent?: boolean;
}

/** What the table needs to know about a scenario beyond the records. */
export interface ScenarioSummary {
  name: string;
  query: 'all' | 'any';
  timing: boolean;
  poses: number;
  triangles: [number, number];
  /** Indices (into the scenario's full pose list) of the poses that were run. */
  poseIndices: number[];
}

/** Where the exact counts and the peers' figures of a run come from. */
export interface BenchSources {
  /** Exact per-pose counts by scenario name. */
  exact: ReadonlyMap<string, ExactCounts>;
  /** Where they come from, for the table ('bench/reference.json', '…/peers.json'). */
  exactSource: string;
  /** Why a scenario has no applicable exact counts (changed meshes or poses), by name. */
  exactProblems: ReadonlyMap<string, string>;
  /** Peers' figures by scenario name of this run. */
  peers: ReadonlyMap<string, PeerScenario>;
  peersFile: PeersFile | null;
  /** Where the peers' figures come from, for the table. */
  peersSource: string;
  /** True when the peers were measured on the original scenario set, not on these meshes. */
  peersElsewhere: boolean;
}

// ---------------------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------------------

/** FNV-1a 32-bit hash of a string's UTF-8 bytes, as 8 lower-case hex digits. */
export function fnv1a32(text: string): string {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The README's per-pose fingerprint: FNV-1a of the counts written in decimal and joined by ','. */
export function perPoseHash(counts: readonly number[]): string {
  return fnv1a32(counts.join(','));
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Geometric mean of positive values; NaN for an empty list. */
export function geomean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const v of values) sum += Math.log(v);
  return Math.exp(sum / values.length);
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

// ---------------------------------------------------------------------------------------------
// Table
// ---------------------------------------------------------------------------------------------

const TMB = 'three-mesh-bvh';
/** The runner every query time is related to when it was run: FCL with OBBRSS trees, measured in the same run. */
export const FCL_REF = 'fcl/obbrss';
/** Peers whose 'all' test is tolerance-based (floating point with a margin) rather than exact. */
const TOLERANT = [TMB, 'fcl'];
/** peers.json entries quoted beside our figures, in this order. */
const QUOTED_PEERS = ['RAPID-2.01', 'PQP-1.3', 'fcl/obb', 'fcl/obbrss'];
const RAPID = 'RAPID-2.01';

/** `impl` of the engine's own strategies. */
export const ENGINE_IMPL = 'interfere';

/** Name used on the command line and in the table: 'obb' for the engine, 'three-mesh-bvh/sah' for peers. */
export function strategyName(s: { impl: string; variant: string }): string {
  return s.impl === ENGINE_IMPL ? s.variant : `${s.impl}/${s.variant}`;
}
const nameOf = strategyName;

function int(n: number | null): string {
  return n === null ? '–' : Math.round(n).toLocaleString('en-US');
}

function ms(n: number): string {
  if (!Number.isFinite(n)) return '–';
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
}

function ratio(n: number): string {
  if (!Number.isFinite(n)) return '–';
  return n >= 10 ? `${n.toFixed(1)}×` : n >= 0.1 ? `${n.toFixed(2)}×` : `${n.toPrecision(2)}×`;
}

function check(ok: boolean | null): string {
  return ok === null ? '?' : ok ? '✓' : '✗';
}

/** Plain text table: first column left-aligned, the rest right-aligned. */
export function renderTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, c) => Math.max([...h].length, ...rows.map((r) => [...(r[c] ?? '')].length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, c) => {
        const pad = ' '.repeat(widths[c] - [...cell].length);
        return c === 0 ? cell + pad : pad + cell;
      })
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The fastest three-mesh-bvh record (by query time) of a scenario, if any was run. */
function tmbReference(records: readonly BenchRecord[]): BenchRecord | undefined {
  let best: BenchRecord | undefined;
  for (const r of records) if (r.impl === TMB && (!best || r.query_ms < best.query_ms)) best = r;
  return best;
}

/** Poses (as indices into the full list) whose counts differ from the exact reference. */
export function mismatches(r: BenchRecord, s: ScenarioSummary, exact: ExactCounts | undefined): string[] {
  if (!exact) return [];
  const out: string[] = [];
  r.per_pose.forEach((count, j) => {
    const k = s.poseIndices[j];
    const want = exact.perPose[k];
    if (count !== want) out.push(`pose ${k}: ${count} (exact ${want})`);
  });
  return out;
}

/**
 * The human report: a table per scenario, a line saying whether every strategy's counts equal the
 * exact reference, the peers' figures beside it, and geomeans over the timed scenarios. Ratios
 * are to FCL OBBRSS (when it was run) and to the fastest three-mesh-bvh variant (by query time) of
 * the same scenario in this run; the peers' figures are compared through the same three-mesh-bvh
 * variant as measured with them, and RAPID's query time is estimated through FCL OBBRSS when it was
 * run here (else through that three-mesh-bvh variant), so that the two runs meet on common ground.
 */
export function renderReport(records: readonly BenchRecord[], scenarios: readonly ScenarioSummary[], sources: BenchSources): string {
  const out: string[] = [];
  const peers = sources.peersFile;
  const where = sources.peersElsewhere
    ? `${sources.peersSource}: measured on the original scenario set, whose meshes are of the same kinds as these but not the same`
    : `${sources.peersSource}: measured on these meshes in another run`;
  const strategyOrder: string[] = [];
  for (const r of records) if (!strategyOrder.includes(nameOf(r))) strategyOrder.push(nameOf(r));

  // Per strategy over timed scenarios: query and build ratio to three-mesh-bvh, and the
  // estimated ratio to RAPID.
  const qRatios = new Map<string, number[]>();
  const bRatios = new Map<string, number[]>();
  const rapidEstimates = new Map<string, number[]>();
  const peerRatios = new Map<string, number[]>();
  const qFclRatios = new Map<string, number[]>();
  const bFclRatios = new Map<string, number[]>();
  /** Timed scenarios each strategy was run on. */
  const counted = new Map<string, number>();
  let anyFcl = false;
  const rapidBridges = new Set<string>();
  const timedNames: string[] = [];
  const push = (m: Map<string, number[]>, key: string, v: number): void => {
    if (!Number.isFinite(v) || v <= 0) return;
    const list = m.get(key);
    if (list) list.push(v);
    else m.set(key, [v]);
  };

  for (const s of scenarios) {
    const rs = records.filter((r) => r.scenario === s.name);
    if (rs.length === 0) continue;
    const exact = sources.exact.get(s.name);
    const peer = sources.peers.get(s.name);
    const sampled = s.poseIndices.length !== s.poses;
    const exactText = exact
      ? sampled
        ? `exact contacts on these poses ${int(s.poseIndices.reduce((a, k) => a + (exact.perPose[k] ?? 0), 0))}`
        : `exact contacts ${int(exact.exactContacts)}`
      : 'no exact reference';
    out.push('');
    out.push(
      `== ${s.name}  (${s.query} · ${s.poseIndices.length}${sampled ? ` of ${s.poses}` : ''} poses · ` +
        `${int(s.triangles[0])} × ${int(s.triangles[1])} triangles · ${exactText}` +
        `${s.timing ? '' : ' · semantics probe: counts only'}) ==`,
    );
    const ref = s.timing ? tmbReference(rs) : undefined;
    const fcl = s.timing ? rs.find((r) => nameOf(r) === FCL_REF) : undefined;
    if (fcl) anyFcl = true;
    const header = s.timing
      ? ['strategy', 'build ms', 'query ms', 'contacts', 'box tests', 'tri tests', 'B/tri',
        ...(fcl ? ['query ×fcl', 'build ×fcl'] : []), 'query ×tmb', 'build ×tmb']
      : ['strategy', 'contacts', 'box tests', 'tri tests', 'B/tri'];
    const rows: string[][] = [];
    const notes: string[] = [];
    for (const r of rs) {
      const name = nameOf(r);
      let contacts = `${int(r.contacts)} ${check(r.exact_contacts_ok)}`;
      const samePeer = sources.peersElsewhere ? undefined : peer?.peers[name];
      if (samePeer && !sampled) contacts += samePeer.contacts === r.contacts ? ' (=peers.json)' : ` (peers.json ${int(samePeer.contacts)})`;
      const common = [int(r.box_tests), int(r.tri_tests), r.model_bytes_per_tri.toFixed(1)];
      if (s.timing) {
        const q = ref ? r.query_ms / ref.query_ms : Number.NaN;
        const b = ref ? r.build_ms / ref.build_ms : Number.NaN;
        const qf = fcl ? r.query_ms / fcl.query_ms : Number.NaN;
        const bf = fcl ? r.build_ms / fcl.build_ms : Number.NaN;
        rows.push([name, ms(r.build_ms), ms(r.query_ms), contacts, ...common, ...(fcl ? [ratio(qf), ratio(bf)] : []), ratio(q), ratio(b)]);
        push(qRatios, name, q);
        push(bRatios, name, b);
        push(qFclRatios, name, qf);
        push(bFclRatios, name, bf);
        counted.set(name, (counted.get(name) ?? 0) + 1);
      } else {
        rows.push([name, contacts, ...common]);
      }
      if (r.exact_contacts_ok === false) {
        const bad = mismatches(r, s, exact);
        const detail = `${bad.slice(0, 6).join('; ')}${bad.length > 6 ? `; … ${bad.length} poses` : ''}`;
        if (r.impl === ENGINE_IMPL) notes.push(`  FAIL: ${name} counts differ from ${sources.exactSource}: ${detail}`);
        else if (TOLERANT.includes(r.impl) && !s.timing) notes.push(`  ${name} differs (a tolerance-based test; expected on this probe): ${detail}`);
        else notes.push(`  MISMATCH: ${name} counts differ from ${sources.exactSource}: ${detail}`);
      }
    }
    out.push(renderTable(header, rows));
    const problem = sources.exactProblems.get(s.name);
    if (problem) out.push(`  FAIL: ${sources.exactSource} does not apply: ${problem}`);
    else if (!exact) out.push(`  counts not checked: ${sources.exactSource} has no counts for ${s.name}`);
    else if (rs.every((r) => r.exact_contacts_ok === true)) {
      out.push(`  counts ✓ every strategy equals ${sources.exactSource} on ${sampled ? `the ${s.poseIndices.length} poses run` : `all ${s.poses} poses (hash ${exact.perPoseHash})`}`);
    }
    out.push(...notes);
    if (!s.timing) continue;
    timedNames.push(s.name);

    // The peers' figures, through the same three-mesh-bvh variant as our reference.
    const refName = ref ? nameOf(ref) : undefined;
    const refThere = refName ? peer?.peers[refName] : undefined;
    if (peer) {
      const parts = QUOTED_PEERS.filter((p) => peer.peers[p]).map((p) => {
        const fig = peer.peers[p];
        const rel = refThere ? ` (${ratio(fig.query_ms / refThere.query_ms)})` : '';
        if (refThere) push(peerRatios, p, fig.query_ms / refThere.query_ms);
        return `${p} ${ms(fig.query_ms)} ms${rel}`;
      });
      if (parts.length > 0) {
        const named = peer.name !== s.name ? `; there named ${peer.name}` : '';
        out.push(
          `  peers, for reference (${where}${named}${sampled ? `; over all ${peer.poses} poses` : ''}; ` +
            `query ms${refThere ? ` and ratio to ${refName} there` : ''}):`,
        );
        out.push(`    ${parts.join(' · ')}`);
      }
      // RAPID's query time estimated through a runner measured both there and here: FCL OBBRSS
      // when it ran (native against native), else the fastest three-mesh-bvh variant.
      const rapid = peer.peers[RAPID];
      const fclThere = peer.peers[FCL_REF];
      const bridge = fcl && fclThere ? { here: fcl, there: fclThere, name: FCL_REF } : ref && refThere && refName ? { here: ref, there: refThere, name: refName } : null;
      if (bridge && rapid) {
        rapidBridges.add(bridge.name === FCL_REF ? FCL_REF : TMB);
        const rapidRatio = rapid.query_ms / bridge.there.query_ms;
        for (const r of rs) {
          if (r.impl !== ENGINE_IMPL) continue;
          const here = r.query_ms / bridge.here.query_ms;
          const est = here / rapidRatio;
          push(rapidEstimates, nameOf(r), est);
          out.push(
            `    ${nameOf(r)}: ${ratio(here)} ${bridge.name} here vs ${RAPID} ${ratio(rapidRatio)} ${bridge.name} there ` +
              `→ about ${ratio(est)} ${RAPID}'s query time`,
          );
        }
      }
    }
  }

  if (timedNames.length > 0) {
    out.push('');
    out.push(`== geomean over ${timedNames.length} timed scenario(s): ${timedNames.join(', ')} ==`);
    out.push(
      `   ratios to ${anyFcl ? `${FCL_REF} (×fcl) and to ` : ''}the fastest three-mesh-bvh variant (×tmb) of each scenario in this run` +
        `${rapidBridges.size > 0 ? `; ${RAPID} estimated through ${[...rapidBridges].join(' or ')} measured both here and in ${sources.peersSource}` : ''}` +
        '; n = timed scenarios run',
    );
    const rows: string[][] = [];
    for (const name of strategyOrder) {
      const q = qRatios.get(name) ?? [];
      const b = bRatios.get(name) ?? [];
      const qf = qFclRatios.get(name) ?? [];
      const bf = bFclRatios.get(name) ?? [];
      const est = rapidEstimates.get(name) ?? [];
      const n = counted.get(name) ?? 0;
      if (n === 0) continue;
      const g = (list: number[]): string => (list.length ? ratio(geomean(list)) : '–');
      rows.push([name, ...(anyFcl ? [g(qf), g(bf)] : []), g(q), g(b), g(est), String(n)]);
    }
    if (rows.length > 0 && (anyFcl || qRatios.size > 0)) {
      out.push(
        renderTable(
          ['strategy', ...(anyFcl ? [`query ×${FCL_REF}`, `build ×${FCL_REF}`] : []), 'query ×tmb', 'build ×tmb', `query × ${RAPID} (est.)`, 'n'],
          rows,
        ),
      );
    } else {
      out.push(`   (neither ${FCL_REF} nor a three-mesh-bvh variant was run, so there is nothing to take ratios to)`);
    }
    const peerParts = QUOTED_PEERS.filter((p) => peerRatios.has(p)).map((p) => {
      const list = peerRatios.get(p) ?? [];
      return `${p} ${ratio(geomean(list))} (n=${list.length})`;
    });
    if (peerParts.length > 0) {
      out.push(`  peers, for reference (${where}; query time ratio to the same three-mesh-bvh variants there):`);
      out.push(`    ${peerParts.join(' · ')}`);
    }
    const published = peers?.geomean_query_ratio_to_fcl_obbrss;
    if (published) {
      const parts = [...QUOTED_PEERS, `${TMB}/default`, `${TMB}/sah`, `${TMB}/leaf1`]
        .filter((p) => published[p] !== undefined)
        .map((p) => `${p} ${ratio(published[p])}`);
      out.push(`  ${sources.peersSource}'s own geomean over all its timed scenarios, query ratio to fcl/obbrss: ${parts.join(' · ')}`);
    }
    if (anyFcl) out.push('', renderFclMatrix(records, scenarios.filter((s) => timedNames.includes(s.name)), strategyOrder));
  }
  return out.join('\n');
}

/**
 * The closing summary when FCL OBBRSS ran: per timed scenario, every strategy's query ms and its
 * ratio to fcl/obbrss's in the same run; then the geomeans of the query and build ratios.
 */
export function renderFclMatrix(records: readonly BenchRecord[], scenarios: readonly ScenarioSummary[], order: readonly string[]): string {
  const q = new Map<string, number[]>();
  const b = new Map<string, number[]>();
  const add = (m: Map<string, number[]>, k: string, v: number): void => {
    if (!Number.isFinite(v) || v <= 0) return;
    m.set(k, [...(m.get(k) ?? []), v]);
  };
  const rows: string[][] = [];
  for (const s of scenarios) {
    const rs = records.filter((r) => r.scenario === s.name);
    const fcl = rs.find((r) => nameOf(r) === FCL_REF);
    const sampled = s.poseIndices.length !== s.poses ? ` (${s.poseIndices.length}/${s.poses})` : '';
    rows.push([
      `${s.name}${sampled}`,
      ...order.map((name) => {
        const r = rs.find((x) => nameOf(x) === name);
        if (!r) return '–';
        const qr = fcl ? r.query_ms / fcl.query_ms : Number.NaN;
        add(q, name, qr);
        add(b, name, fcl ? r.build_ms / fcl.build_ms : Number.NaN);
        return `${ms(r.query_ms)} (${ratio(qr)})${r.exact_contacts_ok === false ? ' ✗' : ''}`;
      }),
    ]);
  }
  rows.push(['geomean query ×fcl/obbrss', ...order.map((name) => ratio(geomean(q.get(name) ?? [])))]);
  rows.push(['geomean build ×fcl/obbrss', ...order.map((name) => ratio(geomean(b.get(name) ?? [])))]);
  return [
    `== query ms (ratio to ${FCL_REF} in this run), per timed scenario; ✗: counts differ from the reference ==`,
    renderTable(['scenario', ...order], rows),
  ].join('\n');
}
