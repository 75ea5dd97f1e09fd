/**
 * The statements of the set-based import (postgres-bulk-import.ts). A batch's
 * holders are read with the batch's uids and keys as arrays taken apart by
 * unnest(); its writes travel by COPY into staging tables (STAGING_SQL,
 * postgres-copy.ts), which set-based statements read: COPY's text rows cost the
 * server less to take in than array parameters, and the client builds them with
 * little more than string concatenation.
 *
 * They run as unnamed statements, planned for each batch: a generic plan cached
 * while the tables were small (an import into an empty database) would go on
 * hash-joining and scanning whole tables as they grow. And they run after
 * NESTED_LOOPS_SQL: every join of a batch (thousands of rows) with a table
 * (millions) must be index lookups, and with a batch's real size the planner
 * would otherwise hash it and scan the whole table, at every batch.
 */

/** For the rest of the transaction: joins by nested loops over the tables' indexes. */
export const NESTED_LOOPS_SQL = `SELECT set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)`;

/** A text[] literal of `values`: each element quoted, `"` and `\` escaped. */
export function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** $1: uids; $2, $3: key names and values. Rows: key ('uid' for a uid), value, uid of the holder. */
const HELD = `
  SELECT 'uid'::text AS key, u.uid::text AS value, u.uid FROM users u WHERE u.uid = ANY($1::uuid[])
  UNION ALL
  SELECT k.key, k.value::text, k.uid FROM user_keys k
  JOIN unnest($2::text[], $3::text[]) AS w(key, value) ON k.key = w.key AND k.value = w.value`;

/** Who holds the batch's uids and keys. */
export const HOLDERS_SQL = `SELECT h.key, h.value, h.uid::text AS uid FROM (${HELD}) AS h`;

/**
 * The holders and, locked until the transaction ends, the rows of the users
 * holding them: one result of two shapes, holder rows (key set) and user rows (key null).
 */
export const HOLDERS_AND_LOCKED_ROWS_SQL = `
  WITH held AS (${HELD}),
  locked AS (
    SELECT u.uid, u.username, u.email_address, u.legacy_ids, u.display_name, u.attributes, u.created_at, u.updated_at, u.version,
      u.external_id, u.active, u.representation AS stored
    FROM users u WHERE u.uid IN (SELECT uid FROM held) FOR UPDATE
  )
  SELECT h.key, h.value, h.uid::text AS uid, NULL::text AS username, NULL::text AS email_address, NULL::text[] AS legacy_ids,
    NULL::text AS display_name, NULL::json AS attributes, NULL::timestamptz AS created_at, NULL::timestamptz AS updated_at, NULL::int AS version,
    NULL::text AS external_id, NULL::boolean AS active, NULL::text AS stored
  FROM held h
  UNION ALL
  SELECT NULL, NULL, l.uid::text, l.username, l.email_address, l.legacy_ids, l.display_name, l.attributes, l.created_at, l.updated_at, l.version,
    l.external_id, l.active, l.stored
  FROM locked l`;

/**
 * The staging tables a batch is copied into (postgres-copy.ts), one set per
 * connection, emptied when each transaction ends (a rolled-back one takes its
 * rows, or the tables themselves, with it: hence IF NOT EXISTS every batch).
 * Only text columns and no constraints: the server refuses nothing in a COPY,
 * the statements reading them cast and check. A transaction that touches no
 * temporary table pays nothing for ON COMMIT DELETE ROWS.
 */
export const STAGING_SQL = `
  CREATE TEMP TABLE IF NOT EXISTS import_user_rows (op text, uid text, username text, email_address text, legacy_ids text, display_name text,
    display_name_key text, attributes text, created_at text, updated_at text, version text, representation text, etag text, external_id text,
    active text, search text) ON COMMIT DELETE ROWS;
  CREATE TEMP TABLE IF NOT EXISTS import_key_rows (op text, key text, value text, uid text) ON COMMIT DELETE ROWS;
  CREATE TEMP TABLE IF NOT EXISTS import_email_rows (value text, uid text) ON COMMIT DELETE ROWS;
  CREATE TEMP TABLE IF NOT EXISTS import_term_rows (field text, value text, uid text) ON COMMIT DELETE ROWS`;

/** The columns of import_user_rows, in COPY order: op ('insert' or 'update') and the final row (legacy_ids a text[] literal, attributes JSON text, active 'true' or 'false'), its representation, ETag and `search`. */
export const USER_COLUMNS = [
  'op', 'uid', 'username', 'email_address', 'legacy_ids', 'display_name', 'display_name_key', 'attributes', 'created_at', 'updated_at', 'version',
  'representation', 'etag', 'external_id', 'active', 'search',
] as const;

/** The columns of import_key_rows: op ('insert', 'delete' or 'move'), key, value, uid. */
export const KEY_COLUMNS = ['op', 'key', 'value', 'uid'] as const;

/** The columns of import_email_rows: every address of a written user's `emails`, once. */
export const EMAIL_COLUMNS = ['value', 'uid'] as const;

/** The columns of import_term_rows: the `user_terms` entries of the batch's inserted users. */
export const TERM_COLUMNS = ['field', 'value', 'uid'] as const;

/**
 * For the rest of the transaction: the statement trigger users_terms_inserted
 * (migration 14) leaves the terms of inserted users to the import, which writes
 * them from import_term_rows in the same transaction (TERMS_SQL). Local to this
 * transaction: every other writer, a running service's included, keeps the trigger.
 */
export const TERMS_BY_IMPORT_SQL = `SELECT set_config('user_service.terms_by_import', 'on', true)`;

/** The inserted users' word and facet entries, in the B-tree's order (one sorted pass over user_terms). */
export const TERMS_SQL = `
  INSERT INTO user_terms (field, value, uid)
  SELECT field, value, uid::uuid FROM import_term_rows ORDER BY field COLLATE "C", value COLLATE "C", uid::uuid`;

/** The updated users' rows of user_emails go, before EMAILS_SQL makes them again (sent only when a batch updates: 6 ms a batch for nothing otherwise). */
export const EMAILS_OF_UPDATED_SQL = `DELETE FROM user_emails WHERE uid IN (SELECT uid::uuid FROM import_user_rows WHERE op = 'update')`;

/** The written users' rows of user_emails, in key order. */
export const EMAILS_SQL = `
  INSERT INTO user_emails (value, uid) SELECT value, uid::uuid FROM import_email_rows ORDER BY value COLLATE "C", uid::uuid`;

/**
 * Writes a planned batch from the staging tables. Users: op and the final row,
 * legacy_ids as a text[] literal and attributes as JSON text, so the server keeps
 * the text as written (member order), as single writes do; the representation
 * (the JSON the API returns: stored with the row, which its latest event reads), its
 * ETag and the `search` text (search-column.ts). Key rows: op, key, value, uid.
 * $1 the events' time, $2 whether events are appended (CHANGE_FEED), $3 … $5 the
 * events' origin (interface, credential, client: event-origin.ts). Returns what
 * each part wrote, for the caller to compare with its plan.
 *
 * Each CTE touches rows no other CTE touches (planBatch guarantees a key row is
 * inserted, deleted or moved, never two of these), so their order within the
 * statement does not matter; the foreign key of user_keys is checked at the end
 * of the statement, after the users exist. Rows go in key order, so the B-trees
 * are written page by page. Each user written appends its change event
 * (`user.created` or `user.updated`) in the same statement, once every other
 * part has written (the events read `counts`, which reads them all); positions are
 * given after commit (postgres-sequencer.ts).
 *
 * Each user's event joins the user's chain (postgres-user-writes.ts: Feed): it names the
 * user's previous event (an updated user's row's latest, an inserted user's entry in
 * erased_subjects, which goes), its data is '' (read from the row), the row names it, and
 * the latest event of each updated row first gets the representation the row held (those
 * events locked in id order, the sequencer's, so the two never deadlock). All of it set-based: the statement's one snapshot gives every CTE the rows as they were before
 * it. The row needs its event's id as it is written, so the ids are drawn from the events'
 * sequence up front (`user_rows`) rather than by the event insert after `counts`: within
 * this statement a batch waits only for writers whose commit makes it fail (a key or uid
 * they insert: 23505, and the batch is planned again) or that roll back, since the rows it
 * updates, and the keys it deletes or moves (all of users it holds), were locked by the
 * snapshot's read before any id is drawn; so no conflicting write that commits can take
 * an id after the batch's and be numbered before it.
 */
export const WRITE_SQL = `
  WITH user_rows AS MATERIALIZED (
    SELECT r.op, r.uid, r.username, r.email_address, r.legacy_ids::text[] AS legacy_ids, r.display_name, r.display_name_key,
      r.attributes::json AS attributes, r.created_at::timestamptz AS created_at, r.updated_at::timestamptz AS updated_at, r.version::int AS version,
      r.representation, r.etag, r.external_id, r.active::boolean AS active, r.search,
      CASE WHEN $2::boolean THEN nextval('events_id_seq') END AS event_id,
      CASE r.op WHEN 'insert' THEN (SELECT x.event_id FROM erased_subjects x WHERE x.subject = r.uid) ELSE (SELECT u.event_id FROM users u WHERE u.uid = r.uid) END AS previous
    FROM (SELECT op, uid::uuid AS uid, username, email_address, legacy_ids, display_name, display_name_key, attributes, created_at, updated_at, version,
      representation, etag, external_id, active, search FROM import_user_rows ORDER BY uid::uuid) r
  ),
  inserted AS (
    INSERT INTO users (uid, username, email_address, legacy_ids, display_name, display_name_key, attributes, created_at, updated_at, version, representation, etag,
      external_id, active, search, event_id)
    SELECT uid, username, email_address, legacy_ids, display_name, display_name_key, attributes, created_at, updated_at, version, representation, etag,
      external_id, active, search, coalesce(event_id, previous)
    FROM user_rows WHERE op = 'insert' ORDER BY uid
    RETURNING 1
  ),
  forgotten AS (
    DELETE FROM erased_subjects x USING user_rows r WHERE r.op = 'insert' AND r.previous IS NOT NULL AND x.subject = r.uid
  ),
  kept AS (
    UPDATE events SET data = u.representation FROM users u
    WHERE events.id IN (
        SELECT e.id FROM events e JOIN user_rows r ON e.id = r.previous WHERE r.op = 'update' AND e.data = '' ORDER BY e.id FOR UPDATE OF e
      ) AND u.uid = events.subject
  ),
  updated AS (
    UPDATE users SET username = r.username, email_address = r.email_address, legacy_ids = r.legacy_ids, display_name = r.display_name,
      display_name_key = r.display_name_key, attributes = r.attributes, updated_at = r.updated_at, version = r.version,
      representation = r.representation, etag = r.etag, external_id = r.external_id, active = r.active, search = r.search,
      event_id = coalesce(r.event_id, users.event_id)
    FROM user_rows r WHERE r.op = 'update' AND users.uid = r.uid
    RETURNING 1
  ),
  key_rows AS MATERIALIZED (
    SELECT op, key, value, uid::uuid AS uid FROM import_key_rows
  ),
  keys_inserted AS (
    INSERT INTO user_keys (key, value, uid) SELECT key, value, uid FROM key_rows WHERE op = 'insert' ORDER BY key, value COLLATE "C"
    RETURNING 1
  ),
  keys_deleted AS (
    DELETE FROM user_keys USING key_rows r
    WHERE r.op = 'delete' AND user_keys.key = r.key AND user_keys.value = r.value AND user_keys.uid = r.uid
    RETURNING 1
  ),
  keys_moved AS (
    UPDATE user_keys SET uid = r.uid FROM key_rows r WHERE r.op = 'move' AND user_keys.key = r.key AND user_keys.value = r.value
    RETURNING 1
  ),
  counts AS (
    SELECT (SELECT count(*) FROM inserted)::int AS inserted, (SELECT count(*) FROM updated)::int AS updated,
      (SELECT count(*) FROM keys_inserted)::int AS keys_inserted, (SELECT count(*) FROM keys_deleted)::int AS keys_deleted,
      (SELECT count(*) FROM keys_moved)::int AS keys_moved
  ),
  appended AS (
    INSERT INTO events (id, type, subject, time, data, origin_interface, origin_credential, origin_client, previous)
    SELECT r.event_id, CASE r.op WHEN 'insert' THEN 'user.created' ELSE 'user.updated' END, r.uid, $1::timestamptz, '', $3::text, $4::text, $5::text, r.previous
    FROM user_rows r, counts WHERE $2::boolean ORDER BY r.event_id
  )
  SELECT * FROM counts`;
