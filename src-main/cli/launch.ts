/**
 * The command line's entry (dist/node/cli/interfere.cjs): a few lines that run before the command
 * line itself (interfere-main.cjs, beside it) is loaded.
 *
 * - Node's compile cache (Node 22.1 and later) keeps the compiled program between runs, in the
 *   system's temporary folder, so that later runs skip most of the compiling of its JavaScript.
 * - When the inputs include CAD files (STEP, IGES, BREP, or a saved assembly naming one), the
 *   OpenCascade worker starts now (services/occtPrestart.ts), so that its wasm compiles on another
 *   core while this thread loads the program and reads the files.
 * - WebAssembly tiers (services/wasmTiers.ts): the engine's kernel is compiled first, optimised
 *   throughout; when CAD files are read, OpenCascade's module, compiled after, runs in baseline
 *   code.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import nodeModule from 'node:module';
import { prestartOcctWorker } from '../services/occtPrestart.js';
import { setWasmTiers } from '../services/wasmTiers.js';
import { processWantsOpenCascade } from './cadInputs.js';
import { LAUNCHED_AT } from './timings.js';

(globalThis as { [LAUNCHED_AT]?: number })[LAUNCHED_AT] = performance.now();
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const readsCad = processWantsOpenCascade(process.argv.slice(2));
// Before any OpenCascade worker starts: the kernel compiled optimised, OpenCascade in baseline code.
setWasmTiers(readsCad);
const worker = path.join(__dirname, '../compute/occtWorker.cjs');
if (readsCad && existsSync(worker)) prestartOcctWorker(worker);
// Loaded at run time, not bundled: the command line is its own file beside this one.
nodeModule.createRequire(__filename)('./interfere-main.cjs');
