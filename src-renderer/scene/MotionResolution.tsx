/**
 * While the user orbits, pans or zooms with a held button, the view is drawn at a fraction of its
 * pixel ratio, and at the full ratio again the moment the button is released. Under software
 * WebGL (SwiftShader, no GPU) a frame costs about its number of pixels, so this keeps dragging
 * the camera fluid on large models; a still view is always drawn in full. A wheel step (start,
 * change and end in one event) keeps the full ratio.
 */
import { useThree } from '@react-three/fiber';
import { useEffect } from 'react';

/** The fraction of the pixel ratio used while the camera is dragged. */
export const MOTION_DPR_SCALE = 0.5;

interface ControlsEvents {
  addEventListener(type: 'start' | 'change' | 'end', listener: () => void): void;
  removeEventListener(type: 'start' | 'change' | 'end', listener: () => void): void;
}

export function MotionResolution() {
  const controls = useThree((s) => s.controls) as unknown as ControlsEvents | null;
  const get = useThree((s) => s.get);
  useEffect(() => {
    if (!controls) return;
    let held = false;
    /** The pixel ratio to go back to, while lowered. */
    let restore: number | null = null;
    const lower = () => {
      if (!held || restore !== null) return;
      const { viewport, setDpr, invalidate } = get();
      restore = viewport.dpr;
      setDpr(viewport.dpr * MOTION_DPR_SCALE);
      invalidate();
    };
    const onStart = () => {
      held = true;
    };
    // Lowered on the first change of a drag, after the event that started it: a wheel step has
    // ended by then, and keeps the full ratio.
    const onChange = () => {
      if (held && restore === null) queueMicrotask(lower);
    };
    const onEnd = () => {
      held = false;
      if (restore === null) return;
      const { setDpr, invalidate } = get();
      setDpr(restore);
      restore = null;
      invalidate();
    };
    controls.addEventListener('start', onStart);
    controls.addEventListener('change', onChange);
    controls.addEventListener('end', onEnd);
    return () => {
      controls.removeEventListener('start', onStart);
      controls.removeEventListener('change', onChange);
      controls.removeEventListener('end', onEnd);
      onEnd();
    };
  }, [controls, get]);
  return null;
}
