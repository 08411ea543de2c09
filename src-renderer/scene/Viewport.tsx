/**
 * The 3D viewport: rendered on demand (a frame only when something changed), Z-up, orbit/pan/
 * zoom (zoom towards the cursor), perspective or orthographic, with a ground grid, a view cube,
 * the transform gizmo on the selected part, the interference volume, the intersection curves,
 * the section view and the traversal view's boxes, and overlays for the grid step, the units and the live check.
 */
import { OrbitControls, OrthographicCamera, PerspectiveCamera } from '@react-three/drei';
import { Canvas } from '@react-three/fiber';
import { useApp } from '../appStore';
import { CameraRig } from './CameraRig';
import { FrameProbe } from './FrameProbe';
import { GroundGrid } from './GroundGrid';
import { Lights } from './Lights';
import { MotionResolution } from './MotionResolution';
import { IntersectionCurves } from './IntersectionCurves';
import { OverlapSolid } from './OverlapSolid';
import { Section } from './Section';
import { BACKGROUND } from './palette';
import { gizmoHandleHovered, PartGizmo } from './PartGizmo';
import { PartMeshes } from './PartMeshes';
import { softwareGl } from './softwareGl';
import { TraceBoxes } from './TraceBoxes';
import { ViewCube } from './ViewCube';
import { ViewportOverlay } from './ViewportOverlay';

const UP: [number, number, number] = [0, 0, 1];
const START: [number, number, number] = [300, -300, 300];

/**
 * Multisampling stays off on a software rasterizer: there it made every frame of a large model
 * about three times dearer (SO-101, 400k triangles: about 0.3 s a frame without, 0.8 to 1 s
 * with), where a GPU does it for free.
 */
const ANTIALIAS = !softwareGl();

export function Viewport() {
  const projection = useApp((s) => s.projection);
  const clearSelection = useApp((s) => s.clearSelection);
  const closeContextMenu = useApp((s) => s.closeContextMenu);
  return (
    <div className="viewport" data-testid="viewport" onContextMenu={(e) => e.preventDefault()} onPointerDown={closeContextMenu}>
      <Canvas
        frameloop="demand"
        flat
        dpr={[1, 2]}
        gl={{ preserveDrawingBuffer: true, antialias: ANTIALIAS, stencil: true }}
        onCreated={({ gl }) => {
          // Part materials carry the section plane as `clippingPlanes`.
          gl.localClippingEnabled = true;
        }}
        raycaster={{ firstHitOnly: true }}
        camera={{ up: UP, position: START, fov: 35 }}
        onPointerMissed={(e) => {
          if (e.button !== 0 || gizmoHandleHovered()) return;
          if (!e.shiftKey && !e.ctrlKey && !e.metaKey) clearSelection();
        }}
      >
        <color attach="background" args={[BACKGROUND]} />
        {projection === 'perspective' ? (
          <PerspectiveCamera makeDefault up={UP} position={START} fov={35} near={0.1} far={100000} />
        ) : (
          <OrthographicCamera makeDefault up={UP} position={START} near={0} far={100000} />
        )}
        <OrbitControls makeDefault enableDamping={false} zoomToCursor screenSpacePanning />
        <MotionResolution />
        <Lights />
        <PartMeshes />
        <OverlapSolid />
        <IntersectionCurves />
        <Section />
        <TraceBoxes />
        <GroundGrid />
        <PartGizmo />
        <CameraRig />
        <FrameProbe />
        <ViewCube />
      </Canvas>
      <ViewportOverlay />
    </div>
  );
}
