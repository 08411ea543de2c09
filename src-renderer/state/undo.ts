/**
 * The undo history of placement changes: each entry holds the placements of the parts it moved
 * before and after, so undoing and redoing are plain placement updates sent to the host. A new
 * change clears what could be redone; the oldest entries go past `UNDO_LIMIT`.
 */
import { sameTransform, type Transform } from './placement';

export const UNDO_LIMIT = 200;

export interface PlacementChange {
  /** For people: "Move bolt<1>", "Rotate plate". */
  readonly label: string;
  /** Part id → transform before and after. */
  readonly before: Readonly<Record<string, Transform>>;
  readonly after: Readonly<Record<string, Transform>>;
}

export interface UndoHistory {
  /** Oldest first. */
  readonly past: readonly PlacementChange[];
  /** The next redo last. */
  readonly future: readonly PlacementChange[];
}

export const EMPTY_HISTORY: UndoHistory = Object.freeze({ past: [], future: [] });

/** Whether a change moves anything. */
export function changesSomething(change: PlacementChange): boolean {
  for (const [id, after] of Object.entries(change.after)) {
    const before = change.before[id];
    if (!before || !sameTransform(before, after, 0)) return true;
  }
  return false;
}

/** The history after a change is made (unchanged when the change moves nothing). */
export function recordChange(history: UndoHistory, change: PlacementChange, limit = UNDO_LIMIT): UndoHistory {
  if (!changesSomething(change)) return history;
  const past = [...history.past, change];
  return { past: past.length > limit ? past.slice(past.length - limit) : past, future: [] };
}

/** The change to undo and the history after undoing it, or null when there is nothing to undo. */
export function undoStep(history: UndoHistory): { change: PlacementChange; history: UndoHistory } | null {
  const change = history.past.at(-1);
  if (!change) return null;
  return { change, history: { past: history.past.slice(0, -1), future: [...history.future, change] } };
}

/** The change to redo and the history after redoing it, or null when there is nothing to redo. */
export function redoStep(history: UndoHistory): { change: PlacementChange; history: UndoHistory } | null {
  const change = history.future.at(-1);
  if (!change) return null;
  return { change, history: { past: [...history.past, change], future: history.future.slice(0, -1) } };
}
