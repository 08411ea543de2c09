/**
 * Turning failures into messages people can act on: every error the host reports (a failed
 * request, a failed job, a host-level problem) becomes a notice naming the file and the reason.
 */
import { HostErrorSchema } from '../../src-main/contract/host';

export type NoticeLevel = 'error' | 'warning' | 'info';

export interface Notice {
  readonly id: number;
  readonly level: NoticeLevel;
  /** What was being done: "Could not open the file". */
  readonly title: string;
  /** The reason, as the host worded it. */
  readonly message: string;
  /** Machine-readable code from the host ('import-failed', 'access-denied', …), if any. */
  readonly code: string | null;
  /** The file concerned, if any. */
  readonly path: string | null;
  /** When it happened (epoch ms). */
  readonly at: number;
}

export interface ErrorDetails {
  readonly code: string | null;
  readonly message: string;
  readonly path: string | null;
}

/** Codes that mean the user stopped the work, not that it failed. */
const CANCEL_CODES = new Set(['cancelled', 'canceled', 'aborted']);

export function isCancellation(details: ErrorDetails): boolean {
  return details.code !== null && CANCEL_CODES.has(details.code);
}

/**
 * What an error says. Host request errors carry a HostError (`error.error`); errors that crossed
 * Electron's context bridge keep only their message, which the host words to name the file.
 */
export function describeError(error: unknown): ErrorDetails {
  if (typeof error === 'object' && error !== null && 'error' in error) {
    const parsed = HostErrorSchema.safeParse((error as { error: unknown }).error);
    if (parsed.success) return { code: parsed.data.code, message: parsed.data.message, path: parsed.data.path ?? null };
  }
  const parsed = HostErrorSchema.safeParse(error);
  if (parsed.success) return { code: parsed.data.code, message: parsed.data.message, path: parsed.data.path ?? null };
  if (error instanceof Error) return { code: null, message: error.message || error.name, path: null };
  return { code: null, message: String(error), path: null };
}

/** Notices shown over the view at most; older ones are counted, not shown. */
export const MAX_NOTICES_SHOWN = 3;

/** How long a message (info) stays before it fades, ms; errors and warnings stay until dismissed. */
export const INFO_NOTICE_MS = 6000;

/** The notices to show (the newest few, oldest of them first, the newest last) and how many older ones are not shown. */
export function noticeStack(notices: readonly Notice[], max = MAX_NOTICES_SHOWN): { shown: Notice[]; hidden: number } {
  return { shown: notices.slice(Math.max(0, notices.length - max)), hidden: Math.max(0, notices.length - max) };
}

/** The notice Esc closes: the newest. */
export function newestNotice(notices: readonly Notice[]): Notice | null {
  return notices.at(-1) ?? null;
}
