/**
 * What a store keeps of a user so it can be searched: one JSON text column, `search`,
 * written with the user's row by every write (single, PATCH, import), from which the
 * store derives the rest in the same transaction:
 * - `text`: the user's words (users/search-words.ts), each between spaces, so "a word
 *   of this user starts with w" is `' ' + w` found in it, checked on a row in hand;
 * - `terms`: `field:value` entries that triggers copy into `user_terms` (one B-tree on
 *   field, value, uid): `word:` each word, found by prefix ranges; each facet
 *   (FACETS) by its canonical value. A trigger deletes exactly the entries of the
 *   previous text, so an index entry never outlives what it was made from;
 * - `sort`: the folded sort keys (generated, indexed columns `sort_*`).
 * A change to how terms are made is a migration that writes `search` again.
 */
import { fold, userWords } from '../users/search-words.js';
import { canon } from '../users/canonical.js';
import type { User } from '../users/user.js';
import { FACETS, type Facet } from '../users/user-vocabulary.js';

/** The `search` of a row written by no release that knew it: no words, no terms, empty sort keys. Part of migration 11: never change it. */
export const EMPTY_SEARCH = '{"text":" ","terms":[],"sort":{"username":"","display_name":"","family_name":"","given_name":""}}';

/**
 * The indexes of migration 11 on both stores: each sort key with the uid (every sort is an
 * index walk), replacing the prefix index of display names (`q` reads words now) and the
 * index on updated_at alone. Part of migration 11: never change it.
 */
export const SEARCH_INDEXES_SQL = `
  DROP INDEX users_by_display_name_key;
  DROP INDEX users_by_updated_at;
  CREATE INDEX users_by_sort_username ON users (sort_username, uid);
  CREATE INDEX users_by_sort_display_name ON users (sort_display_name, uid);
  CREATE INDEX users_by_sort_family_name ON users (sort_family_name, uid);
  CREATE INDEX users_by_sort_given_name ON users (sort_given_name, uid);
  CREATE INDEX users_by_created_at ON users (created_at, uid);
  CREATE INDEX users_by_updated_at ON users (updated_at, uid);
`;

/** A facet's value in a user, as written. */
function facetOf(user: User, facet: Facet): string | null {
  return facet === 'manager' ? (user.manager?.value ?? null) : user[facet];
}

/** The entry of `user_terms` for a facet's value: compared case-insensitively, like keys. */
export const facetTerm = (facet: Facet, value: string) => `${facet}:${canon(value)}`;

/** The `search` column of a user's row. */
export function searchColumn(user: User): string {
  return searchOf(user).column;
}

/** The `search` column of a user's row and the `field:value` terms in it (what the triggers, or a bulk import, put in `user_terms`). */
export function searchOf(user: User): { column: string; terms: string[] } {
  const words = userWords(user);
  const terms = words.map((word) => `word:${word}`);
  for (const facet of FACETS) {
    const value = facetOf(user, facet);
    if (value !== null && value !== '') terms.push(facetTerm(facet, value));
  }
  const column = JSON.stringify({
    text: ` ${words.join(' ')} `,
    terms,
    sort: {
      username: fold(user.username),
      display_name: fold(user.display_name ?? ''),
      family_name: fold(user.name?.family_name ?? ''),
      given_name: fold(user.name?.given_name ?? ''),
    },
  });
  return { column, terms };
}
