/** Meshes and a rasteriser for the picture tests. */
import { Resvg } from '@resvg/resvg-js';
import { triTriIntersect } from '../../../src-core/geometry/triTri.js';

export interface GridBox {
  readonly positions: Float64Array;
  readonly indices: Uint32Array;
}

/** The box [min, max] with each face an n × n grid of quads (two triangles each), facing out. */
export function gridBox(min: readonly number[], max: readonly number[], n = 4): GridBox {
  const pos: number[] = [];
  const idx: number[] = [];
  // Each face: a fixed axis and side, two running axes ordered so that u × v points out.
  const faces: [number, number, number, number][] = [
    [0, 1, 1, 2], [0, 0, 2, 1], [1, 1, 2, 0], [1, 0, 0, 2], [2, 1, 0, 1], [2, 0, 1, 0],
  ];
  for (const [axis, side, u, v] of faces) {
    const base = pos.length / 3;
    for (let i = 0; i <= n; i++) {
      for (let j = 0; j <= n; j++) {
        const p = [0, 0, 0];
        p[axis] = side ? max[axis]! : min[axis]!;
        p[u] = min[u]! + ((max[u]! - min[u]!) * i) / n;
        p[v] = min[v]! + ((max[v]! - min[v]!) * j) / n;
        pos.push(p[0]!, p[1]!, p[2]!);
      }
    }
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const a = base + i * (n + 1) + j, b = a + n + 1, c = b + 1, d = a + 1;
        idx.push(a, b, c, a, c, d);
      }
    }
  }
  return { positions: Float64Array.from(pos), indices: Uint32Array.from(idx) };
}

/** Every crossing triangle pair of two meshes (brute force: small meshes only). */
export function crossingPairs(a: GridBox, b: GridBox): Uint32Array {
  const out: number[] = [];
  for (let i = 0; i < a.indices.length / 3; i++) {
    for (let j = 0; j < b.indices.length / 3; j++) {
      if (triTriIntersect(
        a.positions, a.indices[3 * i]! * 3, a.indices[3 * i + 1]! * 3, a.indices[3 * i + 2]! * 3,
        b.positions, b.indices[3 * j]! * 3, b.indices[3 * j + 1]! * 3, b.indices[3 * j + 2]! * 3,
      )) out.push(i, j);
    }
  }
  return Uint32Array.from(out);
}

export interface Raster {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;
}

export function rasterise(svg: string): Raster {
  const image = new Resvg(svg, { background: 'white' }).render();
  return { width: image.width, height: image.height, pixels: new Uint8Array(image.pixels) };
}

/** Pixels that are plainly red (the crossing triangles' colour), as [x, y]. */
export function redPixels(r: Raster): [number, number][] {
  const out: [number, number][] = [];
  for (let y = 0; y < r.height; y++) {
    for (let x = 0; x < r.width; x++) {
      const i = 4 * (y * r.width + x);
      if (r.pixels[i]! > 150 && r.pixels[i + 1]! < 90 && r.pixels[i + 2]! < 90) out.push([x, y]);
    }
  }
  return out;
}

/** Pixels of the closest-points line's orange. */
export function orangePixels(r: Raster): [number, number][] {
  const out: [number, number][] = [];
  for (let y = 0; y < r.height; y++) {
    for (let x = 0; x < r.width; x++) {
      const i = 4 * (y * r.width + x);
      if (r.pixels[i]! > 220 && r.pixels[i + 1]! > 110 && r.pixels[i + 1]! < 170 && r.pixels[i + 2]! < 40) out.push([x, y]);
    }
  }
  return out;
}
