/**
 * Opening a SQLite database file the one way this service does: its folder made,
 * WAL, `synchronous` set explicitly (it is per connection and not stored in the
 * file: FULL fsyncs the WAL at every commit), foreign keys on, a busy timeout.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type SqliteSynchronous = 'FULL' | 'NORMAL';

export interface SqliteConnectionOptions {
  /** FULL (default) survives power loss; NORMAL survives a process crash only. */
  synchronous?: SqliteSynchronous;
  /** How long a write waits for another process's lock before 503, in ms. */
  busyTimeoutMs?: number;
}

export function configureConnection(db: Database.Database, options: SqliteConnectionOptions): void {
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  db.pragma('foreign_keys = ON');
}

/** Opens (creating if needed) `path`, or an in-memory database for `:memory:`. */
export function openSqliteDatabase(path: string, options: SqliteConnectionOptions = {}): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  configureConnection(db, options);
  return db;
}
