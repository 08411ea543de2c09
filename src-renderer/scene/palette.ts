/** Colours of parts whose file gives none, and of the review highlights. */

const PALETTE = ['#8aa6c1', '#c9a66b', '#9bbf85', '#c98b8b', '#a89bc9', '#7fbfbf', '#d1b36b', '#b08fa6', '#8fa38f', '#b5a48f'];

export function fallbackColor(index: number): string {
  return PALETTE[index % PALETTE.length];
}

export const BACKGROUND = '#eef1f5';
/** Colliding triangles of the selected result, of the live check and of the traversal view. */
export const HIGHLIGHT = '#ff0000';
/** Triangles the traversal view tested exactly without a contact. */
export const TESTED = '#ffd400';
/** Boxes of the traversal view: pruned (disjoint), and descended into or tested as leaves. */
export const BOX_PRUNED = '#3f7fd9';
export const BOX_DESCENDED = '#f08c00';
/** The interference volume: a translucent red fill and its dark red edges. */
export const OVERLAP_FILL = '#ff0000';
export const OVERLAP_EDGE = '#7a0010';
/** The two parts of the selected result, in neutral tones so that the red stands out. */
export const INVOLVED_A = '#a9bccf';
export const INVOLVED_B = '#d3c6ae';
export const SELECTED_EMISSIVE = '#1e5bd6';
export const HOVER_EMISSIVE = '#ffffff';
export const EDGE_SELECTED = '#1e5bd6';
export const GRID_MAJOR = '#9aa3ad';
export const GRID_MINOR = '#c9cfd6';
/** Kinds of findings, in the view: the overview's part tints, intersection curves, contact patches. */
export const KIND_INTERFERENCE = '#e3161b';
export const KIND_CLEARANCE = '#f0a202';
export const KIND_CONTACT = '#2a86d9';
export const KIND_UNDECIDED = '#8e24aa';
/** Section caps of the interference volume. */
export const OVERLAP_CAP = '#ff1a1a';
