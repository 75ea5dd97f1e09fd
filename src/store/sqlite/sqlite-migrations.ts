/**
 * Versioned schema of the SQLite store. Migration N brings `PRAGMA user_version`
 * from N-1 to N; they run at open inside one IMMEDIATE transaction, so two
 * processes opening the same file at once migrate it exactly once.
 * Never edit a released migration: append a new one. One that rewrites stored
 * representations first copies each into its user's latest event where that event
 * reads it from the row (data '': migration 13, sqlite-event-log.ts).
 */
import type { Database } from 'better-sqlite3';
import { representationOf } from '../../users/user-representation.js';
import { EMPTY_SEARCH, SEARCH_INDEXES_SQL, searchColumn } from '../search-column.js';
import { openSqliteDatabase } from './sqlite-connection.js';
import { buildMissingIndexesAtOpen } from './sqlite-bulk-load.js';
import { USER_COLUMNS_8, userRowToUser, type UserRow } from './sqlite-rows.js';

/** A migration is SQL, or a function for what SQL cannot compute (it runs in the same transaction). */
export type SqliteMigration = string | ((db: Database) => void);

/** Rows whose representation is filled per statement by migration 6. */
const FILL_BATCH = 1000;

/** The columns of users before migration 8: what migration 6 can read. */
const COLUMNS_BEFORE_8 = 'uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version';

/** Fills `representation` and `etag` of every row that has none, in uid order, a batch at a time. */
function fillRepresentations(db: Database, columns: string): void {
  const batch = db.prepare<[string, number], UserRow>(`SELECT ${columns} FROM users WHERE uid > ? AND representation IS NULL ORDER BY uid LIMIT ?`);
  const fill = db.prepare('UPDATE users SET representation = ?, etag = ? WHERE uid = ?');
  for (let after = ''; ; ) {
    const rows = batch.all(after, FILL_BATCH);
    for (const row of rows) {
      const { json, etag } = representationOf(userRowToUser(row));
      fill.run(json, etag, row.uid);
    }
    const last = rows[rows.length - 1];
    if (last === undefined) return;
    after = last.uid;
  }
}

/** The field and value of a `field:value` term of json_each() row `j`. */
const TERM_FIELD = "substr(j.value, 1, instr(j.value, ':') - 1)";
const TERM_VALUE = "substr(j.value, instr(j.value, ':') + 1)";

/** Writes the `search` of every row (migration 11; its triggers index the terms), in uid order, a batch at a time. */
function fillSearch(db: Database): void {
  const batch = db.prepare<[string, number], UserRow>(`SELECT ${USER_COLUMNS_8} FROM users WHERE uid > ? ORDER BY uid LIMIT ?`);
  const fill = db.prepare('UPDATE users SET search = ? WHERE uid = ?');
  for (let after = ''; ; ) {
    const rows = batch.all(after, FILL_BATCH);
    for (const row of rows) fill.run(searchColumn(userRowToUser(row)), row.uid);
    const last = rows[rows.length - 1];
    if (last === undefined) return;
    after = last.uid;
  }
}

export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
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
  // 6: stored representations. A write stores the user's JSON as the API sends it and its
  // ETag (src/users/user-representation.ts), so a read sends them as they are. Existing rows
  // are filled here. The trigger keeps a process of an earlier release that still shares the
  // file from leaving an outdated representation: its UPDATE sets a new version and no
  // representation, so the representation is cleared, and a read renders that row from its
  // columns (sqlite-user-store.ts) until the next write stores it again.
  (db) => {
    db.exec(`
      ALTER TABLE users ADD COLUMN representation TEXT;
      ALTER TABLE users ADD COLUMN etag TEXT;
      CREATE TRIGGER users_representation_outdated AFTER UPDATE OF version ON users
        WHEN NEW.representation IS OLD.representation
        BEGIN UPDATE users SET representation = NULL, etag = NULL WHERE uid = NEW.uid; END;
    `);
    fillRepresentations(db, COLUMNS_BEFORE_8);
  },
  // 7: nothing; kept so that SQLite and PostgreSQL files share version numbers from 8 on.
  '',
  // 8: the lifecycle and the profile (CONTRACT §1; src/users/user-profile.ts). `active` and
  // `external_id` are columns that search filters on; `external_id` is unique and exact, a
  // key in user_keys like a legacy id (the CHECK of user_keys names the new key, so the
  // table is made again); the profile is one JSON column of the members that are set.
  // user_emails indexes every address of `emails` (not unique: only email_address is), and
  // users_by_updated_at the `meta.lastModified` filters of SCIM clients.
  // Every stored representation gains the new members: cleared here and filled again.
  (db) => {
    db.exec(`
      ALTER TABLE users ADD COLUMN external_id TEXT;
      ALTER TABLE users ADD COLUMN active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1));
      ALTER TABLE users ADD COLUMN profile TEXT NOT NULL DEFAULT '{}';
      CREATE INDEX users_inactive ON users (uid) WHERE active = 0;
      CREATE INDEX users_by_updated_at ON users (updated_at);
      CREATE TABLE user_emails (
        value TEXT NOT NULL,
        uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
        PRIMARY KEY (value, uid)
      ) WITHOUT ROWID;
      CREATE INDEX user_emails_by_uid ON user_emails (uid);
      INSERT INTO user_emails (value, uid) SELECT value, uid FROM user_keys WHERE key = 'email_address';
      CREATE TABLE user_keys_8 (
        key TEXT NOT NULL CHECK (key IN ('username', 'email_address', 'legacy_id', 'external_id')),
        value TEXT NOT NULL,
        uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
        PRIMARY KEY (key, value)
      ) WITHOUT ROWID;
      INSERT INTO user_keys_8 (key, value, uid) SELECT key, value, uid FROM user_keys;
      DROP TABLE user_keys;
      ALTER TABLE user_keys_8 RENAME TO user_keys;
      CREATE INDEX user_keys_by_uid ON user_keys (uid);
      UPDATE users SET representation = NULL, etag = NULL;
    `);
    fillRepresentations(db, USER_COLUMNS_8);
  },
  // 9: nothing. PostgreSQL's migration 9 shares the page marks of list walks between instances;
  // a SQLite file is served by one process, which keeps them in memory (src/store/page-marks.ts).
  '',
  // 10: erasure and origins (docs/security.md, "Erasure"; docs/events.md, "Origin"). An event
  // keeps who wrote it (NULL for earlier events); a delete finds the user's earlier events
  // (events_by_subject) and the Idempotency-Key answers that carry the user (`subject`, the
  // uid of the user an answer holds; filled here from the stored answers still kept) and
  // erases them in its own transaction.
  `
  ALTER TABLE events ADD COLUMN origin_interface TEXT;
  ALTER TABLE events ADD COLUMN origin_credential TEXT;
  ALTER TABLE events ADD COLUMN origin_client TEXT;
  CREATE INDEX events_by_subject ON events (subject);
  ALTER TABLE idempotency_keys ADD COLUMN subject TEXT;
  UPDATE idempotency_keys SET subject = coalesce(json_extract(body, '$.uid'), json_extract(body, '$.id'))
    WHERE status IN (200, 201) AND json_valid(body) AND json_type(body) = 'object';
  CREATE INDEX idempotency_keys_by_subject ON idempotency_keys (subject) WHERE subject IS NOT NULL;
  `,
  // 11: search (src/store/search-column.ts, search-plan.ts). A write stores the user's
  // `search` text; generated columns read its words and sort keys, and the sort keys are
  // indexed with the uid, so every sort is an index walk; triggers keep user_terms (words
  // and facets, one B-tree) equal to the terms of the current `search` in the write's own
  // transaction, deleting exactly the entries of the text they replace. The old prefix
  // index of display names goes: `q` reads words now. Every row's `search` is written here.
  // user_count keeps the number of users, for estimated counts (sqlite-search.ts countMatches).
  (db) => {
    db.exec(`
      ALTER TABLE users ADD COLUMN search TEXT NOT NULL DEFAULT '${EMPTY_SEARCH}';
      ALTER TABLE users ADD COLUMN search_text TEXT GENERATED ALWAYS AS (json_extract(search, '$.text')) VIRTUAL;
      ALTER TABLE users ADD COLUMN sort_username TEXT GENERATED ALWAYS AS (json_extract(search, '$.sort.username')) VIRTUAL;
      ALTER TABLE users ADD COLUMN sort_display_name TEXT GENERATED ALWAYS AS (json_extract(search, '$.sort.display_name')) VIRTUAL;
      ALTER TABLE users ADD COLUMN sort_family_name TEXT GENERATED ALWAYS AS (json_extract(search, '$.sort.family_name')) VIRTUAL;
      ALTER TABLE users ADD COLUMN sort_given_name TEXT GENERATED ALWAYS AS (json_extract(search, '$.sort.given_name')) VIRTUAL;
      CREATE TABLE user_terms (
        field TEXT NOT NULL,
        value TEXT NOT NULL,
        uid TEXT NOT NULL,
        PRIMARY KEY (field, value, uid)
      ) WITHOUT ROWID;
      CREATE TRIGGER users_terms_inserted AFTER INSERT ON users BEGIN
        INSERT INTO user_terms (field, value, uid) SELECT ${TERM_FIELD}, ${TERM_VALUE}, NEW.uid FROM json_each(NEW.search, '$.terms') j;
      END;
      CREATE TRIGGER users_terms_updated AFTER UPDATE OF search ON users WHEN NEW.search IS NOT OLD.search BEGIN
        DELETE FROM user_terms WHERE (field, value, uid) IN (SELECT ${TERM_FIELD}, ${TERM_VALUE}, OLD.uid FROM json_each(OLD.search, '$.terms') j);
        INSERT INTO user_terms (field, value, uid) SELECT ${TERM_FIELD}, ${TERM_VALUE}, NEW.uid FROM json_each(NEW.search, '$.terms') j;
      END;
      CREATE TRIGGER users_terms_deleted AFTER DELETE ON users BEGIN
        DELETE FROM user_terms WHERE (field, value, uid) IN (SELECT ${TERM_FIELD}, ${TERM_VALUE}, OLD.uid FROM json_each(OLD.search, '$.terms') j);
        UPDATE user_count SET n = n - 1;
      END;
      CREATE TABLE user_count (n INTEGER NOT NULL);
      INSERT INTO user_count (n) SELECT count(*) FROM users;
      CREATE TRIGGER users_counted AFTER INSERT ON users BEGIN UPDATE user_count SET n = n + 1; END;
    `);
    fillSearch(db);
    db.exec(`
      ${SEARCH_INDEXES_SQL}
    `);
  },
  // 12: nothing; PostgreSQL's migration 12 mends a trigger only it has.
  '',
  // 13: a user's events as a chain instead of an index on events.subject (sqlite-event-log.ts):
  // each event names the user's previous event, the user's row its latest, erased_subjects a
  // deleted user's latest; made here from the index before it goes. The latest event of each
  // user whose data is the representation its row holds stores '' and reads the row's.
  // The profile column goes: the representation holds the same members (sqlite-rows.ts);
  // a row without one (written by a release before migration 6 while this schema was
  // live, which its trigger marks by clearing it) gets it first, made from the columns
  // while the profile is still there, so no member is lost.
  (db) => {
    fillRepresentations(db, USER_COLUMNS_8);
    db.exec(`
  ALTER TABLE events ADD COLUMN previous INTEGER;
  ALTER TABLE users ADD COLUMN event_position INTEGER;
  CREATE TABLE erased_subjects (
    subject TEXT NOT NULL PRIMARY KEY,
    position INTEGER NOT NULL
  ) WITHOUT ROWID;
  UPDATE events SET previous = (SELECT max(p.position) FROM events p WHERE p.subject = events.subject AND p.position < events.position);
  UPDATE users SET event_position = (SELECT max(e.position) FROM events e WHERE e.subject = users.uid);
  INSERT INTO erased_subjects (subject, position)
    SELECT subject, max(position) FROM events WHERE subject NOT IN (SELECT uid FROM users) GROUP BY subject;
  UPDATE events SET data = ''
    WHERE position IN (SELECT event_position FROM users WHERE event_position IS NOT NULL) AND type <> 'user.deleted'
      AND data = (SELECT representation FROM users WHERE uid = events.subject);
  DROP INDEX events_by_subject;
  ALTER TABLE users DROP COLUMN profile;
    `);
  },
  // 14: the import writes the terms of the users it creates itself, sorted, once per batch
  // (sqlite-user-store.ts importUsers), instead of the insert trigger parsing each row's
  // \`search\` as it goes in. While a batch runs it holds a row of terms_by_import, which
  // the trigger's WHEN reads; the batch inserts that row and deletes it within its own
  // write, so no other write, which runs before or after it under the one write lock,
  // ever sees it, and a batch that fails takes it with its rollback.
  `
  CREATE TABLE terms_by_import (batch INTEGER NOT NULL);
  DROP TRIGGER users_terms_inserted;
  CREATE TRIGGER users_terms_inserted AFTER INSERT ON users WHEN NOT EXISTS (SELECT 1 FROM terms_by_import) BEGIN
    INSERT INTO user_terms (field, value, uid) SELECT ${TERM_FIELD}, ${TERM_VALUE}, NEW.uid FROM json_each(NEW.search, '$.terms') j;
  END;
  `,
  // 15: nothing; PostgreSQL's migration 15 makes a user's events a chain, which SQLite's
  // migration 13 made.
  '',
  // 16: a change of a user's `search` deletes only the entries of user_terms it no longer
  // makes and inserts only those it newly makes, where the trigger of migration 11 deleted
  // them all and inserted them all again: a new title or display name rewrote every word of
  // the user (docs/performance.md, "Import"). The entries of a row are exactly the terms of
  // its `search` (every write keeps them so), and a row's uid never changes, so the result is
  // the one before.
  `
  DROP TRIGGER users_terms_updated;
  CREATE TRIGGER users_terms_updated AFTER UPDATE OF search ON users WHEN NEW.search IS NOT OLD.search BEGIN
    DELETE FROM user_terms WHERE (field, value, uid) IN (
      SELECT ${TERM_FIELD}, ${TERM_VALUE}, OLD.uid FROM json_each(OLD.search, '$.terms') j
      WHERE j.value NOT IN (SELECT n.value FROM json_each(NEW.search, '$.terms') n));
    INSERT INTO user_terms (field, value, uid)
      SELECT ${TERM_FIELD}, ${TERM_VALUE}, NEW.uid FROM json_each(NEW.search, '$.terms') j
      WHERE j.value NOT IN (SELECT o.value FROM json_each(OLD.search, '$.terms') o);
  END;
  `,
  // 17: a bulk load into an empty directory builds the word and facet entries once, at its
  // end (sqlite-bulk-load.ts), instead of batch by batch into an ever larger B-tree. While
  // terms_deferred holds a row, user_terms may lack the entries of users such a load wrote:
  // each batch that leaves them out writes the row in its own transaction, and the rebuild
  // that makes user_terms the terms of every user's \`search\` again deletes it in its own.
  // Every open of the store rebuilds while the row is there.
  `
  CREATE TABLE terms_deferred (since TEXT NOT NULL);
  `,
];

/** Applies the pending migrations; returns how many ran. Refuses a file from a newer release. */
export function migrateSqlite(db: Database): number {
  return db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > SQLITE_MIGRATIONS.length) {
      throw new Error(`database schema version ${current} is newer than this release supports (${SQLITE_MIGRATIONS.length})`);
    }
    applySqliteMigrations(db, current, SQLITE_MIGRATIONS.length);
    return SQLITE_MIGRATIONS.length - current;
  }).immediate();
}

/** Brings the schema from version `from` to `to` in the caller's transaction (tests build older files with it). */
export function applySqliteMigrations(db: Database, from: number, to: number): void {
  for (let version = from; version < to; version++) {
    const migration = SQLITE_MIGRATIONS[version] as SqliteMigration;
    if (typeof migration === 'string') db.exec(migration);
    else migration(db);
  }
  db.pragma(`user_version = ${to}`);
}

/** Opens the file (creating it, and its folder with `createDirectory`), migrates it and closes it. */
export function migrateSqliteFile(path: string, options: { createDirectory?: boolean } = {}): { applied: number; version: number } {
  const db = openSqliteDatabase(path, options);
  try {
    const applied = migrateSqlite(db);
    buildMissingIndexesAtOpen(db); // what a bulk load that stopped before its end left unbuilt
    return { applied, version: SQLITE_MIGRATIONS.length };
  } finally {
    db.close();
  }
}
