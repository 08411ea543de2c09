/**
 * The line over the view while a part is dragged: what the live check found where the part is
 * shown — an interference (how deep), a contact (touching, or how near within the touch
 * tolerance), where it stopped, or the nearest part — naming the parts, worst first.
 */
import { formatMeasure } from './format';
import type { LivePair } from './liveCheck';
import type { LiveState } from './types';

export type LiveTone = 'clear' | 'contact' | 'interference' | 'stopped';

export interface LiveSummary {
  readonly tone: LiveTone;
  readonly text: string;
}

export type LiveKind = 'interference' | 'contact' | 'near';

/** A pair as the line tells it: crossing deeper than the touch tolerance, in contact, or only near. */
export function liveKind(p: LivePair, touchMm: number): LiveKind {
  if (p.trianglePairs.length > 0) return p.depthMm !== null && p.depthMm <= touchMm ? 'contact' : 'interference';
  return p.distanceMm !== null && p.distanceMm <= touchMm ? 'contact' : 'near';
}

function mm(v: number): string {
  return `${formatMeasure(v)} mm`;
}

/** "plate-10 0.42 mm deep" / "nut-6 touching" / "nut-6 at 0.004 mm". */
function pairText(p: LivePair, kind: LiveKind, label: (id: string) => string): string {
  const name = label(p.other);
  if (kind === 'interference') return p.depthMm !== null ? `${name} ${mm(p.depthMm)} deep` : `${name} (crossing)`;
  if (p.trianglePairs.length > 0 || p.distanceMm === null) return `${name} touching`;
  return `${name} at ${mm(p.distanceMm)}`;
}

export function liveSummary(live: LiveState, touchMm: number, label: (id: string) => string): LiveSummary {
  const kinds = live.pairs.map((p) => ({ p, kind: liveKind(p, touchMm) }));
  const interfering = kinds.filter((k) => k.kind === 'interference').sort((x, y) => (y.p.depthMm ?? Infinity) - (x.p.depthMm ?? Infinity) || x.p.other.localeCompare(y.p.other));
  const stopped = new Set(live.stoppedBy);
  const touching = kinds
    .filter((k) => k.kind === 'contact' && !stopped.has(k.p.other))
    .sort((x, y) => (x.p.distanceMm ?? 0) - (y.p.distanceMm ?? 0) || x.p.other.localeCompare(y.p.other));
  const parts: string[] = [];
  let tone: LiveTone;
  if (live.stoppedBy.length > 0) {
    const at = live.stoppedBy.map((id) => {
      const p = live.pairs.find((q) => q.other === id);
      return p ? pairText(p, liveKind(p, touchMm) === 'interference' ? 'interference' : 'contact', label) : label(id);
    });
    parts.push(`Stopped at contact with ${at.join(', ')}`);
    tone = 'stopped';
  } else {
    tone = interfering.length > 0 ? 'interference' : touching.length > 0 ? 'contact' : 'clear';
  }
  if (interfering.length > 0) parts.push(`Interference with ${interfering.map((k) => pairText(k.p, k.kind, label)).join(', ')}`);
  if (touching.length > 0) parts.push(`Contact with ${touching.map((k) => pairText(k.p, k.kind, label)).join(', ')}`);
  if (parts.length === 0) {
    const near = kinds.filter((k) => k.kind === 'near' && k.p.distanceMm !== null).sort((x, y) => (x.p.distanceMm ?? 0) - (y.p.distanceMm ?? 0));
    parts.push(near.length > 0 ? `Clear · nearest ${label(near[0].p.other)} at ${mm(near[0].p.distanceMm ?? 0)}` : `Clear of every part within ${mm(live.withinMm)}`);
  }
  return { tone, text: parts.join(' · ') };
}
