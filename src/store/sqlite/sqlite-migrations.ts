/**
 * Versioned schema of the SQLite store. Migration N brings `PRAGMA user_version`
 * from N-1 to N; they run at open inside one IMMEDIATE transaction, so two
 * processes opening the same file at once migrate it exactly once.
 * Never edit a released migration: append a new one.
 */
import type { Database } from 'better-sqlite3';
import { openSqliteDatabase } from './sqlite-connection.js';

export const SQLITE_MIGRATIONS: readonly string[] = [
  // 1: users and the one keys table. Every username, email address and legacy id
  // lives in user_keys under its compared form; its primary key is the uniqueness
  // constraint for all of them, so lookup, uniqueness and the 409's key share one path.
  `
  CREATE TABLE users (
    uid TEXT NOT NULL PRIMARY KEY,
    username TEXT NOT NULL,
    email_address TEXT NOT NULL,
    legacy_ids TEXT NOT NULL,
    display_name TEXT,
    display_name_key TEXT,
    attributes TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  );
  CREATE INDEX users_by_display_name_key ON users (display_name_key) WHERE display_name_key IS NOT NULL;
  CREATE TABLE user_keys (
    key TEXT NOT NULL CHECK (key IN ('username', 'email_address', 'legacy_id')),
    value TEXT NOT NULL,
    uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
    PRIMARY KEY (key, value)
  ) WITHOUT ROWID;
  CREATE INDEX user_keys_by_uid ON user_keys (uid);
  CREATE TABLE service_keys (
    name TEXT NOT NULL PRIMARY KEY,
    value BLOB NOT NULL
  );
  `,
  // 2: Idempotency-Key records (CONTRACT §10), scoped to the credential; written in the
  // transaction of the write they answer. Expired ones are purged by expires_at (ms since the epoch).
  `
  CREATE TABLE idempotency_keys (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    headers TEXT NOT NULL,
    body TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
  ) WITHOUT ROWID;
  CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
  `,
  // 3: the change feed's outbox (src/events/event-log.ts). A write appends its event in
  // its own transaction; AUTOINCREMENT never reuses a position, even after retention
  // deleted the newest-but-one. feed_state holds how far retention went ('pruned') and
  // each relay's progress ('relay:NAME'); leases elect the one relay across processes.
  `
  CREATE TABLE events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    type TEXT NOT NULL,
    subject TEXT NOT NULL,
    time TEXT NOT NULL,
    data TEXT NOT NULL
  );
  CREATE INDEX events_by_time ON events (time);
  CREATE TABLE feed_state (
    name TEXT NOT NULL PRIMARY KEY,
    position INTEGER NOT NULL
  );
  INSERT INTO feed_state (name, position) VALUES ('pruned', 0);
  CREATE TABLE leases (
    name TEXT NOT NULL PRIMARY KEY,
    holder TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  );
  `,
  // 4: retention by age walks the oldest events in position order (sqlite-event-log.ts),
  // so no write pays for an index on time.
  `
  DROP INDEX events_by_time;
  `,
  // 5: Idempotency-Key records in insertion order, found through a compact unique index on
  // (scope, key). Random keys made migration 2's WITHOUT ROWID table (rows of ~700 bytes
  // ordered by key) dirty and split a random page of large rows with every keyed write;
  // now a keyed write appends its row beside the previous one and dirties one page of
  // small index entries (docs/performance.md, Idempotency-Key).
  `
  CREATE TABLE idempotency_records (
    id INTEGER PRIMARY KEY,
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    headers TEXT NOT NULL,
    body TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  );
  INSERT INTO idempotency_records (scope, key, fingerprint, status, headers, body, expires_at)
    SELECT scope, key, fingerprint, status, headers, body, expires_at FROM idempotency_keys ORDER BY expires_at;
  DROP TABLE idempotency_keys;
  ALTER TABLE idempotency_records RENAME TO idempotency_keys;
  CREATE UNIQUE INDEX idempotency_keys_by_key ON idempotency_keys (scope, key);
  CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
  `,
];

/** Applies the pending migrations; returns how many ran. Refuses a file from a newer release. */
export function migrateSqlite(db: Database): number {
  return db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > SQLITE_MIGRATIONS.length) {
      throw new Error(`database schema version ${current} is newer than this release supports (${SQLITE_MIGRATIONS.length})`);
    }
    for (let version = current; version < SQLITE_MIGRATIONS.length; version++) {
      db.exec(SQLITE_MIGRATIONS[version] as string);
    }
    db.pragma(`user_version = ${SQLITE_MIGRATIONS.length}`);
    return SQLITE_MIGRATIONS.length - current;
  }).immediate();
}

/** Opens the file (creating it and its folder), migrates it and closes it. */
export function migrateSqliteFile(path: string): { applied: number; version: number } {
  const db = openSqliteDatabase(path);
  try {
    return { applied: migrateSqlite(db), version: SQLITE_MIGRATIONS.length };
  } finally {
    db.close();
  }
}
