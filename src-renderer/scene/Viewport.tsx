/**
 * The 3D viewport: rendered on demand (a frame only when something changed), Z-up, orbit/pan/
 * zoom (zoom towards the cursor), perspective or orthographic, with a ground grid, an axes gizmo
 * and overlays for the grid step and the units.
 */
import { GizmoHelper, GizmoViewport, OrbitControls, OrthographicCamera, PerspectiveCamera } from '@react-three/drei';
import { Canvas } from '@react-three/fiber';
import { useApp } from '../appStore';
import { CameraRig } from './CameraRig';
import { FrameProbe } from './FrameProbe';
import { GroundGrid } from './GroundGrid';
import { Lights } from './Lights';
import { BACKGROUND } from './palette';
import { PartMeshes } from './PartMeshes';
import { ResultHighlight } from './ResultHighlight';
import { ViewportOverlay } from './ViewportOverlay';

const UP: [number, number, number] = [0, 0, 1];
const START: [number, number, number] = [300, -300, 300];

export function Viewport() {
  const projection = useApp((s) => s.projection);
  const clearSelection = useApp((s) => s.clearSelection);
  return (
    <div className="viewport" data-testid="viewport">
      <Canvas
        frameloop="demand"
        flat
        dpr={[1, 2]}
        gl={{ preserveDrawingBuffer: true, antialias: true }}
        camera={{ up: UP, position: START, fov: 35 }}
        onPointerMissed={(e) => {
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
        <Lights />
        <PartMeshes />
        <ResultHighlight />
        <GroundGrid />
        <CameraRig />
        <FrameProbe />
        <GizmoHelper alignment="bottom-right" margin={[64, 64]}>
          <GizmoViewport axisColors={['#d9534f', '#5cb85c', '#428bca']} labelColor="#ffffff" />
        </GizmoHelper>
      </Canvas>
      <ViewportOverlay />
    </div>
  );
}
