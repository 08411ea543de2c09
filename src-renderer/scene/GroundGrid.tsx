/** A ground grid under the model (Z up), its step a round number of millimetres. */
import { useEffect, useMemo } from 'react';
import { GridHelper } from 'three';
import { GRID_MAJOR, GRID_MINOR } from './palette';
import { gridFor } from './sceneMath';
import { useSceneBounds } from './useSceneBounds';

export function GroundGrid() {
  const bounds = useSceneBounds();
  const grid = useMemo(() => gridFor(bounds), [bounds]);
  const helper = useMemo(() => {
    const h = new GridHelper(grid.size, grid.divisions, GRID_MAJOR, GRID_MINOR);
    // GridHelper lies in the XZ plane; the model is Z-up.
    h.rotation.x = Math.PI / 2;
    h.position.copy(grid.center);
    const materials = Array.isArray(h.material) ? h.material : [h.material];
    for (const m of materials) {
      m.transparent = true;
      m.opacity = 0.7;
      m.depthWrite = false;
    }
    h.raycast = () => {};
    return h;
  }, [grid]);
  useEffect(
    () => () => {
      disposeGrid(helper);
    },
    [helper],
  );
  if (bounds.isEmpty()) return null;
  return <primitive object={helper} />;
}

function disposeGrid(helper: GridHelper): void {
  helper.geometry.dispose();
  const materials = Array.isArray(helper.material) ? helper.material : [helper.material];
  for (const m of materials) m.dispose();
}
