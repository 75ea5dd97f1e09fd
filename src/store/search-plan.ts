/**
 * How a store answers a SearchFilter, whatever its dialect: the plan both adapters
 * render into their SQL (sqlite/sqlite-search.ts, postgres/postgres-search.ts).
 *
 * A page is either driven or walked:
 * - driven: the users one indexed condition names (a unique key; an exact facet; the
 *   word index entries a query word starts; an address of `emails`; the deactivated; a
 *   range of `created_at` or `updated_at`) are read by uid, checked against every other
 *   condition and sorted. Chosen when some condition names at most DRIVE_BOUND index
 *   entries, counted with that bound (a bounded count costs at most DRIVE_BOUND entries),
 *   the one naming fewest;
 * - intersected: no condition names DRIVE_BOUND entries or fewer, but two of the
 *   index-entry conditions (words, facets) name at most INTERSECT_BOUND each: the uids
 *   both name are intersected in the index, then driven as above. Two words that are each
 *   common but rare together (`minh fisc`: 16,000 and 7,000 entries, 79 users in common at
 *   1,000,000 users) would otherwise walk nearly every user to fill a page;
 * - walked: otherwise every condition matches more than DRIVE_BOUND users, so the
 *   users are read in sort order along the sort's index and each checked until the page
 *   is full: at 1,000,000 users a condition matching more than 0.5 % of them fills a
 *   page of 20 after about 4,000 rows on average.
 * So a page costs about DRIVE_BOUND rows (or twice INTERSECT_BOUND index entries) at
 * most, however many users match, and never a scan of the table
 * (test/search/search-plans.test.ts reads each shape's plan).
 */
import { prefixUpperBound } from '../users/canonical.js';
import { FACETS } from '../users/user-vocabulary.js';
import type { InstantBounds, SearchFilter } from './user-store.js';

/** Most index entries a driving condition may name. */
export const DRIVE_BOUND = 5000;

/** Most index entries each of two intersected conditions may name (counted only when no condition can drive alone). */
export const INTERSECT_BOUND = 25_000;

/** A condition read from user_terms: a facet, or the words a query word starts. */
export type TermDriver = Extract<Driver, { kind: 'term' }>;

export type Driver =
  | { kind: 'key'; key: 'username' | 'email_address' | 'legacy_id' | 'external_id'; value: string }
  /** user_terms entries of `field` equal to `value`, or (with `high`, undefined when unbounded) in [value, high). */
  | { kind: 'term'; field: string; value: string; prefix: false }
  | { kind: 'term'; field: string; value: string; prefix: true; high: string | undefined }
  | { kind: 'email'; value: string }
  | { kind: 'inactive' }
  | { kind: 'instant'; column: 'created_at' | 'updated_at'; bounds: InstantBounds }
  /** The uids both term conditions name (a user matching each through different words is named once). */
  | { kind: 'intersection'; of: [TermDriver, TermDriver] };

/** The unique key of a filter, if it has one: it names one user at most, no count needed. */
export function uniqueDriver(filter: SearchFilter): Driver | undefined {
  for (const key of ['username', 'email_address', 'legacy_id', 'external_id'] as const) {
    const value = filter[key];
    if (value !== undefined) return { kind: 'key', key, value };
  }
  return undefined;
}

/** Every other condition that could drive a page, to be counted. */
export function candidateDrivers(filter: SearchFilter): Driver[] {
  const drivers: Driver[] = [];
  for (const facet of FACETS) {
    const value = filter.facets?.[facet];
    if (value !== undefined) drivers.push({ kind: 'term', field: facet, value, prefix: false });
  }
  for (const word of filter.words ?? []) drivers.push({ kind: 'term', field: 'word', value: word, prefix: true, high: prefixUpperBound(word) });
  if (filter.email !== undefined) drivers.push({ kind: 'email', value: filter.email });
  if (filter.active === false) drivers.push({ kind: 'inactive' });
  if (filter.created !== undefined) drivers.push({ kind: 'instant', column: 'created_at', bounds: filter.created });
  if (filter.updated !== undefined) drivers.push({ kind: 'instant', column: 'updated_at', bounds: filter.updated });
  return drivers;
}

/**
 * The driver of a page: the unique key if the filter has one, else the candidate naming
 * fewest entries when some names at most `bound` (DRIVE_BOUND; tests lower it to walk
 * small directories). `counts[i]` is how many entries `candidates[i]` names, counted up to `bound` + 1.
 */
export function pickDriver(filter: SearchFilter, candidates: readonly Driver[], counts: readonly number[], bound = DRIVE_BOUND): Driver | undefined {
  const unique = uniqueDriver(filter);
  if (unique !== undefined) return unique;
  let best: number | undefined;
  counts.forEach((n, i) => {
    if (n <= bound && (best === undefined || n < (counts[best] as number))) best = i;
  });
  return best === undefined ? undefined : candidates[best];
}

/**
 * When no condition drives alone: the intersection of the two term conditions naming
 * fewest entries, if both name at most `bound` (INTERSECT_BOUND). `counts[i]` is how many
 * entries `terms[i]` names, counted up to `bound` + 1.
 */
export function pickIntersection(terms: readonly TermDriver[], counts: readonly number[], bound = INTERSECT_BOUND): Driver | undefined {
  const within = terms.map((term, i) => ({ term, n: counts[i] as number })).filter(({ n }) => n <= bound);
  if (within.length < 2) return undefined;
  within.sort((x, y) => x.n - y.n);
  return { kind: 'intersection', of: [(within[0] as (typeof within)[number]).term, (within[1] as (typeof within)[number]).term] };
}

/**
 * The filter without the words `driver` names already: the users a word's index entries
 * name are exactly those with a word it starts (search-column.ts writes both from the same
 * words), so checking the word again on each driven row only costs reading the row.
 */
export function beyondDriver(filter: SearchFilter, driver: Driver | undefined): SearchFilter {
  const terms = driver === undefined ? [] : driver.kind === 'intersection' ? driver.of : driver.kind === 'term' ? [driver] : [];
  const driven = new Set(terms.filter((term) => term.field === 'word' && term.prefix).map((term) => term.value));
  if (driven.size === 0 || filter.words === undefined) return filter;
  return { ...filter, words: filter.words.filter((word) => !driven.has(word)) };
}

/** The term conditions among the candidates: those an intersection may take. */
export const termsOf = (candidates: readonly Driver[]): TermDriver[] => candidates.filter((c): c is TermDriver => c.kind === 'term');

/** The comparison operators of instant bounds, in SQL. */
export const BOUND_OPERATORS = { gt: '>', ge: '>=', lt: '<', le: '<=' } as const;

/** Users read to estimate a count no index bounds: SAMPLE_WINDOWS windows of SAMPLE_WINDOW users in uid order. */
export const SAMPLE_WINDOWS = 4;
export const SAMPLE_WINDOW = 500;

/**
 * Where the windows of a count's sample start: evenly spread over the uids from `first`
 * to `last` (uids are UUIDv7: in creation order, so the sample spans the directory's age).
 */
export function sampleStarts(first: string, last: string): string[] {
  const low = BigInt(`0x${first.replace(/-/g, '')}`);
  const high = BigInt(`0x${last.replace(/-/g, '')}`);
  return Array.from({ length: SAMPLE_WINDOWS }, (_, i) => {
    const hex = (low + ((high - low) * BigInt(i)) / BigInt(SAMPLE_WINDOWS)).toString(16).padStart(32, '0');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  });
}

/** A count as a search reports it: exact, or estimated from a sample. */
export interface MatchCount {
  value: number;
  exact: boolean;
}

/** The estimate from a sample: `matched` of `sampled` users, scaled to `total`. */
export function estimated(matched: number, sampled: number, total: number): MatchCount {
  return { value: sampled === 0 ? 0 : Math.round((matched / sampled) * total), exact: false };
}
