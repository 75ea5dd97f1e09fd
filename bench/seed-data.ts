/**
 * The synthetic directory every benchmark runs against: user `i` is a pure
 * function of `i`, so the harness can address any seeded user by username,
 * email address, legacy id or uid without asking the store.
 *
 * Each user is a person (seed-names.ts): a given and a family name in one of
 * several scripts, written as their culture writes them (`display_name`, and
 * `name`), a department and a title, an employee number and a user type. The
 * username and the email address are the ASCII form of the names and the index
 * (`jose.garcia.17`), so a `q` prefix such as `jose.garcia.` is what an
 * autocomplete of a username would send.
 */
import { searchColumn } from '../src/store/search-column.js';
import { withDefaults, displayNameKey, keysOf, type KeyEntry, type User } from '../src/users/user.js';
import { mix, personOf } from './seed-names.js';

/** 2025-01-01T00:00:00Z: seeded users were created one millisecond apart from then on. */
const EPOCH_MS = Date.UTC(2025, 0, 1);

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, '0');
}

/** A valid, lower-case UUIDv7 whose timestamp is EPOCH_MS + i: uid order is seed order. */
export function seededUid(i: number): string {
  const ms = hex(EPOCH_MS + i, 12);
  const randA = hex(mix(i, 1) & 0xfff, 3);
  const variant = hex(0x8000 | (mix(i, 2) & 0x3fff), 4);
  const randB = hex(mix(i, 3), 8) + hex(mix(i, 4) & 0xffff, 4);
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${randA}-${variant}-${randB}`;
}

/** The writable fields of seeded user `i`, as a client would send them. */
export function seededFields(i: number) {
  const person = personOf(i);
  const handle = `${person.given.ascii}.${person.family.ascii}.${i}`;
  return {
    username: handle, // ASCII, so NFC already
    email_address: `${handle}@Example${i % 97}.com`,
    legacy_ids: i % 4 === 0 ? [`emp-${i}`, `crm:${i}`] : [`emp-${i}`],
    display_name: person.display,
    name: { given_name: person.given.text, family_name: person.family.text },
    title: person.title,
    department: person.department,
    employee_number: String(100_000 + i),
    user_type: i % 20 === 0 ? 'Contractor' : 'Employee',
    attributes: { badge: i },
  };
}

export function seededUser(i: number): User {
  const timestamp = new Date(EPOCH_MS + i).toISOString();
  return withDefaults({ uid: seededUid(i), ...seededFields(i), created_at: timestamp, updated_at: timestamp, version: 1 });
}

/**
 * A seeded user with what the stores derive from it: its compared keys, display-name key,
 * `search` column (src/store/search-column.ts) and the entries of
 * `user_terms` the stores' insert triggers make of that column's `terms`: each `field:value`
 * split at its first colon, as the triggers' SQL splits it (migration 11).
 */
export interface SeedRow {
  user: User;
  keys: KeyEntry[];
  displayNameKey: string | null;
  search: string;
  terms: { field: string; value: string }[];
}

export function seedRow(i: number): SeedRow {
  const user = seededUser(i);
  const search = searchColumn(user);
  const terms = (JSON.parse(search) as { terms: string[] }).terms.map((term) => {
    const colon = term.indexOf(':');
    return { field: term.slice(0, colon), value: term.slice(colon + 1) };
  });
  return { user, keys: keysOf(user), displayNameKey: displayNameKey(user.display_name), search, terms };
}

/** The `q` prefixes that match seeded users: the start of the username, `given.family.`. */
export function searchPrefix(i: number): string {
  return seededFields(i).username.replace(/\d+$/, '');
}
