// `npm run bench:native`: builds the FCL runner (fcl_runner.cpp) against the system's FCL (Debian:
// apt-get install libfcl-dev) into bench/native/build/fcl_runner. When FCL's pkg-config entry or g++
// is missing it prints one line saying why and exits 0: the benchmark then runs without the FCL rows.
// Rebuilds only when the source or this script is newer than the binary (--force rebuilds anyway).
//
// Options: --out FILE (default bench/native/build/fcl_runner), --force, --quiet.
// Environment: PKG_CONFIG (default pkg-config), CXX (default g++).
// Exit status: 0 built, up to date or skipped (the last line says which), 1 when compiling fails.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const SOURCE = path.join(HERE, 'fcl_runner.cpp');
export const DEFAULT_BINARY = path.join(HERE, 'build', 'fcl_runner');
const CXXFLAGS = ['-O2', '-std=c++17', '-DNDEBUG'];

/** A path for messages: relative to the working folder when inside it. */
function shown(file) {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return { ok: !r.error && r.status === 0, stdout: r.stdout ?? '', stderr: r.stderr ?? '', error: r.error };
}

/** Splits pkg-config output into arguments (it does not quote; paths with spaces are not expected). */
function words(text) {
  return text.trim().split(/\s+/).filter(Boolean);
}

/**
 * Builds the runner (log: progress lines). Returns { status: 'built' | 'up-to-date' | 'skipped' | 'failed', binary, note }.
 */
export function buildFclRunner({ out = DEFAULT_BINARY, force = false, env = process.env, log = () => {} } = {}) {
  const pkgConfig = env.PKG_CONFIG || 'pkg-config';
  const cxx = env.CXX || 'g++';
  const probe = run(pkgConfig, ['--modversion', 'fcl']);
  if (!probe.ok) {
    const why = probe.error ? `${pkgConfig} is not available` : 'pkg-config finds no fcl';
    return { status: 'skipped', binary: out, note: `FCL runner not built: ${why} (Debian: apt-get install libfcl-dev)` };
  }
  const version = probe.stdout.trim();
  const cflags = run(pkgConfig, ['--cflags', 'fcl']);
  const libs = run(pkgConfig, ['--libs', 'fcl']);
  if (!cflags.ok || !libs.ok) {
    return { status: 'skipped', binary: out, note: `FCL runner not built: ${pkgConfig} --cflags/--libs fcl failed` };
  }
  if (!run(cxx, ['--version']).ok) {
    return { status: 'skipped', binary: out, note: `FCL runner not built: no C++ compiler (${cxx})` };
  }
  const self = fileURLToPath(import.meta.url);
  if (!force && existsSync(out)) {
    const built = statSync(out).mtimeMs;
    if (built >= statSync(SOURCE).mtimeMs && built >= statSync(self).mtimeMs) {
      return { status: 'up-to-date', binary: out, note: `FCL runner up to date: ${shown(out)} (fcl ${version})` };
    }
  }
  mkdirSync(path.dirname(out), { recursive: true });
  const tmp = `${out}.tmp-${process.pid}`;
  // -std=c++17 after pkg-config's flags, which carry FCL's own -std=c++11.
  const args = [...words(cflags.stdout), ...CXXFLAGS, SOURCE, '-o', tmp, ...words(libs.stdout)];
  log(`compiling the FCL runner against fcl ${version} (a minute or so)…`);
  const r = spawnSync(cxx, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.error || r.status !== 0) {
    return { status: 'failed', binary: out, note: `FCL runner failed to compile: ${cxx} ${args.join(' ')}` };
  }
  renameSync(tmp, out);
  return { status: 'built', binary: out, note: `FCL runner built: ${shown(out)} (fcl ${version}; ${cxx} ${CXXFLAGS.join(' ')})` };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  let out = DEFAULT_BINARY;
  let force = false;
  let quiet = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out' && i + 1 < argv.length) out = path.resolve(argv[++i]);
    else if (a === '--force') force = true;
    else if (a === '--quiet') quiet = true;
    else {
      process.stderr.write(`bench:native: unknown option '${a}' (options: --out FILE, --force, --quiet)\n`);
      process.exit(2);
    }
  }
  const result = buildFclRunner({ out, force, log: quiet ? () => {} : (m) => process.stderr.write(`${m}\n`) });
  process.stdout.write(`${result.note}\n`);
  process.exitCode = result.status === 'failed' ? 1 : 0;
}
