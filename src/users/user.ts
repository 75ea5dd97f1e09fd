/**
 * The user resource as the service sees it, independent of HTTP and storage.
 * CONTRACT §1 states the rules; the TypeBox schemas in user-schemas.ts enforce
 * the shape, and the checks here cover what a JSON Schema cannot say.
 */
import { canon } from './canonical.js';

export interface User {
  /** UUIDv7, lower-case, assigned by the service; never contains a colon. */
  uid: string;
  /** Stored as given after NFC; unique by its canonical form. */
  username: string;
  /** Stored as given; unique by its canonical form. */
  email_address: string;
  /** Order as given; each value unique across all users, compared exactly. */
  legacy_ids: string[];
  display_name: string | null;
  attributes: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  /** 1 on create, +1 on every accepted write. */
  version: number;
}

/** The writable part of a user: what POST and PUT replace. */
export type UserFields = Pick<User, 'username' | 'email_address' | 'legacy_ids' | 'display_name' | 'attributes'>;

/** Whether two users' writable fields are equal (member order of attributes included, as stored). */
export function sameFields(a: UserFields, b: UserFields): boolean {
  return (
    a.username === b.username &&
    a.email_address === b.email_address &&
    a.display_name === b.display_name &&
    JSON.stringify(a.legacy_ids) === JSON.stringify(b.legacy_ids) &&
    JSON.stringify(a.attributes) === JSON.stringify(b.attributes)
  );
}

/** Keys a user can be looked up by (seed §4). No key name contains a colon. */
export const LOOKUP_KEYS = ['uid', 'username', 'email_address', 'legacy_id'] as const;
export type LookupKey = (typeof LOOKUP_KEYS)[number];

/** Unique secondary keys held in the store's keys table; the 409's `key` is one of them. */
export type UniqueKey = Exclude<LookupKey, 'uid'>;

export interface KeyEntry {
  key: UniqueKey;
  /** The value compared for uniqueness and lookup: canonical or exact. */
  value: string;
}

/** Every unique key a user holds, in its compared form. One code path for lookup, uniqueness and conflicts. */
export function keysOf(fields: Pick<UserFields, 'username' | 'email_address' | 'legacy_ids'>): KeyEntry[] {
  return [
    { key: 'username', value: canon(fields.username) },
    { key: 'email_address', value: canon(fields.email_address) },
    ...fields.legacy_ids.map((value) => ({ key: 'legacy_id' as const, value })),
  ];
}

/** The compared form of a lookup value under `key`: canonical for case-insensitive keys, exact otherwise. */
export function comparedValue(key: LookupKey, value: string): string {
  switch (key) {
    case 'username':
    case 'email_address':
      return canon(value);
    case 'uid':
      return value.toLowerCase();
    case 'legacy_id':
      return value;
  }
}

/** The canonical form of a display name, used by the `q` prefix search. */
export function displayNameKey(displayName: string | null): string | null {
  return displayName === null ? null : canon(displayName);
}

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Whether `value` (already lower-cased) is a uid this service could have issued. */
export function isUid(value: string): boolean {
  return UUID_V7.test(value);
}
