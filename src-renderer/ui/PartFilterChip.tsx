/**
 * The results table's part filter, set by clicking a part the overview marked: a chip naming the
 * part, with × to clear it.
 */
import { useApp } from '../appStore';

export function PartFilterChip() {
  const part = useApp((s) => s.resultFilter.part ?? null);
  const name = useApp((s) => (part ? (s.partNames.get(part) ?? part) : ''));
  const setResultFilter = useApp((s) => s.setResultFilter);
  if (!part) return null;
  return (
    <span className="filter-chip" data-testid="part-filter-chip" title="Only the results of this part (clicked in the view)">
      Part: {name}
      <button type="button" aria-label={`Show the results of every part, not only ${name}`} onClick={() => setResultFilter({ part: null })} data-testid="part-filter-clear">
        ×
      </button>
    </span>
  );
}
