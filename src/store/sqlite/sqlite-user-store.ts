/**
 * UserStore on SQLite through better-sqlite3: one connection per process, WAL,
 * and `synchronous=FULL` by default, set explicitly on every open, so a returned
 * write has been fsynced. Writes are group-committed (group-commit.ts); the keys table's
 * primary key enforces uniqueness (see sqlite-migrations.ts). Every write that
 * changes a user appends its change event in its own savepoint (sqlite-event-log.ts).
 */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { emailKeysOf, type KeyEntry, type LookupKey, type User } from '../../users/user.js';
import { keysOfUser } from '../import-batch-plan.js';
import { representationOf, withStoredRepresentation, type UserRepresentation } from '../../users/user-representation.js';
import { lazyUser } from '../../users/lazy-user.js';
import { AbandonedWrite, KeyConflictError, StoreUnavailableError } from '../store-errors.js';
import { translateSqliteError as translate } from './sqlite-errors.js';
import { planImport, updatedUser, updateOutcome, type Holder, type ImportOutcome, type ImportUser, type OnConflict } from '../import-plan.js';
import { batchResponse, type BatchIdempotency, type Change, type IdempotencyRecord, type PendingIdempotency, type Positioned, type Precondition, type SearchFilter, type SearchPage, type UserStore, type WriteOutcome } from '../user-store.js';
import { IMPORT_ORIGIN, type EventOrigin } from '../../events/event-origin.js';
import { LATEST_POSITION_SQL, sqliteEventLog } from './sqlite-event-log.js';
import { sqliteIdempotency } from './sqlite-idempotency.js';
import { FALLBACK_AUTOCHECKPOINT_PAGES, startWalCheckpointer, type CheckpointReport, type WalCheckpointer } from './wal-checkpointer.js';
import { sqliteLease } from './sqlite-lease.js';
import { MemoryPageMarks, type PageMark } from '../page-marks.js';
import { openSqliteDatabase, type SqliteConnectionOptions } from './sqlite-connection.js';
import { createGroupCommit } from './group-commit.js';
import { sqliteSearch, type StoredUserRow } from './sqlite-search.js';
import { connectionReads } from './sqlite-reads.js';
import { startReaderThread } from './reader-thread.js';
import { READ_LANE_WAITING, readLane } from '../read-lane.js';
import { mapInSlices } from '../../event-loop-slices.js';
import { walkMark } from '../../users/search-match.js';
import { migrateSqlite } from './sqlite-migrations.js';
import { buildMissingIndexes, buildMissingIndexesAtOpen, markTermsDeferred, setAsideIndexes } from './sqlite-bulk-load.js';
import { searchOf } from '../search-column.js';
import { USER_COLUMNS, userRowParams, userRowToUser, type UserRow } from './sqlite-rows.js';

export interface SqliteStoreOptions extends SqliteConnectionOptions {
  /** A file path, or `:memory:`. */
  path: string;
  /** Whether writes append change events (default true; CHANGE_FEED=off). */
  changeFeed?: boolean;
  /** Most index entries a condition may name to drive a search page (store/search-plan.ts; tests lower it). */
  searchDriveBound?: number;
  /** Most index entries each of two intersected conditions may name (store/search-plan.ts; tests lower it). */
  searchIntersectBound?: number;
  /** Told of each checkpoint the WAL checkpointer ran (wal-checkpointer.ts); for tests and diagnostics. */
  onCheckpoint?: (report: CheckpointReport) => void;
}

export { userRowToUser } from './sqlite-rows.js';

/**
 * Expensive reads the SQLite store runs at once (read-lane.ts): its one reader thread takes
 * them in turn, and two in the lane keep it fed while the event loop handles the answer of
 * the other.
 */
const READ_LANE_CONCURRENCY = 2;

/** A key row's identity within one user: its key name and compared value. */
const keySlot = (entry: { key: string; value: string }): string => `${entry.key}\u0000${entry.value}`;

/** What `after` adds to `before` and what it drops, each item known by `id`. */
function changes<T>(before: readonly T[], after: readonly T[], id: (item: T) => string): { gone: T[]; added: T[] } {
  const had = new Set(before.map(id));
  const has = new Set(after.map(id));
  return { gone: before.filter((item) => !has.has(id(item))), added: after.filter((item) => !had.has(id(item))) };
}

export function openSqliteUserStore(options: SqliteStoreOptions): UserStore {
  const db = openSqliteDatabase(options.path, options);
  try {
    migrateSqlite(db);
    // A bulk load that stopped before its end left its deferred indexes unbuilt (sqlite-bulk-load.ts).
    buildMissingIndexesAtOpen(db);
  } catch (error) {
    // The file stays closed behind a store that did not open (its descriptors kept a full volume busy).
    try {
      db.close();
    } catch {
      // what failed is said by the error below
    }
    throw error;
  }
  // Checkpoints off the event loop for a file the service writes as requests come. An import
  // (bulkWrites) keeps its own larger automatic checkpoints, which copy a page once per many batches.
  let checkpointer: WalCheckpointer | undefined;
  if (options.path !== ':memory:' && !options.bulkWrites) {
    db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    checkpointer = startWalCheckpointer(options.path, options.onCheckpoint);
  }

  const insertUser = db.prepare(
    `INSERT INTO users (uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version, external_id, active,
       display_name_key, representation, etag, search, event_position)
     VALUES (@uid, @username, @email_address, @legacy_ids, @display_name, @attributes, @created_at, @updated_at, @version, @external_id, @active,
       @display_name_key, @representation, @etag, @search, @event_position)`,
  );
  const updateUser = db.prepare(
    `UPDATE users SET username = @username, email_address = @email_address, legacy_ids = @legacy_ids, display_name = @display_name,
       display_name_key = @display_name_key, attributes = @attributes, updated_at = @updated_at, version = @version,
       external_id = @external_id, active = @active,
       representation = @representation, etag = @etag, search = @search, event_position = @event_position WHERE uid = @uid`,
  );
  const insertKey = db.prepare('INSERT INTO user_keys (key, value, uid) VALUES (?, ?, ?)');
  const deleteKey = db.prepare('DELETE FROM user_keys WHERE key = ? AND value = ? AND uid = ?');
  const insertEmail = db.prepare('INSERT INTO user_emails (value, uid) VALUES (?, ?)');
  const deleteEmail = db.prepare('DELETE FROM user_emails WHERE value = ? AND uid = ?');
  const insertTerm = db.prepare('INSERT INTO user_terms (field, value, uid) VALUES (?, ?, ?)');
  const termsByImport = db.prepare('INSERT INTO terms_by_import (batch) VALUES (1)');
  const termsByTrigger = db.prepare('DELETE FROM terms_by_import');
  const deleteUser = db.prepare('DELETE FROM users WHERE uid = ?');
  const selectByUid = db.prepare<[string], UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE uid = ?`);
  const selectByKey = db.prepare<[string, string], UserRow>(
    `SELECT ${USER_COLUMNS} FROM users WHERE uid = (SELECT uid FROM user_keys WHERE key = ? AND value = ?)`,
  );
  // A lookup and the feed position it reflects in one statement, so one snapshot (and one
  // read of the WAL index, which is what a statement costs here): a row even when no user matches.
  type StoredRow = { position: number; uid: string | null; representation: string | null; etag: string | null };
  const positioned = (users: string) =>
    `SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0) AS position, u.uid, u.representation, u.etag
     FROM (SELECT 1) LEFT JOIN (${users}) u`;
  const selectStoredByUid = db.prepare<[string], StoredRow>(positioned('SELECT uid, representation, etag FROM users WHERE uid = ?'));
  const selectStoredByKey = db.prepare<[string, string], StoredRow>(
    positioned('SELECT uid, representation, etag FROM users WHERE uid = (SELECT uid FROM user_keys WHERE key = ? AND value = ?)'),
  );
  const selectOne = db.prepare('SELECT 1');
  const insertServiceKey = db.prepare('INSERT OR IGNORE INTO service_keys (name, value) VALUES (?, ?)');
  const selectServiceKey = db.prepare<[string], { value: Buffer }>('SELECT value FROM service_keys WHERE name = ?');
  // Expensive reads on a thread of their own for a file; an in-memory database has no other connection.
  const reader = options.path === ':memory:' ? undefined : startReaderThread(options.path);
  const searching = sqliteSearch(reader?.reads ?? connectionReads(db), options.searchDriveBound, options.searchIntersectBound);
  const lane = readLane(READ_LANE_CONCURRENCY, READ_LANE_WAITING);
  let closed = false;

  /** Inserts one key row of the user `uid`; a key another user holds is KeyConflictError. */
  function insertKeyRow(entry: KeyEntry, uid: string): void {
    try {
      insertKey.run(entry.key, entry.value, uid);
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new KeyConflictError(entry.key);
      throw error;
    }
  }

  /** Inserts the key rows and addresses of a new user. */
  function insertKeys(user: User): void {
    for (const value of emailKeysOf(user)) insertEmail.run(value, user.uid);
    for (const entry of keysOfUser(user)) insertKeyRow(entry, user.uid);
  }

  /** Runs a read, translating driver errors into store errors. */
  function read<T>(fn: () => T): T {
    if (closed) throw new StoreUnavailableError();
    try {
      return fn();
    } catch (error) {
      throw translate(error);
    }
  }

  /** Runs an expensive read (reader-thread.ts) in the read lane, translating driver errors into store errors. */
  async function expensive<T>(deadline: number | undefined, fn: () => Promise<T>): Promise<T> {
    if (closed) throw new StoreUnavailableError();
    return lane.run(deadline, () => fn().catch((error: unknown) => Promise.reject(translate(error))));
  }

  const commit = createGroupCommit(db, translate);

  /** Runs `fn` as part of the next shared transaction (group commit); resolves once it is durable. */
  function write<T>(fn: () => T): Promise<T> {
    if (closed) return Promise.reject(new StoreUnavailableError());
    return commit(fn).then((result) => {
      // Its events (if any) are readable now: tell the feed's watchers.
      events.committed();
      return result;
    });
  }

  // Writes append change events unless CHANGE_FEED=off.
  const events = sqliteEventLog(db, write, options.changeFeed !== false);

  const selectKeyHolder = db.prepare<[string, string], { uid: string }>('SELECT uid FROM user_keys WHERE key = ? AND value = ?');
  const selectUidHeld = db.prepare<[string], { held: number }>('SELECT 1 AS held FROM users WHERE uid = ?');

  /** Who holds the user's uid and each of its keys, in key order. */
  function holdersOf(user: User): Holder[] {
    const holders: Holder[] = selectUidHeld.get(user.uid) ? [{ key: 'uid', uid: user.uid }] : [];
    for (const entry of keysOfUser(user)) {
      const holder = selectKeyHolder.get(entry.key, entry.value);
      if (holder) holders.push({ key: entry.key, uid: holder.uid });
    }
    return holders;
  }

  /** Inserts the row of `user` and its keys, and its `user.created` event at `time`. */
  function insertRow(user: User, time: string, origin?: EventOrigin, search?: string): void {
    const position = events.userWritten('user.created', user.uid, time, origin);
    insertUser.run({ ...userRowParams(user, search), event_position: position });
    insertKeys(user);
  }

  const compareUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

  /** Whether this store began a bulk load whose word index it rebuilds at the end (beginBulkLoad). */
  let termsDeferred = false;

  /**
   * Runs `load` (an import batch, inside its write) with the insert trigger leaving the
   * terms of created users to it (migration 14): `load` hands each created user's
   * `field:value` terms to `add`, and they go into user_terms sorted, so the B-tree is
   * written in order: at the end, or when `load` calls `flush` before it updates a row
   * (the update trigger replaces the terms it finds, so they must be there). Within the
   * same write: no user is committed without its words, but in a bulk load into an empty
   * directory, whose batches mark the word index for its rebuild instead (termsDeferred).
   */
  function withBulkTerms<T>(load: (add: (uid: string, terms: readonly string[]) => void, flush: () => void) => T): T {
    let rows: [string, string, string][] = [];
    const flush = (): void => {
      // Code unit order: the B-tree's (UTF-8 bytes) but for the rare astral character, which only costs a page visit.
      rows.sort((a, b) => compareUnits(a[0], b[0]) || compareUnits(a[1], b[1]) || compareUnits(a[2], b[2]));
      for (const [field, value, uid] of rows) insertTerm.run(field, value, uid);
      rows = [];
    };
    const add = (uid: string, terms: readonly string[]): void => {
      if (termsDeferred) return;
      for (const term of terms) {
        const colon = term.indexOf(':');
        rows.push([term.slice(0, colon), term.slice(colon + 1), uid]);
      }
    };
    // A bulk load's batch leaves the entries to the load's end (sqlite-bulk-load.ts), and says so in its own transaction.
    if (termsDeferred) markTermsDeferred(db);
    termsByImport.run();
    try {
      const result = load(add, flush);
      flush();
      return result;
    } finally {
      termsByTrigger.run();
    }
  }

  /** Replaces the row of the same uid by `next` (its keys first freed, then taken again), and its `user.updated` event at `time`. */
  /**
   * Replaces the row of `previous` (as read in this transaction) by `next`, with its
   * `user.updated` event. Only the key rows and addresses that differ are written: the
   * stored ones are exactly those `previous` makes (every write keeps them so, in its own
   * transaction), so a change that keeps a user's keys (a title, a display name) writes
   * none of them, where deleting and inserting them all wrote each twice (a merge import
   * of 100,000 users spent 38 % of its CPU here: docs/performance.md, "Import").
   */
  function replaceRow(previous: User, next: User, time: string, origin?: EventOrigin): void {
    const position = events.userWritten('user.updated', next.uid, time, origin);
    const emails = changes(emailKeysOf(previous), emailKeysOf(next), (value) => value);
    const keys = changes(keysOfUser(previous), keysOfUser(next), keySlot);
    for (const value of emails.gone) deleteEmail.run(value, previous.uid);
    for (const entry of keys.gone) deleteKey.run(entry.key, entry.value, previous.uid);
    updateUser.run({ ...userRowParams(next), event_position: position });
    for (const value of emails.added) insertEmail.run(value, next.uid);
    for (const entry of keys.added) insertKeyRow(entry, next.uid);
  }

  function findRow(key: LookupKey | 'external_id', value: string): User | undefined {
    const row = key === 'uid' ? selectByUid.get(value) : selectByKey.get(key, value);
    return row && userRowToUser(row);
  }

  /**
   * The stored representation of the user holding `value` under `key`, and the feed
   * position it reflects. A row without one (written by an earlier release: migration 6)
   * is rendered from its columns.
   */
  function findRepresentation(key: LookupKey | 'external_id', value: string): Positioned<UserRepresentation | undefined> {
    const row = (key === 'uid' ? selectStoredByUid.get(value) : selectStoredByKey.get(key, value)) as StoredRow;
    const { position, uid, representation, etag } = row;
    if (uid === null) return { value: undefined, position };
    if (representation !== null && etag !== null) return { value: { uid, json: representation, etag }, position };
    const user = findRow('uid', uid);
    return { value: user && representationOf(user), position };
  }

  /**
   * A search page's user. Its stored representation is the user (written from it), so it is
   * parsed, once, only when a member other than the uid is read (lazy-user.ts): a REST page
   * sends the text as it is and parses none; a SCIM page parses each.
   * A row without one (an earlier release wrote it since this release last did) comes with
   * its columns, read in the page's snapshot (sqlite-search.ts StoredUserRow).
   */
  function pageUser(row: StoredUserRow): User {
    const { profile: json, etag } = row;
    if (typeof json === 'string' && typeof etag === 'string') return withStoredRepresentation(lazyUser(row.uid, json), json, etag);
    return userRowToUser({ ...(JSON.parse(row.columns as string) as UserRow), profile: json });
  }

  function current(uid: string, precondition?: Precondition): WriteOutcome<User> {
    const row = selectByUid.get(uid);
    if (!row) return { status: 'not-found' };
    const user = userRowToUser(row);
    if (precondition && !precondition(user)) return { status: 'precondition-failed' };
    return { status: 'ok', value: user };
  }

  const idempotency = sqliteIdempotency(db);
  const pageMarks = new MemoryPageMarks();

  return {
    async create(user, pending, origin) {
      return write(() => {
        // Claimed first: a recorded key writes nothing.
        if (pending) idempotency.claim(pending, Date.now(), pending.respond(user), user.uid);
        insertRow(user, user.created_at, origin);
        return user;
      });
    },

    async findByKey(key: LookupKey | 'external_id', value: string) {
      return read(() => findRow(key, value));
    },

    async lookup(key: LookupKey | 'external_id', value: string) {
      return read(() => findRepresentation(key, value));
    },

    async replace(uid: string, change: Change, now: string, precondition?: Precondition, pending?: PendingIdempotency, origin?: EventOrigin) {
      try {
        return await write((): WriteOutcome<User> => {
          // Claimed before the user is read: a retry gets the recorded answer, whatever happened to the user since.
          if (pending) idempotency.claim(pending, Date.now());
          const found = current(uid, precondition);
          if (found.status !== 'ok') throw new AbandonedWrite(found);
          const fields = typeof change === 'function' ? change(found.value) : change;
          const next: User = fields === undefined ? found.value : { ...found.value, ...fields, updated_at: now, version: found.value.version + 1 };
          if (fields !== undefined) replaceRow(found.value, next, now, origin);
          if (pending) idempotency.answer(pending, pending.respond(next), uid);
          return { status: 'ok', value: next };
        });
      } catch (error) {
        if (error instanceof AbandonedWrite) return error.outcome as WriteOutcome<User>;
        throw error;
      }
    },

    async delete(uid: string, precondition?: Precondition, origin?: EventOrigin) {
      return write((): WriteOutcome<void> => {
        const found = current(uid, precondition);
        if (found.status !== 'ok') return found;
        // Erased in the delete's own transaction (erasure.ts): once it commits, nothing returns the user's data.
        // Before the row goes: the row names the user's latest event, where the erasure's walk starts.
        events.userDeleted(uid, found.value.version, new Date().toISOString(), origin);
        idempotency.erase(uid);
        deleteUser.run(uid); // user_keys rows go with it (ON DELETE CASCADE)
        return { status: 'ok', value: undefined };
      });
    },

    async importUsers(users: readonly ImportUser[], onConflict: OnConflict, now: string, key?: BatchIdempotency, origin: EventOrigin = IMPORT_ORIGIN) {
      // One IMMEDIATE transaction holds the write lock: holders read here cannot change before the writes.
      return write(() => withBulkTerms((addTerms, flushTerms) => {
        if (key) idempotency.claim(key, Date.now());
        const outcomes: ImportOutcome[] = [];
        for (const user of users) {
          const plan = planImport(holdersOf(user), onConflict);
          if (plan.action === 'conflict') {
            outcomes.push({ status: 'conflict', key: plan.key });
            if (onConflict === 'fail') break;
          } else if (plan.action === 'create') {
            const search = searchOf(user);
            insertRow(user, now, origin, search.column);
            addTerms(user.uid, search.terms);
            outcomes.push({ status: 'created', uid: user.uid });
          } else {
            const existing = userRowToUser(selectByUid.get(plan.uid) as UserRow);
            const update = updatedUser(user, existing, now, onConflict);
            if ('next' in update && update.next) {
              flushTerms();
              replaceRow(existing, update.next, now, origin);
            }
            outcomes.push(updateOutcome(existing.uid, update));
          }
        }
        if (key) idempotency.answer(key, batchResponse(outcomes));
        return outcomes;
      }));
    },

    async beginBulkLoad() {
      const began = await write(() => setAsideIndexes(db));
      termsDeferred ||= began;
      return began;
    },

    async finishBulkLoad() {
      // Outside the group commit, an index a transaction: a batch commits within one turn, so none is open here.
      const built = read(() => buildMissingIndexes(db, termsDeferred));
      termsDeferred = false;
      return built;
    },

    async search(page: SearchPage) {
      // On the reader thread, in the read lane: a reader's searches take their turns there, never the
      // event loop that answers reads by key and writes (a page read here, however small, let a flood of
      // searches take the loop from everyone else: docs/performance.md, "Search against the raw search server").
      const { rows, position, walkedTo } = await expensive(page.deadline, () => searching.page(page, LATEST_POSITION_SQL));
      const value = await mapInSlices(rows, pageUser);
      return walkedTo === undefined ? { value, position } : { value, position, walkedTo: walkMark(userRowToUser(walkedTo), page.sort) };
    },

    // A SQLite file is served by one process in practice: the marks stay in its memory.
    async pageMark(key: string, now: number) {
      return pageMarks.get(key, now);
    },

    async savePageMark(key: string, mark: PageMark, now: number) {
      pageMarks.set(key, mark, now);
    },

    async count(filter: SearchFilter, deadline?: number) {
      return expensive(deadline, () => searching.count(filter, deadline));
    },

    async countMatches(filter: SearchFilter, bound: number, deadline?: number) {
      return expensive(deadline, () => searching.countMatches(filter, bound, deadline));
    },

    async refreshStatistics() {},

    async cursorKey() {
      return write(() => {
        // The first process to ask makes the key; every later one reads the same.
        insertServiceKey.run('cursor', randomBytes(32));
        return (selectServiceKey.get('cursor') as { value: Buffer }).value;
      });
    },

    async findIdempotency(scope: string, key: string, now: number) {
      return read(() => idempotency.find(scope, key, now));
    },

    async saveIdempotency(record: IdempotencyRecord, now: number) {
      return write(() => idempotency.save(record, now));
    },

    async purgeIdempotency(now: number, limit: number) {
      return write(() => idempotency.purge(now, limit));
    },

    events,

    leadership(name: string) {
      return sqliteLease(db, write, name);
    },

    async ping() {
      read(() => selectOne.get());
    },

    async close() {
      if (closed) return;
      commit.flush();
      closed = true;
      events.close();
      await Promise.all([checkpointer?.stop(), reader?.stop()]);
      db.close();
    },

    async probeWrite() {
      if (closed) throw new StoreUnavailableError();
      // Its own transaction, never a group commit's: a probe that finds no room must not fail
      // the writes of a batch (SQLITE_FULL may roll back the whole transaction). JavaScript runs
      // one thing at a time and a batch commits within one turn, so no batch is open here.
      // 64 KiB (as much as a large user write takes) in overflow pages the database does not use
      // yet: from the free list, or by growing the database (max_page_count); the COMMIT writes
      // them, about 64 KiB, to the WAL and fsyncs it (ENOSPC), as every write's does.
      try {
        db.transaction(() => {
          db.prepare("INSERT OR REPLACE INTO service_keys (name, value) VALUES ('space-probe', randomblob(65536))").run();
          db.prepare("DELETE FROM service_keys WHERE name = 'space-probe'").run();
        }).immediate();
      } catch (error) {
        throw translate(error);
      }
    },
  };
}
