/**
 * Carries out camera requests from the store (fit all, fit selection, frame a result, standard
 * views) and keeps the view when the projection changes. Everything happens in effects and
 * control events, never in a frame callback; each change asks for one frame (`invalidate`).
 */
import { useThree } from '@react-three/fiber';
import { useEffect, useRef } from 'react';
import { Box3, type Camera, Matrix4, OrthographicCamera, PerspectiveCamera, Sphere, Vector3 } from 'three';
import { appStore, geometryRegistry, useApp } from '../appStore';
import { isPartVisible, selectedResultOf } from '../state/selectors';
import { sideTriangles } from '../state/results';
import type { CameraCommand, AppState } from '../state/types';
import { trianglePositions } from './highlight';
import { fitBoxes, partBoxes, partMatrix, partsBounds, pointsBounds, viewDirection } from './sceneMath';

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
    frame(camera, controls, boxes, scene, dir, size.width / Math.max(1, size.height), size.height);
    invalidate();
  }, [command, camera, controls, size, invalidate]);

  return null;
}

const bodyBounds = (k: string) => geometryRegistry.get(k)?.bounds;

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
      // The colliding triangles of each side; where they meet is where both boxes overlap (a
      // plate's long face triangles reach far beyond the bolt that crosses them).
      const sides = pair.map((part) => {
        const side = new Box3();
        const body = geometryRegistry.get(part.bodyKey);
        const index = body?.geometry.getIndex();
        const position = body?.geometry.getAttribute('position');
        if (index && position) {
          const tris = sideTriangles(result.trianglePairs, part.id === result.a ? 0 : 1);
          pointsBounds(trianglePositions(position.array, index.array, tris), partMatrix(part.transform, new Matrix4()), side);
        }
        return side;
      });
      const box = new Box3();
      for (const side of sides) box.union(side);
      if (sides.length === 2 && !sides[0].isEmpty() && !sides[1].isEmpty()) {
        const common = sides[0].clone().intersect(sides[1]);
        if (!common.isEmpty()) box.copy(common);
      }
      const pairBox = partsBounds(pair, bodyBounds);
      if (box.isEmpty()) return pairBox.isEmpty() ? [] : [pairBox];
      // Keep some of the smaller part around a small interference, for context.
      const radii = partBoxes(pair, bodyBounds).map((b) => b.getBoundingSphere(new Sphere()).radius);
      const context = radii.length > 0 ? Math.min(...radii) * 0.6 : 0;
      const radius = box.getBoundingSphere(new Sphere()).radius;
      if (radius < context) box.expandByScalar(context - radius);
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
function frame(camera: Camera, controls: Controls, boxes: Box3[], scene: Sphere, dir: Vector3, aspect: number, heightPx: number): void {
  const fov = camera instanceof PerspectiveCamera ? camera.fov : 35;
  const fit = fitBoxes(boxes, dir, fov, aspect);
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
