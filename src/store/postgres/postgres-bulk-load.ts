/**
 * Load then index on PostgreSQL (store/deferred-indexes.ts), as on SQLite
 * (sqlite-bulk-load.ts): the deferred indexes dropped and the word index marked deferred
 * (terms_deferred, migration 17) for a load into an empty directory, whose batches then
 * write no word entry and mark it again each; built and rebuilt at the load's end and at
 * every open that finds one missing or the mark present. Setting them aside and building
 * each of them again run under the migration lock, so two processes never build one twice
 * nor drop one another is building. Building takes a SHARE lock on its table:
 * writers wait for one index at a time, readers not at all. The build is bounded by the
 * table, not by a request, so it runs without the statement timeout, as ANALYZE does.
 */
import type { Sql, TransactionSql } from 'postgres';
import { deferredIndexes } from '../deferred-indexes.js';
import type { BulkLoadBuild } from '../user-store.js';
import { MIGRATION_LOCK_ID } from './postgres-migration-lock.js';

export const POSTGRES_DEFERRED_INDEXES = deferredIndexes('NOT active');

const NAMES = POSTGRES_DEFERRED_INDEXES.map((index) => index.name);

/** In a bulk load's batch that writes users without their word entries: the mark that the word index must be rebuilt. */
export const MARK_TERMS_DEFERRED_SQL = 'INSERT INTO terms_deferred (since) SELECT now() WHERE NOT EXISTS (SELECT 1 FROM terms_deferred)';

/**
 * Every user's word and facet entries from its `search` text (search-column.ts), split at the
 * first colon as the triggers split them, in the primary key's order, so the B-tree is
 * written page after page; then the mark goes. One transaction: a reader sees the entries
 * before or after, never a part. Writers of users wait for it (SHARE, as CREATE INDEX takes):
 * a change committed between its DELETE and its INSERT would have its trigger's delete of the
 * old entries wait for this transaction and then miss the ones this INSERT wrote.
 */
const REBUILD_TERMS_SQL = `
  LOCK TABLE users IN SHARE MODE;
  DELETE FROM user_terms;
  INSERT INTO user_terms (field, value, uid)
    SELECT t.field, t.value, t.uid FROM (
      SELECT split_part(j.term, ':', 1) AS field, substr(j.term, strpos(j.term, ':') + 1) AS value, u.uid
      FROM users u, json_array_elements_text(u.search::json->'terms') AS j(term)
    ) t
    ORDER BY t.field COLLATE "C", t.value COLLATE "C", t.uid;
  DELETE FROM terms_deferred;
`;

/** The names of the deferred indexes the schema lacks (to_regclass follows the search path). */
async function missingNames(sql: Sql): Promise<Set<string>> {
  const rows = await sql<{ name: string }[]>`SELECT name FROM unnest(${NAMES}::text[]) AS name WHERE to_regclass(name) IS NULL`;
  return new Set(rows.map((row) => row.name));
}

/**
 * Builds the deferred indexes the schema lacks, each in a transaction of its own, and rebuilds
 * the word index when it is marked deferred or `words` says this process deferred it (another
 * may have rebuilt it and removed the mark since); says what it built.
 */
export async function buildMissingIndexes(sql: Sql, words = false): Promise<BulkLoadBuild> {
  const missing = await missingNames(sql);
  const underLock = (work: (tx: TransactionSql) => Promise<unknown>) =>
    sql.begin(async (tx) => {
      await tx`SET LOCAL statement_timeout = 0`;
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`;
      await work(tx);
    });
  let built = 0;
  for (const index of POSTGRES_DEFERRED_INDEXES) {
    if (!missing.has(index.name)) continue;
    await underLock((tx) => tx.unsafe(index.create));
    built += 1;
  }
  const [marked] = words ? [true] : await sql`SELECT 1 FROM terms_deferred LIMIT 1`;
  if (marked !== undefined) await underLock((tx) => tx.unsafe(REBUILD_TERMS_SQL).simple());
  return { indexes: built, words: marked !== undefined };
}

/** Drops the deferred indexes when the directory holds no user, in one transaction; whether it did. */
export async function setAsideIndexes(sql: Sql): Promise<boolean> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`;
    const [held] = await tx`SELECT 1 FROM users LIMIT 1`;
    if (held !== undefined) return false;
    for (const index of POSTGRES_DEFERRED_INDEXES) await tx.unsafe(index.drop);
    await tx.unsafe(MARK_TERMS_DEFERRED_SQL);
    return true;
  });
}
