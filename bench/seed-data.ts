/**
 * The synthetic directory every benchmark runs against: user `i` is a pure
 * function of `i`, so the harness can address any seeded user by username,
 * email address, legacy id or uid without asking the store.
 *
 * Names come from small word lists, so a `q` prefix such as `ada.moreau`
 * matches about users / 400 users, like an autocomplete query in a real directory.
 */
import { withDefaults, displayNameKey, keysOf, type KeyEntry, type User } from '../src/users/user.js';

const FIRST = ['Ada', 'Alan', 'Barbara', 'Claude', 'Donald', 'Edsger', 'Frances', 'Grace', 'Hedy', 'Ivan', 'John', 'Karen', 'Leslie', 'Margaret', 'Niklaus', 'Ole', 'Radia', 'Shafi', 'Tim', 'Yukihiro'];
const LAST = ['Moreau', 'Okafor', 'Lindqvist', 'Tanaka', 'Novak', 'García', 'Schmidt', 'Rossi', 'Kowalski', 'Dubois', 'Haddad', 'Nguyen', 'Silva', 'Müller', 'Ivanova', 'Larsen', 'Costa', 'Kaur', 'Yilmaz', 'Zhang'];
const DEPARTMENTS = ['R&D', 'Sales', 'Support', 'Finance', 'Legal', 'Operations', 'Marketing', 'People'];

/** 2025-01-01T00:00:00Z: seeded users were created one millisecond apart from then on. */
const EPOCH_MS = Date.UTC(2025, 0, 1);

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, '0');
}

/** A small integer hash, so the random-looking bits of a uid are stable per `i`. */
function mix(i: number, salt: number): number {
  let x = (i ^ salt) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

/** A valid, lower-case UUIDv7 whose timestamp is EPOCH_MS + i: uid order is seed order. */
export function seededUid(i: number): string {
  const ms = hex(EPOCH_MS + i, 12);
  const randA = hex(mix(i, 1) & 0xfff, 3);
  const variant = hex(0x8000 | (mix(i, 2) & 0x3fff), 4);
  const randB = hex(mix(i, 3), 8) + hex(mix(i, 4) & 0xffff, 4);
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${randA}-${variant}-${randB}`;
}

export function firstName(i: number): string {
  return FIRST[i % FIRST.length] as string;
}

export function lastName(i: number): string {
  return LAST[Math.floor(i / FIRST.length) % LAST.length] as string;
}

/** The writable fields of seeded user `i`, as a client would send them. */
export function seededFields(i: number) {
  const first = firstName(i);
  const last = lastName(i);
  return {
    username: `${first}.${last}.${i}`, // NFC already: the word lists are written precomposed
    email_address: `${first}.${last}.${i}@Example${i % 97}.com`,
    legacy_ids: i % 4 === 0 ? [`emp-${i}`, `crm:${i}`] : [`emp-${i}`],
    display_name: `${first} ${last}`,
    attributes: { department: DEPARTMENTS[i % DEPARTMENTS.length] as string, employee_number: i },
  };
}

export function seededUser(i: number): User {
  const timestamp = new Date(EPOCH_MS + i).toISOString();
  return withDefaults({ uid: seededUid(i), ...seededFields(i), created_at: timestamp, updated_at: timestamp, version: 1 });
}

/** A seeded user with what the stores derive from it: its compared keys and display-name key. */
export interface SeedRow {
  user: User;
  keys: KeyEntry[];
  displayNameKey: string | null;
}

export function seedRow(i: number): SeedRow {
  const user = seededUser(i);
  return { user, keys: keysOf(user), displayNameKey: displayNameKey(user.display_name) };
}

/** The `q` prefixes that match seeded users (canonical `first.last`). */
export function searchPrefix(i: number): string {
  return `${firstName(i)}.${lastName(i)}.`.toLowerCase();
}
