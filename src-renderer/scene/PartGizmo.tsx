/**
 * The transform gizmo on the selected part (one part selected, a mode chosen: W move, E rotate),
 * at the part's centre, along the world axes, with the snapping steps of the placement panel.
 *
 * The gizmo moves a stand-in object; each move hands the placement to the store's drag (the live
 * check), which answers where to show the part — short of the contact when it stops there. The
 * part's group (partGroups) and the stand-in are both put where the part is shown, so the part,
 * the gizmo and the Placement fields agree at every moment (the gizmo keeps measuring the pointer
 * from where the drag began, so holding it back does not lose the pointer). When the drag ends the
 * placement is kept as one undoable step.
 */
import { TransformControls } from '@react-three/drei';
import { useThree } from '@react-three/fiber';
import { useCallback, useLayoutEffect, useMemo, useRef, type ComponentRef } from 'react';
import { flushSync } from 'react-dom';
import { Matrix4, Object3D, Vector3 } from 'three';
import { appStore, geometryRegistry, useApp } from '../appStore';
import type { Transform } from '../state/placement';
import { isPartVisible } from '../state/selectors';
import { partGroups } from './partGroups';
import { partMatrix } from './sceneMath';
import { testHook } from './testHook';

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
  const scratch = useMemo(
    () => ({ m: new Matrix4(), proxyInverse: new Matrix4(), proxyStart: new Matrix4(), start: new Matrix4(), startInverse: new Matrix4(), centre: new Vector3(), scale: new Vector3() }),
    [],
  );
  const controls = useRef<ComponentRef<typeof TransformControls>>(null);

  useLayoutEffect(() => {
    // `axis` names the handle under the pointer (three-stdlib keeps it private in its types).
    const axis = () => (controls.current as unknown as { axis?: string | null } | null)?.axis ?? null;
    handleHovered = () => axis() !== null;
    testHook().gizmo = () => (controls.current ? { axis: axis(), position: [proxy.position.x, proxy.position.y, proxy.position.z] } : null);
    return () => {
      handleHovered = () => false;
      testHook().gizmo = () => null;
    };
  }, [proxy]);

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

  /** The part and the stand-in where the part is shown: the stand-in at S · T₀⁻¹ · P₀. */
  const showAt = useCallback(
    (partId: string, t: Transform) => {
      placeGroup(partId, t, scratch.m);
      partMatrix(t, scratch.m).multiply(scratch.startInverse).multiply(scratch.proxyStart);
      scratch.m.decompose(proxy.position, proxy.quaternion, scratch.scale);
      proxy.updateMatrixWorld();
      invalidate();
    },
    [proxy, scratch, invalidate],
  );

  // Where the store says to show the dragged part (the live check may hold it at contact).
  useLayoutEffect(() => {
    if (!part || !shown) return;
    showAt(part.id, shown);
  }, [part, shown, showAt]);

  const onMouseDown = useCallback(() => {
    if (!part) return;
    proxy.updateMatrix();
    scratch.proxyStart.copy(proxy.matrix);
    scratch.proxyInverse.copy(proxy.matrix).invert();
    partMatrix(part.transform, scratch.start);
    scratch.startInverse.copy(scratch.start).invert();
    appStore.getState().beginDrag(part.id);
  }, [part, proxy, scratch]);

  const onObjectChange = useCallback(() => {
    if (!part || appStore.getState().drag?.partId !== part.id) return;
    proxy.updateMatrix();
    // The part moves as the stand-in does: P · P₀⁻¹ · T₀.
    scratch.m.multiplyMatrices(proxy.matrix, scratch.proxyInverse).multiply(scratch.start);
    // The Placement fields render in this event, not in a later task: on a busy machine React's
    // scheduled render could trail the part, which moves now, by several pointer moves.
    flushSync(() => showAt(part.id, appStore.getState().dragTo(rowMajor(scratch.m))));
  }, [part, proxy, scratch, showAt]);

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
