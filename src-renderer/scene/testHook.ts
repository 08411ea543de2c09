/**
 * `window.__interfereTest`: what end-to-end tests wait on. `ready` is true once a frame has been
 * drawn with every part of the current document on screen (false again while another document
 * loads); `renderedFrames` counts frames drawn.
 */
export interface InterfereTestHook {
  ready: boolean;
  renderedFrames: number;
  /** The document drawn when `ready` last became true. */
  documentId: string | null;
  /**
   * Where a point of a part (its centre, offset by `offsetMm` along the world axes) is on the
   * page, in CSS pixels; null without that part. Lets a test aim the gizmo's handles.
   */
  partPoint?: (partId: string, offsetMm?: readonly [number, number, number]) => { x: number; y: number } | null;
  /** Where the centre of a part is drawn (world mm); null without that part. */
  partCentre?: (partId: string) => [number, number, number] | null;
  /** The gizmo's handle under the pointer ('X', 'Y', 'Z', 'XY', …) and where the gizmo is (world mm); null without a gizmo. */
  gizmo?: () => { axis: string | null; position: [number, number, number] } | null;
  /** The section plane (normal, constant: kept where normal·p + constant ≥ 0), or null while off. */
  section?: () => { normal: number[]; constant: number; offsetMm: number; origin: number[] } | null;
  /** What the view shows of the review: the overview's marks, the curves, where the camera is. */
  view?: () => ViewProbe;
}

export interface ViewProbe {
  /** Worst kind by part id, while the overview is shown (no result selected). */
  readonly marks: Record<string, string>;
  /** The results table's part filter. */
  readonly filterPart: string | null;
  readonly selectedResult: string | null;
  /** The selected result's kind and closest points (world mm; null where it has none). */
  readonly selectedKind: string | null;
  readonly closestPoints: readonly (readonly number[])[] | null;
  readonly showCrossing: boolean;
  /** Segments and patch triangles of the selected result's intersection curves. */
  readonly curveSegments: number;
  readonly curvePatches: number;
  readonly overlap: string | null;
  readonly camera: number[];
  readonly target: number[];
  /** Parts (visible, not faded) whose placed bounds hold the camera. */
  readonly cameraInside: string[];
}

declare global {
  interface Window {
    __interfereTest?: InterfereTestHook;
  }
}

export function testHook(): InterfereTestHook {
  window.__interfereTest ??= { ready: false, renderedFrames: 0, documentId: null };
  return window.__interfereTest;
}

/** The document and geometry version the part meshes were last mounted for. */
let mounted: { docId: string | null; version: number } = { docId: null, version: -1 };

export function markMeshesMounted(docId: string | null, version: number): void {
  mounted = { docId, version };
}

export function meshesMountedFor(docId: string | null, version: number): boolean {
  return mounted.docId === docId && mounted.version === version;
}
