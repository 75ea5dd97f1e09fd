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
 * - Order: search returns users in ascending `uid` order (byte order of the
 *   lower-case UUID text), starting strictly after `after`.
 * - Unavailability is reported as StoreUnavailableError, never a driver error.
 */
import type { LookupKey, User, UserFields } from '../users/user.js';
import type { ImportOutcome, OnConflict } from './import-plan.js';

/** Decides, inside the write's transaction, whether the write may proceed given the current user. */
export type Precondition = (current: User) => boolean;

export type WriteOutcome<T> = { status: 'ok'; value: T } | { status: 'not-found' } | { status: 'precondition-failed' };

/** Search filters, already in their compared form (canonical or exact). All combine with AND. */
export interface SearchFilter {
  username?: string;
  email_address?: string;
  legacy_id?: string;
  /** Canonical prefix of the username, the email address or the display name. */
  prefix?: string;
}

export interface SearchPage {
  filter: SearchFilter;
  /** Exclusive lower bound on `uid` (keyset paging). */
  after?: string;
  limit: number;
}

export interface UserStore {
  /** Inserts a new user (uid, timestamps and version already set). Throws KeyConflictError. */
  create(user: User): Promise<User>;

  /** The user holding `value` (in compared form) under `key`. `uid` behaves as get(). */
  findByKey(key: LookupKey, value: string): Promise<User | undefined>;

  /**
   * Replaces the writable fields, sets `updated_at` to `now` and increments `version`,
   * if the user exists and `precondition` (when given) accepts its current state.
   * Throws KeyConflictError.
   */
  replace(uid: string, fields: UserFields, now: string, precondition?: Precondition): Promise<WriteOutcome<User>>;

  /** Deletes the user and frees all its keys, under the same precondition rule as replace(). */
  delete(uid: string, precondition?: Precondition): Promise<WriteOutcome<void>>;

  /**
   * Writes a batch of users (an import) in one transaction and returns one outcome
   * per user, in order. Each user is all or nothing. Users carry their uid and
   * timestamps (an export keeps them); a user whose uid or keys are held is
   * planned by planImport() (import-plan.ts): a conflict, or with `update` a
   * replacement of the single holder. With `fail` the batch stops at the first
   * conflict: the outcomes end with it, and the users after it are not attempted.
   */
  importUsers(users: User[], onConflict: OnConflict, now: string): Promise<ImportOutcome[]>;

  /** At most `limit` users matching the filter, in uid order after `after`. */
  search(page: SearchPage): Promise<User[]>;

  /**
   * A random 32-byte key made once per database and shared by every process that
   * uses it. It signs search cursors, so only cursors this service issued are accepted.
   */
  cursorKey(): Promise<Buffer>;

  /** Resolves when the store can serve requests; rejects with StoreUnavailableError otherwise. */
  ping(): Promise<void>;

  /** Releases connections and files. No method may be called afterwards. */
  close(): Promise<void>;
}
