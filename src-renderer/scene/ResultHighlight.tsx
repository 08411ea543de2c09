/**
 * The colliding triangles of the selected result, in red, over both parts: once depth-tested
 * (where they are in view) and once faintly through everything (where another part hides them,
 * as in a bolt pushed into a plate).
 */
import { useThree } from '@react-three/fiber';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { BufferAttribute, BufferGeometry, DoubleSide, type Group } from 'three';
import type { PairResultInfo, PartInfo } from '../../src-main/contract/host';
import { geometryRegistry, useApp } from '../appStore';
import { sideTriangles } from '../state/results';
import { isPartVisible, selectedResultOf } from '../state/selectors';
import { trianglePositions } from './highlight';
import { HIGHLIGHT } from './palette';
import { partMatrix } from './sceneMath';

export function ResultHighlight() {
  const result = useApp(selectedResultOf);
  const doc = useApp((s) => s.doc);
  const version = useApp((s) => s.geometry.version);
  const visibility = useApp((s) => s.visibility);
  if (!result || !doc) return null;
  const a = doc.parts.find((p) => p.id === result.a);
  const b = doc.parts.find((p) => p.id === result.b);
  return (
    <group name="highlight">
      {a && isPartVisible({ visibility }, a) && <SideHighlight part={a} result={result} side={0} version={version} />}
      {b && isPartVisible({ visibility }, b) && <SideHighlight part={b} result={result} side={1} version={version} />}
    </group>
  );
}

/** The highlighted triangles of one side of a result, placed (body frame), or null. */
export function highlightGeometry(part: PartInfo, result: PairResultInfo, side: 0 | 1): BufferGeometry | null {
  const body = geometryRegistry.get(part.bodyKey);
  const index = body?.geometry.getIndex();
  const position = body?.geometry.getAttribute('position');
  if (!body || !index || !position) return null;
  const points = trianglePositions(position.array, index.array, sideTriangles(result.trianglePairs, side));
  if (points.length === 0) return null;
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(points, 3));
  g.computeBoundingSphere();
  return g;
}

function SideHighlight({ part, result, side, version }: { part: PartInfo; result: PairResultInfo; side: 0 | 1; version: number }) {
  const invalidate = useThree((s) => s.invalidate);
  const group = useRef<Group>(null);
  // `version` among the dependencies: rebuild when the body's display geometry was replaced.
  const geometry = useMemo(() => highlightGeometry(part, result, side), [part, result, side, version]);
  useEffect(() => () => geometry?.dispose(), [geometry]);
  useLayoutEffect(() => {
    const g = group.current;
    if (!g) return;
    partMatrix(part.transform, g.matrix);
    g.matrixWorldNeedsUpdate = true;
    invalidate();
  }, [part.transform, geometry, invalidate]);
  if (!geometry) return null;
  return (
    <group ref={group} matrixAutoUpdate={false}>
      <mesh geometry={geometry} renderOrder={2} raycast={noRaycast}>
        <meshBasicMaterial color={HIGHLIGHT} side={DoubleSide} polygonOffset polygonOffsetFactor={-2} polygonOffsetUnits={-2} toneMapped={false} />
      </mesh>
      <mesh geometry={geometry} renderOrder={3} raycast={noRaycast}>
        <meshBasicMaterial color={HIGHLIGHT} side={DoubleSide} transparent opacity={0.28} depthTest={false} depthWrite={false} toneMapped={false} />
      </mesh>
    </group>
  );
}

function noRaycast(): void {
  // Highlights are not picked: the parts under them are.
}
