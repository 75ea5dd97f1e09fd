/**
 * The words of a user that `q` finds, and how text becomes words (docs/api.md,
 * "Search: matching rules"). The service computes them; the stores keep them and
 * compare them byte for byte, so SQLite and PostgreSQL find exactly the same users.
 *
 * Folding, in this order: the canonical form of keys (canonical.ts: width mapping,
 * lower case, NFC); then every combining mark removed after canonical decomposition
 * (`García` → `garcia`, `Łódź` → `lodz` with the letters below); then the letters
 * Unicode does not decompose mapped to their base letters (ß → ss, æ → ae, œ → oe,
 * ø → o, đ → d, ł → l, ı → i, þ → th, ð → d, ħ → h, ŧ → t, and the final sigma ς → σ);
 * then apostrophes dropped,
 * so `O'Brien` is the one word `obrien`. Words are the longest runs of letters and
 * digits (any script); everything else separates them: `García-López` is `garcia`
 * and `lopez`, `jose.garcia` is `jose` and `garcia`. A script without spaces (Chinese,
 * Japanese) makes one word of a whole run, found by its start.
 */
import { canon } from './canonical.js';
import type { User } from './user.js';

// ς → σ: lower-casing makes a Σ that ends a text ς, so `ΑΣ` typed as a prefix of `ΑΣΤΈΡΙΟΣ` would not start `αστεριος`.
const BASE_LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ł: 'l', ı: 'i', þ: 'th', ð: 'd', ħ: 'h', ŧ: 't', ς: 'σ' };
const UNDECOMPOSED = new RegExp(`[${Object.keys(BASE_LETTERS).join('')}]`, 'gu');
const MARKS = /\p{M}+/gu;
const APOSTROPHES = /['\u2019\u02bc\u2018`\u00b4]/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/** Text folded for search and sorting: case, width, accents and apostrophes gone. */
export function fold(text: string): string {
  return canon(text).normalize('NFD').replace(MARKS, '').replace(UNDECOMPOSED, (ch) => BASE_LETTERS[ch] as string).replace(APOSTROPHES, '').normalize('NFC');
}

/** The folded words of `text`, in order, repeats included. */
export function wordsOf(text: string): string[] {
  return fold(text).split(SEPARATORS).filter((word) => word.length > 0);
}

/** The local part of an address: what precedes its last `@`. */
const localPart = (address: string) => address.slice(0, Math.max(0, address.lastIndexOf('@')));

/**
 * Every word `q` can find a user by, each once, in the order first met: the display name,
 * the given and family names, the username and the email address's local part.
 */
export function userWords(user: Pick<User, 'display_name' | 'name' | 'username' | 'email_address'>): string[] {
  const sources = [user.display_name, user.name?.given_name, user.name?.family_name, user.username, localPart(user.email_address)];
  const words = new Set<string>();
  for (const source of sources) if (source) for (const word of wordsOf(source)) words.add(word);
  return [...words];
}

/** Most distinct words a `q` may hold: each is one condition of the query. */
export const QUERY_WORDS_MAX = 16;

/** The distinct words of a query, in order. */
export function queryWords(q: string): string[] {
  return [...new Set(wordsOf(q))];
}
