/**
 * The section view's plane and what caps the cut (three's stencil technique, as in its
 * `webgl_clipping_stencil` example): every closed part is drawn twice more into the stencil
 * buffer only — its back faces counting up, its front faces counting down, both clipped by the
 * plane — so that the stencil is non-zero exactly where the plane lies inside the part; a quad on
 * the plane then fills those pixels in the part's colour (and resets the stencil for the next
 * part). The parts themselves are clipped by the same plane (`clippingPlanes`).
 */
import {
  AlwaysStencilFunc,
  BackSide,
  DecrementWrapStencilOp,
  FrontSide,
  IncrementWrapStencilOp,
  type Matrix4,
  MeshBasicMaterial,
  NotEqualStencilFunc,
  type Material,
  Plane,
  PlaneGeometry,
  Quaternion,
  ReplaceStencilOp,
  Vector3,
} from 'three';

/** The one section plane: kept where its signed distance is positive. */
export const sectionPlane = new Plane(new Vector3(0, 0, -1), 0);
export const sectionPlanes: Plane[] = [sectionPlane];
export const noPlanes: Plane[] = [];

/** Where the plane is drawn: a point on it and the size of the cap quads (mm). */
export const sectionFrame = { origin: new Vector3(), size: 1000 };

/** renderOrder of part `index`'s stencil passes (its cap comes right after): before every part. */
export function stencilOrder(index: number): number {
  return -1_000_000 + 3 * index;
}
/** The interference volume's cap: after every part's cap, so it shows on top of them. */
export const OVERLAP_STENCIL_ORDER = -1000;

function stencilMaterial(side: typeof BackSide | typeof FrontSide): MeshBasicMaterial {
  const op = side === BackSide ? IncrementWrapStencilOp : DecrementWrapStencilOp;
  return new MeshBasicMaterial({
    side,
    colorWrite: false,
    depthWrite: false,
    depthTest: false,
    stencilWrite: true,
    stencilFunc: AlwaysStencilFunc,
    stencilFail: op,
    stencilZFail: op,
    stencilZPass: op,
    clippingPlanes: sectionPlanes,
  });
}

/** Shared by every part: the stencil passes do not depend on the part. */
export const stencilBack = stencilMaterial(BackSide);
export const stencilFront = stencilMaterial(FrontSide);

/** Sets a cap material's stencil test: drawn where the count is non-zero, resetting it. */
export function makeCapMaterial<M extends Material>(m: M): M {
  m.stencilWrite = true;
  m.stencilRef = 0;
  m.stencilFunc = NotEqualStencilFunc;
  m.stencilFail = ReplaceStencilOp;
  m.stencilZFail = ReplaceStencilOp;
  m.stencilZPass = ReplaceStencilOp;
  return m;
}

export const capGeometry = new PlaneGeometry(1, 1);

const Z = new Vector3(0, 0, 1);
const q = new Quaternion();
const s = new Vector3();

/** The world matrix of a cap quad: on the plane, facing along its normal, `sectionFrame.size` wide. */
export function capMatrix(target: Matrix4): Matrix4 {
  q.setFromUnitVectors(Z, sectionPlane.normal);
  const size = sectionFrame.size;
  s.set(size, size, size);
  const origin = sectionPlane.projectPoint(sectionFrame.origin, new Vector3());
  return target.compose(origin, q, s);
}

/** Listeners told when the plane moves (caps update their matrices). */
export const sectionListeners = new Set<() => void>();

export function sectionMoved(): void {
  for (const l of sectionListeners) l();
}
