/**
 * The scene group of each part by id (non-reactive): the gizmo moves a part's group directly
 * while it is dragged, without going through React on every pointer move.
 */
import type { Group } from 'three';

export const partGroups = new Map<string, Group>();
