/**
 * Shaders and pipelines made ready ahead of first use. Selecting the first result used to wait
 * for the programs of the faded parts, the thick lines and the overlap solid to compile, and,
 * under SwiftShader, for the rasterizer to build its code for each new combination of program
 * and state (blending, depth test) the first time it draws with it: several hundred ms. Once the
 * view is idle, the materials waiting here are compiled (in the background where the browser can)
 * and each draws a shape like the view's own into a single scissored pixel of the view, with the
 * scene's lights; the next frame draws that pixel again.
 */
import { BufferAttribute, BufferGeometry, type Camera, Group, type LineSegments, type Material, type Mesh, type Object3D, type Scene, Vector2, Vector3, type WebGLRenderer } from 'three';

/** How far the warm-up's shapes reach across the view (in the camera's frame, at depth 1). */
const FAR = 1e7;

/**
 * Shapes like the view's own, for drawing a material as the view will: the rasterizer's code
 * depends on the vertex layout and the primitive too. In the camera's frame (scaled in depth),
 * through the middle of the view: a triangle indexed with normals (a part), one unindexed
 * (patches), one indexed without normals (the overlap solid), a line segment indexed (edges).
 */
export const warmShapes = {
  surface: shape([-FAR, -FAR, -1, FAR, -FAR, -1, 0, FAR, -1], true, true),
  triangles: shape([-FAR, -FAR, -1, FAR, -FAR, -1, 0, FAR, -1], false, false),
  /** Indexed, without normals (the overlap solid). */
  solid: shape([-FAR, -FAR, -1, FAR, -FAR, -1, 0, FAR, -1], true, false),
  lines: shape([-FAR, 0, -1, FAR, 0, -1], true, false),
  /** A thick line's segment (LineSegmentsGeometry.setPositions). */
  segment: [-FAR, 0, -1, FAR, 0, -1] as const,
};

function shape(positions: number[], indexed: boolean, normals: boolean): BufferGeometry {
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(new Float32Array(positions), 3));
  if (normals) g.setAttribute('normal', new BufferAttribute(new Float32Array(positions.map((_, i) => (i % 3 === 2 ? 1 : 0))), 3));
  if (indexed) g.setIndex(new BufferAttribute(Uint32Array.from(positions.slice(0, positions.length / 3), (_, i) => i), 1));
  return g;
}

interface Target {
  gl: WebGLRenderer;
  camera: Camera;
  scene: Scene;
  invalidate: () => void;
}

const pending = new Map<Object3D, Material>();
const disposed = new Set<Material>();
let target: Target | null = null;
let scheduled = false;

function onDispose(this: Material): void {
  for (const [o, m] of pending) if (m === this) pending.delete(o);
  disposed.add(this);
}

/**
 * Makes the materials of `objects` (meshes or lines on `warmShapes`, one material each) ready
 * for drawing in `scene` through `camera`, once the page is idle. An object whose material is
 * disposed before then is skipped. Errors are ignored: a program that failed here fails again,
 * visibly, when drawn.
 */
export function warmShaders(gl: WebGLRenderer, camera: Camera, scene: Scene, invalidate: () => void, objects: readonly (Mesh | LineSegments)[]): void {
  target = { gl, camera, scene, invalidate };
  for (const o of objects) {
    const m = o.material as Material;
    if (pending.has(o)) continue;
    pending.set(o, m);
    o.frustumCulled = false;
    o.raycast = () => {};
    m.addEventListener('dispose', onDispose);
  }
  if (scheduled) return;
  scheduled = true;
  const run = () => {
    scheduled = false;
    void warm();
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 1000 });
  else setTimeout(run, 50);
}

async function warm(): Promise<void> {
  const t = target;
  if (!t || pending.size === 0) return;
  const entries = [...pending];
  const materials = entries.map(([, m]) => m);
  pending.clear();
  disposed.clear();
  const group = new Group();
  group.name = 'shader-warmup';
  for (const [o] of entries) group.add(o);
  try {
    await t.gl.compileAsync(group, t.camera, t.scene);
    // A material disposed meanwhile is not drawn (that would make its program again).
    for (const [o, m] of entries) if (disposed.has(m)) group.remove(o);
    if (group.children.length > 0) drawOnce(t, group);
  } catch {
    // Not ready ahead: ready when first drawn.
  } finally {
    for (const m of materials) m.removeEventListener('dispose', onDispose);
    disposed.clear();
  }
}

const scale = new Vector3();
const middle = new Vector2();

/** Draws `group` alone (with the scene's lights) into the pixel in the middle of the view. */
function drawOnce({ gl, camera, scene, invalidate }: Target, group: Group): void {
  camera.updateMatrixWorld();
  // In the camera's frame, halfway between its near and far planes.
  const c = camera as Camera & { near?: number; far?: number };
  const depth = ((c.near ?? 0) + (c.far ?? 2)) / 2;
  group.matrixAutoUpdate = false;
  group.matrix.copy(camera.matrixWorld).scale(scale.set(1, 1, depth));
  const shown = scene.children.map((o) => o.visible);
  const after = scene.onAfterRender;
  try {
    for (const o of scene.children) if (!(o as Object3D & { isLight?: boolean }).isLight) o.visible = false;
    scene.add(group);
    // Not a frame of the view: the test hook does not count it.
    scene.onAfterRender = () => {};
    const size = gl.getSize(middle);
    gl.setScissorTest(true);
    gl.setScissor(Math.floor(size.x / 2), Math.floor(size.y / 2), 1, 1);
    gl.render(scene, camera);
  } finally {
    gl.setScissorTest(false);
    scene.onAfterRender = after;
    scene.remove(group);
    scene.children.forEach((o, i) => {
      o.visible = shown[i] ?? o.visible;
    });
    invalidate();
  }
}
