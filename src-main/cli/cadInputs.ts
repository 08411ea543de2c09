/** Which command lines read CAD files: for starting OpenCascade early (cli/launch.ts, cli/interfere.ts). */
import { readFileSync, statSync } from 'node:fs';

const CAD_NAME = /\.(stp|step|igs|iges|brep|brp)$/i;
const CAD_SOURCE = /\.(stp|step|igs|iges|brep|brp)"/i;
/** Saved assemblies larger than this are not looked into (the check reads them anyway). */
const MAX_PEEK_BYTES = 4 * 1024 * 1024;

/** Whether some input is, or names, a CAD file (a cheap guess: a wrong one costs only a compile). */
export function wantsOpenCascade(argv: readonly string[]): boolean {
  if (argv[0] !== 'check') return false;
  for (const arg of argv.slice(1)) {
    if (arg.startsWith('-')) continue;
    if (CAD_NAME.test(arg)) return true;
    if (!/\.json$/i.test(arg)) continue;
    try {
      if (statSync(arg).size <= MAX_PEEK_BYTES && CAD_SOURCE.test(readFileSync(arg, 'latin1'))) return true;
    } catch {
      // the check reports an unreadable input
    }
  }
  return false;
}

