/**
 * The view cube in the viewport's corner: it turns with the camera, and a click on a face, an
 * edge or a corner looks at the model from that side (framed like the standard views). The model
 * is Z-up, so the faces are named for it: +Y is the back (the front view looks along +Y).
 */
import { GizmoHelper, GizmoViewcube } from '@react-three/drei';
import type { ThreeEvent } from '@react-three/fiber';
import { useCallback } from 'react';
import { Vector3 } from 'three';
import { useApp } from '../appStore';

/** Labels of the +X, −X, +Y, −Y, +Z, −Z faces. */
const FACES = ['Right', 'Left', 'Back', 'Front', 'Top', 'Bottom'];

const direction = new Vector3();

export function ViewCube() {
  const requestCamera = useApp((s) => s.requestCamera);
  const onClick = useCallback(
    (e: ThreeEvent<MouseEvent>): null => {
      e.stopPropagation();
      // A face: its normal; an edge or a corner: its place on the cube (both in world axes).
      if (e.face && e.object.position.lengthSq() === 0) direction.copy(e.face.normal);
      else direction.copy(e.object.position);
      if (direction.lengthSq() === 0) return null;
      direction.normalize();
      requestCamera({ kind: 'direction', direction: [direction.x, direction.y, direction.z] });
      return null;
    },
    [requestCamera],
  );
  return (
    <GizmoHelper alignment="bottom-right" margin={[72, 72]}>
      <GizmoViewcube faces={FACES} onClick={onClick} color="#d5dce5" hoverColor="#7fa8e8" textColor="#000000" strokeColor="#4b5563" opacity={1} font="bold 19px system-ui, sans-serif" />
    </GizmoHelper>
  );
}
