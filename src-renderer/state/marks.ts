/**
 * The overview after a check: every part the last check found in a finding, with its worst kind
 * (interference, then undecided, clearance violation, contact; ignored pairs do not count), and
 * how each part is drawn at a moment (scene/PartMeshes.tsx applies it to the part's materials).
 */
import type { CheckOutcome, PairResultInfo } from '../../src-main/contract/host';
import { selectedResultOf } from './selectors';
import type { AppState } from './types';

export type MarkKind = 'interference' | 'undecided' | 'clearance' | 'contact';

const SEVERITY: Record<MarkKind, number> = { interference: 0, undecided: 1, clearance: 2, contact: 3 };

let memo: { outcome: CheckOutcome | null; marks: ReadonlyMap<string, MarkKind> } = { outcome: null, marks: new Map() };

/** Worst kind by part id, for an outcome (computed once per outcome). */
export function partMarks(outcome: CheckOutcome | null): ReadonlyMap<string, MarkKind> {
  if (memo.outcome === outcome) return memo.marks;
  const marks = new Map<string, MarkKind>();
  for (const r of outcome?.results ?? []) {
    if (r.kind === 'ignored' || r.status === 'ignored') continue;
    const kind = r.kind as MarkKind;
    for (const id of [r.a, r.b]) {
      const had = marks.get(id);
      if (had === undefined || SEVERITY[kind] < SEVERITY[had]) marks.set(id, kind);
    }
  }
  memo = { outcome, marks };
  return marks;
}

let resultMemo: { outcome: CheckOutcome | null; key: string | null; result: PairResultInfo | null } = { outcome: null, key: null, result: null };

/** The selected result, looked up once per outcome and selection (every part's look asks for it). */
export function selectedResultMemo(s: Pick<AppState, 'check' | 'selectedResult'>): PairResultInfo | null {
  if (resultMemo.outcome !== s.check.outcome || resultMemo.key !== s.selectedResult) {
    resultMemo = { outcome: s.check.outcome, key: s.selectedResult, result: selectedResultOf(s) };
  }
  return resultMemo.result;
}

export type PartRole = 'normal' | 'involvedA' | 'involvedB' | 'ghost' | 'hidden';

/** How a part is drawn: its role in the selected result, its overview mark, selection and hover. */
export interface PartLook {
  readonly role: PartRole;
  /** The overview's mark (only while no result is selected and nothing is dragged). */
  readonly mark: MarkKind | null;
  readonly selected: boolean;
  readonly hovered: boolean;
}

/** The look of part `id` in state `s`. */
export function partLook(s: Pick<AppState, 'check' | 'selectedResult' | 'selectedParts' | 'hoveredPart' | 'othersWhenResult' | 'drag' | 'live'>, id: string, result: PairResultInfo | null = selectedResultMemo(s)): PartLook {
  const role: PartRole = result === null ? 'normal' : id === result.a ? 'involvedA' : id === result.b ? 'involvedB' : s.othersWhenResult === 'hidden' ? 'hidden' : 'ghost';
  const overview = result === null && s.drag === null && s.live === null;
  return {
    role,
    mark: overview ? (partMarks(s.check.outcome).get(id) ?? null) : null,
    selected: s.selectedParts.includes(id),
    hovered: s.hoveredPart === id,
  };
}

export function sameLook(a: PartLook | null, b: PartLook): boolean {
  return a !== null && a.role === b.role && a.mark === b.mark && a.selected === b.selected && a.hovered === b.hovered;
}
