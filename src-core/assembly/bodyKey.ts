/**
 * The key of a distinct body of an assembly: its source and its index in that source's import
 * order. Parts placing the same body share its mesh and tree under this key, and the renderer asks
 * for its geometry by it (`PartInfo.bodyKey`).
 */
export function bodyKey(sourceId: string, bodyIndex: number): string {
  return `${sourceId}#${bodyIndex}`;
}
