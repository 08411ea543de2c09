/**
 * Shaders compiled ahead of first use. Selecting the first result used to wait for the programs
 * of the faded parts, the thick lines and the overlap solid to compile (a few hundred ms under
 * SwiftShader); they are compiled in the background once the view is idle instead.
 */
import { BufferAttribute, BufferGeometry, type Camera, Group, type Material, Mesh, type Object3D, type Scene, type WebGLRenderer } from 'three';

/** A triangle to hang materials on for compiling (never drawn). */
const dummy = new BufferGeometry();
dummy.setAttribute('position', new BufferAttribute(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), 3));

/**
 * Compiles the programs `objects` (or plain materials, on a dummy triangle) need with the lights
 * of `scene`, in the background (KHR_parallel_shader_compile where there is one). Errors are
 * ignored: a program that failed here fails again, visibly, when drawn.
 */
export function warmShaders(gl: WebGLRenderer, camera: Camera, scene: Scene, items: readonly (Object3D | Material)[]): void {
  const group = new Group();
  for (const item of items) group.add('isMaterial' in item ? new Mesh(dummy, item) : item);
  const run = () => {
    gl.compileAsync(group, camera, scene).catch(() => {});
  };
  // After the frame being drawn, when the page is idle.
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 1000 });
  else setTimeout(run, 50);
}
