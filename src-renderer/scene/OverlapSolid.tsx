/**
 * The interference volume of the selected result (the host's overlap solid, world millimetres):
 * a faint red fill and its edges, drawn over the parts — the volume lies inside both of them.
 * Hidden while a part is dragged or the live check's findings are shown (it would be stale).
 */
import { useThree } from '@react-three/fiber';
import { useEffect, useLayoutEffect, useMemo } from 'react';
import { BufferAttribute, BufferGeometry, DoubleSide, EdgesGeometry } from 'three';
import { useApp } from '../appStore';
import { OVERLAP_EDGE, OVERLAP_FILL } from './palette';

/** Edges between faces meeting at more than this angle (degrees) are drawn. */
const EDGE_ANGLE_DEG = 25;

export function OverlapSolid() {
  const solid = useApp((s) => (s.showOverlap && s.overlap?.status === 'ready' && s.drag === null && s.live === null ? s.overlap.solid : null));
  const invalidate = useThree((s) => s.invalidate);
  const built = useMemo(() => {
    if (!solid || solid.indices.length === 0) return null;
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(solid.positions, 3));
    geometry.setIndex(new BufferAttribute(solid.indices, 1));
    geometry.computeBoundingSphere();
    return { geometry, edges: new EdgesGeometry(geometry, EDGE_ANGLE_DEG) };
  }, [solid]);
  useEffect(
    () => () => {
      built?.geometry.dispose();
      built?.edges.dispose();
    },
    [built],
  );
  useLayoutEffect(() => {
    invalidate();
  }, [built, invalidate]);
  if (!built) return null;
  return (
    <group name="interference-volume">
      <mesh geometry={built.geometry} renderOrder={7} raycast={noRaycast}>
        <meshBasicMaterial color={OVERLAP_FILL} side={DoubleSide} transparent opacity={0.2} depthTest={false} depthWrite={false} toneMapped={false} />
      </mesh>
      <lineSegments geometry={built.edges} renderOrder={8} raycast={noRaycast}>
        <lineBasicMaterial color={OVERLAP_EDGE} transparent opacity={0.95} depthTest={false} depthWrite={false} toneMapped={false} />
      </lineSegments>
    </group>
  );
}

function noRaycast(): void {
  // The volume is not picked: the parts around it are.
}
