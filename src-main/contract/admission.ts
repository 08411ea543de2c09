/**
 * Admission of a request at the door: the one check every shell (the Electron IPC handlers,
 * ../main/ipc.ts; the loopback bridge, ../bridge/server.ts) and the host service itself make of a
 * request before anything acts on it. A request is refused when its channel is not in the
 * contract, when it is larger than MAX_REQUEST_BYTES or nested deeper than MAX_REQUEST_DEPTH
 * (before it is parsed), when it carries a field its schema does not have (the request schemas are
 * strict, see ./host.ts), or when it does not match its schema. Pure TypeScript.
 */
import { z } from 'zod';
import { REQUESTS, type HostError, type RequestChannel } from './host.js';

/** Largest request accepted, estimated as its JSON length. */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024;
/** Deepest nesting of objects and arrays accepted in a request. */
export const MAX_REQUEST_DEPTH = 32;

/**
 * Why a request cannot be taken at all (too large, too deeply nested), or null. Walks the payload
 * once and stops as soon as the estimate of its JSON length passes MAX_REQUEST_BYTES.
 */
export function requestSizeProblem(payload: unknown): string | null {
  let bytes = 0;
  const stack: { value: unknown; depth: number }[] = [{ value: payload, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof value === 'string') {
      bytes += value.length + 2;
    } else if (typeof value === 'object' && value !== null) {
      if (ArrayBuffer.isView(value)) {
        bytes += value.byteLength;
      } else {
        if (depth >= MAX_REQUEST_DEPTH) return `it is nested deeper than ${MAX_REQUEST_DEPTH} levels`;
        if (Array.isArray(value)) {
          bytes += 2 + value.length;
          if (bytes > MAX_REQUEST_BYTES) break;
          for (const v of value as unknown[]) stack.push({ value: v, depth: depth + 1 });
        } else {
          const keys = Object.keys(value);
          bytes += 2 + keys.length;
          if (bytes > MAX_REQUEST_BYTES) break;
          for (const k of keys) {
            bytes += k.length + 3;
            stack.push({ value: (value as Record<string, unknown>)[k], depth: depth + 1 });
          }
        }
      }
    } else {
      bytes += 8;
    }
    if (bytes > MAX_REQUEST_BYTES) break;
  }
  return bytes > MAX_REQUEST_BYTES ? `it is larger than ${MAX_REQUEST_BYTES / 1024 / 1024} MiB` : null;
}

/** Names fields for a message and the log: at most 100 characters each, control characters as '?'. */
function fieldList(fields: readonly string[]): string {
  // eslint-disable-next-line no-control-regex
  const shown = (k: string): string => k.slice(0, 100).replace(/[\u0000-\u001f\u007f]/g, '?');
  return `unknown field${fields.length > 1 ? 's' : ''} ${fields.map((k) => `'${shown(k)}'`).join(', ')}`;
}

/** A field's path as `a.b[2].c`. */
function pathText(at: readonly PropertyKey[]): string {
  let out = '';
  for (const s of at) out += typeof s === 'number' ? `[${s}]` : out === '' ? String(s) : `.${String(s)}`;
  return out;
}

/** The fields a strict schema refused (outermost first, at most three), as paths. */
function unknownFieldsOf(error: z.ZodError): string[] {
  const fields: { path: string; depth: number }[] = [];
  for (const issue of error.issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    for (const key of issue.keys) fields.push({ path: pathText([...issue.path, key]), depth: issue.path.length });
  }
  return fields.sort((a, b) => a.depth - b.depth).slice(0, 3).map((f) => f.path);
}

export type Admission =
  | { readonly ok: true; readonly channel: RequestChannel; readonly request: unknown }
  | { readonly ok: false; readonly error: HostError };

/** Admits a request for a channel (see the file comment): the parsed request, or why it is refused. */
export function admitRequest(channel: unknown, payload: unknown): Admission {
  if (typeof channel !== 'string' || !Object.prototype.hasOwnProperty.call(REQUESTS, channel)) {
    return { ok: false, error: { code: 'unknown-channel', message: `unknown request '${String(channel).slice(0, 100)}'` } };
  }
  const invalid = (why: string): Admission => ({ ok: false, error: { code: 'invalid-request', message: `invalid ${channel} request: ${why}` } });
  const tooBig = requestSizeProblem(payload);
  if (tooBig !== null) return invalid(tooBig);
  const spec = REQUESTS[channel as RequestChannel];
  const parsed = spec.request.safeParse(payload);
  if (!parsed.success) {
    const unknown = unknownFieldsOf(parsed.error);
    return invalid(unknown.length > 0 ? fieldList(unknown) : z.prettifyError(parsed.error).slice(0, 2000));
  }
  return { ok: true, channel: channel as RequestChannel, request: parsed.data };
}
