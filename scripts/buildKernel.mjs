// Compiles the WebAssembly query kernel (src-core/kernel/as/kernel.ts, AssemblyScript) ahead of
// time and writes it, base64-encoded, to src-core/kernel/kernelBinary.ts (not tracked: made by
// `npm ci` through `prepare`, and by `npm run build`), so that every bundle and test loads it
// without looking for a file. Fails loudly: a build without the kernel is not a build.
import asc from 'assemblyscript/asc';
import { Buffer } from 'node:buffer';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = 'src-core/kernel/as/kernel.ts';
const target = join(root, 'src-core/kernel/kernelBinary.ts');

let binary = null;
const errors = [];
const { error } = await asc.main(
  [
    source, '-O3', '--runtime', 'stub', '--noAssert', '--outFile', 'kernel.wasm',
    // The host's memory: shared, so that growing it never detaches the views trees hold.
    '--importMemory', '--sharedMemory', '--enable', 'threads', '--enable', 'simd', '--initialMemory', '2', '--maximumMemory', '65536',
  ],
  {
    readFile: (name, baseDir) => {
      try {
        return readFileSync(join(baseDir ?? root, name), 'utf8');
      } catch {
        return null;
      }
    },
    writeFile: (name, contents) => {
      if (name === 'kernel.wasm') binary = contents;
    },
    listFiles: () => [],
    stdout: { write: () => true },
    stderr: { write: (text) => errors.push(String(text)) },
    reportDiagnostic: (d) => errors.push(String(d.message ?? d)),
  },
);
if (error || !binary) {
  console.error(`could not compile ${source}:\n${errors.join('')}${error ? String(error) : ''}`);
  process.exit(1);
}
const base64 = Buffer.from(binary).toString('base64');
const text =
  `// Made by scripts/buildKernel.mjs from ${source}: do not edit.\n` +
  `export const KERNEL_WASM_BASE64 =\n  '${base64}';\n`;
if (!(readFileSafe(target) === text)) {
  writeFileSync(`${target}.tmp`, text);
  renameSync(`${target}.tmp`, target);
}

function readFileSafe(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
