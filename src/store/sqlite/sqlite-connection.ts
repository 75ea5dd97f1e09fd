/**
 * Opening a SQLite database file the one way this service does: its folder made
 * only when asked, WAL, `synchronous` set explicitly (it is per connection and not stored in the
 * file: FULL fsyncs the WAL at every commit), foreign keys on, a busy timeout.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import Database from './sqlite-driver.js';

export type SqliteSynchronous = 'FULL' | 'NORMAL';

export interface SqliteConnectionOptions {
  /** FULL (default) survives power loss; NORMAL survives a process crash only. */
  synchronous?: SqliteSynchronous;
  /** How long a write waits for another process's lock before 503, in ms. */
  busyTimeoutMs?: number;
  /** Open an existing database only: neither the file nor its folder is created (SQLITE_CANTOPEN otherwise). */
  mustExist?: boolean;
  /**
   * Create the file's folder (and its parents) when missing. Off by default: the file
   * itself is created in an existing folder, but a missing folder is SQLITE_CANTOPEN,
   * so a mistyped path never makes folders (open-store.ts refuses it first, in words).
   */
  createDirectory?: boolean;
  /**
   * For a process that writes in large batches (an import): checkpoint the WAL
   * into the database every 20,000 pages instead of SQLite's 1,000, so a page
   * written by many batches is copied back (and fsynced) once per checkpoint,
   * not after nearly every batch. The WAL file grows to about 80 MB meanwhile.
   */
  bulkWrites?: boolean;
  /**
   * Whether deleted content is overwritten with zeros in the database file (PRAGMA
   * secure_delete): ON (default) so a deleted user's bytes do not linger in free pages
   * (docs/security.md, "Erasure"); FAST only where it costs no extra I/O; OFF leaves them.
   */
  secureDelete?: SqliteSecureDelete;
}

export type SqliteSecureDelete = 'ON' | 'FAST' | 'OFF';

/**
 * How long a bulk writer (an import) waits for another process's lock: a request answers
 * 503 after 5 s, but an import has no client waiting, and the lock it waits for may be an
 * index build of a service opening the store (sqlite-bulk-load.ts), seconds per index for
 * millions of users.
 */
const BULK_BUSY_TIMEOUT_MS = 120_000;

export function configureConnection(db: BetterSqlite3.Database, options: SqliteConnectionOptions): void {
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? (options.bulkWrites ? BULK_BUSY_TIMEOUT_MS : 5000)}`);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  db.pragma('foreign_keys = ON');
  db.pragma(`secure_delete = ${options.secureDelete ?? 'ON'}`);
  // Every write of a group commit of several runs in a savepoint (group-commit.ts), and SQLite
  // keeps the savepoint's undo pages in a journal that by default moves to a temporary file
  // (opened, written page by page and deleted) once it passes 64 KiB, as a busy batch's does.
  // In memory it costs a batch's changed pages and no system calls (docs/performance.md,
  // Idempotency-Key).
  db.pragma('temp_store = MEMORY');
  if (options.bulkWrites) db.pragma('wal_autocheckpoint = 20000');
}

/** Opens (creating the file if needed, unless `mustExist`; its folder only with `createDirectory`) `path`, or an in-memory database for `:memory:`. */
export function openSqliteDatabase(path: string, options: SqliteConnectionOptions = {}): BetterSqlite3.Database {
  const mustExist = options.mustExist === true && path !== ':memory:';
  if (path !== ':memory:' && !mustExist && options.createDirectory === true) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { fileMustExist: mustExist });
  configureConnection(db, options);
  return db;
}
