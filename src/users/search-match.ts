/**
 * The meaning of a SearchFilter and of a sort, on users held in memory: the
 * specification each store's SQL must agree with (the property test compares them on
 * both stores), and what SCIM checks on the one candidate a unique key names.
 */
import { emailKeysOf, keysOf, type User } from './user.js';
import { fold, userWords } from './search-words.js';
import { canon } from './canonical.js';
import { FACETS, type SortKey } from './user-vocabulary.js';
import type { InstantBounds, SearchFilter, WalkMark } from '../store/user-store.js';

const within = (at: string, bounds: InstantBounds) =>
  (bounds.gt === undefined || at > bounds.gt) && (bounds.ge === undefined || at >= bounds.ge) && (bounds.lt === undefined || at < bounds.lt) && (bounds.le === undefined || at <= bounds.le);

/** Whether `user` meets every condition of `filter`. */
export function matchesSearch(user: User, filter: SearchFilter): boolean {
  const keys = keysOf(user);
  for (const key of ['username', 'email_address', 'legacy_id', 'external_id'] as const) {
    const value = filter[key];
    if (value !== undefined && !keys.some((entry) => entry.key === key && entry.value === value)) return false;
  }
  if (filter.active !== undefined && user.active !== filter.active) return false;
  if (filter.email !== undefined && !emailKeysOf(user).includes(filter.email)) return false;
  for (const facet of FACETS) {
    const wanted = filter.facets?.[facet];
    if (wanted === undefined) continue;
    const value = facet === 'manager' ? user.manager?.value : user[facet];
    if (value === undefined || value === null || canon(value) !== wanted) return false;
  }
  if (filter.created !== undefined && !within(user.created_at, filter.created)) return false;
  if (filter.updated !== undefined && !within(user.updated_at, filter.updated)) return false;
  if (filter.words !== undefined) {
    const words = userWords(user);
    if (!filter.words.every((prefix) => words.some((word) => word.startsWith(prefix)))) return false;
  }
  if (filter.exclude?.includes(user.uid)) return false;
  return true;
}

/** The value a user is sorted by under `field`, as the stores keep it. */
export function sortValue(user: User, field: SortKey['field']): string {
  switch (field) {
    case 'username':
      return fold(user.username);
    case 'display_name':
      return fold(user.display_name ?? '');
    case 'family_name':
      return fold(user.name?.family_name ?? '');
    case 'given_name':
      return fold(user.name?.given_name ?? '');
    case 'created_at':
      return user.created_at;
    case 'updated_at':
      return user.updated_at;
  }
}

/** Code point order: the byte order of UTF-8 in which both stores compare text (JavaScript's `<` compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const difference = (x.value.codePointAt(0) as number) - (y.value.codePointAt(0) as number);
    if (difference !== 0) return difference;
  }
}

/** The direction of the uid that breaks ties: that of the last sort key (ascending without keys). */
export const uidDescending = (sort: readonly SortKey[]) => sort.length > 0 && (sort[sort.length - 1] as SortKey).descending;

/** The order of a sorted search: its keys, then the uid. */
export function compareUsers(sort: readonly SortKey[]): (a: User, b: User) => number {
  return (a, b) => {
    for (const key of sort) {
      const order = compareCodePoints(sortValue(a, key.field), sortValue(b, key.field));
      if (order !== 0) return key.descending ? -order : order;
    }
    const order = a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0;
    return uidDescending(sort) ? -order : order;
  };
}

/** Where a walk stopped: after `user`, in the order of `sort` (store/user-store.ts WalkMark). */
export function walkMark(user: User, sort: readonly SortKey[] | undefined): WalkMark {
  return { uid: user.uid, values: (sort ?? []).map((key) => sortValue(user, key.field)) };
}
