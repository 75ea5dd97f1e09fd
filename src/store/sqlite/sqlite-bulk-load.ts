/**
 * Load then index on SQLite (store/deferred-indexes.ts). A bulk load into an empty
 * directory drops the deferred indexes and marks the word index deferred (a row of
 * terms_deferred, migration 17) in a write of its own; its batches then write no entry
 * of user_terms, each marking it again in its own transaction. The indexes are built
 * again, each in its own IMMEDIATE transaction, and the word index rebuilt from every
 * user's `search` text, when the load ends and whenever the store opens and finds one
 * missing or the mark present. So at every commit either user_terms holds exactly the
 * terms of every user's `search` or the mark says it may not, and DDL being
 * transactional, a reader sharing the file sees either all of an index or none of it.
 */
import type Database from 'better-sqlite3';
import { DeferredBuildError, deferredIndexes, type DeferredIndex } from '../deferred-indexes.js';
import type { BulkLoadBuild } from '../user-store.js';

export const SQLITE_DEFERRED_INDEXES = deferredIndexes('active = 0');

/**
 * Every user's word and facet entries from its `search` text (search-column.ts), split at the
 * first colon as the triggers split them, in the B-tree's order (BINARY: UTF-8 bytes), so
 * the table is written page after page.
 */
const REBUILD_TERMS_SQL = `
  DELETE FROM user_terms;
  INSERT INTO user_terms (field, value, uid)
    SELECT substr(j.value, 1, instr(j.value, ':') - 1), substr(j.value, instr(j.value, ':') + 1), u.uid
    FROM users u, json_each(u.search, '$.terms') j
    ORDER BY 1, 2, 3;
  DELETE FROM terms_deferred;
`;

const MARK_TERMS_DEFERRED_SQL = 'INSERT INTO terms_deferred (since) SELECT ? WHERE NOT EXISTS (SELECT 1 FROM terms_deferred)';

/** The deferred indexes the file lacks. */
export function missingIndexes(db: Database.Database): DeferredIndex[] {
  const present = new Set(db.prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'index'").all().map((row) => row.name));
  return SQLITE_DEFERRED_INDEXES.filter((index) => !present.has(index.name));
}

/** Whether the word index is marked deferred (migration 17): a load left its entries to its end. */
export const termsDeferred = (db: Database.Database) => db.prepare('SELECT 1 FROM terms_deferred LIMIT 1').get() !== undefined;

/**
 * Builds the deferred indexes the file lacks, each in a transaction of its own (other writers
 * wait for one at a time), and rebuilds the word index when it is marked deferred or `words`
 * says this process deferred it (another process may have rebuilt it and removed the mark since).
 */
export function buildMissingIndexes(db: Database.Database, words = false): BulkLoadBuild {
  const missing = missingIndexes(db);
  const rebuild = words || termsDeferred(db);
  if (missing.length === 0 && !rebuild) return { indexes: 0, words: false };
  // A build's sort spills to a temporary file past the page cache, as SQLite does by default:
  // in memory (the connection's temp_store for group commits) a million users' entries would
  // be the process's largest allocation.
  const tempStore = db.pragma('temp_store', { simple: true }) as number;
  db.pragma('temp_store = FILE');
  try {
    for (const index of missing) db.transaction(() => db.exec(index.create)).immediate();
    if (rebuild) db.transaction(() => db.exec(REBUILD_TERMS_SQL)).immediate();
  } finally {
    db.pragma(`temp_store = ${tempStore}`);
  }
  return { indexes: missing.length, words: rebuild };
}

/** In the caller's write transaction: when the directory holds no user, drops the deferred indexes and marks the word index deferred; whether it did. */
export function setAsideIndexes(db: Database.Database): boolean {
  if (db.prepare('SELECT 1 FROM users LIMIT 1').get() !== undefined) return false;
  for (const index of SQLITE_DEFERRED_INDEXES) db.exec(index.drop);
  markTermsDeferred(db);
  return true;
}

/** In the caller's write transaction (a batch that writes users without their word entries): the mark that the word index must be rebuilt. */
export function markTermsDeferred(db: Database.Database): void {
  db.prepare(MARK_TERMS_DEFERRED_SQL).run(new Date().toISOString());
}

/** At open (the store, `migrate`): buildMissingIndexes(), its failure a DeferredBuildError that says what failed. */
export function buildMissingIndexesAtOpen(db: Database.Database): void {
  try {
    buildMissingIndexes(db);
  } catch (error) {
    throw new DeferredBuildError(error);
  }
}
