/**
 * The transform gizmo on the selected part (one part selected, a mode chosen: W move, E rotate),
 * at the part's centre, along the world axes, with the snapping steps of the placement panel.
 *
 * The gizmo moves a stand-in object; each move places the part's group directly (partGroups)
 * and hands the placement to the store's drag (the live check), which answers where to show the
 * part — at the last clear placement when it is stopped at contact. Nothing goes through React
 * per pointer move; when the drag ends the placement is kept as one undoable step.
 */
import { TransformControls } from '@react-three/drei';
import { useThree } from '@react-three/fiber';
import { useCallback, useLayoutEffect, useMemo, useRef, type ComponentRef } from 'react';
import { Matrix4, Object3D, Vector3 } from 'three';
import { appStore, geometryRegistry, useApp } from '../appStore';
import type { Transform } from '../state/placement';
import { isPartVisible } from '../state/selectors';
import { partGroups } from './partGroups';
import { partMatrix } from './sceneMath';

const DEG = Math.PI / 180;

/** Whether the pointer is over a gizmo handle (a click there is not a click into empty space). */
let handleHovered: () => boolean = () => false;
export function gizmoHandleHovered(): boolean {
  return handleHovered();
}

/** A three matrix as the host's row-major transform (the last row exactly 0 0 0 1). */
export function rowMajor(m: Matrix4): number[] {
  const e = m.elements;
  return [e[0], e[4], e[8], e[12], e[1], e[5], e[9], e[13], e[2], e[6], e[10], e[14], 0, 0, 0, 1];
}

function placeGroup(partId: string, t: Transform, scratch: Matrix4): void {
  const g = partGroups.get(partId);
  if (!g) return;
  g.matrix.copy(partMatrix(t, scratch));
  g.matrixWorldNeedsUpdate = true;
}

export function PartGizmo() {
  const mode = useApp((s) => s.gizmoMode);
  const part = useApp((s) => (s.selectedParts.length === 1 ? (s.doc?.parts.find((p) => p.id === s.selectedParts[0]) ?? null) : null));
  const visible = useApp((s) => (part ? isPartVisible(s, part) : false));
  const snapMm = useApp((s) => s.snapMm);
  const snapDeg = useApp((s) => s.snapDeg);
  const version = useApp((s) => s.geometry.version);
  const shown = useApp((s) => (part && s.drag?.partId === part.id ? s.drag.shown : null));
  const dragging = shown !== null;
  const invalidate = useThree((s) => s.invalidate);
  const proxy = useMemo(() => new Object3D(), []);
  const scratch = useMemo(() => ({ m: new Matrix4(), proxyInverse: new Matrix4(), start: new Matrix4(), centre: new Vector3() }), []);
  const controls = useRef<ComponentRef<typeof TransformControls>>(null);

  useLayoutEffect(() => {
    // `axis` names the handle under the pointer (three-stdlib keeps it private in its types).
    handleHovered = () => (controls.current as unknown as { axis?: string | null } | null)?.axis != null;
    return () => {
      handleHovered = () => false;
    };
  }, []);

  // Between drags the gizmo sits at the part's centre, turned like the part.
  useLayoutEffect(() => {
    if (!part || dragging) return;
    const box = geometryRegistry.get(part.bodyKey)?.bounds;
    const m = partMatrix(part.transform, scratch.m);
    if (box && !box.isEmpty()) box.getCenter(scratch.centre);
    else scratch.centre.set(0, 0, 0);
    proxy.position.copy(scratch.centre.applyMatrix4(m));
    proxy.quaternion.setFromRotationMatrix(m);
    proxy.updateMatrixWorld();
    invalidate();
  }, [part, dragging, version, proxy, scratch, invalidate]);

  // Where the store says to show the dragged part (the live check may hold it at contact).
  useLayoutEffect(() => {
    if (!part || !shown) return;
    placeGroup(part.id, shown, scratch.m);
    invalidate();
  }, [part, shown, scratch, invalidate]);

  const onMouseDown = useCallback(() => {
    if (!part) return;
    proxy.updateMatrix();
    scratch.proxyInverse.copy(proxy.matrix).invert();
    partMatrix(part.transform, scratch.start);
    appStore.getState().beginDrag(part.id);
  }, [part, proxy, scratch]);

  const onObjectChange = useCallback(() => {
    if (!part || appStore.getState().drag?.partId !== part.id) return;
    proxy.updateMatrix();
    // The part moves as the stand-in does: P · P₀⁻¹ · T₀.
    scratch.m.multiplyMatrices(proxy.matrix, scratch.proxyInverse).multiply(scratch.start);
    const show = appStore.getState().dragTo(rowMajor(scratch.m));
    placeGroup(part.id, show, scratch.m);
    invalidate();
  }, [part, proxy, scratch, invalidate]);

  const onMouseUp = useCallback(() => {
    if (!part || appStore.getState().drag?.partId !== part.id) return;
    const name = appStore.getState().partNames.get(part.id) ?? part.id;
    void appStore.getState().endDrag(`${mode === 'rotate' ? 'Rotate' : 'Move'} ${name}`);
  }, [part, mode]);

  if (!mode || !part || !visible) return null;
  return (
    <>
      <primitive object={proxy} />
      <TransformControls
        ref={controls}
        object={proxy}
        mode={mode}
        space="world"
        size={0.85}
        translationSnap={snapMm}
        rotationSnap={snapDeg !== null ? snapDeg * DEG : null}
        onMouseDown={onMouseDown}
        onObjectChange={onObjectChange}
        onMouseUp={onMouseUp}
      />
    </>
  );
}
