/**
 * The PostgreSQL store's search: a SearchFilter and a page turned into SQL, in one
 * place (store/search-plan.ts says which plan a page takes and why). A driven page reads
 * its users as `uid = ANY(ARRAY(…))`: the driver's uids are computed once and each user
 * found through the primary key, whatever the planner estimates of the driver (it has no
 * statistics on a prefix of a word); a walked page is left to the planner, which walks the
 * sort's index (test/search/search-plans.test.ts reads each shape's plan).
 */
import type postgres from 'postgres';
import { beyondDriver, BOUND_OPERATORS, candidateDrivers, DRIVE_BOUND, estimated, INTERSECT_BOUND, pickDriver, pickIntersection, SAMPLE_WINDOW, sampleStarts, termsOf, uniqueDriver, type Driver, type MatchCount, type TermDriver } from '../search-plan.js';
import { uidDescending } from '../../users/search-match.js';
import { FACETS, type SortKey } from '../../users/user-vocabulary.js';
import type { InstantBounds, SearchFilter, SearchPage } from '../user-store.js';

type Fragment = postgres.PendingQuery<postgres.Row[]>;
type Run = <T>(fn: () => Promise<T>) => Promise<T>;

/** The column a sort key reads (generated, indexed: postgres-migrations.ts, migration 11), and the type its keyset value is cast to. */
const SORT_COLUMN: Record<SortKey['field'] | 'uid', { column: string; type: string }> = {
  uid: { column: 'uid', type: 'uuid' },
  username: { column: 'sort_username', type: 'text' },
  display_name: { column: 'sort_display_name', type: 'text' },
  family_name: { column: 'sort_family_name', type: 'text' },
  given_name: { column: 'sort_given_name', type: 'text' },
  created_at: { column: 'created_at', type: 'timestamptz' },
  updated_at: { column: 'updated_at', type: 'timestamptz' },
};

export function postgresSearch(sql: postgres.Sql, driveBound = DRIVE_BOUND, intersectBound = INTERSECT_BOUND) {
  const and = (parts: Fragment[]) => (parts.length === 0 ? sql`TRUE` : parts.reduce((all, part) => sql`${all} AND ${part}`));
  /** `parts` separated by commas (a select list, an ORDER BY, a row value); at least one. */
  const list = (parts: Fragment[]) => parts.reduce((all, part) => sql`${all}, ${part}`);

  function boundsOf(column: string, bounds: InstantBounds): Fragment {
    const parts: Fragment[] = [];
    for (const op of ['gt', 'ge', 'lt', 'le'] as const) {
      const at = bounds[op];
      if (at !== undefined) parts.push(sql`${sql(column)} ${sql.unsafe(BOUND_OPERATORS[op])} ${at}::timestamptz`);
    }
    return and(parts);
  }

  /** The uids a driver names (one column `uid`). */
  function driverUids(driver: Driver): Fragment {
    switch (driver.kind) {
      case 'key':
        return sql`SELECT uid FROM user_keys WHERE key = ${driver.key} AND value = ${driver.value}`;
      case 'term':
        if (!driver.prefix) return sql`SELECT uid FROM user_terms WHERE field = ${driver.field} AND value = ${driver.value}`;
        return driver.high === undefined
          ? sql`SELECT uid FROM user_terms WHERE field = ${driver.field} AND value >= ${driver.value}`
          : sql`SELECT uid FROM user_terms WHERE field = ${driver.field} AND value >= ${driver.value} AND value < ${driver.high}`;
      case 'email':
        return sql`SELECT uid FROM user_emails WHERE value = ${driver.value}`;
      case 'inactive':
        return sql`SELECT uid FROM users WHERE NOT active`;
      case 'instant':
        return sql`SELECT uid FROM users WHERE ${boundsOf(driver.column, driver.bounds)}`;
      case 'intersection':
        // INTERSECT answers each uid once, however many words of the user a prefix starts.
        return sql`${driverUids(driver.of[0])} INTERSECT ${driverUids(driver.of[1])}`;
    }
  }

  /** Every condition of the filter, on the users row. */
  function conditions(filter: SearchFilter): Fragment {
    const parts: Fragment[] = [];
    for (const key of ['username', 'email_address', 'legacy_id', 'external_id'] as const) {
      const value = filter[key];
      if (value !== undefined) parts.push(sql`uid IN (SELECT uid FROM user_keys WHERE key = ${key} AND value = ${value})`);
    }
    if (filter.active !== undefined) parts.push(sql`active = ${filter.active}`);
    // OFFSET 0 keeps these checks of the row in hand: a prepared statement's generic plan, which
    // knows no value, would otherwise drive a page from the index of a facet a tenth of the users hold.
    if (filter.email !== undefined) parts.push(sql`EXISTS (SELECT 1 FROM user_emails e WHERE e.value = ${filter.email} AND e.uid = users.uid OFFSET 0)`);
    for (const facet of FACETS) {
      const value = filter.facets?.[facet];
      if (value !== undefined) parts.push(sql`EXISTS (SELECT 1 FROM user_terms t WHERE t.field = ${facet} AND t.value = ${value} AND t.uid = users.uid OFFSET 0)`);
    }
    if (filter.created !== undefined) parts.push(boundsOf('created_at', filter.created));
    if (filter.updated !== undefined) parts.push(boundsOf('updated_at', filter.updated));
    for (const word of filter.words ?? []) parts.push(sql`strpos(search_text, ${` ${word}`}) > 0`);
    if (filter.exclude?.length) parts.push(sql`uid <> ALL(${filter.exclude}::uuid[])`);
    return and(parts);
  }

  /** Order and keyset of a page: the sort keys, then the uid in the direction of the last key. */
  function ordering(page: Pick<SearchPage, 'sort' | 'after' | 'afterValues'>): { orderBy: Fragment; keyset: Fragment } {
    const sort = page.sort ?? [];
    const keys = [...sort.map((key) => ({ ...SORT_COLUMN[key.field], descending: key.descending })), { ...SORT_COLUMN.uid, descending: uidDescending(sort) }];
    const orderBy = list(keys.map((key) => sql`${sql(key.column)} ${key.descending ? sql`DESC` : sql`ASC`}`));
    if (page.after === undefined) return { orderBy, keyset: sql`TRUE` };
    const values = [...(page.afterValues ?? []), page.after];
    const value = (i: number) => sql`${values[i] as string}::${sql.unsafe((keys[i] as (typeof keys)[number]).type)}`;
    const first = keys[0] as (typeof keys)[number];
    if (keys.every((key) => key.descending === first.descending)) {
      // One direction: a row comparison, which the index range reads from the keyset on.
      const columns = list(keys.map((key): Fragment => sql`${sql(key.column)}`));
      const tuple = list(keys.map((_, i) => value(i)));
      return { orderBy, keyset: sql`(${columns}) ${first.descending ? sql`<` : sql`>`} (${tuple})` };
    }
    // Mixed directions: (k1 after v1) OR (k1 = v1 AND k2 after v2) OR …, with k1's bound alone first for the index.
    const branches = keys.map((key, i) =>
      and([...keys.slice(0, i).map((earlier, j) => sql`${sql(earlier.column)} = ${value(j)}`), sql`${sql(key.column)} ${key.descending ? sql`<` : sql`>`} ${value(i)}`]),
    );
    const any = branches.reduce((all, branch) => sql`${all} OR (${branch})`, sql`FALSE`);
    return { orderBy, keyset: sql`${sql(first.column)} ${first.descending ? sql`<=` : sql`>=`} ${value(0)} AND (${any})` };
  }

  /** How many entries `driver` names, counted up to `bound` + 1 (at most that many index entries read): a scalar subquery. */
  const countUpToOf = (driver: Driver, bound: number): Fragment => sql`(SELECT count(*) FROM (${driverUids(driver)} ${indexOrder(driver)} LIMIT ${bound + 1}) x)::int`;

  /**
   * For a driver read from `users`, the order of its index: a count up to a bound then reads
   * that index from its start, also when the planner has no statistics (a table imported
   * since its last ANALYZE), where it would otherwise scan the table for the first rows that match.
   */
  const indexOrder = (driver: Driver): Fragment =>
    driver.kind === 'instant' ? sql`ORDER BY ${sql(driver.column)}` : driver.kind === 'inactive' ? sql`ORDER BY uid` : sql``;

  /**
   * The driver of a page or a count (store/search-plan.ts), in one round trip: each
   * candidate counted up to `bound` + 1 and, only when none names at most `bound` (a CASE
   * whose subqueries run only when it is taken), each term counted up to the intersection's
   * bound; with `extra` columns the caller reads in the same statement (countMatches()).
   */
  async function planOf(run: Run, filter: SearchFilter, bound: number, extra?: Fragment): Promise<{ driver: Driver | undefined; row: Record<string, unknown> }> {
    const unique = uniqueDriver(filter);
    const candidates = unique === undefined ? candidateDrivers(filter) : [];
    const terms = termsOf(candidates);
    const columns: Fragment[] = candidates.map((driver, i) => sql`${countUpToOf(driver, bound)} AS ${sql(`c${i}`)}`);
    if (terms.length >= 2) {
      const none = and(candidates.map((_, i) => sql`${sql(`c${i}`)} > ${bound}`));
      const counted = sql`SELECT ${list(columns)}`;
      const intersect = terms.map((term, i) => sql`CASE WHEN ${none} THEN ${countUpToOf(term, intersectBound)} END AS ${sql(`t${i}`)}`);
      const all = list([sql`c.*`, ...intersect, ...(extra ? [extra] : [])]);
      // MATERIALIZED: the counts are read once, not again in each CASE that names them.
      const [row] = await run(() => sql<Record<string, number>[]>`WITH c AS MATERIALIZED (${counted}) SELECT ${all} FROM c`);
      return { driver: chosen(filter, candidates, terms, row as Record<string, number>, bound), row: row as Record<string, unknown> };
    }
    if (columns.length === 0 && extra === undefined) return { driver: unique, row: {} };
    const [row] = await run(() => sql<Record<string, number>[]>`SELECT ${list([...columns, ...(extra ? [extra] : [])])}`);
    return { driver: unique ?? chosen(filter, candidates, terms, row as Record<string, number>, bound), row: row as Record<string, unknown> };
  }

  /** The plan search-plan.ts picks from the counts planOf() read. */
  function chosen(filter: SearchFilter, candidates: Driver[], terms: TermDriver[], row: Record<string, number>, bound: number): Driver | undefined {
    if (candidates.length === 0) return undefined;
    const alone = pickDriver(filter, candidates, candidates.map((_, i) => row[`c${i}`] as number), bound);
    if (alone !== undefined || terms.length < 2) return alone;
    return pickIntersection(terms, terms.map((_, i) => row[`t${i}`] as number), intersectBound);
  }

  async function driverOf(run: Run, filter: SearchFilter, bound = driveBound): Promise<Driver | undefined> {
    return (await planOf(run, filter, bound)).driver;
  }

  /**
   * The rows a page or a count reads: every user, or the driver's users. The driver's uids
   * are computed once (an ARRAY subquery, DISTINCT: a user has several words a prefix starts)
   * and unnested, which the planner takes for a handful of rows whatever the statistics say:
   * each user is then found through the primary key, never by a scan of users compared
   * with the whole list (which a `uid = ANY(…)` filter on a sequential scan would be).
   */
  const rowsOf = (driver: Driver | undefined): Fragment => {
    if (driver === undefined) return sql`users`;
    const distinct = driver.kind === 'term' && driver.prefix ? sql`SELECT DISTINCT d.uid FROM (${driverUids(driver)}) d` : driverUids(driver);
    return sql`unnest(ARRAY(${distinct})) AS driven(driven_uid) JOIN users ON users.uid = driven.driven_uid`;
  };

  /**
   * The rows a page reads through `driver`: as rowsOf(), but a range of the instant the page
   * is sorted by first is read along that column's index from the range's bound (the page's
   * conditions hold the range), so a page reads its `limit` users, not every user the range
   * names, each twice (by the index for its uid, then by primary key) and then sorted.
   */
  const pageRowsOf = (driver: Driver | undefined, page: SearchPage): Fragment =>
    driver?.kind === 'instant' && page.sort?.[0]?.field === driver.column ? sql`users` : rowsOf(driver);

  /** A driven page: at most `limit` users through `driver`, in order, each with `walk_end` false, read only when `gate` holds. */
  function drivenPage(columns: Fragment, page: SearchPage, driver: Driver | undefined, gate: Fragment): Fragment {
    const { orderBy, keyset } = ordering(page);
    // The words the driver names are not checked again on its rows (search-plan.ts beyondDriver()).
    return sql`SELECT ${columns}, false AS walk_end FROM ${pageRowsOf(driver, page)} WHERE ${gate} AND ${conditions(beyondDriver(page.filter, driver))} AND ${keyset} ORDER BY ${orderBy} LIMIT ${page.limit}`;
  }

  /**
   * A walked page, with a walk limit, read only when `gate` holds: at most that many users of
   * the sort's index (an inner page), of which those that match are kept (the CTE `w`,
   * `walk_end` false); then, when they do not fill the page and that many users remain, the
   * last user the inner page reads, with `walk_end` true: found by its uid in the sort's index
   * (an index-only walk, no row read for the users it passes), then read by primary key. A
   * page the walk fills reads no such user (the walk of the walk limit's users is the cost of
   * a page that ends early, not of every walked page). One statement, one snapshot: the two
   * agree while users are written.
   */
  function walkedPage(columns: Fragment, page: SearchPage & { walkLimit: number }, gate: Fragment): { walk: Fragment; end: Fragment } {
    const { orderBy, keyset } = ordering(page);
    const inner = sql`SELECT * FROM users WHERE ${gate} AND ${keyset} ORDER BY ${orderBy} LIMIT ${page.walkLimit}`;
    return {
      walk: sql`SELECT ${columns}, false AS walk_end FROM (${inner}) users WHERE ${conditions(page.filter)} ORDER BY ${orderBy} LIMIT ${page.limit}`,
      end: sql`SELECT ${columns}, true FROM users WHERE ${gate} AND (SELECT count(*) FROM w) < ${page.limit}
        AND uid = (SELECT uid FROM users WHERE ${keyset} ORDER BY ${orderBy} LIMIT 1 OFFSET ${page.walkLimit - 1})`,
    };
  }

  /** The query counting the users that match, through `driver` or over every user. */
  const countOf = (filter: SearchFilter, driver: Driver | undefined): Fragment => sql`SELECT count(*)::int AS n FROM ${rowsOf(driver)} WHERE ${conditions(beyondDriver(filter, driver))}`;

  const single = async (query: Fragment, run: Run): Promise<number> => {
    const [row] = await run(() => sql<{ n: number }[]>`${query}`);
    return Number((row as { n: number }).n);
  };

  // Queries are returned wrapped ({ query }): a query fragment is a thenable that an `await` would send.
  return {
    /**
     * The page's query: `columns` of at most `limit` users, each with `walk_end` false, and for
     * a walk that ends before the page is full the user where it ended (walkedPage()). A filter
     * with one condition that may drive it is answered in one statement, as on SQLite: the
     * condition's count (up to the drive bound + 1, the CTE `c`), then the driven page when it
     * names at most the drive bound (pickDriver()), else the walked page, each branch gated by
     * the count (a one-time filter: the branch not taken reads nothing). UNION ALL appends
     * its branches in order.
     */
    async page(run: Run, columns: Fragment, page: SearchPage): Promise<{ query: Fragment }> {
      const candidates = uniqueDriver(page.filter) === undefined ? candidateDrivers(page.filter) : [];
      if (candidates.length === 1 && page.walkLimit !== undefined) {
        const { walk, end } = walkedPage(columns, { ...page, walkLimit: page.walkLimit }, sql`(SELECT n FROM c) > ${driveBound}`);
        const driven = drivenPage(columns, page, candidates[0], sql`(SELECT n FROM c) <= ${driveBound}`);
        return {
          query: sql`WITH c AS MATERIALIZED (SELECT ${countUpToOf(candidates[0] as Driver, driveBound)} AS n), w AS MATERIALIZED (${walk})
            (${driven}) UNION ALL SELECT * FROM w UNION ALL (${end})`,
        };
      }
      const driver = await driverOf(run, page.filter);
      if (driver === undefined && page.walkLimit !== undefined) {
        const { walk, end } = walkedPage(columns, { ...page, walkLimit: page.walkLimit }, sql`TRUE`);
        return { query: sql`WITH w AS MATERIALIZED (${walk}) SELECT * FROM w UNION ALL (${end})` };
      }
      return { query: drivenPage(columns, page, driver, sql`TRUE`) };
    },

    driverOf,

    /** The query counting every user that matches (SCIM's totalResults), through `driver` (default: the page's). */
    async countQuery(run: Run, filter: SearchFilter, driver?: Driver): Promise<{ query: Fragment }> {
      return { query: countOf(filter, driver ?? (await driverOf(run, filter))) };
    },

    /**
     * store/user-store.ts countMatches(). The number of users is estimated as the planner
     * does, from the statistics' rows per page and the table's current size (so it follows a
     * table that grew since its last ANALYZE); counted when no statistics exist yet.
     */
    async countMatches(run: Run, filter: SearchFilter, bound: number): Promise<MatchCount> {
      // The driver's counts and the directory's size and uid range, in one round trip.
      const { driver, row: stats } = await planOf(run, filter, bound, sql`
        (SELECT CASE WHEN relpages > 0 THEN reltuples / relpages * (pg_relation_size(oid) / current_setting('block_size')::int) END
          FROM pg_class WHERE oid = 'users'::regclass)::float8 AS total,
        (SELECT uid FROM users ORDER BY uid LIMIT 1)::text AS first, (SELECT uid FROM users ORDER BY uid DESC LIMIT 1)::text AS last`);
      const { first, last } = stats as { first: string | null; last: string | null };
      const estimatedTotal = (stats as { total: number | null }).total;
      const total = estimatedTotal === null ? await single(sql`SELECT count(*)::int AS n FROM users`, run) : Math.round(Number(estimatedTotal));
      if (driver !== undefined || total <= bound || first === null || last === null) return { value: await single(countOf(filter, driver), run), exact: true };
      const windows = sampleStarts(first, last).map(
        (start) => sql`(SELECT count(*)::int AS n, count(*) FILTER (WHERE ${conditions(filter)})::int AS m FROM (SELECT * FROM users WHERE uid >= ${start}::uuid ORDER BY uid LIMIT ${SAMPLE_WINDOW}) users)`,
      );
      const rows = await run(() => sql<{ n: number; m: number }[]>`${windows.reduce((all, window) => sql`${all} UNION ALL ${window}`)}`);
      return estimated(
        rows.reduce((sum, row) => sum + row.m, 0),
        rows.reduce((sum, row) => sum + row.n, 0),
        total,
      );
    },
  };
}
