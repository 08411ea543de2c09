/**
 * The boxes the traversal view visited, down to the chosen depth: one line geometry for all of
 * them (see traceBoxes.ts), blue where the pair of boxes was pruned, orange where the traversal
 * descended or tested the triangles of two leaves. Drawn over the parts (they sit inside them).
 */
import { useThree } from '@react-three/fiber';
import { useEffect, useLayoutEffect, useMemo } from 'react';
import { BufferAttribute, BufferGeometry, Color } from 'three';
import { useApp } from '../appStore';
import { BOX_DESCENDED, BOX_PRUNED } from './palette';
import { boxLines, indexCountToDepth } from './traceBoxes';

function rgb(hex: string): [number, number, number] {
  const c = new Color(hex);
  return [c.r, c.g, c.b];
}

export function TraceBoxes() {
  const data = useApp((s) => (s.traceOn && s.traceBoxes && s.trace?.status === 'ready' ? s.trace.data : null));
  const depth = useApp((s) => s.traceDepth);
  const hidden = useApp((s) => s.drag !== null);
  const invalidate = useThree((s) => s.invalidate);
  const built = useMemo(() => {
    if (!data || data.boxes.length === 0) return null;
    const lines = boxLines(data.boxes, { pruned: rgb(BOX_PRUNED), descended: rgb(BOX_DESCENDED) });
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(lines.positions, 3));
    geometry.setAttribute('color', new BufferAttribute(lines.colors, 3));
    geometry.setIndex(new BufferAttribute(lines.indices, 1));
    geometry.computeBoundingSphere();
    return { geometry, lines };
  }, [data]);
  useEffect(() => () => built?.geometry.dispose(), [built]);
  useLayoutEffect(() => {
    if (built) built.geometry.setDrawRange(0, indexCountToDepth(built.lines, depth));
    invalidate();
  }, [built, depth, invalidate]);
  if (!built || hidden) return null;
  return (
    <lineSegments geometry={built.geometry} renderOrder={6} raycast={noRaycast} frustumCulled={false}>
      <lineBasicMaterial vertexColors transparent opacity={0.6} depthTest={false} depthWrite={false} toneMapped={false} />
    </lineSegments>
  );
}

function noRaycast(): void {
  // Boxes are not picked.
}
