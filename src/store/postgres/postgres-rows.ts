/**
 * The users table's row as postgres.js returns it, and the one function that
 * turns it into the domain User; the parameters a single user is written with.
 *
 * The profile members (name, title, emails, …) are stored once, in the representation,
 * and read from it (migration 15); from migration 8 to 14 they were also kept in a
 * `profile` column of their own, which the migrations of that time read.
 */
import { displayNameKey, type User } from '../../users/user.js';
import { profileFromColumn, profileOfStoredJson, type Profile } from '../../users/user-profile.js';
import { representationOf } from '../../users/user-representation.js';
import { searchColumn } from '../search-column.js';

/** The columns a User is read from: the profile members from the stored representation (migration 15). */
export const USER_SELECT_COLUMNS = 'uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version, external_id, active, representation AS stored';

/** The columns of a user's row from migration 8 to 14, which kept the profile in a json column of its own (what those migrations read). */
export const USER_COLUMNS_8 = 'uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version, external_id, active, profile';

export interface UserRow {
  uid: string;
  username: string;
  email_address: string;
  legacy_ids: string[];
  display_name: string | null;
  /** A `json` column: postgres.js parses it, keeping the member order as written. */
  attributes: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  version: number;
  /** Absent from rows read by migrations that ran before migration 8 added them: the defaults then. */
  external_id?: string | null;
  active?: boolean;
  /** Migration 8's profile column, read by migrations 8 to 14 (USER_COLUMNS_8). */
  profile?: Partial<Profile>;
  /** The stored representation, which holds the profile members (USER_SELECT_COLUMNS); null: none stored (migration 6). */
  stored?: string | null;
}

export function userRowToUser(row: UserRow): User {
  return {
    uid: row.uid,
    username: row.username,
    email_address: row.email_address,
    legacy_ids: row.legacy_ids,
    external_id: row.external_id ?? null,
    active: row.active !== false,
    display_name: row.display_name,
    ...profileFromColumn(row.profile ?? profileOfStoredJson(row.stored), row.email_address),
    attributes: row.attributes,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    version: row.version,
  };
}

/** The values of a user's row. */
export function rowValues(user: User) {
  return {
    uid: user.uid,
    username: user.username,
    email_address: user.email_address,
    legacy_ids: user.legacy_ids,
    display_name: user.display_name,
    display_name_key: displayNameKey(user.display_name),
    search: searchColumn(user),
    // Sent as text and cast, so the server keeps the exact text (member order);
    // a json-typed parameter would go through jsonb and be reordered.
    attributes: JSON.stringify(user.attributes),
    external_id: user.external_id,
    active: user.active,
    created_at: user.created_at,
    updated_at: user.updated_at,
    version: user.version,
    ...storedRepresentation(user),
  };
}

/** The representation columns of a user's row (migration 6). */
function storedRepresentation(user: User): { representation: string; etag: string } {
  const { json, etag } = representationOf(user);
  return { representation: json, etag };
}
