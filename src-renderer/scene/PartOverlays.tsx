/**
 * Triangles drawn over a part, in its own frame (children of its group, so they follow it while
 * it is dragged): red where it is in contact (the selected result when its crossing triangles are
 * asked for, the live check, or the
 * traversal view), yellow where the traversal view tested it exactly without a contact. Each is
 * drawn twice: depth-tested where visible, and faintly through everything where another part
 * hides it (a bolt pushed into a plate). They are small separate buffers: releasing one never
 * touches the body's GPU buffers.
 */
import { useThree } from '@react-three/fiber';
import { memo, useEffect, useLayoutEffect, useMemo } from 'react';
import { BufferAttribute, BufferGeometry, DoubleSide } from 'three';
import { geometryRegistry, useApp } from '../appStore';
import { overlayFor } from '../state/overlays';
import { selectedResultOf } from '../state/selectors';
import { trianglePositions } from './highlight';
import { HIGHLIGHT, TESTED } from './palette';

export const PartOverlays = memo(function PartOverlays({ partId, bodyKey, version }: { partId: string; bodyKey: string; version: number }) {
  const trace = useApp((s) => (s.traceOn && s.trace?.status === 'ready' ? s.trace.data : null));
  const live = useApp((s) => s.live);
  // The selected result's crossing triangles only when asked for (the view toolbar's Triangles).
  const result = useApp((s) => (s.showCrossing ? selectedResultOf(s) : null));
  const overlay = useMemo(() => overlayFor(partId, { trace, live, result }), [partId, trace, live, result]);
  if (!overlay) return null;
  return (
    <>
      {overlay.tested.length > 0 && <TriangleOverlay bodyKey={bodyKey} triangles={overlay.tested} color={TESTED} xray={0.16} order={2} version={version} />}
      {overlay.hit.length > 0 && <TriangleOverlay bodyKey={bodyKey} triangles={overlay.hit} color={HIGHLIGHT} xray={0.28} order={3} version={version} />}
    </>
  );
});

/** Triangles of a body, unindexed, for an overlay; null when the body is not loaded. */
function overlayGeometry(bodyKey: string, triangles: Uint32Array): BufferGeometry | null {
  const body = geometryRegistry.get(bodyKey);
  const index = body?.geometry.getIndex();
  const position = body?.geometry.getAttribute('position');
  if (!body || !index || !position) return null;
  const points = trianglePositions(position.array, index.array, triangles);
  if (points.length === 0) return null;
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(points, 3));
  g.computeBoundingSphere();
  return g;
}

function TriangleOverlay(props: { bodyKey: string; triangles: Uint32Array; color: string; xray: number; order: number; version: number }) {
  const { bodyKey, triangles, version } = props;
  const invalidate = useThree((s) => s.invalidate);
  // `version` among the dependencies: rebuild when the body's display geometry was replaced.
  const geometry = useMemo(() => overlayGeometry(bodyKey, triangles), [bodyKey, triangles, version]);
  useEffect(() => () => geometry?.dispose(), [geometry]);
  useLayoutEffect(() => {
    invalidate();
    return () => invalidate();
  }, [geometry, invalidate]);
  if (!geometry) return null;
  return (
    <>
      <mesh geometry={geometry} renderOrder={props.order} raycast={noRaycast}>
        <meshBasicMaterial color={props.color} side={DoubleSide} polygonOffset polygonOffsetFactor={-2} polygonOffsetUnits={-2} toneMapped={false} />
      </mesh>
      <mesh geometry={geometry} renderOrder={props.order + 2} raycast={noRaycast}>
        <meshBasicMaterial color={props.color} side={DoubleSide} transparent opacity={props.xray} depthTest={false} depthWrite={false} toneMapped={false} />
      </mesh>
    </>
  );
}

function noRaycast(): void {
  // Overlays are not picked: the parts under them are.
}
