/** Which command lines read CAD files: for starting OpenCascade early (cli/launch.ts, cli/interfere.ts). */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

const CAD_NAME = /\.(stp|step|igs|iges|brep|brp)$/i;
const CAD_SOURCE = /\.(stp|step|igs|iges|brep|brp)"/i;
/** Saved assemblies larger than this are not looked into (the check reads them anyway). */
const MAX_PEEK_BYTES = 4 * 1024 * 1024;

/** The launcher's answer for this process's command line (cli/launch.ts), so that it is worked out once. */
const VERDICT = Symbol.for('interfere.wantsOpenCascade');

/** wantsOpenCascade of this process's command line, worked out once (the launcher's answer when it gave one); only a start-up hint. */
export function processWantsOpenCascade(argv: readonly string[]): boolean {
  const holder = globalThis as { [VERDICT]?: boolean };
  holder[VERDICT] ??= wantsOpenCascade(argv);
  return holder[VERDICT];
}

/** Whether some input is, or names, a CAD file (a cheap guess: a wrong one costs only a compile). */
export function wantsOpenCascade(argv: readonly string[]): boolean {
  if (argv[0] !== 'check') return false;
  for (const arg of argv.slice(1)) {
    if (arg.startsWith('-')) continue;
    if (CAD_NAME.test(arg)) return true;
    if (!/\.json$/i.test(arg)) continue;
    if (namesCad(arg)) return true;
  }
  return false;
}


/**
 * Whether a saved assembly's text names a CAD file. Only a regular file is looked into, opened
 * without blocking and checked on the open handle: reading a FIFO or a device could block or never end.
 */
function namesCad(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return false; // the check reports an unreadable input
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_PEEK_BYTES) return false;
    const bytes = Buffer.alloc(st.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return CAD_SOURCE.test(bytes.toString('latin1', 0, read));
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
