/**
 * The users table's row as better-sqlite3 returns it, the one function that
 * turns it into the domain User, and the parameters a user is written with:
 * its columns and its stored representation (migration 6).
 *
 * The profile members (name, title, emails, …) are stored once, in the representation,
 * and read from it (migration 13); the files of migrations 8 to 12 kept them in a
 * `profile` column of their own as well.
 */
import { displayNameKey, type User } from '../../users/user.js';
import { profileFromColumn, profileOfStoredJson } from '../../users/user-profile.js';
import { representationOf } from '../../users/user-representation.js';
import { searchColumn } from '../search-column.js';

export interface UserRow {
  uid: string;
  username: string;
  email_address: string;
  legacy_ids: string;
  display_name: string | null;
  attributes: string;
  created_at: string;
  updated_at: string;
  version: number;
  /** Absent from rows read by migrations that ran before migration 8 added them: the defaults then. */
  external_id?: string | null;
  active?: number;
  /** JSON text holding the profile members: the representation (USER_COLUMNS), or migration 8's profile column (USER_COLUMNS_8). Null: none stored. */
  profile?: string | null;
}

export const USER_COLUMNS = 'uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version, external_id, active, representation AS profile';

/** The columns of a user's row from migration 8 to 12, which kept the profile in a column of its own (what those migrations read). */
export const USER_COLUMNS_8 = 'uid, username, email_address, legacy_ids, display_name, attributes, created_at, updated_at, version, external_id, active, profile';

export function userRowToUser(row: UserRow): User {
  return {
    uid: row.uid,
    username: row.username,
    email_address: row.email_address,
    legacy_ids: JSON.parse(row.legacy_ids) as string[],
    external_id: row.external_id ?? null,
    active: row.active !== 0,
    display_name: row.display_name,
    ...profileFromColumn(profileOfStoredJson(row.profile), row.email_address),
    attributes: JSON.parse(row.attributes) as Record<string, unknown>,
    created_at: row.created_at,
    updated_at: row.updated_at,
    version: row.version,
  };
}

/** The named parameters of the INSERT and UPDATE of a user's row (`search`: its search column, when the caller made it already). */
export function userRowParams(user: User, search = searchColumn(user)) {
  const { json, etag } = representationOf(user);
  return {
    ...user,
    legacy_ids: JSON.stringify(user.legacy_ids),
    attributes: JSON.stringify(user.attributes),
    active: user.active ? 1 : 0,
    display_name_key: displayNameKey(user.display_name),
    search,
    representation: json,
    etag,
  };
}
