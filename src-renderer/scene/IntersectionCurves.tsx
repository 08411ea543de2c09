/**
 * The selected result's intersection curves as thick lines (three's LineSegments2, a constant
 * width in pixels): where the crossing triangles of the two parts cut each other — the outline of
 * an interference on the parts' surfaces, the contact curve of a bolt seated in its hole — and
 * the patches where faces lie on each other. Drawn twice: solid where visible, fainter through
 * the parts that hide them. Hidden while a part is dragged or the live check's findings show.
 */
import { useThree } from '@react-three/fiber';
import { useEffect, useLayoutEffect, useMemo } from 'react';
import { DoubleSide, Mesh, MeshBasicMaterial } from 'three';
import { LineMaterial } from 'three/examples/jsm/lines/LineMaterial.js';
import { LineSegments2 } from 'three/examples/jsm/lines/LineSegments2.js';
import { LineSegmentsGeometry } from 'three/examples/jsm/lines/LineSegmentsGeometry.js';
import { appStore, useApp } from '../appStore';
import { selectedResultOf } from '../state/selectors';
import { CURVE_WIDTH, CURVE_WIDTH_THROUGH, curveObjects, curveObjectsOf, prepareResultCurves, warmResultCode } from './resultObjects';
import { sectionPlanes } from './section';
import { warmShaders, warmShapes } from './warmup';

/**
 * Shapes and materials like those of a selected result's curves, patches and overlap solid (what
 * is compiled depends on transparency, depth test, sides, tone mapping and the vertex layout, not
 * on colours), kept for good so that their programs stay compiled.
 */
let warmObjects: (LineSegments2 | Mesh)[] | null = null;

export function IntersectionCurves() {
  const result = useApp((s) => (s.drag === null && s.live === null ? selectedResultOf(s) : null));
  const parts = useApp((s) => s.doc?.parts);
  const version = useApp((s) => s.geometry.version);
  const outcome = useApp((s) => s.check.outcome);
  const sectionOn = useApp((s) => s.section.on);
  const size = useThree((s) => s.size);
  const invalidate = useThree((s) => s.invalidate);
  const gl = useThree((s) => s.gl);
  const camera = useThree((s) => s.camera);
  const scene = useThree((s) => s.scene);

  useEffect(() => {
    // As drawn: the curves (solid, and through the parts, as the overlap's edges), the patches
    // and the overlap's fill.
    if (!warmObjects) {
      const segment = new LineSegmentsGeometry();
      segment.setPositions([...warmShapes.segment]);
      warmObjects = [
        new LineSegments2(segment, new LineMaterial({ linewidth: CURVE_WIDTH, toneMapped: false })),
        new LineSegments2(segment, new LineMaterial({ linewidth: CURVE_WIDTH_THROUGH, transparent: true, opacity: 0.55, depthTest: false, depthWrite: false, toneMapped: false })),
        new Mesh(warmShapes.triangles, new MeshBasicMaterial({ side: DoubleSide, transparent: true, opacity: 0.6, depthTest: false, depthWrite: false, toneMapped: false })),
        new Mesh(warmShapes.solid, new MeshBasicMaterial({ side: DoubleSide, transparent: true, opacity: 0.55, depthTest: false, depthWrite: false, toneMapped: false })),
      ];
    }
    warmShaders(gl, camera, scene, invalidate, warmObjects);
    // And the code that computes and builds a result's curves and overlap solid.
    if (typeof requestIdleCallback === 'function') requestIdleCallback(warmResultCode, { timeout: 1000 });
    else setTimeout(warmResultCode, 50);
  }, [gl, camera, scene, invalidate]);

  // After a check (and after placements or bodies change), the curves of the first results are
  // built while the page is idle.
  useEffect(() => (outcome ? prepareResultCurves(appStore) : undefined), [outcome, parts, version]);

  // Built once per result of a check and placement (resultObjects.ts), kept when another row is
  // selected; the cache disposes them.
  const built = useMemo(() => (result && parts ? curveObjectsOf(result, parts, version) : null), [result, parts, version]);
  // Objects replaced by others for the same result (new placements) are no longer drawn.
  useEffect(() => curveObjects.sweep(), [built]);

  useLayoutEffect(() => {
    if (built?.lines) {
      for (const l of [built.lines.front, built.lines.through]) {
        const m = l.material as LineMaterial;
        m.resolution.set(size.width, size.height);
        m.clippingPlanes = sectionOn ? sectionPlanes : [];
      }
    }
    invalidate();
  }, [built, size, sectionOn, invalidate]);

  if (!built) return null;
  return (
    <group name="intersection-curves">
      {built.lines && <primitive object={built.lines.front} />}
      {built.lines && <primitive object={built.lines.through} />}
      {built.patches && <mesh geometry={built.patches.geometry} material={built.patches.material} renderOrder={9} raycast={noRaycast} />}
    </group>
  );
}

function noRaycast(): void {
  // Curves are not picked: the parts under them are.
}
