/**
 * Counts drawn frames and sets `window.__interfereTest.ready` once a frame shows every part of
 * the current document (see testHook.ts). Hooked on the scene's after-render callback, so it
 * costs nothing when nothing is drawn.
 */
import { useThree } from '@react-three/fiber';
import { useEffect } from 'react';
import { Vector3 } from 'three';
import { appStore, geometryRegistry } from '../appStore';
import { partMarks } from '../state/marks';
import { isPartVisible, selectedResultOf } from '../state/selectors';
import { resultCurves } from './resultCurves';
import { partBoxes } from './sceneMath';
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
    testHook().view = () => {
      const s = appStore.getState();
      const { camera, controls } = get();
      const result = selectedResultOf(s);
      const curves = result && s.doc ? resultCurves(result, s.doc.parts, s.geometry.version) : null;
      const solid = (s.doc?.parts ?? []).filter((p) => isPartVisible(s, p) && (!result || p.id === result.a || p.id === result.b));
      const inside = solid.filter((p) => partBoxes([p], (k) => geometryRegistry.get(k)?.bounds)[0]?.containsPoint(camera.position));
      const target = (controls as unknown as { target?: Vector3 } | null)?.target ?? new Vector3();
      return {
        marks: result ? {} : Object.fromEntries(partMarks(s.check.outcome)),
        filterPart: s.resultFilter.part ?? null,
        selectedResult: s.selectedResult,
        selectedKind: result?.kind ?? null,
        closestPoints: result?.closestPointsMm ?? null,
        showCrossing: s.showCrossing,
        curveSegments: curves ? curves.segments.length / 6 : 0,
        curvePatches: curves ? curves.patches.length / 9 : 0,
        overlap: s.overlap?.status ?? null,
        camera: camera.position.toArray(),
        target: target.toArray(),
        cameraInside: inside.map((p) => p.id),
      };
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
