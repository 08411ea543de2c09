/**
 * While the user orbits, pans or zooms with a held button, the view is drawn cheaper, and in full
 * again the moment the button is released: at a fraction of its pixel ratio (a frame of a small
 * model costs about its pixels under software WebGL), large bodies as coarse stand-ins without
 * their edge lines (a frame of a large one costs about its triangles; coarse.ts), and without
 * picking (no hover raycasts while the camera moves). A still view is always drawn in full. A
 * wheel step (start, change and end in one event) keeps everything as it is.
 */
import { useThree } from '@react-three/fiber';
import { useEffect } from 'react';
import { BufferAttribute, BufferGeometry, type LineSegments, type Mesh, type Object3D } from 'three';
import { COARSE_MIN_TRIANGLES, coarseMesh } from './coarse';
import { partGroups } from './partGroups';

/** The fraction of the pixel ratio used while the camera is dragged. */
export const MOTION_DPR_SCALE = 0.5;

interface ControlsEvents {
  addEventListener(type: 'start' | 'change' | 'end', listener: () => void): void;
  removeEventListener(type: 'start' | 'change' | 'end', listener: () => void): void;
}

/** The coarse stand-in of each large body's geometry (null: drawn as it is), made on first use. */
const coarse = new WeakMap<BufferGeometry, BufferGeometry | null>();

function coarseFor(geometry: BufferGeometry): BufferGeometry | null {
  if (coarse.has(geometry)) return coarse.get(geometry) ?? null;
  const index = geometry.getIndex();
  const position = geometry.getAttribute('position');
  let made: BufferGeometry | null = null;
  if (index && position && index.count / 3 >= COARSE_MIN_TRIANGLES) {
    const mesh = coarseMesh(position.array, index.array);
    if (mesh) {
      made = new BufferGeometry();
      made.setAttribute('position', new BufferAttribute(mesh.positions, 3));
      made.setIndex(new BufferAttribute(mesh.indices, 1));
      made.computeVertexNormals();
      made.computeBoundingSphere();
      const stand = made;
      geometry.addEventListener('dispose', () => stand.dispose());
    }
  }
  coarse.set(geometry, made);
  return made;
}

interface Swapped {
  mesh: Mesh;
  full: BufferGeometry;
  stand: BufferGeometry;
  edges: LineSegments | null;
}

/** Puts coarse stand-ins in place of the large bodies of every part; returns what to put back. */
function swapIn(): Swapped[] {
  const swapped: Swapped[] = [];
  for (const group of partGroups.values()) {
    const children = group.children as (Object3D & { isMesh?: boolean; isLineSegments?: boolean })[];
    const mesh = children.find((c) => c.isMesh === true && c.name !== 'section-stencil') as Mesh | undefined;
    if (!mesh) continue;
    const stand = coarseFor(mesh.geometry);
    if (!stand) continue;
    const edges = (children.find((c) => c.isLineSegments === true) as LineSegments | undefined) ?? null;
    swapped.push({ mesh, full: mesh.geometry, stand, edges: edges?.visible ? edges : null });
    mesh.geometry = stand;
    if (edges) edges.visible = false;
  }
  return swapped;
}

function swapOut(swapped: readonly Swapped[]): void {
  for (const s of swapped) {
    // A body replaced meanwhile keeps its new geometry.
    if (s.mesh.geometry === s.stand) s.mesh.geometry = s.full;
    if (s.edges) s.edges.visible = true;
  }
}

export function MotionResolution() {
  const controls = useThree((s) => s.controls) as unknown as ControlsEvents | null;
  const get = useThree((s) => s.get);
  useEffect(() => {
    if (!controls) return;
    let held = false;
    /** The pixel ratio to go back to, while lowered. */
    let restore: number | null = null;
    let swapped: Swapped[] = [];
    const lower = () => {
      if (!held || restore !== null) return;
      const { viewport, setDpr, setEvents, invalidate } = get();
      restore = viewport.dpr;
      setDpr(viewport.dpr * MOTION_DPR_SCALE);
      setEvents({ enabled: false });
      swapped = swapIn();
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
      const { setDpr, setEvents, invalidate } = get();
      setDpr(restore);
      setEvents({ enabled: true });
      swapOut(swapped);
      swapped = [];
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
