/**
 * How a SCIM list request (RFC 7644 §3.4.2) is answered from the store.
 *
 * The filter is split at its top-level `and`s: conjuncts the store answers from its
 * indexes narrow the candidates (`id eq`, `userName eq`, `externalId eq` to at most
 * one user; `emails.value eq`, `emails eq` and a value path holding `value eq`, such
 * as `emails[type eq "work"].value eq`, to the users holding that address), `active
 * eq` and `meta.lastModified gt|ge` become store filters, and everything else is a
 * residual predicate evaluated on the SCIM representation of each candidate (a value
 * path stays one too, so `type eq "work"` holds for the same address). So the filters
 * identity providers send on every sync read index entries, never the users; totalResults
 * is exact for every answered filter.
 *
 * A filter with a residual, and a `sortBy` the store does not sort by (STORE_SORT:
 * `externalId`, `emails.value`, `id` descending), needs every candidate read: it is answered while the store filters leave at most SCAN_LIMIT users (always,
 * after a narrowing conjunct), and refused beyond that with 400 `tooMany` (RFC 7644
 * Table 9), never by a scan of a large directory.
 *
 * Without a residual, pages are keyset pages in the store's sort (uid order without
 * `sortBy`; `userName`, `displayName`, `name.familyName`, `name.givenName`,
 * `meta.created` and `meta.lastModified` either way): the page that starts at
 * `startIndex` continues after the last uid of the page before it, which this
 * store remembers (store/page-marks.ts: every instance of a PostgreSQL store shares them), with the walk's totalResults: counted when the walk
 * starts (or reaches a page whose start is not remembered) and carried along, so a
 * page costs an index range, not a count of the directory. While users are written
 * during a walk, its totalResults is the count at its start. A client walking pages in order (1, 101, 201, …)
 * so reads each page from the index, at a cost that does not grow with depth, and
 * visits every user that exists throughout the walk exactly once, while users are
 * created and deleted. A page whose start is not remembered (another instance
 * served the previous one, or a client jumps) is found by walking uids from the
 * nearest remembered start.
 */
import type { SearchFilter } from '../store/user-store.js';
import type { Facet, SortKey } from '../users/user-vocabulary.js';
import { compareUsers, matchesSearch, sortValue } from '../users/search-match.js';
import { mapInSlices } from '../event-loop-slices.js';
import { canon } from '../users/canonical.js';
import { emailKeysOf, type User } from '../users/user.js';
import type { UserService } from '../users/user-service.js';
import type { AttrPath, Filter } from './filter/filter-ast.js';
import { isStorable } from '../users/user-input.js';
import { millisecondBound, parseInstant, type BoundOp, type Instant } from '../users/instant.js';
import { matchesFilter } from './filter/filter-evaluator.js';
import { printAttrPath } from './filter/filter-printer.js';
import { badRequest } from './scim-error.js';
import { CORE_USER_SCHEMA, resolveAttribute, userAttributes } from './scim-user-schema.js';

/** Most users a request may read to evaluate a filter or a sort in memory. */
export const SCAN_LIMIT = 10_000;
/** Users read per store query while walking. */
const CHUNK = 1000;

export interface ListRequest {
  filter?: Filter;
  startIndex: number;
  count: number;
  sortBy?: string;
  descending: boolean;
}

export interface ListPage {
  users: User[];
  totalResults: number;
}

interface Plan {
  store: SearchFilter;
  /** The uid an `id eq` names. */
  uid?: string;
  /** Whether an indexed condition narrows the candidates. */
  narrowed: boolean;
  /** Whether a unique key narrows them to at most one user (no count needed). */
  unique?: boolean;
  residual?: Filter;
}

const conjuncts = (filter: Filter): Filter[] => (filter.kind === 'and' ? [...conjuncts(filter.left), ...conjuncts(filter.right)] : [filter]);

/** The canonical `schema:attribute[.sub]` a path names, or undefined. */
function canonicalName(filter: Filter): string | undefined {
  if (filter.kind !== 'compare' || filter.op !== 'eq') return undefined;
  const resolved = resolveAttribute(filter.path);
  return resolved === undefined || resolved.schema !== CORE_USER_SCHEMA ? undefined : `${resolved.name}${resolved.sub ? `.${resolved.sub}` : ''}`;
}

/**
 * Refuses what a filter cannot mean (RFC 7644 Table 9, `invalidFilter`): an attribute the
 * User does not have, a value path on a single-valued attribute, a comparison its type does
 * not support (`active gt true`, `active eq "true"`, `userName gt 5`), a date-time compared
 * with anything but an RFC 3339 instant, the write-only `password`, and a string no store
 * can hold (U+0000, a lone surrogate). A typo must not read as "no match".
 */
function assertAnswerable(filter: Filter, parent?: string): void {
  switch (filter.kind) {
    case 'and':
    case 'or':
      assertAnswerable(filter.left, parent);
      assertAnswerable(filter.right, parent);
      return;
    case 'not':
      assertAnswerable(filter.filter, parent);
      return;
    case 'has': {
      const outer = attributeOf(filter.path, parent);
      if (!outer.multiValued && outer.type !== 'complex') throw badRequest('invalidFilter', `${printAttrPath(filter.path)} has no members to filter.`);
      assertAnswerable(filter.filter, outer.name);
      return;
    }
    case 'present':
      attributeOf(filter.path, parent);
      return;
    case 'compare': {
      const { type } = attributeOf(filter.path, parent);
      const { op, value } = filter;
      const where = printAttrPath(filter.path);
      if (typeof value === 'string' && !isStorable(value)) throw badRequest('invalidFilter', `A value compared with ${where} holds U+0000 or a lone surrogate.`);
      if (value === null) {
        if (op !== 'eq' && op !== 'ne') throw badRequest('invalidFilter', `${where} ${op} null compares nothing; use pr or eq null.`);
        return;
      }
      if (type === 'boolean' && (typeof value !== 'boolean' || (op !== 'eq' && op !== 'ne'))) throw badRequest('invalidFilter', `${where} is a boolean: compare it with eq or ne and true or false.`);
      if (type === 'dateTime' && (typeof value !== 'string' || parseInstant(value) === undefined)) throw badRequest('invalidFilter', `${where} is a date-time: compare it with an RFC 3339 instant between the years 0001 and 9999, such as "2026-01-31T12:00:00Z" (a leap second is none).`);
      if ((type === 'string' || type === 'reference' || type === 'complex') && typeof value !== 'string') throw badRequest('invalidFilter', `${where} is a string: compare it with a string.`);
      if ((type === 'integer' || type === 'decimal') && typeof value !== 'number') throw badRequest('invalidFilter', `${where} is a number: compare it with a number.`);
    }
  }
}

/** The definition of a filter's attribute, or 400 `invalidFilter` when the User has none (or it is write-only). */
function attributeOf(path: AttrPath, parent?: string) {
  const found = userAttributes.resolve(path, parent);
  if (found === undefined || found.name.toLowerCase() === 'password') throw badRequest('invalidFilter', `${printAttrPath(path)} is not an attribute of User that a filter can compare.`);
  return found;
}

export function planList(filter: Filter | undefined): Plan {
  const plan: Plan = { store: {}, narrowed: false };
  if (filter === undefined) return plan;
  assertAnswerable(filter);
  const residual: Filter[] = [];
  for (const part of conjuncts(filter)) {
    const value = part.kind === 'compare' ? part.value : undefined;
    const name = canonicalName(part);
    if (name === 'userName' && typeof value === 'string' && plan.store.username === undefined) {
      plan.store.username = canon(value);
      plan.narrowed = true;
      plan.unique = true;
    } else if (name === 'externalId' && typeof value === 'string' && plan.store.external_id === undefined) {
      plan.store.external_id = value;
      plan.narrowed = true;
      plan.unique = true;
    } else if (name === 'id' && typeof value === 'string' && plan.uid === undefined) {
      plan.uid = value.toLowerCase();
      plan.narrowed = true;
      plan.unique = true;
    } else if (name === 'active' && typeof value === 'boolean' && plan.store.active === undefined) {
      plan.store.active = value;
    } else if ((name === 'emails' || name === 'emails.value') && typeof value === 'string' && plan.store.email === undefined) {
      plan.store.email = canon(value);
      plan.narrowed = true;
    } else if (instantBound(part) !== undefined) {
      const { column, op, at } = instantBound(part) as NonNullable<ReturnType<typeof instantBound>>;
      const bounds = (plan.store[column] ??= {});
      // Two bounds of one kind both hold: the stricter is kept.
      const current = bounds[op];
      bounds[op] = current === undefined ? at : op === 'gt' || op === 'ge' ? (at > current ? at : current) : at < current ? at : current;
    } else if (facetOf(part) !== undefined && plan.store.facets?.[facetOf(part) as Facet] === undefined) {
      const facet = facetOf(part) as Facet;
      (plan.store.facets ??= {})[facet] = canon((part as { value: string }).value);
      // The manager's id is case-exact: the store's case-insensitive match narrows, the filter decides.
      if (facet === 'manager') residual.push(part);
    } else {
      const address = part.kind === 'has' ? emailOfValuePath(part) : undefined;
      if (address !== undefined && plan.store.email === undefined) {
        plan.store.email = canon(address);
        plan.narrowed = true;
      }
      residual.push(part);
    }
  }
  const rest = residual.reduce<Filter | undefined>((all, part) => (all === undefined ? part : { kind: 'and', left: all, right: part }), undefined);
  if (rest !== undefined) plan.residual = rest;
  return plan;
}

/** `meta.created` or `meta.lastModified` compared with gt, ge, lt or le: a bound answered from its index. */
function instantBound(part: Filter): { column: 'created' | 'updated'; op: BoundOp; at: string } | undefined {
  if (part.kind !== 'compare' || typeof part.value !== 'string') return undefined;
  const { op } = part;
  if (op !== 'gt' && op !== 'ge' && op !== 'lt' && op !== 'le') return undefined;
  const resolved = resolveAttribute(part.path);
  if (resolved?.schema !== CORE_USER_SCHEMA || resolved.name !== 'meta') return undefined;
  const column = resolved.sub === 'lastModified' ? 'updated' : resolved.sub === 'created' ? 'created' : undefined;
  // assertAnswerable() refused what names no instant.
  return column === undefined ? undefined : { column, ...millisecondBound(op, parseInstant(part.value) as Instant) };
}

/** SCIM attributes (core or enterprise) a store facet answers with `eq` and a string. */
const FACET_OF: Record<string, Facet> = {
  title: 'title',
  userType: 'user_type',
  employeeNumber: 'employee_number',
  costCenter: 'cost_center',
  organization: 'organization',
  division: 'division',
  department: 'department',
  'manager.value': 'manager',
};

/** The facet an `eq` of a string names, if a store index answers it. */
function facetOf(part: Filter): Facet | undefined {
  if (part.kind !== 'compare' || part.op !== 'eq' || typeof part.value !== 'string') return undefined;
  const resolved = userAttributes.resolve(part.path);
  if (resolved === undefined) return undefined;
  return FACET_OF[resolved.subName === undefined ? resolved.name : `${resolved.name}.${resolved.subName}`];
}


/** The address `value eq "…"` names at the top level of an `emails[…]` value path, if any. */
function emailOfValuePath(part: Extract<Filter, { kind: 'has' }>): string | undefined {
  if (resolveAttribute(part.path)?.name !== 'emails') return undefined;
  for (const inner of conjuncts(part.filter)) {
    if (inner.kind === 'compare' && inner.op === 'eq' && inner.path.sub === undefined && inner.path.attr.toLowerCase() === 'value' && typeof inner.value === 'string') return inner.value;
  }
  return undefined;
}

/** Sort keys SCIM clients use; each compares as the schema says (userName case-insensitively). */
const SORT_KEYS: Record<string, (user: User) => string> = {
  id: (u) => u.uid,
  username: (u) => canon(u.username),
  externalid: (u) => u.external_id ?? '',
  displayname: (u) => canon(u.display_name ?? ''),
  'name.familyname': (u) => canon(u.name?.family_name ?? ''),
  'name.givenname': (u) => canon(u.name?.given_name ?? ''),
  'meta.created': (u) => u.created_at,
  'meta.lastmodified': (u) => u.updated_at,
  'emails.value': (u) => canon(u.email_address),
};

export function sortKeyOf(sortBy: string): (user: User) => string {
  const key = SORT_KEYS[sortBy.replace(/^urn:ietf:params:scim:schemas:core:2\.0:User:/i, '').toLowerCase()];
  if (key === undefined) throw badRequest('invalidValue', `sortBy must be one of: ${Object.keys(SORT_KEYS).join(', ')} (any case).`);
  return key;
}

/**
 * SCIM sort keys the store sorts by (store/user-store.ts SORT_FIELDS): the same order as
 * `GET /users?sort=`, folded as `q` folds (docs/api.md, "Sorting and paging"), so such a
 * sort pages through the sort's index, on any number of users, with or without a filter
 * the store answers. The others (externalId, emails.value, id descending) sort in memory.
 */
const STORE_SORT: Record<string, SortKey['field']> = {
  username: 'username',
  displayname: 'display_name',
  'name.familyname': 'family_name',
  'name.givenname': 'given_name',
  'meta.created': 'created_at',
  'meta.lastmodified': 'updated_at',
};

/** The store's sort for a request: [] for id ascending, a key for the keys above, undefined for the rest. */
function storeSortOf(request: ListRequest): SortKey[] | undefined {
  if (request.sortBy === undefined) return [];
  const name = request.sortBy.replace(/^urn:ietf:params:scim:schemas:core:2\.0:User:/i, '').toLowerCase();
  if (name === 'id') return request.descending ? undefined : [];
  const field = STORE_SORT[name];
  return field === undefined ? undefined : [{ field, descending: request.descending }];
}

/** The key of the mark of the page of `query` that starts at `startIndex`. */
const markKey = (query: string, startIndex: number) => `${startIndex}:${query}`;

/** Where a keyset page starts: after this uid and these sort values. */
interface Resume {
  after: string;
  afterValues: string[];
}

/**
 * Most users a page's start may lie past the nearest start this store remembers (1 when
 * none): such a start is found by reading the users before it, a few pages of CHUNK users
 * each, so a request may read at most this many to find it. Beyond it, 400 `invalidValue`
 * says how to page: from startIndex=1 in order, which marks each next page's start.
 */
export const SKIP_LIMIT = 10_000;

export function createScimLister(service: UserService) {
  /** Every user the store filter matches, refused when more than SCAN_LIMIT would be read. */
  async function everyUser(filter: SearchFilter, deadline: number | undefined): Promise<User[]> {
    if ((await service.count(filter, deadline)) > SCAN_LIMIT) {
      throw badRequest('tooMany', `This filter or sort needs more than ${SCAN_LIMIT} users read; filter by userName, externalId or id (eq).`);
    }
    const users: User[] = [];
    for (let after: string | undefined; ; ) {
      const { value } = await service.page({ filter, ...(after === undefined ? {} : { after }), limit: CHUNK, ...within(deadline) });
      users.push(...value);
      if (value.length < CHUNK) return users;
      after = value[value.length - 1]!.uid;
    }
  }

  /** Where a walk continues after the user `uid`: its uid and its sort values (undefined when it no longer exists). */
  async function resumeAfter(uid: string, sort: SortKey[]): Promise<Resume | undefined> {
    if (sort.length === 0) return { after: uid, afterValues: [] };
    const user = await service.findUser(uid);
    return user === undefined ? undefined : { after: uid, afterValues: sort.map((key) => sortValue(user, key.field)) };
  }

  /** Where the page at `startIndex` continues (undefined: from the first user), read from the first user when it is not remembered. */
  async function startOf(filter: SearchFilter, sort: SortKey[], startIndex: number, deadline: number | undefined): Promise<Resume | undefined> {
    let index = 1;
    let resume: Resume | undefined;
    while (index < startIndex) {
      const { value } = await service.page({ filter, sort, ...resume, limit: Math.min(CHUNK, startIndex - index), ...within(deadline) });
      const last = value[value.length - 1];
      if (last === undefined) return resume;
      resume = { after: last.uid, afterValues: sort.map((key) => sortValue(last, key.field)) };
      index += value.length;
    }
    return resume;
  }

  /** The candidates a residual filter keeps, checked a slice at a time so the event loop serves others between slices. */
  async function kept(candidates: User[], residual: Filter, inMemory: (user: User) => Record<string, unknown>): Promise<User[]> {
    const verdicts = await mapInSlices(candidates, (user) => matchesFilter(inMemory(user), residual, userAttributes));
    return candidates.filter((_, i) => verdicts[i]);
  }

  return async function list(request: ListRequest, inMemory: (user: User) => Record<string, unknown>, deadline?: number): Promise<ListPage> {
    const plan = planList(request.filter);
    const sortKey = request.sortBy === undefined ? undefined : sortKeyOf(request.sortBy);
    const sort = storeSortOf(request);
    if (plan.residual === undefined && !plan.narrowed && sort !== undefined) {
      const query = JSON.stringify([plan.store, sort, request.count]);
      const mark = await service.pageMark(markKey(query, request.startIndex));
      const remembered = mark === undefined ? undefined : await resumeAfter(mark.after, sort);
      if (remembered === undefined && request.startIndex - 1 > SKIP_LIMIT) {
        // A start past every user is an empty page (RFC 7644 §3.4.2.4); one within them would be read from the first user.
        const totalResults = await service.count(plan.store, deadline);
        if (request.startIndex > totalResults) return { users: [], totalResults };
        throw badRequest(
          'invalidValue',
          `startIndex ${request.startIndex} starts past the ${SKIP_LIMIT} users a request may skip to find its page. Walk the pages in order from startIndex=1 (each page makes the next one's start known), or narrow the filter.`,
        );
      }
      const resume = remembered ?? (await startOf(plan.store, sort, request.startIndex, deadline));
      const [{ value: users }, totalResults] = await Promise.all([
        request.count === 0 ? Promise.resolve({ value: [] as User[] }) : service.page({ filter: plan.store, sort, ...resume, limit: request.count, ...within(deadline) }),
        mark?.total ?? service.count(plan.store, deadline),
      ]);
      const last = users[users.length - 1];
      if (last !== undefined) await service.savePageMark(markKey(query, request.startIndex + users.length), { after: last.uid, total: totalResults });
      return { users, totalResults };
    }
    let candidates: User[];
    if (plan.unique) {
      // One index entry names the one candidate; the other store filters are checked on it.
      const { uid, store } = plan;
      const found = uid !== undefined ? await service.findUser(uid) : store.username !== undefined ? await service.findUserBy('username', store.username) : await service.findUserBy('external_id', store.external_id as string);
      candidates = found && matchesSearch(found, store) ? [found] : [];
    } else candidates = await everyUser(plan.store, deadline);
    const residual = plan.residual;
    const matching = residual === undefined ? candidates : await kept(candidates, residual, inMemory);
    const ordered = sort !== undefined && sort.length > 0 ? matching.sort(compareUsers(sort)) : sortKey === undefined ? matching : sortedBy(matching, sortKey, request.descending);
    return { users: ordered.slice(request.startIndex - 1, request.startIndex - 1 + request.count), totalResults: ordered.length };
  };
}

/** A page's deadline member, when it has one. */
const within = (deadline: number | undefined) => (deadline === undefined ? {} : { deadline });

/** `users` ordered by `key` (each computed once), ties by uid: a stable order across pages. */
function sortedBy(users: User[], key: (user: User) => string, descending: boolean): User[] {
  const direction = descending ? -1 : 1;
  return users
    .map((user) => ({ user, key: key(user) }))
    .sort((a, b) => direction * (a.key < b.key ? -1 : a.key > b.key ? 1 : a.user.uid < b.user.uid ? -1 : 1))
    .map(({ user }) => user);
}

