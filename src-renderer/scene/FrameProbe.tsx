/**
 * Counts drawn frames and sets `window.__interfereTest.ready` once a frame shows every part of
 * the current document (see testHook.ts). Hooked on the scene's after-render callback, so it
 * costs nothing when nothing is drawn.
 */
import { useThree } from '@react-three/fiber';
import { useEffect } from 'react';
import { Vector3 } from 'three';
import { appStore, geometryRegistry } from '../appStore';
import { partGroups } from './partGroups';
import { meshesMountedFor, testHook } from './testHook';

export function FrameProbe() {
  const scene = useThree((s) => s.scene);
  const get = useThree((s) => s.get);
  useEffect(() => {
    testHook().partPoint = (partId, offsetMm = [0, 0, 0]) => {
      const group = partGroups.get(partId);
      const part = appStore.getState().doc?.parts.find((p) => p.id === partId);
      const box = part ? geometryRegistry.get(part.bodyKey)?.bounds : undefined;
      if (!group || !box) return null;
      const { camera, gl } = get();
      const p = box.getCenter(new Vector3()).applyMatrix4(group.matrixWorld);
      p.x += offsetMm[0];
      p.y += offsetMm[1];
      p.z += offsetMm[2];
      p.project(camera);
      const rect = gl.domElement.getBoundingClientRect();
      return { x: rect.left + ((p.x + 1) / 2) * rect.width, y: rect.top + ((1 - p.y) / 2) * rect.height };
    };
    testHook().partCentre = (partId) => {
      const group = partGroups.get(partId);
      const part = appStore.getState().doc?.parts.find((p) => p.id === partId);
      const box = part ? geometryRegistry.get(part.bodyKey)?.bounds : undefined;
      if (!group || !box) return null;
      group.updateMatrixWorld();
      const p = box.getCenter(new Vector3()).applyMatrix4(group.matrixWorld);
      return [p.x, p.y, p.z];
    };
  }, [get]);
  useEffect(() => {
    const hook = testHook();
    scene.onAfterRender = () => {
      hook.renderedFrames += 1;
      const s = appStore.getState();
      const ready = s.doc !== null && s.geometry.status === 'ready' && meshesMountedFor(s.doc.id, s.geometry.version);
      if (ready && !hook.ready) hook.documentId = s.doc?.id ?? null;
      hook.ready = ready;
    };
    // Not ready the moment another document or more geometry starts loading.
    const unsubscribe = appStore.subscribe((s, prev) => {
      if (s.doc?.id !== prev.doc?.id || s.geometry !== prev.geometry) {
        if (s.doc?.id !== hook.documentId || s.geometry.status !== 'ready') hook.ready = false;
      }
    });
    return () => {
      unsubscribe();
      scene.onAfterRender = () => {};
    };
  }, [scene]);
  return null;
}
