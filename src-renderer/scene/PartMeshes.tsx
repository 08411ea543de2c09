/**
 * One mesh per visible part, sharing its body's geometry; edges drawn over the faces. Hover and
 * click select parts (synced with the part tree); right-click opens the part menu. While a result
 * is selected its two parts turn neutral so that the red collision shows, and the others fade or
 * hide. Each part's group carries its overlays (PartOverlays) and is registered in `partGroups`
 * so that the gizmo can move it directly while it is dragged.
 */
import { useThree, type ThreeEvent } from '@react-three/fiber';
import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import { DoubleSide, FrontSide, type Group } from 'three';
import { useShallow } from 'zustand/react/shallow';
import type { PartInfo } from '../../src-main/contract/host';
import { appStore, geometryRegistry, useApp } from '../appStore';
import { selectedResultOf, isPartVisible } from '../state/selectors';
import {
  EDGE_SELECTED,
  fallbackColor,
  HOVER_EMISSIVE,
  INVOLVED_A,
  INVOLVED_B,
  SELECTED_EMISSIVE,
} from './palette';
import { PartOverlays } from './PartOverlays';
import { partGroups } from './partGroups';
import { partMatrix } from './sceneMath';
import { markMeshesMounted } from './testHook';

type Role = 'normal' | 'involvedA' | 'involvedB' | 'ghost';

/** How far (px) the pointer may move between press and release for a click to select. */
const CLICK_SLOP_PX = 4;

/** Where the right button went down, to tell a right click from a right drag. */
let rightDown: { x: number; y: number } | null = null;

export function PartMeshes() {
  const doc = useApp((s) => s.doc);
  const version = useApp((s) => s.geometry.version);
  const visibility = useApp((s) => s.visibility);
  const pair = useApp(useShallow((s) => {
    const r = selectedResultOf(s);
    return r ? [r.a, r.b] : null;
  }));
  const others = useApp((s) => s.othersWhenResult);
  const invalidate = useThree((s) => s.invalidate);

  useLayoutEffect(() => {
    markMeshesMounted(doc?.id ?? null, version);
    invalidate();
  }, [doc, version, visibility, pair, others, invalidate]);

  if (!doc) return null;
  return (
    <group name="parts">
      {doc.parts.map((part, index) => {
        if (!isPartVisible({ visibility }, part)) return null;
        const role: Role = pair === null ? 'normal' : part.id === pair[0] ? 'involvedA' : part.id === pair[1] ? 'involvedB' : 'ghost';
        if (role === 'ghost' && others === 'hidden') return null;
        // `version` as a prop: a body replaced in the registry redraws the parts placing it.
        return <PartMesh key={part.id} part={part} index={index} role={role} version={version} />;
      })}
    </group>
  );
}

interface PartMeshProps {
  part: PartInfo;
  index: number;
  role: Role;
  /** The registry's version the body was read at. */
  version: number;
}

const PartMesh = memo(function PartMesh({ part, index, role, version }: PartMeshProps) {
  const body = geometryRegistry.get(part.bodyKey);
  const dragging = useApp((s) => s.drag?.partId === part.id);
  const openContextMenu = useApp((s) => s.openContextMenu);
  const selected = useApp((s) => s.selectedParts.includes(part.id));
  const hovered = useApp((s) => s.hoveredPart === part.id);
  const selectPart = useApp((s) => s.selectPart);
  const hoverPart = useApp((s) => s.hoverPart);
  const requestCamera = useApp((s) => s.requestCamera);
  const invalidate = useThree((s) => s.invalidate);
  const gl = useThree((s) => s.gl);
  const group = useRef<Group>(null);

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

  const colors = useMemo(() => {
    const base = part.color ?? fallbackColor(index);
    const color = role === 'involvedA' ? INVOLVED_A : role === 'involvedB' ? INVOLVED_B : base;
    return { color, edge: darken(color) };
  }, [part.color, index, role]);

  if (!body) return null;
  const ghost = role === 'ghost';
  const emissive = selected && role === 'normal' ? SELECTED_EMISSIVE : hovered ? HOVER_EMISSIVE : '#000000';
  const emissiveIntensity = selected && role === 'normal' ? 0.55 : hovered ? 0.22 : 0;

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
    selectPart(part.id, mode);
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

  return (
    <group ref={group} matrixAutoUpdate={false} name={part.id}>
      <mesh
        geometry={body.geometry}
        onPointerOver={onOver}
        onPointerOut={onOut}
        onClick={onClick}
        onDoubleClick={onDoubleClick}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        renderOrder={ghost ? 1 : 0}
      >
        {/* Shading and transparency are compiled into the shader (three's OPAQUE define):
            a change makes a new material rather than a stale program. */}
        <meshStandardMaterial
          key={`${body.flatShading ? 'flat' : 'smooth'}-${ghost ? 'ghost' : 'solid'}`}
          color={colors.color}
          emissive={emissive}
          emissiveIntensity={emissiveIntensity}
          metalness={0.05}
          roughness={0.62}
          flatShading={body.flatShading}
          side={part.closed ? FrontSide : DoubleSide}
          transparent={ghost}
          opacity={ghost ? 0.12 : 1}
          depthWrite={!ghost}
          polygonOffset
          polygonOffsetFactor={1}
          polygonOffsetUnits={1}
        />
      </mesh>
      <lineSegments geometry={body.edges} renderOrder={ghost ? 1 : 0} raycast={noRaycast}>
        <lineBasicMaterial
          key={ghost ? 'ghost' : 'solid'}
          color={selected && role === 'normal' ? EDGE_SELECTED : colors.edge}
          transparent={ghost}
          opacity={ghost ? 0.15 : 1}
          depthWrite={!ghost}
        />
      </lineSegments>
      <PartOverlays partId={part.id} bodyKey={part.bodyKey} version={version} />
    </group>
  );
});

function noRaycast(): void {
  // Edge lines are not picked: the faces under them are.
}

/** A darker shade of a `#rrggbb` colour, for edge lines. */
function darken(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const f = 0.38;
  const r = Math.round(((n >> 16) & 255) * f);
  const g = Math.round(((n >> 8) & 255) * f);
  const b = Math.round((n & 255) * f);
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}
