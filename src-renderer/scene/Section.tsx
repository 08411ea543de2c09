/**
 * The section view: places the cut plane (through the selected finding by default, its normal
 * along the finding's smallest extent, a world axis or the view direction, turned so that the
 * camera's side is cut away), moves it by the offset, and draws the caps: one quad on the plane
 * per closed part, filled where the stencil passes (scene/section.ts) found the plane inside it.
 */
import { useThree } from '@react-three/fiber';
import { useEffect, useLayoutEffect, useMemo } from 'react';
import { Box3, DoubleSide, type Mesh, MeshLambertMaterial, Sphere, Vector3 } from 'three';
import { appStore, geometryRegistry, useApp } from '../appStore';
import { partLook } from '../state/marks';
import { isPartVisible, selectedResultOf } from '../state/selectors';
import type { AppState } from '../state/types';
import { partBaseColor } from './PartMeshes';
import { resultCurves } from './resultCurves';
import { partsBounds } from './sceneMath';
import { capGeometry, capMatrix, makeCapMaterial, sectionFrame, sectionListeners, sectionMoved, sectionPlane, stencilOrder } from './section';
import { testHook } from './testHook';

const bodyBounds = (k: string) => geometryRegistry.get(k)?.bounds;

/** Where the plane was placed (before the offset and the flip). */
const base = { origin: new Vector3(), normal: new Vector3(0, 0, 1) };

/** The box of what a selected result shows: its overlap solid, else its curves, else its closest points. */
export function findingBox(s: AppState): Box3 | null {
  const result = selectedResultOf(s);
  if (!result || !s.doc) return null;
  const box = new Box3();
  const solid = s.overlap?.status === 'ready' ? s.overlap.solid : null;
  if (solid && solid.positions.length > 0) {
    const p = solid.positions;
    const v = new Vector3();
    for (let i = 0; i + 2 < p.length; i += 3) box.expandByPoint(v.set(p[i], p[i + 1], p[i + 2]));
    return box;
  }
  const curves = resultCurves(result, s.doc.parts, s.geometry.version);
  if (curves?.bounds) {
    const b = curves.bounds;
    return box.set(new Vector3(b[0], b[1], b[2]), new Vector3(b[3], b[4], b[5]));
  }
  if (result.closestPointsMm) {
    for (const p of result.closestPointsMm) box.expandByPoint(new Vector3(p[0], p[1], p[2]));
    return box;
  }
  return null;
}

function applyPlane(s: AppState): void {
  const n = base.normal.clone();
  if (s.section.flip) n.negate();
  const point = base.origin.clone().addScaledVector(base.normal, s.section.offsetMm);
  sectionPlane.setFromNormalAndCoplanarPoint(n, point);
  sectionFrame.origin.copy(point);
  sectionMoved();
}

function placePlane(s: AppState, cameraPosition: Vector3, viewDir: Vector3): void {
  const doc = s.doc;
  if (!doc) return;
  const scene = partsBounds(doc.parts, bodyBounds);
  const radius = scene.isEmpty() ? 100 : scene.getBoundingSphere(new Sphere()).radius;
  const finding = findingBox(s);
  const result = selectedResultOf(s);
  const selectedBox = partsBounds(doc.parts.filter((p) => s.selectedParts.includes(p.id)), bodyBounds);
  const origin = result?.centroidMm
    ? new Vector3(...result.centroidMm)
    : finding && !finding.isEmpty()
      ? finding.getCenter(new Vector3())
      : !selectedBox.isEmpty()
        ? selectedBox.getCenter(new Vector3())
        : scene.isEmpty()
          ? new Vector3()
          : scene.getCenter(new Vector3());
  const normal = new Vector3();
  const axis = s.section.axis;
  if (axis === 'x') normal.set(1, 0, 0);
  else if (axis === 'y') normal.set(0, 1, 0);
  else if (axis === 'z') normal.set(0, 0, 1);
  else if (axis === 'auto' && finding && !finding.isEmpty()) {
    const size = finding.getSize(new Vector3());
    const k = size.x <= size.y && size.x <= size.z ? 0 : size.y <= size.z ? 1 : 2;
    normal.setComponent(k, 1);
  } else normal.copy(viewDir).negate();
  // The camera's side is cut away: the normal points away from the camera.
  if (normal.dot(cameraPosition.clone().sub(origin)) > 0) normal.negate();
  base.origin.copy(origin);
  base.normal.copy(normal.normalize());
  sectionFrame.size = radius * 6;
  const range = Math.max(1, Math.ceil(radius));
  if (s.section.rangeMm !== range || s.section.offsetMm !== 0) s.setSection({ rangeMm: range, offsetMm: 0 });
}

export function Section() {
  const on = useApp((s) => s.section.on);
  const seq = useApp((s) => s.section.seq);
  const axis = useApp((s) => s.section.axis);
  const flip = useApp((s) => s.section.flip);
  const offset = useApp((s) => s.section.offsetMm);
  const resultKey = useApp((s) => s.selectedResult);
  const camera = useThree((s) => s.camera);
  const invalidate = useThree((s) => s.invalidate);

  // Placed when turned on, on another axis, another selected result.
  useLayoutEffect(() => {
    if (!on) return;
    placePlane(appStore.getState(), camera.position.clone(), camera.getWorldDirection(new Vector3()));
    applyPlane(appStore.getState());
    invalidate();
    // `camera` is read at placement only.
  }, [on, seq, axis, resultKey, invalidate]);

  useLayoutEffect(() => {
    if (!on) return;
    applyPlane(appStore.getState());
    invalidate();
  }, [on, flip, offset, invalidate]);

  useEffect(() => {
    testHook().section = () => {
      const s = appStore.getState().section;
      if (!s.on) return null;
      const n = sectionPlane.normal;
      return { normal: [n.x, n.y, n.z], constant: sectionPlane.constant, offsetMm: s.offsetMm, origin: [base.origin.x, base.origin.y, base.origin.z] };
    };
  }, []);

  if (!on) return null;
  return <SectionCaps />;
}

/** One cap per visible closed part, in its colour; a ghost's cap only resets the stencil. */
function SectionCaps() {
  const doc = useApp((s) => s.doc);
  const visibility = useApp((s) => s.visibility);
  const invalidate = useThree((s) => s.invalidate);
  if (!doc) return null;
  return (
    <group name="section-caps">
      {doc.parts.map((part, index) =>
        part.closed && isPartVisible({ visibility }, part) && geometryRegistry.get(part.bodyKey) ? <Cap key={part.id} partId={part.id} color={partBaseColor(part, index)} order={stencilOrder(index) + 1} invalidate={invalidate} /> : null,
      )}
    </group>
  );
}

function Cap({ partId, color, order, invalidate }: { partId: string; color: string; order: number; invalidate: () => void }) {
  const material = useMemo(() => makeCapMaterial(new MeshLambertMaterial({ color, side: DoubleSide })), [color]);
  const mesh = useMemo(() => {
    return { ref: null as Mesh | null };
  }, []);
  useEffect(() => () => material.dispose(), [material]);
  useLayoutEffect(() => {
    const place = () => {
      const m = mesh.ref;
      if (!m) return;
      capMatrix(m.matrixWorld);
      invalidate();
    };
    const look = () => {
      const s = appStore.getState();
      const l = partLook(s, partId);
      const shown = l.role !== 'ghost' && l.role !== 'hidden';
      // A ghost's cap still runs, unseen, to reset the stencil its part counted.
      if (material.colorWrite !== shown) {
        material.colorWrite = shown;
        material.depthWrite = shown;
        invalidate();
      }
      if (mesh.ref) mesh.ref.visible = l.role !== 'hidden';
    };
    place();
    look();
    sectionListeners.add(place);
    const unsubscribe = appStore.subscribe(look);
    return () => {
      sectionListeners.delete(place);
      unsubscribe();
    };
  }, [mesh, material, partId, invalidate]);
  return (
    <mesh
      ref={(m) => {
        mesh.ref = m;
        if (m) capMatrix(m.matrixWorld);
      }}
      geometry={capGeometry}
      material={material}
      renderOrder={order}
      matrixAutoUpdate={false}
      matrixWorldAutoUpdate={false}
      frustumCulled={false}
      raycast={noRaycast}
    />
  );
}

function noRaycast(): void {
  // Caps are not picked.
}
