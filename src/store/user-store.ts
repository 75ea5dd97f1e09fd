/**
 * The UserStore port: everything the service needs from persistence, in domain
 * terms. Adapters (sqlite/, postgres/) implement it; SQL and rows stay inside them.
 *
 * Invariants every implementation must hold (test/store-contract.ts checks them):
 * - Uniqueness: every entry of `keysOf(user)` (username and email address in
 *   canonical form, each legacy id exactly) belongs to at most one user. It is
 *   enforced by the store's own constraints inside the transaction that writes
 *   the user row, never by a read before the write, so it holds across any number
 *   of processes sharing the store. A write that would break it throws
 *   KeyConflictError naming the first conflicting key and changes nothing.
 * - Atomicity: a write is applied whole or not at all; a failed precondition or
 *   conflict leaves the store exactly as it was.
 * - Durability: a returned write survives a crash of the process (and by default
 *   a power loss).
 * - Read-your-writes: once a write resolves, every read method sees it.
 * - Order: search returns users in the page's sort order (folded keys compared by
 *   code point, instants by time), ties in `uid` order (byte order of the lower-case
 *   UUID text) in the direction of the last sort key; without sort keys in ascending
 *   `uid` order. A page starts strictly after its keyset.
 * - Unavailability is reported as StoreUnavailableError, never a driver error.
 * - Lack of space (a full disk or volume, a database that became read-only) is
 *   reported as StoreFullError; the write that met it changed nothing.
 */
import type { EventLog } from '../events/event-log.js';
import type { EventOrigin } from '../events/event-origin.js';
import type { Leadership } from '../events/leadership.js';
import type { LookupKey, User, UserFields } from '../users/user.js';
import type { UserRepresentation } from '../users/user-representation.js';
import type { Facet, SortKey } from '../users/user-vocabulary.js';
import type { ImportOutcome, ImportUser, OnConflict } from './import-plan.js';
import type { PageMark } from './page-marks.js';
import type { MatchCount } from './search-plan.js';

// What the service needs of the store beside the port's own types: the error a write
// meets when a unique key is held, a page mark and a count. users/ imports the store
// through this module only (test/architecture/layers.test.ts).
export { KeyConflictError } from './store-errors.js';
export type { PageMark, MatchCount };


/** Decides, inside the write's transaction, whether the write may proceed given the current user. */
export type Precondition = (current: User) => boolean;

/**
 * What a replace writes: the new writable fields, or a function computing them
 * inside the write's transaction from the current user (PATCH), returning
 * undefined when nothing changes (then nothing is written and the version stays).
 * The function may throw (a ProblemError): the write is then abandoned.
 */
export type Change = UserFields | ((current: User) => UserFields | undefined);

/** What finishBulkLoad() built: how many deferred indexes, and whether the word and facet entries. */
export interface BulkLoadBuild {
  indexes: number;
  words: boolean;
}

/** The answer an Idempotency-Key keeps (CONTRACT §10). Opaque to the store. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** An Idempotency-Key with its stored answer. Keys are scoped: one credential never sees another's. */
export interface IdempotencyRecord {
  scope: string;
  key: string;
  /** Digest of the request (method, path, body): the same key with another request is refused. */
  fingerprint: string;
  /** Milliseconds since the epoch after which the key is forgotten. */
  expiresAt: number;
  response: StoredResponse;
}

/**
 * The key of an import batch (`import --idempotency-key`): claimed in the batch's
 * transaction (IdempotencyKeyTaken if recorded), its answer the batch's outcomes
 * as JSON, stored with them.
 */
export type BatchIdempotency = Omit<IdempotencyRecord, 'response'>;

/** The answer an import batch's key keeps: its outcomes. */
export function batchResponse(outcomes: readonly ImportOutcome[]): StoredResponse {
  return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(outcomes) };
}

/** The key of a write in progress: its answer is computed from the written user and stored in the write's transaction. */
export interface PendingIdempotency extends Omit<IdempotencyRecord, 'response'> {
  respond(user: User): StoredResponse;
}

export type WriteOutcome<T> = { status: 'ok'; value: T } | { status: 'not-found' } | { status: 'precondition-failed' };

/** Bounds on an instant (RFC 3339 with milliseconds, UTC, as the stores keep them); each given one must hold. */
export interface InstantBounds {
  gt?: string;
  ge?: string;
  lt?: string;
  le?: string;
}

/**
 * The one query both doors build (REST search parameters, SCIM filters): filters already
 * in their compared form (canonical or exact), combined with AND. Each store turns it
 * into SQL in one place (sqlite/sqlite-search.ts, postgres/postgres-search.ts).
 */
export interface SearchFilter {
  username?: string;
  email_address?: string;
  legacy_id?: string;
  external_id?: string;
  active?: boolean;
  /** Canonical: users with this address among their `emails` (primary or not). Not unique. */
  email?: string;
  /** Canonical values of facets. */
  facets?: Partial<Record<Facet, string>>;
  created?: InstantBounds;
  updated?: InstantBounds;
  /** Folded words (users/search-words.ts): each starts some word of the user. */
  words?: string[];
  /** Uids left out (the exact matches a `q` ranks first, served before the rest). */
  exclude?: string[];
}

/**
 * What a read returns, and the change-feed position it reflects: every event at
 * or below `position` is reflected in it (later ones may be too). A mirror lists,
 * then follows the feed after the position of its first read (CONTRACT §11).
 */
export interface Positioned<T> {
  value: T;
  position: number;
}

export interface SearchPage {
  filter: SearchFilter;
  /** Sort keys before the uid (none: uid order). */
  sort?: readonly SortKey[];
  /** Keyset paging: the page starts strictly after the user with this uid … */
  after?: string;
  /** … and these values of the sort keys (one per key, as stored: folded text or an instant). */
  afterValues?: readonly string[];
  limit: number;
  /**
   * Most users a walked page (no condition drives it: store/search-plan.ts) may read along
   * the sort's index. When it reads that many without filling the page, it ends there and
   * says where (PageResult.walkedTo): the next page continues after that user. Without it a
   * walk reads until the page is full (SCIM's pages, whose size is the client's `count`).
   */
  walkLimit?: number;
  /** The request's deadline (ms since the epoch, Date.now()): past it the read stops and throws BudgetExceededError. */
  deadline?: number;
}

/** Where a walked page stopped reading: the last user it read (matching or not), by uid and sort values as stored. */
export interface WalkMark {
  uid: string;
  values: string[];
}

/** A search page: its users, and where its walk stopped when it reached its walk limit first. */
export interface PageResult extends Positioned<User[]> {
  walkedTo?: WalkMark;
}

export interface UserStore {
  /**
   * Inserts a new user (uid, timestamps and version already set). Throws KeyConflictError.
   * With `idempotency`, its record is stored in the same transaction; a key already
   * recorded (and not expired) throws IdempotencyKeyTaken and writes nothing.
   * `origin` (here and in every write): who wrote it, kept with its event.
   */
  create(user: User, idempotency?: PendingIdempotency, origin?: EventOrigin): Promise<User>;

  /** The user holding `value` (in compared form) under `key` (a lookup key, or the unique external id). `uid` behaves as get(). */
  findByKey(key: LookupKey | 'external_id', value: string): Promise<User | undefined>;

  /**
   * The stored representation of the user findByKey() finds (the JSON text and ETag its
   * last write stored: representationOf() of that user), with the change-feed position
   * the answer reflects (one snapshot). The read path of GET /users/{ref}.
   */
  lookup(key: LookupKey | 'external_id', value: string): Promise<Positioned<UserRepresentation | undefined>>;

  /**
   * Replaces the writable fields with `change`, sets `updated_at` to `now` and
   * increments `version`, if the user exists and `precondition` (when given)
   * accepts its current state; a change computing undefined writes nothing and
   * answers the current user. Throws KeyConflictError. With `idempotency`, the key
   * is claimed before anything else (IdempotencyKeyTaken if it is recorded) and its
   * record stored in the same transaction when the outcome is `ok`.
   */
  replace(uid: string, change: Change, now: string, precondition?: Precondition, idempotency?: PendingIdempotency, origin?: EventOrigin): Promise<WriteOutcome<User>>;

  /**
   * Deletes the user and frees all its keys, under the same precondition rule as replace().
   * In the same transaction it erases the user's personal data from its earlier events and
   * from the Idempotency-Key answers that carry it (erasure.ts).
   */
  delete(uid: string, precondition?: Precondition, origin?: EventOrigin): Promise<WriteOutcome<void>>;

  /**
   * Writes a batch of users (an import) in one transaction and returns one outcome
   * per user, in order. Each user is all or nothing. Users carry their uid and
   * timestamps (an export keeps them); a user whose uid or keys are held is
   * planned by planImport() (import-plan.ts): a conflict, or with `merge` or
   * `replace` an update of the single holder (updatedUser()). With `fail` the batch stops at the first
   * conflict: the outcomes end with it, and the users after it are not attempted.
   */
  importUsers(users: readonly ImportUser[], onConflict: OnConflict, now: string, idempotency?: BatchIdempotency, origin?: EventOrigin): Promise<ImportOutcome[]>;

  /**
   * Starts a bulk load (an import) with load then index (deferred-indexes.ts): when the
   * directory holds no user, the indexes a load builds faster at its end are dropped, in
   * one transaction, this store's importUsers() leaves out the word and facet entries of
   * the users it writes, and true is returned; otherwise nothing changes and false is
   * returned. Every write stays correct meanwhile (unique keys, lookups by key); what a
   * reader sharing the store lacks until finishBulkLoad() is the index of a sorted listing
   * and the words of the users loaded so far.
   */
  beginBulkLoad(): Promise<boolean>;

  /**
   * Builds every deferred index that is missing, each in its own transaction, and the word
   * and facet entries a bulk load left out, from the users as stored; says what it built.
   * The store also does this when it opens, so a load that stopped before its end (a
   * crash, a kill) leaves nothing missing past the next open.
   */
  finishBulkLoad(): Promise<BulkLoadBuild>;

  /**
   * At most `limit` users matching the filter, in the page's order after its keyset, with the
   * position the page reflects. Searches and counts are the store's expensive reads: they wait
   * their turn in its read lane (read-lane.ts: ReadsSaturatedError when too many wait), never
   * hold the event loop, and stop at their deadline (BudgetExceededError: the running statement
   * interrupted or cancelled, no further one started).
   */
  search(page: SearchPage): Promise<PageResult>;

  /** The page mark kept under `key` (page-marks.ts) if it was set less than MARK_TTL_MS before `now` (ms since the epoch). */
  pageMark(key: string, now: number): Promise<PageMark | undefined>;

  /** Keeps `mark` under `key` from `now` on, replacing any; every process sharing the store may read it. */
  savePageMark(key: string, mark: PageMark, now: number): Promise<void>;

  /** How many users match the filter, exactly (SCIM's totalResults); an expensive read, as search() is. */
  count(filter: SearchFilter, deadline?: number): Promise<number>;

  /**
   * How many users match, at a bounded cost (`count=true`): exact when some indexed
   * condition of the filter names at most `bound` entries (the count is then read
   * through it), or the directory holds few users; otherwise estimated from a sample
   * of users spread over the uids (store/search-plan.ts), never by reading every match.
   */
  countMatches(filter: SearchFilter, bound: number, deadline?: number): Promise<MatchCount>;

  /**
   * Gives the query planner statistics of the users' tables (PostgreSQL: ANALYZE, which
   * autovacuum may be off to do); an import calls it after writing. SQLite's search plans
   * do not depend on statistics (sqlite-search.ts fixes the order of their joins): nothing.
   */
  refreshStatistics(): Promise<void>;

  /** The change feed: the events every write above appends in its own transaction. */
  readonly events: EventLog;

  /** One leader among every process sharing this store, for the work named `name`. */
  leadership(name: string): Leadership;

  /**
   * A random 32-byte key made once per database and shared by every process that
   * uses it. It signs search cursors, so only cursors this service issued are accepted.
   */
  cursorKey(): Promise<Buffer>;

  /** The record of an Idempotency-Key, unless there is none or it expired before `now` (ms since the epoch). */
  findIdempotency(scope: string, key: string, now: number): Promise<IdempotencyRecord | undefined>;

  /** Stores a record on its own (the answer of a write that failed); false when the key is recorded and not expired. */
  saveIdempotency(record: IdempotencyRecord, now: number): Promise<boolean>;

  /** Deletes at most `limit` records that expired before `now`; returns how many. */
  purgeIdempotency(now: number, limit: number): Promise<number>;

  /** Resolves when the store can serve requests; rejects with StoreUnavailableError otherwise. */
  ping(): Promise<void>;

  /**
   * Proves the store takes a write now: commits, durably, a write of 64 KiB (as
   * much as a large user write takes: a scratch row of service_keys written and
   * deleted in one transaction of its own), so the data is as it was. Rejects with
   * StoreFullError when there is no room (or the database is read-only),
   * StoreUnavailableError when the store cannot be reached. Readiness runs it
   * after a write failed for lack of space (service-routes.ts).
   */
  probeWrite(): Promise<void>;

  /**
   * How the store follows a replicated cluster's primary, for metrics; absent when there is
   * none to follow (SQLite, or one PostgreSQL host).
   */
  failover?: () => FailoverStats;

  /** Releases connections and files. No method may be called afterwards. */
  close(): Promise<void>;
}

/** Counts of following the primary of a replicated PostgreSQL cluster (postgres/primary-follower.ts). */
export interface FailoverStats {
  /** Moves to another host as the primary. */
  primaryChanges: number;
  /** Searches for the primary (each probes every host once). */
  searches: number;
  /** Seconds during which the process knew of no primary, in total. */
  secondsWithoutPrimary: number;
  /** Whether the process knows of no primary now. */
  withoutPrimary: boolean;
  /** Writable hosts refused for being on an older timeline (stale writers). */
  staleWritersRefused: number;
}
