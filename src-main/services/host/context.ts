/**
 * What the parts of the host service share: the shells' options, the access policy, the recent
 * files, the tree pool, where checks run, the importer, jobs and events. Made once by HostService
 * (./hostService.ts).
 */
import type { ImportFunction } from '../../../src-core/assembly/resolve.js';
import type { AccessPolicy, AccessMode } from '../access.js';
import type { ActivityLog } from '../log.js';
import type { TreeBuilder } from '../bodies.js';
import type { CheckRunner } from '../checkRunner.js';
import type { AtomicFs } from '../files.js';
import type { RecentFiles } from '../recent.js';
import type { HostDialogs, HostServiceOptions } from './api.js';
import { failure } from './errors.js';
import type { Emitter, JobRegistry } from './jobs.js';

export interface HostContext {
  readonly options: HostServiceOptions;
  readonly log: (message: string) => void;
  /** The app's log file (events: open, check, failures); writes never throw. */
  readonly activity: ActivityLog;
  readonly policy: AccessPolicy;
  readonly recent: RecentFiles;
  /** The pool as a check's tree builder. */
  readonly buildTrees: TreeBuilder;
  /** Where checks and pair queries run: the check child (../checkChild.ts), or this process. */
  readonly checkRunner: CheckRunner;
  readonly importer: ImportFunction;
  readonly events: Emitter;
  readonly jobs: JobRegistry;
  /** This run of the service: names its recovery files apart from those of earlier runs. */
  readonly session: string;
  readonly atomicFs: AtomicFs | undefined;
  /** True once the service is being disposed. */
  disposed(): boolean;
}

/** Throws 'access-denied' unless the policy allows it. */
export async function allowed(ctx: HostContext, filePath: string, mode: AccessMode): Promise<void> {
  const r = await ctx.policy.check(filePath, mode);
  if (!r.ok) throw failure('access-denied', r.denial.message, filePath);
}

/** The shell's dialogs, or 'dialog-unavailable' naming what the request should have given. */
export function requireDialogs(ctx: HostContext, what: string): HostDialogs {
  if (ctx.options.dialogs === null) {
    throw failure('dialog-unavailable', `this host has no file dialogs: give the path of the ${what} in the request`);
  }
  return ctx.options.dialogs;
}

/**
 * The file a request names, checked against the access policy; or, when it names none, the
 * file the user picks in an open dialog (granted for reading), null if they cancel.
 */
export async function readableFile(
  ctx: HostContext, requested: string | undefined, what: string, title: string, filters: { name: string; extensions: string[] }[],
): Promise<string | null> {
  if (requested !== undefined) {
    await allowed(ctx, requested, 'read');
    return requested;
  }
  const chosen = await requireDialogs(ctx, what).openFile({ title, filters });
  if (chosen !== null) ctx.policy.grant(chosen, 'read');
  return chosen;
}
