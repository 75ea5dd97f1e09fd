/**
 * Load then index: what a bulk load into an empty directory sets aside at its start and
 * builds once at its end (UserStore.beginBulkLoad, finishBulkLoad): the indexes listed here,
 * and the word and facet entries of user_terms, rebuilt from every user's `search` text
 * (sqlite-bulk-load.ts, postgres-bulk-load.ts). Built from all its rows at once an index is
 * one sort and pages written in order; kept up row by row, each entry lands on a page of its
 * own, read and written again at every commit, and a load into an index larger than the
 * cache pays that for every user (docs/performance.md, "Load then index").
 *
 * Only indexes no write needs in order to be correct are set aside: the sort keys of
 * `GET /users` and `updated_since`, the partial index of inactive users, and the by-uid
 * indexes that free a user's keys and addresses on a delete. The primary keys (the uid,
 * the unique keys) and the address index stay, so uniqueness and lookups by key hold
 * throughout.
 *
 * Each definition is the one the migrations made (test/store/bulk-load.test.ts compares
 * the schema after a bulk load with a freshly migrated one); a migration that changes one
 * of these indexes changes it here too, and drops it with IF EXISTS (a load that stopped
 * before its end may have left it dropped).
 */

export interface DeferredIndex {
  name: string;
  /** Builds it unless it exists: safe to run at any time, by any process. */
  create: string;
  drop: string;
}

const SHARED: readonly (readonly [name: string, on: string])[] = [
  ['users_by_sort_username', 'users (sort_username, uid)'],
  ['users_by_sort_display_name', 'users (sort_display_name, uid)'],
  ['users_by_sort_family_name', 'users (sort_family_name, uid)'],
  ['users_by_sort_given_name', 'users (sort_given_name, uid)'],
  ['users_by_created_at', 'users (created_at, uid)'],
  ['users_by_updated_at', 'users (updated_at, uid)'],
  ['user_keys_by_uid', 'user_keys (uid)'],
  ['user_emails_by_uid', 'user_emails (uid)'],
];

/** The deferred indexes of a store whose partial index of inactive users is `WHERE inactive`. */
export function deferredIndexes(inactive: string): readonly DeferredIndex[] {
  return [...SHARED, ['users_inactive', `users (uid) WHERE ${inactive}`] as const].map(([name, on]) => ({
    name,
    create: `CREATE INDEX IF NOT EXISTS ${name} ON ${on}`,
    drop: `DROP INDEX IF EXISTS ${name}`,
  }));
}

/**
 * The deferred indexes (or the word index) could not be built when the store opened: the
 * users are intact, but the store does not serve without them (its searches would miss the
 * loaded users). Says so in words, with the cause (out of space, mostly) and what to do.
 */
export class DeferredBuildError extends Error {
  constructor(cause: unknown) {
    const why = (cause instanceof Error ? cause.message : String(cause)).split('\n')[0];
    const full = /FULL/.test(String((cause as { code?: unknown })?.code ?? ''));
    const room = full ? '; give the database room for them (about what its users take already)' : '';
    super(`holds a load into an empty directory whose indexes are not built yet, and building them failed (${why})${room}; start again, or run user-service migrate`, { cause });
  }
}
