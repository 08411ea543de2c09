import { useMemo } from 'react';
import type { Box3 } from 'three';
import { geometryRegistry, useApp } from '../appStore';
import { isPartVisible } from '../state/selectors';
import { partsBounds } from './sceneMath';

/** World bounds of the visible parts (all parts when none is visible); recomputed on change. */
export function useSceneBounds(): Box3 {
  const doc = useApp((s) => s.doc);
  const version = useApp((s) => s.geometry.version);
  const visibility = useApp((s) => s.visibility);
  return useMemo(() => {
    const parts = doc?.parts ?? [];
    const shown = parts.filter((p) => isPartVisible({ visibility }, p));
    return partsBounds(shown.length > 0 ? shown : parts, (k) => geometryRegistry.get(k)?.bounds);
    // `version`: bodies arrived in the registry.
  }, [doc, version, visibility]);
}
