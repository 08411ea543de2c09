/**
 * WebAssembly tiers. V8 fixes a module's tiers when it compiles it, from the process's flags at
 * that moment, so the order here matters.
 *
 * - The engine's kernel is compiled first, by the optimising compiler, all of it, up front
 *   (`--no-liftoff --no-wasm-lazy-compilation` while it compiles; 14–19 ms on the 2-core machine).
 *   Under V8's dynamic tiering its functions start in baseline code and are optimised only once
 *   they are hot, so a process's first builds and queries ran 1.5–1.8 times slower, and a tier-up
 *   that arrived in the middle of a query could make it slower still (large-blob-torus-500k-any's
 *   repetitions in a fresh process: 3.6, 1.9, 6.9 ms with dynamic tiering, 2.2, 1.5, 1.6 compiled
 *   up front). The two flags are then set back to V8's defaults, so it runs before any other
 *   WebAssembly flag is set.
 * - When the process reads CAD files, every module compiled after it — OpenCascade's above all,
 *   and manifold-3d's — runs in baseline code only (`--liftoff-only`): OpenCascade's wasm is large,
 *   and in a fresh process the optimising tier's background compiles of its code compete for the
 *   same two cores and cost more than they save in a read (AS1 is read in about 0.9 s instead of
 *   2.3 s; long reads are no slower). A process that reads only meshes keeps dynamic tiering for
 *   all but the kernel.
 *
 * This must run before any OpenCascade worker starts (flags are the process's, not a thread's).
 */
import { setFlagsFromString } from 'node:v8';
import { precompileKernel } from '../../src-core/kernel/precompiled.js';

/**
 * Compiles the kernel's module now, optimised throughout (see the file comment), and sets the two
 * flags back to V8's defaults: call it before setting any other WebAssembly flag.
 */
export function compileKernelOptimised(): void {
  setFlagsFromString('--no-liftoff');
  setFlagsFromString('--no-wasm-lazy-compilation');
  try {
    precompileKernel();
  } finally {
    setFlagsFromString('--liftoff');
    setFlagsFromString('--wasm-lazy-compilation');
  }
}

export function setWasmTiers(readsCad: boolean): void {
  compileKernelOptimised();
  if (readsCad) setFlagsFromString('--liftoff-only');
}
