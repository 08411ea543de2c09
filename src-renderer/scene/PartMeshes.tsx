/**
 * One mesh per visible part, sharing its body's geometry; edges drawn over the faces. Hover and
 * click select parts (synced with the part tree); right-click opens the part menu. While a result
 * is selected its two parts turn neutral so that the finding shows, and the others fade or hide;
 * after a check, before a result is chosen, the parts in findings are tinted by their worst kind
 * (the overview). Each part's group carries its overlays (PartOverlays) and is registered in
 * `partGroups` so that the gizmo can move it directly while it is dragged.
 *
 * Selection, hover, the overview and the section plane never re-render a part: each part's
 * materials are made once and changed in place by a store subscription (`applyLook`), which asks
 * for one frame.
 */
import { useThree, type ThreeEvent } from '@react-three/fiber';
import { memo, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { Color, DoubleSide, FrontSide, type Group, LineBasicMaterial, LineSegments, Mesh, MeshLambertMaterial } from 'three';
import type { PartInfo } from '../../src-main/contract/host';
import { appStore, geometryRegistry, useApp } from '../appStore';
import { partLook, sameLook, type MarkKind, type PartLook } from '../state/marks';
import { isPartVisible } from '../state/selectors';
import {
  EDGE_SELECTED,
  fallbackColor,
  HOVER_EMISSIVE,
  INVOLVED_A,
  INVOLVED_B,
  KIND_CLEARANCE,
  KIND_CONTACT,
  KIND_INTERFERENCE,
  KIND_UNDECIDED,
  SELECTED_EMISSIVE,
} from './palette';
import { PartOverlays } from './PartOverlays';
import { partGroups } from './partGroups';
import { partMatrix } from './sceneMath';
import { noPlanes, sectionPlanes, stencilBack, stencilFront, stencilOrder } from './section';
import { markMeshesMounted } from './testHook';
import { warmShaders, warmShapes } from './warmup';

/** How far (px) the pointer may move between press and release for a click to select. */
const CLICK_SLOP_PX = 4;

/** Where the right button went down, to tell a right click from a right drag. */
let rightDown: { x: number; y: number } | null = null;

const MARK_COLOR: Record<MarkKind, string> = { interference: KIND_INTERFERENCE, undecided: KIND_UNDECIDED, clearance: KIND_CLEARANCE, contact: KIND_CONTACT };
/** How much of the mark's colour an overview tint takes. */
const MARK_MIX = 0.88;

export function PartMeshes() {
  const doc = useApp((s) => s.doc);
  const version = useApp((s) => s.geometry.version);
  const visibility = useApp((s) => s.visibility);
  const sectionOn = useApp((s) => s.section.on);
  const invalidate = useThree((s) => s.invalidate);

  useLayoutEffect(() => {
    markMeshesMounted(doc?.id ?? null, version);
    invalidate();
  }, [doc, version, visibility, invalidate]);

  if (!doc) return null;
  return (
    <group name="parts">
      {doc.parts.map((part, index) => {
        if (!isPartVisible({ visibility }, part)) return null;
        // `version` as a prop: a body replaced in the registry redraws the parts placing it.
        return <PartMesh key={part.id} part={part} index={index} version={version} sectionOn={sectionOn} />;
      })}
    </group>
  );
}

interface PartMeshProps {
  part: PartInfo;
  index: number;
  /** The registry's version the body was read at. */
  version: number;
  sectionOn: boolean;
}

interface PartMaterials {
  solid: MeshLambertMaterial;
  ghost: MeshLambertMaterial;
  edge: LineBasicMaterial;
  ghostEdge: LineBasicMaterial;
}

/** The part's own colour (its file's, or the palette's by position). */
export function partBaseColor(part: Pick<PartInfo, 'color'>, index: number): string {
  return part.color ?? fallbackColor(index);
}

const tmp = new Color();
const markTmp = new Color();

/** Applies a look to a part's materials and objects. */
function applyLook(look: PartLook, base: string, m: PartMaterials, mesh: Mesh, edges: LineSegments, group: Group): void {
  const ghost = look.role === 'ghost';
  group.visible = look.role !== 'hidden';
  mesh.material = ghost ? m.ghost : m.solid;
  edges.material = ghost ? m.ghostEdge : m.edge;
  mesh.renderOrder = ghost ? 1 : 0;
  edges.renderOrder = ghost ? 1 : 0;
  if (look.role === 'involvedA') tmp.set(INVOLVED_A);
  else if (look.role === 'involvedB') tmp.set(INVOLVED_B);
  else tmp.set(base);
  if (look.mark) tmp.lerp(markTmp.set(MARK_COLOR[look.mark]), MARK_MIX);
  const material = ghost ? m.ghost : m.solid;
  material.color.copy(tmp);
  const selected = look.selected && look.role === 'normal';
  material.emissive.set(selected ? SELECTED_EMISSIVE : look.hovered ? HOVER_EMISSIVE : '#000000');
  material.emissiveIntensity = selected ? 0.55 : look.hovered ? 0.22 : 0;
  const edge = ghost ? m.ghostEdge : m.edge;
  if (selected) edge.color.set(EDGE_SELECTED);
  else if (look.mark) edge.color.set(MARK_COLOR[look.mark]).multiplyScalar(0.6);
  else edge.color.copy(tmp).multiplyScalar(0.38);
}

const PartMesh = memo(function PartMesh({ part, index, version, sectionOn }: PartMeshProps) {
  const body = geometryRegistry.get(part.bodyKey);
  const dragging = useApp((s) => s.drag?.partId === part.id);
  const openContextMenu = useApp((s) => s.openContextMenu);
  const pickPart = useApp((s) => s.pickPart);
  const selectPart = useApp((s) => s.selectPart);
  const hoverPart = useApp((s) => s.hoverPart);
  const requestCamera = useApp((s) => s.requestCamera);
  const invalidate = useThree((s) => s.invalidate);
  const gl = useThree((s) => s.gl);
  const camera = useThree((s) => s.camera);
  const scene = useThree((s) => s.scene);
  const group = useRef<Group>(null);
  const mesh = useRef<Mesh>(null);
  const edges = useRef<LineSegments>(null);
  const flat = body?.flatShading ?? false;

  // Made once per part (and shading): selection and the overview change them in place. Lambert
  // (diffuse only): a part's look needs no specular, and under software WebGL (SwiftShader) the
  // physically based shader made every covered pixel several times dearer.
  const materials = useMemo<PartMaterials>(() => {
    const common = { flatShading: flat, side: part.closed ? FrontSide : DoubleSide, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 };
    return {
      solid: new MeshLambertMaterial(common),
      ghost: new MeshLambertMaterial({ ...common, transparent: true, opacity: 0.12, depthWrite: false }),
      edge: new LineBasicMaterial(),
      ghostEdge: new LineBasicMaterial({ transparent: true, opacity: 0.15, depthWrite: false }),
    };
  }, [flat, part.closed]);
  useLayoutEffect(() => () => Object.values(materials).forEach((m: MeshLambertMaterial | LineBasicMaterial) => m.dispose()), [materials]);

  // The faded look's programs, compiled before a result is first selected.
  useEffect(() => {
    if (body) warmShaders(gl, camera, scene, invalidate, [new Mesh(warmShapes.surface, materials.ghost), new LineSegments(warmShapes.lines, materials.ghostEdge)]);
  }, [gl, camera, scene, invalidate, materials, body]);

  // The look follows the store without React: one subscription per part.
  const base = partBaseColor(part, index);
  useLayoutEffect(() => {
    let last: PartLook | null = null;
    const apply = (force: boolean) => {
      const g = group.current, me = mesh.current, ed = edges.current;
      if (!g || !me || !ed) return;
      const s = appStore.getState();
      const look = partLook(s, part.id);
      if (!force && sameLook(last, look)) return;
      last = look;
      applyLook(look, base, materials, me, ed, g);
      invalidate();
    };
    apply(true);
    return appStore.subscribe(() => apply(false));
  }, [part.id, base, materials, body, invalidate]);

  // The section plane clips every part (three recompiles a material when its plane count changes).
  useLayoutEffect(() => {
    for (const m of Object.values(materials) as (MeshLambertMaterial | LineBasicMaterial)[]) m.clippingPlanes = sectionOn ? sectionPlanes : noPlanes;
    invalidate();
  }, [sectionOn, materials, invalidate]);

  // `body` among the dependencies: the group exists only once the body's geometry does. While
  // the part is dragged the gizmo places its group; the document's placement returns after.
  useLayoutEffect(() => {
    const g = group.current;
    if (!g || dragging) return;
    partMatrix(part.transform, g.matrix);
    g.matrixWorldNeedsUpdate = true;
    invalidate();
  }, [part.transform, body, dragging, invalidate]);

  useLayoutEffect(() => {
    const g = group.current;
    if (!g) return;
    partGroups.set(part.id, g);
    return () => {
      if (partGroups.get(part.id) === g) partGroups.delete(part.id);
    };
  }, [part.id, body]);

  if (!body) return null;

  const onOver = (e: ThreeEvent<PointerEvent>) => {
    e.stopPropagation();
    hoverPart(part.id);
    gl.domElement.style.cursor = 'pointer';
  };
  const onOut = () => {
    hoverPart(null);
    gl.domElement.style.cursor = '';
  };
  const onClick = (e: ThreeEvent<MouseEvent>) => {
    if (e.delta > CLICK_SLOP_PX) return;
    e.stopPropagation();
    const mode = e.shiftKey ? 'range' : e.ctrlKey || e.metaKey ? 'toggle' : 'replace';
    pickPart(part.id, mode);
  };
  const onDoubleClick = (e: ThreeEvent<MouseEvent>) => {
    e.stopPropagation();
    selectPart(part.id, 'replace');
    requestCamera({ kind: 'fitSelection' });
  };
  // The part menu opens on a right click that did not drag (a right drag pans the view); the
  // browser's own menu is suppressed on the whole viewport.
  const onPointerDown = (e: ThreeEvent<PointerEvent>) => {
    if (e.button === 2) rightDown = { x: e.nativeEvent.clientX, y: e.nativeEvent.clientY };
  };
  const onPointerUp = (e: ThreeEvent<PointerEvent>) => {
    if (e.button !== 2 || !rightDown) return;
    const moved = Math.hypot(e.nativeEvent.clientX - rightDown.x, e.nativeEvent.clientY - rightDown.y);
    rightDown = null;
    if (moved > CLICK_SLOP_PX) return;
    e.stopPropagation();
    let ids = appStore.getState().selectedParts;
    if (!ids.includes(part.id)) {
      selectPart(part.id, 'replace');
      ids = [part.id];
    }
    openContextMenu({ x: e.nativeEvent.clientX, y: e.nativeEvent.clientY, target: { kind: 'parts', ids: [...ids] } });
  };

  const order = stencilOrder(index);
  return (
    <group ref={group} matrixAutoUpdate={false} name={part.id}>
      <mesh
        ref={mesh}
        geometry={body.geometry}
        material={materials.solid}
        onPointerOver={onOver}
        onPointerOut={onOut}
        onClick={onClick}
        onDoubleClick={onDoubleClick}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
      />
      <lineSegments ref={edges} geometry={body.edges} material={materials.edge} raycast={noRaycast} />
      {sectionOn && part.closed && (
        <>
          <mesh geometry={body.geometry} material={stencilBack} renderOrder={order} raycast={noRaycast} name="section-stencil" />
          <mesh geometry={body.geometry} material={stencilFront} renderOrder={order} raycast={noRaycast} name="section-stencil" />
        </>
      )}
      <PartOverlays partId={part.id} bodyKey={part.bodyKey} version={version} />
    </group>
  );
});

function noRaycast(): void {
  // Edge lines, stencil passes are not picked: the faces under them are.
}
