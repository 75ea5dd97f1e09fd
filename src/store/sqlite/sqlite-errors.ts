/**
 * SQLite's errors in the store's terms (store-errors.ts): what the driver
 * throws while the store runs becomes a store error, or stays a defect.
 */
import { StoreFullError, StoreUnavailableError } from '../store-errors.js';

/** SQLite result codes that mean "try again later", not "this request is wrong". */
const TRANSIENT_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_CANTOPEN']);

/**
 * Result codes that mean "no room to write", which a retry does not cure:
 * - SQLITE_FULL: a write met ENOSPC (SQLite's unix VFS turns a write that failed
 *   with ENOSPC into SQLITE_FULL), or the database reached `max_page_count`.
 * - SQLITE_IOERR_SHMSIZE: the `-shm` file could not be grown, which SQLite
 *   documents as "may indicate that the underlying filesystem volume is out of
 *   space". Other I/O errors (EIO, EDQUOT as SQLITE_IOERR_WRITE, …) do not say
 *   which errno they met (the driver does not expose it): they stay unavailable.
 * - SQLITE_READONLY and its extended codes: the store opened the file for
 *   writing and migrated it at start, so a read-only answer while it runs means
 *   the database became read-only under it (a file system remounted read-only,
 *   the file or its folder made read-only, moved or deleted).
 */
function isStoreFull(code: string): boolean {
  return code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_SHMSIZE' || code === 'SQLITE_READONLY' || code.startsWith('SQLITE_READONLY_');
}

/** The primary result code of an extended one: SQLITE_IOERR of SQLITE_IOERR_WRITE. */
function primaryCode(code: string): string {
  return /^SQLITE_[A-Z]+/.exec(code)?.[0] ?? code;
}

/** The store error a driver error stands for; anything else is returned as it is. */
export function translateSqliteError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  if (isStoreFull(code)) return new StoreFullError({ cause: error, readOnly: code.startsWith('SQLITE_READONLY') });
  if (TRANSIENT_CODES.has(primaryCode(code))) return new StoreUnavailableError({ cause: error });
  return error;
}
