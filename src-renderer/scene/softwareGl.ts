/**
 * Whether WebGL runs on a software rasterizer (Chromium's SwiftShader without a GPU, Mesa's
 * llvmpipe): asked once, of a throwaway context, before the view's own context is made.
 */
let cached: boolean | null = null;

export function softwareGl(): boolean {
  if (cached !== null) return cached;
  cached = false;
  try {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
    if (gl) {
      const info = gl.getExtension('WEBGL_debug_renderer_info');
      const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
      cached = /swiftshader|llvmpipe|softpipe|software/i.test(renderer);
      gl.getExtension('WEBGL_lose_context')?.loseContext();
    }
  } catch {
    // No WebGL at all: the view reports that itself.
  }
  return cached;
}
