/**
 * `npm run dev:web [FILE] [--port N] [--allow DIR]…`: serves the built renderer through the
 * loopback bridge, with FILE (default: the bundled AS1 sample) open at start. Prints one line,
 * `Interfere is running at http://127.0.0.1:PORT/?token=…`, and runs until SIGINT or SIGTERM, then
 * stops within a few seconds whatever is in flight.
 *
 * Files the page may open by path: those in FILE's folder, the samples folder and every --allow
 * folder (the browser has no file dialogs).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DataFolderError, defaultDataFolder, ensurePrivateFolder } from '../services/dataFolder.js';
import { HostService } from '../services/host/hostService.js';
import { LogFile, logFolder } from '../services/log.js';
import { startBridge } from './server.js';
import { setWasmTiers } from '../services/wasmTiers.js';

const USAGE = `Usage: npm run dev:web -- [FILE] [--port N] [--allow DIR]...

Serves Interfere's user interface at http://127.0.0.1:PORT/ for a browser on this machine, with
FILE (default: the bundled AS1 sample) open. Files inside FILE's folder, the samples folder and
every --allow DIR may be opened by path.`;

/** The folder of the package (where package.json names "interfere"), from this file upwards. */
function packageRoot(): string {
  const start = typeof __dirname === 'string' ? __dirname : path.dirname(process.argv[1] ?? '.');
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: unknown }).name === 'interfere') return dir;
      } catch {
        // not ours; keep looking
      }
    }
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        port: { type: 'string' },
        allow: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    process.stderr.write(`dev:web: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length > 1) {
    process.stderr.write(`dev:web: one FILE at most\n${USAGE}\n`);
    return 2;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`dev:web: --port needs a port number (0 to 65535), got '${values.port}'\n`);
    return 2;
  }
  const root = packageRoot();
  const samples = path.join(root, 'assets', 'samples');
  const file = positionals.length === 1 ? path.resolve(positionals[0]) : path.join(samples, 'as1-oc-214.stp');
  const staticDir = path.join(root, 'dist', 'renderer');
  if (!existsSync(path.join(staticDir, 'index.html'))) {
    process.stderr.write(`dev:web: ${staticDir} has no index.html: build the renderer first; the host API is served regardless\n`);
  }

  // Tree cache, recent files and recovery records: a private per-user folder (services/dataFolder.ts).
  let userDataDir: string;
  try {
    userDataDir = await ensurePrivateFolder(defaultDataFolder());
  } catch (e) {
    if (!(e instanceof DataFolderError)) throw e;
    process.stderr.write(`dev:web: the data folder ${e.message}\n`);
    return 2;
  }
  const service = new HostService({
    host: 'bridge',
    dialogs: null,
    userDataDir,
    startupFile: file,
    allowedFolders: [path.dirname(file), samples, ...(values.allow ?? []).map((d) => path.resolve(d))],
    log: (m) => process.stderr.write(`${m}\n`),
    // The same log as the desktop app's, in the bridge's data folder.
    activity: new LogFile({ folder: logFolder(userDataDir) }),
  });
  const bridge = await startBridge({ service, staticDir, port, log: (m) => process.stderr.write(`bridge: ${m}\n`) });
  process.stdout.write(`Interfere is running at ${bridge.url}\n`);

  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  // Work in flight is cancelled and given SHUTDOWN_GRACE_MS to stop; a second signal, or work
  // still running then, ends the process at once (recovery files are written as changes happen).
  const now = (why: string): void => {
    process.stderr.write(`dev:web: ${why}; exiting now\n`);
    process.exit(1);
  };
  process.once('SIGINT', () => now('second signal'));
  process.once('SIGTERM', () => now('second signal'));
  setTimeout(() => now(`work still in flight ${SHUTDOWN_GRACE_MS / 1000} s after the signal`), SHUTDOWN_GRACE_MS).unref();
  await bridge.close();
  await service.dispose();
  return 0;
}

/** How long work in flight may take to stop after SIGINT or SIGTERM. */
const SHUTDOWN_GRACE_MS = 3000;

// As in the command line: the kernel optimised, OpenCascade's wasm in baseline code (the files
// opened here are chosen later, and are CAD files more often than not).
setWasmTiers(true);

main(process.argv.slice(2)).then(
  (code) => {
    // Exit explicitly, once standard output is flushed: a thread still busy on a file (or a
    // child) must not keep the process alive.
    process.stdout.write('', () => process.exit(code));
  },
  (e: unknown) => {
    process.stderr.write(`dev:web: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);
