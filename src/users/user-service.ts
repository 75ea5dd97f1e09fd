/**
 * The use cases of the user resource. Depends only on the UserStore port and the
 * domain rules; knows nothing of HTTP beyond the problems it raises.
 */
import type { EventOrigin } from '../events/event-origin.js';
import { ProblemError } from '../http/problems.js';
import { KeyConflictError, type PageMark, type PendingIdempotency, type Precondition, type SearchFilter, type SearchPage, type UserStore, type WriteOutcome } from '../store/user-store.js';
import { canon } from './canonical.js';
import { newUid } from './new-uid.js';
import { createUserSearch } from './user-search.js';
import { isUid, type LookupKey, type User } from './user.js';
import type { UserRepresentation } from './user-representation.js';
import { isStorable, toUserFields } from './user-input.js';
import { parseUserRef } from './user-ref.js';
import { patchedFields, validatedFields } from './user-patch.js';
import { SEARCH_LIMIT_DEFAULT, type CreateUserBody, type ReplaceUserBody, type SearchQuery, type UserPatch } from './user-schemas.js';

export type { SearchResult } from './user-search.js';

export interface ReadResult {
  /** The user's stored representation: sent as it is. */
  user: UserRepresentation;
  /** The change-feed position the answer reflects (Feed-Position). */
  position: number;
}

export interface UserServiceOptions {
  store: UserStore;
  /** The clock, as an RFC 3339 UTC timestamp with milliseconds. */
  now?: () => string;
  /** Most users a walked search page reads (user-search.ts WALK_LIMIT; tests lower it). */
  walkLimit?: number;
}

const notFound = () => new ProblemError('not-found', 'No user matches.');

function conflict(error: unknown): never {
  if (error instanceof KeyConflictError) {
    throw new ProblemError('key-conflict', `The ${error.key} is already taken by another user.`, { key: error.key });
  }
  throw error;
}

function settle<T>(outcome: WriteOutcome<T>): T {
  if (outcome.status === 'not-found') throw notFound();
  if (outcome.status === 'precondition-failed') {
    throw new ProblemError('precondition-failed', 'The user is not in the state If-Match or If-None-Match asks for (it has changed since the tag, or is at a tag the write excludes); nothing was written. Read it again.');
  }
  return outcome.value;
}

export function createUserService({ store, now = () => new Date().toISOString(), walkLimit }: UserServiceOptions) {
  // Fetched once; a failure is not cached, so a store that was down is asked again.
  let cursorKey: Promise<Buffer> | undefined;
  const getCursorKey = () => (cursorKey ??= store.cursorKey().catch((error: unknown) => {
    cursorKey = undefined;
    throw error;
  }));

  async function read(ref: string): Promise<ReadResult> {
    const parsed = parseUserRef(ref);
    const key = parsed.kind === 'uid' ? 'uid' : parsed.key;
    const value = parsed.kind === 'uid' ? parsed.uid : parsed.value;
    // A malformed uid cannot exist: answer 404 without asking the store.
    if (key === 'uid' && !isUid(value)) throw notFound();
    const { value: user, position } = await store.lookup(key, value);
    if (!user) throw notFound();
    return { user, position };
  }

  /**
   * The user holding `value` under `key`, read from its stored representation: the read of
   * GET /users/{ref}, whose JSON is the User's members (user-representation.ts). A door that
   * answers in its own shape (SCIM) reads users as cheaply as the REST door does.
   */
  async function storedUser(key: LookupKey | 'external_id', value: string): Promise<User | undefined> {
    const { value: stored } = await store.lookup(key, value);
    return stored === undefined ? undefined : (JSON.parse(stored.json) as User);
  }

  /** The uid a write path names, or 404 when it cannot name one. */
  function writableUid(ref: string): string {
    const parsed = parseUserRef(ref);
    if (parsed.kind !== 'uid' || !isUid(parsed.uid)) throw notFound();
    return parsed.uid;
  }

  return {
    /** GET /users/{uid} and GET /users/{key}:{value} alike (seed §4: the lookup is an alias). */
    read,

    async create(body: CreateUserBody, origin: EventOrigin, idempotency?: PendingIdempotency): Promise<User> {
      const timestamp = now();
      const user: User = { uid: newUid(), ...toUserFields(body), created_at: timestamp, updated_at: timestamp, version: 1 };
      return store.create(user, idempotency, origin).catch(conflict);
    },

    /** PATCH /users/{uid}: the merge patch applied inside the write's transaction (user-patch.ts). */
    async patch(ref: string, patch: UserPatch, origin: EventOrigin, precondition?: Precondition, idempotency?: PendingIdempotency): Promise<User> {
      const uid = writableUid(ref);
      const outcome = await store.replace(uid, (current) => patchedFields(current, patch), now(), precondition, idempotency, origin).catch(conflict);
      return settle(outcome);
    },

    /** The uid a write path names (lower case), or 404 when it cannot name one. */
    writableUid,

    /**
     * Replaces the user with the body `next` computes from the current user inside the
     * write's transaction (the shape of a PUT body, validated as one): the write of a
     * second door (SCIM) that maps its own representation. Nothing is written when the
     * result equals the current user.
     */
    async rewrite(ref: string, next: (current: User) => Record<string, unknown>, origin: EventOrigin, precondition?: Precondition): Promise<User> {
      const uid = writableUid(ref);
      const outcome = await store.replace(uid, (current) => validatedFields(current, next(current), 'The user'), now(), precondition, undefined, origin).catch(conflict);
      return settle(outcome);
    },

    /** The user with this uid (lower case), or undefined. */
    findUser: (uid: string) => (isUid(uid) ? storedUser('uid', uid) : Promise.resolve(undefined)),

    /** A list walk's page mark (store/page-marks.ts), or undefined when none is kept. */
    pageMark: (key: string) => store.pageMark(key, Date.now()),

    /** Keeps a list walk's page mark for MARK_TTL_MS. */
    savePageMark: (key: string, mark: PageMark) => store.savePageMark(key, mark, Date.now()),

    /** The user holding a unique key, given in compared form (canonical for username). */
    findUserBy: (key: 'username' | 'external_id', value: string) => storedUser(key, value),

    /** How many users match a search's filters (already in compared form), stopping at `deadline`. */
    count: (filter: SearchFilter, deadline?: number) => store.count(filter, deadline),

    /** A page of users in uid order after `after`, with no cursor signing: for a door with its own paging (SCIM). */
    page: (page: SearchPage) => store.search(page),

    async replace(ref: string, body: ReplaceUserBody, origin: EventOrigin, precondition?: Precondition): Promise<User> {
      const uid = writableUid(ref);
      if (body.uid !== undefined && body.uid.toLowerCase() !== uid) {
        throw new ProblemError('validation-failed', '/uid must equal the uid in the path', {
          errors: [{ pointer: '/uid', detail: 'must equal the uid in the path' }],
        });
      }
      const outcome = await store.replace(uid, toUserFields(body), now(), precondition, undefined, origin).catch(conflict);
      return settle(outcome);
    },

    async delete(ref: string, origin: EventOrigin, precondition?: Precondition): Promise<void> {
      settle(await store.delete(writableUid(ref), precondition, origin));
    },

    /** GET /users (user-search.ts). */
    search: createUserSearch(store, getCursorKey, walkLimit),
  };
}

export type UserService = ReturnType<typeof createUserService>;
