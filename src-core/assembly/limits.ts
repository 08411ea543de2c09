/**
 * Lengths and sizes a saved assembly, the host and the renderer all hold to, in one place: the
 * assembly reader (format.ts) refuses a file beyond them, the host's request schemas
 * (src-main/contract/host.ts) refuse a request beyond them, and the renderer's schemas take
 * whatever the host sends within them. A part, source or rule the reader accepts can therefore
 * always be shown, changed and checked.
 */

/** Most characters in an id (part, source, ignore-rule end). */
export const MAX_ID_LENGTH = 256;

/** Most characters in a name (of a part, a document). */
export const MAX_NAME_LENGTH = 1024;

/** Most characters in a file path (a source's path, a file the host is asked to open or write). */
export const MAX_PATH_LENGTH = 4096;

/** Most characters in the reason of an ignore rule. */
export const MAX_REASON_LENGTH = 2000;

/** Largest saved assembly file read, bytes (256 MiB: far more than 100,000 parts take). */
export const MAX_ASSEMBLY_FILE_BYTES = 256 * 1024 * 1024;

/**
 * A body's name as a part name: as it is, or shortened to MAX_NAME_LENGTH characters ending in
 * '…' (a file's own body names are not the assembly's to refuse; the caller warns).
 */
export function boundedName(name: string): string {
  if (name.length <= MAX_NAME_LENGTH) return name;
  let cut = name.slice(0, MAX_NAME_LENGTH - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}
