/**
 * Lighting for reviewing parts: a soft sky/ground fill (Z up) and a headlight that follows the
 * camera, so faces facing the viewer are always lit, from every side.
 */
import { useFrame, useThree } from '@react-three/fiber';
import { useRef } from 'react';
import type { DirectionalLight } from 'three';

export function Lights() {
  const light = useRef<DirectionalLight>(null);
  const camera = useThree((s) => s.camera);
  const controls = useThree((s) => s.controls) as unknown as { target: { x: number; y: number; z: number } } | null;
  // Moves a light with the camera before each drawn frame (no state is set here).
  useFrame(() => {
    const l = light.current;
    if (!l) return;
    l.position.copy(camera.position);
    if (controls) l.target.position.set(controls.target.x, controls.target.y, controls.target.z);
    l.target.updateMatrixWorld();
  });
  return (
    <>
      <hemisphereLight args={['#ffffff', '#9aa0a8', 1.1]} position={[0, 0, 1]} />
      <directionalLight ref={light} intensity={1.9} />
    </>
  );
}
