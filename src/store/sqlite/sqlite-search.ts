/**
 * The SQLite store's search: a SearchFilter and a page turned into SQL, in one place
 * (store/search-plan.ts says which plan a page takes and why). Statements differ only by
 * which conditions are present: a few shapes, each prepared once.
 */
import { beyondDriver, BOUND_OPERATORS, candidateDrivers, DRIVE_BOUND, estimated, INTERSECT_BOUND, pickDriver, pickIntersection, SAMPLE_WINDOW, sampleStarts, termsOf, uniqueDriver, type Driver, type MatchCount } from '../search-plan.js';
import { uidDescending } from '../../users/search-match.js';
import { FACETS, type SortKey } from '../../users/user-vocabulary.js';
import type { InstantBounds, SearchFilter, SearchPage } from '../user-store.js';
import { USER_COLUMNS, type UserRow } from './sqlite-rows.js';
import type { SqlReads, SqlStatement, StatementCondition } from './sqlite-reads.js';

/**
 * A users row of a page: its uid, its stored representation (`profile`) and its entity tag.
 * A page reads no other column of a row that has its representation: the representation is
 * the user, and copying a row's ten other columns out of SQLite cost a page about as much as
 * its index walk (docs/performance.md, "Search against the raw search server"). A row an
 * earlier release wrote has none; its columns then come as one JSON object (`columns`), read
 * in the page's own snapshot, so the page holds that user as the page saw it: a user read
 * again later may be gone, and a page one user short would look like the last one.
 */
export interface StoredUserRow {
  uid: string;
  profile: string | null;
  etag: string | null;
  columns: string | null;
}

/** The columns of a users row (sqlite-rows.ts USER_COLUMNS) other than its representation, as `json_object` pairs of `u`. */
const ROW_PAIRS = USER_COLUMNS.split(', ').filter((column) => !column.includes(' AS ')).map((column) => `'${column}', u.${column}`).join(', ');

/** The columns of a page's rows (StoredUserRow). */
const PAGE_COLUMNS = `u.uid, u.representation AS profile, u.etag, CASE WHEN u.representation IS NULL OR u.etag IS NULL THEN json_object(${ROW_PAIRS}) END AS columns`;

interface Fragment {
  sql: string;
  params: unknown[];
}

/** The column a sort key reads (generated, indexed: sqlite-migrations.ts, migration 11). */
const SORT_COLUMN: Record<SortKey['field'] | 'uid', string> = {
  uid: 'u.uid',
  username: 'u.sort_username',
  display_name: 'u.sort_display_name',
  family_name: 'u.sort_family_name',
  given_name: 'u.sort_given_name',
  created_at: 'u.created_at',
  updated_at: 'u.updated_at',
};

function boundsOf(column: string, bounds: InstantBounds): Fragment {
  const sql: string[] = [];
  const params: unknown[] = [];
  for (const op of ['gt', 'ge', 'lt', 'le'] as const) {
    if (bounds[op] === undefined) continue;
    sql.push(`${column} ${BOUND_OPERATORS[op]} ?`);
    params.push(bounds[op]);
  }
  return { sql: sql.length ? sql.join(' AND ') : '1', params };
}

/** The uids a driver names (one column `uid`), for a count or to drive a page. */
function driverUids(driver: Driver): Fragment {
  switch (driver.kind) {
    case 'key':
      return { sql: 'SELECT uid FROM user_keys WHERE key = ? AND value = ?', params: [driver.key, driver.value] };
    case 'term':
      if (!driver.prefix) return { sql: 'SELECT uid FROM user_terms WHERE field = ? AND value = ?', params: [driver.field, driver.value] };
      return driver.high === undefined
        ? { sql: 'SELECT uid FROM user_terms WHERE field = ? AND value >= ?', params: [driver.field, driver.value] }
        : { sql: 'SELECT uid FROM user_terms WHERE field = ? AND value >= ? AND value < ?', params: [driver.field, driver.value, driver.high] };
    case 'email':
      return { sql: 'SELECT uid FROM user_emails WHERE value = ?', params: [driver.value] };
    case 'inactive':
      return { sql: 'SELECT uid FROM users WHERE active = 0', params: [] };
    case 'instant': {
      const where = boundsOf(driver.column, driver.bounds);
      return { sql: `SELECT uid FROM users WHERE ${where.sql}`, params: where.params };
    }
    case 'intersection': {
      // INTERSECT answers each uid once, however many words of the user a prefix starts.
      const [a, b] = driver.of.map(driverUids) as [Fragment, Fragment];
      return { sql: `${a.sql} INTERSECT ${b.sql}`, params: [...a.params, ...b.params] };
    }
  }
}

/** Every condition of the filter, on the users row `u`. */
function conditions(filter: SearchFilter): Fragment {
  const sql: string[] = [];
  const params: unknown[] = [];
  for (const key of ['username', 'email_address', 'legacy_id', 'external_id'] as const) {
    if (filter[key] === undefined) continue;
    sql.push('u.uid IN (SELECT uid FROM user_keys WHERE key = ? AND value = ?)');
    params.push(key, filter[key]);
  }
  if (filter.active !== undefined) sql.push(filter.active ? 'u.active = 1' : 'u.active = 0');
  if (filter.email !== undefined) {
    sql.push('u.uid IN (SELECT uid FROM user_emails WHERE value = ?)');
    params.push(filter.email);
  }
  for (const facet of FACETS) {
    const value = filter.facets?.[facet];
    if (value === undefined) continue;
    sql.push('EXISTS (SELECT 1 FROM user_terms t WHERE t.field = ? AND t.value = ? AND t.uid = u.uid)');
    params.push(facet, value);
  }
  for (const [column, bounds] of [['u.created_at', filter.created], ['u.updated_at', filter.updated]] as const) {
    if (bounds === undefined) continue;
    const where = boundsOf(column, bounds);
    sql.push(where.sql);
    params.push(...where.params);
  }
  for (const word of filter.words ?? []) {
    sql.push('instr(u.search_text, ?) > 0');
    params.push(` ${word}`);
  }
  if (filter.exclude?.length) {
    sql.push(`u.uid NOT IN (${filter.exclude.map(() => '?').join(', ')})`);
    params.push(...filter.exclude);
  }
  return { sql: sql.length ? sql.join(' AND ') : '1', params };
}

/** Order and keyset of a page: the sort keys, then the uid in the direction of the last key. */
function ordering(page: Pick<SearchPage, 'sort' | 'after' | 'afterValues'>): { orderBy: string; keyset: Fragment } {
  const sort = page.sort ?? [];
  const keys = [...sort.map((key) => ({ column: SORT_COLUMN[key.field], descending: key.descending })), { column: 'u.uid', descending: uidDescending(sort) }];
  const orderBy = keys.map((key) => `${key.column}${key.descending ? ' DESC' : ''}`).join(', ');
  if (page.after === undefined) return { orderBy, keyset: { sql: '1', params: [] } };
  const values = [...(page.afterValues ?? []), page.after];
  if (keys.every((key) => key.descending === keys[0]?.descending)) {
    // One direction: a row value, which the index range reads from the keyset on.
    const columns = keys.map((key) => key.column).join(', ');
    return { orderBy, keyset: { sql: `(${columns}) ${keys[0]?.descending ? '<' : '>'} (${values.map(() => '?').join(', ')})`, params: values } };
  }
  // Mixed directions: (k1 after v1) OR (k1 = v1 AND k2 after v2) OR …, with k1's bound alone first for the index.
  const first = keys[0] as (typeof keys)[number];
  const branches: string[] = [];
  const params: unknown[] = [values[0]];
  keys.forEach((key, i) => {
    const equal = keys.slice(0, i).map((earlier) => `${earlier.column} = ?`);
    branches.push([...equal, `${key.column} ${key.descending ? '<' : '>'} ?`].join(' AND '));
    params.push(...values.slice(0, i + 1));
  });
  return { orderBy, keyset: { sql: `${first.column} ${first.descending ? '<=' : '>='} ? AND (${branches.join(' OR ')})`, params } };
}

/** The columns of `users` that conditions() reads (besides the uid). */
const WALK_CONDITION_COLUMNS = ['active', 'created_at', 'updated_at', 'search_text'];

/** Reads a walked page or a count makes: every row it reads is checked against the deadline (sqlite-reads.ts). */
const BUDGET_CHECK = 'within_budget(u.uid)';

/** The page's rows, the change-feed position they reflect, and where a walk ended (when one did before the page was full). */
export interface PageRows {
  rows: StoredUserRow[];
  position: number;
  walkedTo?: UserRow;
}

/** `reads` runs statements where they may take long: the reader thread (an in-memory database's own connection). */
export function sqliteSearch(reads: SqlReads, driveBound = DRIVE_BOUND, intersectBound = INTERSECT_BOUND) {
  /** The FROM clause of a page: the driver's users, or every user (walked along the sort's index). */
  function source(driver: Driver | undefined): Fragment {
    if (driver === undefined) return { sql: 'users u', params: [] };
    const uids = drivenUids(driver);
    // CROSS JOIN: SQLite reads the driver first.
    return { sql: `(${uids.sql}) d CROSS JOIN users u ON u.uid = d.uid`, params: uids.params };
  }

  /** The uids `driver` names, each once. */
  function drivenUids(driver: Driver): Fragment {
    const uids = driverUids(driver);
    // DISTINCT: a user has several words a prefix starts (an intersection is distinct already).
    const distinct = driver.kind === 'term' && driver.prefix ? 'DISTINCT ' : '';
    return { sql: uids.sql.replace(/^SELECT /, `SELECT ${distinct}`), params: uids.params };
  }

  /**
   * Every condition of the filter but the words the driver names (beyondDriver()): a word is
   * checked in `search_text`, which lies past the row's representation, so each check reads
   * the whole row. A walk (no driver) checks the deadline first on each row it reads.
   */
  function where(filter: SearchFilter, driver: Driver | undefined): Fragment {
    const all = conditions(beyondDriver(filter, driver));
    return driver === undefined ? { sql: `${BUDGET_CHECK} AND ${all.sql}`, params: all.params } : all;
  }

  /** The statement counting how many entries each driver names, up to `bound` + 1 (each count reads at most `bound` + 1 index entries): one row. */
  function countsQuery(drivers: readonly Driver[], bound: number): SqlStatement {
    const parts = drivers.map((driver) => driverUids(driver));
    const sql = `SELECT ${parts.map((part, i) => `(SELECT count(*) FROM (${part.sql} LIMIT ?)) AS c${i}`).join(', ')}`;
    return { sql, params: parts.flatMap((part) => [...part.params, bound + 1]), mode: 'row' };
  }

  async function countUpTo(drivers: readonly Driver[], bound: number, deadline?: number): Promise<number[]> {
    const [row] = await reads([countsQuery(drivers, bound)], deadline);
    return row as number[];
  }

  async function driverOf(filter: SearchFilter, bound = driveBound, deadline?: number): Promise<Driver | undefined> {
    if (uniqueDriver(filter) !== undefined) return uniqueDriver(filter);
    const candidates = candidateDrivers(filter);
    if (candidates.length === 0) return undefined;
    const alone = pickDriver(filter, candidates, await countUpTo(candidates, bound, deadline), bound);
    const terms = termsOf(candidates);
    if (alone !== undefined || terms.length < 2) return alone;
    return pickIntersection(terms, await countUpTo(terms, intersectBound, deadline), intersectBound);
  }

  /**
   * The statement of a page (at most `limit` users) through `driver`, as it is run: EXPLAIN
   * QUERY PLAN reads it in tests. A walk with a walk limit reads at most that many users of
   * the sort's index (an inner page), then keeps those that match.
   */
  function pageQuery(page: SearchPage, driver: Driver | undefined): Fragment {
    const conditionsOf = where(page.filter, driver);
    const { orderBy, keyset } = ordering(page);
    // The stored representation (as `profile`), which the page sends as it is (withStoredRepresentation()).
    const columns = PAGE_COLUMNS;
    if (driver === undefined && page.walkLimit !== undefined) {
      // The inner page reads `users` unaliased, so its plan names the table (tests tell its index walk from a scan).
      const unaliased = (sql: string) => sql.replace(/\bu\./g, '');
      // It reads only what the conditions and the order look at, not every column of each user it walks (the
      // representation, the generated sort keys); the page's rows are read again, by uid, for the page alone.
      const walked = [...new Set(['uid', ...WALK_CONDITION_COLUMNS, ...(page.sort ?? []).map((key) => unaliased(SORT_COLUMN[key.field]))])].join(', ');
      const uids = `SELECT u.uid FROM (SELECT ${walked} FROM users WHERE ${unaliased(keyset.sql)} ORDER BY ${unaliased(orderBy)} LIMIT ?) u WHERE ${conditionsOf.sql} ORDER BY ${orderBy} LIMIT ?`;
      return {
        sql: `SELECT ${columns} FROM (${uids}) p CROSS JOIN users u ON u.uid = p.uid ORDER BY ${orderBy}`,
        params: [...keyset.params, page.walkLimit, ...conditionsOf.params, page.limit],
      };
    }
    // The page's uids first, then their rows: sorting the driven users' uids alone, not rows that carry
    // their representation (about 3.5 KB each, read for every driven user, kept only for the page's).
    const rowsOf = (uids: string) => `SELECT ${columns} FROM (${uids}) p CROSS JOIN users u ON u.uid = p.uid ORDER BY ${orderBy}`;
    if (conditionsOf.sql === '1' && (page.sort ?? []).length === 0) {
      // Nothing to check and sorted by uid: the driver's uids alone decide the page, no user is read before its page's.
      const uids = drivenUids(driver as Driver);
      if ((driver as Driver).kind !== 'intersection') {
        // One SELECT of the driver's table, its DISTINCT, keyset, order and limit together: SQLite sorts the uids once
        // (the DISTINCT's B-tree gives them in order), and the page's rows follow in the order of `p`, without a sort.
        const ofTable = (sql: string) => sql.replace(/\bu\.uid\b/g, 'uid');
        const ofPage = (sql: string) => sql.replace(/\bu\.uid\b/g, 'p.uid');
        return {
          sql: `SELECT ${columns} FROM (${uids.sql} AND ${ofTable(keyset.sql)} ORDER BY ${ofTable(orderBy)} LIMIT ?) p CROSS JOIN users u ON u.uid = p.uid ORDER BY ${ofPage(orderBy)}`,
          params: [...uids.params, ...keyset.params, page.limit],
        };
      }
      const ofDriver = (sql: string) => sql.replace(/\bu\.uid\b/g, 'd.uid');
      return { sql: rowsOf(`SELECT d.uid FROM (${uids.sql}) d WHERE ${ofDriver(keyset.sql)} ORDER BY ${ofDriver(orderBy)} LIMIT ?`), params: [...uids.params, ...keyset.params, page.limit] };
    }
    const from = source(driver);
    return {
      sql: rowsOf(`SELECT u.uid FROM ${from.sql} WHERE ${conditionsOf.sql} AND ${keyset.sql} ORDER BY ${orderBy} LIMIT ?`),
      params: [...from.params, ...conditionsOf.params, ...keyset.params, page.limit],
    };
  }

  /** The statement reading the last user a walk limited to `walkLimit` users reads (none when fewer remain). */
  function walkEndQuery(page: SearchPage & { walkLimit: number }): Fragment {
    const { orderBy, keyset } = ordering(page);
    const columns = USER_COLUMNS.split(', ').map((column) => `u.${column}`).join(', ');
    return { sql: `SELECT ${columns} FROM users u WHERE ${keyset.sql} ORDER BY ${orderBy} LIMIT 1 OFFSET ?`, params: [...keyset.params, page.walkLimit - 1] };
  }

  /** The statement counting the users that match, through `driver` or over every user. */
  function countQuery(filter: SearchFilter, driver: Driver | undefined): Fragment {
    const from = source(driver);
    const conditionsOf = where(filter, driver);
    return { sql: `SELECT count(*) AS n FROM ${from.sql} WHERE ${conditionsOf.sql}`, params: [...from.params, ...conditionsOf.params] };
  }

  /** The statements of a page through `driver` (its rows, then where a walk ended), each run only `when` it holds. */
  function pageStatements(page: SearchPage, driver: Driver | undefined, when?: StatementCondition): SqlStatement[] {
    const limited = driver === undefined && page.walkLimit !== undefined ? { ...page, walkLimit: page.walkLimit } : undefined;
    const condition = when === undefined ? {} : { when };
    const statements: SqlStatement[] = [{ ...pageQuery(page, driver), mode: 'all', ...condition }];
    // Read only when the page is not full: a walk that fills it ends at its last user.
    if (limited) statements.push({ ...walkEndQuery(limited), mode: 'get', unlessRows: page.limit, ...condition });
    return statements;
  }

  function pageOf(page: SearchPage, position: unknown, rows: unknown, end: unknown): PageRows {
    const result = { rows: rows as StoredUserRow[], position: (position as { latest: number }).latest };
    // A page the walk filled ends at its last user; one the walk limit ended continues after the last user read.
    return end === undefined || result.rows.length >= page.limit ? result : { ...result, walkedTo: end as UserRow };
  }

  /**
   * A page with one condition that may drive it, in one round trip: the condition's count,
   * then the driven page when it names at most the drive bound (pickDriver()), else the
   * walked page, each statement run only when its plan is the one the count chose.
   */
  async function onePlanOf(page: SearchPage, latest: string, candidate: Driver) {
    const driven = pageStatements(page, candidate, { result: 0, at: 0, atMost: driveBound });
    const walked = pageStatements(page, undefined, { result: 0, at: 0, atMost: driveBound, above: true });
    const [, position, ...results] = await reads([countsQuery([candidate], driveBound), { sql: latest, params: [], mode: 'get' }, ...driven, ...walked], page.deadline);
    const [rows, end] = results[0] !== undefined ? results : results.slice(driven.length);
    return pageOf(page, position, rows, end);
  }

  const single = async (fragment: Fragment, deadline?: number) => {
    const [row] = await reads([{ ...fragment, mode: 'get' }], deadline);
    return (row as { n: number }).n;
  };

  return {
    pageQuery,
    countQuery,
    driverOf,

    /**
     * A page's rows, and the change-feed position they reflect, read in one snapshot: the
     * position first, so the page reflects at least every event at or below it.
     */
    async page(page: SearchPage, latest: string): Promise<PageRows> {
      const candidates = uniqueDriver(page.filter) === undefined ? candidateDrivers(page.filter) : [];
      if (candidates.length === 1) return onePlanOf(page, latest, candidates[0] as Driver);
      const driver = await driverOf(page.filter, driveBound, page.deadline);
      const [position, rows, end] = await reads([{ sql: latest, params: [], mode: 'get' }, ...pageStatements(page, driver)], page.deadline);
      return pageOf(page, position, rows, end);
    },

    /** Every user that matches, counted (SCIM's totalResults). */
    async count(filter: SearchFilter, deadline?: number): Promise<number> {
      return single(countQuery(filter, await driverOf(filter, driveBound, deadline)), deadline);
    },

    /** store/user-store.ts countMatches(). */
    async countMatches(filter: SearchFilter, bound: number, deadline?: number): Promise<MatchCount> {
      const driver = await driverOf(filter, bound, deadline);
      // Each in its own subquery: SQLite reads one end of the index for a lone min() or max(), and every row for both at once.
      const [totals] = await reads([{ sql: 'SELECT (SELECT n FROM user_count) AS total, (SELECT min(uid) FROM users) AS first, (SELECT max(uid) FROM users) AS last', params: [], mode: 'get' }], deadline);
      const { total, first, last } = totals as { total: number; first: string | null; last: string | null };
      if (driver !== undefined || total <= bound || first === null || last === null) return { value: await single(countQuery(filter, driver), deadline), exact: true };
      const { sql: matches, params } = conditions(filter);
      const windows = sampleStarts(first, last).map((start) => ({
        sql: `SELECT count(*) AS n, coalesce(sum(${matches}), 0) AS m FROM (SELECT * FROM users WHERE uid >= ? ORDER BY uid LIMIT ?) u`,
        params: [...params, start, SAMPLE_WINDOW],
        mode: 'get' as const,
      }));
      const rows = (await reads(windows, deadline)) as { n: number; m: number }[];
      return estimated(
        rows.reduce((sum, row) => sum + row.m, 0),
        rows.reduce((sum, row) => sum + row.n, 0),
        total,
      );
    },
  };
}
