/**
 * Carries out camera requests from the store (fit all, fit selection, frame a result, standard
 * views) and keeps the view when the projection changes. Everything happens in effects and
 * control events, never in a frame callback; each change asks for one frame (`invalidate`).
 */
import { useThree } from '@react-three/fiber';
import { useEffect, useRef } from 'react';
import { Box3, type Camera, OrthographicCamera, PerspectiveCamera, Sphere, Vector3 } from 'three';
import { appStore, geometryRegistry, useApp } from '../appStore';
import { isPartVisible, selectedResultOf } from '../state/selectors';
import type { CameraCommand, AppState } from '../state/types';
import { findingBox } from './Section';
import { fitBoxes, partBoxes, partsBounds, viewDirection } from './sceneMath';

/** The part of OrbitControls used here. */
interface Controls {
  target: Vector3;
  minDistance: number;
  maxDistance: number;
  update(): void;
  addEventListener(type: 'change', listener: () => void): void;
  removeEventListener(type: 'change', listener: () => void): void;
}

export function CameraRig() {
  const camera = useThree((s) => s.camera);
  const controls = useThree((s) => s.controls) as unknown as Controls | null;
  const size = useThree((s) => s.size);
  const invalidate = useThree((s) => s.invalidate);
  const command = useApp((s) => s.camera);
  const done = useRef(0);
  /** The pose to carry over when the camera is replaced (projection change). */
  const pose = useRef<{ camera: Camera; target: Vector3 } | null>(null);

  // Remember the pose as the user moves.
  useEffect(() => {
    if (!controls) return;
    const remember = () => {
      pose.current = { camera, target: controls.target.clone() };
    };
    controls.addEventListener('change', remember);
    return () => controls.removeEventListener('change', remember);
  }, [camera, controls]);

  // A new camera (projection changed): take over the previous camera's view.
  useEffect(() => {
    if (!controls) return;
    const prev = pose.current;
    if (prev && prev.camera !== camera) {
      carryPose(prev.camera, prev.target, camera, size.height);
      controls.target.copy(prev.target);
      controls.update();
      invalidate();
    }
    pose.current = { camera, target: controls.target.clone() };
  }, [camera, controls, size.height, invalidate]);

  // Camera requests.
  useEffect(() => {
    if (!command || !controls || command.seq === done.current) return;
    done.current = command.seq;
    const state = appStore.getState();
    const boxes = targetBoxes(state, command.command);
    if (boxes.length === 0) return;
    const scene = sceneSphere(state);
    const c = command.command;
    const dir = c.kind === 'view' ? viewDirection(c.view) : c.kind === 'direction' ? lookDirection(c.direction) : camera.position.clone().sub(controls.target);
    if (dir.lengthSq() < 1e-12) dir.copy(viewDirection('iso'));
    dir.normalize();
    const aspect = size.width / Math.max(1, size.height);
    // Framing a finding or a selection never leaves the camera inside a part: the least
    // occluded direction (the current one when it is clear) and the camera stepped back out.
    const occluders = c.kind === 'fitResult' || c.kind === 'fitSelection' ? occluderBoxes(state) : [];
    const fov = camera instanceof PerspectiveCamera ? camera.fov : 35;
    let distance: number | undefined;
    if (occluders.length > 0 && camera instanceof PerspectiveCamera) {
      const best = clearView(boxes, occluders, dir, fov, aspect);
      dir.copy(best.dir);
      distance = best.distance;
    }
    frame(camera, controls, boxes, scene, dir, aspect, size.height, distance);
    invalidate();
  }, [command, camera, controls, size, invalidate]);

  return null;
}

const bodyBounds = (k: string) => geometryRegistry.get(k)?.bounds;

/** How much room a finding gets around it when framed (× its bounding radius). */
const FINDING_MARGIN = 2.2;

/** The placed boxes of the parts drawn solid (not faded or hidden by a selected result). */
function occluderBoxes(state: AppState): Box3[] {
  const doc = state.doc;
  if (!doc) return [];
  const result = selectedResultOf(state);
  const solid = doc.parts.filter((p) => isPartVisible(state, p) && (!result || p.id === result.a || p.id === result.b));
  return partBoxes(solid, bodyBounds);
}

/** Directions tried, after the current one, when it would put the camera inside a part. */
const CANDIDATES: Vector3[] = [
  [1, -1, 1], [-1, -1, 1], [1, 1, 1], [-1, 1, 1], [0, -1, 0.3], [1, 0, 0.3], [0, 1, 0.3], [-1, 0, 0.3], [0, -1e-4, 1], [1, -1, -1], [-1, 1, -1], [0, 1e-4, -1],
].map(([x, y, z]) => new Vector3(x, y, z).normalize());

/**
 * The nearest distance at or beyond `from` along `dir` from `center` that is outside every box
 * (boxes the camera must not be inside).
 */
export function distanceOutside(center: Vector3, dir: Vector3, from: number, boxes: readonly Box3[]): number {
  let d = from;
  const p = new Vector3();
  for (let round = 0; round < boxes.length + 1; round++) {
    let moved = false;
    for (const b of boxes) {
      p.copy(center).addScaledVector(dir, d);
      if (!b.containsPoint(p)) continue;
      // Leave the box along the ray: the farthest exit over the three slabs' far sides.
      let exit = Infinity;
      for (const k of ['x', 'y', 'z'] as const) {
        const v = dir[k];
        if (Math.abs(v) < 1e-12) continue;
        const t = ((v > 0 ? b.max[k] : b.min[k]) - center[k]) / v;
        exit = Math.min(exit, t);
      }
      const size = b.getSize(new Vector3()).length();
      d = Math.max(d, exit + size * 0.02 + 1e-3);
      moved = true;
    }
    if (!moved) break;
  }
  return d;
}

/** The direction (the current one if it is clear) and distance that see `boxes` from outside every occluder. */
function clearView(boxes: Box3[], occluders: Box3[], dir: Vector3, fov: number, aspect: number): { dir: Vector3; distance: number } {
  let best: { dir: Vector3; distance: number; ratio: number } | null = null;
  for (const candidate of [dir, ...CANDIDATES]) {
    const fit = fitBoxes(boxes, candidate, fov, aspect);
    const d = distanceOutside(fit.center, candidate, fit.distance, occluders);
    const ratio = d / fit.distance;
    if (ratio <= 1.0001) return { dir: candidate.clone(), distance: d };
    if (!best || ratio < best.ratio) best = { dir: candidate.clone(), distance: d, ratio };
  }
  return best ? { dir: best.dir, distance: best.distance } : { dir, distance: fitBoxes(boxes, dir, fov, aspect).distance };
}

/** A direction to look from, nudged off the up axis (where orbiting has no defined azimuth). */
function lookDirection(d: readonly [number, number, number]): Vector3 {
  const v = new Vector3(d[0], d[1], d[2]).normalize();
  if (Math.abs(v.z) > 0.9999) v.set(0, -1e-4, Math.sign(v.z)).normalize();
  return v;
}

/** The boxes a request frames (one per part, or the colliding triangles); empty for nothing. */
function targetBoxes(state: AppState, command: CameraCommand): Box3[] {
  const doc = state.doc;
  if (!doc) return [];
  if (command.kind === 'fitSelection') {
    const chosen = new Set(state.selectedParts);
    const boxes = partBoxes(doc.parts.filter((p) => chosen.has(p.id)), bodyBounds);
    if (boxes.length > 0) return boxes;
  } else if (command.kind === 'fitResult') {
    const result = selectedResultOf(state);
    if (result) {
      const pair = doc.parts.filter((p) => p.id === result.a || p.id === result.b);
      const pairBoxes = partBoxes(pair, bodyBounds);
      // What the finding itself covers: the overlap solid, the intersection curves (exact
      // segments, much tighter than the crossing triangles: a plate's long face triangles reach
      // far beyond the bolt that crosses them), or the closest points of a clearance.
      const box = findingBox(state) ?? new Box3();
      if (box.isEmpty() && result.centroidMm) box.expandByPoint(new Vector3(...result.centroidMm));
      if (box.isEmpty()) return pairBoxes;
      // A margin around it, and some of the smaller part for context.
      const radius = box.getBoundingSphere(new Sphere()).radius;
      const radii = pairBoxes.map((b) => b.getBoundingSphere(new Sphere()).radius);
      const context = radii.length > 0 ? Math.min(...radii) * 0.3 : 0;
      const want = Math.max(radius * FINDING_MARGIN, context, 0.5);
      box.expandByScalar(want - radius);
      return [box];
    }
  }
  const shown = doc.parts.filter((p) => isPartVisible(state, p));
  return partBoxes(shown.length > 0 ? shown : doc.parts, bodyBounds);
}

function sceneSphere(state: AppState): Sphere {
  const box = state.doc ? partsBounds(state.doc.parts, bodyBounds) : new Box3();
  return box.isEmpty() ? new Sphere(new Vector3(), 1) : box.getBoundingSphere(new Sphere());
}

/** Places the camera to see `boxes` from direction `dir`; clip planes follow the whole scene. */
function frame(camera: Camera, controls: Controls, boxes: Box3[], scene: Sphere, dir: Vector3, aspect: number, heightPx: number, distance?: number): void {
  const fov = camera instanceof PerspectiveCamera ? camera.fov : 35;
  const fit = fitBoxes(boxes, dir, fov, aspect);
  if (distance !== undefined) fit.distance = distance;
  const center = fit.center;
  const sceneRadius = Math.max(scene.radius, fit.halfWidth, fit.halfHeight, 1e-3);
  if (camera instanceof PerspectiveCamera) {
    camera.position.copy(center).addScaledVector(dir, fit.distance);
    camera.near = Math.max(sceneRadius * 1e-3, 1e-3);
    camera.far = fit.distance + sceneRadius * 60;
    controls.minDistance = camera.near * 2;
    controls.maxDistance = sceneRadius * 40;
    camera.updateProjectionMatrix();
  } else if (camera instanceof OrthographicCamera) {
    const distance = sceneRadius * 4;
    camera.position.copy(center).addScaledVector(dir, distance);
    camera.near = 0;
    camera.far = distance + sceneRadius * 8;
    const widthPx = heightPx * aspect;
    camera.zoom = Math.min(widthPx / (2 * fit.halfWidth), heightPx / (2 * fit.halfHeight));
    camera.updateProjectionMatrix();
  }
  camera.lookAt(center);
  controls.target.copy(center);
  controls.update();
}

/** Gives `next` the view of `prev`: same direction and target, the same size on screen. */
function carryPose(prev: Camera, target: Vector3, next: Camera, heightPx: number): void {
  const dir = prev.position.clone().sub(target);
  const distance = dir.length() || 1;
  dir.normalize();
  if (prev instanceof PerspectiveCamera && next instanceof OrthographicCamera) {
    const visibleHeight = 2 * distance * Math.tan((prev.fov * Math.PI) / 360);
    const sceneDistance = Math.max(distance, prev.far / 4);
    next.position.copy(target).addScaledVector(dir, sceneDistance);
    next.near = 0;
    next.far = sceneDistance + prev.far;
    next.zoom = heightPx / visibleHeight;
  } else if (prev instanceof OrthographicCamera && next instanceof PerspectiveCamera) {
    const visibleHeight = heightPx / prev.zoom;
    const d = visibleHeight / (2 * Math.tan((next.fov * Math.PI) / 360));
    next.position.copy(target).addScaledVector(dir, d);
    next.near = Math.max(d * 1e-3, 1e-3);
    next.far = d + prev.far;
  } else {
    next.position.copy(prev.position);
  }
  next.up.set(0, 0, 1);
  next.lookAt(target);
  if (next instanceof PerspectiveCamera || next instanceof OrthographicCamera) next.updateProjectionMatrix();
}
