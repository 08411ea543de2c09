/**
 * The interference volume of the selected result (the host's overlap solid, world millimetres):
 * a translucent red solid with thick dark-red edges, drawn over the parts — the volume lies inside
 * both of them. In the section view it is cut by the plane like the parts and its cut face is
 * capped in bright red over the parts' caps. Hidden while a part is dragged or the live check's
 * findings are shown (it would be stale).
 */
import { useThree } from '@react-three/fiber';
import { useEffect, useLayoutEffect, useMemo } from 'react';
import type { Mesh, MeshBasicMaterial } from 'three';
import { useApp } from '../appStore';
import { resultKey } from '../state/results';
import { selectedResultMemo } from '../state/marks';
import { buildOverlapObjects, overlapObjects } from './resultObjects';
import { capGeometry, capMatrix, noPlanes, OVERLAP_STENCIL_ORDER, sectionListeners, sectionPlanes, stencilBack, stencilFront } from './section';

export function OverlapSolid() {
  const solid = useApp((s) => (s.showOverlap && s.overlap?.status === 'ready' && s.drag === null && s.live === null ? s.overlap.solid : null));
  const result = useApp(selectedResultMemo);
  const sectionOn = useApp((s) => s.section.on);
  const size = useThree((s) => s.size);
  const invalidate = useThree((s) => s.invalidate);
  // Built once per result of a check and solid (resultObjects.ts), kept when another row is
  // selected; the cache disposes them. `result` is a new object after each check.
  const built = useMemo(() => {
    if (!solid || solid.indices.length === 0 || !result) return null;
    return overlapObjects.get(resultKey(result), solid, () => buildOverlapObjects(solid));
  }, [solid, result]);
  // Objects replaced by others for the same result (new placements) are no longer drawn.
  useEffect(() => overlapObjects.sweep(), [built]);
  useLayoutEffect(() => {
    if (built) {
      built.edgeMaterial.resolution.set(size.width, size.height);
      built.edgeMaterial.clippingPlanes = sectionOn ? sectionPlanes : noPlanes;
      built.fill.clippingPlanes = sectionOn ? sectionPlanes : noPlanes;
      // Cut, the volume shows as its red cap: the rest of it stays behind the plane.
      built.fill.depthTest = sectionOn;
      built.edgeMaterial.depthTest = sectionOn;
    }
    invalidate();
  }, [built, size, sectionOn, invalidate]);
  if (!built) return null;
  return (
    <group name="interference-volume">
      <mesh geometry={built.geometry} material={built.fill} renderOrder={7} raycast={noRaycast} />
      <primitive object={built.lines} />
      {sectionOn && (
        <>
          <mesh geometry={built.geometry} material={stencilBack} renderOrder={OVERLAP_STENCIL_ORDER} raycast={noRaycast} />
          <mesh geometry={built.geometry} material={stencilFront} renderOrder={OVERLAP_STENCIL_ORDER} raycast={noRaycast} />
          <OverlapCap material={built.cap} invalidate={invalidate} />
        </>
      )}
    </group>
  );
}

function OverlapCap({ material, invalidate }: { material: MeshBasicMaterial; invalidate: () => void }) {
  const holder = useMemo(() => ({ mesh: null as Mesh | null }), []);
  useLayoutEffect(() => {
    const place = () => {
      if (holder.mesh) capMatrix(holder.mesh.matrixWorld);
      invalidate();
    };
    place();
    sectionListeners.add(place);
    return () => {
      sectionListeners.delete(place);
    };
  }, [holder, invalidate]);
  return (
    <mesh
      ref={(m) => {
        holder.mesh = m;
        if (m) capMatrix(m.matrixWorld);
      }}
      geometry={capGeometry}
      material={material}
      renderOrder={OVERLAP_STENCIL_ORDER + 1}
      matrixAutoUpdate={false}
      matrixWorldAutoUpdate={false}
      frustumCulled={false}
      raycast={noRaycast}
    />
  );
}

function noRaycast(): void {
  // The volume is not picked: the parts around it are.
}
