/**
 * The interference volume of the selected result (the host's overlap solid, world millimetres):
 * a translucent red solid with thick dark-red edges, drawn over the parts — the volume lies inside
 * both of them. In the section view it is cut by the plane like the parts and its cut face is
 * capped in bright red over the parts' caps. Hidden while a part is dragged or the live check's
 * findings are shown (it would be stale).
 */
import { useThree } from '@react-three/fiber';
import { useEffect, useLayoutEffect, useMemo } from 'react';
import { BufferAttribute, BufferGeometry, DoubleSide, EdgesGeometry, type Mesh, MeshBasicMaterial } from 'three';
import { LineMaterial } from 'three/examples/jsm/lines/LineMaterial.js';
import { LineSegments2 } from 'three/examples/jsm/lines/LineSegments2.js';
import { LineSegmentsGeometry } from 'three/examples/jsm/lines/LineSegmentsGeometry.js';
import { useApp } from '../appStore';
import { OVERLAP_CAP, OVERLAP_EDGE, OVERLAP_FILL } from './palette';
import { capGeometry, capMatrix, makeCapMaterial, noPlanes, OVERLAP_STENCIL_ORDER, sectionListeners, sectionPlanes, stencilBack, stencilFront } from './section';

/** Edges between faces meeting at more than this angle (degrees) are drawn. */
const EDGE_ANGLE_DEG = 25;
const EDGE_WIDTH_PX = 2.5;

export function OverlapSolid() {
  const solid = useApp((s) => (s.showOverlap && s.overlap?.status === 'ready' && s.drag === null && s.live === null ? s.overlap.solid : null));
  const sectionOn = useApp((s) => s.section.on);
  const size = useThree((s) => s.size);
  const invalidate = useThree((s) => s.invalidate);
  const built = useMemo(() => {
    if (!solid || solid.indices.length === 0) return null;
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(solid.positions, 3));
    geometry.setIndex(new BufferAttribute(solid.indices, 1));
    geometry.computeBoundingSphere();
    const edges = new EdgesGeometry(geometry, EDGE_ANGLE_DEG);
    const lineGeometry = new LineSegmentsGeometry().fromEdgesGeometry(edges);
    edges.dispose();
    const edgeMaterial = new LineMaterial({ color: OVERLAP_EDGE, linewidth: EDGE_WIDTH_PX, transparent: true, opacity: 0.95, depthTest: false, depthWrite: false, toneMapped: false });
    const lines = new LineSegments2(lineGeometry, edgeMaterial);
    lines.renderOrder = 8;
    lines.raycast = noRaycast;
    const fill = new MeshBasicMaterial({ color: OVERLAP_FILL, side: DoubleSide, transparent: true, opacity: 0.55, depthTest: false, depthWrite: false, toneMapped: false });
    const cap = makeCapMaterial(new MeshBasicMaterial({ color: OVERLAP_CAP, side: DoubleSide, toneMapped: false }));
    return { geometry, lines, lineGeometry, edgeMaterial, fill, cap };
  }, [solid]);
  useEffect(
    () => () => {
      if (!built) return;
      built.geometry.dispose();
      built.lineGeometry.dispose();
      built.edgeMaterial.dispose();
      built.fill.dispose();
      built.cap.dispose();
    },
    [built],
  );
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
