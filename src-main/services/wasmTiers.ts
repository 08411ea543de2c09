/**
 * WebAssembly tiers for a short-lived process (the command line, the development bridge). The
 * engine's kernel is compiled first and keeps V8's dynamic tiering: its hot functions are
 * optimised. When the process reads CAD files, every module compiled after it — OpenCascade's
 * above all, and manifold-3d's — runs in baseline code only: OpenCascade's wasm is large, and in
 * a fresh process the optimising tier's background compiles of its code compete for the same two
 * cores and cost more than they save in a read (AS1 is read in about 0.9 s instead of 2.3 s; long
 * reads are no slower). A process that reads only meshes keeps dynamic tiering for all.
 *
 * V8 fixes a module's tiers when it compiles it, so this must run before any OpenCascade worker
 * starts.
 */
import { setFlagsFromString } from 'node:v8';
import { precompileKernel } from '../../src-core/kernel/precompiled.js';

export function setWasmTiers(readsCad: boolean): void {
  precompileKernel();
  if (readsCad) setFlagsFromString('--liftoff-only');
}
