/**
 * What a baseline server needs from its database: the same reads and writes as
 * the service's store, with the same SQL and indexes, and nothing else. A
 * synchronous driver (better-sqlite3) returns values; an asynchronous one
 * (postgres.js) returns promises.
 */
import type { UniqueKey, User, UserFields } from '../../src/users/user.js';
import type { UserRepresentation } from '../../src/users/user-representation.js';

export type MaybePromise<T> = T | Promise<T>;

export interface RawStore {
  /** Reads answer the representation a write stored (its JSON text and ETag), as the service's store does. */
  byUid(uid: string): MaybePromise<UserRepresentation | undefined>;
  byKey(key: UniqueKey, value: string): MaybePromise<UserRepresentation | undefined>;
  /** Users in uid order after `after`, optionally those a word of which each word of `prefix` starts (the word index, user_terms). */
  page(prefix: string | undefined, after: string | undefined, limit: number): MaybePromise<User[]>;
  /** One transaction, committed durably before it returns; `false` when a unique key is taken. Writes store the representation too. */
  create(user: User): MaybePromise<boolean>;
  /** One transaction: the same steps as the store's replace(); `undefined` when the user does not exist. */
  replace(uid: string, fields: UserFields, now: string): MaybePromise<User | undefined>;
}
