// Draws the application icon, assets/icon.png (512×512, RGBA), with pngjs: two parts — a round
// one and a square one — that overlap, the overlap (their interference) in red, on a dark rounded
// tile. Shapes are signed distance functions, so every edge is anti-aliased analytically.
//
//   node scripts/makeIcon.mjs [out.png]
import { writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';

const SIZE = 512;
const out = process.argv[2] ?? 'assets/icon.png';

/** Signed distance to a rounded rectangle centred at (cx, cy) with half sizes (hx, hy) and corner radius r. */
function roundedRect(x, y, cx, cy, hx, hy, r) {
  const qx = Math.abs(x - cx) - (hx - r);
  const qy = Math.abs(y - cy) - (hy - r);
  const outside = Math.hypot(Math.max(qx, 0), Math.max(qy, 0));
  return outside + Math.min(Math.max(qx, qy), 0) - r;
}

function circle(x, y, cx, cy, r) {
  return Math.hypot(x - cx, y - cy) - r;
}

/** Coverage of a pixel by a shape from its signed distance (one-pixel ramp). */
function coverage(d) {
  return Math.min(1, Math.max(0, 0.5 - d));
}

function hex(c) {
  return [parseInt(c.slice(1, 3), 16), parseInt(c.slice(3, 5), 16), parseInt(c.slice(5, 7), 16)];
}

function mix(a, b, t) {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

const TILE_TOP = hex('#2b3d52');
const TILE_BOTTOM = hex('#152030');
const ROUND = hex('#4aa3df');
const SQUARE = hex('#f2b134');
const CLASH = hex('#e5484d');
const EDGE = hex('#f4f7fb');

const png = new PNG({ width: SIZE, height: SIZE });
for (let py = 0; py < SIZE; py++) {
  for (let px = 0; px < SIZE; px++) {
    const x = px + 0.5;
    const y = py + 0.5;
    const tile = roundedRect(x, y, 256, 256, 240, 240, 96);
    let color = mix(TILE_TOP, TILE_BOTTOM, y / SIZE);

    const dRound = circle(x, y, 212, 298, 128);
    const dSquare = roundedRect(x, y, 306, 214, 118, 118, 26);
    const dBoth = Math.max(dRound, dSquare);

    color = mix(color, SQUARE, coverage(dSquare));
    color = mix(color, ROUND, coverage(dRound));
    color = mix(color, CLASH, coverage(dBoth));
    // Light outlines, 5 px wide, around both parts (drawn over the fills).
    color = mix(color, EDGE, 0.9 * coverage(Math.abs(dSquare) - 2.5));
    color = mix(color, EDGE, 0.9 * coverage(Math.abs(dRound) - 2.5));

    const i = (py * SIZE + px) * 4;
    png.data[i] = Math.round(color[0]);
    png.data[i + 1] = Math.round(color[1]);
    png.data[i + 2] = Math.round(color[2]);
    png.data[i + 3] = Math.round(255 * coverage(tile));
  }
}

writeFileSync(out, PNG.sync.write(png, { colorType: 6 }));
console.log(`wrote ${out} (${SIZE}×${SIZE})`);
