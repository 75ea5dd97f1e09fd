/**
 * GET /users: the REST search parameters turned into the store's one query
 * (store/user-store.ts SearchFilter, the same one SCIM filters become), and the pages
 * walked with signed keyset cursors (search-cursor.ts). docs/api.md, "Search", states
 * the rules. A `q` equal to a username or an email address (canonical form) puts that
 * user first: the exact matches, in the search's order, then every other match.
 */
import { ProblemError } from '../http/problems.js';
import { compareCodePoints, compareUsers, matchesSearch, sortValue, uidDescending } from './search-match.js';
import type { InstantBounds, MatchCount, PageResult, Positioned, SearchFilter, UserStore } from '../store/user-store.js';
import { canon } from './canonical.js';
import { decodeCursor, encodeCursor, type CursorPosition } from './search-cursor.js';
import { QUERY_WORDS_MAX, queryWords } from './search-words.js';
import { isStorable } from './user-input.js';
import { millisecondBound, parseInstant, type BoundOp } from './instant.js';
import { COUNT_BOUND, SEARCH_LIMIT_DEFAULT, type SearchQuery } from './user-schemas.js';
import type { User } from './user.js';
import { FACETS, type SortKey } from './user-vocabulary.js';

export interface SearchResult {
  users: User[];
  /** Present when more users may follow: the cursor of the next page. */
  nextCursor?: string;
  /** The change-feed position the page reflects (Feed-Position). */
  position: number;
  /** With `count=true`: how many users match (store/user-store.ts countMatches()). */
  count?: MatchCount;
}

/**
 * Most users a walked page reads along the sort's index (store/user-store.ts walkLimit):
 * a page of `q` words that are each common but rarely together ends after that many, with
 * the users it found (maybe none) and a `next` link that continues after the last one
 * read. So a page's cost is bounded by the limit, never by the directory's size, and a
 * broad word (0.5 % of the users) still fills a page of 20 after about 4,000.
 */
export const WALK_LIMIT = 10_000;

const invalid = (parameter: string, detail: string) => new ProblemError('invalid-query', `${parameter} ${detail}`, { errors: [{ parameter, detail }] });

/** A bound of `parameter`'s instant (users/instant.ts), or 400 when it names no instant the stores hold. */
function bound(bounds: InstantBounds, op: BoundOp, parameter: string, value: string | undefined): void {
  if (value === undefined) return;
  const instant = parseInstant(value);
  if (instant === undefined) throw invalid(parameter, 'is not a real instant between the years 0001 and 9999 (a leap second is none either)');
  const { op: stored, at } = millisecondBound(op, instant);
  bounds[stored] = at;
}

/** A search as the store answers it: the filter (without the exact rank of `q`), the sort, and `q`'s canonical form. */
export interface ParsedSearch {
  filter: SearchFilter;
  sort: SortKey[];
  /** Canonical `q`: a user whose username or email address equals it comes first. */
  exact?: string;
  /** A `q` without a letter or digit: no word matches it, only the exact matches remain. */
  wordless?: boolean;
}

export function parseSearch(query: SearchQuery): ParsedSearch {
  for (const [parameter, value] of Object.entries(query)) {
    if (typeof value === 'string' && !isStorable(value)) throw invalid(parameter, 'must not contain U+0000');
  }
  const filter: SearchFilter = {};
  if (query.username !== undefined) filter.username = canon(query.username);
  if (query.email_address !== undefined) filter.email_address = canon(query.email_address);
  if (query.legacy_id !== undefined) filter.legacy_id = query.legacy_id;
  if (query.external_id !== undefined) filter.external_id = query.external_id;
  if (query.active !== undefined) filter.active = query.active === 'true';
  for (const facet of FACETS) {
    const value = query[facet];
    if (value !== undefined) (filter.facets ??= {})[facet] = canon(value);
  }
  const created: InstantBounds = {};
  bound(created, 'ge', 'created_after', query.created_after);
  bound(created, 'lt', 'created_before', query.created_before);
  if (Object.keys(created).length > 0) filter.created = created;
  const updated: InstantBounds = {};
  bound(updated, 'ge', 'updated_since', query.updated_since);
  bound(updated, 'lt', 'updated_before', query.updated_before);
  if (Object.keys(updated).length > 0) filter.updated = updated;
  const parsed: ParsedSearch = { filter, sort: parseSort(query.sort) };
  if (query.q !== undefined) {
    const words = queryWords(query.q);
    if (words.length > QUERY_WORDS_MAX) throw invalid('q', `has more than ${QUERY_WORDS_MAX} distinct words`);
    filter.words = words;
    parsed.exact = canon(query.q);
    if (words.length === 0) parsed.wordless = true;
  }
  return parsed;
}

function parseSort(sort: string | undefined): SortKey[] {
  if (sort === undefined) return [];
  const keys = sort.split(',').map((name) => ({ field: name.replace(/^-/, '') as SortKey['field'], descending: name.startsWith('-') }));
  if (new Set(keys.map((key) => key.field)).size !== keys.length) throw invalid('sort', 'names a field twice');
  return keys;
}

/** Whether `user` comes after `position` in the order of `sort` (its keys, then the uid). */
function isAfter(user: User, position: CursorPosition, sort: readonly SortKey[]): boolean {
  for (const [i, key] of sort.entries()) {
    const order = compareCodePoints(sortValue(user, key.field), position.values[i] ?? '');
    if (order !== 0) return key.descending ? order < 0 : order > 0;
  }
  return uidDescending(sort) ? user.uid < position.uid : user.uid > position.uid;
}

/** The text a cursor is signed with: everything that decides which users a search returns, and in which order. */
const signature = ({ filter, sort, exact }: ParsedSearch) => JSON.stringify([filter, sort, exact ?? null]);

export function createUserSearch(store: UserStore, cursorKey: () => Promise<Buffer>, walkLimit = WALK_LIMIT) {
  /**
   * The users `q` ranks first, in the search's order, that meet every other filter, with the
   * feed position the reads reflect: on the first page those whose username or email address
   * (canonical) equals `q`; on later pages the same users as on the first (`ranked`), read again.
   */
  async function exactMatches({ filter, sort, exact }: ParsedSearch, ranked?: string[]): Promise<Positioned<User[]>> {
    const position = Number.MAX_SAFE_INTEGER;
    if (exact === undefined) return { value: [], position };
    const others: SearchFilter = { ...filter };
    delete others.words;
    const reads = ranked === undefined ? [store.lookup('username', exact), store.lookup('email_address', exact)] : ranked.map((uid) => store.lookup('uid', uid));
    const found = await Promise.all(reads);
    const users = found.flatMap(({ value }) => (value === undefined ? [] : [JSON.parse(value.json) as User])).filter((user) => matchesSearch(user, others));
    const unique = new Map(users.map((user) => [user.uid, user]));
    return { value: [...unique.values()].sort(compareUsers(sort)), position: Math.min(position, ...found.map((read) => read.position)) };
  }

  const positionOf = (user: User, sort: SortKey[], exact: boolean, ranked: string[]): CursorPosition => ({ uid: user.uid, values: sort.map((key) => sortValue(user, key.field)), exact, ranked });

  return async function search(query: SearchQuery, deadline?: number): Promise<SearchResult> {
    const parsed = parseSearch(query);
    const { sort } = parsed;
    let after: CursorPosition | undefined;
    if (query.cursor !== undefined) {
      after = decodeCursor(await cursorKey(), query.cursor, signature(parsed));
      if (after === undefined) {
        throw new ProblemError('invalid-query', 'cursor was not issued for this search', {
          errors: [{ parameter: 'cursor', detail: 'was not issued by this service for these filters and this sort' }],
        });
      }
    }
    const limit = query.limit === undefined ? SEARCH_LIMIT_DEFAULT : Number(query.limit);
    // Read before the page: the answer reflects the position of the earlier reads (Feed-Position).
    const { value: exact, position: exactPosition } = await exactMatches(parsed, after?.ranked);
    const ranking = after?.ranked ?? exact.map((user) => user.uid);
    const rest: SearchFilter = ranking.length > 0 ? { ...parsed.filter, exclude: ranking } : parsed.filter;
    // The exact matches not yet served: all of them on the first page, those after the cursor's while it is in them.
    const firstRanked = after === undefined ? exact : after.exact ? exact.filter((user) => isAfter(user, after as CursorPosition, sort)) : [];
    const ranked = firstRanked.slice(0, limit);
    // One extra row tells whether a next page exists without a second query.
    const restAfter = after === undefined || after.exact ? {} : { after: after.uid, afterValues: after.values };
    const wanted = limit - ranked.length + 1;
    const [{ value: rows, position, walkedTo }, counted] = await Promise.all([
      parsed.wordless ? store.events.latest().then((latest): PageResult => ({ value: [], position: latest })) : store.search({ filter: rest, sort, ...restAfter, limit: wanted, walkLimit, ...(deadline === undefined ? {} : { deadline }) }),
      query.count !== 'true' ? undefined : parsed.wordless ? { value: 0, exact: true } : store.countMatches(rest, COUNT_BOUND, deadline),
    ]);
    const users = [...ranked, ...rows].slice(0, limit);
    const more = firstRanked.length > ranked.length || rows.length >= wanted;
    const last = users[users.length - 1];
    const result: SearchResult = { users, position: Math.min(position, exactPosition) };
    if (more && last !== undefined) result.nextCursor = encodeCursor(await cursorKey(), positionOf(last, sort, ranked.includes(last), ranking), signature(parsed));
    // The walk reached its limit before the page was full: the next page continues after the last user it read.
    else if (walkedTo !== undefined) result.nextCursor = encodeCursor(await cursorKey(), { uid: walkedTo.uid, values: walkedTo.values, exact: false, ranked: ranking }, signature(parsed));
    if (counted !== undefined) result.count = { value: counted.value + exact.length, exact: counted.exact };
    return result;
  };
}
