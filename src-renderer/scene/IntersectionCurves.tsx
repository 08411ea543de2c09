/**
 * The selected result's intersection curves as thick lines (three's LineSegments2, a constant
 * width in pixels): where the crossing triangles of the two parts cut each other — the outline of
 * an interference on the parts' surfaces, the contact curve of a bolt seated in its hole — and
 * the patches where faces lie on each other. Drawn twice: solid where visible, fainter through
 * the parts that hide them. Hidden while a part is dragged or the live check's findings show.
 */
import { useThree } from '@react-three/fiber';
import { useEffect, useLayoutEffect, useMemo } from 'react';
import { BufferAttribute, BufferGeometry, DoubleSide, Mesh, MeshBasicMaterial } from 'three';
import { LineMaterial } from 'three/examples/jsm/lines/LineMaterial.js';
import { LineSegments2 } from 'three/examples/jsm/lines/LineSegments2.js';
import { LineSegmentsGeometry } from 'three/examples/jsm/lines/LineSegmentsGeometry.js';
import { useApp } from '../appStore';
import { selectedResultOf } from '../state/selectors';
import { KIND_CLEARANCE, KIND_CONTACT, KIND_INTERFERENCE, KIND_UNDECIDED } from './palette';
import { resultCurves } from './resultCurves';
import { sectionPlanes } from './section';
import { warmShaders, warmShapes } from './warmup';

/** Line widths in CSS pixels: visible, and through the parts. */
const WIDTH = 3.5;
const WIDTH_THROUGH = 2;

export function curveColor(kind: string): string {
  return kind === 'interference' ? KIND_INTERFERENCE : kind === 'clearance' ? KIND_CLEARANCE : kind === 'undecided' ? KIND_UNDECIDED : KIND_CONTACT;
}

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
        new LineSegments2(segment, new LineMaterial({ linewidth: WIDTH, toneMapped: false })),
        new LineSegments2(segment, new LineMaterial({ linewidth: WIDTH_THROUGH, transparent: true, opacity: 0.55, depthTest: false, depthWrite: false, toneMapped: false })),
        new Mesh(warmShapes.triangles, new MeshBasicMaterial({ side: DoubleSide, transparent: true, opacity: 0.6, depthTest: false, depthWrite: false, toneMapped: false })),
        new Mesh(warmShapes.solid, new MeshBasicMaterial({ side: DoubleSide, transparent: true, opacity: 0.55, depthTest: false, depthWrite: false, toneMapped: false })),
      ];
    }
    warmShaders(gl, camera, scene, invalidate, warmObjects);
  }, [gl, camera, scene, invalidate]);

  const built = useMemo(() => {
    if (!result || !parts) return null;
    const curves = resultCurves(result, parts, version);
    if (!curves || (curves.segments.length === 0 && curves.patches.length === 0)) return null;
    const color = curveColor(result.kind);
    let lines: { front: LineSegments2; through: LineSegments2; geometry: LineSegmentsGeometry } | null = null;
    if (curves.segments.length > 0) {
      const geometry = new LineSegmentsGeometry();
      geometry.setPositions(curves.segments);
      const front = new LineSegments2(geometry, new LineMaterial({ color, linewidth: WIDTH, toneMapped: false }));
      const through = new LineSegments2(geometry, new LineMaterial({ color, linewidth: WIDTH_THROUGH, transparent: true, opacity: 0.55, depthTest: false, depthWrite: false, toneMapped: false }));
      front.renderOrder = 9;
      through.renderOrder = 10;
      for (const l of [front, through]) {
        l.raycast = noRaycast;
        l.computeLineDistances();
      }
      lines = { front, through, geometry };
    }
    let patches: BufferGeometry | null = null;
    if (curves.patches.length > 0) {
      patches = new BufferGeometry();
      patches.setAttribute('position', new BufferAttribute(curves.patches, 3));
      patches.computeBoundingSphere();
    }
    return { lines, patches, color };
  }, [result, parts, version]);

  useEffect(
    () => () => {
      built?.lines?.geometry.dispose();
      (built?.lines?.front.material as LineMaterial | undefined)?.dispose();
      (built?.lines?.through.material as LineMaterial | undefined)?.dispose();
      built?.patches?.dispose();
    },
    [built],
  );
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
      {built.patches && (
        <mesh geometry={built.patches} renderOrder={9} raycast={noRaycast}>
          <meshBasicMaterial color={built.color} side={DoubleSide} transparent opacity={0.6} depthTest={false} depthWrite={false} toneMapped={false} />
        </mesh>
      )}
    </group>
  );
}

function noRaycast(): void {
  // Curves are not picked: the parts under them are.
}
