/**
 * Counts drawn frames and sets `window.__interfereTest.ready` once a frame shows every part of
 * the current document (see testHook.ts). Hooked on the scene's after-render callback, so it
 * costs nothing when nothing is drawn.
 */
import { useThree } from '@react-three/fiber';
import { useEffect } from 'react';
import { appStore } from '../appStore';
import { meshesMountedFor, testHook } from './testHook';

export function FrameProbe() {
  const scene = useThree((s) => s.scene);
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
