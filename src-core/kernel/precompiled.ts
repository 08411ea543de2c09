/**
 * The kernel's module compiled ahead of its first use, shared by every copy of the engine's code
 * in a process (the command line's launcher and its program are separate bundles).
 *
 * Why: V8 fixes a WebAssembly module's tiers when it compiles it, from the process's flags at
 * that moment. Every process that uses the engine compiles the kernel here first, optimised
 * throughout (src-main/services/wasmTiers.ts, `compileKernelOptimised`), before any other flag is
 * set: the command line then runs OpenCascade's large module in baseline code only
 * (`--liftoff-only`), which must not reach the kernel.
 */
import { KERNEL_WASM_BASE64 } from './kernelBinary.js';

/** The subset of the WebAssembly JavaScript API used here (src-core has no DOM or Node types). */
export interface WasmModuleApi {
  Module: new (bytes: Uint8Array) => object;
}

const KEY = Symbol.for('interfere.kernel.precompiled');
interface Precompiled {
  readonly source: string;
  readonly module: object;
}

export function decodeBase64(text: string): Uint8Array {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const value = new Uint8Array(128);
  for (let i = 0; i < alphabet.length; i++) value[alphabet.charCodeAt(i)] = i;
  const clean = text.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0, acc = 0, o = 0;
  for (let i = 0; i < clean.length; i++) {
    acc = (acc << 6) | value[clean.charCodeAt(i)];
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

function wasmApi(): WasmModuleApi | null {
  return (globalThis as unknown as { WebAssembly?: WasmModuleApi }).WebAssembly ?? null;
}

/**
 * Compiles the kernel's module now, under the process's current WebAssembly flags, for
 * `queryKernel` to instantiate later (a few milliseconds under V8's default flags, which compile
 * each function when it is first called; 14–19 ms compiled up front, optimised). Does nothing where there is no WebAssembly, or when it is compiled already.
 */
export function precompileKernel(): void {
  const api = wasmApi();
  const g = globalThis as { [KEY]?: Precompiled };
  if (!api || g[KEY]?.source === KERNEL_WASM_BASE64) return;
  try {
    g[KEY] = { source: KERNEL_WASM_BASE64, module: new api.Module(decodeBase64(KERNEL_WASM_BASE64)) };
  } catch {
    // Refused here (a browser's main thread limits synchronous compiles): compiled on first use.
  }
}

/** The module `precompileKernel` compiled from these very bytes, or null. */
export function precompiledKernel(): object | null {
  const p = (globalThis as { [KEY]?: Precompiled })[KEY];
  return p !== undefined && p.source === KERNEL_WASM_BASE64 ? p.module : null;
}
