/**
 * The statements of the set-based import (postgres-bulk-import.ts). A batch
 * travels as parallel arrays, one parameter per column, taken apart by unnest():
 * array input costs the server several times less than json_to_recordset() (it
 * is the busier side of an import: 1 ms against 8 ms for 1,000 users measured),
 * and the client, which waits on the server most of the time, serialises them.
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
      u.external_id, u.active, u.profile
    FROM users u WHERE u.uid IN (SELECT uid FROM held) FOR UPDATE
  )
  SELECT h.key, h.value, h.uid::text AS uid, NULL::text AS username, NULL::text AS email_address, NULL::text[] AS legacy_ids,
    NULL::text AS display_name, NULL::json AS attributes, NULL::timestamptz AS created_at, NULL::timestamptz AS updated_at, NULL::int AS version,
    NULL::text AS external_id, NULL::boolean AS active, NULL::json AS profile
  FROM held h
  UNION ALL
  SELECT NULL, NULL, l.uid::text, l.username, l.email_address, l.legacy_ids, l.display_name, l.attributes, l.created_at, l.updated_at, l.version,
    l.external_id, l.active, l.profile
  FROM locked l`;

/** The columns of WRITE_SQL's users, in parameter order ($1 … $11; then $20 … $22: external_id, active as 'true' or 'false' (text, like the other columns), the profile as JSON text). */
export const USER_COLUMNS = ['op', 'uid', 'username', 'email_address', 'legacy_ids', 'display_name', 'display_name_key', 'attributes', 'created_at', 'updated_at', 'version'] as const;


/** The columns of WRITE_SQL's key rows, in parameter order ($12 … $15). */
export const KEY_COLUMNS = ['op', 'key', 'value', 'uid'] as const;

/**
 * Writes a planned batch. Users ($1 … $11): op ('insert' or 'update') and the
 * final row, legacy_ids as a text[] literal and attributes as JSON text, so the
 * server keeps the text as written (member order), as single writes do. Key
 * rows ($12 … $15): op ('insert', 'delete' or 'move'), key, value, uid. $16 each
 * user's representation (the JSON the API returns, aligned with the users: stored
 * with the row and the data of its event) and $19 its ETag; $17 the events' time,
 * $18 whether events are appended (CHANGE_FEED), $23 … $25 the events' origin
 * (interface, credential, client: event-origin.ts), $26 their `search`
 * text (search-column.ts; triggers index its terms). Returns
 * what each part wrote, for the caller to compare with its plan.
 *
 * Each CTE touches rows no other CTE touches (planBatch guarantees a key row is
 * inserted, deleted or moved, never two of these), so their order within the
 * statement does not matter; the foreign key of user_keys is checked at the end
 * of the statement, after the users exist. Rows go in key order, so the B-trees
 * are written page by page. Each user written appends its change event
 * (`user.created` or `user.updated`) in the same statement, once every other
 * part has written (the events read `counts`, which reads them all), so their ids
 * are taken with every lock held (postgres-user-writes.ts: Feed); positions are
 * given after commit (postgres-sequencer.ts).
 */
export const WRITE_SQL = `
  WITH user_rows AS (
    SELECT r.op, r.uid, r.username, r.email_address, r.legacy_ids::text[] AS legacy_ids, r.display_name, r.display_name_key,
      r.attributes::json AS attributes, r.created_at, r.updated_at, r.version, r.representation, r.etag,
      r.external_id, r.active::boolean AS active, r.profile::json AS profile, r.search
    FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
      $9::timestamptz[], $10::timestamptz[], $11::int[], $16::text[], $19::text[], $20::text[], $21::text[], $22::text[], $26::text[])
      AS r(op, uid, username, email_address, legacy_ids, display_name, display_name_key, attributes, created_at, updated_at, version, representation, etag,
        external_id, active, profile, search)
  ),
  inserted AS (
    INSERT INTO users (uid, username, email_address, legacy_ids, display_name, display_name_key, attributes, created_at, updated_at, version, representation, etag,
      external_id, active, profile, search)
    SELECT uid, username, email_address, legacy_ids, display_name, display_name_key, attributes, created_at, updated_at, version, representation, etag,
      external_id, active, profile, search
    FROM user_rows WHERE op = 'insert' ORDER BY uid
    RETURNING 1
  ),
  updated AS (
    UPDATE users SET username = r.username, email_address = r.email_address, legacy_ids = r.legacy_ids, display_name = r.display_name,
      display_name_key = r.display_name_key, attributes = r.attributes, updated_at = r.updated_at, version = r.version,
      representation = r.representation, etag = r.etag, external_id = r.external_id, active = r.active, profile = r.profile, search = r.search
    FROM user_rows r WHERE r.op = 'update' AND users.uid = r.uid
    RETURNING 1
  ),
  key_rows AS (
    SELECT * FROM unnest($12::text[], $13::text[], $14::text[], $15::uuid[]) AS r(op, key, value, uid)
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
    INSERT INTO events (type, subject, time, data, origin_interface, origin_credential, origin_client)
    SELECT CASE r.op WHEN 'insert' THEN 'user.created' ELSE 'user.updated' END, r.uid, $17::timestamptz, r.representation, $23::text, $24::text, $25::text
    FROM user_rows r, counts WHERE $18::boolean ORDER BY r.uid
  )
  SELECT * FROM counts`;
