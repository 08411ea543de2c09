/**
 * Files named on the command line (`interfere part.stp`, a file association, a second launch).
 * Pure: no Electron here, so tests run it as is.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ArgvOptions {
  /**
   * True when started as `electron <app folder> …` (Electron's `process.defaultApp`): the first
   * argument that is not a flag is the app's folder, not a file.
   */
  readonly defaultApp: boolean;
  /** Relative paths are resolved against this folder (the launch's working directory). */
  readonly cwd: string;
}

/**
 * The files among a process's arguments, absolute, in order, without repeats. The executable
 * (argv[0]) and, for `electron .`, the app's folder are skipped, and so is every argument starting
 * with '-': Electron's, Chromium's and the OS's flags (`--inspect`, `--no-sandbox`, macOS's
 * `-psn_…`, the switches Chromium adds to a second instance's command line). A file whose name
 * starts with '-' is named `./-name`. `file://` URLs are accepted.
 */
export function filesFromArgv(argv: readonly string[], options: ArgvOptions): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  let appFolderSkipped = !options.defaultApp;
  for (const arg of argv.slice(1)) {
    if (typeof arg !== 'string' || arg.length === 0 || arg.startsWith('-')) continue;
    if (!appFolderSkipped) {
      appFolderSkipped = true;
      continue;
    }
    let file: string;
    try {
      file = /^file:\/\//i.test(arg) ? fileURLToPath(arg) : path.resolve(options.cwd, arg);
    } catch {
      continue; // a malformed file URL
    }
    if (file.includes('\u0000') || seen.has(file)) continue;
    seen.add(file);
    files.push(file);
  }
  return files;
}

/** What a second launch passes to the first through `requestSingleInstanceLock(additionalData)`. */
export interface LaunchData {
  readonly files: readonly string[];
}

export function launchData(files: readonly string[]): LaunchData {
  return { files: [...files] };
}

/**
 * The files a second launch asks the first to open: its LaunchData when it sent one (resolved by
 * the second process itself, so Chromium's reordering of the command line on Windows does not
 * matter), else its command line.
 */
export function filesFromSecondInstance(additionalData: unknown, argv: readonly string[], options: ArgvOptions): string[] {
  const files = (additionalData as { files?: unknown } | null | undefined)?.files;
  if (Array.isArray(files) && files.every((f) => typeof f === 'string' && path.isAbsolute(f) && !f.includes('\u0000'))) {
    return [...new Set(files as string[])];
  }
  return filesFromArgv(argv, options);
}
