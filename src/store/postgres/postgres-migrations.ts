/**
 * Versioned schema of the PostgreSQL store. All pending migrations run in one
 * transaction holding a transaction-level advisory lock, so instances starting
 * together migrate exactly once: the others wait for the lock, then find the
 * versions recorded in schema_migrations. Never edit a released migration.
 */
import type { Sql, TransactionSql } from 'postgres';
import { representationOf } from '../../users/user-representation.js';
import { EMPTY_SEARCH, SEARCH_INDEXES_SQL, searchColumn } from '../search-column.js';
import { MIGRATION_LOCK_ID } from './postgres-migration-lock.js';
import { buildMissingIndexes } from './postgres-bulk-load.js';
import { USER_COLUMNS_8, userRowToUser, type UserRow } from './postgres-rows.js';
import { commandSession } from './command-session.js';

/** The columns of users before migration 8: what migration 6 can read. */
const COLUMNS_BEFORE_8 = 'uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version';

/** A migration is SQL, or a function for what SQL cannot compute (it runs in the same transaction). */
export type PostgresMigration = string | ((tx: TransactionSql) => Promise<void>);

/** Rows whose representation is filled per statement by migration 6. */
const FILL_BATCH = 1000;

/** Fills `representation` and `etag` of every row that has none, in uid order, a batch at a time. */
async function fillRepresentations(tx: TransactionSql, columns: string): Promise<void> {
  for (let after = '00000000-0000-0000-0000-000000000000'; ; ) {
    const rows = await tx<UserRow[]>`
      SELECT ${tx.unsafe(columns)}
      FROM users WHERE uid > ${after}::uuid AND representation IS NULL ORDER BY uid LIMIT ${FILL_BATCH}`;
    const last = rows[rows.length - 1];
    if (last === undefined) return;
    const made = rows.map((row) => representationOf(userRowToUser(row)));
    await tx`UPDATE users SET representation = t.representation, etag = t.etag
      FROM unnest(${made.map((r) => r.uid)}::uuid[], ${made.map((r) => r.json)}::text[], ${made.map((r) => r.etag)}::text[]) AS t(uid, representation, etag)
      WHERE users.uid = t.uid`;
    after = last.uid;
  }
}

/** The field and value of a `field:value` term `j.term`. */
const TERM_FIELD = "split_part(j.term, ':', 1)";
const TERM_VALUE = "substr(j.term, strpos(j.term, ':') + 1)";

/** Migration 16: the rows of an update statement whose `search` changed, and their terms before (`old_terms`) and after (`new_terms`). Part of migration 16: never change it. */
const TERMS_OF_CHANGED_ROWS = `WITH pairs AS (
        SELECT o.uid, o.search AS old_search, n.search AS new_search
        FROM old_rows o JOIN new_rows n ON n.uid = o.uid AND n.search IS DISTINCT FROM o.search
      ),
      old_terms AS (SELECT p.uid, j.term FROM pairs p, json_array_elements_text(p.old_search::json->'terms') AS j(term)),
      new_terms AS (SELECT p.uid, j.term FROM pairs p, json_array_elements_text(p.new_search::json->'terms') AS j(term))`;

/** Writes the `search` of every row (migration 11; its triggers index the terms), in uid order, a batch at a time. */
async function fillSearch(tx: TransactionSql): Promise<void> {
  for (let after = '00000000-0000-0000-0000-000000000000'; ; ) {
    const rows = await tx<UserRow[]>`SELECT ${tx.unsafe(USER_COLUMNS_8)} FROM users WHERE uid > ${after}::uuid ORDER BY uid LIMIT ${FILL_BATCH}`;
    const last = rows[rows.length - 1];
    if (last === undefined) return;
    const users = rows.map(userRowToUser);
    await tx`UPDATE users SET search = t.search FROM unnest(${users.map((u) => u.uid)}::uuid[], ${users.map(searchColumn)}::text[]) AS t(uid, search) WHERE users.uid = t.uid`;
    after = last.uid;
  }
}

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  // 1: users and the one keys table (see src/store/sqlite/sqlite-migrations.ts).
  // Compared values use the "C" collation: byte order of UTF-8, as SQLite's BINARY,
  // so prefix ranges and ordering agree across stores.
  `
  CREATE TABLE users (
    uid uuid PRIMARY KEY,
    username text NOT NULL,
    email_address text NOT NULL,
    legacy_ids text[] NOT NULL,
    display_name text,
    display_name_key text COLLATE "C",
    attributes json NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    version integer NOT NULL
  );
  CREATE INDEX users_by_display_name_key ON users (display_name_key) WHERE display_name_key IS NOT NULL;
  CREATE TABLE user_keys (
    key text NOT NULL CHECK (key IN ('username', 'email_address', 'legacy_id')),
    value text COLLATE "C" NOT NULL,
    uid uuid NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
    PRIMARY KEY (key, value)
  );
  CREATE INDEX user_keys_by_uid ON user_keys (uid);
  CREATE TABLE service_keys (
    name text PRIMARY KEY,
    value bytea NOT NULL
  );
  `,
  // 2: Idempotency-Key records (see src/store/sqlite/sqlite-migrations.ts).
  `
  CREATE TABLE idempotency_keys (
    scope text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    status integer NOT NULL,
    headers json NOT NULL,
    body text NOT NULL,
    expires_at bigint NOT NULL,
    PRIMARY KEY (scope, key)
  );
  CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
  `,
  // 3: the change feed's outbox (src/events/event-log.ts). Writers insert events without
  // a position; the sequencer (postgres-sequencer.ts) gives committed ones their positions,
  // one serialized run at a time, so a transaction still open can never hold a position
  // below one a reader has seen. feed_state: 'latest' (the highest position given),
  // 'pruned' (how far retention went), 'relay:NAME' (a relay's progress).
  `
  CREATE TABLE events (
    id bigserial PRIMARY KEY,
    position bigint UNIQUE,
    type text NOT NULL,
    subject uuid NOT NULL,
    time timestamptz NOT NULL,
    data text NOT NULL
  );
  CREATE INDEX events_unsequenced ON events (id) WHERE position IS NULL;
  CREATE INDEX events_by_time ON events (time);
  CREATE TABLE feed_state (
    name text PRIMARY KEY,
    position bigint NOT NULL
  );
  INSERT INTO feed_state (name, position) VALUES ('latest', 0), ('pruned', 0);
  `,
  // 4: retention by age walks the oldest events in position order (postgres-event-log.ts),
  // so no write, and no renumbering by the sequencer, pays for an index on time.
  `
  DROP INDEX events_by_time;
  `,
  // 5: one sequencer run (postgres-sequencer.ts) in one statement: the lock, the numbering
  // and the announcement in a function called outside an explicit transaction, one round
  // trip instead of four. Each statement of a VOLATILE function takes its own snapshot
  // under READ COMMITTED, so the numbering sees every event committed before the lock
  // was granted, as the run's second statement did before.
  `
  CREATE FUNCTION sequence_events(lock_id bigint, run_size integer, channel text) RETURNS TABLE (latest bigint, numbered integer)
  LANGUAGE plpgsql VOLATILE AS $$
  DECLARE
    given bigint;
    count_given integer;
  BEGIN
    PERFORM pg_advisory_xact_lock(lock_id);
    WITH pending AS (
      SELECT id FROM events WHERE position IS NULL ORDER BY id LIMIT run_size FOR UPDATE
    ), numbered_events AS (
      SELECT id, (SELECT position FROM feed_state WHERE name = 'latest') + row_number() OVER (ORDER BY id) AS position FROM pending
    ), positioned AS (
      UPDATE events SET position = numbered_events.position FROM numbered_events WHERE events.id = numbered_events.id RETURNING events.position
    )
    SELECT max(positioned.position), count(*)::integer INTO given, count_given FROM positioned;
    IF count_given > 0 THEN
      UPDATE feed_state SET position = greatest(position, given) WHERE name = 'latest';
      -- Delivered when this transaction commits, to every instance listening.
      PERFORM pg_notify(channel, given::text);
    END IF;
    RETURN QUERY SELECT (SELECT position FROM feed_state WHERE name = 'latest'), count_given;
  END
  $$;
  `,
  // 6: stored representations (see src/store/sqlite/sqlite-migrations.ts, migration 6). A write
  // stores the user's JSON as the API sends it and its ETag; existing rows are filled below. An
  // instance of an earlier release (a rolling upgrade) updates a row with a new version and no
  // representation: the trigger clears the representation then, and reads render that row from
  // its columns until the next write stores it again. Its WHEN is checked without calling the
  // function, so this release's updates pay only the comparison.
  async (tx) => {
    await tx.unsafe(`
  ALTER TABLE users ADD COLUMN representation text, ADD COLUMN etag text;
  CREATE FUNCTION users_representation_outdated() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    NEW.representation := NULL;
    NEW.etag := NULL;
    RETURN NEW;
  END
  $$;
  CREATE TRIGGER users_representation_outdated BEFORE UPDATE OF version ON users FOR EACH ROW
    WHEN (NEW.version IS DISTINCT FROM OLD.version AND NEW.representation IS NOT DISTINCT FROM OLD.representation)
    EXECUTE FUNCTION users_representation_outdated();
    `);
    await fillRepresentations(tx, COLUMNS_BEFORE_8);
  },
  // 7: a sequencer run (migration 5) finds unnumbered events by an index scan of
  // events_unsequenced, never a bitmap scan. Numbering updates each event row, so the old
  // versions' entries stay in the indexes until VACUUM: tens of thousands after an import.
  // An index scan marks them dead once and skips them after; a bitmap scan, which the
  // planner picks while the statistics still count unnumbered rows, visits every one's
  // heap page in every run (test/events/postgres-sequencer-plan.test.ts). Set on the
  // function, it holds for instances of earlier releases, which call the same function.
  `
  ALTER FUNCTION sequence_events(bigint, integer, text) SET enable_bitmapscan = off;
  `,
  // 8: the lifecycle and the profile (see src/store/sqlite/sqlite-migrations.ts, migration 8):
  // `external_id` a key of user_keys, `active` a column with a partial index of the deactivated,
  // the profile one json column, user_emails every address of `emails` (not unique), and an index
  // on updated_at for `meta.lastModified` filters. Every stored representation is made again.
  async (tx) => {
    await tx.unsafe(`
  ALTER TABLE users ADD COLUMN external_id text, ADD COLUMN active boolean NOT NULL DEFAULT true, ADD COLUMN profile json NOT NULL DEFAULT '{}';
  CREATE INDEX users_inactive ON users (uid) WHERE NOT active;
  CREATE INDEX users_by_updated_at ON users (updated_at);
  CREATE TABLE user_emails (
    value text COLLATE "C" NOT NULL,
    uid uuid NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
    PRIMARY KEY (value, uid)
  );
  CREATE INDEX user_emails_by_uid ON user_emails (uid);
  INSERT INTO user_emails (value, uid) SELECT value, uid FROM user_keys WHERE key = 'email_address';
  ALTER TABLE user_keys DROP CONSTRAINT user_keys_key_check;
  ALTER TABLE user_keys ADD CONSTRAINT user_keys_key_check CHECK (key IN ('username', 'email_address', 'legacy_id', 'external_id'));
  UPDATE users SET representation = NULL, etag = NULL WHERE representation IS NOT NULL;
    `);
    await fillRepresentations(tx, USER_COLUMNS_8);
  },
  // 9: page marks of list walks (src/store/page-marks.ts), shared by every instance so a walk
  // whose pages different instances serve stays one walk. A cache: UNLOGGED (no WAL, emptied
  // after a crash and absent on a standby), each row overwritten by the walk's next page.
  `
  CREATE UNLOGGED TABLE page_marks (
    key text COLLATE "C" PRIMARY KEY,
    after uuid NOT NULL,
    total bigint NOT NULL,
    set_at bigint NOT NULL
  );
  CREATE INDEX page_marks_by_age ON page_marks (set_at);
  `,
  // 10: erasure and origins (see src/store/sqlite/sqlite-migrations.ts, migration 10).
  `
  ALTER TABLE events ADD COLUMN origin_interface text, ADD COLUMN origin_credential text, ADD COLUMN origin_client text;
  CREATE INDEX events_by_subject ON events (subject);
  ALTER TABLE idempotency_keys ADD COLUMN subject uuid;
  UPDATE idempotency_keys SET subject = coalesce(body::json->>'uid', body::json->>'id')::uuid
    WHERE status IN (200, 201) AND left(body, 1) = '{' AND coalesce(body::json->>'uid', body::json->>'id') ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  CREATE INDEX idempotency_keys_by_subject ON idempotency_keys (subject) WHERE subject IS NOT NULL;
  `,
  // 11: search (see src/store/sqlite/sqlite-migrations.ts, migration 11). Text columns that
  // are compared or sorted are COLLATE "C": code point order, as SQLite and the service compare.
  // The terms are kept by statement triggers over the rows a statement wrote (one INSERT of a
  // thousand terms for an import batch); they join user_terms by its primary key, by nested
  // loops whatever the planner guesses of a transition table (it has no statistics on one).
  async (tx) => {
    await tx.unsafe(`
  ALTER TABLE users ADD COLUMN search text NOT NULL DEFAULT '${EMPTY_SEARCH}';
  CREATE TABLE user_terms (
    field text COLLATE "C" NOT NULL,
    value text COLLATE "C" NOT NULL,
    uid uuid NOT NULL,
    PRIMARY KEY (field, value, uid)
  );
  CREATE FUNCTION users_terms_inserted() RETURNS trigger LANGUAGE plpgsql SET enable_hashjoin = off SET enable_mergejoin = off AS $$
  BEGIN
    INSERT INTO user_terms (field, value, uid)
      SELECT ${TERM_FIELD}, ${TERM_VALUE}, n.uid FROM new_rows n, json_array_elements_text(n.search::json->'terms') AS j(term);
    RETURN NULL;
  END $$;
  CREATE FUNCTION users_terms_updated() RETURNS trigger LANGUAGE plpgsql SET enable_hashjoin = off SET enable_mergejoin = off AS $$
  BEGIN
    DELETE FROM user_terms t USING (
      SELECT ${TERM_FIELD} AS field, ${TERM_VALUE} AS value, o.uid
      FROM old_rows o JOIN new_rows n ON n.uid = o.uid AND n.search IS DISTINCT FROM o.search, json_array_elements_text(o.search::json->'terms') AS j(term)
    ) d WHERE t.field = d.field AND t.value = d.value AND t.uid = d.uid;
    INSERT INTO user_terms (field, value, uid)
      SELECT ${TERM_FIELD}, ${TERM_VALUE}, n.uid
      FROM new_rows n JOIN old_rows o ON o.uid = n.uid AND n.search IS DISTINCT FROM o.search, json_array_elements_text(n.search::json->'terms') AS j(term);
    RETURN NULL;
  END $$;
  CREATE FUNCTION users_terms_deleted() RETURNS trigger LANGUAGE plpgsql SET enable_hashjoin = off SET enable_mergejoin = off AS $$
  BEGIN
    DELETE FROM user_terms t USING (
      SELECT ${TERM_FIELD} AS field, ${TERM_VALUE} AS value, o.uid FROM old_rows o, json_array_elements_text(o.search::json->'terms') AS j(term)
    ) d WHERE t.field = d.field AND t.value = d.value AND t.uid = d.uid;
    RETURN NULL;
  END $$;
  CREATE TRIGGER users_terms_inserted AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION users_terms_inserted();
  CREATE TRIGGER users_terms_updated AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION users_terms_updated();
  CREATE TRIGGER users_terms_deleted AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION users_terms_deleted();
    `);
    await fillSearch(tx);
    await tx.unsafe(`
  ALTER TABLE users
    ADD COLUMN search_text text COLLATE "C" GENERATED ALWAYS AS (search::json->>'text') STORED,
    ADD COLUMN sort_username text COLLATE "C" GENERATED ALWAYS AS (search::json->'sort'->>'username') STORED,
    ADD COLUMN sort_display_name text COLLATE "C" GENERATED ALWAYS AS (search::json->'sort'->>'display_name') STORED,
    ADD COLUMN sort_family_name text COLLATE "C" GENERATED ALWAYS AS (search::json->'sort'->>'family_name') STORED,
    ADD COLUMN sort_given_name text COLLATE "C" GENERATED ALWAYS AS (search::json->'sort'->>'given_name') STORED;
  ${SEARCH_INDEXES_SQL}
  ANALYZE users, user_terms;
    `);
  },
  // 12: the update trigger of migration 11 paired the old and new rows of a statement by a
  // nested loop (its planner settings forbid the hash join that pairing needs), so a merge
  // import of N changed users cost N² row pairs, and a merge of 3,000 at the default batch
  // size ran past the statement timeout (test/cli/import-merge-postgres.test.ts). Now the pairs are found by a hash join and the
  // terms to delete collected into arrays; only the delete, which probes user_terms by its
  // primary key, runs with nested loops. Its function-level settings are restored on exit.
  `
  CREATE OR REPLACE FUNCTION users_terms_updated() RETURNS trigger LANGUAGE plpgsql SET enable_hashjoin = on SET enable_mergejoin = on AS $$
  DECLARE
    fields text[];
    term_values text[];
    uids uuid[];
  BEGIN
    SELECT array_agg(d.field), array_agg(d.value), array_agg(d.uid) INTO fields, term_values, uids FROM (
      SELECT ${TERM_FIELD} AS field, ${TERM_VALUE} AS value, o.uid
      FROM old_rows o JOIN new_rows n ON n.uid = o.uid AND n.search IS DISTINCT FROM o.search, json_array_elements_text(o.search::json->'terms') AS j(term)
    ) d;
    SET LOCAL enable_hashjoin = off;
    SET LOCAL enable_mergejoin = off;
    DELETE FROM user_terms t USING unnest(fields, term_values, uids) AS d(field, value, uid)
      WHERE t.field = d.field AND t.value = d.value AND t.uid = d.uid;
    SET LOCAL enable_hashjoin = on;
    SET LOCAL enable_mergejoin = on;
    INSERT INTO user_terms (field, value, uid)
      SELECT ${TERM_FIELD}, ${TERM_VALUE}, n.uid
      FROM new_rows n JOIN old_rows o ON o.uid = n.uid AND n.search IS DISTINCT FROM o.search, json_array_elements_text(n.search::json->'terms') AS j(term);
    RETURN NULL;
  END $$;
  `,
  // 13: nothing; SQLite's migration 13 makes a user's events a chain, which PostgreSQL's
  // events do not have yet (docs/performance.md, "Storage per user").
  async () => {},
  // 14: the bulk import writes the terms of the users it inserts itself, in the same
  // transaction, from the terms it copied (postgres-bulk-import.ts); it says so with a
  // transaction-local setting, and for that transaction only the insert trigger leaves
  // them to it. Every other writer, a running service or an earlier release, keeps the
  // trigger: no global switch, no lock on users, and no user committed without its words.
  `
  CREATE OR REPLACE FUNCTION users_terms_inserted() RETURNS trigger LANGUAGE plpgsql SET enable_hashjoin = off SET enable_mergejoin = off AS $$
  BEGIN
    IF current_setting('user_service.terms_by_import', true) = 'on' THEN
      RETURN NULL;
    END IF;
    INSERT INTO user_terms (field, value, uid)
      SELECT ${TERM_FIELD}, ${TERM_VALUE}, n.uid FROM new_rows n, json_array_elements_text(n.search::json->'terms') AS j(term);
    RETURN NULL;
  END $$;
  `,
  // 15: a user's events as a chain instead of an index on events.subject (see
  // src/store/sqlite/sqlite-migrations.ts, migration 13; postgres-user-writes.ts: Feed). Each
  // event names the user's previous event by its id (positions are given after commit), the
  // user's row its latest (event_id), erased_subjects a deleted user's latest; made here from
  // the events, set-based, before the index goes. A user's events are in id order (each write of
  // a user waits for the one before to commit). Events written before keep their full copies;
  // from now on the latest created or updated event of a user stores '' and reads the row's
  // representation. The profile column goes: the representation holds the same members
  // (postgres-rows.ts). A migration that rewrites representations must first copy each into
  // the event that reads it (events.data '' where users.event_id names it). A row without a
  // representation (a release before migration 6 wrote it while this schema was live, and
  // migration 6's trigger cleared it) gets one first, made while the profile column is there.
  async (tx) => {
    await fillRepresentations(tx, USER_COLUMNS_8);
    await tx.unsafe(`
  ALTER TABLE events ADD COLUMN previous bigint;
  ALTER TABLE users ADD COLUMN event_id bigint;
  CREATE TABLE erased_subjects (
    subject uuid PRIMARY KEY,
    event_id bigint NOT NULL
  );
  UPDATE events SET previous = chained.previous
    FROM (SELECT id, lag(id) OVER (PARTITION BY subject ORDER BY id) AS previous FROM events) chained
    WHERE events.id = chained.id AND chained.previous IS NOT NULL;
  UPDATE users SET event_id = latest.id
    FROM (SELECT subject, max(id) AS id FROM events GROUP BY subject) latest
    WHERE users.uid = latest.subject;
  INSERT INTO erased_subjects (subject, event_id)
    SELECT subject, max(id) FROM events e WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.uid = e.subject) GROUP BY subject;
  DROP INDEX events_by_subject;
  ALTER TABLE users DROP COLUMN profile;
  ANALYZE events, users, erased_subjects;
    `);
  },
  // 16: an update deletes only the entries of user_terms a row's new `search` no longer makes
  // and inserts only those it newly makes (SQLite's migration 16 does the same), where
  // migration 12's trigger deleted and inserted them all: a new title rewrote every word of
  // the user. A row's entries are exactly the terms of its `search`, and a uid never changes,
  // so the result is the one before. The pairs of old and new rows are found as in migration
  // 12, and the two sets of terms compared with EXCEPT.
  `
  CREATE OR REPLACE FUNCTION users_terms_updated() RETURNS trigger LANGUAGE plpgsql SET enable_hashjoin = on SET enable_mergejoin = on AS $$
  DECLARE
    fields text[];
    term_values text[];
    uids uuid[];
  BEGIN
    ${TERMS_OF_CHANGED_ROWS}
    SELECT array_agg(${TERM_FIELD}), array_agg(${TERM_VALUE}), array_agg(j.uid) INTO fields, term_values, uids
      FROM (SELECT uid, term FROM old_terms EXCEPT SELECT uid, term FROM new_terms) j;
    SET LOCAL enable_hashjoin = off;
    SET LOCAL enable_mergejoin = off;
    DELETE FROM user_terms t USING unnest(fields, term_values, uids) AS d(field, value, uid)
      WHERE t.field = d.field AND t.value = d.value AND t.uid = d.uid;
    SET LOCAL enable_hashjoin = on;
    SET LOCAL enable_mergejoin = on;
    INSERT INTO user_terms (field, value, uid)
      ${TERMS_OF_CHANGED_ROWS}
      SELECT ${TERM_FIELD}, ${TERM_VALUE}, j.uid FROM (SELECT uid, term FROM new_terms EXCEPT SELECT uid, term FROM old_terms) j;
    RETURN NULL;
  END $$;
  `,
  // 17: the mark of a word index a bulk load left to build at its end (SQLite's migration 17).
  `
  CREATE TABLE terms_deferred (since timestamptz NOT NULL);
  `,
];

/** Applies the pending migrations under the advisory lock; returns how many ran. `to` (tests build older databases with it): stop at that version. */
export async function migratePostgres(sql: Sql, to = POSTGRES_MIGRATIONS.length): Promise<number> {
  return sql.begin(async (tx) => {
    // Waiting for another instance's migration is not a slow statement.
    await tx`SET LOCAL statement_timeout = 0`;
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;
    const [row] = await tx<{ current: number }[]>`SELECT coalesce(max(version), 0)::int AS current FROM schema_migrations`;
    const current = row?.current ?? 0;
    if (current > POSTGRES_MIGRATIONS.length) {
      throw new Error(`database schema version ${current} is newer than this release supports (${POSTGRES_MIGRATIONS.length})`);
    }
    for (let version = current; version < to; version++) {
      const migration = POSTGRES_MIGRATIONS[version] as PostgresMigration;
      if (typeof migration === 'string') await tx.unsafe(migration);
      else await migration(tx);
      await tx`INSERT INTO schema_migrations (version) VALUES (${version + 1})`;
    }
    return Math.max(0, to - current);
  });
}

/** Connects, migrates under the lock and disconnects. */
export async function migratePostgresUrl(url: string, connectTimeoutMs = 5000): Promise<{ applied: number; version: number }> {
  const sql = await commandSession(url, connectTimeoutMs, 'migrate');
  try {
    const applied = await migratePostgres(sql);
    await buildMissingIndexes(sql); // what a bulk load that stopped before its end left unbuilt
    return { applied, version: POSTGRES_MIGRATIONS.length };
  } finally {
    await sql.end({ timeout: 5 });
  }
}
