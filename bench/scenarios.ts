/**
 * The benchmark scenarios, as autocannon request sequences. They speak only the
 * public HTTP API, so the same scenario runs against the service and against
 * the baseline servers (which answer the same paths). Each request picks a
 * random seeded user, so reads spread over the whole table.
 */
import type autocannon from 'autocannon';
import { searchPrefix, seededFields, seededUid } from './seed-data.js';

export type ScenarioKind = 'read' | 'write' | 'mixed';

export interface ScenarioContext {
  /** How many users were seeded (ids 0 … users-1). */
  users: number;
  /** Unique per measured run: keeps created usernames, emails and legacy ids unique. */
  tag: string;
}

export interface Scenario {
  name: string;
  title: string;
  kind: ScenarioKind;
  /** What one request is: a page of a walk is reported as pages/s. */
  unit: 'req/s' | 'pages/s';
  requests(context: ScenarioContext): autocannon.Request[];
  /**
   * Set on the reads by key (one GET of a random seeded user, chosen afresh per request):
   * a fresh path of `users` seeded users. Those scenarios are also measured with wrk
   * (wrk-run.ts), which sends a file of such paths, so both load generators draw alike.
   */
  path?: (users: number) => string;
}

/** Users per page while walking, and pages per walk. */
export const WALK_PAGE_SIZE = 100;
export const WALK_PAGES = 50;
/** Page size of the search scenario (an autocomplete-sized page). */
export const SEARCH_LIMIT = 20;

const JSON_BODY = { 'content-type': 'application/json' };

const pick = (users: number) => Math.floor(Math.random() * users);

/** One request whose path (and maybe method and body) is chosen afresh each time; the run's headers are kept. */
function dynamic(build: () => autocannon.Request): autocannon.Request[] {
  return [{ setupRequest: (request) => {
    const built = build();
    return { ...request, ...built, headers: { ...request.headers, ...built.headers } };
  } }];
}

function createRequest(context: ScenarioContext, counter: { n: number }): autocannon.Request {
  const n = counter.n++;
  const name = `bench.${context.tag}.${n}`;
  const body = { username: name, email_address: `${name}@bench.example`, legacy_ids: [`bench:${context.tag}:${n}`], display_name: 'Bench User', attributes: { department: 'R&D' } };
  return { method: 'POST', path: '/users', headers: JSON_BODY, body: JSON.stringify(body) };
}

const uidPath = (users: number) => `/users/${seededUid(pick(users))}`;

function readRequest(users: number): autocannon.Request {
  return { method: 'GET', path: uidPath(users) };
}

/** A scenario that is one GET of `path`, chosen afresh per request. */
function readByKey(name: string, title: string, path: (users: number) => string): Scenario {
  return { name, title, kind: 'read', unit: 'req/s', path, requests: ({ users }) => dynamic(() => ({ method: 'GET', path: path(users) })) };
}

/** A walk of WALK_PAGES pages: each request follows the previous response's `Link: rel="next"`. */
function walk(): autocannon.Request[] {
  type WalkContext = { next?: string };
  const first = `/users?limit=${WALK_PAGE_SIZE}`;
  const step: autocannon.Request = {
    setupRequest: (request, context) => {
      const next = (context as WalkContext).next;
      // autocannon starts a fresh walk (and a fresh context) when a setupRequest returns nothing.
      return next === undefined ? (undefined as unknown as autocannon.Request) : { ...request, path: next };
    },
    onResponse: (_status, _body, context, headers) => {
      const link = headers?.link;
      const match = /<([^>]+)>;\s*rel="next"/.exec(Array.isArray(link) ? link.join(', ') : (link ?? ''));
      (context as WalkContext).next = match?.[1];
    },
  };
  const start: autocannon.Request = { ...step, setupRequest: (request) => ({ ...request, path: first }) };
  return [start, ...Array.from({ length: WALK_PAGES - 1 }, () => ({ ...step }))];
}

export const SCENARIOS: readonly Scenario[] = [
  readByKey('read-uid', 'read by uid', uidPath),
  readByKey('lookup-username', 'lookup by username', (users) => `/users/username:${encodeURIComponent(seededFields(pick(users)).username)}`),
  readByKey('lookup-email', 'lookup by email address', (users) => `/users/email_address:${encodeURIComponent(seededFields(pick(users)).email_address)}`),
  readByKey('lookup-legacy-id', 'lookup by legacy id', (users) => `/users/legacy_id:emp-${pick(users)}`),
  {
    name: 'search', title: `search q=first.last. (limit ${SEARCH_LIMIT})`, kind: 'read', unit: 'req/s',
    requests: ({ users }) => dynamic(() => ({ method: 'GET', path: `/users?q=${encodeURIComponent(searchPrefix(pick(users)))}&limit=${SEARCH_LIMIT}` })),
  },
  { name: 'walk-50-pages', title: `walk of ${WALK_PAGES} pages of ${WALK_PAGE_SIZE}`, kind: 'read', unit: 'pages/s', requests: () => walk() },
  {
    name: 'update', title: 'update (PUT)', kind: 'write', unit: 'req/s',
    requests: ({ users, tag }) => dynamic(() => {
      const i = pick(users);
      const body = { ...seededFields(i), display_name: `Renamed ${tag}` };
      return { method: 'PUT', path: `/users/${seededUid(i)}`, headers: JSON_BODY, body: JSON.stringify(body) };
    }),
  },
  {
    name: 'create', title: 'create', kind: 'write', unit: 'req/s',
    requests: (context) => {
      const counter = { n: 0 };
      return dynamic(() => createRequest(context, counter));
    },
  },
  {
    name: 'mix-90-10', title: '90 % read by uid / 10 % create', kind: 'mixed', unit: 'req/s',
    requests: (context) => {
      const counter = { n: 0 };
      return dynamic(() => (Math.random() < 0.1 ? createRequest(context, counter) : readRequest(context.users)));
    },
  },
];

/** Whether BENCH_SCENARIOS selects the measurement `name`: one of `filters` is part of it, or there are none. */
export function nameSelected(name: string, filters: readonly string[]): boolean {
  return filters.length === 0 || filters.some((f) => name.includes(f));
}

/** Scenarios whose name contains one of `filters` (all when there are none). */
export function selectScenarios(filters: readonly string[]): Scenario[] {
  return SCENARIOS.filter((s) => nameSelected(s.name, filters));
}
