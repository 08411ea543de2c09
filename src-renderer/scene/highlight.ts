/**
 * Positions of chosen triangles of an indexed mesh, unindexed (x y z per corner), for drawing
 * the colliding triangles of a result over a part. Kept separate from the body's buffers so that
 * releasing a highlight never touches the body's GPU buffers.
 */
export function trianglePositions(positions: ArrayLike<number>, indices: ArrayLike<number>, triangles: Uint32Array): Float32Array {
  const triCount = Math.floor(indices.length / 3);
  let n = 0;
  for (let i = 0; i < triangles.length; i++) if (triangles[i] < triCount) n++;
  const out = new Float32Array(n * 9);
  let w = 0;
  for (let i = 0; i < triangles.length; i++) {
    const t = triangles[i];
    if (t >= triCount) continue;
    for (let c = 0; c < 3; c++) {
      const v = indices[3 * t + c];
      out[w++] = positions[3 * v];
      out[w++] = positions[3 * v + 1];
      out[w++] = positions[3 * v + 2];
    }
  }
  return out;
}
