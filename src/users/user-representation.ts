/**
 * A user's representation: the exact JSON text the API sends for it and its
 * entity tag. A write makes both once and the store keeps them beside the
 * columns it queries, so a read sends stored text with no parse, no
 * serialisation and no hash (docs/performance.md, Reads). The same text is the
 * `data` of the user's change event.
 */
import { fieldsOf, type User } from './user.js';
import { etagOf } from './user-etag.js';

export interface UserRepresentation {
  uid: string;
  /** The user as JSON, members in the order of the User schema. */
  json: string;
  /** etagOf(user): strong and quoted. */
  etag: string;
}

/**
 * Made once per user object: the store writing a user, its change event and the
 * response to the write all ask for it, and get the same text. Users are never
 * mutated after they are built (every write makes a new object).
 */
const made = new WeakMap<User, UserRepresentation>();

export function representationOf(user: User): UserRepresentation {
  let representation = made.get(user);
  if (representation === undefined) {
    // Members listed explicitly: the text must not depend on how the object was assembled.
    const json = JSON.stringify({
      uid: user.uid,
      ...fieldsOf(user),
      created_at: user.created_at,
      updated_at: user.updated_at,
      version: user.version,
    });
    representation = { uid: user.uid, json, etag: etagOf(user) };
    made.set(user, representation);
  }
  return representation;
}

/**
 * `user` read with the representation its last write stored (null for a row an earlier
 * release wrote, then made when asked): a search page sends the stored text, as a read does,
 * instead of serialising every user again.
 */
export function withStoredRepresentation(user: User, json: string | null | undefined, etag: string | null | undefined): User {
  if (typeof json === 'string' && typeof etag === 'string') made.set(user, { uid: user.uid, json, etag });
  return user;
}
