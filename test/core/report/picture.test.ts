// Pictures of findings for the HTML report: rasterised with resvg, so what is asserted is what
// a reader sees.
import { describe, it, expect } from 'vitest';
import {
  frameView, pairPicture, pictureScene, pictureViews, polylines, project, crossingSegment, px, type PictureInput,
} from '../../../src-core/report/picture.js';
import { reportPictures } from '../../../src-core/report/picture.js';
import { buildReport } from '../../../src-core/report/model.js';
import { contentSecurityPolicy, reportToHtml } from '../../../src-core/report/html.js';
import type { CheckResult } from '../../../src-core/check/types.js';
import { crossingPairs, gridBox, orangePixels, rasterise, redPixels } from './pictureSupport.js';
import { pair } from './sample.js';

const W = 320, H = 240, GAP = 12;

/** A 10 mm cube, and a bar pushed 3 mm into its +x face. */
function crossingInput(): PictureInput {
  const a = gridBox([0, 0, 0], [10, 10, 10], 4);
  const b = gridBox([7, 3, 3], [17, 7, 7], 4);
  return { a, b, trianglePairs: crossingPairs(a, b), centroid: [8.5, 5, 5] };
}

describe('pictures of findings', () => {
  it('draws the crossing triangles in red where they project', () => {
    const input = crossingInput();
    expect(input.trianglePairs.length).toBeGreaterThan(0);
    const svg = pairPicture(input);
    const raster = rasterise(svg);
    expect(raster.width).toBe(2 * W + GAP);
    expect(raster.height).toBe(H);
    const red = redPixels(raster);
    expect(red.length).toBeGreaterThan(200);

    // Where the crossing triangles project, in each view: every red pixel lies in their box.
    const scene = pictureScene(input);
    const views = pictureViews(scene);
    const pairs = input.trianglePairs as Uint32Array;
    views.forEach((view, v) => {
      const x0 = v * (W + GAP);
      let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
      for (let i = 0; i < pairs.length; i++) {
        const body = i % 2 === 0 ? input.a : input.b;
        const t = pairs[i]!;
        for (let k = 0; k < 3; k++) {
          const j = body.indices[3 * t + k]! * 3;
          const [sx, sy] = project(view, body.positions[j]!, body.positions[j + 1]!, body.positions[j + 2]!);
          minX = Math.min(minX, sx); maxX = Math.max(maxX, sx); minY = Math.min(minY, sy); maxY = Math.max(maxY, sy);
        }
      }
      const inView = red.filter(([x]) => x >= x0 && x < x0 + W);
      expect(inView.length, view.name).toBeGreaterThan(50);
      for (const [x, y] of inView) {
        expect(x - x0).toBeGreaterThanOrEqual(Math.floor(minX) - 2);
        expect(x - x0).toBeLessThanOrEqual(Math.ceil(maxX) + 2);
        expect(y).toBeGreaterThanOrEqual(Math.floor(minY) - 2);
        expect(y).toBeLessThanOrEqual(Math.ceil(maxY) + 2);
      }
    });
  });

  it('has no red in a picture of a clear pair, and joins the closest points', () => {
    const a = gridBox([0, 0, 0], [10, 10, 10], 4);
    const b = gridBox([12, 3, 3], [22, 7, 7], 4);
    const svg = pairPicture({ a, b, trianglePairs: new Uint32Array(0), closestPoints: [[10, 5, 5], [12, 5, 5]] });
    const raster = rasterise(svg);
    expect(redPixels(raster)).toEqual([]);
    expect(orangePixels(raster).length).toBeGreaterThan(10);
  });

  it('frames the region of contact inside each view', () => {
    const { centroid: _, ...input } = crossingInput();
    const scene = pictureScene(input);
    // The contact is where the bar's side faces cross the cube's +x face: x = 10, y and z in 3…7.
    expect(scene.contact[0]).toBeCloseTo(10, 9);
    expect(scene.contact[3]).toBeCloseTo(10, 9);
    expect(scene.contact[1]).toBeCloseTo(3, 9);
    expect(scene.contact[4]).toBeCloseTo(7, 9);
    for (let k = 0; k < 3; k++) {
      expect(scene.frame[k]).toBeLessThan(scene.contact[k]!);
      expect(scene.frame[k + 3]).toBeGreaterThan(scene.contact[k + 3]!);
    }
    const views = pictureViews(scene);
    expect(views.map((v) => v.name)).toEqual(['isometric', 'along x']);
    for (const view of views) {
      for (let c = 0; c < 8; c++) {
        const [x, y] = project(view, scene.frame[c & 1 ? 3 : 0]!, scene.frame[c & 2 ? 4 : 1]!, scene.frame[c & 4 ? 5 : 2]!);
        expect(x).toBeGreaterThanOrEqual(7.999);
        expect(x).toBeLessThanOrEqual(W - 7.999);
        expect(y).toBeGreaterThanOrEqual(7.999);
        expect(y).toBeLessThanOrEqual(H - 7.999);
      }
    }
  });

  it('projects a known box onto the middle of the view, z up and depth growing away from the viewer', () => {
    const frame = Float64Array.of(-1, -2, -3, 1, 2, 3);
    const view = frameView('along x', [1, 0, 0], frame, 200, 100, 10);
    // Looking along −x with z up: y runs to the right, z up the page; the box is 4 × 6.
    const [cx, cy] = project(view, 0, 0, 0);
    expect(cx).toBeCloseTo(100, 9);
    expect(cy).toBeCloseTo(50, 9);
    expect(view.scale).toBeCloseTo(80 / 6, 9);
    const top = project(view, 0, 0, 3);
    expect(top[1]).toBeCloseTo(10, 9);
    const near = project(view, 1, 0, 0), far = project(view, -1, 0, 0);
    expect(far[2]).toBeGreaterThan(near[2]);
  });

  it('finds the segment where two triangles cross', () => {
    const pa = Float64Array.of(0, 0, 0, 4, 0, 0, 0, 4, 0);
    const pb = Float64Array.of(1, 1, -1, 1, 1, 1, 3, -3, 0);
    const out = new Float64Array(6);
    expect(crossingSegment(pa, [0, 1, 2], 0, pb, [0, 1, 2], 0, out)).toBe(true);
    // On z = 0 (a's plane), from b's edge at (1, 1) to where b's cut leaves a at y = 0.
    expect(out[2]).toBeCloseTo(0, 12);
    expect(out[5]).toBeCloseTo(0, 12);
    const ends = [[out[0]!, out[1]!], [out[3]!, out[4]!]].sort((p, q) => p[0]! - q[0]!);
    expect(ends[0]![0]).toBeCloseTo(1, 9);
    expect(ends[0]![1]).toBeCloseTo(1, 9);
    expect(ends[1]![0]).toBeCloseTo(1.5, 9);
    expect(ends[1]![1]).toBeCloseTo(0, 9);
  });

  it('chains segments that meet into polylines, once each, without zero-length ones', () => {
    // (0,0)-(1,0), (2,1)-(1,0) reversed, a duplicate, a point, and a separate segment; in tenths.
    expect(polylines([0, 0, 10, 0, 20, 10, 10, 0, 10, 0, 0, 0, 5, 5, 5, 5, 100, 100, 110, 100])).toBe('M0 0l1 0 1 1M10 10l1 0');
    expect(polylines([3, -7, 0, 0])).toBe('M.3 -.7l-.3 .7');
  });

  it('keeps a picture of a dense mesh under its size bound and its triangle cap', () => {
    const a = gridBox([0, 0, 0], [10, 10, 10], 120); // 172,800 triangles
    const b = gridBox([9.5, 4, 4], [12, 6, 6], 8);
    const pairs = crossingPairsNear(a, b);
    const t0 = performance.now();
    const svg = pairPicture({ a, b, trianglePairs: pairs });
    const ms = performance.now() - t0;
    expect(new TextEncoder().encode(svg).length).toBeLessThanOrEqual(150_000);
    const scene = pictureScene({ a, b, trianglePairs: pairs }, 1500);
    expect(scene.keptTri.length).toBe(1500);
    expect(redPixels(rasterise(svg)).length).toBeGreaterThan(20);
    expect(ms).toBeLessThan(3000);
  });

  it('keeps within a small size bound, an overlap solid of many triangles included', () => {
    const input = crossingInput();
    const overlap = gridBox([7, 3, 3], [10, 7, 7], 60);
    const svg = pairPicture({ ...input, overlap }, { maxBytes: 20_000 });
    expect(svg.length).toBeLessThanOrEqual(20_000);
    expect(svg).toContain('stroke-dasharray="4 2"');
    expect(redPixels(rasterise(svg)).length).toBeGreaterThan(50);
  });

  it('outlines the overlap solid and marks its centroid', () => {
    const input = crossingInput();
    const overlap = gridBox([7, 3, 3], [10, 7, 7], 1);
    const svg = pairPicture({ ...input, overlap });
    expect(svg).toContain('stroke-dasharray="4 2"');
    expect(svg.match(/<circle /g)?.length).toBe(4); // centroid ring (halo and line) in each view
  });

  it('writes nothing the report page policy would block, and rounds to 0.1 px', () => {
    const svg = pairPicture({ ...crossingInput(), closestPoints: [[1, 2, 3], [4, 5, 6]] }, { label: '<script>"x"</script>' });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).not.toMatch(/style=|<script|href|url\(|javascript:|<foreignObject/i);
    expect(svg).toContain('aria-label="&lt;script&gt;&quot;x&quot;&lt;/script&gt;"');
    for (const d of svg.matchAll(/ d="([^"]*)"/g)) {
      for (const n of d[1]!.match(/-?\d+(\.\d+)?/g) ?? []) expect(n.split('.')[1]?.length ?? 0).toBeLessThanOrEqual(1);
    }
    expect(px(-0.04)).toBe('0');
    expect(px(12.345)).toBe('12.3');
  });
});

/** Crossing pairs of a dense cube and a small bar, testing only the cube's triangles near x = 10. */
function crossingPairsNear(a: ReturnType<typeof gridBox>, b: ReturnType<typeof gridBox>): Uint32Array {
  const near: number[] = [];
  for (let t = 0; t < a.indices.length / 3; t++) {
    let ok = true;
    for (let k = 0; k < 3; k++) {
      const j = a.indices[3 * t + k]! * 3;
      if (a.positions[j]! < 9.4 || a.positions[j + 1]! < 3.9 || a.positions[j + 1]! > 6.1 || a.positions[j + 2]! < 3.9 || a.positions[j + 2]! > 6.1) ok = false;
    }
    if (ok) near.push(t);
  }
  const sub = { positions: a.positions, indices: Uint32Array.from(near.flatMap((t) => [a.indices[3 * t]!, a.indices[3 * t + 1]!, a.indices[3 * t + 2]!])) };
  const pairs = crossingPairs(sub, b);
  for (let i = 0; i < pairs.length; i += 2) pairs[i] = near[pairs[i]!]!;
  return pairs;
}

describe('pictures in the HTML report', () => {
  const a = gridBox([0, 0, 0], [10, 10, 10], 4);
  const b = gridBox([7, 3, 3], [17, 7, 7], 4);
  const c = gridBox([12, 12, 0], [14, 14, 2], 1);
  const bodies = new Map([['cube', { ...a }], ['bar', { ...b }], ['pin', { ...c }]]);
  const report = buildReport({
    assemblyName: 'pictures.assembly.json',
    check: {
      settings: { touchToleranceMm: 0.01, clearanceMm: 3, contactIsInterference: false, touchToleranceAuto: false },
      summary: { parts: 3, triangles: 96 * 3, elapsedMs: 1 },
      results: [
        pair({ a: 'pin', b: 'bar', kind: 'contact', distanceMm: 0 }),
        pair({ a: 'cube', b: 'bar', kind: 'interference', trianglePairs: crossingPairs(a, b), volumeMm3: 48, centroidMm: [8.5, 5, 5], depthMm: 3 }),
        pair({ a: 'cube', b: 'pin', kind: 'clearance', distanceMm: 2, closestPointsMm: [[10, 12, 1], [12, 12, 1]] }),
      ],
      warnings: [],
    } as unknown as CheckResult,
    parts: [
      { id: 'cube', name: 'Cube <b>&</b>', source: 'a.stl', body: 0, triangles: 96, closed: true },
      { id: 'bar', name: 'Bar', source: 'b.stl', body: 0, triangles: 96, closed: true },
      { id: 'pin', name: 'Pin', source: 'c.stl', body: 0, triangles: 12, closed: true },
    ],
    generatedAt: new Date('2026-12-01T00:00:00Z'),
  });

  it('draws each interference and clearance violation, interference first, and names the parts as text', () => {
    const pictures = reportPictures(report, (id) => bodies.get(id) ?? null);
    expect([...pictures.keys()]).toEqual([1, 2]);
    const html = reportToHtml(report, { pictures });
    expect(html.match(/<figure /g)).toHaveLength(2);
    expect(html.match(/<svg xmlns/g)).toHaveLength(2);
    expect(html).toContain('<span class="name">Cube &lt;b&gt;&amp;&lt;/b&gt;</span> <span class="id">cube</span> (A) and <span class="name">Bar</span> <span class="id">bar</span> (B): volume 48 mm³, depth 3 mm');
    expect(html).toContain('aria-label="Interference of Cube &lt;b&gt;&amp;&lt;/b&gt; and Bar"');
    expect(html).toContain('min distance 2 mm');
    expect(html.indexOf('id="h-pictures"')).toBeGreaterThan(html.indexOf('id="h-results"'));
    // The same policy as without pictures: nothing added that it would have to allow.
    expect(html).toContain(`content="${contentSecurityPolicy()}"`);
    expect(reportToHtml(report)).not.toContain('h-pictures');
    expect(redPixels(rasterise(pictures.get(2)!))).toEqual([]);
    expect(redPixels(rasterise(pictures.get(1)!)).length).toBeGreaterThan(100);
  });

  it('skips results whose parts are not at hand, and caps the count', () => {
    expect([...reportPictures(report, (id) => (id === 'bar' ? null : bodies.get(id) ?? null)).keys()]).toEqual([2]);
    const one = reportPictures(report, (id) => bodies.get(id) ?? null, { maxPictures: 1 });
    expect([...one.keys()]).toEqual([1]);
    expect(reportToHtml(report, { pictures: one })).toContain('1 of 2 interferences and clearance violations are pictured.');
  });
});

describe('pictures of bad input', () => {
  function reportOf(): ReturnType<typeof buildReport> {
    return buildReport({
      assemblyName: 'x.assembly.json',
      check: {
        settings: { touchToleranceMm: 0.01, clearanceMm: 0, contactIsInterference: false, touchToleranceAuto: false },
        summary: { parts: 2, triangles: 13, elapsedMs: 1 },
        results: [pair({ a: 'a', b: 'b', kind: 'interference', trianglePairs: Uint32Array.of(0, 0, 1, 1) })],
        warnings: [],
      } as unknown as CheckResult,
      parts: [{ id: 'a', name: 'a', source: 'a.stl', body: 0, triangles: 12, closed: true }, { id: 'b', name: 'b', source: 'b.stl', body: 0, triangles: 2, closed: false }],
      generatedAt: new Date('2026-12-01T00:00:00Z'),
    });
  }
  const a = gridBox([0, 0, 0], [10, 10, 10], 1);

  it('skips triangles whose vertices are missing, drawing no NaN', () => {
    const b = { positions: Float64Array.of(9, 5, 5, 12, 5, 5, 12, 6, 5), indices: Uint32Array.of(0, 1, 2, 0, 1, 7) };
    const svg = pairPicture({ a, b, trianglePairs: Uint32Array.of(0, 1, 3, 1) });
    expect(svg).not.toMatch(/NaN|Infinity/);
    expect(svg.match(/<svg /g)).toHaveLength(3); // the picture and its two views
  });

  it('leaves out a picture that cannot be drawn, and the report is still written', () => {
    const throwing = new Proxy(new Uint32Array(6), { get: (t, k) => (k === 'length' ? 6 : typeof k === 'string' && /^\d+$/.test(k) ? (() => { throw new Error('unreadable'); })() : Reflect.get(t, k)) });
    const report = reportOf();
    const pictures = reportPictures(report, (id) => (id === 'a' ? a : { positions: new Float64Array(9), indices: throwing }));
    expect(pictures.size).toBe(0);
    const html = reportToHtml(report, { pictures });
    expect(html).not.toContain('h-pictures');
    expect(html).toContain('</html>');
  });
});
