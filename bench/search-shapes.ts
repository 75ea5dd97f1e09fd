/**
 * The searches search-bench.ts measures, each a GET of
 * /users with the parameters a client of a people directory sends, on the seeded
 * directory (seed-names.ts says which share of users each query reaches), and the
 * lookup by key every shape's throughput is compared with.
 */
import { seededFields, seededUser } from './seed-data.js';

export interface SearchShape {
  name: string;
  /** What the request asks, for the report. */
  title: string;
  /** The request paths, sent in turn (most shapes are one fixed request). */
  paths(users: number): string[];
}

/** Page size of the autocomplete-like shapes. */
export const SEARCH_PAGE = 20;
/** Page size of the delta (a synchronising client reads larger pages). */
export const DELTA_PAGE = 100;

/** Targets: p99 at one connection, and throughput at 50 connections over the lookup by key's. */
export const SEARCH_TARGETS = { p99Ms: 20, ratio: 0.5 } as const;

const pick = (users: number) => Math.floor(Math.random() * users);
const one = (path: string) => () => [path];

/** Random seeded usernames: what the lookup by key asks for (as the `lookup-username` scenario does). */
export const LOOKUP: SearchShape = {
  name: 'lookup-username',
  title: 'lookup by key: GET /users/username:…',
  paths: (users) => Array.from({ length: Math.min(users, 100_000) }, () => `/users/username:${encodeURIComponent(seededFields(pick(users)).username)}`),
};

/** The delta's first instant: the last 0.1 % of seeded users were updated at or after it. */
const deltaSince = (users: number) => seededUser(users - Math.max(1, Math.floor(users / 1000))).updated_at;

export const SEARCH_SHAPES: readonly SearchShape[] = [
  { name: 'q-one-letter', title: `q=m (one letter), limit ${SEARCH_PAGE}`, paths: one(`/users?q=m&limit=${SEARCH_PAGE}`) },
  { name: 'q-common', title: `q=garc (common prefix, ~10 %), limit ${SEARCH_PAGE}`, paths: one(`/users?q=garc&limit=${SEARCH_PAGE}`) },
  { name: 'q-rare', title: `q=odeg (rare prefix, ~40 per million), limit ${SEARCH_PAGE}`, paths: one(`/users?q=odeg&limit=${SEARCH_PAGE}`) },
  { name: 'q-two-words', title: `q=jose gar (two words, ~0.25 %), limit ${SEARCH_PAGE}`, paths: one(`/users?q=jose%20gar&limit=${SEARCH_PAGE}`) },
  {
    name: 'filter-sorted', title: `department=Engineering (10 %) & sort=family_name, limit ${SEARCH_PAGE}`,
    paths: one(`/users?department=Engineering&sort=family_name&limit=${SEARCH_PAGE}`),
  },
  { name: 'filter-q', title: `department=Engineering & q=garc (~1 %), limit ${SEARCH_PAGE}`, paths: one(`/users?department=Engineering&q=garc&limit=${SEARCH_PAGE}`) },
  {
    name: 'updated-since', title: `updated_since (delta of the last 0.1 %) & sort=updated_at, limit ${DELTA_PAGE}`,
    paths: (users) => [`/users?updated_since=${encodeURIComponent(deltaSince(users))}&sort=updated_at&limit=${DELTA_PAGE}`],
  },
  { name: 'count-broad', title: `q=garc & count=true (~10 %), limit ${SEARCH_PAGE}`, paths: one(`/users?q=garc&count=true&limit=${SEARCH_PAGE}`) },
  { name: 'q-none', title: `q=zzqx (matches nothing), limit ${SEARCH_PAGE}`, paths: one(`/users?q=zzqx&limit=${SEARCH_PAGE}`) },
];
