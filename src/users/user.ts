/**
 * The user resource as the service sees it, independent of HTTP and storage.
 * CONTRACT §1 states the rules; the TypeBox schemas in user-schemas.ts enforce
 * the shape, and the checks here cover what a JSON Schema cannot say.
 */
import { canon } from './canonical.js';
import { derivedEmails, emptyProfile, PROFILE_KEYS, type Profile } from './user-profile.js';

export interface User extends Profile {
  /** UUIDv7, lower-case, assigned by the service; never contains a colon. */
  uid: string;
  /** Stored as given after NFC; unique by its canonical form. */
  username: string;
  /** Stored as given; unique by its canonical form. */
  email_address: string;
  /** Order as given; each value unique across all users, compared exactly. */
  legacy_ids: string[];
  /**
   * The provisioning client's id for the user (SCIM `externalId`): unique across users,
   * compared exactly, like a legacy id; null when no client gave one.
   */
  external_id: string | null;
  /** false: deprovisioned (CONTRACT §1). Still readable and holding its keys; not a delete. */
  active: boolean;
  display_name: string | null;
  attributes: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  /** 1 on create, +1 on every accepted write. */
  version: number;
}

/** The writable part of a user: what POST and PUT replace. */
export type UserFields = Pick<User, 'username' | 'email_address' | 'legacy_ids' | 'external_id' | 'active' | 'display_name' | 'attributes'> & Profile;

/** The core writable members: what a user of the first releases had. */
export type CoreFields = Pick<UserFields, 'username' | 'email_address' | 'legacy_ids' | 'display_name' | 'attributes'>;

/** `fields` with every lifecycle and profile member it lacks at its default (`emails` derived from `email_address`). */
export function withDefaults<T extends CoreFields & Partial<UserFields>>(fields: T): T & UserFields {
  return { external_id: null, active: true, ...emptyProfile(), ...fields, emails: fields.emails ?? derivedEmails(fields.email_address, []) };
}

/** The writable members in the order the resource lists them. */
export const WRITABLE_KEYS = ['username', 'email_address', 'legacy_ids', 'external_id', 'active', 'display_name', ...PROFILE_KEYS, 'attributes'] as const satisfies readonly (keyof UserFields)[];

/** The writable fields of a user, members in resource order. */
export function fieldsOf(user: UserFields): UserFields {
  const out = {} as Record<keyof UserFields, unknown>;
  for (const key of WRITABLE_KEYS) out[key] = user[key];
  return out as unknown as UserFields;
}

/** Whether two users' writable fields are equal (member order of attributes included, as stored). */
export function sameFields(a: UserFields, b: UserFields): boolean {
  return WRITABLE_KEYS.every((key) => a[key] === b[key] || JSON.stringify(a[key]) === JSON.stringify(b[key]));
}

/** Keys a user can be looked up by (seed §4). No key name contains a colon. */
export const LOOKUP_KEYS = ['uid', 'username', 'email_address', 'legacy_id'] as const;
export type LookupKey = (typeof LOOKUP_KEYS)[number];

/**
 * Unique secondary keys held in the store's keys table; the 409's `key` is one of them.
 * `external_id` is unique and indexed like the lookup keys but is not one (CONTRACT §3 lists them).
 */
export type UniqueKey = Exclude<LookupKey, 'uid'> | 'external_id';

export interface KeyEntry {
  key: UniqueKey;
  /** The value compared for uniqueness and lookup: canonical or exact. */
  value: string;
}

/** Every unique key a user holds, in its compared form. One code path for lookup, uniqueness and conflicts. */
export function keysOf(fields: Pick<UserFields, 'username' | 'email_address' | 'legacy_ids' | 'external_id'>): KeyEntry[] {
  const keys: KeyEntry[] = [
    { key: 'username', value: canon(fields.username) },
    { key: 'email_address', value: canon(fields.email_address) },
    ...fields.legacy_ids.map((value) => ({ key: 'legacy_id' as const, value })),
  ];
  if (fields.external_id !== null && fields.external_id !== undefined) keys.push({ key: 'external_id', value: fields.external_id });
  return keys;
}

/** Every email address of the user (the primary among them) in canonical form, once each: what the email index holds. */
export function emailKeysOf(user: Pick<UserFields, 'email_address' | 'emails'>): string[] {
  return [...new Set([canon(user.email_address), ...user.emails.map((e) => canon(e.value))])];
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
