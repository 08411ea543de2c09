/**
 * WebAssembly tiers for a short-lived process that reads CAD files (the command line, the
 * development bridge): the engine's kernel is compiled first, keeping V8's dynamic tiering (its
 * hot functions are optimised), and every module compiled after it — OpenCascade's above all —
 * runs in baseline code only. OpenCascade's wasm is large: in a fresh process the optimising
 * tier's background compiles of its code compete for the same two cores and cost more than they
 * save in a read (AS1 is read in about 0.9 s instead of 2.3 s; long reads are no slower).
 *
 * V8 fixes a module's tiers when it compiles it, so this must run before any OpenCascade worker
 * starts.
 */
import { setFlagsFromString } from 'node:v8';
import { precompileKernel } from '../../src-core/kernel/precompiled.js';

export function kernelOptimisedOthersBaseline(): void {
  precompileKernel();
  setFlagsFromString('--liftoff-only');
}
